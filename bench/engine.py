"""Engine benchmark: full deals by random agents through Deal.apply (prints figures).

The four-handed club game first, then deals/s at every table (two, three, four, six in three
and in two teams; issue 13; Samba and Bolivia, issue 24) with both agents, then random legal
play per game (classic, Samba, Bolivia) alternating in one process.

    .venv/bin/python bench/engine.py [deals] [--reference COMMIT] [--rounds N] [--games]

`--games`: random legal play per game (classic, Samba, Bolivia) alternating in one process and,
with `--reference`, each game here against the engine at that commit, alternating.

Targets: >= 200 deals/s on one core, median apply < 50 µs, to_dict() JSON < 4 KB mid-deal;
the move generator's measure (every decision a uniform choice among `legal_actions`, each
applied with full validation, the unit jhtschultz/canasta-openspiel reports 133 deals/s for):
>= 400 deals/s on one core. Samba's random legal deals: at least half as many a second as the
classic game's (issue 24).

This machine's speed drifts by up to two times within minutes, so the move generator's measure
is also taken of the engine at `--reference` (default 645d3ef^, the engine issue 12 measured at
about 145 deals/s), the two alternating in fresh processes on the same deals: their ratio holds
while the machine's speed does not.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from games.engine import Deal, IllegalMove, Rules, legal_actions
from games.engine.cards import WILDS
from games.players import autoplay

ROOT = Path(__file__).resolve().parent.parent


class Timed:
    """Calls Deal.apply and records how long each accepted or refused call took."""

    def __init__(self) -> None:
        self.samples: dict[str, list[int]] = {}

    def apply(self, deal: Deal, seat: int, action: dict) -> bool:
        start = time.perf_counter_ns()
        try:
            deal.apply(seat, action)
            ok = True
        except IllegalMove:
            ok = False
        elapsed = time.perf_counter_ns() - start
        key = action["type"] if ok else "refused"
        self.samples.setdefault(key, []).append(elapsed)
        return ok


def random_turn(deal: Deal, seat: int, rnd: random.Random, timed: Timed) -> None:
    """A cheap random agent: it guesses plausible actions and lets the engine refuse them."""
    hand = deal.hands[seat]
    team = deal.rules.seating.team_of(seat)
    pile = deal.pile
    melds = deal.melds[team]
    if pile and rnd.random() < 0.8:
        rank = pile[-1][0]
        pair = [c for c in hand if c[0] == rank and c not in WILDS][:2]
        if len(pair) == 2 or (rank in melds and deal.opened[team]):
            timed.apply(deal, seat, {"type": "take_pile", "cards": pair})
    if deal.phase == "draw":
        timed.apply(deal, seat, {"type": "draw"})
    if deal.phase != "play":
        return
    groups: dict[str, list[str]] = {}
    for card in hand:
        if card not in WILDS and card[0] != "3":
            groups.setdefault(card[0], []).append(card)
    entries = [
        {"cards": cards} for rank, cards in groups.items() if len(cards) >= 3 or rank in melds
    ]
    if entries and rnd.random() < 0.8:
        timed.apply(deal, seat, {"type": "meld", "melds": entries})
        if deal.phase != "play":
            return
    if not deal.opened[team] and deal.base:
        timed.apply(deal, seat, {"type": "undo"})
    for _ in range(len(hand)):
        if timed.apply(deal, seat, {"type": "discard", "card": rnd.choice(hand)}):
            return
    for card in list(hand):
        if timed.apply(deal, seat, {"type": "discard", "card": card}):
            return
    raise RuntimeError("random agent could not discard")


# One process's measure of random legal play, run alike on this checkout and the reference:
# it prints the CPU seconds of `deals` deals of a game (seeds, dealer and choices as below).
UNIFORM_LEGAL_PLAY = """
import random, sys, time
from games.engine import Deal, Rules, legal_actions
deals, game = int(sys.argv[1]), sys.argv[2]
rules, rnd = Rules(game=game), random.Random(2027)
start = time.process_time()
for number in range(deals):
    deal = Deal.new(rules, dealer=number % 4, seed=50_000 + number)
    while deal.phase != "over":
        deal.apply(deal.turn, rnd.choice(legal_actions(deal, deal.turn)))
