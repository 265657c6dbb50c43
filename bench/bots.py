"""Bot tournaments through the engine, in the duplicate format (prints figures; not a test).

    .venv/bin/python bench/bots.py [--deals 2000] [--pairs club:baseline,expert:club] [--jobs 2]

Each pairing A:B plays every shuffle twice, A's team at seats 0+2 and then at 1+3, so the
cards' luck cancels; the figure is A's points per deal minus B's, with a 95 % interval (normal
approximation over the shuffles). `baseline` is the timeout autoplay as it was before the bots
(bench/autoplay_baseline.py). Decision time is per call of `decide` (one action), in thread CPU
time, on one core (with --jobs, shuffles are split between processes, each timing its own
decisions). Targets (issue 12): club beats baseline by >= 150 a deal over 2,000 deals with
the interval above zero; expert beats club by >= 100; expert decides within 1 s p99, club 20 ms.
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
from games.engine import Deal, Rules
from games.engine.bots import LEVELS, beginner_action, decide, log_entry
from games.engine.errors import IllegalMove

PLAYERS = (*LEVELS, "baseline")


def play_deal(players: tuple[str, str], seed: int, times: dict[str, list[int]]) -> list[int]:
    """One deal, team 0 played by players[0] and team 1 by players[1]; each team's total."""
    rules = Rules()
    deal = Deal.new(rules, dealer=seed % 4, seed=seed)
    logs: list[list[dict]] = [[], [], [], []]
    decision = 0
    while deal.phase != "over":
        seat = deal.turn
        player = players[deal.seating.team_of(seat)]
        actions = baseline_autoplay(deal, seat) if player == "baseline" else []
        for action in actions:
            event = deal.apply(seat, action)
            for viewer in deal.seating.seats:
                logs[viewer].append(log_entry(seat, action, event, viewer=viewer))
        while not actions and deal.phase != "over" and deal.turn == seat:
            start = time.thread_time_ns()
            action = decide(deal.view(seat), logs[seat], rules=rules, level=player, seed=decision)
            times[player].append(time.thread_time_ns() - start)
            decision += 1
            try:
                event = deal.apply(seat, action)
            except IllegalMove:  # as play_turn does: a pile card the seat could not see
                action = beginner_action(deal, seat)
                event = deal.apply(seat, action)
            for viewer in deal.seating.seats:
                logs[viewer].append(log_entry(seat, action, event, viewer=viewer))
    assert deal.result is not None
    return [line["total"] for line in deal.result]


def duplicate(a: str, b: str, numbers: range, times: dict[str, list[int]]) -> list[float]:
    margins = []
    for number in numbers:
        seed = 1_000_000 + number
        first = play_deal((a, b), seed, times)
        second = play_deal((b, a), seed, times)
        margins.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
    return margins


def _duplicate_part(
    args: tuple[str, str, range],
) -> tuple[list[float], dict[str, list[int]]]:
    a, b, numbers = args
    times: dict[str, list[int]] = {player: [] for player in PLAYERS}
    return duplicate(a, b, numbers, times), times


def duplicate_in_parallel(
    a: str, b: str, deals: int, jobs: int, times: dict[str, list[int]]
) -> list[float]:
    """The shuffles 0..deals-1 split between `jobs` processes; margins in shuffle order."""
    parts = [(a, b, range(job, deals, jobs)) for job in range(jobs)]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(_duplicate_part, parts)
    margins = [0.0] * deals
    for (_, _, numbers), (part, part_times) in zip(parts, results, strict=True):
        for number, margin in zip(numbers, part, strict=True):
            margins[number] = margin
        for player, samples in part_times.items():
            times[player].extend(samples)
    return margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="shuffles per pairing")
    parser.add_argument("--pairs", default="club:baseline,expert:club")
    parser.add_argument("--expert-deals", type=int, default=None, help="shuffles with the expert")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the shuffles")
    args = parser.parse_args()
    times: dict[str, list[int]] = {player: [] for player in PLAYERS}
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        if a not in PLAYERS or b not in PLAYERS:
            raise SystemExit(f"players are {', '.join(PLAYERS)}")
        deals = args.deals
        if "expert" in (a, b) and args.expert_deals is not None:
            deals = args.expert_deals
        started = time.perf_counter()
        if args.jobs > 1:
            margins = duplicate_in_parallel(a, b, deals, args.jobs, times)
        else:
            margins = duplicate(a, b, range(deals), times)
        mean = statistics.mean(margins)
        half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else 0
        print(
            f"{a} vs {b}: {mean:+.0f} points a deal for {a} "
            f"(95 % interval {mean - half:+.0f} .. {mean + half:+.0f}), "
            f"{deals} shuffles x 2 seatings, {time.perf_counter() - started:.0f} s wall"
        )
    for player, samples in times.items():
        if samples:
            p50, p99 = percentile(samples, 0.5) / 1e6, percentile(samples, 0.99) / 1e6
            print(
                f"  {player:8} decisions {len(samples):7}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"
                f"  max {max(samples) / 1e6:7.1f} ms"
            )


if __name__ == "__main__":
    main()
