"""Social benchmark (prints figures; not a test), issue 37.

- `following` (the target): `GET /api/me/following/` and the page `/following/` of a player who
  follows 500 players — some online, some waiting at public tables, some who blocked them — in
  a club of 20,000 players with 100,000 follows and 2,000 blocks among them: p50/p99 wall time,
  this process's CPU (p50, p99), the PostgreSQL backends' CPU a request and the SQL queries,
  in-process through Django's test clients (as bench/web.py measures pages). Target: p99 <
  50 ms. On a machine others load, the wall time waits for a core; the CPU figures do not.
- `ab` (a change on the request path quotes the move path against the tree it started from):
  the same in-process game reads and moves through the API (token authentication, a game of
  four by correspondence, Redis as the cache: `BENCH_REDIS_URL`, default DB 13) timed in two
  trees, the one this script is in and `--base` (an export
  of the starting commit, e.g. `git archive cda185f | tar -x -C /tmp/base`), each round in a
  fresh process per tree, alternating, so that the machine's drifting speed falls on both:
  p50 wall and CPU per move and per game read, and their B/A ratios per round.

    .venv/bin/python bench/social.py [--parts following,ab] [--follows 500] [--requests 300]
        [--keep] [--base /tmp/base] [--rounds 3] [--moves 300]

Each part makes a PostgreSQL database of its own (named `canasta_bench_social_*`), dropped at
the end.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

# One side of the A/B runs in the tree it measures (`--tree`): its modules come first.
sys.path.insert(
    0,
    sys.argv[sys.argv.index("--tree") + 1]
    if "--tree" in sys.argv
    else str(Path(__file__).resolve().parent.parent),
)
from bench.figures import database_cpu, percentile, timed_gets
from bench.stack import ROOT, bench_database

CLUB = 20_000
CLUB_FOLLOWS = 100_000
CLUB_BLOCKS = 2_000
# Rows per INSERT (a statement takes at most 65,535 parameters).
BATCH = 1_000
DATABASE = "canasta_bench_social_following"


def populate(follows: int) -> int:
    """The club and the viewer; returns the viewer's id."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User
    from club import clock
    from games.models import Game, Seat
    from social.models import Block, Follow

    rng = random.Random(37)
    now = clock.now()
    password = make_password(None)
    User.objects.bulk_create(
        (
            User(
                username=f"member{number}",
                username_skeleton=f"member{number}",
                display_name=f"Игрок {number}",
                email=f"member{number}@example.com",
                password=password,
                # A third seen in the last minutes, the rest over the last week.
                last_seen_at=now
                - timedelta(seconds=rng.randrange(300 if number % 3 == 0 else 604_800)),
            )
            for number in range(CLUB)
        ),
        batch_size=BATCH,
    )
    ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    viewer, *club = ids
    pairs = {(rng.choice(club), rng.choice(club)) for _ in range(CLUB_FOLLOWS)}
    Follow.objects.bulk_create(
        (Follow(follower_id=a, followed_id=b) for a, b in pairs if a != b), batch_size=BATCH
    )
    followed = rng.sample(club, follows)
    Follow.objects.bulk_create(Follow(follower_id=viewer, followed_id=pk) for pk in followed)
    blocks = {(rng.choice(club), rng.choice(club)) for _ in range(CLUB_BLOCKS)}
    # Twenty of the followed blocked the viewer: shown offline, waiting nowhere.
    blocks |= {(pk, viewer) for pk in followed[:20]}
    Block.objects.bulk_create(
        (Block(blocker_id=a, blocked_id=b) for a, b in blocks if a != b), batch_size=BATCH
    )
    # A hundred of the followed wait at public tables, and 2,000 other tables wait or play.
    rules = {"players": 4, "teams": 2, "target": None}
    tables = []
    for number in range(2_100):
        status = Game.Status.WAITING if number < 1_100 else Game.Status.ACTIVE
        tables.append(
            Game(
                mode="async", length="deal", rules=rules, status=status, created_by_id=club[number]
            )
        )
    Game.objects.bulk_create(tables, batch_size=BATCH)
    seats = []
    sitters = followed[20:120] + rng.sample(club, 2_000)
    for game, sitter in zip(tables, sitters, strict=True):
        seats.append(Seat.at_table(game=game, user_id=sitter, seat=0))
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")
    return viewer


def bench_following(follows: int, requests: int, keep: bool) -> None:
    with bench_database(DATABASE, keep=keep):
        from django.test import Client
        from rest_framework.test import APIClient

        from accounts.models import User

        started = time.perf_counter()
        viewer = User.objects.get(pk=populate(follows))
        print(
            f"the club: {CLUB} players, {CLUB_FOLLOWS} follows, {CLUB_BLOCKS} blocks, 2,100 "
            f"tables; the viewer follows {follows} ({time.perf_counter() - started:.0f} s to "
            "populate)",
            flush=True,
        )
        api = APIClient()
        api.force_authenticate(viewer)
        page = Client()
        page.force_login(viewer)
        for name, client, path in (
            ("GET /api/me/following/", api, "/api/me/following/"),
            ("the page /following/", page, "/following/"),
        ):
            database_before = database_cpu(DATABASE)
            wall, cpu, queries, answer = timed_gets(client, path, requests)
            # timed_gets' warm-up (10) and query count (1) besides the timed requests.
            database_ms = (database_cpu(DATABASE) - database_before) / (requests + 11) * 1000
            if path.startswith("/api/"):
                body = answer.json()
                online = sum(entry["online"] for entry in body)
                waiting = sum(bool(entry["waiting_games"]) for entry in body)
                shape = f"{len(body)} players, {online} online, {waiting} waiting"
            else:
                shape = f"{len(answer.content) // 1024} KB"
            print(
                f"{name:24s} p50 {statistics.median(wall):5.1f} ms  p99 "
                f"{percentile(wall, 0.99):5.1f} ms  (CPU p50 {statistics.median(cpu):5.1f} ms, "
                f"p99 {percentile(cpu, 0.99):5.1f} ms; PostgreSQL {database_ms:4.1f} ms a "
                f"request)  {queries} queries  [{shape}]  target p99 < 50 ms; load average "
                f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs",
                flush=True,
            )


