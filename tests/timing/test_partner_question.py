"""R-HOUSE-ASK in the club: while «можно выходить?» waits, the game waits for the partner: their
clock, their notification, their presence; a timed-out answer is given by the club bot."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from club import clock
from games import selectors, services, store
from games.engine import Match
from games.models import Game, Move
from games.services import timeouts
from notifications.models import OutboxMessage
from tests.factories import UserFactory, started_game
from tests.games.playing import asking, fix_shuffles, play_until

pytestmark = pytest.mark.django_db

HOUSE = {"ask_partner_to_go_out": True, "target": 2500}
ASYNC_LIMIT = settings.TURN_LIMIT["async"]


def question_of(game: Game) -> dict[str, Any]:
    assert game.state is not None
    question = Match.from_dict(game.state).deal.question
    assert question is not None
    return dict(question)


def detail_for(game: Game, user: User) -> dict[str, Any]:
    table = store.load(game_id=game.pk)
    assert table is not None
    return dict(selectors.game_detail(table=table, viewer=user))


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list, dict]:
    """An async match where the seat on turn has just asked its partner."""
    fix_shuffles(monkeypatch)
    players = UserFactory.create_batch(4)
    game = started_game(players=players, rules=HOUSE, length=Game.Length.MATCH)
    detail = play_until(game, players, asking)
    asker = detail["your_seat"]
    services.make_move(
        game_id=game.pk,
        user=players[asker],
        version=detail["version"],
        action={"type": "ask_to_go_out"},
    )
    game.refresh_from_db()
    return game, players, detail


def test_the_question_hands_the_clock_and_a_notification_to_the_partner(asked):
    game, players, _ = asked
    question = question_of(game)
    asker, partner = question["asker"], question["partner"]
    assert game.turn_seat == partner != asker
    assert game.turn_deadline == game.turn_started_at + ASYNC_LIMIT
    told = OutboxMessage.objects.get(game=game, kind="partner_asks")
    assert told.user_id == players[partner].pk
    # The asker can do nothing while the question waits; the partner only answers.
    refused = detail_for(game, players[asker])
    assert refused["legal_actions"] == [] and not refused["your_turn"]
    answers = detail_for(game, players[partner])["legal_actions"]
    assert {action["type"] for action in answers} == {"answer_go_out"}
    # The answer gives the clock back to the asker.
    services.make_move(
        game_id=game.pk,
        user=players[partner],
        version=game.version,
        action={"type": "answer_go_out", "yes": False},
    )
    game.refresh_from_db()
    assert game.turn_seat == asker
    assert OutboxMessage.objects.filter(
        game=game, kind="your_turn", user_id=players[asker].pk
    ).exists()


def test_a_timed_out_answer_is_the_club_bots(asked):
    game, players, _ = asked
    partner = question_of(game)["partner"]
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1
    answer = Move.objects.filter(game=game).latest("seq")
    assert answer.seat == partner and answer.automatic
    assert answer.action["type"] == "answer_go_out"
    game.refresh_from_db()
    assert game.turn_seat == Match.from_dict(game.state or {}).deal.turn  # back to the asker
    assert OutboxMessage.objects.filter(
        game=game, kind="autoplayed", user_id=players[partner].pk
    ).exists()
