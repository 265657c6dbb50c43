"""Shared model factories: append yours, keep the others'."""

from typing import Any

import factory
from django.contrib.auth.hashers import make_password

from accounts.models import User

DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.title())
    password = factory.LazyFunction(lambda: make_password(DEFAULT_PASSWORD))
    # The club's default is on; off here so that a timed-out turn times out (the automatic
    # vacation tests switch it on: tests/timing/test_vacations.py).
    auto_vacation = False


# --- games ---------------------------------------------------------------------------------------
from games import services as game_services  # noqa: E402
from games.engine import Rules  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.services import rating  # noqa: E402


class GameFactory(factory.django.DjangoModelFactory):
    """A waiting table (no seats); use `started_game` for a game in progress."""

    class Meta:
        model = Game

    mode = Game.Mode.ASYNC
    length = Game.Length.DEAL
    rules = factory.LazyFunction(
        lambda: game_services.validated_rules(length=Game.Length.DEAL, options={}).to_options()
    )
    created_by = factory.SubFactory(UserFactory)
    scores = factory.LazyFunction(lambda: [0, 0])
    pool = factory.LazyAttribute(
        lambda game: rating.pool_of(mode=game.mode, rules=Rules.from_options(game.rules))
    )


class SeatFactory(factory.django.DjangoModelFactory):
    """A seat on its team in the engine's seating of the game's rules (`Seat.at_table`)."""

    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    user = factory.SubFactory(UserFactory)
    seat = 0

    @classmethod
    def _create(cls, model_class: type[Seat], *args: Any, **kwargs: Any) -> Seat:
        seat = model_class.at_table(**kwargs)
        seat.save()
        return seat


def started_game(
    *,
    players: list[User] | None = None,
    mode: str = Game.Mode.ASYNC,
    length: str = Game.Length.DEAL,
    rules: dict | None = None,
) -> Game:
    """A game opened and joined through the services: four seated (players[i] at seat i), dealt."""
    players = players or UserFactory.create_batch(4)
    game = game_services.open_table(
        user=players[0], mode=mode, length=length, rules=rules or {}, private=False, seat=0
    )
    for seat, player in enumerate(players[1:], start=1):
        game_services.join_table(game_id=game.pk, user=player, seat=seat)
    return Game.objects.get(pk=game.pk)


def stack_deal(*, game: Game, deck: list[str], dealer: int) -> Game:
    """A started game, before its first move, re-dealt from a stacked deck (CONTRACT §2's
    order) with `dealer` dealing: short, deterministic deals for tests that play through."""
    from games.engine import Deal, Match, Rules

    assert game.version == 0, "only a game nobody has moved in yet"
    match = Match.from_dict(game.state or {})
    match.first_dealer = dealer
    match.deal = Deal.new(
        Rules.from_options(game.rules), dealer=dealer, team_scores=(0, 0), deck=deck
    )
    Game.objects.filter(pk=game.pk).update(
        state=match.to_dict(), first_dealer=dealer, turn_seat=match.deal.turn
    )
    return Game.objects.get(pk=game.pk)
