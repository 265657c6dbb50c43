"""API benchmark (prints figures; not a test).

The real stack: a fresh PostgreSQL database on the machine's server, migrated, served by gunicorn
(gunicorn.conf.py); N concurrent clients (threads), each playing its own table through HTTP with
the four players' tokens, as issue #33's load client does: for each move, read the game as the
player on turn, POST a move from its `legal_actions`, read the game again. Reports accepted moves
per second, move latency p50/p99, game read latency p50/p99 and the CPU per HTTP request of
gunicorn and of PostgreSQL for each N, then (in-process) the SQL queries per move and per game
read at a short and a long history. The user throttle's rate is lifted (API_RATE_USER).

    .venv/bin/python bench/api.py [--clients 1,8,32] [--seconds 15] [--workers N] [--threads N]
    .venv/bin/python bench/api.py --ab 9ca0d25 [--clients 8] [--workers 4] [--rounds 3]

`--ab REV`: an A/B run in one go against another revision: REV's files (git archive) in a
temporary folder, migrated into a database of its own and served by its own gunicorn (its own
gunicorn.conf.py and settings); the two trees take turns, round after round, the order swapped
each round (A B, B A, ...), so the machine's drifting load falls on both. Every round prints both
trees' figures and their ratio; the end, each tree's median, the ratio of the medians, the
median of the rounds' ratios and the interval that holds it with 95 % confidence (from the
rounds' order statistics: with fewer than 6 rounds, the widest, at its own confidence). On a
shared machine quote the ratios and the interval; a change on the request path quotes such a run
against the tree it started from (docs/benchmarks.md). Both trees run on this virtualenv unless
`--ab-python` names another interpreter for REV (where the requirements differ: a package added,
such as hiredis, would otherwise serve both).

Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379. Databases are
named BENCH_DATABASE_PREFIX (default canasta_bench) + _<pid>[_<tree>], dropped at the end. The
Celery broker and cache are a Redis database of the bench's own (BENCH_REDIS_URL, default DB 15;
with --ab the other tree has the one before it):
no worker drains it, and it is flushed at the end, so it must be used by nothing else.
"""

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.figures import (
    database_cpu,
    median_interval,
    percentile,
    process_cpu,
    spent,
)
from bench.stack import PG_ADMIN, ROOT, bench_database
from bench.trees import exported_tree, short_name

PORT = 8731


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Keeps games short: take the pile, meld the most cards, else draw / discard / undo."""

    def size(action: dict[str, Any]) -> int:
        melds = action.get("melds", [])
        return len(action.get("cards", [])) + sum(len(meld["cards"]) for meld in melds)

    for kind in ("take_pile", "meld"):
        options = [action for action in legal if action["type"] == kind]
        if options:
            return max(options, key=size)
    for kind in ("draw", "discard", "undo"):
        options = [action for action in legal if action["type"] == kind]
        if options:
            return options[0]
    raise RuntimeError(f"nothing to play in {legal}")


class Reply:
    def __init__(self, status_code: int, body: bytes) -> None:
        self.status_code = status_code
        self.body = body

    def json(self) -> dict[str, Any]:
        return json.loads(self.body)

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}: {self.body[:300]!r}")


class Player:
    """One player's keep-alive connection. http.client, not requests: the client shares the
    machine's two cores with the server, and requests costs several times more CPU per call."""

    def __init__(self, token: str, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.requests = 0

    def request(self, method: str, path: str, body: bytes | None = None) -> Reply:
        self.requests += 1
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=self.headers)
                response = self.connection.getresponse()
                return Reply(response.status, response.read())
            except (http.client.RemoteDisconnected, ConnectionError):
                # The server closed an idle keep-alive connection: reconnect once.
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str) -> dict[str, Any]:
        reply = self.request("GET", path)
        reply.raise_for_status()
        return reply.json()

    def post(self, path: str, body: dict[str, Any]) -> Reply:
        return self.request("POST", path, json.dumps(body).encode())


def open_game(players: list[Player]) -> dict[str, Any]:
    created = players[0].post("/api/games/", {"mode": "async", "length": "match", "rules": {}})
    created.raise_for_status()
    game_id = created.json()["id"]
    for seat in (1, 2, 3):
        joined = players[seat].post(f"/api/games/{game_id}/join/", {"seat": seat})
        joined.raise_for_status()
    return joined.json()


