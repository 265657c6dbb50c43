"""The data migrations of games, run on rows made before them."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils.timezone import now

from games.models import Game, Seat
from tests.factories import UserFactory
from tests.games.test_records import counted_from_rows, recorded

BEFORE_TEAMS = [("games", "0007_seat_team")]


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def games_before_teams() -> Iterator[Any]:
    """The games app migrated back to seats without teams: its models of then."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_TEAMS)
    yield executor.loader.project_state(BEFORE_TEAMS).apps
    migrate_to_latest()  # whatever the test did, the next one finds today's schema


@pytest.mark.django_db(transaction=True)
def test_every_seats_team_is_filled_from_its_tables_seating(games_before_teams):
    game_model = games_before_teams.get_model("games", "Game")
    seat_model = games_before_teams.get_model("games", "Seat")
    # Each table's rules as stored, with the teams its seats 0, 1, … are on (RULES.md R-DEAL-1).
    tables = [
        ({}, [0, 1, 0, 1]),  # stored before tables had sizes: the four-handed game
        ({"wild_limit": "half", "target": 2500}, [0, 1, 0, 1]),
        ({"players": 4, "teams": 2}, [0, 1, 0, 1]),
        ({"players": 2, "teams": 2}, [0, 1]),
        ({"players": 3, "teams": 3}, [0, 1, 2]),
        ({"players": 6, "teams": 3}, [0, 1, 2, 0, 1, 2]),
        ({"players": 6, "teams": 2}, [0, 1, 0, 1, 0, 1]),
    ]
    # Users of today's schema: only the games app went back.
    players = UserFactory.create_batch(6)
    expected = {}
    for rules, teams in tables:
        game = game_model.objects.create(
            mode="async", length="deal", rules=rules, created_by_id=players[0].pk, status="finished"
        )
        for seat, team in enumerate(teams):
            seat_model.objects.create(game=game, user_id=players[seat].pk, seat=seat)
            expected[(game.pk, seat)] = team

    migrate_to_latest()

    filled = {
        (game_id, seat): team
        for game_id, seat, team in Seat.objects.values_list("game_id", "seat", "team")
    }
    assert filled == expected


BEFORE_COUNTERS = [
    ("games", "0014_idempotent_response_refused"),
    ("accounts", "0008_username_skeleton_full_confusables"),
]