print(time.process_time() - start)
"""


def uniform_legal_cpu(checkout: Path, deals: int, game: str = "classic") -> float:
    """CPU seconds of random legal play of `game` by the engine of `checkout`, in a fresh
    process."""
    out = subprocess.run(
        [sys.executable, "-c", UNIFORM_LEGAL_PLAY, str(deals), game],
        cwd=checkout,
        env={"PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout)


def against_reference(
    deals: int, reference: str, rounds: int, games: tuple[str, ...] = ("classic",)
) -> None:
    """Random legal play of each of `games` here and by the engine at the `reference` commit,
    alternating."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", reference, "games/__init__.py", "games/engine"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        ours: dict[str, list[float]] = {game: [] for game in games}
        theirs: dict[str, list[float]] = {game: [] for game in games}
        for _ in range(rounds):
            for game in games:
                ours[game].append(deals / uniform_legal_cpu(ROOT, deals, game))
                theirs[game].append(deals / uniform_legal_cpu(Path(folder), deals, game))
    for game in games:
        ratios = sorted(a / b for a, b in zip(ours[game], theirs[game], strict=True))
        median = statistics.median(ratios)
        print(
            f"random legal play of {game} against the engine of {reference}, {rounds} "
            f"alternating runs of {deals} deals (deals/s of CPU time on one core): here median "
            f"{statistics.median(ours[game]):.0f} (best {max(ours[game]):.0f}), the reference "
            f"median {statistics.median(theirs[game]):.0f}; here x{median:.2f} the reference "
            f"(x{ratios[0]:.2f} .. x{ratios[-1]:.2f})"
        )
        if game == "classic":
            print(f"  at the reference's 145 deals/s of issue 12: {145 * median:.0f} deals/s")


def random_legal_deals(deals: int) -> None:
    """Whole deals where each decision is a uniform choice among legal_actions, then apply.

    Deals per second from CPU time with nothing else timed; then the same deals again with each
    call timed in thread CPU time (the machine is shared, so wall time would count waiting).
    """
    rules = Rules()

    def play(timed: bool) -> tuple[list[int], list[int]]:
        rnd = random.Random(2027)
        legal_ns: list[int] = []
        apply_ns: list[int] = []
        clock = time.thread_time_ns
        for number in range(deals):
            deal = Deal.new(rules, dealer=number % 4, seed=50_000 + number)
            while deal.phase != "over":
                seat = deal.turn
                if not timed:
                    deal.apply(seat, rnd.choice(legal_actions(deal, seat)))
                    continue
                t0 = clock()
                actions = legal_actions(deal, seat)
                t1 = clock()
                deal.apply(seat, rnd.choice(actions))
                t2 = clock()
                legal_ns.append(t1 - t0)
                apply_ns.append(t2 - t1)
        return legal_ns, apply_ns

    cpu_start = time.process_time()
    play(timed=False)
    cpu = time.process_time() - cpu_start
    legal_ns, apply_ns = play(timed=True)
    decisions = len(legal_ns)
    print(
        f"random legal play (each decision uniform among legal_actions, applied with full "
        f"validation): {deals} deals, {deals / cpu:.0f} deals/s of CPU time on one core, "
        f"{decisions / deals:.0f} decisions a deal"
    )
    for name, samples in (("legal_actions", legal_ns), ("apply", apply_ns)):
        mean = sum(samples) / decisions / 1000
        median = statistics.median(samples) / 1000
        p99 = percentile(samples, 0.99) / 1000
        print(
            f"  {name:13} mean {mean:5.1f} µs  median {median:5.1f} µs  p99 {p99:6.1f} µs"
            " (thread CPU time, timer included)"
        )


TABLES = [
    ("2 players", Rules(players=2)),
    ("3 players", Rules(players=3)),
    ("4 players", Rules()),
    ("6 players, 3 teams", Rules(players=6)),
    ("6 players, 2 teams", Rules(players=6, teams=2)),
    ("Samba", Rules(game="samba")),
    ("Bolivia", Rules(game="bolivia")),
]
GAMES = [("classic", Rules()), ("samba", Rules(game="samba")), ("bolivia", Rules(game="bolivia"))]


def per_game(deals: int, rounds: int) -> None:
    """Random legal deals/s of each game (issue 24: Samba at least half the classic game's),
    the games alternating in one process so that the machine's drift touches them alike."""
    rates: dict[str, list[float]] = {name: [] for name, _ in GAMES}
    for round_number in range(rounds):
        for name, rules in GAMES:
            rnd = random.Random(2029 + round_number)
            cpu_start = time.process_time()
            for number in range(deals):
                deal = Deal.new(
                    rules, dealer=number % 4, seed=70_000 + round_number * deals + number
                )
                while deal.phase != "over":
                    deal.apply(deal.turn, rnd.choice(legal_actions(deal, deal.turn)))
            rates[name].append(deals / (time.process_time() - cpu_start))
    classic = statistics.median(rates["classic"])
    print(f"random legal play per game, {rounds} alternating rounds of {deals} deals:")
    for name, values in rates.items():
        median = statistics.median(values)
        print(
            f"  {name:8} median {median:4.0f} deals/s of CPU time "
            f"({median / classic:.2f} x classic)"
        )


