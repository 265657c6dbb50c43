"""The embedded default (SQLite, the file broker) plays a game: the written-out game-and-seats
query and the club clock have a SQLite form besides the PostgreSQL one the rest of the suite
runs on."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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
print(json.dumps({
    "statuses": sorted(set(statuses)),
    "version": read.version,
    "seats": [[seat.seat, seat.user.username, seat.last_seen_at.tzinfo is not None]
              for seat in read.seats.all()],
    "db_now_aware": read.db_now.tzinfo is not None,
}))
"""


def test_a_game_plays_on_the_embedded_sqlite_database(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "canasta_club.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "CANASTA_VAR_DIR": str(tmp_path / "var"),
    }
    out = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    played = json.loads(out.stdout.splitlines()[-1])

    assert played["statuses"] == [200]
    assert played["version"] == 40
    assert played["seats"] == [[seat, f"embedded{seat}", True] for seat in range(4)]
    assert played["db_now_aware"]
