"""The service functions other apps build on (interfaces.md): apply_actions_locked & co."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.db import transaction

from club.errors import ClubError
from games import selectors, services
from games.engine import IllegalMove, Match
from games.models import DealRecord, Game, Move, Seat
from games.players import autoplay
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def autoplay_turn(game_id: int, turn_started_at: datetime | None = None) -> list[Move]:
    with transaction.atomic():
        locked = services.lock_game(game_id=game_id)
        game = locked.game
        assert game.state is not None and game.turn_seat is not None
        actions = autoplay(Match.from_dict(game.state).deal, game.turn_seat)
        return services.apply_actions_locked(
            locked=locked,
            seat=game.turn_seat,
            actions=actions,
            automatic=True,
            turn_started_at=turn_started_at,
        )


def test_an_automatic_turn_is_logged_and_passes_the_turn(game):
    seat = game.turn_seat
    started = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    moves = autoplay_turn(game.pk, turn_started_at=started)
    assert len(moves) >= 2  # at least a draw and a discard
    assert [move.seq for move in moves] == list(range(1, len(moves) + 1))
    assert all(move.automatic and move.seat == seat for move in moves)
    game.refresh_from_db()
    assert game.version == len(moves)
    assert game.turn_seat == (seat + 1) % 4
    assert game.turn_started_at == started
    assert game.turn_deadline == started + timedelta(hours=24)


def test_an_illegal_action_writes_nothing(game):
    with transaction.atomic():
        locked = services.lock_game(game_id=game.pk)
        assert locked.game.turn_seat is not None
        with pytest.raises(IllegalMove) as raised:
            services.apply_actions_locked(
                locked=locked,
                seat=locked.game.turn_seat,
                actions=[{"type": "draw"}, {"type": "draw"}],
                automatic=True,
            )
    assert raised.value.code == "wrong_phase"
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == 0


def test_abandoning_loses_for_the_team_and_counts_in_stats(game, players):
    with mock.patch("games.services.turns.notify") as notify, transaction.atomic():
        services.finish_game_abandoned(locked=services.lock_game(game_id=game.pk), seat=1)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert (game.abandoned_by_seat, game.winner_team) == (1, 0)
    assert game.turn_seat is None and game.turn_deadline is None
    finished = [c.kwargs for c in notify.call_args_list if c.kwargs["kind"] == "game_finished"]
    assert sorted(c["user_id"] for c in finished) == sorted(p.pk for p in players)
    for player in players:
        player.refresh_from_db()
    assert selectors.player_stats(user=players[0]) == {"played": 1, "won": 1, "abandoned": 0}
    assert selectors.player_stats(user=players[1]) == {"played": 1, "won": 0, "abandoned": 1}
    assert selectors.player_stats(user=players[3]) == {"played": 1, "won": 0, "abandoned": 0}
    assert selectors.player_stats(user=UserFactory.create()) == {
        "played": 0,
        "won": 0,
        "abandoned": 0,
    }
    with transaction.atomic(), pytest.raises(ClubError) as raised:
        locked = services.lock_game(game_id=game.pk)
        services.apply_actions_locked(
            locked=locked, seat=0, actions=[{"type": "draw"}], automatic=True
        )
    assert raised.value.code == "game_not_active"


def test_a_deal_played_to_the_end_is_recorded(game, players):
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        autoplay_turn(game.pk)
    assert game.status == Game.Status.FINISHED
    [record] = DealRecord.objects.filter(game=game)
    assert record.number == 1
    assert record.dealer == game.first_dealer
    assert record.scores_after == game.scores
    assert game.finished_at is not None
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.public["deal_over"] is True
    assert last.public["result"] == record.result
    # Stats of a finished game: the winners won, nobody abandoned.
    if game.winner_team is not None:
        winner = players[game.winner_team]
        winner.refresh_from_db()
        assert selectors.player_stats(user=winner) == {"played": 1, "won": 1, "abandoned": 0}


def test_selectors_seat_of_and_games_of(game, players):
    table = selectors.game_with_seats(game_id=game.pk)
    assert table is not None
    assert selectors.seat_of(table=table, user=players[2]) == 2
    assert selectors.seat_of(table=table, user=UserFactory.create()) is None
    assert list(selectors.games_of(user=players[3])) == [game]
    moves = autoplay_turn(game.pk)
    log = selectors.move_log_for(game=game, viewer_seat=None, after=0)
    assert [entry["seq"] for entry in log] == [move.seq for move in moves]
    assert all(entry["private"] is None for entry in log)


def test_a_second_game_for_the_same_players(players):
    first = started_game(players=players)
    second = started_game(players=list(reversed(players)))
    assert first.pk != second.pk
    table = selectors.game_with_seats(game_id=second.pk)
    assert table is not None
    assert selectors.seat_of(table=table, user=players[0]) == 3


def test_an_abandoned_game_can_be_exported(client_for, game, players):
    autoplay_turn(game.pk)
    with transaction.atomic():
        services.finish_game_abandoned(locked=services.lock_game(game_id=game.pk), seat=2)
    export = client_for(UserFactory.create()).get(f"/api/games/{game.pk}/export/")
    assert export.status_code == 200
    body = export.json()
    assert body["status"] == "abandoned"
    assert body["abandoned_by_seat"] == 2
    assert body["winner_team"] == 1
    assert body["seed"] == str(game.seed)
    assert [move["seq"] for move in body["moves"]] == list(range(1, len(body["moves"]) + 1))
    assert all(move["private"] is not None for move in body["moves"])


def test_a_refused_move_still_marks_its_player_seen(game, players):
    seat = game.turn_seat
    Seat.objects.filter(game=game, seat=seat).update(last_seen_at=None, is_absent=True)
    with pytest.raises(ClubError) as raised:
        services.make_move(
            game_id=game.pk, user=players[seat], version=game.version + 5, action={"type": "draw"}
        )
    assert (raised.value.code, raised.value.extra) == ("stale_version", {"version": game.version})
    seen = Seat.objects.get(game=game, seat=seat)
    assert seen.last_seen_at is not None and not seen.is_absent
