"""A game's ratings move once: in the transaction that ends it, one RatingChange per game and
player; rating it again (a repeated call, the backfill) does nothing; a crash before the commit
leaves nothing; two games ending at once with a player in common are rated one after the other
(real PostgreSQL, threads), neither lost."""

import itertools
from functools import partial

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from games.models import Game
from games.services.rating import result_of
from ratings import services
from ratings.models import Pool, Rating, RatingChange
from tests.concurrency import run_in_threads
from tests.factories import UserFactory, started_game
from tests.games.test_records import play_to_the_end
from tests.ratings.ending import end_game, game_of


@pytest.mark.django_db
def test_rating_a_game_again_changes_nothing():
    game = end_game(game_of(), scores=[3000, 1000])
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    result = result_of(
        game=game, seated={seat.seat: seat.user_id for seat in game.seats.all()}, left={}
    )
    assert result is not None

    with transaction.atomic():
        assert services.rate_game(result=result) == 0

    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 4


@pytest.mark.django_db
def test_the_backfill_after_games_rated_as_they_ended_rates_nothing(capsys):
    end_game(game_of(), scores=[3000, 1000])
    end_game(game_of(), scores=[1000, 3000])
    before = list(RatingChange.objects.order_by("pk").values_list("pk", "mu"))

    call_command("rate_finished_games")
    call_command("rate_finished_games")

    assert "async.classic.4: 0 game(s) rated." in capsys.readouterr().out
    assert list(RatingChange.objects.order_by("pk").values_list("pk", "mu")) == before


@pytest.mark.django_db
def test_a_crash_before_the_commit_of_the_last_move_loses_and_doubles_nothing(monkeypatch):
    """The worker dies after the ratings moved but before the game's end committed (here: the
    game-over notification fails): it all rolls back, and the game's real end rates it once."""
    game = started_game()

    def dies(**notice: object) -> None:
        if notice.get("kind") == "game_finished":
            raise RuntimeError("the worker was killed")

    monkeypatch.setattr("games.services.turns.notify", dies)
    with pytest.raises(RuntimeError):
        play_to_the_end(game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()

    monkeypatch.undo()
    play_to_the_end(game)

    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 4
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(3))
def test_games_ending_at_once_with_a_player_in_common_are_rated_one_after_the_other(trial):
    assert connection.vendor == "postgresql"
    shared = UserFactory.create()
    games = [game_of([shared, *UserFactory.create_batch(3)]) for _ in range(4)]

    answers = run_in_threads(
        *(partial(end_game, game, scores=[4000 + n, 1000]) for n, game in enumerate(games))
    )

    assert not [answer for answer in answers if isinstance(answer, Exception)]
    moves = list(RatingChange.objects.filter(user=shared).order_by("pk"))
    assert len(moves) == len(games)
    # Each game started from the belief the one before left: none was lost or rated twice.
    for earlier, later in itertools.pairwise(moves):
        assert later.mu_before == pytest.approx(earlier.mu)
        assert later.sigma_before == pytest.approx(earlier.sigma)
    rating = Rating.objects.get(user=shared)
    assert rating.games == len(games)
    assert rating.mu == pytest.approx(moves[-1].mu)
    assert Pool.objects.get(name="async.classic.4").version == len(games)
