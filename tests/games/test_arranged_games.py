"""Games the club arranges for an event (issue 38): opened seated and dealt in the caller's
transaction, an abandoned seat going to the club's bot at once, played out at the event's
deadline, sealed while a duplicate round's other tables play the same deals."""

import secrets

import pytest
from django.conf import settings
from django.db import transaction
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import selectors, services
from games.engine import Match, Rules
from games.models import Abandonment, Game, Seat
from games.services import timeouts
from notifications.models import OutboxMessage
from tests.factories import UserFactory
from tests.timing.conftest import play_turn, turn_of

pytestmark = pytest.mark.django_db

RULES = Rules(target=None, deals=2)


def arrange(
    people: list[User], *, seed: int | None = None, sealed: bool = False, mode: str = "async"
) -> list[Game]:
    """Tables of four from `people`, in order, opened in one transaction."""
    seed = seed if seed is not None else secrets.randbits(128)
    tables = [
        services.ArrangedGame(
            players=dict(enumerate(people[start : start + 4])), seed=seed, first_dealer=3
        )
        for start in range(0, len(people), 4)
    ]
    with transaction.atomic():
        return services.open_arranged_games(
            mode=mode,
            rules=RULES,
            tournament={"id": 7, "round": 2},
            sealed=sealed,
            rated=True,
            games=tables,
        )


def test_arranged_games_start_seated_and_dealt_and_tell_the_first_player() -> None:
    people = UserFactory.create_batch(8)
    games = arrange(people)
    for number, game in enumerate(games):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        assert game.length == Game.Length.MATCH and game.rules["deals"] == 2
        assert game.tournament == {"id": 7, "round": 2}
        seated = list(Seat.objects.filter(game=game).values_list("seat", "user_id"))
        assert seated == [(seat, people[4 * number + seat].pk) for seat in range(4)]
        match = Match.from_dict(game.state or {})
        assert game.turn_seat == match.deal.to_act == 0  # dealer 3: seat 0 moves first
        assert game.started_at is not None
        assert game.turn_deadline == game.started_at + settings.TURN_LIMIT["async"]
        kinds = OutboxMessage.objects.filter(game=game).values_list("user_id", "kind")
        assert list(kinds) == [(people[4 * number].pk, "your_turn")]


def test_the_api_answers_which_tournament_and_round_arranged_a_game() -> None:
    people = UserFactory.create_batch(4)
    [game] = arrange(people)
    client = APIClient()
    client.force_authenticate(people[1])
    assert client.get(f"/api/games/{game.pk}/").json()["tournament"] == {"id": 7, "round": 2}


def test_a_seat_abandoned_in_an_arranged_game_goes_to_the_clubs_bot_at_once() -> None:
    people = UserFactory.create_batch(4)
    [game] = arrange(people)
    culprit = game.turn_seat
    assert culprit is not None
    for timeout in range(3):
        clock.advance(settings.TURN_LIMIT["async"])
        assert timeouts.sweep() == 1
        game.refresh_from_db()
        while timeout < 2 and game.turn_seat != culprit:
            play_turn(game.pk)
            game.refresh_from_db()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    bot = Seat.objects.select_related("user").get(game=game, seat=culprit).user
    assert bot.bot_level == "club"
    assert Abandonment.objects.filter(game=game, user=people[culprit]).exists()
    # The bot's turn is due after its pause, and the sweep plays it.
    assert game.turn_started_at is not None
    assert game.turn_deadline == game.turn_started_at + settings.BOT_PAUSE["async"]
    clock.advance(settings.BOT_PAUSE["async"])
    assert timeouts.sweep() == 1
    game.refresh_from_db()
    assert game.turn_seat != culprit or game.deal_number == 2


def test_the_last_person_of_an_arranged_game_leaves_it_to_bots_not_abandoned() -> None:
    people = UserFactory.create_batch(4)
    [game] = arrange(people)
    bots = [
        User.objects.create(username=f"bot-club-{n}", display_name=f"Бот {n}", bot_level="club")
        for n in range(1, 4)
    ]
    turn = turn_of(game)
    Seat.objects.filter(game=game).exclude(seat=turn).delete()
    for seat, bot in zip((s for s in range(4) if s != turn), bots, strict=True):
        Seat.at_table(game=game, seat=seat, user=bot).save()
    Seat.objects.filter(game=game, seat=turn).update(consecutive_timeouts=2)
    clock.advance(settings.TURN_LIMIT["async"])
    assert timeouts.sweep() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=game, seat=turn).user.is_bot


def test_play_out_finishes_the_game_with_bots_and_tells_only_the_end() -> None:
    people = UserFactory.create_batch(4)
    [game] = arrange(people)
    OutboxMessage.objects.all().delete()
    assert services.play_out(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.deal_number == 2 and game.deal_records.count() == 2
    assert game.moves.filter(automatic=False).count() == 0
    assert set(OutboxMessage.objects.values_list("kind", flat=True)) == {"game_finished"}
    assert Seat.objects.filter(game=game, consecutive_timeouts__gt=0).count() == 0
    assert not services.play_out(game_id=game.pk)  # over: nothing more to play


def test_duplicate_tables_deal_the_same_cards_to_the_same_seats() -> None:
    people = UserFactory.create_batch(12)
    games = arrange(people, seed=2026)
    hands = [
        [Match.from_dict(game.state or {}).deal.view(seat)["hand"] for seat in range(4)]
        for game in games
    ]
    assert hands[0] == hands[1] == hands[2]


def test_a_sealed_game_is_seen_by_its_players_alone_and_exported_once_unsealed() -> None:
    people = UserFactory.create_batch(4)
    outsider = UserFactory.create()
    [game] = arrange(people, sealed=True)
    services.play_out(game_id=game.pk)
    player, stranger = APIClient(), APIClient()
    player.force_authenticate(people[0])
    stranger.force_authenticate(outsider)
    assert stranger.get(f"/api/games/{game.pk}/").status_code == 404
    assert stranger.get(f"/api/games/{game.pk}/moves/").status_code == 404
    assert player.get(f"/api/games/{game.pk}/").status_code == 200
    sealed = player.get(f"/api/games/{game.pk}/export/")
    assert sealed.status_code == 409 and sealed.json()["code"] == "game_sealed"
    lobby = selectors.lobby(user=outsider, status=None, mine=False)
    assert game.pk not in {row.pk for row in lobby}
    with transaction.atomic():
        services.unseal_games(game_ids=[game.pk])
    assert stranger.get(f"/api/games/{game.pk}/").status_code == 200
    assert player.get(f"/api/games/{game.pk}/export/").status_code == 200