@pytest.fixture
def apps_before_counters() -> Iterator[Any]:
    """The accounts and games apps migrated back to users without games counters."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_COUNTERS)
    yield executor.loader.project_state(BEFORE_COUNTERS).apps
    migrate_to_latest()


@pytest.mark.django_db(transaction=True)
def test_the_games_counters_are_filled_from_the_rows(apps_before_counters):
    user_model = apps_before_counters.get_model("accounts", "User")
    game_model = apps_before_counters.get_model("games", "Game")
    seat_model = apps_before_counters.get_model("games", "Seat")
    abandonment_model = apps_before_counters.get_model("games", "Abandonment")
    people = [user_model.objects.create(username=f"before{n}") for n in range(5)]
    # (status, winner team, abandoning seat): two teams, seats 0 and 2 on team 0.
    endings = [
        ("finished", 0, None),
        ("finished", 1, None),
        ("abandoned", 1, 2),
        ("abandoned", None, 1),
        ("active", None, None),
    ]
    for number, (status, winner_team, abandoned_by_seat) in enumerate(endings):
        game = game_model.objects.create(
            mode="async",
            length="deal",
            rules={},
            created_by_id=people[0].pk,
            status=status,
            winner_team=winner_team,
            abandoned_by_seat=abandoned_by_seat,
        )
        for seat in range(4):
            player = people[(number + seat) % len(people)]
            seat_model.objects.create(game=game, user_id=player.pk, seat=seat, team=seat % 2)
        if number == 1:  # a fifth player left this one to a bot
            abandonment_model.objects.create(
                game=game, user_id=people[(number + 4) % 5].pk, seat=1, created_at=game.created_at
            )

    migrate_to_latest()

    assert recorded() == counted_from_rows()
    assert recorded()[people[0].pk] == (4, 2, 1)  # 3 seats kept, 1 game left; 2 won


GAMES_BEFORE_RATINGS = ("games", "0018_deal_break_pace_and_autoplayed")


@pytest.fixture
def games_before_ratings() -> Iterator[Any]:
    """The games app migrated back to games without pools or `rated` (and no ratings app)."""
    executor = MigrationExecutor(connection)
    executor.migrate([GAMES_BEFORE_RATINGS, ("ratings", None)])
    yield executor.loader.project_state([GAMES_BEFORE_RATINGS]).apps
    migrate_to_latest()


@pytest.mark.django_db(transaction=True)
def test_every_games_pool_is_filled_and_games_with_bots_from_the_start_are_casual(
    games_before_ratings,
):
    game_model = games_before_ratings.get_model("games", "Game")
    seat_model = games_before_ratings.get_model("games", "Seat")
    abandonment_model = games_before_ratings.get_model("games", "Abandonment")
    people = UserFactory.create_batch(4)
    bot = UserFactory.create(bot_level="club")

    def game(mode: str, rules: dict, players: list) -> Any:
        made = game_model.objects.create(
            mode=mode, length="deal", rules=rules, created_by_id=people[0].pk, status="finished"
        )
        for seat, player in enumerate(players):
            seat_model.objects.create(game=made, user_id=player.pk, seat=seat, team=seat % 2)
        return made

    of_people = game("async", {}, people)
    pairs_of_six = game("live", {"players": 6, "teams": 3}, people)
    samba = game("async", {"game": "samba", "players": 4, "teams": 2}, people)
    bot_from_the_start = game("live", {"players": 2, "teams": 2}, [people[0], bot])
    left_to_the_bot = game("async", {}, [*people[:3], bot])
    abandonment_model.objects.create(
        game=left_to_the_bot, user_id=people[3].pk, seat=3, created_at=left_to_the_bot.created_at
    )

    migrate_to_latest()

    from games.models import Game

    assert {game.pk: (game.pool, game.rated) for game in Game.objects.only("pool", "rated")} == {
        of_people.pk: ("async.classic.4", True),
        pairs_of_six.pk: ("live.classic.6", True),
        samba.pk: ("async.samba.4", True),
        bot_from_the_start.pk: ("live.classic.2", False),
        left_to_the_bot.pk: ("async.classic.4", True),
    }


BEFORE_PHRASE_COUNTS = [("games", "0021_game_rating_range_constraint")]


@pytest.fixture
def games_before_phrase_counts() -> Iterator[Any]:
    """The games app migrated back to games that did not count their phrases."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PHRASE_COUNTS)
    yield executor.loader.project_state(BEFORE_PHRASE_COUNTS).apps
    migrate_to_latest()


@pytest.mark.django_db(transaction=True)
def test_each_games_phrases_are_counted_from_its_rows(games_before_phrase_counts):
    apps = games_before_phrase_counts
    user = UserFactory.create()  # the accounts app stays migrated
    game_model = apps.get_model("games", "Game")
    phrase_model = apps.get_model("games", "TablePhrase")
    games = [
        game_model.objects.create(mode="async", length="deal", rules={}, created_by_id=user.pk)
        for _ in range(3)
    ]
    for game, said in zip(games, (0, 1, 3), strict=True):
        for number in range(said):
            phrase_model.objects.create(
                game=game, seat=0, user_id=user.pk, phrase="hello", version=number, said_at=now()
            )

    migrate_to_latest()

    counted = dict(
        Game.objects.filter(pk__in=[game.pk for game in games]).values_list("pk", "phrases_said")
    )
    assert [counted[game.pk] for game in games] == [0, 1, 3]
