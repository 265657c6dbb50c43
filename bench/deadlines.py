"""Deadline benchmark (prints figures; not a test).

The real stack: a fresh PostgreSQL database holding N active async games (and a few live ones)
whose turn deadlines all pass at the same moment, Celery beat (DatabaseScheduler, the project's
CELERY_BEAT_SCHEDULE: the deadline sweep every second) and 1, then 2, real Celery worker
processes (`--concurrency=1 --queues=celery` each) on a Redis broker, plus one worker for the
`notifications` queue (the outbox drain of the ~2 notifications each autoplay writes). It
reports how long after the deadline every async game had been autoplayed, and the lag between
each live game's deadline (spread over the flood) and its autoplay.

A third of the players take correspondence time off (issue 21): half of them are on a vacation
running for a week, half keep today and tomorrow as days off in their own zone (Moscow, New
York, Tokyo). The players whose turns time out are never the ones on vacation (their deadlines
would have moved past it), and automatic vacation is off for everyone, so every expiry is a
timeout; the turns that follow are often an away player's, whose new deadline is walked across
their vacation or days off (games.away).

    .venv/bin/python bench/deadlines.py [--games 10000] [--live 200] [--workers 1,2]

Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379; uses Redis DB
BENCH_REDIS_DB (default 14), flushed at start. Databases made here are dropped at the end.
Emails go to Django's locmem backend (no SMTP server); the outbox is drained as in production.
"""

import argparse
import itertools
import os
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
TEMPLATE_DB = "canasta_bench_deadlines_tpl"
RUN_DB = "canasta_bench_deadlines_run"
BROKER = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '14')}"
USERS = 400
# The live games' deadlines are spread over this window, starting with the flood.
LIVE_SPREAD = timedelta(seconds=20)
START_DELAY = timedelta(seconds=3)


def database_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def admin(sql: str) -> None:
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(sql)


def recreate(name: str, template: str | None = None) -> None:
    admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


def child_env(db: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-not-a-secret"),
        "DATABASE_URL": database_url(db),
        "CELERY_BROKER_URL": BROKER,
        "REDIS_URL": BROKER,
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }


def populate(games: int, live: int) -> None:
    """The template database: migrated, USERS players, `games` async + `live` live games."""
    recreate(TEMPLATE_DB)
    env = child_env(TEMPLATE_DB)
    subprocess.run(
        [sys.executable, "-c", POPULATE, str(games), str(live)], env=env, cwd=ROOT, check=True
    )


POPULATE = r"""
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import django

django.setup()
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.db import transaction
from django.db.models import Q

from accounts.models import User
from club import clock
from games.engine import Match, Rules
from games.models import Game, Seat

games, live = int(sys.argv[1]), int(sys.argv[2])
call_command("migrate", verbosity=0)
password = make_password("bench-password")
now = clock.now()
zones = ["Europe/Moscow", "America/New_York", "Asia/Tokyo"]


# A third of the players away: every sixth on vacation, every sixth (from the third) with today
# and tomorrow off in their zone; automatic vacation off, so expiries are timeouts.
def time_off(i):
    fields = {"auto_vacation": False}
    if i % 6 == 0:
        fields.update(vacation_start=now - timedelta(days=1), vacation_until=now + timedelta(6))
    elif i % 6 == 3:
        zone = zones[i % len(zones)]
        today = now.astimezone(ZoneInfo(zone)).weekday()
        fields.update(weekend_days=sorted({today, (today + 1) % 7}), time_zone=zone)
    return fields


users = User.objects.bulk_create(
    User(username=f"bench{i}", email=f"bench{i}@example.com", password=password, **time_off(i))
    for i in range(400)
)


# Four players in a row; the one to move is never on vacation (of four in a row at most one is:
# it swaps with the next).
def seated(game):
    chosen = [users[(game.seed * 4 + seat) % len(users)] for seat in range(4)]
    turn = game.turn_seat
    if chosen[turn].vacation_until is not None:
        other = (turn + 1) % 4
        chosen[turn], chosen[other] = chosen[other], chosen[turn]
    return chosen


rules = Rules(target=None)  # single-deal tables
for start in range(0, games + live, 500):
    with transaction.atomic():
        batch = []
        for index in range(start, min(start + 500, games + live)):
            match = Match.new(rules, first_dealer=index % 4, seed=index)
            batch.append(
                Game(
                    mode="live" if index >= games else "async",
                    length="deal",
                    rules=rules.to_options(),
                    status="active",
                    created_by=users[0],
                    state=match.to_dict(),
                    seed=index,
                    first_dealer=index % 4,
                    deal_number=1,
                    scores=[0, 0],
                    turn_seat=match.deal.turn,
                    turn_started_at=now,
                    # Set for real at the start of each run.
                    turn_deadline=now + timedelta(days=30),
                    started_at=now,
                )
            )
        created = Game.objects.bulk_create(batch)
        Seat.objects.bulk_create(
            Seat.at_table(game=game, user=user, seat=seat)
            for game in created
            for seat, user in enumerate(seated(game))
        )
away = User.objects.filter(Q(vacation_until__isnull=False) | ~Q(weekend_days=[])).count()
print(f"populated {games} async + {live} live games; {away} of 400 players away", flush=True)
"""


def start(command: list[str], db: str, log: Path, nice: int = 0) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        ["nice", "-n", str(nice), str(ROOT / ".venv/bin/celery"), "-A", "canasta_club", *command],
        env=child_env(db),
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    # Each child runs in its own session: signal its group (the worker's pool child too).
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def flush_broker() -> None:
    import redis

    redis.Redis.from_url(BROKER).flushdb()


