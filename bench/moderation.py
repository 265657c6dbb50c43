"""Moderation benchmark (prints figures; not a test).

A fresh PostgreSQL database on the machine's server, migrated; 100,000 reports of which 1,000 are
open. Measures, in-process through the API (DRF test client, token-less force_authenticate):
the moderators' queue `GET /api/moderation/reports/` (default: open, 50 a page; filtered by
reason; the resolved archive), p50/p99 and SQL queries per request; then the SLA sweep over
10,000 open reports that are all due for an alert (half breached, half 1 hour from the deadline),
with 3 moderators on duty and 2 admins, and a second sweep that finds nothing. The database is
dropped at the end.

    .venv/bin/python bench/moderation.py [--requests 300] [--keep]

Targets: queue p99 < 100 ms; sweep over 10,000 open reports < 5 s.
"""

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.figures import percentile, timed_gets
from bench.stack import bench_database

DATABASE = "canasta_moderation_bench"
GAMES = 8_400
PLAYERS = 1_200
REPORTS = 100_000
OPEN_REPORTS = 1_000
SWEEP_OPEN_REPORTS = 10_000
# Rows per INSERT of the other tables: a statement bound on the server takes at most 65,535
# parameters (a game row, whose columns grow, in batches of its own).
BATCH = 2_000


def populate() -> None:
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Seat
    from moderation import policy
    from moderation.models import Report

    now = timezone.now()
    started = time.perf_counter()
    users = User.objects.bulk_create(
        User(username=f"bench{n}", display_name=f"Bench {n}", password="!") for n in range(PLAYERS)
    )
    games = Game.objects.bulk_create(
        (
            Game(
                mode="async",
                length="deal",
                rules={},
                status="finished",
                created_by=users[n % PLAYERS],
                finished_at=now - timedelta(days=40) + timedelta(seconds=n * 400),
            )
            for n in range(GAMES)
        ),
        batch_size=65_535 // len(Game._meta.concrete_fields),
    )
    seats = [
        Seat.at_table(game=game, user=users[(n * 4 + seat) % PLAYERS], seat=seat)
        for n, game in enumerate(games)
        for seat in range(4)
    ]
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    # Every ordered pair of a table (12 per game) is one possible report.
    pairs = [(a, b) for a in range(4) for b in range(4) if a != b]
    reasons = [choice for choice, _ in Report.Reason.choices]
    reports = []
    for n in range(REPORTS):
        game_index, pair_index = divmod(n, len(pairs))
        reporter_seat, accused_seat = pairs[pair_index]
        game = games[game_index]
        base = game_index * 4
        is_open = n >= REPORTS - OPEN_REPORTS
        if is_open:
            created = now - timedelta(seconds=(REPORTS - n) * 12)  # the last 3.3 hours
        else:
            created = now - timedelta(days=40) + timedelta(seconds=n * 34)
        answered = created + timedelta(minutes=20 + n % 300)
        reports.append(
            Report(
                game=game,
                reporter=users[(base + reporter_seat) % PLAYERS],
                accused=users[(base + accused_seat) % PLAYERS],
                reason=reasons[n % len(reasons)],
                text="Грубил после игры",
                status="open" if is_open else "resolved",
                created_at=created,
                due_at=created + policy.REPORT_SLA,
                resolved_at=None if is_open else answered,
                decision="" if is_open else "dismiss",
                moderator_message="" if is_open else "Спасибо",
                claimed_by=users[0] if is_open and n % 3 == 0 else None,
                claim_expires_at=now + timedelta(minutes=10) if is_open and n % 3 == 0 else None,
            )
        )
        if len(reports) == BATCH:
            Report.objects.bulk_create(reports)
            reports = []
    Report.objects.bulk_create(reports)

    moderators = Group.objects.get(name=policy.MODERATORS_GROUP)
    for n in range(3):
        moderator = User.objects.create(username=f"moderator{n}", password="!")
        moderator.groups.add(moderators)
    for n in range(2):
        User.objects.create(username=f"admin{n}", password="!", is_superuser=True, is_staff=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"populated {PLAYERS} players, {GAMES} games, {REPORTS} reports "
        f"({OPEN_REPORTS} open) in {time.perf_counter() - started:.1f} s"
    )