# ----------------------------------------------------------------------------- the A/B


def play(moves: int, database: str) -> dict[str, Any]:
    """In the tree this process runs from: `moves` moves through the API, each after the mover's
    game read; wall and CPU ms of each, and the queries of one more of each."""
    import gc

    # Redis as a deployment has it (the cache, the live announcements): the bench's own DB.
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    with bench_database(database, env={"REDIS_URL": redis_url}):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from rest_framework.test import APIClient

        from accounts import services as account_services
        from accounts.models import User
        from games import services

        users = [User.objects.create(username=f"ab{seat}") for seat in range(4)]
        clients = []
        for user in users:
            client = APIClient()
            client.credentials(
                HTTP_AUTHORIZATION=f"Token {account_services.issue_token(user=user)}"
            )
            clients.append(client)

        def new_game() -> int:
            game = services.open_table(
                user=users[0], mode="async", length="match", rules={}, private=False
            )
            for seat in (1, 2, 3):
                services.join_table(game_id=game.pk, user=users[seat], seat=seat)
            return game.pk

        from bench.api import choose

        game_id = new_game()
        reads: list[tuple[float, float]] = []
        made: list[tuple[float, float]] = []
        counts: dict[str, int] = {}
        gc.collect()
        gc.freeze()
        while len(made) < moves + 20:
            body = None
            for client in clients:
                body = client.get(f"/api/games/{game_id}/").json()
                if body["your_turn"] or body["status"] != "active":
                    break
            assert body is not None
            if body["status"] != "active":
                game_id = new_game()
                continue
            started, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as read_queries:
                body = client.get(f"/api/games/{game_id}/").json()
            reads.append(
                ((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)
            )
            action = choose(body["legal_actions"])
            started, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as move_queries:
                answer = client.post(
                    f"/api/games/{game_id}/moves/",
                    {"version": body["version"], "action": action},
                    format="json",
                )
            made.append(
                ((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)
            )
            assert answer.status_code == 200, answer.content[:300]
            counts = {"read": len(read_queries), "move": len(move_queries)}
        # The first moves warm the caches up.
        return {
            "read": [statistics.median(part) for part in zip(*reads[20:], strict=True)],
            "move": [statistics.median(part) for part in zip(*made[20:], strict=True)],
            "queries": counts,
        }


def bench_ab(base: Path, rounds: int, moves: int) -> None:
    trees = {"A (base)": base.resolve(), "B (this tree)": ROOT}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for number in range(rounds):
        order = list(trees.items()) if number % 2 == 0 else list(trees.items())[::-1]
        for name, tree in order:
            tag = "base" if tree != ROOT else "head"
            output = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--play",
                    str(moves),
                    "--tree",
                    str(tree),
                    "--database",
                    f"canasta_bench_social_ab_{tag}",
                ],
                cwd=tree,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            results[name].append(json.loads(output.strip().splitlines()[-1]))
        a, b = results["A (base)"][-1], results["B (this tree)"][-1]
        print(
            f"round {number + 1}: move p50 {a['move'][0]:.2f} -> {b['move'][0]:.2f} ms, CPU "
            f"{a['move'][1]:.2f} -> {b['move'][1]:.2f} ms (x{b['move'][1] / a['move'][1]:.2f}); "
            f"game read p50 {a['read'][0]:.2f} -> {b['read'][0]:.2f} ms, CPU "
            f"{a['read'][1]:.2f} -> {b['read'][1]:.2f} ms (x{b['read'][1] / a['read'][1]:.2f}); "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    for name, runs in results.items():
        print(
            f"{name}: queries per move {runs[0]['queries']['move']}, per game read "
            f"{runs[0]['queries']['read']}"
        )
    for kind in ("move", "read"):
        ratios = [
            b[kind][1] / a[kind][1]
            for a, b in zip(results["A (base)"], results["B (this tree)"], strict=True)
        ]
        print(
            f"{kind}: CPU B/A per round {', '.join(f'{ratio:.2f}' for ratio in ratios)}; "
            f"median {statistics.median(ratios):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="following,ab")
    parser.add_argument("--follows", type=int, default=500)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--base", type=Path, help="the starting tree, for `ab`")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the following's database")
    # One side of the A/B, run by bench_ab in the tree it measures.
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        print(json.dumps(play(args.play, args.database)))
        return
    parts = args.parts.split(",")
    if "following" in parts:
        bench_following(args.follows, args.requests, args.keep)
    if "ab" in parts:
        if args.base is None:
            parser.error("ab needs --base (an export of the starting commit)")
        bench_ab(args.base, args.rounds, args.moves)


if __name__ == "__main__":
    main()
