"""The OpenAPI description documents every error code; the docs page needs no CDN; README.md stays
a door (its commands, every setting, links that lead somewhere) and docs/ stays true to the tree;
the embedded defaults (SQLite, file broker) are configured against lock errors and slow polling,
and play."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.engine.errors import CODES

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# Codes the services write: Invalid("code", ...) (any kind of ClubError) and {"code": ...} bodies.
CODE_IN_SOURCE = re.compile(
    r'\b(?:Invalid|Forbidden|NotFound|Conflict|KeyReused|LimitReached)\(\s*"(\w+)"|"code": "(\w+)"'
)


def _codes_in_source() -> set[str]:
    codes = set()
    for app in ("accounts", "games", "moderation", "notifications", "ratings", "tournaments"):
        for path in (ROOT / app).rglob("*.py"):
            for match in CODE_IN_SOURCE.finditer(path.read_text(encoding="utf-8")):
                codes.add(match.group(1) or match.group(2))
    return codes


def _documented_codes() -> set[str]:
    description = str(settings.SPECTACULAR_SETTINGS["DESCRIPTION"])
    return set(re.findall(r"^\| `(\w+)` \|", description, flags=re.MULTILINE))


def test_every_error_code_is_in_the_schema_description():
    from club.errors import _DETAILS

    documented = _documented_codes()

    assert set(CODES) <= documented, "engine codes"
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


README = ROOT / "README.md"
DOCS = ROOT / "docs"
# What the settings and gunicorn's read from the environment (os.environ[...], .get(...), env_bool).
ENV_READ = re.compile(
    r"""os\.environ(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]+)["']"""
    r"""|["']([A-Z][A-Z0-9_]+)["'] in os\.environ|env_bool\(\s*["']([A-Z][A-Z0-9_]+)["']"""
)
MARKDOWN_LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


def _markdown_pages() -> list[Path]:
    return [README, ROOT / "SECURITY.md", *sorted(DOCS.glob("*.md"))]


def _prose(path: Path) -> list[tuple[int, str]]:
    """The page's lines outside code fences, with their numbers."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the page's headings (a repeated one gets -1, -2, ...)."""
    anchors: set[str] = set()
    for _, line in _prose(path):
        if match := re.match(r"#{1,6} (.+)", line):
            slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
            repeated, n = slug, 0
            while repeated in anchors:
                n += 1
                repeated = f"{slug}-{n}"
            anchors.add(repeated)
    return anchors


def test_the_readme_is_a_door():
    text = README.read_text(encoding="utf-8")

    assert len(text.encode()) <= 15_000
    for section in ("Two commands", "Layout", "Configuration at a glance", "Russian and English"):
        assert f"\n## {section}\n" in text
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in text, f"README links {page.name}"


