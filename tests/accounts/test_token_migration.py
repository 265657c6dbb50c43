"""The clear-text tokens of DRF's authtoken table become hashed per-device tokens, and the
clients holding them keep working (accounts migration 0004)."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("accounts.migrations.0004_per_device_hashed_tokens")


class _SchemaEditor:
    connection = connection


def test_an_old_clear_text_token_keeps_working_hashed():
    user = UserFactory.create()
    key = "a" * 40
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamptz NOT NULL, user_id bigint NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
            [key, timezone.now() - timedelta(days=60), user.pk],
        )

    migration.hash_existing_tokens(apps, _SchemaEditor())

    token = ApiToken.objects.get(user=user)
    assert token.digest != key and len(token.digest) == 64
    assert token.expires_at > timezone.now() + timedelta(days=6)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # no clear-text key is left behind
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/me/").status_code == 200
