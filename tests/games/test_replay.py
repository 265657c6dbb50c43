"""The replay of a finished game: the engine rebuilds every step from the export."""

import pytest

from games import selectors
from games.models import Game
from games.store import Table
from tests.factories import started_game
from tests.timing.conftest import play_turn

pytestmark = pytest.mark.django_db


def table_of(game: Game) -> Table:
    table = selectors.game_with_seats(game_id=game.pk)
    assert table is not None
    return table


def finished_single_deal() -> Game:
    game = started_game()
    while game.status == Game.Status.ACTIVE:
        play_turn(game.pk)
        game.refresh_from_db()
    return game


def test_a_replay_steps_through_the_whole_deal_and_ends_on_the_games_score():
    game = finished_single_deal()
    start = selectors.replay_at(table=table_of(game), step=0)
    assert start["move"] is None
    assert [len(hand) for hand in start["hands"]] == [11, 11, 11, 11]
    total = start["total"]
    assert total == game.version

    previous_stock = start["table"]["stock_count"]
    for step in range(1, total + 1):
        frame = selectors.replay_at(table=table_of(game), step=step)
        assert frame["move"]["seq"] == step
        assert frame["table"]["stock_count"] <= previous_stock
        previous_stock = frame["table"]["stock_count"]

    end = selectors.replay_at(table=table_of(game), step=total)
    assert end["scores"] == list(game.scores) == end["final_scores"]
    assert end["table"]["phase"] == "over"
    assert end["table"]["result"] is not None


def test_steps_out_of_range_are_clamped():
    game = finished_single_deal()
    assert selectors.replay_at(table=table_of(game), step=-5)["step"] == 0
    assert selectors.replay_at(table=table_of(game), step=10**6)["step"] == game.version
