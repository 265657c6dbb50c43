"""Web benchmark (prints figures; not a test). `--parts` picks what to measure (all by default):

- `table`: the table page: server time and CPU per render (p50/p99), in-process through
  Django's test client, for the player to move in a game mid-deal; and the fragment a live
  page fetches; a poll of the fragment while nothing changed (its CPU: the 304 after one
  read); then the bytes per live update: the event on the stream, and the fragment each
  page then fetches (no target set).
- `live`: uvicorn (canasta_club.asgi, one process) holding `--tables` live games watched by
  four players each (800 event streams by default, opened by a client subprocess); the
  server's CPU while nothing moves, then `--moves` moves made through the move service at
  `--rate` per second: the delay from each move's commit to its event on every watching stream
  (p50/p99; no target set).
- `queue`: the moderators' queue page `/moderation/` at 100,000 reports of which 1,000 open
  (populated as bench/moderation.py does; open reports, 50 a page; filtered by reason; overdue
  only; the resolved archive), p50/p99 and SQL queries per page. Target: p99 < 100 ms, as the
  API's queue.
- `card`: a player card `/users/{id}/` of a player with 1,000 finished games, seen by a player
  who shared some of them (so the «Пожаловаться» form is built too) and signed out, p50/p99,
  CPU and SQL queries per page. Target: p99 < 50 ms. Alone (`--parts card`) it runs on 30
  players of its own instead of the 100,000 reports' database.
- `pushes`: web pushes per second sent by one worker (`drain_outbox`'s push sender: batches
  claimed in a transaction, sent outside it 16 at a time, outcomes recorded) to the fake push
  service (tests/fake_push.py) in another process (no target set); then, with 10 devices of one
  user pointing at a listener on 127.0.0.1 that accepts and never answers, how long another
  user's push takes to reach the fake service (target: a few seconds), and the next drain.

    .venv/bin/python bench/web.py [--parts table,live,queue,card,pushes] [--renders 300]
        [--tables 200] [--moves 200] [--rate 10] [--idle 20] [--requests 300] [--pushes 2000]
        [--keep] [--reference COMMIT [--rounds 6]]

With `--reference`, the `table` part is measured A/B instead: this checkout's HEAD and COMMIT
(each exported by `git archive`, run with the same virtualenv), each `--parts table` in a fresh
process with a database of its own, alternating for `--rounds` rounds; it prints each round's
CPU per render of the table fragment, and the median difference and ratio (this machine's speed
drifts within minutes; a difference measured in one run of alternating rounds does not).

The pages are measured in this process (wall time and this process's CPU time per page: CPU
leaves out the waits for PostgreSQL, which on a shared machine say more about the neighbours
than about the page), as a web worker runs them: after a garbage collection and gc.freeze()
(gunicorn.conf.py), on a database vacuumed, analysed and checkpointed after the bench's bulk
loads. A fresh PostgreSQL database of its own (dropped at the end unless
`--keep`), Redis on 127.0.0.1:6379 (database BENCH_REDIS_URL, default 14, flushed at the end;
pub/sub channels with a prefix of the run's own).
"""

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import moderation as moderation_bench
from bench.figures import database_cpu, percentile, process_cpu, spent, timed_gets
from bench.stack import ROOT, bench_database

PORT = 8732
PARTS = ("table", "live", "queue", "card", "pushes")
CARD_GAMES = 1_000


# ----------------------------------------------------------------------------- the watchers


