"""Bot tournaments through the engine, in the duplicate format (prints figures; not a test).

    .venv/bin/python bench/bots.py [--deals 400] [--expert-deals 100] [--jobs 1] [--first 0]
        [--pairs club:yardstick,expert:yardstick,beginner:yardstick,club:beginner,expert:club,
        expert:beginner]

Each pairing A:B plays every shuffle twice, A's team at seats 0+2 and then at 1+3, so the
cards' luck cancels; the figure is A's points per deal minus B's, with a 95 % interval (normal
approximation over the shuffles), and A's share of the deals won (a tie counts half).
`yardstick` is the bench's own opponent written from classic strategy (bench/yardstick.py, not a
level: it decides from the seat's view, the log and `legal_actions`); `baseline` is the
timeout autoplay as it was before the bots (bench/autoplay_baseline.py); `oldclub` the club
as it was when the tester measured it (bench/old_club.py). Decision time is per
bot action (`next_action`, the fallback after a refusal included), in thread CPU time, on one
core (with --jobs, shuffles are split between processes, each timing its own decisions).
Targets (issue 20): club beats the yardstick by >= 50 a deal, expert by >= 150 and expert beats
club by >= 150; club decides within 20 ms p99, expert within 1 s; every level plays legally.
"""

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.autoplay_baseline import autoplay as baseline_autoplay
from bench.figures import percentile
from bench.old_club import old_club_action
from bench.yardstick import yardstick_action
from games.engine import Deal, Rules, legal_actions
from games.players import LEVELS, log_entry, next_action, sight

PLAYERS = (*LEVELS, "yardstick", "oldclub", "baseline")
DEFAULT_PAIRS = (
    "club:yardstick,expert:yardstick,beginner:yardstick,club:beginner,expert:club,expert:beginner"
)


def play_deal(players: tuple[str, str], seed: int, times: dict[str, list[int]]) -> list[int]:
    """One deal, team 0 played by players[0] and team 1 by players[1]; each team's total."""
    rules = Rules()
    deal = Deal.new(rules, dealer=seed % 4, seed=seed)
    logs: list[list[dict]] = [[], [], [], []]
    decision = 0
    while deal.phase != "over":
        seat = deal.to_act
        player = players[deal.seating.team_of(seat)]
        if player == "baseline":
            actions = baseline_autoplay(deal, seat)
        else:
            start = time.thread_time_ns()
            if player == "yardstick":
                offered = legal_actions(deal, seat)
                action = yardstick_action(deal.view(seat), logs[seat], offered, rules)
            elif player == "oldclub":
                seen = sight(deal.view(seat), logs[seat], rules=rules)
                # It reads only its hand and what the table shows off the deal.
                action = old_club_action(deal, seat, seen.discarded)
            else:
                action = next_action(deal, seat, level=player, log=logs[seat], seed=decision)
            times[player].append(time.thread_time_ns() - start)
            decision += 1
            actions = [action]
        for action in actions:
            event = deal.apply(seat, action)  # an illegal move stops the bench
            for viewer in deal.seating.seats:
                logs[viewer].append(log_entry(seat, action, event, viewer=viewer))
    assert deal.result is not None
    return [line["total"] for line in deal.result]


def _won(ours: int, theirs: int) -> float:
    return 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0


def duplicate(
    a: str, b: str, numbers: range, times: dict[str, list[int]]
) -> list[tuple[float, float]]:
    """For each shuffle: A's margin a deal over both seatings, and A's share of the two won."""
    rows = []
    for number in numbers:
        seed = 1_000_000 + number
        first = play_deal((a, b), seed, times)
        second = play_deal((b, a), seed, times)
        margin = ((first[0] - first[1]) + (second[1] - second[0])) / 2
        rows.append((margin, (_won(first[0], first[1]) + _won(second[1], second[0])) / 2))
    return rows


def _duplicate_part(
    args: tuple[str, str, range],
) -> tuple[list[tuple[float, float]], dict[str, list[int]]]:
    a, b, numbers = args
    times: dict[str, list[int]] = {player: [] for player in PLAYERS}
    return duplicate(a, b, numbers, times), times


def duplicate_in_parallel(
    a: str, b: str, shuffles: range, jobs: int, times: dict[str, list[int]]
) -> list[tuple[float, float]]:
    """The `shuffles` split between `jobs` processes, in shuffle order."""
    deals = len(shuffles)
    parts = [(a, b, shuffles[job::jobs]) for job in range(jobs)]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(_duplicate_part, parts)
    rows: list[tuple[float, float]] = [(0.0, 0.0)] * deals
    for (_, _, numbers), (part, part_times) in zip(parts, results, strict=True):
        for number, row in zip(numbers, part, strict=True):
            rows[number - shuffles.start] = row
        for player, samples in part_times.items():
            times[player].extend(samples)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400, help="shuffles per pairing")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--expert-deals", type=int, default=100, help="shuffles with the expert")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the shuffles")
    parser.add_argument("--first", type=int, default=0, help="the first shuffle's number")
    args = parser.parse_args()
    times: dict[str, list[int]] = {player: [] for player in PLAYERS}
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        if a not in PLAYERS or b not in PLAYERS:
            raise SystemExit(f"players are {', '.join(PLAYERS)}")
        deals = args.expert_deals if "expert" in (a, b) else args.deals
        started = time.perf_counter()
        shuffles = range(args.first, args.first + deals)
        if args.jobs > 1:
            rows = duplicate_in_parallel(a, b, shuffles, args.jobs, times)
        else:
            rows = duplicate(a, b, shuffles, times)
        margins = [margin for margin, _ in rows]
        mean = statistics.mean(margins)
        half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else 0
        share = statistics.mean(won for _, won in rows)
        print(
            f"{a} vs {b}: {mean:+.0f} ± {half:.0f} points a deal for {a} (95 %), "
            f"wins {100 * share:.1f} % of deals; {deals} shuffles x 2 seatings, "
            f"{time.perf_counter() - started:.0f} s wall",
            flush=True,
        )
    for player, samples in times.items():
        if samples:
            p50, p99 = percentile(samples, 0.5) / 1e6, percentile(samples, 0.99) / 1e6
            print(
                f"  {player:9} decisions {len(samples):7}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"
                f"  max {max(samples) / 1e6:7.1f} ms"
            )


if __name__ == "__main__":
    main()
