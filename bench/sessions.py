"""Session engines A/B (prints figures; not a test): what a signed-in page request costs with
each engine, in alternating rounds in one process (this machine's speed drifts; the ratios of
neighbouring rounds do not).

For each engine a player signs in (a session made by that engine), then each round runs, for
every engine in turn (the order alternating between rounds), `--requests` requests of each
page: the lobby `/`, the table fragment `/games/{id}/table/` of a game mid-deal (what a live
table fetches after each move), and the poll of that fragment while nothing changed (a 304 with
`If-None-Match`, what a correspondence table sends every 5 s without an event stream); then the
engine's session read alone (what the session middleware asks of it each request). Figures:
this process's CPU per request (the web worker's share; it leaves out the waits for PostgreSQL
and Redis) and the CPU of the bench database's PostgreSQL backend per request, averaged over
the rounds, with each engine's ratio to the first one's (per round, then the median).

    .venv/bin/python bench/sessions.py [--engines ENGINE,ENGINE...] [--rounds 10]
        [--requests 200]

`--engines` are session engine modules (default: the club's `settings.SESSION_ENGINE`, then
Django's `cached_db`, which reads a session from Redis and the database only on a miss). A
fresh PostgreSQL database of its own (dropped at the end), Redis on 127.0.0.1:6379 (database
BENCH_REDIS_URL, default 14, flushed at the end).
"""

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.figures import database_cpu, spent
from bench.stack import bench_database
from bench.web import new_game, play_into_deal, sessions_for

CACHED_DB = "django.contrib.sessions.backends.cached_db"
READ_ALONE = "the session read alone"


def signed_in_client(engine: str, user: Any) -> Any:
    """A test client whose middleware (built at its first request) uses `engine`, carrying a
    session of `user` made by that engine."""
    from django.conf import settings
    from django.test import Client, override_settings

    with override_settings(SESSION_ENGINE=engine):
        client = Client()
        key = sessions_for([user], engine=engine)[user.pk]
        assert key is not None
        client.cookies[settings.SESSION_COOKIE_NAME] = key
        assert client.get("/profile/").status_code == 200, engine
    return client


def read_session(store: Any, key: str) -> object:
    return store(key).load()


def measure(request: Callable[[], object], requests: int, database: str) -> tuple[float, float]:
    """CPU of this process and of PostgreSQL per request, in ms."""
    cpu, db_cpu = time.process_time(), database_cpu(database)
    for _ in range(requests):
        request()
    return (
        (time.process_time() - cpu) * 1000 / requests,
        spent(db_cpu, database_cpu(database)) * 1000 / requests,
    )


def run(args: argparse.Namespace, database: str) -> None:
    from django.conf import settings

    from accounts.models import User
    from games.models import Game

    engines = args.engines.split(",") if args.engines else [settings.SESSION_ENGINE, CACHED_DB]
    users = [User.objects.create(username=f"sessions_{seat}") for seat in range(4)]
    game_id = new_game(users, "async")
    play_into_deal(game_id, 40)
    game = Game.objects.get(pk=game_id)
    assert game.turn_seat is not None
    player = users[game.turn_seat]
    clients = {engine: signed_in_client(engine, player) for engine in engines}
    fragment = f"/games/{game_id}/table/"
    etag = clients[engines[0]].get(fragment).headers["ETag"]
    pages = {
        "lobby /": ("/", {}, 200),
        "table fragment": (fragment, {}, 200),
        "fragment poll (304)": (fragment, {"if-none-match": etag}, 304),
    }
    for client in clients.values():  # warm up; and each answers as expected
        for path, headers, status in pages.values():
            for _ in range(20):
                assert client.get(path, headers=headers).status_code == status
    requests: dict[tuple[str, str], Callable[[], object]] = {}
    for engine, client in clients.items():
        for page, (path, headers, _status) in pages.items():
            requests[(engine, page)] = partial(client.get, path, headers=headers)
        # What the engine alone costs a request: its session read (SessionMiddleware's load).
        store = import_module(engine).SessionStore
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        requests[(engine, READ_ALONE)] = partial(read_session, store, key)
    gc.collect()
    gc.freeze()  # as a web worker after start-up (gunicorn.conf.py)
    figures: dict[tuple[str, str], list[Any]] = {}
    for number in range(args.rounds):
        order = engines if number % 2 == 0 else engines[::-1]
        for engine in order:
            for page in (*pages, READ_ALONE):
                figures.setdefault((engine, page), []).append(
                    measure(requests[(engine, page)], args.requests, database)
                )
    print(
        f"{args.rounds} rounds x {args.requests} requests per page and engine; "
        f"CPU per request in ms, mean over the rounds (ratio to {engines[0]}: median of rounds)"
    )
    for page in (*pages, READ_ALONE):
        print(f"{page}:")
        base = figures[(engines[0], page)]
        for engine in engines:
            rounds = figures[(engine, page)]
            web = statistics.fmean(web for web, _db in rounds)
            db = statistics.fmean(db for _web, db in rounds)
            ratio = statistics.median(
                (web + db) / (base_web + base_db)
                for (web, db), (base_web, base_db) in zip(rounds, base, strict=True)
            )
            print(
                f"  {engine:45s} web {web:6.3f}  PostgreSQL {db:6.3f}  "
                f"sum {web + db:6.3f}  x{ratio:.3f}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="", help="session engine modules, comma-separated")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--requests", type=int, default=200, help="per page, engine and round")
    args = parser.parse_args()
    database = f"canasta_sessionsbench_{os.getpid()}"
    env = {
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14"),
        "LIVE_CHANNEL_PREFIX": f"sessionsbench{os.getpid()}",
        "CANASTA_VAR_DIR": os.environ.get(
            "CANASTA_VAR_DIR", str(Path(__file__).resolve().parent.parent / "var" / "bench")
        ),
    }
    with bench_database(database, env=env) as full_env:
        try:
            print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
            run(args, database)
        finally:
            redis.Redis.from_url(full_env["REDIS_URL"]).flushdb()


if __name__ == "__main__":
    main()
