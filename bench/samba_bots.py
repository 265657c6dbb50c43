"""Bots at Samba and Bolivia through the engine (issue 24; prints figures, not a test).

    .venv/bin/python bench/samba_bots.py [--deals 1000] [--games samba,bolivia]
        [--level club] [--against classic-club] [--jobs 1]

Every seat plays `--level` through `next_action`, as the service plays a bot (its view and log
only); an action the table refuses counts as illegal (the bench then plays the table's first
offer), a turn of more than 60 actions or a deal of more than 2,000 as stuck. Printed per game:
illegal, stuck, mean points a side a deal, canastas a side (sambas/escaleras among them), and
the share of deals ended by going out or by the stock.

With `--against classic-club`, also the duplicate match of the level against the classic club
policy at the same table (`club.club_action` on the same imagined deal; each shuffle twice,
seats swapped): the level's points a deal minus the classic's, with a 95 % interval.
"""

import argparse
import multiprocessing
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Deal, Rules, legal_actions
from games.players import log_entry, next_action, sight
from games.players.club import club_action, notes_of

MAX_TURN = 60
MAX_DEAL = 2000


def classic_club(deal: Deal, seat: int, log: list, seed: int) -> dict:
    """The classic club policy, deciding from the seat's view and log as `decide` does."""
    seen = sight(deal.view(seat), log, rules=deal.rules)
    world = seen.world(random.Random(seed))
    action = club_action(world, seat, notes_of(seen), legal_actions(world, seat))
    if deal.is_legal(seat, action):
        return action
    return club_action(world, seat, notes_of(seen), legal_actions(deal, seat))


def play_deal(rules: Rules, seed: int, players: tuple[str, str], level: str) -> dict:
    """One deal; `players[team]` is "level" or "classic". Returns its figures."""
    deal = Deal.new(rules, dealer=seed % 4, seed=seed)
    logs: list[list[dict]] = [[] for _ in range(4)]
    illegal = stuck = steps = 0
    turn_steps = 0
    last_turn = deal.turn
    while deal.phase != "over":
        seat = deal.to_act
        if players[deal.seating.team_of(seat)] == "classic":
            action = classic_club(deal, seat, logs[seat], seed * 1000 + steps)
        else:
            action = next_action(deal, seat, level=level, log=logs[seat], seed=seed * 1000 + steps)
        if not deal.is_legal(seat, action):
            illegal += 1
            action = legal_actions(deal, seat)[0]
        event = deal.apply(seat, action)
        for viewer in range(4):
            logs[viewer].append(log_entry(seat, action, event, viewer=viewer))
        steps += 1
        turn_steps = turn_steps + 1 if deal.turn == last_turn else 0
        last_turn = deal.turn
        if turn_steps > MAX_TURN or steps > MAX_DEAL:
            stuck += 1
            break
    result = deal.result or []
    went_out = any(line["going_out"] for line in result)
    canastas = [0, 0]
    sequences = [0, 0]
    if deal.phase == "over":
        for team, melds in enumerate(deal.view(None)["teams"]):
            for meld in melds["melds"]:
                if meld["canasta"]:
                    canastas[team] += 1
                    sequences[team] += meld["kind"] == "sequence"
    return {
        "totals": [line["total"] for line in result],
        "illegal": illegal,
        "stuck": stuck,
        "went_out": went_out,
        "canastas": canastas,
        "sequences": sequences,
    }


def run(job: tuple[str, int, int, tuple[str, str], str]) -> list[dict]:
    game, first, count, players, level = job
    rules = Rules(game=game)
    return [play_deal(rules, seed, players, level) for seed in range(first, first + count)]


def in_jobs(game: str, deals: int, players: tuple[str, str], level: str, jobs: int) -> list[dict]:
    size = -(-deals // jobs)
    work = [(game, 90_000 + i, min(size, deals - i), players, level) for i in range(0, deals, size)]
    if jobs == 1:
        return [row for part in map(run, work) for row in part]
    with multiprocessing.Pool(jobs) as pool:
        return [row for part in pool.map(run, work) for row in part]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--games", default="samba,bolivia")
    parser.add_argument("--level", default="club")
    parser.add_argument("--against", choices=["classic-club"], default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    for game in args.games.split(","):
        rows = in_jobs(game, args.deals, ("level", "level"), args.level, args.jobs)
        totals = [total for row in rows for total in row["totals"]]
        canastas = statistics.mean(c for r in rows for c in r["canastas"])
        sequences = statistics.mean(c for r in rows for c in r["sequences"])
        out = sum(r["went_out"] for r in rows) / len(rows)
        print(
            f"{game} {args.level}: {len(rows)} deals, illegal {sum(r['illegal'] for r in rows)}, "
            f"stuck {sum(r['stuck'] for r in rows)}; mean {statistics.mean(totals):.0f} points "
            f"a side a deal; canastas a side {canastas:.2f} (sequences {sequences:.2f}); ended "
            f"by going out {out:.0%}, by the stock {1 - out:.0%}"
        )
        if args.against:
            ours = in_jobs(game, args.deals, ("level", "classic"), args.level, args.jobs)
            swapped = in_jobs(game, args.deals, ("classic", "level"), args.level, args.jobs)
            diffs = [
                (a["totals"][0] - a["totals"][1] + b["totals"][1] - b["totals"][0]) / 2
                for a, b in zip(ours, swapped, strict=True)
            ]
            mean = statistics.mean(diffs)
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            bad = sum(r["illegal"] + r["stuck"] for r in ours + swapped)
            print(
                f"  {args.level} against the classic club policy: {mean:+.0f} ± {half:.0f} a "
                f"deal over {len(diffs)} shuffles (illegal or stuck: {bad})"
            )


if __name__ == "__main__":
    main()
