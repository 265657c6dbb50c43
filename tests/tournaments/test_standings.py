"""Standings and tie-breaks on constructed events (issue 38): game points, byes worth a win,
Buchholz (Swiss), Sonneborn–Berger (round robin), the score difference, shared ranks, and
duplicate match points compared board by board across a round's tables."""

from collections.abc import Sequence
from fractions import Fraction

import pytest

from club import clock
from games.models import DealRecord, Game
from tests.factories import GameFactory
from tests.tournaments.conftest import enter, open_tournament
from tournaments import selectors
from tournaments.models import Entry, Placement, Round, RoundTable, Tournament

pytestmark = pytest.mark.django_db

F = Fraction


def play_round(
    tournament: Tournament,
    number: int,
    tables: Sequence[tuple[Entry, Entry, Sequence[Sequence[int]]]],
    *,
    byes: Sequence[Entry] = (),
    ended: bool = True,
) -> None:
    """Round `number` as it was played: each table's two entries (team 0, team 1) and its
    deals' totals (the game's score is their sum)."""
    now = clock.now()
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        deadline=now,
        ended_at=now if ended else None,
    )
    for index, (first, second, deals) in enumerate(tables, start=1):
        scores = [sum(deal[team] for deal in deals) for team in (0, 1)]
        game = GameFactory.create(
            status=Game.Status.FINISHED,
            scores=scores,
            tournament={"id": tournament.pk, "round": number},
        )
        for deal_number, totals in enumerate(deals, start=1):
            DealRecord.objects.create(
                game=game,
                number=deal_number,
                dealer=0,
                seed=deal_number,
                result=[{"total": total} for total in totals],
                scores_after=scores,
            )
        table = RoundTable.objects.create(round=round_, number=index, game=game)
        Placement.objects.create(round=round_, entry=first, table=table, team=0)
        Placement.objects.create(round=round_, entry=second, table=table, team=1)
    for entry in byes:
        Placement.objects.create(round=round_, entry=entry)


def table_of(tournament: Tournament) -> list[tuple[int, Fraction, Fraction, Fraction, int]]:
    """(entry number, points, tie-break, difference, rank), best first."""
    return [
        (entry_number(row.entry), row.points, row.tiebreak, row.difference, row.rank)
        for row in selectors.standings(tournament)
    ]


def entry_number(entry_id: int) -> int:
    return Entry.objects.get(pk=entry_id).number


def constructed(format: str) -> Tournament:
    """Five pairs, two rounds (see each test for the results)."""
    tournament = open_tournament(format=format, rounds=2)
    one, two, three, four, five = enter(tournament, 5)
    play_round(tournament, 1, [(one, two, [[800, 200]]), (three, four, [[500, 500]])], byes=[five])
    play_round(tournament, 2, [(one, three, [[300, 700]]), (two, five, [[100, 100]])], byes=[four])
    return tournament


def test_swiss_points_buchholz_and_difference() -> None:
    # Points: 1 beat 2, lost to 3; 3 and 4 drew; 2 and 5 drew; 5 then 4 had a bye (a win).
    # Buchholz: the opponents' points, byes none: 3: 4 (1½) + 1 (1); 4: 3 (1½); 5: 2 (½).
    assert table_of(constructed("swiss")) == [
        (3, F(3, 2), F(5, 2), F(400), 1),
        (4, F(3, 2), F(3, 2), F(0), 2),
        (5, F(3, 2), F(1, 2), F(0), 3),
        (1, F(1), F(2), F(200), 4),
        (2, F(1, 2), F(5, 2), F(-600), 5),
    ]


def test_round_robin_breaks_ties_by_sonneborn_berger() -> None:
    # Sonneborn–Berger: each game's points times the opponents': 3: ½·1½ + 1·1 = 1¾; 4: ½·1½;
    # 5: ½·½; 1: 1·½ (beat 2); 2: ½·1½ (drew with 5).
    assert [
        (number, tiebreak, rank)
        for number, _p, tiebreak, _d, rank in table_of(constructed("round_robin"))
    ] == [(3, F(7, 4), 1), (4, F(3, 4), 2), (5, F(1, 4), 3), (1, F(1, 2), 4), (2, F(3, 4), 5)]


def test_entries_level_on_every_tie_break_share_their_rank() -> None:
    tournament = open_tournament(rounds=1)
    one, two, three, four = enter(tournament, 4)
    play_round(tournament, 1, [(one, two, [[400, 400]]), (three, four, [[100, 100]])])
    assert [rank for *_row, rank in table_of(tournament)] == [1, 1, 1, 1]


def test_a_game_counts_once_over_and_a_bye_at_once() -> None:
    tournament = open_tournament(rounds=1)
    one, two, three = enter(tournament, 3)
    play_round(tournament, 1, [(one, two, [[400, 100]])], byes=[three], ended=False)
    Game.objects.filter(tournament__round=1).update(status=Game.Status.ACTIVE)
    rows = {
        entry_number(row.entry): (row.points, row.played, row.byes)
        for row in selectors.standings(tournament)
    }
    assert rows == {1: (0, 0, 0), 2: (0, 0, 0), 3: (1, 0, 1)}


def test_duplicate_match_points_compare_each_board_across_the_rounds_tables() -> None:
    # Board 1, team 0's results (its total less the other's): +400, 0, -300: match points
    # 1, ½, 0. Board 2: 0, 0, +600: ¼, ¼, 1 (a tie with one table, below the other). A game
    # scores its boards' mean: team 0 at the tables 5/8, 3/8, ½; team 1 the rest of the point.
    tournament = open_tournament(duplicate=True, deals=2, rounds=1)
    e = enter(tournament, 6)
    play_round(
        tournament,
        1,
        [
            (e[0], e[1], [[500, 100], [200, 200]]),
            (e[2], e[3], [[300, 300], [200, 200]]),
            (e[4], e[5], [[100, 400], [700, 100]]),
        ],
    )
    rows = {
        entry_number(row.entry): (row.points, row.difference)
        for row in selectors.standings(tournament)
    }
    assert rows == {
        1: (F(5, 8), F(400)),
        2: (F(3, 8), F(-400)),
        3: (F(3, 8), F(0)),
        4: (F(5, 8), F(0)),
        5: (F(1, 2), F(300)),
        6: (F(1, 2), F(-300)),
    }


def test_a_duplicate_round_counts_once_every_table_has_finished() -> None:
    tournament = open_tournament(duplicate=True, rounds=1)
    e = enter(tournament, 4)
    play_round(tournament, 1, [(e[0], e[1], [[500, 100]]), (e[2], e[3], [[300, 300]])], ended=False)
    assert {row.points for row in selectors.standings(tournament)} == {0}
    Round.objects.filter(tournament=tournament).update(ended_at=clock.now())
    assert sorted(row.points for row in selectors.standings(tournament)) == [0, 0, 1, 1]


def test_the_history_knows_who_met_and_who_partnered() -> None:
    tournament = open_tournament(partners="rotating", rounds=1)
    a, b, c, d = enter(tournament, 4)
    now = clock.now()
    round_ = Round.objects.create(tournament=tournament, number=1, started_at=now, deadline=now)
    table = RoundTable.objects.create(round=round_, number=1, game=GameFactory.create())
    for entry, team in ((a, 0), (b, 1), (c, 0), (d, 1)):
        Placement.objects.create(round=round_, entry=entry, table=table, team=team)
    history = selectors.history(tournament)
    assert history.partnered(a.pk, c.pk) == 1 and history.partnered(b.pk, d.pk) == 1
    assert history.met(a.pk, b.pk) == 1 and history.met(a.pk, c.pk) == 0
