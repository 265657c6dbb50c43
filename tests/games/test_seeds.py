"""Seeds: 128 random bits from `secrets`, derived per deal, exact through the database."""

import random
import sqlite3
from types import SimpleNamespace

import pytest

from games.engine import Deal, Match, Rules
from games.engine.match import deal_seed
from games.models import Game, SeedField
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def test_match_and_deal_seeds_have_128_bits(game):
    game.refresh_from_db()
    assert 0 <= int(game.seed) < 2**128
    assert game.state["seed"] == int(game.seed)
    # A fixed input: the derived seed uses all 16 bytes of the digest.
    assert deal_seed(1, 1).bit_length() > 100
    assert deal_seed(2**127 + 3, 2) != deal_seed(2**127 + 3, 3)


def test_big_seeds_are_deterministic_and_round_trip_through_the_database(players):
    seed = 2**128 - 1
    first = Deal.new(Rules(), dealer=0, seed=seed)
    assert first.to_dict() == Deal.new(Rules(), dealer=0, seed=seed).to_dict()
    assert first.to_dict() != Deal.new(Rules(), dealer=0, seed=seed - 1).to_dict()
    match = Match.new(Rules(), first_dealer=0, seed=seed)
    game = started_game(players=players)
    Game.objects.filter(pk=game.pk).update(seed=seed, state=match.to_dict())
    game.refresh_from_db()
    assert str(game.seed) == str(seed)
    assert game.state is not None
    assert Match.from_dict(game.state).to_dict() == match.to_dict()


def test_the_match_seed_is_fresh_per_game():
    seeds = {started_game(players=UserFactory.create_batch(4)).seed for _ in range(3)}
    assert len(seeds) == 3


def test_random_is_not_used_for_seeds():
    # The match seed comes from `secrets`, never from the `random` module's state.
    random.seed(0)
    players = UserFactory.create_batch(4)
    first = started_game(players=players).seed
    random.seed(0)
    second = started_game(players=UserFactory.create_batch(4)).seed
    assert first != second


def test_a_128_bit_seed_stays_whole_in_sqlite():
    # The embedded default: SQLite's numbers hold 64 bits, so a numeric column turned the seed
    # into a float, and the export's replay dealt other cards than the game did.
    sqlite = SimpleNamespace(vendor="sqlite")
    field = SeedField()
    database = sqlite3.connect(":memory:")
    database.execute(f"CREATE TABLE seeds (seed {field.db_type(sqlite)})")
    seed = 2**128 - 1
    database.execute("INSERT INTO seeds VALUES (?)", [field.get_db_prep_value(seed, sqlite)])
    (stored,) = database.execute("SELECT seed FROM seeds").fetchone()
    assert field.from_db_value(stored, None, sqlite) == seed
