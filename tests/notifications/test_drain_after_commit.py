"""One drain publish per committed transaction that notified, however many notifications it
wrote; a rolled back transaction or savepoint takes its publish with it."""

import pytest
from django.db import transaction

from notifications.services import notify, publisher
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def drains(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The drain publishes made at commits (the publisher's throttle left out)."""
    published: list[int] = []
    monkeypatch.setattr(publisher, "_publish_drain", lambda: published.append(1))
    return published


def test_a_transaction_of_many_notifications_publishes_one_drain(drains):
    user = UserFactory.create()
    with transaction.atomic():
        for index in range(3):
            notify(user_id=user.pk, kind="sanction", dedupe_key=str(index))
        assert drains == []
    assert drains == [1]


def test_each_committed_transaction_publishes_its_own_drain(drains):
    user = UserFactory.create()
    for index in range(2):
        with transaction.atomic():
            notify(user_id=user.pk, kind="sanction", dedupe_key=str(index))
    assert drains == [1, 1]


def test_a_rolled_back_transaction_leaves_the_next_one_its_drain(drains):
    user = UserFactory.create()
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(user_id=user.pk, kind="sanction", dedupe_key="lost")
        raise RuntimeError
    with transaction.atomic():
        notify(user_id=user.pk, kind="sanction", dedupe_key="kept")
    assert drains == [1]


def test_a_rolled_back_savepoint_takes_its_drain_and_a_later_notification_registers_one(drains):
    user = UserFactory.create()
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            notify(user_id=user.pk, kind="sanction", dedupe_key="lost")
            raise RuntimeError
        notify(user_id=user.pk, kind="sanction", dedupe_key="kept")
    assert drains == [1]


def test_a_notification_outside_a_transaction_publishes_at_once(drains):
    notify(user_id=UserFactory.create().pk, kind="sanction")
    assert drains == [1]
