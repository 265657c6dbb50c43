"""Social benchmark (prints figures; not a test), issue 37.

- `following` (the target): `GET /api/me/following/` and the page `/following/` of a player who
  follows 500 players — some online, some waiting at public tables, some who blocked them — in
  a club of 20,000 players with 100,000 follows, 2,000 blocks and a history of 50,000 finished
  games of four (a fifth of their seats taken by the players followed, the active ones): p50/p99
  wall time, this process's CPU (p50, p99), the PostgreSQL backends' CPU a request and the SQL
  queries, in-process through Django's test clients (as bench/web.py measures pages). Target:
  p99 < 50 ms. On a machine others load, the wall time waits for a core; the CPU figures do not.
  With `--base REV` (a revision, or the folder of an export) the same A/B: each tree populates a
  database of its own (its own migrations and indexes), then the trees are measured in turn, a
  fresh process each round, so that the machine's drifting speed falls on both.
- `ab` (a change on the request path quotes the move path against the tree it started from):
  the same in-process game reads and moves through the API (token authentication, a game of
  four by correspondence, Redis as the cache: `BENCH_REDIS_URL`, default DB 13) timed in two
  trees, the one this script is in and `--base`, each round in a fresh process per tree,
  alternating: p50 wall and CPU per move and per game read, and their B/A ratios per round.

    .venv/bin/python bench/social.py [--parts following,ab] [--follows 500] [--requests 300]
        [--history 50000] [--keep] [--base REV|DIR] [--rounds 3] [--moves 300]

Each part makes PostgreSQL databases of its own (named `canasta_bench_social_*`), dropped at
the end.
"""

import argparse
import contextlib
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
from bench.figures import database_cpu, percentile, spent, timed_gets
from bench.stack import ROOT, _drop, bench_database

CLUB = 20_000
CLUB_FOLLOWS = 100_000
CLUB_BLOCKS = 2_000
# Finished games of four in the club's past; the share of their seats the followed players take.
HISTORY = 50_000
FOLLOWED_SHARE = 0.2
# Rows per INSERT (a statement takes at most 65,535 parameters).
BATCH = 1_000
DATABASE = "canasta_bench_social_following"


def populate(follows: int, history: int) -> int:
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
    populate_history(history, rng, rules=rules, followed=followed, club=club)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")
    return viewer


def populate_history(
    games: int, rng: random.Random, *, rules: dict[str, Any], followed: list[int], club: list[int]
) -> None:
    """`games` finished games of four over the last year, their seats taken by the followed
    players (FOLLOWED_SHARE of them) and the rest of the club; a batch at a time."""
    from club import clock
    from games.models import Game, Seat

    now = clock.now()
    for start in range(0, games, BATCH):
        batch = [
            Game(
                mode="async",
                length="deal",
                rules=rules,
                status=Game.Status.FINISHED,
                created_by_id=rng.choice(club),
                scores=[rng.randrange(-500, 3000), rng.randrange(-500, 3000)],
                finished_at=now - timedelta(seconds=rng.randrange(31_536_000)),
            )
            for _ in range(min(BATCH, games - start))
        ]
        Game.objects.bulk_create(batch)
        seats = []
        for game in batch:
            players: set[int] = set()
            while len(players) < 4:
                players.add(
                    rng.choice(followed) if rng.random() < FOLLOWED_SHARE else rng.choice(club)
                )
            seats += [
                Seat.at_table(game=game, user_id=user_id, seat=seat)
                for seat, user_id in enumerate(players)
            ]
        Seat.objects.bulk_create(seats)


def measure_following(requests: int, database: str) -> dict[str, dict[str, Any]]:
    """Both reads of the viewer's list, in this process on `database` (Django set up)."""
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.models import User

    viewer = User.objects.get(username="member0")
    api = APIClient()
    api.force_authenticate(viewer)
    page = Client()
    page.force_login(viewer)
    figures = {}
    for name, client, path in (
        ("api", api, "/api/me/following/"),
        ("page", page, "/following/"),
    ):
        database_before = database_cpu(database)
        wall, cpu, queries, answer = timed_gets(client, path, requests)
        # timed_gets' warm-up (10) and query count (1) besides the timed requests.
        database_ms = spent(database_before, database_cpu(database)) / (requests + 11) * 1000
        if path.startswith("/api/"):
            body = answer.json()
            online = sum(entry["online"] for entry in body)
            waiting = sum(bool(entry["waiting_games"]) for entry in body)
            shape = f"{len(body)} players, {online} online, {waiting} waiting"
        else:
            shape = f"{len(answer.content) // 1024} KB"
        figures[name] = {
            "p50": statistics.median(wall),
            "p99": percentile(wall, 0.99),
            "cpu50": statistics.median(cpu),
            "cpu99": percentile(cpu, 0.99),
            "database_ms": database_ms,
            "queries": queries,
            "shape": shape,
        }
    return figures


NAMES = {"api": "GET /api/me/following/", "page": "the page /following/"}


