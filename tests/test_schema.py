"""Every API operation, fuzzed from the OpenAPI schema in-process: no 5xx, responses as documented.

Bounded to stay under two minutes: a few examples per operation, no coverage phase (it would
generate every boundary case of every field). The caller is a logged-in player with a token.
"""

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from canasta_club.wsgi import application
from tests.factories import UserFactory

CONFIG = schemathesis.Config.from_dict(
    {"phases": {"coverage": {"enabled": False}}, "generation": {"max-examples": 15}}
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


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
def player(db):
    return UserFactory.create()


@pytest.mark.django_db
@pytest.mark.usefixtures("in_test_transaction")
@schema.parametrize()
@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema(case, player):
    # A fuzzed log-out or password change may have replaced the token: fetch it per example.
    token, _created = Token.objects.get_or_create(user=player)
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
