"""Web benchmark of the pages around the table (prints figures; not a test). For bench/web.py to
fold in; kept apart while both are written at once.

A fresh PostgreSQL database of its own (dropped at the end), populated as bench/moderation.py
does (100,000 reports of which 1,000 open). In-process through Django's test client, signed in:

1. the moderators' queue page `/moderation/` (open reports, 50 a page; filtered by reason;
   overdue only), p50/p99 and SQL queries per page (target p99 < 100 ms, as the API's queue);
2. a player card `/users/{id}/` of a player with 1,000 finished games, seen by a player who
   shared some of them (so the «Пожаловаться» form is built too), p50/p99 (target < 50 ms);
3. web pushes per second sent by one worker (`drain_outbox`'s push sender, one transaction per
   push as in production) to the fake push service (tests/fake_push.py) in another process.

    .venv/bin/python bench/web_club.py [--requests 300] [--pushes 2000] [--parts queue,card,pushes]
        [--keep]

`--parts card` measures the card alone (on 30 players of its own instead of the 100,000 reports).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import moderation as moderation_bench  # noqa: E402
from bench.figures import percentile  # noqa: E402
from bench.stack import bench_database  # noqa: E402

DATABASE = "canasta_web_club_bench"
CARD_GAMES = 1_000


def timed_pages(client, path: str, requests: int) -> tuple[list[float], list[float], int]:
    """Wall time and this process's CPU time per page (ms), and the SQL queries of one page.
    CPU leaves out the waits for PostgreSQL, which on a shared machine say more about the
    neighbours than about the page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(path).status_code == 200, path  # warm up, and the page is there
    wall, cpu = [], []
    for _ in range(requests):
        started, cpu_started = time.perf_counter(), time.process_time()
        answer = client.get(path)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        assert answer.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    return wall, cpu, len(queries)


def report(name: str, wall: list[float], cpu: list[float], queries: int) -> None:
    print(
        f"{name:44s} p50 {statistics.median(wall):6.1f} ms  p99 {percentile(wall, 0.99):6.1f} ms"
        f"  (CPU p50 {statistics.median(cpu):5.1f} ms)  {queries} queries"
    )


def bench_queue(requests: int) -> None:
    from django.test import Client

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(username="moderator0"))
    print(f"moderators' queue page, {requests} requests each:")
    for name, path in (
        ("/moderation/ (open, soonest due first)", "/moderation/"),
        ("/moderation/?reason=cheating", "/moderation/?reason=cheating"),
        ("/moderation/?overdue=true", "/moderation/?overdue=true"),
        ("/moderation/?status=resolved", "/moderation/?status=resolved"),
    ):
        report(name, *timed_pages(client, path, requests))


def populate_card() -> tuple[int, int]:
    """A player with 1,000 finished games (and Authority changes); a viewer who shared 50."""
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Seat
    from moderation.models import Afterword, AuthorityChange

    now = timezone.now()
    player = User.objects.create(username="veteran", display_name="Ветеран", password="!")
    viewer = User.objects.create(username="neighbour", display_name="Соседка", password="!")
    others = list(User.objects.filter(username__startswith="bench")[:30])
    if len(others) < 30:  # --parts card: the reports were not populated
        others = User.objects.bulk_create(
            User(username=f"bench-card-{n}", password="!") for n in range(30)
        )
    games = Game.objects.bulk_create(
        Game(
            mode="async",
            length="deal",
            rules={},
            status="finished",
            created_by=player,
            finished_at=now - timedelta(hours=n),
            scores=[5000 + n % 500, 3000],
            winner_team=n % 2,
        )
        for n in range(CARD_GAMES)
    )
    seats: list[Seat] = []
    for n, game in enumerate(games):
        table = [player, viewer if n % 20 == 0 else others[n % 30], others[(n + 7) % 30]]
        table.append(others[(n + 13) % 30])
        seats.extend(
            Seat.at_table(game=game, user=user, seat=seat) for seat, user in enumerate(table)
        )
    Seat.objects.bulk_create(seats, batch_size=5_000)
    shared = [game for n, game in enumerate(games) if n % 20 == 0]
    Afterword.objects.bulk_create(
        Afterword(game=game, author=player, to="table", text="Хорошая игра") for game in shared
    )
    AuthorityChange.objects.bulk_create(
        AuthorityChange(user=player, amount=1, kind="kudos", reason="counted", giver=viewer)
        for _ in range(200)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return player.pk, viewer.pk


def bench_card(requests: int) -> None:
    from django.test import Client

    from accounts.models import User

    player_id, viewer_id = populate_card()
    client = Client()
    client.force_login(User.objects.get(pk=viewer_id))
    print(f"player card, {CARD_GAMES} finished games, {requests} requests:")
    report(
        "/users/{id}/ (with «Пожаловаться»)",
        *timed_pages(client, f"/users/{player_id}/", requests),
    )
    report("/users/{id}/ (signed out)", *timed_pages(Client(), f"/users/{player_id}/", requests))


FAKE_PUSH_SERVICE = """
import sys, time
sys.path.insert(0, {root!r})
from tests.fake_push import FakePushService
service = FakePushService().start()
print(service.browser("x").endpoint.rsplit("/", 1)[0], flush=True)
while True:
    time.sleep(3600)
"""


def bench_pushes(pushes: int) -> None:
    from accounts.models import User
    from notifications import services
    from notifications.models import PushDelivery, PushSubscription
    from tests.fake_push import FakeBrowser

    service = subprocess.Popen(
        [sys.executable, "-c", FAKE_PUSH_SERVICE.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert service.stdout is not None
        base = service.stdout.readline().strip()
        users = list(User.objects.filter(username__startswith="bench")[:100])
        devices_per_user = max(1, pushes // (len(users) * 5))
        for user in users:
            for device in range(devices_per_user):
                browser = FakeBrowser(endpoint=f"{base}/{user.pk}-{device}")
                services.subscribe_push(
                    user=user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth
                )
        for _ in range(5):  # five notifications per player
            for user in users:
                services.notify(
                    user_id=user.pk, kind="kudos_received", payload={"text": "Спасибо за игру!"}
                )
        while services._deliver_in_app(batch_size=services.OUTBOX_BATCH):
            pass
        queued = PushDelivery.objects.filter(status="pending").count()
        started = time.perf_counter()
        cpu_started = time.process_time()
        sent = services._send_pushes(budget_seconds=600)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        print(
            f"web pushes by one worker: {sent} of {queued} sent in {elapsed:.1f} s: "
            f"{sent / elapsed:.0f} pushes/s ({cpu / sent * 1000:.2f} ms CPU each, "
            f"{PushSubscription.objects.count()} devices)"
        )
    finally:
        service.terminate()
        service.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--pushes", type=int, default=2000)
    parser.add_argument("--parts", default="queue,card,pushes", help="which to measure")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    parts = set(args.parts.split(","))

    settings_env = {
        "CELERY_BROKER_URL": "memory://",
        "CANASTA_VAR_DIR": os.environ.get("CANASTA_VAR_DIR", str(ROOT / "var" / "bench")),
    }
    with bench_database(DATABASE, env=settings_env, keep=args.keep):
        if parts & {"queue", "pushes"}:
            moderation_bench.populate()
        if "queue" in parts:
            bench_queue(args.requests)
        if "card" in parts:
            bench_card(args.requests)
        if "pushes" in parts:
            bench_pushes(args.pushes)


if __name__ == "__main__":
    main()
