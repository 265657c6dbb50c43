"""Where a game read's and a move's milliseconds go, through the whole Django stack (prints
figures; not a test).

Each tree runs in a process of its own on a fresh PostgreSQL database (with the real Redis as its
cache), serving requests through its own WSGI application (the handler gunicorn calls: every
middleware, DRF, the view, the selectors, the engine, the renderer), each request as a program
playing sends it: `Authorization: Token`, JSON. Four players play a match: read the game as the
player on turn, POST a move, read it again. Every middleware, DRF's steps, the views, the
selectors, the engine, SQL and Redis are timed (their own time, without what they call), so the
parts of a request add up to it; SQL queries and Redis round trips (by command) are counted.
What gunicorn itself adds (HTTP parsing, sockets) is outside: bench/api.py measures the whole
over HTTP.

    .venv/bin/python bench/trace.py [--reference 9ca0d25] [--moves 300] [--rounds 2]

With `--reference`, the same in another tree (git archive of the revision in a temporary folder),
the trees alternating `--rounds` times; the table gives each part's mean per request for both.
Both run on this virtualenv unless `--reference-python` names another (where the requirements
differ: a package added, such as hiredis, would otherwise serve both trees).
Databases are named BENCH_DATABASE_PREFIX (default canasta_bench) + _trace_<pid>_<n>, dropped at
the end; the cache is BENCH_REDIS_URL (default Redis DB 15, flushed).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve()
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
KINDS = ("read", "move", "read again")
OUTSIDE = "WSGI: request and response objects, signals"
HANDLER = "Django: URL resolving, view middleware"
SQL = "PostgreSQL: round trips (the driver's time)"
REDIS = "Redis: round trips"
# Counted per request beside REDIS's time: each round trip by its command (a pipeline is one).
REDIS_COMMAND = "Redis command: "
# What each part's own time is: (dotted path of a function or method, label). Missing ones (an
# older tree) are left out. Functions are replaced wherever a module imported them.
PARTS = [
    ("rest_framework.views.APIView.dispatch", "DRF: dispatch (request, finalize_response)"),
    ("rest_framework.views.APIView.initial", "DRF: content negotiation"),
    ("rest_framework.views.APIView.perform_authentication", "DRF: authentication (token, user)"),
    ("rest_framework.views.APIView.check_permissions", "DRF: permissions"),
    ("rest_framework.views.APIView.check_throttles", "DRF: throttles"),
    ("rest_framework.request.Request._parse", "DRF: parsing the JSON body"),
    ("rest_framework.serializers.Serializer.is_valid", "view: request serializer"),
    ("rest_framework.response.Response.rendered_content", "DRF: rendering the JSON answer"),
    ("games.views.GameDetailView.get", "view: game read (own code)"),
    ("games.views.MovesView.post", "view: move (own code)"),
    ("games.services.make_move", "service: make_move (own code)"),
    ("games.services.moves.make_move", "service: make_move (own code)"),
    ("games.services.idempotency.replay_of", "service: idempotency"),
    ("games.services.presence.mark_seen", "presence: mark_seen"),
    ("games.services.mark_seen", "presence: mark_seen"),
    ("games.store.load", "game row: load (Python side)"),
    ("games.selectors.game_with_seats", "game row: load (Python side)"),
    ("games.store.write", "game row: write (Python side)"),
    ("games.selectors.game_detail", "selectors: game_detail (own code)"),
    ("games.selectors.game_summary", "selectors: game_summary (players, pause, time off)"),
    ("games.selectors.move_entry", "selectors: move entries"),
    ("games.engine.Match.from_dict", "engine: parsing the state"),
    ("games.engine.Match.to_dict", "engine: serialising the state"),
    ("games.engine.Match.apply", "engine: applying the move"),
    ("games.engine.legal_actions", "engine: legal_actions"),
    ("games.engine.deal.Deal.view", "engine: the seat's view"),
    ("games.engine.Deal.view", "engine: the seat's view"),
]


class Tracer:
    """Own (exclusive) wall and CPU time per label, on a stack of open labels."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []
        self.own: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.counts: dict[str, int] = defaultdict(int)

    def enter(self, label: str) -> None:
        self.stack.append([label, time.perf_counter(), time.thread_time(), 0.0, 0.0])

    def exit(self) -> None:
        label, wall_start, cpu_start, child_wall, child_cpu = self.stack.pop()
        wall = time.perf_counter() - wall_start
        cpu = time.thread_time() - cpu_start
        own = self.own[label]
        own[0] += wall - child_wall
        own[1] += cpu - child_cpu
        self.counts[label] += 1
        if self.stack:
            self.stack[-1][3] += wall
            self.stack[-1][4] += cpu

    @contextmanager
    def part(self, label: str) -> Iterator[None]:
        self.enter(label)
        try:
            yield
        finally:
            self.exit()

    def take(self) -> tuple[dict[str, list[float]], dict[str, int]]:
        own, counts = dict(self.own), dict(self.counts)
        self.own.clear()
        self.counts.clear()
        return own, counts


