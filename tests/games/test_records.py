"""The players' games counters (accounts.User.games_played, games_won, games_abandoned) kept
by the services as games end, against a count from scratch of the rows they stand for."""

from collections import Counter
from collections.abc import Callable

import pytest
from django.db import transaction
from django.db.models import F

from accounts.models import User
from games import services
from games.engine import Match
from games.models import Abandonment, Game, Seat
from games.players import autoplay
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def counted_from_rows() -> dict[int, tuple[int, int, int]]:
    """Each user's (played, won, abandoned) as the player card counted them before the
    counters: the seats kept to the end of games over, those on the winning team, those that
    ended their game abandoned; and the games left to a bot (played and abandoned)."""
    kept = Seat.objects.filter(game__status__in=Game.OVER_STATUSES)
    players = Counter(kept.values_list("user_id", flat=True))
    winners = Counter(kept.filter(game__winner_team=F("team")).values_list("user_id", flat=True))
    walkouts = Counter(
        kept.filter(game__abandoned_by_seat=F("seat")).values_list("user_id", flat=True)
    )
    left = Counter(Abandonment.objects.values_list("user_id", flat=True))
    return {
        user_id: (
            players[user_id] + left[user_id],
            winners[user_id],
            walkouts[user_id] + left[user_id],
        )
        for user_id in User.objects.values_list("pk", flat=True)
    }


def recorded() -> dict[int, tuple[int, int, int]]:
    return {
        user_id: (played, won, abandoned)
        for user_id, played, won, abandoned in User.objects.values_list(
            "pk", "games_played", "games_won", "games_abandoned"
        )
    }


def play_to_the_end(game: Game) -> None:
    """Every turn played automatically through the move service until the deal ends it."""
    for _turn in range(1000):
        with transaction.atomic():
            locked = services.lock_game(game_id=game.pk)
            seat = locked.game.turn_seat
            if locked.game.status != Game.Status.ACTIVE or seat is None:
                return
            match = Match.from_dict(locked.game.state or {})
            services.apply_actions_locked(
                locked=locked, seat=seat, actions=autoplay(match.deal, seat), automatic=True
            )
    raise AssertionError("the deal did not end")


def leave_to_a_bot(game: Game) -> int:
    """The player on turn leaves the game (three timeouts in a row: games.services.timeouts) while
    others play on; the seat they emptied."""
    with transaction.atomic():
        locked = services.lock_game(game_id=game.pk)
        seat = next(seat for seat in locked.seats if seat.seat == locked.game.turn_seat)
        services.abandon_seat(locked=locked, seat=seat)
    return seat.seat


def end_abandoned_by(game: Game, seat: int) -> None:
    """The sweep's end of a game whose `seat` was abandoned (its turn limit passed)."""
    with transaction.atomic():
        services.finish_game_abandoned(locked=services.lock_game(game_id=game.pk), seat=seat)


def played_to_the_end(players: list[User]) -> None:
    play_to_the_end(started_game(players=players))


def ended_by_a_walkout(players: list[User]) -> None:
    game = started_game(players=players)
    end_abandoned_by(game, seat=game.turn_seat or 0)


def left_to_a_bot_nobody_seated(players: list[User]) -> None:
    game = started_game(players=players)
    end_abandoned_by(game, seat=leave_to_a_bot(game))


def left_to_a_bot_who_plays_on(players: list[User]) -> None:
    game = started_game(players=players)
    seat = leave_to_a_bot(game)
    # The table's creator seats it, or another person when it was the creator who left.
    creator = players[1] if seat == 0 else players[0]
    services.seat_bot(game_id=game.pk, user=creator, seat=seat, level="beginner")
    play_to_the_end(game)


def the_last_person_among_bots_leaves(players: list[User]) -> None:
    game = services.open_table(
        user=players[0], mode=Game.Mode.ASYNC, length=Game.Length.DEAL, rules={}, private=False
    )
    for seat in (1, 2, 3):
        services.seat_bot(game_id=game.pk, user=players[0], seat=seat, level="beginner")
    with transaction.atomic():
        locked = services.lock_game(game_id=game.pk)
        person = locked.seat_of(players[0])
        assert person is not None
        services.abandon_seat(locked=locked, seat=person)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED


ENDINGS: list[Callable[[list[User]], None]] = [
    played_to_the_end,
    ended_by_a_walkout,
    left_to_a_bot_nobody_seated,
    left_to_a_bot_who_plays_on,
    the_last_person_among_bots_leaves,
]


@pytest.mark.parametrize(
    "endings",
    [[ending] for ending in ENDINGS] + [ENDINGS],
    ids=[ending.__name__ for ending in ENDINGS] + ["all_of_them_by_the_same_players"],
)
def test_the_counters_are_the_rows_counted_after_games_end_every_way(endings):
    people = UserFactory.create_batch(6)
    for number, ending in enumerate(endings):
        # Another four of the six each game, in another order: records that differ.
        ending([people[(number + seat) % len(people)] for seat in range(4)])
    assert any(recorded().values())
    assert recorded() == counted_from_rows()
