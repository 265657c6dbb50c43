"""Staff see tournaments and entries in the admin, read-only."""

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.conftest import enter, open_tournament, start

pytestmark = pytest.mark.django_db


def test_staff_look_through_tournaments_and_entries() -> None:
    tournament = open_tournament(name="Кубок для персонала")
    [entry, *_others] = enter(tournament, 2)
    start(tournament)
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    listed = client.get("/admin/tournaments/tournament/")
    assert listed.status_code == 200 and "Кубок для персонала" in listed.content.decode()
    page = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200 and "Round" in page.content.decode()
    assert client.get(f"/admin/tournaments/entry/{entry.pk}/change/").status_code == 200
    assert client.get("/admin/tournaments/tournament/add/").status_code == 403