TRACER = Tracer()


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        TRACER.enter(label)
        try:
            return function(*args, **kwargs)
        finally:
            TRACER.exit()

    wrapper.__wrapped__ = function  # type: ignore[attr-defined]
    return wrapper


def _resolve(path: str) -> tuple[Any, str] | None:
    """(owner, attribute) of a dotted path: a module's function or a class's attribute."""
    import importlib

    parts = path.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:-1]:
            owner = getattr(owner, name, None)
            if owner is None:
                return None
        return (owner, parts[-1]) if hasattr(owner, parts[-1]) else None
    return None


def instrument() -> None:
    done: set[int] = set()
    for path, label in PARTS:
        found = _resolve(path)
        if found is None:
            continue
        owner, name = found
        if isinstance(owner, ModuleType):
            function = getattr(owner, name)
            if id(function) in done:
                continue
            done.add(id(function))
            wrapper = timed(label, function)
            for module in list(sys.modules.values()):
                namespace = getattr(module, "__dict__", {})
                for key, value in list(namespace.items()):
                    if value is function:
                        namespace[key] = wrapper
            continue
        attribute = owner.__dict__.get(name)
        if attribute is None or id(attribute) in done:
            continue  # inherited: the class that defines it is listed
        done.add(id(attribute))
        if isinstance(attribute, classmethod):
            setattr(owner, name, classmethod(timed(label, attribute.__func__)))
        elif isinstance(attribute, property):
            setattr(owner, name, property(timed(label, attribute.fget)))  # type: ignore[arg-type]
        else:
            setattr(owner, name, timed(label, attribute))

    import redis
    from django.db import connection

    def sql(execute: Callable[..., Any], *args: Any) -> Any:
        with TRACER.part(SQL):
            return execute(*args)

    connection.execute_wrappers.append(sql)

    def counted(command: Callable[[Any], str], function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(client: Any, *args: Any, **kwargs: Any) -> Any:
            TRACER.counts[REDIS_COMMAND + command(args)] += 1
            return function(client, *args, **kwargs)

        return wrapper

    for klass, name, command in (
        (redis.Redis, "execute_command", lambda args: str(args[0]).upper()),
        (redis.client.Pipeline, "execute", lambda args: "PIPELINE"),
    ):
        setattr(klass, name, counted(command, timed(REDIS, getattr(klass, name))))


def stamped_middleware(middleware: list[str]) -> list[str]:
    """MIDDLEWARE with a stamp before each entry: a middleware's own time is its stamp's minus
    the next one's."""
    module = ModuleType("_trace_stamps")
    sys.modules[module.__name__] = module
    stamped = []
    labels = [f"middleware: {path.rsplit('.', 1)[1]}" for path in middleware] + [HANDLER]
    for index, label in enumerate(labels):

        def make(label: str) -> type:
            class Stamp:
                def __init__(self, get_response: Callable[[Any], Any]) -> None:
                    self.get_response = get_response

                def __call__(self, request: Any) -> Any:
                    with TRACER.part(label):
                        return self.get_response(request)

            return Stamp

        setattr(module, f"Stamp{index}", make(label))
        stamped.append(f"{module.__name__}.Stamp{index}")
        if index < len(middleware):
            stamped.append(middleware[index])
    return stamped


class Wsgi:
    """Calls the tree's WSGI application as gunicorn does, one request at a time."""

    def __init__(self, application: Callable[..., Any]) -> None:
        self.application = application

    def __call__(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        raw = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_AUTHORIZATION": f"Token {token}",
            "HTTP_ACCEPT": "*/*",
            "HTTP_USER_AGENT": "bench/trace",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(raw)),
            "wsgi.input": BytesIO(raw),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        status: list[str] = []
        with TRACER.part(OUTSIDE):
            result = self.application(environ, lambda code, headers: status.append(code))
            content = b"".join(result)
            getattr(result, "close", lambda: None)()
        return int(status[0].split()[0]), json.loads(content) if content else None


def issue_tokens(count: int) -> list[str]:
    """Players with a token each, the tree's way (hashed API tokens, or DRF's authtoken)."""
    from accounts.models import User

    tokens = []
    for index in range(count):
        user = User.objects.create(username=f"trace_{os.getpid()}_{index}")
        try:
            from accounts.services import issue_token
        except ImportError:
            from rest_framework.authtoken.models import Token

            tokens.append(Token.objects.create(user=user).key)
        else:
            tokens.append(issue_token(user=user))
    return tokens


def child(tree: Path, database: str, moves: int) -> dict[str, Any]:
    """Runs in the tree's own process: its settings, its code, its fresh database (the moves are
    chosen as bench/api.py chooses them, imported from this tree before the other one's path)."""
    import psycopg

    sys.path.insert(0, str(HERE.parent.parent))
    global choose
    from bench.api import choose

    os.chdir(tree)
    sys.path[:] = [str(tree)] + [p for p in sys.path if Path(p).resolve() != HERE.parent]
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
            "SECRET_KEY": "bench-only-not-a-secret",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
            "CANASTA_VAR_DIR": str(tree / "var"),
            "API_RATE_USER": "1000000/min",
            "API_RATE_ANON": "1000000/min",
            "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        }
    )
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{database}"')
    try:
        import django
        from django.conf import settings

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        settings.MIDDLEWARE = stamped_middleware(list(settings.MIDDLEWARE))
        from django.core.wsgi import get_wsgi_application

        wsgi = Wsgi(get_wsgi_application())
        import canasta_club.urls  # noqa: F401  (every view module loaded before wrapping)

        instrument()
        return play(wsgi, issue_tokens(4), moves)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


