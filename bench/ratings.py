"""Ratings benchmark (prints figures; not a test).

A fresh PostgreSQL database of its own (`canasta_ratings_bench`), migrated, dropped at the end
unless `--keep`. Three parts, in this order:

- `backfill`: `--games` (100,000) finished games of four among 10,000 players, no ratings yet
  (as before ratings existed), in `live.classic.4`; `manage.py rate_finished_games` rates them
  in order. Target: < 60 s per 100,000 games.
- `update`: a pool (`async.classic.4`) of `--players` (100,000) rated players; `--updates`
  (2,000) games at four seats, and a quarter as many at each other table (2, 3, 6 in pairs, 6 in
  two teams), each rated through `ratings.services.rate_game` in its own transaction, as a
  game's end does: this process's CPU per game (the model, the ORM, the driver), p50/p99, the
  wall time, and PostgreSQL's CPU per game; the model alone (openskill) per game; then the
  leaderboard's refresh of the 100,000 (placing all, with nothing moved, after 100 games).
  Target: < 5 ms CPU per game.
- `pages`: the leaderboard page `/ratings/` (the top, place 50,001 on, the viewer's own page)
  and `GET /api/ratings/` (the top, offset 50,000) with the 100,000 players placed, and a
  player's history, in-process through Django's test clients: p50/p99, CPU, queries. Target:
  p99 < 50 ms.

    .venv/bin/python bench/ratings.py [--players 100000] [--games 100000] [--updates 2000]
        [--requests 300] [--parts backfill,pool] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.figures import database_cpu, percentile, spent, timed_gets
from bench.stack import bench_database

if TYPE_CHECKING:
    from ratings.services import GameResult

DATABASE = "canasta_ratings_bench"
# Rows per INSERT: a statement bound on the server takes at most 65,535 parameters (a game has
# some 40 columns).
BATCH = 1_000
BACKFILL_PLAYERS = 10_000
# The tables besides four seats: (players, teams, pool).
OTHER_TABLES = [(2, 2, "async.classic.2"), (3, 3, "async.classic.3"), (6, 3, "async.classic.6")]


def load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def make_users(count: int, prefix: str) -> list[int]:
    from accounts.models import User

    ids: list[int] = []
    for start in range(0, count, BATCH):
        ids.extend(
            user.pk
            for user in User.objects.bulk_create(
                User(username=f"{prefix}{n}", display_name=f"Игрок {n}", password="!")
                for n in range(start, min(start + BATCH, count))
            )
        )
    return ids


def finished_games(*, count: int, pool: str, players: int, teams: int, host: int) -> list[int]:
    """`count` finished game rows of the table (no seats), ended a minute apart."""
    from django.utils import timezone

    from games.engine import Rules
    from games.models import Game

    rules = Rules(players=players, teams=teams).to_options()
    mode = pool.split(".")[0]
    start = timezone.now() - timedelta(minutes=count + 10)
    ids: list[int] = []
    for first in range(0, count, BATCH):
        batch = [
            Game(
                mode=mode,
                length="match",
                rules=rules,
                pool=pool,
                status="finished",
                created_by_id=host,
                scores=[5000 if team == n % teams else 1000 * team for team in range(teams)],
                winner_team=n % teams,
                started_at=start,
                finished_at=start + timedelta(minutes=n),
            )
            for n in range(first, min(first + BATCH, count))
        ]
        ids.extend(game.pk for game in Game.objects.bulk_create(batch))
    return ids


def bench_backfill(games: int) -> None:
    from django.core.management import call_command

    from games.models import Game, Seat
    from ratings.models import RatingChange

    started = time.perf_counter()
    users = make_users(BACKFILL_PLAYERS, "old")
    game_ids = finished_games(count=games, pool="live.classic.4", players=4, teams=2, host=users[0])
    rng = random.Random(36)
    seats: list[Seat] = []
    for game_id in game_ids:
        game = Game(pk=game_id, rules={})
        for seat, user_id in enumerate(rng.sample(users, 4)):
            seats.append(Seat.at_table(game=game, user_id=user_id, seat=seat))
        if len(seats) >= BATCH * 4:
            Seat.objects.bulk_create(seats)
            seats = []
    Seat.objects.bulk_create(seats)
    analyze()
    print(
        f"backfill: {games:,} finished games of four among {BACKFILL_PLAYERS:,} players made in "
        f"{time.perf_counter() - started:.0f} s (load average {load()})"
    )
    cpu_started, started = time.process_time(), time.perf_counter()
    db_started = database_cpu(DATABASE)
    call_command("rate_finished_games")
    elapsed = time.perf_counter() - started
    print(
        f"  rate_finished_games: {elapsed:.1f} s for {games:,} games "
        f"({elapsed * 100_000 / games:.1f} s per 100,000; target < 60 s); this process's CPU "
        f"{time.process_time() - cpu_started:.1f} s, PostgreSQL's "
        f"{spent(db_started, database_cpu(DATABASE)):.1f} s; "
        f"{RatingChange.objects.count():,} rating changes"
    )


def populate_pool(players: int) -> list[int]:
    """`players` rated players in async.classic.4, spread as a real pool is (mu ~ N(25, 3)),
    most of them placed (their deviations below the provisional line)."""
    from club import clock
    from ratings import skill
    from ratings.models import Leaderboard, Pool, Rating

    started = time.perf_counter()
    users = make_users(players, "rated")
    now = clock.now()
    rng = random.Random(6)
    Pool.objects.get_or_create(name="async.classic.4")
    Leaderboard.objects.get_or_create(pool_id="async.classic.4")
    ratings = []
    for user_id in users:
        belief = skill.Skill(mu=rng.gauss(25, 3), sigma=rng.uniform(1.2, 7.5))
        ratings.append(
            Rating(
                user_id=user_id,
                pool_id="async.classic.4",
                mu=belief.mu,
                sigma=belief.sigma,
                games=rng.randint(1, 400),
                last_played_at=now - timedelta(days=rng.uniform(0, 60)),
                steady_until=skill.steady_until(belief, since=now),
            )
        )
        if len(ratings) == BATCH:
            Rating.objects.bulk_create(ratings)
            ratings = []
    Rating.objects.bulk_create(ratings)
    Pool.objects.filter(name="async.classic.4").update(version=1)
    analyze()
    print(
        f"\nupdate: {players:,} rated players in async.classic.4 made in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return users


def bench_updates(users: list[int], updates: int) -> None:
    from django.db import transaction

    from ratings import services, skill

    rng = random.Random(4)
    tables = [(4, 2, "async.classic.4", updates)] + [
        (players, teams, pool, updates // 4) for players, teams, pool in OTHER_TABLES
    ]
    tables.append((6, 2, "async.classic.6", updates // 4))
    print(f"  rate_game, each game in its own transaction (load average {load()}):")
    for players, teams, pool, count in tables:
        results = _results(users, rng, count=count, players=players, teams=teams, pool=pool)
        cpu, wall = [], []
        db_started = database_cpu(DATABASE)
        for result in results:
            started, cpu_started = time.perf_counter(), time.process_time()
            with transaction.atomic():
                services.rate_game(result=result)
            cpu.append((time.process_time() - cpu_started) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
        db_cpu = spent(db_started, database_cpu(DATABASE)) * 1000 / len(results)
        model = []
        for result in results[:500]:
            sides = [[skill.NEWCOMER for _ in side] for side in result.sides]
            cpu_started = time.process_time()
            skill.rate(sides, result.places)
            model.append((time.process_time() - cpu_started) * 1000)
        print(
            f"    {players} seats, {teams} sides ({count:,} games): CPU p50 "
            f"{statistics.median(cpu):.2f} ms, p99 {percentile(cpu, 0.99):.2f} ms "
            f"(target < 5 ms); wall p50 {statistics.median(wall):.2f} ms, p99 "
            f"{percentile(wall, 0.99):.2f} ms; PostgreSQL CPU {db_cpu:.2f} ms a game; "
            f"the model alone {statistics.median(model):.3f} ms"
        )
    timings = []
    for moved in (None, 0, 100):
        if moved:  # games ended since the last refresh
            for result in _results(users, rng, count=moved):
                with transaction.atomic():
                    services.rate_game(result=result)
        started = time.perf_counter()
        placed = services.refresh_leaderboard(pool="async.classic.4")
        timings.append((time.perf_counter() - started) * 1000)
    print(
        f"  the leaderboard's refresh at {placed:,} placed players (its own rows: games end "
        f"meanwhile): {timings[0]:.0f} ms placing all, {timings[1]:.0f} ms with nothing moved, "
        f"{timings[2]:.0f} ms after 100 games"
    )


def _results(
    users: list[int],
    rng: random.Random,
    *,
    count: int,
    players: int = 4,
    teams: int = 2,
    pool: str = "async.classic.4",
) -> list[GameResult]:
    """`count` games over at the table, each with players drawn from `users`, sides placed at
    random."""
    from ratings.services import GameResult

    results = []
    for game_id in finished_games(
        count=count, pool=pool, players=players, teams=teams, host=users[0]
    ):
        seated = rng.sample(users, players)
        places = list(range(teams))
        rng.shuffle(places)
        results.append(
            GameResult(
                game_id=game_id,
                pool=pool,
                sides=tuple(tuple(seated[team::teams]) for team in range(teams)),
                places=tuple(places),
                ended_at=_now(),
            )
        )
    return results


def _now() -> datetime:
    from club import clock

    return clock.now()


def bench_pages(users: list[int], requests: int) -> None:
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.models import User
    from ratings.models import Leaderboard, Place

    analyze()
    placed = Leaderboard.objects.get(pool_id="async.classic.4").ranked
    # The viewer: a player half way down the leaderboard.
    middle = Place.objects.filter(pool="async.classic.4", rank__gt=placed // 2).order_by("rank")
    viewer_id, rank = middle.values_list("rating__user_id", "rank").first() or (users[0], 1)
    viewer = User.objects.get(pk=viewer_id)
    my_page = ((rank or 1) - 1) // 50 + 1
    page_client = Client()
    page_client.force_login(viewer)
    api_client = APIClient()
    api_client.force_authenticate(viewer)
    cases = [
        ("/ratings/ top", page_client, "/ratings/?pool=async.classic.4"),
        ("/ratings/ page 1,001", page_client, "/ratings/?pool=async.classic.4&page=1001"),
        (
            f"/ratings/ my page ({my_page})",
            page_client,
            f"/ratings/?pool=async.classic.4&page={my_page}",
        ),
        ("/api/ratings/ top", api_client, "/api/ratings/?pool=async.classic.4"),
        (
            "/api/ratings/ offset 50,000",
            api_client,
            "/api/ratings/?pool=async.classic.4&offset=50000",
        ),
        (
            "/api/users/{id}/ratings/",
            api_client,
            f"/api/users/{users[0]}/ratings/?pool=async.classic.4",
        ),
    ]
    print(
        f"\npages: {placed:,} placed players of {len(users):,} in async.classic.4; "
        f"{requests} requests each, in-process (load average {load()} on {os.cpu_count()} CPUs):"
    )
    for name, client, path in cases:
        wall, cpu, queries, _answer = timed_gets(client, path, requests)
        print(
            f"  {name:30s} p50 {statistics.median(wall):5.1f} ms  p99 "
            f"{percentile(wall, 0.99):5.1f} ms (target < 50)  CPU p50 "
            f"{statistics.median(cpu):5.1f} ms  {queries} queries"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--updates", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--parts", default="backfill,pool", help="backfill, pool (the updates and the pages)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()

    # Notifications' after-commit publish goes to an in-memory broker: no worker, no side effects.
    with bench_database(DATABASE, env={"CELERY_BROKER_URL": "memory://"}, keep=args.keep):
        parts = args.parts.split(",")
        if "backfill" in parts:
            bench_backfill(args.games)
        if "pool" in parts:
            users = populate_pool(args.players)
            bench_updates(users, args.updates)
            bench_pages(users, args.requests)


if __name__ == "__main__":
    main()