class Client(threading.Thread):
    """Plays its own table (all four seats) until `stop`: for each move, reads the game as the
    player on turn, POSTs the move, reads the game again; records the latencies."""

    def __init__(
        self, tokens: list[str], port: int, stop: threading.Event, start: threading.Barrier
    ):
        super().__init__(daemon=True)
        self.players = [Player(token, port) for token in tokens]
        self.stop = stop
        self.start_barrier = start
        self.latencies: list[float] = []
        self.read_latencies: list[float] = []
        self.rejected = 0

    def read(self, player: Player, game_id: int) -> dict[str, Any]:
        began = time.perf_counter()
        game = player.get(f"/api/games/{game_id}/")
        if not self.stop.is_set():
            self.read_latencies.append(time.perf_counter() - began)
        return game

    def run(self) -> None:
        game = open_game(self.players)
        self.start_barrier.wait()
        while not self.stop.is_set():
            if game["status"] != "active":
                game = open_game(self.players)
            player = self.players[game["turn_seat"]]
            game = self.read(player, game["id"])
            action = choose(game["legal_actions"])
            began = time.perf_counter()
            response = player.post(
                f"/api/games/{game['id']}/moves/", {"version": game["version"], "action": action}
            )
            elapsed = time.perf_counter() - began
            if response.status_code != 200:
                self.rejected += 1
                continue
            if not self.stop.is_set():
                self.latencies.append(elapsed)
            game = self.read(player, game["id"])


class ServerCpu:
    """CPU seconds used by gunicorn (master and workers) and by the bench database's backends."""

    def __init__(self, server_pid: int, database: str) -> None:
        self.server_pid = server_pid
        self.database = database

    def sample(self) -> tuple[float, dict[int, float]]:
        return process_cpu(self.server_pid), database_cpu(self.database)


@dataclass(frozen=True)
class Figures:
    clients: int
    moves_per_second: float
    moves: int
    seconds: float
    rejected: int
    move_p50: float
    move_p99: float
    reads_per_second: float
    read_p50: float
    read_p99: float
    requests_per_second: float
    gunicorn_cpu: float  # ms per HTTP request
    postgres_cpu: float

    def lines(self) -> str:
        return (
            f"N={self.clients:>2}: {self.moves_per_second:6.1f} accepted moves/s "
            f"({self.moves} in {self.seconds:.0f} s, {self.rejected} rejected); move latency "
            f"p50 {self.move_p50:5.1f} ms, p99 {self.move_p99:6.1f} ms; "
            f"{self.reads_per_second:5.1f} game reads/s, p50 {self.read_p50:5.1f} ms, "
            f"p99 {self.read_p99:6.1f} ms\n"
            # Less sensitive to the machine's other load than the rates: CPU per HTTP request.
            f"       CPU per request (all kinds, {self.requests_per_second:.0f}/s): gunicorn "
            f"{self.gunicorn_cpu:.2f} ms, PostgreSQL {self.postgres_cpu:.2f} ms"
        )


def run_phase(
    tokens: list[list[str]], clients: int, seconds: float, cpu: ServerCpu, port: int
) -> Figures:
    stop = threading.Event()
    barrier = threading.Barrier(clients + 1)
    threads = [Client(tokens[index], port, stop, barrier) for index in range(clients)]
    for thread in threads:
        thread.start()

    def requests_made() -> int:
        return sum(player.requests for thread in threads for player in thread.players)

    barrier.wait()
    began = time.perf_counter()
    requests_before, cpu_before = requests_made(), cpu.sample()
    time.sleep(seconds)
    requests_after, cpu_after = requests_made(), cpu.sample()
    stop.set()
    elapsed = time.perf_counter() - began
    for thread in threads:
        thread.join(timeout=60)
    latencies = [value for thread in threads for value in thread.latencies]
    reads = [value for thread in threads for value in thread.read_latencies]
    requests = max(1, requests_after - requests_before)
    gunicorn_cpu = cpu_after[0] - cpu_before[0]
    postgres_cpu = spent(cpu_before[1], cpu_after[1])
    return Figures(
        clients=clients,
        moves_per_second=len(latencies) / elapsed,
        moves=len(latencies),
        seconds=elapsed,
        rejected=sum(thread.rejected for thread in threads),
        move_p50=percentile(latencies, 0.50) * 1000,
        move_p99=percentile(latencies, 0.99) * 1000,
        reads_per_second=len(reads) / elapsed,
        read_p50=percentile(reads, 0.50) * 1000,
        read_p99=percentile(reads, 0.99) * 1000,
        requests_per_second=requests / elapsed,
        gunicorn_cpu=gunicorn_cpu / requests * 1000,
        postgres_cpu=postgres_cpu / requests * 1000,
    )