choose: Callable[[list[dict[str, Any]]], dict[str, Any]]


def play(wsgi: Wsgi, tokens: list[str], moves: int) -> dict[str, Any]:
    def open_game() -> dict[str, Any]:
        code, game = wsgi("POST", "/api/games/", tokens[0], {"mode": "async", "length": "match"})
        assert code == 201, game
        for seat in (1, 2, 3):
            join = f"/api/games/{game['id']}/join/"
            code, game = wsgi("POST", join, tokens[seat], {"seat": seat})
            assert code == 200, game
        return game

    samples: dict[str, list[dict[str, list[float]]]] = {kind: [] for kind in KINDS}
    queries: dict[str, list[int]] = {kind: [] for kind in KINDS}
    commands: dict[str, list[dict[str, int]]] = {kind: [] for kind in KINDS}
    game = open_game()
    warm_up = 40
    for number in range(warm_up + moves):
        if game["status"] != "active":
            game = open_game()
        token = tokens[game["turn_seat"]]
        path = f"/api/games/{game['id']}/"
        TRACER.take()
        code, game = wsgi("GET", path, token)
        assert code == 200, game
        read = TRACER.take()
        body = {"version": game["version"], "action": choose(game["legal_actions"])}
        code, answer = wsgi("POST", f"{path}moves/", token, body)
        assert code == 200, answer
        move = TRACER.take()
        code, game = wsgi("GET", path, token)
        again = TRACER.take()
        if number >= warm_up:
            for kind, (own, counts) in zip(KINDS, (read, move, again), strict=True):
                samples[kind].append(own)
                queries[kind].append(counts.get(SQL, 0))
                commands[kind].append(
                    {
                        label.removeprefix(REDIS_COMMAND): count
                        for label, count in counts.items()
                        if label.startswith(REDIS_COMMAND)
                    }
                )
    return {
        kind: {
            "parts": _means(samples[kind]),
            "queries": sum(queries[kind]) / len(queries[kind]),
            "redis": {
                command: sum(sample.get(command, 0) for sample in commands[kind])
                / len(commands[kind])
                for command in sorted({command for sample in commands[kind] for command in sample})
            },
            "requests": len(samples[kind]),
        }
        for kind in KINDS
    }


def _means(samples: list[dict[str, list[float]]]) -> dict[str, list[float]]:
    """Each part's mean own time per request (ms, wall and CPU), over requests with the slowest
    2 % of totals left out (the machine's other load)."""
    totals = sorted(sum(own[0] for own in sample.values()) for sample in samples)
    cut = totals[int(len(totals) * 0.98) - 1] if len(totals) > 50 else float("inf")
    kept = [sample for sample in samples if sum(own[0] for own in sample.values()) <= cut]
    labels = {label for sample in kept for label in sample}
    return {
        label: [
            sum(sample.get(label, [0.0, 0.0])[axis] for sample in kept) / len(kept) * 1000
            for axis in (0, 1)
        ]
        for label in labels
    }


