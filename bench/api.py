"""API benchmark (prints figures; not a test).

The real stack: a fresh PostgreSQL database on the machine's server, migrated, served by gunicorn;
N concurrent clients (threads), each playing its own games through HTTP with the four players'
tokens (read the game as the player to move, pick from `legal_actions`, POST the move). Reports
accepted moves per second and move latency p50/p99 for each N, then the SQL queries per move and
per game read, measured in-process with CaptureQueriesContext, for a short and a long history.
Gunicorn is stopped and the database dropped at the end.

    .venv/bin/python bench/api.py [--clients 1,8,32] [--seconds 15] [--workers N] [--threads N]

Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379. The Celery broker
is a Redis database of the bench's own (BENCH_REDIS_URL, default DB 15): no worker drains it, and
it is flushed at the end, so it must be used by nothing else.
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import redis
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.figures import database_cpu, percentile, process_cpu
from bench.stack import ROOT, bench_database

PORT = 8731
BASE = f"http://127.0.0.1:{PORT}"


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

    def __init__(self, token: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
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
    """Plays its own games (all four seats) until `stop`; records each move's latency."""

    def __init__(self, tokens: list[str], stop: threading.Event, start: threading.Barrier):
        super().__init__(daemon=True)
        self.players = [Player(token) for token in tokens]
        self.stop = stop
        self.start_barrier = start
        self.latencies: list[float] = []
        self.read_latencies: list[float] = []
        self.rejected = 0

    def run(self) -> None:
        game = open_game(self.players)
        self.start_barrier.wait()
        while not self.stop.is_set():
            if game["status"] != "active":
                game = open_game(self.players)
            player = self.players[game["turn_seat"]]
            if not game["legal_actions"]:
                began = time.perf_counter()
                game = player.get(f"/api/games/{game['id']}/")
                if not self.stop.is_set():
                    self.read_latencies.append(time.perf_counter() - began)
            action = choose(game["legal_actions"])
            began = time.perf_counter()
            response = player.post(
                f"/api/games/{game['id']}/moves/", {"version": game["version"], "action": action}
            )
            elapsed = time.perf_counter() - began
            if response.status_code != 200:
                self.rejected += 1
                game = player.get(f"/api/games/{game['id']}/")
                continue
            if not self.stop.is_set():
                self.latencies.append(elapsed)
            game = response.json()["game"]


class ServerCpu:
    """CPU seconds used by gunicorn (master and workers) and by the bench database's backends."""

    def __init__(self, server_pid: int, database: str) -> None:
        self.server_pid = server_pid
        self.database = database

    def sample(self) -> tuple[float, float]:
        pid = self.server_pid
        return (
            process_cpu(pid),
            database_cpu(self.database),
        )


def run_phase(tokens: list[list[str]], clients: int, seconds: float, cpu: ServerCpu) -> None:
    stop = threading.Event()
    barrier = threading.Barrier(clients + 1)
    threads = [Client(tokens[index], stop, barrier) for index in range(clients)]
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
    rejected = sum(thread.rejected for thread in threads)
    requests = max(1, requests_after - requests_before)
    gunicorn_cpu, postgres_cpu = (
        after - before for after, before in zip(cpu_after, cpu_before, strict=True)
    )
    print(
        f"N={clients:>2}: {len(latencies) / elapsed:6.1f} accepted moves/s "
        f"({len(latencies)} in {elapsed:.0f} s, {rejected} rejected); move latency "
        f"p50 {percentile(latencies, 0.50) * 1000:5.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:6.1f} ms, "
        f"mean {statistics.fmean(latencies) * 1000:5.1f} ms; "
        f"{len(reads) / elapsed:5.1f} game reads/s, "
        f"p50 {percentile(reads, 0.50) * 1000:5.1f} ms, "
        f"p99 {percentile(reads, 0.99) * 1000:6.1f} ms",
        flush=True,
    )
    # Less sensitive to the machine's other load than the rates: CPU time per HTTP request.
    print(
        f"       CPU per request (all kinds, {requests / elapsed:.0f}/s): gunicorn "
        f"{gunicorn_cpu / requests * 1000:.2f} ms, "
        f"PostgreSQL {postgres_cpu / requests * 1000:.2f} ms",
        flush=True,
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, help="default: gunicorn.conf.py's (2 per core)")
    parser.add_argument("--threads", type=int, help="default: gunicorn.conf.py's (1)")
    args = parser.parse_args()
    client_counts = [int(value) for value in args.clients.split(",")]

    database = f"canasta_bench_{os.getpid()}"
    settings_env = {
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
        **({"WEB_CONCURRENCY": str(args.workers)} if args.workers else {}),
        **({"WEB_THREADS": str(args.threads)} if args.threads else {}),
    }
    with bench_database(database, env=settings_env) as env:
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

            # The production settings of gunicorn.conf.py (read from ROOT), on the bench's port.
            server = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "gunicorn"),
                    "canasta_club.wsgi",
                    "--bind",
                    f"127.0.0.1:{PORT}",
                    "--log-level",
                    "warning",
                ],
                cwd=ROOT,
                env=env,
            )
            for _ in range(100):
                try:
                    requests.get(f"{BASE}/api/health/", timeout=2)
                    break
                except requests.RequestException:
                    time.sleep(0.2)
            workers = env.get("WEB_CONCURRENCY", f"{2 * (os.cpu_count() or 1)}")
            print(
                f"gunicorn.conf.py: {workers} workers x {env.get('WEB_THREADS', '1')} threads "
                f"(gthread), PostgreSQL database {database} (server-side binding, prepared "
                f"statements), {os.cpu_count()} CPUs; {args.seconds:.0f} s per run, async matches "
                "to 5000",
                flush=True,
            )
            for clients in client_counts:
                # The machine's other load skews every figure: show it.
                print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
                run_phase(tokens, clients, args.seconds, ServerCpu(server.pid, database))
            count_queries(moves=1000)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
            redis.Redis.from_url(env["REDIS_URL"]).flushdb()


if __name__ == "__main__":
    main()