def every_table(deals: int) -> None:
    """Deals/s of CPU time at each table: random agents, and uniform among legal_actions."""
    print(f"every table, {deals} deals each (deals/s of CPU time on one core):")
    for name, rules in TABLES:
        scores = tuple(0 for _ in rules.seating.teams)
        rnd = random.Random(2028)
        timed = Timed()
        cpu_start = time.process_time()
        for number in range(deals):
            deal = Deal.new(rules, dealer=number % rules.players, team_scores=scores, seed=number)
            while deal.phase != "over":
                random_turn(deal, deal.turn, rnd, timed)
        random_rate = deals / (time.process_time() - cpu_start)
        cpu_start = time.process_time()
        decisions = 0
        for number in range(deals):
            deal = Deal.new(
                rules, dealer=number % rules.players, team_scores=scores, seed=50_000 + number
            )
            while deal.phase != "over":
                seat = deal.turn
                deal.apply(seat, rnd.choice(legal_actions(deal, seat)))
                decisions += 1
        legal_rate = deals / (time.process_time() - cpu_start)
        print(
            f"  {name:19} random agents {random_rate:5.0f} deals/s; uniform among legal_actions "
            f"{legal_rate:4.0f} deals/s ({decisions / deals:.0f} decisions a deal)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("deals", nargs="?", type=int, default=1000)
    parser.add_argument(
        "--reference", help="a commit of this repository (default 645d3ef^; with --games, none)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs of each engine")
    parser.add_argument("--games", action="store_true", help="only the per-game comparison")
    args = parser.parse_args()
    deals = args.deals
    if args.games:
        per_game(deals, args.rounds)
        if args.reference:
            against_reference(deals, args.reference, args.rounds, tuple(dict(GAMES)))
        return
    random_legal_deals(deals)
    against_reference(deals, args.reference or "645d3ef^", args.rounds)
    rnd = random.Random(2026)
    timed = Timed()
    sizes: list[int] = []
    endings = {"went out": 0, "stock": 0}
    rules = Rules()
    probing = 0.0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for number in range(deals):
        deal = Deal.new(rules, dealer=number % 4, seed=number)
        turns = 0
        while deal.phase != "over":
            random_turn(deal, deal.turn, rnd, timed)
            turns += 1
            if turns == 30 and deal.phase != "over":  # mid-deal size, not counted in the rate
                probe_start = time.process_time()
                sizes.append(len(json.dumps(deal.to_dict(), separators=(",", ":"))))
                probing += time.process_time() - probe_start
        endings["went out" if any(r["going_out"] for r in deal.result or []) else "stock"] += 1
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start - probing
    print(
        f"{deals} deals: {deals / cpu:.0f} deals/s of CPU time on one core "
        f"({cpu:.2f} s CPU, {wall:.2f} s wall on a shared machine), random agents"
    )
    print(f"endings: {endings}")
    everything = [v for values in timed.samples.values() for v in values]
    print(
        f"apply: {len(everything)} calls, median {statistics.median(everything) / 1000:.1f} µs, "
        f"p99 {percentile(everything, 0.99) / 1000:.1f} µs"
    )
    for key, values in sorted(timed.samples.items()):
        print(
            f"  {key:10} {len(values):7} calls  median {statistics.median(values) / 1000:6.1f} µs"
            f"  p99 {percentile(values, 0.99) / 1000:7.1f} µs"
        )

    if sizes:
        print(f"to_dict JSON mid-deal: median {statistics.median(sizes):.0f} B, max {max(sizes)} B")

    # The move generator and autoplay (used on timeouts), on fresh mid-deal states.
    probe_deals = min(deals, 100)
    legal_times: list[int] = []
    auto_times: list[int] = []
    for number in range(probe_deals):
        deal = Deal.new(rules, dealer=0, seed=10_000 + number)
        while deal.phase != "over":
            seat = deal.turn
            t0 = time.perf_counter_ns()
            legal_actions(deal, seat)
            t1 = time.perf_counter_ns()
            actions = autoplay(deal, seat)
            t2 = time.perf_counter_ns()
            legal_times.append(t1 - t0)
            auto_times.append(t2 - t1)
            for action in actions:
                deal.apply(seat, action)
    print(
        f"legal_actions: median {statistics.median(legal_times) / 1000:.0f} µs, "
        f"p99 {percentile(legal_times, 0.99) / 1000:.0f} µs; "
        f"autoplay (whole turn): median {statistics.median(auto_times) / 1000:.0f} µs, "
        f"p99 {percentile(auto_times, 0.99) / 1000:.0f} µs"
    )
    every_table(max(deals // 4, 1))
    per_game(max(deals // 4, 1), 3)


if __name__ == "__main__":
    main()