def print_figures(figures: dict[str, dict[str, Any]], tree: str = "") -> None:
    for name, row in figures.items():
        print(
            f"{tree}{NAMES[name]:24s} p50 {row['p50']:5.1f} ms  p99 {row['p99']:5.1f} ms  (CPU p50 "
            f"{row['cpu50']:5.1f} ms, p99 {row['cpu99']:5.1f} ms; PostgreSQL "
            f"{row['database_ms']:4.1f} ms a request)  {row['queries']} queries  [{row['shape']}]  "
            f"target p99 < 50 ms; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs",
            flush=True,
        )


def bench_following(follows: int, history: int, requests: int, keep: bool) -> None:
    with bench_database(DATABASE, keep=keep):
        started = time.perf_counter()
        populate(follows, history)
        print(
            f"the club: {CLUB} players, {CLUB_FOLLOWS} follows, {CLUB_BLOCKS} blocks, 2,100 "
            f"tables, {history} finished games; the viewer follows {follows} "
            f"({time.perf_counter() - started:.0f} s to populate)",
            flush=True,
        )
        print_figures(measure_following(requests, DATABASE))


def on_database(database: str) -> None:
    """Django set up on an existing bench `database` (a tree's, populated earlier)."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
            "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-not-a-secret"),
            "DEBUG": "false",
            "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
            # As bench_database: a bench measures the club, not its per-caller throttles.
            "API_RATE_USER": os.environ.get("API_RATE_USER", "1000000/min"),
            "API_RATE_ANON": os.environ.get("API_RATE_ANON", "1000000/min"),
        }
    )
    import django

    django.setup()


def _side(tree: Path, *arguments: str) -> str:
    """This script run in `tree` (its modules first), in a fresh process: its output (its
    errors told, should it fail)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *arguments, "--tree", str(tree)],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"{' '.join(arguments)} in {tree} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def bench_following_ab(
    base: Path,
    label: str,
    follows: int,
    history: int,
    requests: int,
    rounds: int,
    keep: bool,
    reuse: bool,
) -> None:
    trees = {f"A ({label})": (base.resolve(), "base"), "B (this tree)": (ROOT, "head")}
    started = time.perf_counter()
    for tree, tag in trees.values() if not reuse else ():
        _side(
            tree,
            "--populate-following",
            f"{DATABASE}_{tag}",
            "--follows",
            str(follows),
            "--history",
            str(history),
        )
    populated = "reused" if reuse else f"{time.perf_counter() - started:.0f} s to populate both"
    print(
        f"the club in each tree: {CLUB} players, {CLUB_FOLLOWS} follows, {CLUB_BLOCKS} blocks, "
        f"2,100 tables, {history} finished games; the viewer follows {follows} ({populated})",
        flush=True,
    )
    results: dict[str, list[dict[str, dict[str, Any]]]] = {name: [] for name in trees}
    try:
        for number in range(rounds):
            order = list(trees.items()) if number % 2 == 0 else list(trees.items())[::-1]
            for name, (tree, tag) in order:
                output = _side(
                    tree,
                    "--measure-following",
                    f"{DATABASE}_{tag}",
                    "--requests",
                    str(requests),
                )
                results[name].append(json.loads(output.strip().splitlines()[-1]))
                print(f"round {number + 1} ", end="")
                print_figures(results[name][-1], f"{name}: ")
    finally:
        if not keep:
            for _tree, tag in trees.values():
                _drop(f"{DATABASE}_{tag}")
    a, b = results.values()
    for part in NAMES:
        for figure in ("p50", "p99", "cpu50"):
            ratios = [new[part][figure] / old[part][figure] for old, new in zip(a, b, strict=True)]
            print(
                f"{NAMES[part]} {figure}: B/A per round "
                f"{', '.join(f'{ratio:.2f}' for ratio in ratios)}; median "
                f"{statistics.median(ratios):.2f}"
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
    parser.add_argument("--history", type=int, default=HISTORY)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--base", help="the starting tree: a revision (exported with git archive) or a folder"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the following's databases")
    parser.add_argument(
        "--reuse", action="store_true", help="measure the databases a --keep run of the A/B left"
    )
    # The sides of the A/B runs, run in the tree they measure.
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--populate-following", help=argparse.SUPPRESS)
    parser.add_argument("--measure-following", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        print(json.dumps(play(args.play, args.database)))
        return
    if args.populate_following:
        with bench_database(args.populate_following, keep=True):
            populate(args.follows, args.history)
        return
    if args.measure_following:
        on_database(args.measure_following)
        print(json.dumps(measure_following(args.requests, args.measure_following)))
        return
    parts = args.parts.split(",")
    if args.base is None:
        if "ab" in parts:
            parser.error("ab needs --base (the starting revision, or an export of it)")
        bench_following(args.follows, args.history, args.requests, args.keep)
        return
    with contextlib.ExitStack() as stack:
        base = Path(args.base)
        label = str(base)
        if not base.is_dir():
            from bench.trees import exported_tree, short_name

            label = short_name(args.base)
            base = stack.enter_context(exported_tree(args.base))
        if "following" in parts:
            bench_following_ab(
                base,
                label,
                args.follows,
                args.history,
                args.requests,
                args.rounds,
                args.keep,
                args.reuse,
            )
        if "ab" in parts:
            bench_ab(base, args.rounds, args.moves)


if __name__ == "__main__":
    main()
