"""Tournament benchmark (prints figures; not a test). Issue 38's targets:

1. `pairing`: a Swiss round of 1,000 entries paired (tournaments.pairing, no database), round
   after round of a simulated event (random results, so the history grows), fixed entries and
   1,000 single players with rotating partners. Target: < 1 s a round.
2. `opening`: a fresh PostgreSQL database (`canasta_tourney_bench`), 1,000 players in a Swiss
   tournament with rotating partners: round 1 and, once every game of it is over, round 2 paired
   and its 250 tables opened and seated in one transaction each (round 1 by the creator's start,
   round 2 by the sweep), with the transaction's parts timed: standings and history read,
   pairing, games opened. Target: < 5 s a round.
3. `simulation`: a 64-entry (fixed pairs: 128 players, 32 tables a round), 5-round
   correspondence tournament played to its end in-process: players move through the move
   service with the club bot's decisions, a tenth of them never move (their turns time out a day
   later, after three in a row a bot takes their seat), the club's clock advanced to the next
   deadline whenever nobody present can move, the deadline and tournament sweeps run as beat
   runs them. Checks every round paired once, every entry placed once a round, and no two
   entries meeting twice (there are always enough others). Target: a few minutes.

    .venv/bin/python bench/tournaments.py [--parts pairing,opening,simulation] [--rounds 9]
        [--entries 1000] [--sim-entries 64] [--sim-rounds 5] [--absent 0.1] [--keep]

The database is dropped at the end (unless --keep).
"""

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.stack import bench_database

DATABASE = "canasta_tourney_bench"


def pairing_figures(*, entries: int, rounds: int, seed: int = 38) -> None:
    from tournaments.pairing import History, Standing, pairs, rotating_round, swiss_round

    chance = random.Random(seed)
    for kind in ("fixed entries", "rotating partners"):
        points = dict.fromkeys(range(entries), Fraction(0))
        byes: Counter[int] = Counter()
        history = History.empty()
        times: list[float] = []
        cpu: list[float] = []
        rematches = 0
        for _round in range(rounds):
            standings = [
                Standing(entry=e, points=points[e], byes=byes[e], number=e) for e in range(entries)
            ]
            started, cpu_started = time.perf_counter(), time.process_time()
            if kind == "fixed entries":
                paired = swiss_round(standings, history)
            else:
                paired = rotating_round(standings, history, side_size=2)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            for table in paired.tables:
                for one in table.sides[0]:
                    for other in table.sides[1]:
                        key = pairs(one, other)
                        rematches += key in history.opponents and kind == "fixed entries"
                        history.opponents[key] = history.opponents.get(key, 0) + 1
                for side in table.sides:
                    if len(side) == 2:
                        key = pairs(*side)
                        rematches += key in history.partners
                        history.partners[key] = history.partners.get(key, 0) + 1
                winner = chance.choice([*table.sides, None])
                for side in table.sides:
                    share = Fraction(1, 2) if winner is None else Fraction(int(side == winner))
                    for entry in side:
                        points[entry] += share
            for entry in paired.byes:
                byes[entry] += 1
                points[entry] += 1
        print(
            f"pairing, {entries} entries, {kind}: {rounds} rounds, a round in "
            f"p50 {statistics.median(times):.3f} s, max {max(times):.3f} s "
            f"(CPU p50 {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s); "
            f"{'rematches' if kind == 'fixed entries' else 'repeated partners'}: {rematches}"
        )


def _people(count: int, prefix: str) -> list:
    from accounts.models import User

    return User.objects.bulk_create(
        User(
            username=f"{prefix}{n}", display_name=f"{prefix} {n}", password="!", auto_vacation=False
        )
        for n in range(count)
    )


