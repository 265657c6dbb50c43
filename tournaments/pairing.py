"""Who meets whom in a round: Swiss, round robin, fixed entries or rotating partners.

Pure Python (no Django): the services give it the standings and the history, it gives back the
round's tables (two sides each) and its byes. Matchings are networkx's maximum-weight matching
(Edmonds' blossom algorithm), never a search of our own.

**Swiss.** Entries are ordered by points (then by entry number) and matched so that, in this
order of importance: everybody plays but the byes; nobody meets an entry met before while a
pairing without it exists; the bye goes to an entry with the fewest byes (so byes rotate), the
lowest placed; entries of equal, then of nearest, points meet. The blossom algorithm is cubic,
so a field is matched in blocks of BLOCK consecutive entries (an odd block hands its lowest
entry down to the next): a round of 1,000 entries takes a fraction of a second. Should any
block be left with a rematch, or the last without an entry due a bye, the blocks are doubled
and the field matched again, up to one block of every entry, whose matching is the best there
is: so a rematch happens only when no pairing of the whole field avoids it.

**Rotating partners** (single players at a table of partnerships): the round's byes first (the
players with the fewest, the lowest placed), then partnerships matched the same way (nobody
with a partner they had while another way exists, equal points together), then the
partnerships matched into tables (fewest opponents met before, equal points).

**Round robin** of entries: the circle method (Berger tables), every entry meeting every other
once over `len - 1` rounds (`len` when odd, one sitting out each round). With rotating partners
a round robin is the rotating pairing above with no regard to points: over `len - 1` rounds
each player partners as many others as the matchings allow.
"""

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import networkx as nx

# Entries matched at once (see the module's docstring); a smaller last block joins the one above.
BLOCK = 16
# Weights, lexicographic: a repeat avoided outweighs any closeness of points in a block.
_CLOSE_MAX = 10**7
_REPEATS_WEIGHED = 3  # 0, 1, 2 or 3+ repeats told apart

Unit = TypeVar("Unit", bound=Hashable)


@dataclass(frozen=True)
class Standing:
    """What pairing needs of an entry: its points so far, its byes, its number (the order of
    entering, the last tie-break)."""

    entry: int
    points: Fraction
    byes: int = 0
    number: int = 0


@dataclass(frozen=True)
class Table:
    """Two sides of a table: each side's entries (one entry, or the partners of a rotating
    round), the better placed side first."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]


def pairs(first: int, second: int) -> frozenset[int]:
    """Two entries as a history key (met, or partners), either way round."""
    return frozenset((first, second))


@dataclass(frozen=True)
class History:
    """Who met whom across a table (`opponents`) and who sat on one side (`partners`), with how
    many times."""

    opponents: dict[frozenset[int], int]
    partners: dict[frozenset[int], int]

    @classmethod
    def empty(cls) -> "History":
        return cls(opponents={}, partners={})

    def met(self, first: int, second: int) -> int:
        return self.opponents.get(pairs(first, second), 0)

    def partnered(self, first: int, second: int) -> int:
        return self.partners.get(pairs(first, second), 0)


def _ordered(standings: Sequence[Standing]) -> list[Standing]:
    """Best placed first: points, then entry number."""
    return sorted(standings, key=lambda standing: (-standing.points, standing.number))


def _closeness(first: Fraction, second: Fraction, rank_gap: int) -> int:
    """Higher for nearer points (then nearer places); at most _CLOSE_MAX."""
    distance = int(abs(first - second) * 100) * 1000 + min(rank_gap, 999)
    return _CLOSE_MAX - min(distance, _CLOSE_MAX)


class _Sink:
    """The node a unit is matched to when it sits out: the round's bye, or a block's floater
    handed down to the next block."""


def match_in_order(
    ordered: Sequence[Unit],
    *,
    points: Callable[[Unit], Fraction],
    repeats: Callable[[Unit, Unit], int],
    may_sit_out: Callable[[Unit], bool],
    block: int = BLOCK,
) -> tuple[list[tuple[Unit, Unit]], Unit | None]:
    """Pairs of `ordered` (best placed first) and the one sitting out when their number is odd
    (one for whom `may_sit_out`), with as few `repeats` as any pairing of them has.

    Blocks of `block` units are matched one after another; see the module's docstring."""
    size = max(block, 2)
    while True:
        result = _match_blocks(ordered, points, repeats, may_sit_out, size)
        if result is not None:
            return result
        size *= 2


def _match_blocks(
    ordered: Sequence[Unit],
    points: Callable[[Unit], Fraction],
    repeats: Callable[[Unit, Unit], int],
    may_sit_out: Callable[[Unit], bool],
    size: int,
) -> tuple[list[tuple[Unit, Unit]], Unit | None] | None:
    """One pass of blocks of `size`; None when a block (not the whole field) kept a repeat or
    the last block had nobody who may sit out."""
    whole = size >= len(ordered)
    starts = list(range(0, len(ordered), size))
    if len(starts) > 1 and len(ordered) - starts[-1] < size // 2:
        starts.pop()  # a small last block joins the one above
    bounds = [*starts[1:], len(ordered)]
    rank = {unit: index for index, unit in enumerate(ordered)}
    matched: list[tuple[Unit, Unit]] = []
    handed_down: list[Unit] = []
    for number, (start, end) in enumerate(zip(starts, bounds, strict=True)):
        last = number == len(starts) - 1
        units = handed_down + list(ordered[start:end])
        block_pairs, out = _match_block(units, rank, points, repeats, may_sit_out, last=last)
        if last and out is not None and not may_sit_out(out) and not whole:
            return None
        if not whole and any(repeats(first, second) for first, second in block_pairs):
            return None
        matched += block_pairs
        handed_down = [out] if out is not None and not last else []
        if last:
            return matched, out
    return matched, None