def run_child(tree: Path, database: str, moves: int, python: str) -> dict[str, Any]:
    output = subprocess.run(
        [
            python,
            str(HERE),
            "--child",
            str(tree),
            "--database",
            database,
            "--moves",
            str(moves),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def report(results: dict[str, list[dict[str, Any]]]) -> None:
    """One table per kind of request: each part's mean own ms (wall / CPU), every tree."""
    from bench.figures import median_interval

    trees = list(results)
    for kind in KINDS:
        merged: dict[str, dict[str, list[float]]] = {}
        for tree, runs in results.items():
            parts: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
            for run in runs:
                for label, (wall, cpu) in run[kind]["parts"].items():
                    parts[label][0] += wall / len(runs)
                    parts[label][1] += cpu / len(runs)
            merged[tree] = parts
        labels = sorted(
            {label for parts in merged.values() for label in parts},
            key=lambda label: -max(parts.get(label, [0, 0])[1] for parts in merged.values()),
        )
        width = max(len(label) for label in labels) + 2
        print(f"\n{kind}: mean own time per request, ms wall / CPU")
        print("".ljust(width) + "".join(f"{tree:>18}" for tree in trees))
        for label in labels:
            cells = "".join(
                "{:8.3f} /{:7.3f}".format(*merged[tree].get(label, [0.0, 0.0])) for tree in trees
            )
            print(label.ljust(width) + cells)
        totals = "".join(
            f"{sum(v[0] for v in merged[tree].values()):8.3f} /"
            f"{sum(v[1] for v in merged[tree].values()):7.3f}"
            for tree in trees
        )
        print("total".ljust(width) + totals)
        # Each run is a process of its own, and processes of the same code differ by up to a
        # fifth here (where their memory lands, the core they get): judge a change by rounds.
        run_totals = {
            tree: [sum(cpu for _wall, cpu in run[kind]["parts"].values()) for run in runs]
            for tree, runs in results.items()
        }
        for tree, cpu_totals in run_totals.items():
            each = ", ".join(f"{cpu:.3f}" for cpu in cpu_totals)
            print(f"  CPU total of each run, {tree}: {each}")
        if len(trees) == 2:
            # Round by round (the trees' runs were next to each other): this tree's over the
            # reference's.
            each_ratio = [this / other for this, other in zip(*run_totals.values(), strict=True)]
            low, high, level = median_interval(each_ratio)
            print(
                "  CPU ratio of each round: "
                + ", ".join(f"{ratio:.2f}" for ratio in each_ratio)
                + f"; their median within {low:.2f}-{high:.2f} ({level:.0%} confidence)"
            )
        counts = "".join(
            f"{sum(run[kind]['queries'] for run in results[tree]) / len(results[tree]):18.2f}"
            for tree in trees
        )
        print("SQL queries per request".ljust(width) + counts)
        redis = {
            tree: {
                command: sum(run[kind]["redis"].get(command, 0) for run in runs) / len(runs)
                for command in {command for run in runs for command in run[kind]["redis"]}
            }
            for tree, runs in results.items()
        }
        print(
            "Redis round trips per request".ljust(width)
            + "".join(f"{sum(redis[tree].values()):18.2f}" for tree in trees)
        )
        for command in sorted({command for per_tree in redis.values() for command in per_tree}):
            print(
                f"  {command}".ljust(width)
                + "".join(f"{redis[tree].get(command, 0):18.2f}" for tree in trees)
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", help="another revision, e.g. 9ca0d25")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--reference-python",
        default=sys.executable,
        help="the reference's interpreter (a virtualenv of its own requirements), default this one",
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.database, args.moves)))
        return

    sys.path.insert(0, str(HERE.parent.parent))
    from bench.trees import ROOT, exported_tree, short_name

    prefix = os.environ.get("BENCH_DATABASE_PREFIX", "canasta_bench")
    this = f"{short_name('HEAD')} (this tree)"
    with exported_tree(args.reference) if args.reference else nullcontext() as other:
        trees = {this: ROOT} | ({short_name(args.reference): other} if other else {})
        results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        number = 0
        for round_number in range(args.rounds):
            order = list(trees.items())
            if round_number % 2:
                order.reverse()
            for name, tree in order:
                number += 1
                database = f"{prefix}_trace_{os.getpid()}_{number}"
                print(f"round {round_number + 1}: {name} ...", flush=True)
                python = args.reference_python if tree != ROOT else sys.executable
                results[name].append(run_child(tree, database, args.moves, python))
    report(results)


if __name__ == "__main__":
    main()
