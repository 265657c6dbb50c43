"""Properties of the pairing (issue 38): no rematch while a pairing without one exists, byes
rotate, rotating partners never repeat while avoidable, entries of equal points meet, a round
robin meets everyone once. Pure Python: no database."""

import itertools
from collections import Counter
from fractions import Fraction

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    History,
    Round,
    Standing,
    match_in_order,
    pairs,
    rotating_round,
    round_robin_schedule,
    swiss_round,
)

POINTS = st.sampled_from([Fraction(n, 2) for n in range(0, 9)])


@st.composite
def fields(draw: st.DrawFn, *, least: int = 2, most: int = 15) -> tuple[list[Standing], History]:
    """Entries with points and byes, and a history of who met (and partnered) whom."""
    count = draw(st.integers(least, most))
    standings = [
        Standing(entry=entry, points=draw(POINTS), byes=draw(st.integers(0, 2)), number=entry)
        for entry in range(count)
    ]
    every_pair = [pairs(a, b) for a, b in itertools.combinations(range(count), 2)]
    met = draw(st.lists(st.sampled_from(every_pair), unique=True)) if every_pair else []
    partnered = draw(st.lists(st.sampled_from(every_pair), unique=True)) if every_pair else []
    return standings, History(opponents=dict.fromkeys(met, 1), partners=dict.fromkeys(partnered, 1))


def _perfect_without(units: list[int], taken: set[frozenset[int]]) -> bool:
    """Whether `units` pair up completely with no pair in `taken` (the oracle: a maximum
    matching of the graph of the pairs still allowed)."""
    graph = nx.Graph()
    graph.add_nodes_from(units)
    graph.add_edges_from(
        (a, b) for a, b in itertools.combinations(units, 2) if pairs(a, b) not in taken
    )
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(units)


def _avoidable(standings: list[Standing], taken: set[frozenset[int]]) -> bool:
    """A Swiss round without a rematch exists, the bye (if any) going to one of the fewest."""
    entries = [standing.entry for standing in standings]
    if len(entries) % 2 == 0:
        return _perfect_without(entries, taken)
    fewest = min(standing.byes for standing in standings)
    return any(
        _perfect_without([e for e in entries if e != standing.entry], taken)
        for standing in standings
        if standing.byes == fewest
    )


def _opponents(round_: Round) -> list[frozenset[int]]:
    return [
        pairs(one, other)
        for table in round_.tables
        for one in table.sides[0]
        for other in table.sides[1]
    ]


def _everyone_once(round_: Round, entries: list[int]) -> None:
    seated = [entry for table in round_.tables for side in table.sides for entry in side]
    assert sorted([*seated, *round_.byes]) == sorted(entries)


@given(fields())
def test_swiss_has_no_rematch_while_a_pairing_without_one_exists(
    field: tuple[list[Standing], History],
) -> None:
    standings, history = field
    round_ = swiss_round(standings, history)
    _everyone_once(round_, [standing.entry for standing in standings])
    assert len(round_.byes) == len(standings) % 2
    rematches = [pair for pair in _opponents(round_) if pair in history.opponents]
    if rematches:
        assert not _avoidable(standings, set(history.opponents))


@given(fields())
def test_the_swiss_bye_goes_to_an_entry_with_the_fewest_byes(
    field: tuple[list[Standing], History],
) -> None:
    standings, history = field
    round_ = swiss_round(standings, history)
    fewest = min(standing.byes for standing in standings)
    byes = {standing.entry: standing.byes for standing in standings}
    assert all(byes[entry] == fewest for entry in round_.byes)


@given(st.integers(3, 11).filter(lambda n: n % 2), st.randoms(use_true_random=False))
def test_byes_rotate_through_a_swiss_tournament(count: int, chance) -> None:
    """Round after round with random results: nobody has a second bye before everyone has had
    one, and there is never a rematch while a pairing without one exists."""
    points = dict.fromkeys(range(count), Fraction(0))
    byes = Counter[int]()
    met: dict[frozenset[int], int] = {}
    for _round in range(count):
        standings = [
            Standing(entry=entry, points=points[entry], byes=byes[entry], number=entry)
            for entry in range(count)
        ]
        round_ = swiss_round(standings, History(opponents=dict(met), partners={}))
        if any(pair in met for pair in _opponents(round_)):
            assert not _avoidable(standings, set(met))
        for table in round_.tables:
            (first,), (second,) = table.sides
            met[pairs(first, second)] = met.get(pairs(first, second), 0) + 1
            points[chance.choice([first, second])] += 1
        for entry in round_.byes:
            byes[entry] += 1
            points[entry] += 1
        assert max(byes[e] for e in range(count)) - min(byes[e] for e in range(count)) <= 1