def scalar(db: psycopg.Connection[Any], sql: str, params: list[Any] | None = None) -> Any:
    row = db.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children (a worker's pool), from /proc: a
    figure that depends less on what else the machine runs than the wall clock does."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def worker(name: str, queue: str, log: Path, nice: int = 0) -> subprocess.Popen[bytes]:
    return start(
        [
            "worker",
            f"--queues={queue}",
            "--concurrency=1",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            f"--hostname={name}@%h",
        ],
        RUN_DB,
        log,
        nice,
    )


def watch(
    db: psycopg.Connection[Any], deadline: datetime, timeout: float
) -> tuple[float, list[float]]:
    """Poll (every 0.1 s, on the database's clock) until every async game was autoplayed and
    every live game's first deadline was played; what is measured is when the result was
    committed and visible, so the figures err on the late side by up to one poll."""
    live_deadlines = dict(
        db.execute("SELECT id, turn_deadline FROM games_game WHERE mode = 'live'").fetchall()
    )
    live_played: dict[int, datetime] = {}
    all_done: float | None = None
    started = time.monotonic()
    for poll in itertools.count():
        if time.monotonic() - started > timeout:
            raise SystemExit(f"not all games autoplayed after {timeout} s")
        now = scalar(db, "SELECT statement_timestamp()")
        waiting = [game for game in live_deadlines if game not in live_played]
        for (game,) in db.execute(
            "SELECT id FROM games_game WHERE id = ANY(%s) AND version > 0", [waiting]
        ):
            live_played[game] = now
        # Counting 10,000 rows is not free: every 0.5 s is enough.
        if all_done is None and poll % 5 == 0:
            unplayed = "SELECT count(*) FROM games_game WHERE mode = 'async' AND version = 0"
            if not scalar(db, unplayed):
                all_done = (now - deadline).total_seconds()
        if all_done is not None and len(live_played) == len(live_deadlines):
            break
        time.sleep(0.1)
    assert all_done is not None
    lags = [(live_played[game] - live_deadlines[game]).total_seconds() for game in live_played]
    return all_done, lags


def run(
    workers: int, games: int, live: int, timeout: float, notifications_nice: int
) -> dict[str, float]:
    recreate(RUN_DB, template=TEMPLATE_DB)
    flush_broker()
    logs = ROOT / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    processes = [
        worker(f"deadlines{index}", "celery", logs / f"worker{index}.log")
        for index in range(workers)
    ]
    # The outbox drain has a queue and a worker of its own, as on a real site.
    processes.append(
        worker("notifications", "notifications", logs / "notifications.log", notifications_nice)
    )
    processes.append(start(["beat", "--loglevel=WARNING"], RUN_DB, logs / "beat.log"))
    try:
        with psycopg.connect(database_url(RUN_DB), autocommit=True) as db:
            time.sleep(8)  # workers and beat up, idle sweeps running
            deadline: datetime = scalar(db, "SELECT statement_timestamp() + %s", [START_DELAY])
            deadline_workers = processes[:workers]
            cpu_before = sum(cpu_seconds(process.pid) for process in deadline_workers)
            db.execute("UPDATE games_game SET turn_deadline = %s WHERE mode = 'async'", [deadline])
            spread = LIVE_SPREAD.total_seconds() / max(live, 1)
            db.execute(
                """UPDATE games_game SET turn_deadline = %s + make_interval(secs => %s * n)
                   FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n
                         FROM games_game WHERE mode = 'live') AS live
                   WHERE games_game.id = live.id""",
                [deadline, spread],
            )
            all_done, lags = watch(db, deadline, timeout)
            cpu = sum(cpu_seconds(process.pid) for process in deadline_workers) - cpu_before
            # An async turn played twice would show as two automatic discards (the next
            # deadline is 24 h away).
            doubled = scalar(
                db,
                """SELECT count(*) FROM (SELECT game_id FROM games_move WHERE automatic
                   AND action->>'type' = 'discard' AND game_id IN
                   (SELECT id FROM games_game WHERE mode = 'async')
                   GROUP BY game_id HAVING count(*) > 1) AS t""",
            )
    finally:
        for process in processes:
            stop(process)
    lags.sort()
    return {
        "all_autoplayed_s": float(all_done),
        "per_second": games / float(all_done),
        "live_samples": len(lags),
        "live_lag_p50_s": statistics.median(lags) if lags else float("nan"),
        "live_lag_p99_s": lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else float("nan"),
        "live_lag_max_s": lags[-1] if lags else float("nan"),
        "async_turns_played_twice": doubled,
        "worker_cpu_s": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--live", type=int, default=200)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument(
        "--notifications-nice",
        type=int,
        default=0,
        help="nice value of the notifications worker (e.g. 10: deadlines first on few cores)",
    )
    args = parser.parse_args()
    print(f"populating {args.games} async + {args.live} live games …", flush=True)
    started = time.monotonic()
    populate(args.games, args.live)
    print(f"  done in {time.monotonic() - started:.0f} s", flush=True)
    try:
        for workers in (int(w) for w in args.workers.split(",")):
            figures = run(workers, args.games, args.live, args.timeout, args.notifications_nice)
            print(
                f"{workers} worker process(es): all {args.games} autoplayed "
                f"{figures['all_autoplayed_s']:.1f} s after the deadline "
                f"({figures['per_second']:.0f} games/s); live-game lag over "
                f"{figures['live_samples']} games: p50 {figures['live_lag_p50_s']:.2f} s, "
                f"p99 {figures['live_lag_p99_s']:.2f} s, max {figures['live_lag_max_s']:.2f} s; "
                f"async turns played twice: {figures['async_turns_played_twice']}; "
                f"deadline workers' CPU {figures['worker_cpu_s']:.1f} s "
                f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
                flush=True,
            )
    finally:
        admin(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')
        admin(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()
