"""Drain publishes after commits: at once when none went out lately, else once at the end of the
interval, which covers every commit before it."""

import pytest

from notifications.services import publisher


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    countdowns: list[float] = []
    monkeypatch.setattr(
        publisher, "publish", lambda task, *, countdown=0: countdowns.append(countdown)
    )
    return countdowns


def publisher_at(times: list[float]) -> publisher.DrainPublisher:
    moments = iter(times)
    return publisher.DrainPublisher(interval=1.0, monotonic=lambda: next(moments))


def test_the_first_commit_publishes_at_once(published):
    publisher_at([100.0])()

    assert published == [0.0]


def test_commits_within_the_interval_share_one_drain_at_its_end(published):
    publisher = publisher_at([100.0, 100.1, 100.5, 100.99])
    for _ in range(4):
        publisher()

    assert published == [0.0, pytest.approx(0.9)]


def test_after_the_interval_the_next_commit_publishes_again(published):
    publisher = publisher_at([100.0, 100.2, 101.3, 103.0])
    for _ in range(4):
        publisher()

    # 100.2 waits for 101.0; 101.3 comes after that drain: it waits for 102.0; 103.0 at once.
    assert published == [0.0, pytest.approx(0.8), pytest.approx(0.7), 0.0]


def test_no_commit_waits_longer_than_the_interval(published):
    times = [100 + step * 0.07 for step in range(100)]
    publisher = publisher_at(list(times))
    due: list[float] = []
    for moment in times:
        before = len(published)
        publisher()
        if len(published) > before:
            due.append(moment + published[-1])
        # Some drain runs at or after this commit, and within the interval.
        assert any(moment <= run <= moment + 1.0 + 1e-9 for run in due)
    assert len(published) <= 8  # 7 s of commits every 70 ms