@given(st.integers(1, 6), st.integers(1, 6))
def test_swiss_pairs_entries_of_equal_points(pairs_on_one: int, pairs_on_zero: int) -> None:
    """With no history, groups of equal points and of even size meet within themselves."""
    standings = [
        Standing(entry=entry, points=Fraction(1 if entry < 2 * pairs_on_one else 0), number=entry)
        for entry in range(2 * (pairs_on_one + pairs_on_zero))
    ]
    points = {standing.entry: standing.points for standing in standings}
    for table in swiss_round(standings, History.empty()).tables:
        (first,), (second,) = table.sides
        assert points[first] == points[second]


@given(fields(least=4, most=14))
def test_rotating_partners_never_repeat_while_avoidable(
    field: tuple[list[Standing], History],
) -> None:
    standings, history = field
    round_ = rotating_round(standings, history, side_size=2)
    entries = [standing.entry for standing in standings]
    _everyone_once(round_, entries)
    assert len(round_.byes) == len(entries) % 4
    assert all(len(side) == 2 for table in round_.tables for side in table.sides)
    partnerships = [pairs(*side) for table in round_.tables for side in table.sides]
    if any(pair in history.partners for pair in partnerships):
        playing = [entry for entry in entries if entry not in round_.byes]
        assert not _perfect_without(playing, set(history.partners))
    # Byes go to the fewest first.
    byes = {standing.entry: standing.byes for standing in standings}
    if round_.byes:
        sitting = max(byes[entry] for entry in round_.byes)
        assert all(byes[entry] >= sitting for entry in entries if entry not in round_.byes)


@settings(max_examples=20)
@given(st.integers(2, 13))
def test_a_round_robin_meets_everyone_once_and_byes_each_once(count: int) -> None:
    entries = list(range(100, 100 + count))
    schedule = round_robin_schedule(entries)
    assert len(schedule) == (count if count % 2 else count - 1)
    met = Counter(pair for round_ in schedule for pair in _opponents(round_))
    assert set(met) == {pairs(a, b) for a, b in itertools.combinations(entries, 2)}
    assert set(met.values()) == {1}
    for round_ in schedule:
        _everyone_once(round_, entries)
    byes = Counter(entry for round_ in schedule for entry in round_.byes)
    assert byes == (Counter(entries) if count % 2 else Counter())
    first_sides = Counter(table.sides[0][0] for round_ in schedule for table in round_.tables)
    taken = [first_sides[entry] for entry in entries]
    assert max(taken) - min(taken) <= 1


def test_a_big_field_is_matched_in_blocks_yet_avoids_rematches_it_can() -> None:
    """Forty entries all on equal points, each having met its neighbours in the order: the
    blocks would pair neighbours; the pairing avoids every rematch."""
    count = 40
    standings = [Standing(entry=entry, points=Fraction(0), number=entry) for entry in range(count)]
    met = {pairs(entry, entry + 1): 1 for entry in range(count - 1)}
    round_ = swiss_round(standings, History(opponents=met, partners={}))
    assert not [pair for pair in _opponents(round_) if pair in met]


def test_a_rematch_when_nothing_else_is_left() -> None:
    """Three entries that all met: the two who play meet again; the bye rotates."""
    standings = [
        Standing(entry=0, points=Fraction(2), byes=1, number=1),
        Standing(entry=1, points=Fraction(1), byes=0, number=2),
        Standing(entry=2, points=Fraction(1), byes=1, number=3),
    ]
    met = {pairs(a, b): 1 for a, b in itertools.combinations(range(3), 2)}
    round_ = swiss_round(standings, History(opponents=met, partners={}))
    assert round_.byes == (1,)
    assert _opponents(round_) == [pairs(0, 2)]


def test_match_in_order_hands_the_lowest_down_an_odd_block() -> None:
    ordered = list(range(5))
    found, out = match_in_order(
        ordered,
        points=lambda unit: Fraction(0),
        repeats=lambda a, b: 0,
        may_sit_out=lambda unit: True,
    )
    assert out == 4 and found == [(0, 1), (2, 3)]