async def _watch(
    port: int, game_id: int, session: str, arrivals: list[Any], ready: asyncio.Queue[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /games/{game_id}/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Cookie: sessionid={session}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream of game {game_id}: {status!r}")
    received = 0
    while line := await reader.readline():
        if line.startswith(b"retry:"):
            ready.put_nowait(1)
        elif line.startswith(b"data:"):
            version = json.loads(line[5:])["version"]
            arrivals.append((game_id, version, time.time()))
        received += len(line)
    writer.close()


async def _watch_all(spec: dict[str, Any], out: Path) -> None:
    arrivals: list[Any] = []
    ready: asyncio.Queue[int] = asyncio.Queue()
    tasks = []
    for game_id, session in spec["streams"]:
        tasks.append(asyncio.create_task(_watch(spec["port"], game_id, session, arrivals, ready)))
        await asyncio.sleep(0.005)  # ~200 new streams a second, as people arriving
    for _ in tasks:
        await ready.get()
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    out.write_text(json.dumps(arrivals))
    for task in tasks:
        task.cancel()


def watch_main(spec_path: str, out_path: str) -> None:
    asyncio.run(_watch_all(json.loads(Path(spec_path).read_text()), Path(out_path)))


# ----------------------------------------------------------------------------- the server side


def play_into_deal(game_id: int, actions: int) -> None:
    from django.db import transaction

    from games import services
    from games.engine import Match
    from games.players import autoplay

    for _ in range(actions):
        with transaction.atomic():
            locked = services.lock_game(game_id=game_id)
            game = locked.game
            assert game.state is not None and game.turn_seat is not None
            turn = autoplay(Match.from_dict(game.state).deal, game.turn_seat)
            services.apply_actions_locked(
                locked=locked, seat=game.turn_seat, actions=turn[:1], automatic=False
            )


def new_game(users: list[Any], mode: str) -> int:
    from games import services

    game = services.open_table(
        user=users[0], mode=mode, length="match", rules={}, private=False, seat=0
    )
    for seat in (1, 2, 3):
        services.join_table(game_id=game.pk, user=users[seat], seat=seat)
    return game.pk


def bench_render(renders: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.models import Game

    users = [User.objects.create(username=f"render_{seat}") for seat in range(4)]
    game_id = new_game(users, "async")
    play_into_deal(game_id, 40)
    game = Game.objects.get(pk=game_id)
    assert game.turn_seat is not None
    client = Client()
    client.force_login(users[game.turn_seat])
    for label, path in (
        ("table page", f"/games/{game_id}/"),
        ("fragment", f"/games/{game_id}/table/"),
    ):
        for _ in range(20):
            client.get(path)
        walls, cpus = [], []
        for _ in range(renders):
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.get(path)
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as queries:
            size = len(client.get(path).content)
        print(
            f"{label:>10} render ({renders}x, version {game.version}): "
            f"p50 {percentile(walls, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(walls, 0.99) * 1000:.1f} ms, "
            f"CPU mean {statistics.fmean(cpus) * 1000:.1f} ms; {len(queries.captured_queries)} "
            f"queries; {size} bytes",
            flush=True,
        )
    etag = client.get(f"/games/{game_id}/table/").headers["ETag"]
    polls = []
    for _ in range(renders):
        cpu = time.process_time()
        unchanged = client.get(f"/games/{game_id}/table/", headers={"if-none-match": etag})
        polls.append(time.process_time() - cpu)
    print(
        f"a poll while nothing changed: HTTP {unchanged.status_code}, "
        f"{len(unchanged.content)} bytes of body, CPU mean {statistics.fmean(polls) * 1000:.1f} ms",
        flush=True,
    )
    from web.table.events import _event

    print(
        f"bytes per live update: {len(_event(game.version))} on the stream "
        f"({_event(game.version)!r}), then each page fetches its fragment "
        f"({size} bytes, uncompressed)",
        flush=True,
    )


FRAGMENT_CPU = re.compile(r"fragment render .*CPU mean ([0-9.]+) ms")


def fragment_cpu(checkout: Path, renders: int) -> float:
    """The table fragment's mean CPU ms per render, by `checkout`'s bench/web.py in a fresh
    process (a database of its own)."""
    out = subprocess.run(
        [sys.executable, "bench/web.py", "--parts", "table", "--renders", str(renders)],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(checkout)},
    ).stdout
    found = FRAGMENT_CPU.search(out)
    if found is None:
        raise RuntimeError(f"no fragment figure in the output of {checkout}:\n{out}")
    return float(found.group(1))


def exported(commit: str, folder: Path) -> Path:
    """The tree of `commit`, exported into `folder`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def bench_render_against(reference: str, rounds: int, renders: int) -> None:
    """The table fragment's CPU per render at HEAD and at `reference`, alternating."""
    with tempfile.TemporaryDirectory(prefix="webbench-ab-") as folder:
        (Path(folder) / "head").mkdir()
        (Path(folder) / "reference").mkdir()
        head = exported("HEAD", Path(folder) / "head")
        tree = exported(reference, Path(folder) / "reference")
        here: list[float] = []
        there: list[float] = []
        for number in range(1, rounds + 1):
            for checkout, figures in ((tree, there), (head, here)):
                figures.append(fragment_cpu(checkout, renders))
            print(
                f"round {number}: fragment CPU per render {here[-1]:.2f} ms at HEAD, "
                f"{there[-1]:.2f} ms at {reference}",
                flush=True,
            )
    differences = sorted(ours - theirs for ours, theirs in zip(here, there, strict=True))
    ratios = sorted(ours / theirs for ours, theirs in zip(here, there, strict=True))
    print(
        f"fragment CPU per render, {rounds} alternating rounds of {renders} renders: HEAD "
        f"median {statistics.median(here):.2f} ms, {reference} median "
        f"{statistics.median(there):.2f} ms; difference median "
        f"{statistics.median(differences):+.2f} ms ({differences[0]:+.2f} .. "
        f"{differences[-1]:+.2f}), ratio median x{statistics.median(ratios):.2f}",
        flush=True,
    )


def sessions_for(users: list[Any], *, engine: str | None = None) -> dict[int, str | None]:
    """A signed-in session of each user, made by `engine` (default: the club's)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(engine or settings.SESSION_ENGINE).SessionStore
    keys = {}
    for user in users:
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys[user.pk] = session.session_key
    return keys


def bench_live(args: argparse.Namespace, env: dict[str, str], database: str) -> None:
    from django.db import transaction

    from accounts.models import User
    from games import live, selectors, services
    from games.engine import Match
    from games.players import autoplay

    tables = []
    users_of: dict[int, list[Any]] = {}
    for number in range(args.tables):
        users = [
            User.objects.create(username=f"live{number}_{seat}", display_name=f"L{number}.{seat}")
            for seat in range(4)
        ]
        game_id = new_game(users, "live")
        tables.append(game_id)
        users_of[game_id] = users
    sessions = sessions_for([user for users in users_of.values() for user in users])
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "uvicorn"),
            "canasta_club.asgi:application",
            "--port",
            str(PORT),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
        env=env,
    )
    watcher = None
    with tempfile.TemporaryDirectory() as scratch:
        try:
            time.sleep(3)
            spec = Path(scratch) / "spec.json"
            out = Path(scratch) / "arrivals.json"
            spec.write_text(
                json.dumps(
                    {
                        "port": PORT,
                        "streams": [
                            [game_id, sessions[user.pk]]
                            for game_id in tables
                            for user in users_of[game_id]
                        ],
                    }
                )
            )
            opened = time.perf_counter()
            watcher = subprocess.Popen(
                [sys.executable, __file__, "--watch", str(spec), "--out", str(out)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert watcher.stdout is not None
            if watcher.stdout.readline().strip() != "ready":
                raise RuntimeError("the watchers did not connect")
            streams = 4 * len(tables)
            print(
                f"{streams} event streams open on {len(tables)} live tables "
                f"({time.perf_counter() - opened:.1f} s to open them all); uvicorn, 1 process",
                flush=True,
            )
            time.sleep(2)
            before, db_before = process_cpu(server.pid), database_cpu(database)
            time.sleep(args.idle)
            idle = process_cpu(server.pid) - before
            db_idle = spent(db_before, database_cpu(database))
            print(
                f"idle {args.idle:.0f} s with {streams} streams open: uvicorn CPU {idle:.2f} s "
                f"({idle / args.idle * 100:.1f} % of a core), PostgreSQL {db_idle:.2f} s",
                flush=True,
            )

            committed: dict[tuple[int, int], float] = {}
            announce = live.announce_after_commit

            def stamped_announce(*, game_id: int, version: int) -> None:
                """The move's announcement, with the time of its commit taken just before it
                (make_move's own transaction: the bench may not wrap it in another)."""

                def stamp() -> None:
                    committed[(game_id, version)] = time.time()

                transaction.on_commit(stamp)
                announce(game_id=game_id, version=version)

            live.announce_after_commit = stamped_announce
            interval = 1 / args.rate
            next_at = time.perf_counter()
            before = process_cpu(server.pid)
            for number in range(args.moves):
                game_id = tables[number % len(tables)]
                table = selectors.game_with_seats(game_id=game_id)
                assert table is not None
                game = table.game
                assert game.state is not None
                seat = game.turn_seat
                assert seat is not None
                action = autoplay(Match.from_dict(game.state).deal, seat)[0]
                version = game.version
                services.make_move(
                    game_id=game_id,
                    user=users_of[game_id][seat],
                    version=version,
                    action=action,
                )
                next_at += interval
                time.sleep(max(0.0, next_at - time.perf_counter()))
            moving = process_cpu(server.pid) - before
            time.sleep(2)
            watcher.send_signal(signal.SIGTERM)
            watcher.wait(timeout=30)
            arrivals = json.loads(out.read_text())
        finally:
            if watcher is not None and watcher.poll() is None:
                watcher.kill()
            server.terminate()
            server.wait(timeout=30)
    delays = [
        arrived - committed[(game_id, version)]
        for game_id, version, arrived in arrivals
        if (game_id, version) in committed
    ]
    expected = 4 * len(committed)
    print(
        f"{len(committed)} moves at {args.rate:g}/s: {len(delays)} of {expected} events arrived; "
        f"commit to arrival p50 {percentile(delays, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(delays, 0.99) * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms; "
        f"uvicorn CPU {moving / len(committed) * 1000:.2f} ms per move",
        flush=True,
    )


# ----------------------------------------------------------------- the pages around the table


def report(name: str, client: Any, path: str, requests: int) -> None:
    wall, cpu, queries, _answer = timed_gets(client, path, requests)
    print(
        f"{name:44s} p50 {statistics.median(wall):6.1f} ms  p99 {percentile(wall, 0.99):6.1f} ms"
        f"  (CPU p50 {statistics.median(cpu):5.1f} ms)  {queries} queries"
    )


def settle_database() -> None:
    """What a running club's database has long done by the time a page is read: the bulk loads
    vacuumed and analysed, their pages written out, so neither autovacuum nor a checkpoint
    triggered by the bench's own writes runs beside the pages it times."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")


def bench_queue(requests: int) -> None:
    from django.test import Client

    from accounts.models import User

    settle_database()
    client = Client()
    client.force_login(User.objects.get(username="moderator0"))
    print(f"moderators' queue page, {requests} requests each:")
    for name, path in (
        ("/moderation/ (open, soonest due first)", "/moderation/"),
        ("/moderation/?reason=cheating", "/moderation/?reason=cheating"),
        ("/moderation/?overdue=true", "/moderation/?overdue=true"),
        ("/moderation/?status=resolved", "/moderation/?status=resolved"),
    ):
        report(name, client, path, requests)


def populate_card() -> tuple[int, int]:
    """A player with 1,000 finished games (and Authority changes); a viewer who shared 50."""
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
    # The counters a game's end keeps (games.services.records): seat 0 is on team 0.
    User.objects.filter(pk=player.pk).update(
        games_played=CARD_GAMES, games_won=sum(game.winner_team == 0 for game in games)
    )
    return player.pk, viewer.pk


def bench_card(requests: int) -> None:
    from django.test import Client

    from accounts.models import User

    player_id, viewer_id = populate_card()
    settle_database()
    client = Client()
    client.force_login(User.objects.get(pk=viewer_id))
    print(f"player card, {CARD_GAMES} finished games, {requests} requests:")
    report("/users/{id}/ (with «Пожаловаться»)", client, f"/users/{player_id}/", requests)
    report("/users/{id}/ (signed out)", Client(), f"/users/{player_id}/", requests)


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
    from django.test import override_settings

    # The fake push service and the hanging listener listen on 127.0.0.1 (tests only).
    with override_settings(PUSH_ALLOW_LOOPBACK=True):
        bench_push_rate(pushes)
        bench_hanging_endpoints()


def bench_hanging_endpoints() -> None:
    import threading

    from notifications import services
    from notifications.services import push
    from tests.factories import UserFactory
    from tests.fake_push import FakeBrowser, FakePushService, HangingListener

    hanging = HangingListener().start()
    service = FakePushService().start()
    try:
        attacker = UserFactory.create(username="bench-push-hanging")
        other = UserFactory.create(username="bench-push-waiting")
        for device in range(push.MAX_PUSH_DEVICES):
            keys = FakeBrowser(endpoint="")
            services.subscribe_push(
                user=attacker,
                endpoint=f"{hanging.url}/push/{device}",
                p256dh=keys.p256dh,
                auth=keys.auth,
            )
        phone = service.browser("phone")
        services.subscribe_push(
            user=other, endpoint=phone.endpoint, p256dh=phone.p256dh, auth=phone.auth
        )
        services.notify(user_id=attacker.pk, kind="sanction")
        services.notify(user_id=other.pk, kind="sanction")
        started = time.perf_counter()
        drain = threading.Thread(target=services.drain_outbox)
        drain.start()
        while not service.to("phone") and time.perf_counter() - started < 60:
            time.sleep(0.005)
        delivered = time.perf_counter() - started
        drain.join()
        drained = time.perf_counter() - started
        services.notify(user_id=other.pk, kind="kudos_received")
        started = time.perf_counter()
        services.drain_outbox()
        again = time.perf_counter() - started
        print(
            f"web push beside {push.MAX_PUSH_DEVICES} hanging endpoints "
            f"({hanging.accepted} connections held): another user's push delivered in "
            f"{delivered * 1000:.0f} ms, the drain done in {drained:.1f} s; the next drain "
            f"(the hanging devices backing off) {again * 1000:.0f} ms, "
            f"{len(service.to('phone'))} of 2 delivered"
        )
    finally:
        hanging.stop()
        service.stop()


def bench_push_rate(pushes: int) -> None:
    from accounts.models import User
    from notifications import services
    from notifications.models import PushDelivery, PushSubscription
    from notifications.services import drain, push
    from tests.fake_push import FakeBrowser

    service = subprocess.Popen(
        [sys.executable, "-c", FAKE_PUSH_SERVICE.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert service.stdout is not None
        base = service.stdout.readline().strip()
        users = list(User.objects.filter(username__startswith="bench")[:100]) or list(
            User.objects.bulk_create(
                User(username=f"bench{n}", display_name=f"Bench {n}", password="!")
                for n in range(100)
            )
        )
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
        while drain._deliver_in_app(batch_size=drain.OUTBOX_BATCH):
            pass
        queued = PushDelivery.objects.filter(status="pending").count()
        started = time.perf_counter()
        cpu_started = time.process_time()
        sent = push.send_pushes(budget_seconds=600)
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
    parser.add_argument("--parts", default=",".join(PARTS), help="which to measure")
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--idle", type=float, default=20.0)
    parser.add_argument("--requests", type=int, default=300, help="per page of queue and card")
    parser.add_argument("--pushes", type=int, default=2000)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument("--reference", help="A/B the table fragment against this commit")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds of the A/B")
    parser.add_argument("--watch", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch:
        watch_main(args.watch, args.out)
        return
    if args.reference:
        bench_render_against(args.reference, args.rounds, args.renders)
        return
    parts = set(args.parts.split(","))
    if unknown := parts - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(unknown))} (parts: {', '.join(PARTS)})")

    database = f"canasta_webbench_{os.getpid()}"
    settings_env = {
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14"),
        "LIVE_CHANNEL_PREFIX": f"webbench{os.getpid()}",
        # The web push key file and the like: not the developer's var/.
        "CANASTA_VAR_DIR": os.environ.get("CANASTA_VAR_DIR", str(ROOT / "var" / "bench")),
    }
    with bench_database(database, env=settings_env, keep=args.keep) as env:
        try:
            print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
            if "table" in parts:
                bench_render(args.renders)
            if "live" in parts:
                bench_live(args, env, database)
            if "queue" in parts:
                moderation_bench.populate()
            if "queue" in parts:
                bench_queue(args.requests)
            if "card" in parts:
                bench_card(args.requests)
            if "pushes" in parts:
                bench_pushes(args.pushes)
        finally:
            redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    if args.keep:
        print(f"kept the database {database}", flush=True)


if __name__ == "__main__":
    main()
