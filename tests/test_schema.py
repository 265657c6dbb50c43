"""Every API operation, fuzzed from the OpenAPI schema in-process: no 5xx, responses as documented.

Bounded to stay well under two minutes: a few examples per operation (valid and invalid ones), no
coverage phase (it would generate every boundary case of every field). The caller is a player
seated at a game in progress; the moderators' operations run a second time as a moderator.
"""

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import User
from accounts.services import issue_token
from canasta_club.wsgi import application
from games.models import Game
from tests.factories import UserFactory, started_game
from tests.tournaments.conftest import enter, open_tournament
from tournaments.models import Tournament

CONFIG = schemathesis.Config.from_dict(
    {"phases": {"coverage": {"enabled": False}}, "generation": {"max-examples": 15}}
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)
moderation_schema = schema.include(path_regex="^/api/moderation/")

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
FUZZ_SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def in_test_transaction() -> Iterator[None]:
    # The real WSGI handler closes "old" connections around each request, which would close the
    # test's transaction; Django's own test client disconnects the same signal handlers.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def player(db) -> User:
    return UserFactory.create()


@pytest.fixture
def game(player: User) -> Game:
    return started_game(players=[player, *UserFactory.create_batch(3)])


@pytest.fixture
def tournament(player: User) -> Tournament:
    """An open tournament of the caller's, with two pairs entered (so it may start)."""
    opened = open_tournament(creator=player, rounds=2)
    enter(opened, 2)
    return opened


@pytest.fixture
def moderator(player: User) -> User:
    # A superuser holds every moderation permission, whatever a transactional test's flush left
    # of the Moderators group that moderation's data migration creates.
    player.is_superuser = True
    player.save(update_fields=["is_superuser"])
    return player


def call_as(user: User, case: schemathesis.Case, *, game: Game, tournament: Tournament) -> None:
    # Even generated ids point at real rows, so those operations get past their 404s.
    for name, real_id in (
        ("game_id", game.pk),
        ("id", user.pk),
        ("tournament_id", tournament.pk),
    ):
        value = (case.path_parameters or {}).get(name)
        if isinstance(value, int) and value % 2 == 0:
            case.path_parameters[name] = real_id
    # A fuzzed log-out or password change may have replaced the token: fetch it per example.
    token = issue_token(user=user)
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)


@pytest.mark.usefixtures("in_test_transaction")
@schema.parametrize()
@FUZZ_SETTINGS
def test_api_conforms_to_its_schema(case, player, game, tournament):
    call_as(player, case, game=game, tournament=tournament)


@pytest.mark.usefixtures("in_test_transaction")
@moderation_schema.parametrize()
@FUZZ_SETTINGS
def test_moderation_api_conforms_to_its_schema(case, moderator, game, tournament):
    call_as(moderator, case, game=game, tournament=tournament)
