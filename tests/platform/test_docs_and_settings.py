"""The OpenAPI description documents every error code; the docs page needs no CDN; the embedded
defaults (SQLite, file broker) are configured against lock errors and slow polling."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.engine.errors import MESSAGES

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# Codes the service writes: ApiError("code", ...) and {"code": "code", ...} bodies.
CODE_IN_SOURCE = re.compile(r'ApiError\(\s*"(\w+)"|"code": "(\w+)"')


def _codes_in_source() -> set[str]:
    codes = set()
    for app in ("accounts", "games", "moderation", "notifications"):
        for path in (ROOT / app).rglob("*.py"):
            for match in CODE_IN_SOURCE.finditer(path.read_text(encoding="utf-8")):
                codes.add(match.group(1) or match.group(2))
    return codes


def _documented_codes() -> set[str]:
    description = str(settings.SPECTACULAR_SETTINGS["DESCRIPTION"])
    return set(re.findall(r"^\| `(\w+)` \|", description, flags=re.MULTILINE))


def test_every_error_code_is_in_the_schema_description():
    from canasta_club.errors import _DETAILS

    documented = _documented_codes()

    assert set(MESSAGES) <= documented, "engine codes"
    assert _codes_in_source() <= documented, "service codes"
    assert set(_DETAILS) <= documented, "the error handler's codes"


def test_the_schema_carries_the_description():
    schema = Client().get("/api/schema/?format=json").json()

    assert "stale_version" in schema["info"]["description"]
    assert "legal_actions" in schema["info"]["description"]


def test_swagger_ui_is_served_from_the_sidecar_package_not_a_cdn():
    page = Client().get("/api/docs/").content.decode()

    assert "drf_spectacular_sidecar" in page
    assert "cdn.jsdelivr.net" not in page


EMBEDDED = """
import json, django
django.setup()
from django.conf import settings
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    journal = cursor.fetchone()[0]
print(json.dumps({
    "options": settings.DATABASES["default"]["OPTIONS"],
    "journal": journal,
    "broker": settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    "site_url": settings.SITE_URL,
    "sweep_expiry": settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["options"],
}))
"""


def test_the_embedded_defaults(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "CANASTA_VAR_DIR": str(tmp_path / "var"),
        "PORT": "8124",
    }
    out = subprocess.run(
        [sys.executable, "-c", EMBEDDED], env=env, cwd=ROOT, capture_output=True, check=True
    )
    embedded = json.loads(out.stdout)

    assert embedded["options"]["transaction_mode"] == "IMMEDIATE"
    assert embedded["options"]["timeout"] >= 20
    assert embedded["journal"] == "wal"
    assert embedded["broker"]["polling_interval"] <= 0.1
    assert embedded["sweep_expiry"]["expire_seconds"] >= 5
    assert embedded["site_url"] == "http://127.0.0.1:8124"


def test_postgresql_prepares_statements_with_custom_plans():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        (plan_cache_mode,) = cursor.fetchone()

    assert plan_cache_mode == "force_custom_plan"
    assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True
    assert connection.connection.prepare_threshold == 5