def start_gunicorn(
    tree: Path, env: dict[str, str], port: int, python: str = sys.executable
) -> subprocess.Popen[bytes]:
    """The tree's gunicorn with its own gunicorn.conf.py (read from the tree), on `port`, from
    the virtualenv of `python`."""
    server = subprocess.Popen(
        [
            python,
            "-m",
            "gunicorn",
            "canasta_club.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=tree,
        env=env,
    )
    for _ in range(150):
        try:
            requests.get(f"http://127.0.0.1:{port}/api/health/", timeout=2)
            break
        except requests.RequestException:
            time.sleep(0.2)
    return server


def count_queries(moves: int) -> None:
    """In-process: queries for one move and one game read at a short and a long history."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from accounts.models import User
    from games import services
    from games.engine import Match
    from games.players import autoplay

    users = [User.objects.create(username=f"querycount_{seat}") for seat in range(4)]
    clients = []
    for user in users:
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    # The farthest target the club allows, so that the match is still running after the long
    # history (which stops early should a team come near it).
    target = 10000
    game = services.open_table(
        user=users[0], mode="async", length="match", rules={"target": target}, private=False
    )
    for seat in (1, 2, 3):
        services.join_table(game_id=game.pk, user=users[seat], seat=seat)

    def measure(label: str) -> None:
        game.refresh_from_db()
        assert game.turn_seat is not None
        client = clients[game.turn_seat]
        with CaptureQueriesContext(connection) as read:
            body = client.get(f"/api/games/{game.pk}/").json()
        action = choose(body["legal_actions"])
        with CaptureQueriesContext(connection) as move:
            response = client.post(
                f"/api/games/{game.pk}/moves/",
                {"version": body["version"], "action": action},
                format="json",
            )
        assert response.status_code == 200, response.json()
        with CaptureQueriesContext(connection) as log:
            client.get(f"/api/games/{game.pk}/moves/?after={body['version']}")
        print(
            f"{label}: version {body['version']:>4}, deal {body['deal_number']}: "
            f"{len(move.captured_queries)} queries per move ({action['type']}), "
            f"{len(read.captured_queries)} per game read, "
            f"{len(log.captured_queries)} per move-log read",
            flush=True,
        )

    measure("short history")
    # A long history: whole turns played by the service (as the timeout sweep does).
    while game.version < moves and max(game.scores) < target * 3 // 4:
        with transaction.atomic():
            locked = services.lock_game(game_id=game.pk)
            game = locked.game
            assert game.state is not None and game.turn_seat is not None
            actions = autoplay(Match.from_dict(game.state).deal, game.turn_seat)
            services.apply_actions_locked(
                locked=locked, seat=game.turn_seat, actions=actions, automatic=True
            )
    measure("long history ")


def bench_env(args: argparse.Namespace) -> dict[str, str]:
    return {
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
        **({"WEB_CONCURRENCY": str(args.workers)} if args.workers else {}),
        **({"WEB_THREADS": str(args.threads)} if args.threads else {}),
    }


def database_prefix() -> str:
    return os.environ.get("BENCH_DATABASE_PREFIX", "canasta_bench")


def describe(env: dict[str, str], args: argparse.Namespace, databases: str) -> None:
    workers = env.get("WEB_CONCURRENCY", f"{2 * (os.cpu_count() or 1)}")
    print(
        f"gunicorn: {workers} workers x {env.get('WEB_THREADS', '1')} threads (gthread), "
        f"PostgreSQL {databases}, {os.cpu_count()} CPUs; {args.seconds:.0f} s per run; each "
        "client a table of four playing async matches to 5000: read, move, read again",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default=None, help="default 1,8,32 (8 with --ab)")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, help="default: gunicorn.conf.py's (2 per core)")
    parser.add_argument("--threads", type=int, help="default: gunicorn.conf.py's (1)")
    parser.add_argument("--ab", metavar="REV", help="alternate rounds with another revision")
    parser.add_argument("--rounds", type=int, default=3, help="with --ab (default 3)")
    parser.add_argument(
        "--ab-python",
        default=sys.executable,
        help="with --ab, the other tree's interpreter (a virtualenv of its own requirements)",
    )
    args = parser.parse_args()
    client_counts = [
        int(value) for value in (args.clients or ("8" if args.ab else "1,8,32")).split(",")
    ]
    if args.ab:
        ab_run(args, client_counts)
        return

    database = f"{database_prefix()}_{os.getpid()}"
    with bench_database(database, env=bench_env(args)) as env:
        server = None
        try:
            from accounts import services
            from accounts.models import User

            tokens = []
            for client in range(max(client_counts)):
                seats = []
                for seat in range(4):
                    user = User.objects.create(username=f"bench{client}_{seat}")
                    seats.append(services.issue_token(user=user))
                tokens.append(seats)
            server = start_gunicorn(ROOT, env, PORT)
            describe(env, args, f"database {database}")
            for clients in client_counts:
                # The machine's other load skews every figure: show it.
                print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
                cpu = ServerCpu(server.pid, database)
                print(run_phase(tokens, clients, args.seconds, cpu, PORT).lines(), flush=True)
            count_queries(moves=1000)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
            redis.Redis.from_url(env["REDIS_URL"]).flushdb()


# Run in a tree's own folder and settings (python -c): its players, each with a token made the
# tree's way (hashed API tokens, or DRF's authtoken in the oldest trees), as JSON.
ISSUE_TOKENS = """
import json, sys, django
django.setup()
from accounts.models import User
try:
    from accounts.services import issue_token
except ImportError:
    from rest_framework.authtoken.models import Token
    def issue_token(*, user):
        return Token.objects.create(user=user).key
tables, = map(int, sys.argv[1:])
print(json.dumps([
    [issue_token(user=User.objects.create(username=f"bench{t}_{s}")) for s in range(4)]
    for t in range(tables)
]))
"""


@dataclass
class Tree:
    name: str
    folder: Path
    database: str
    port: int
    env: dict[str, str]
    tokens: list[list[str]]
    server: subprocess.Popen[bytes] | None = None


@contextlib.contextmanager
def served(
    name: str,
    folder: Path,
    port: int,
    args: argparse.Namespace,
    tables: int,
    redis_url: str,
    python: str = sys.executable,
) -> Iterator[Tree]:
    """A tree migrated into a database of its own, its players made, its gunicorn started, its
    cache and broker in a Redis database of its own (another tree's keys may have other
    shapes: a throttle's history, a cached token)."""
    import psycopg

    database = f"{database_prefix()}_{os.getpid()}_{name}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
        "SECRET_KEY": "bench-only-not-a-secret",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "CANASTA_VAR_DIR": str(folder / "var"),
        "API_RATE_USER": "1000000/min",
        "API_RATE_ANON": "1000000/min",
        **bench_env(args),
        "REDIS_URL": redis_url,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
    }
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{database}"')
    tree = Tree(name, folder, database, port, env, [])
    try:
        subprocess.run(
            [python, "manage.py", "migrate", "--verbosity", "0"], cwd=folder, env=env, check=True
        )
        made = subprocess.run(
            [python, "-c", ISSUE_TOKENS, str(tables)],
            cwd=folder,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        tree.tokens = json.loads(made.stdout.strip().splitlines()[-1])
        tree.server = start_gunicorn(folder, env, port, python)
        yield tree
    finally:
        if tree.server is not None:
            tree.server.terminate()
            tree.server.wait(timeout=30)
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def ab_run(args: argparse.Namespace, client_counts: list[int]) -> None:
    this, other = f"{short_name('HEAD')}+", short_name(args.ab)
    tables = max(client_counts)
    # The bench's Redis database for this tree, the one before it for the other.
    redis_a = bench_env(args)["REDIS_URL"]
    base, _slash, number = redis_a.rpartition("/")
    redis_b = f"{base}/{int(number) - 1}"
    try:
        with (
            exported_tree(args.ab) as folder,
            served("a", ROOT, PORT, args, tables, redis_a) as tree_a,
            served("b", folder, PORT + 1, args, tables, redis_b, args.ab_python) as tree_b,
        ):
            tree_a.name, tree_b.name = f"{this} (this tree)", other
            describe(tree_a.env, args, f"databases {tree_a.database} and {tree_b.database}")
            results: dict[tuple[str, int], list[Figures]] = {}
            for round_number in range(1, args.rounds + 1):
                order = [tree_a, tree_b] if round_number % 2 else [tree_b, tree_a]
                for clients in client_counts:
                    print(
                        f"round {round_number}, N={clients}, load average "
                        f"{os.getloadavg()[0]:.2f}:",
                        flush=True,
                    )
                    for tree in order:
                        assert tree.server is not None
                        cpu = ServerCpu(tree.server.pid, tree.database)
                        figures = run_phase(tree.tokens, clients, args.seconds, cpu, tree.port)
                        results.setdefault((tree.name, clients), []).append(figures)
                        print(f"  {tree.name}:", flush=True)
                        print(f"    {figures.lines()}".replace("\n", "\n    "), flush=True)
                    a = results[(tree_a.name, clients)][-1]
                    b = results[(tree_b.name, clients)][-1]
                    print(f"  ratio this/{other}: {ratios(a, b)}", flush=True)
            print(f"\nmedians over {args.rounds} rounds (this tree {this}, reference {other}):")
            for clients in client_counts:
                mid_a = median_figures(results[(tree_a.name, clients)])
                mid_b = median_figures(results[(tree_b.name, clients)])
                print(
                    f"  N={clients}: {this}: {shown(mid_a)}\n  N={clients}: {other}: {shown(mid_b)}"
                )
                print(f"  ratio of medians this/{other}: {ratios_of(mid_a, mid_b)}", flush=True)
                # Each round's ratio is of two runs a minute apart: less drift than the medians'.
                per_round = [median_figures([a]) for a in results[(tree_a.name, clients)]]
                rounds_b = [median_figures([b]) for b in results[(tree_b.name, clients)]]
                ratio_lists = {
                    name: [a[name] / b[name] for a, b in zip(per_round, rounds_b, strict=True)]
                    for name in MEASURES
                }
                print(
                    f"  median of the rounds' ratios this/{other}: "
                    + ", ".join(
                        f"{name} {statistics.median(values):.2f}x"
                        for name, values in ratio_lists.items()
                    ),
                    flush=True,
                )
                print(f"  {median_interval_line(ratio_lists)}", flush=True)
    finally:
        for url in (redis_a, redis_b):
            redis.Redis.from_url(url).flushdb()


def median_interval_line(ratio_lists: dict[str, list[float]]) -> str:
    intervals = {name: median_interval(values) for name, values in ratio_lists.items()}
    level = min(confidence for _low, _high, confidence in intervals.values())
    shown = ", ".join(
        f"{name} {low:.2f}-{high:.2f}x" for name, (low, high, _level) in intervals.items()
    )
    return f"the rounds' ratio's median lies within ({level:.0%} confidence): {shown}"


MEASURES = {
    "moves/s": "moves_per_second",
    "move p50": "move_p50",
    "move p99": "move_p99",
    "read p50": "read_p50",
    "gunicorn CPU/request": "gunicorn_cpu",
    "PostgreSQL CPU/request": "postgres_cpu",
}


def median_figures(runs: list[Figures]) -> dict[str, float]:
    return {
        name: statistics.median(getattr(run, field) for run in runs)
        for name, field in MEASURES.items()
    }


def shown(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.2f}" for name, value in figures.items())


def ratios_of(a: dict[str, float], b: dict[str, float]) -> str:
    return ", ".join(f"{name} {a[name] / b[name]:.2f}x" for name in MEASURES if b[name])


def ratios(a: Figures, b: Figures) -> str:
    return ratios_of(median_figures([a]), median_figures([b]))


if __name__ == "__main__":
    main()