def _match_block(
    units: list[Unit],
    rank: dict[Unit, int],
    points: Callable[[Unit], Fraction],
    repeats: Callable[[Unit, Unit], int],
    may_sit_out: Callable[[Unit], bool],
    *,
    last: bool,
) -> tuple[list[tuple[Unit, Unit]], Unit | None]:
    graph = nx.Graph()
    graph.add_nodes_from(units)
    new = _CLOSE_MAX * (len(units) + 1)  # more than all the closeness a block can sum
    for index, first in enumerate(units):
        for second in units[index + 1 :]:
            fresh = _REPEATS_WEIGHED - min(repeats(first, second), _REPEATS_WEIGHED)
            closeness = _closeness(points(first), points(second), abs(rank[first] - rank[second]))
            graph.add_edge(first, second, weight=new * fresh + closeness)
    sink = _Sink()
    if len(units) % 2:
        lowest = max(rank[unit] for unit in units) + 1
        for unit in units:
            if last and not may_sit_out(unit):
                continue
            # The lowest placed sits out (or is handed down) rather than anybody above.
            preference = _CLOSE_MAX * (rank[unit] + 1) // lowest
            graph.add_edge(unit, sink, weight=new * _REPEATS_WEIGHED + preference)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    found: list[tuple[Unit, Unit]] = []
    out: Unit | None = None
    for first, second in matching:
        if first is sink or second is sink:
            out = second if first is sink else first
            continue
        found.append((first, second) if rank[first] < rank[second] else (second, first))
    if len(units) % 2 and out is None:
        # Nobody in a last block may sit out: the unmatched one, for the caller to refuse.
        paired = {unit for pair in found for unit in pair}
        out = next(unit for unit in units if unit not in paired)
    found.sort(key=lambda pair: rank[pair[0]])
    return found, out


def swiss_round(standings: Sequence[Standing], history: History) -> Round:
    """A Swiss round of entries meeting entries (fixed pairs, or players at a table of two)."""
    ordered = _ordered(standings)
    by_entry = {standing.entry: standing for standing in ordered}
    fewest_byes = min((standing.byes for standing in ordered), default=0)
    found, bye = match_in_order(
        [standing.entry for standing in ordered],
        points=lambda entry: by_entry[entry].points,
        repeats=history.met,
        may_sit_out=lambda entry: by_entry[entry].byes == fewest_byes,
    )
    return Round(
        tables=tuple(Table(sides=((first,), (second,))) for first, second in found),
        byes=() if bye is None else (bye,),
    )


def rotating_round(
    standings: Sequence[Standing], history: History, *, side_size: int, by_points: bool = True
) -> Round:
    """A round of single players at tables of two sides of `side_size` partners (2: the
    four-handed game): byes, then partnerships, then tables. `by_points` False (a round robin):
    places do not matter, only who partnered and met whom."""
    if side_size != 2:
        raise ValueError("rotating partners are paired two a side")
    ordered = _ordered(standings) if by_points else sorted(standings, key=lambda s: s.number)
    table_size = 2 * side_size
    sitting_out = len(ordered) % table_size
    # The fewest byes first, then the lowest placed: byes rotate.
    rank = {standing.entry: index for index, standing in enumerate(ordered)}
    byes = sorted(ordered, key=lambda standing: (standing.byes, -rank[standing.entry]))[
        :sitting_out
    ]
    bye_entries = {standing.entry for standing in byes}
    playing = [standing for standing in ordered if standing.entry not in bye_entries]
    by_entry = {standing.entry: standing for standing in playing}

    def points_of(entry: int) -> Fraction:
        return by_entry[entry].points if by_points else Fraction(0)

    partnerships, _none = match_in_order(
        [standing.entry for standing in playing],
        points=points_of,
        repeats=history.partnered,
        may_sit_out=lambda entry: False,
    )

    def side_points(side: tuple[int, int]) -> Fraction:
        return points_of(side[0]) + points_of(side[1])

    def opponents_met(first: tuple[int, int], second: tuple[int, int]) -> int:
        return sum(history.met(one, other) for one in first for other in second)

    sides = sorted(partnerships, key=lambda side: (-side_points(side), rank[side[0]]))
    tables, _none_either = match_in_order(
        sides, points=side_points, repeats=opponents_met, may_sit_out=lambda side: False
    )
    return Round(
        tables=tuple(Table(sides=(first, second)) for first, second in tables),
        byes=tuple(standing.entry for standing in byes),
    )


def round_robin_schedule(entries: Sequence[int]) -> list[Round]:
    """Every round of a round robin of `entries` (the circle method): each meets each other
    once; with an odd number, one sits out each round, each once."""
    circle: list[int | None] = list(entries)
    if len(circle) % 2:
        circle.append(None)
    count = len(circle)
    schedule: list[Round] = []
    for number in range(count - 1):
        tables: list[Table] = []
        byes: list[int] = []
        for index in range(count // 2):
            home, away = circle[index], circle[count - 1 - index]
            if home is None or away is None:
                byes += [entry for entry in (home, away) if entry is not None]
                continue
            # The top row takes the first side, the fixed entry every other round: each entry
            # takes it half the rounds, give or take one.
            first = index > 0 or number % 2 == 0
            sides = ((home,), (away,)) if first else ((away,), (home,))
            tables.append(Table(sides=sides))
        schedule.append(Round(tables=tuple(tables), byes=tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return schedule