def _finish_round_at_once(tournament, number: int, chance: random.Random) -> None:
    """Every game of the round over with random totals (as if played), in one statement a game."""
    from club import clock
    from games.models import Game
    from tournaments.models import RoundTable

    now = clock.now()
    games = list(
        Game.objects.filter(
            pk__in=RoundTable.objects.filter(
                round__tournament=tournament, round__number=number
            ).values("game_id")
        )
    )
    for game in games:
        game.scores = [chance.randrange(-500, 3000, 5) for _team in game.scores]
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.turn_seat = game.turn_deadline = None
    Game.objects.bulk_update(
        games, ["scores", "status", "finished_at", "turn_seat", "turn_deadline"]
    )


def opening_figures(*, players: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import selectors, services
    from tournaments.models import RoundTable, Tournament
    from tournaments.services import rounds as round_services

    creator, *entrants = _people(players + 1, "opener")
    tournament = services.create_tournament(
        user=creator,
        spec=services.TournamentSpec(
            name="Bench",
            mode="async",
            format="swiss",
            rounds=2,
            partners="rotating",
            max_entries=players,
        ),
    )
    for person in entrants:
        services.join_tournament(tournament_id=tournament.pk, user=person, partner_id=None)

    # The parts of a round's transaction, timed where the service calls them.
    parts: dict[str, float] = {}
    originals = {
        "reads": (selectors, "pairing_view"),
        "plan": (round_services, "_plan"),
        "open": (round_services.game_services, "open_arranged_games"),
    }
    saved = {name: getattr(module, attribute) for name, (module, attribute) in originals.items()}

    def timed(name, function):
        def run(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                parts[name] = parts.get(name, 0.0) + time.perf_counter() - started

        return run

    for name, (module, attribute) in originals.items():
        setattr(module, attribute, timed(name, saved[name]))
    chance = random.Random(7)
    try:
        for number in (1, 2):
            parts.clear()
            with CaptureQueriesContext(connection) as queries:
                started, cpu = time.perf_counter(), time.process_time()
                if number == 1:
                    services.start_tournament(tournament_id=tournament.pk, user=creator)
                else:
                    assert services.sweep_tournaments() == 1
                took, cpu = time.perf_counter() - started, time.process_time() - cpu
            tables = RoundTable.objects.filter(round__tournament=tournament, round__number=number)
            reads = parts.get("reads", 0.0)
            print(
                f"opening round {number} of {players} players (rotating partners): "
                f"{tables.count()} tables in {took:.2f} s ({cpu:.2f} s of this process's CPU), "
                f"{len(queries)} queries; "
                f"standings and history read {reads:.2f} s, pairing {parts['plan'] - reads:.2f} s, "
                f"games opened and seated {parts['open']:.2f} s"
            )
            _finish_round_at_once(Tournament.objects.get(pk=tournament.pk), number, chance)
    finally:
        for name, (module, attribute) in originals.items():
            setattr(module, attribute, saved[name])
    # Its last round over, the tournament ends: nothing of it is left for the simulation.
    services.sweep_tournaments()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def simulation_figures(*, entries: int, rounds: int, absent_share: float, seed: int = 64) -> None:
    from club import clock
    from games import services as game_services
    from games.engine import Match
    from games.models import Game, Move, Seat
    from games.services import bots, timeouts
    from tournaments import services
    from tournaments.models import Placement, Round, RoundTable, Tournament

    chance = random.Random(seed)
    creator, *people = _people(2 * entries + 1, "sim")
    absent = {person.pk for person in chance.sample(people, int(len(people) * absent_share))}
    tournament = services.create_tournament(
        user=creator,
        spec=services.TournamentSpec(
            name="Simulated",
            mode="async",
            format="swiss",
            rounds=rounds,
            partners="fixed",
            max_entries=entries,
        ),
    )
    for first, second in zip(people[::2], people[1::2], strict=True):
        services.join_tournament(tournament_id=tournament.pk, user=first, partner_id=second.pk)
    started, club_started = time.perf_counter(), clock.now()
    services.start_tournament(tournament_id=tournament.pk, user=creator)
    moves = advances = sweeps = 0
    pairing_seconds: list[float] = []
    while Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING:
        moved = False
        for game in Game.objects.filter(status=Game.Status.ACTIVE, tournament__id=tournament.pk):
            while game.status == Game.Status.ACTIVE and game.turn_seat is not None:
                seat = (
                    Seat.objects.select_related("user")
                    .filter(game=game, seat=game.turn_seat)
                    .first()
                )
                if seat is None or seat.user.is_bot or seat.user_id in absent:
                    break
                assert game.state is not None
                actions = bots.bot_turn(
                    game=game, match=Match.from_dict(game.state), seat=seat.seat, level="club"
                )
                for action in actions:
                    made = game_services.make_move(
                        game_id=game.pk, user=seat.user, version=game.version, action=action
                    )
                    assert isinstance(made, game_services.MoveResult)
                    game = made.game
                    moves += 1
                moved = True
        if not moved:
            # Nobody present can move: the clock runs on to the next deadline.
            deadline = (
                Game.objects.filter(
                    status=Game.Status.ACTIVE,
                    turn_deadline__isnull=False,
                    tournament__id=tournament.pk,
                )
                .order_by("turn_deadline")
                .values_list("turn_deadline", flat=True)
                .first()
            )
            if deadline is not None and deadline > clock.now():
                clock.advance(deadline - clock.now())
                advances += 1
        timeouts.sweep_until_done()
        before = time.perf_counter()
        if services.sweep_tournaments():
            pairing_seconds.append(time.perf_counter() - before)
        sweeps += 1
    took = time.perf_counter() - started

    paired = list(Round.objects.filter(tournament=tournament).values_list("number", flat=True))
    placements = Counter(
        Placement.objects.filter(round__tournament=tournament).values_list(
            "round__number", "entry_id"
        )
    )
    met: Counter[frozenset[int]] = Counter()
    for table in RoundTable.objects.filter(round__tournament=tournament).prefetch_related(
        "placements"
    ):
        sides = {p.team: p.entry_id for p in table.placements.all()}
        met[frozenset(sides.values())] += 1
    games = Game.objects.filter(tournament__id=tournament.pk)
    automatic = Move.objects.filter(game__in=games, automatic=True).count()
    print(
        f"simulation: {entries} entries (fixed pairs), {rounds} rounds by correspondence, "
        f"{len(absent)} of {len(people)} players never moving: finished in {took:.0f} s "
        f"({games.count()} games, {moves} moves by players, {automatic} automatic, clock "
        f"advanced {advances} times, {sweeps} sweeps; the club's clock moved "
        f"{(clock.now() - club_started).days} days)"
    )
    placed_once = set(placements.values()) == {1} and len(placements) == entries * rounds
    bot_seats = Seat.objects.filter(game__in=games, user__bot_level__gt="").count()
    print(
        f"  rounds paired: {paired} (each once: {paired == list(range(1, rounds + 1))}); "
        f"every entry placed once a round: {placed_once}; "
        f"pairs meeting twice: {sum(1 for count in met.values() if count > 1)}; "
        f"seats taken over by bots: {bot_seats}; "
        f"next round paired in p50 {statistics.median(pairing_seconds):.2f} s"
    )


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="pairing,opening,simulation")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--sim-entries", type=int, default=64)
    parser.add_argument("--sim-rounds", type=int, default=5)
    parser.add_argument("--absent", type=float, default=0.1)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    print(f"load average at the start: {load_average()} (2 cores, shared)")
    if "pairing" in parts:
        pairing_figures(entries=args.entries, rounds=args.rounds)
    if parts & {"opening", "simulation"}:
        env = {"CELERY_BROKER_URL": "memory://", "REDIS_URL": ""}
        with bench_database(DATABASE, env=env, keep=args.keep):
            if "opening" in parts:
                opening_figures(players=args.entries)
            if "simulation" in parts:
                simulation_figures(
                    entries=args.sim_entries, rounds=args.sim_rounds, absent_share=args.absent
                )
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