def bench_queue(requests_per_case: int) -> None:
    from rest_framework.test import APIClient

    from accounts.models import User
    from moderation import services

    moderator = User.objects.get(username="moderator0")
    services.set_on_duty(moderator=moderator, on_duty=True)
    client = APIClient()
    client.force_authenticate(moderator)
    cases = {
        "open queue (default)": "/api/moderation/reports/",
        "open, reason=cheating": "/api/moderation/reports/?reason=cheating",
        "unclaimed": "/api/moderation/reports/?status=unclaimed",
        "resolved (99,000), page 11": "/api/moderation/reports/?status=resolved&offset=500",
    }
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"\nqueue endpoint, {requests_per_case} requests each (in-process client; "
        f"load average {load} on {os.cpu_count()} CPUs):"
    )
    for name, url in cases.items():
        samples, cpu, queries, response = timed_gets(client, url, requests_per_case)
        body = response.json()
        print(
            f"  {name:28s} p50 {statistics.median(samples):6.1f} ms   "
            f"p99 {percentile(samples, 0.99):6.1f} ms   max {max(samples):6.1f} ms   "
            f"(Python CPU p50 {statistics.median(cpu):5.1f} ms)   {queries} queries   "
            f"count={body['count']} page={len(body['results'])}"
        )


def bench_sweep() -> None:
    from django.db import connection
    from django.utils import timezone

    from moderation import policy, services
    from moderation.models import Report

    now = timezone.now()
    # Open 9,000 more (archive rows) so that 10,000 are open, every one due for an alert.
    extra = list(
        Report.objects.filter(status="resolved")
        .order_by("pk")
        .values_list("pk", flat=True)[: SWEEP_OPEN_REPORTS - OPEN_REPORTS]
    )
    Report.objects.filter(pk__in=extra).update(status="open", resolved_at=None, decision="")
    open_ids = list(
        Report.objects.filter(status="open").order_by("pk").values_list("pk", flat=True)
    )
    half = len(open_ids) // 2
    Report.objects.filter(pk__in=open_ids[:half]).update(
        due_at=now - timedelta(minutes=5), due_soon_alerted_at=None, breached_at=None
    )
    Report.objects.filter(pk__in=open_ids[half:]).update(
        due_at=now + policy.REPORT_DUE_SOON - timedelta(minutes=5),
        due_soon_alerted_at=None,
        breached_at=None,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE moderation_report")
    assert Report.objects.filter(status="open").count() == SWEEP_OPEN_REPORTS

    start = time.perf_counter()
    result = services.sweep_report_deadlines()
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    idle = services.sweep_report_deadlines()
    idle_elapsed = time.perf_counter() - start
    print(
        f"\nSLA sweep over {SWEEP_OPEN_REPORTS:,} open reports "
        f"(batches of {policy.SWEEP_BATCH_SIZE}):"
    )
    print(
        f"  first sweep  {elapsed:6.2f} s   {result.breached} breached (2 admins alerted), "
        f"{result.due_soon} due soon (3 moderators on duty)"
    )
    print(
        f"  second sweep {idle_elapsed * 1000:6.1f} ms   "
        f"{idle.breached + idle.due_soon} alerts (each is sent once)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()

    # Notifications' after-commit publish goes to an in-memory broker: no worker, no side effects.
    with bench_database(DATABASE, env={"CELERY_BROKER_URL": "memory://"}, keep=args.keep):
        populate()
        bench_queue(args.requests)
        bench_sweep()


if __name__ == "__main__":
    main()
