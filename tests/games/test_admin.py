"""Staff tools: games, their seats, deal results and move log, read-only in the admin."""

import pytest

from tests.factories import UserFactory
from tests.games.conftest import post_move

pytestmark = pytest.mark.django_db


def test_staff_see_a_game_with_its_log_but_cannot_edit_it(client, client_for, game, players):
    post_move(client_for(players[game.turn_seat]), game.pk, 0, {"type": "draw"})
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    listing = client.get("/admin/games/game/")
    assert listing.status_code == 200
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert str(players[0]) in html
    assert "draw" in html  # the move log inline
    assert 'name="_save"' not in html  # read-only: no save button
    assert client.get("/admin/games/game/add/").status_code == 403
    assert client.get("/admin/games/move/").status_code == 200
    assert client.post(f"/admin/games/game/{game.pk}/change/", {}).status_code == 403


def test_players_do_not_get_into_the_admin(client, players):
    client.force_login(players[0])
    assert client.get("/admin/games/game/").status_code == 302