def test_the_readme_commands_are_make_targets():
    commands = re.findall(r"^make (\w+)", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert commands[:2] == ["run", "test"]
    for target in commands:
        planned = subprocess.run(
            ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert planned.returncode == 0, planned.stderr


def test_every_environment_variable_is_documented():
    read = {
        name
        for source in (ROOT / "canasta_club" / "settings.py", ROOT / "gunicorn.conf.py")
        for match in ENV_READ.finditer(source.read_text(encoding="utf-8"))
        for name in match.groups()
        if name
    }
    readme = README.read_text(encoding="utf-8")
    glance = readme[readme.index("## Configuration at a glance") :]
    in_full = (DOCS / "operations.md").read_text(encoding="utf-8")

    assert {"DATABASE_URL", "SECRET_KEY", "PORT", "WEB_CONCURRENCY"} <= read
    assert not {name for name in read if f"`{name}`" not in glance}, "README's table"
    assert not {name for name in read if f"`{name}`" not in in_full}, "docs/operations.md"


def test_the_docs_links_lead_somewhere():
    for page in _markdown_pages():
        for target in MARKDOWN_LINK.findall(page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.name}: {target}"
            if anchor:
                assert anchor in _anchors(linked), f"{page.name}: {target}"


def test_the_docs_index_lists_every_page():
    index = (DOCS / "README.md").read_text(encoding="utf-8")

    for page in sorted(DOCS.glob("*.md")):
        assert page.name == "README.md" or f"]({page.name})" in index, page.name


def test_prose_lines_are_wrapped():
    for page in _markdown_pages():
        for number, line in _prose(page):
            assert line.startswith("|") or len(line) <= 100, f"{page.name}, line {number}"


def test_every_bench_script_is_documented():
    benchmarks = (DOCS / "benchmarks.md").read_text(encoding="utf-8")

    for script in sorted((ROOT / "bench").glob("*.py")):
        if script.name == "__init__.py":
            continue
        if 'if __name__ == "__main__":' in script.read_text(encoding="utf-8"):
            assert f"### `bench/{script.name}`" in benchmarks, script.name
        else:
            assert f"`bench/{script.name}`" in benchmarks, script.name
    assert "bench/api.py --ab REV" in benchmarks


def test_the_pages_hooks_are_in_the_pages():
    hooks = set(re.findall(r"\[(data-[a-z-]+)", (DOCS / "pages.md").read_text(encoding="utf-8")))
    web = ROOT / "web"
    markup = " ".join(
        path.read_text(encoding="utf-8")
        for pattern in ("templates/**/*.html", "templates/**/*.js", "static/web/*.js", "**/*.py")
        for path in web.glob(pattern)
    )

    assert len(hooks) > 50
    assert not {hook for hook in hooks if hook not in markup}


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


def run_on_embedded_defaults(script: str, tmp_path: Path, **env: str) -> dict:
    """`script` in a Python of its own on the embedded defaults (SQLite, the file broker);
    its last line of output, as JSON."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
            "CANASTA_VAR_DIR": str(tmp_path / "var"),
            **env,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_the_embedded_defaults(tmp_path):
    embedded = run_on_embedded_defaults(EMBEDDED, tmp_path, PORT="8124")

    assert embedded["options"]["transaction_mode"] == "IMMEDIATE"
    assert embedded["options"]["timeout"] >= 20
    assert embedded["journal"] == "wal"
    assert embedded["broker"]["polling_interval"] <= 0.1
    assert embedded["sweep_expiry"]["expire_seconds"] >= 5
    assert embedded["site_url"] == "http://127.0.0.1:8124"


# The written-out game-and-seats queries (one game, and the sweep's several), the move write and
# the club clock have a SQLite form besides the PostgreSQL one the rest of the suite runs on; so
# have the player card's two written-out reads, run once the game is over.
PLAY = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from rest_framework.test import APIClient
from accounts.models import User
from games import selectors, services

users = [User.objects.create(username=f"embedded{seat}") for seat in range(4)]
clients = []
for user in users:
    client = APIClient()
    client.force_authenticate(user)
    clients.append(client)
game = services.open_table(user=users[0], mode="async", length="deal", rules={}, private=False)
for seat in (1, 2, 3):
    services.join_table(game_id=game.pk, user=users[seat], seat=seat)
statuses = []
for _ in range(40):
    turn = clients[0].get(f"/api/games/{game.pk}/").json()["turn_seat"]
    body = clients[turn].get(f"/api/games/{game.pk}/").json()
    action = body["legal_actions"][0]
    response = clients[turn].post(
        f"/api/games/{game.pk}/moves/",
        {"version": body["version"], "action": action},
        format="json",
    )
    statuses.append(response.status_code)
read = selectors.game_with_seats(game_id=game.pk)
from datetime import timedelta
from club import clock
from games.services import timeouts
clock.advance(timedelta(hours=25))
swept = timeouts.sweep()
from django.db import transaction
from moderation.selectors import report_targets
with transaction.atomic():  # seat 1 walks out: team 0 wins, counted on the players' records
    services.finish_game_abandoned(locked=services.lock_game(game_id=game.pk), seat=1)
users[0].refresh_from_db()
record = selectors.player_record(user=users[0], recent_games=5)
targets = report_targets(reporter=users[0], accused=users[1], limit=5)
print(json.dumps({
    "stats": record.stats,
    "recent": [
        [row["id"] == game.pk, row["won"], len(row["players"])] for row in record.recent_games
    ],
    "shared": [target.pk == game.pk for target in targets.games],
    "swept": swept,
    "statuses": sorted(set(statuses)),
    "version": read.game.version,
    "seats": [[seat.seat, seat.user.username, seat.last_seen_at.tzinfo is not None]
              for seat in read.seats],
    "db_now_aware": read.now.tzinfo is not None,
}))
"""


def test_a_game_plays_on_the_embedded_sqlite_database(tmp_path):
    played = run_on_embedded_defaults(PLAY, tmp_path)

    assert played["statuses"] == [200]
    assert played["version"] == 40
    assert played["seats"] == [[seat, f"embedded{seat}", True] for seat in range(4)]
    assert played["db_now_aware"]
    assert played["swept"] == 1
    assert played["stats"] == {"played": 1, "won": 1, "abandoned": 0}
    assert played["recent"] == [[True, True, 4]]
    assert played["shared"] == [True]


SECRET = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({"secret_key": settings.SECRET_KEY}))
"""


def test_the_embedded_default_makes_and_keeps_its_own_secret_key(tmp_path):
    # Issue #11 finding 11: the fallback was a public key from the source.
    first = run_on_embedded_defaults(SECRET, tmp_path)["secret_key"]
    second = run_on_embedded_defaults(SECRET, tmp_path)["secret_key"]

    assert first == second
    assert len(first) >= 50 and "insecure" not in first
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0
    assert run_on_embedded_defaults(SECRET, tmp_path / "other")["secret_key"] != first


def test_a_deployment_without_a_secret_key_refuses_to_start(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", SECRET],
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/canasta",
            "CANASTA_VAR_DIR": str(tmp_path / "var"),
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
    )

    assert out.returncode != 0
    assert "SECRET_KEY is not set" in out.stderr
    assert not (tmp_path / "var" / "secret_key").exists()
