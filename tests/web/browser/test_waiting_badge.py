"""The header's badge and the tab title on a live table page: the games waiting for the player's
move, this game's part following its turn as the fragments arrive (a fragment carries no count
of its own)."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.engine.decks import OPENER
from tests.factories import UserFactory, started_game
from tests.web.browser.conftest import Players
from tests.web.browser.test_moves_seen import draw_and_discard, logged_in, stacked

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_badge_and_the_title_follow_the_games_turn(players: Players) -> None:
    people = UserFactory.create_batch(4)
    game = stacked(started_game(players=people, mode=Game.Mode.LIVE), {0: OPENER})
    # Another game already waits for seat 1's player.
    other = started_game(players=[people[2], people[1], people[3], people[0]])
    Game.objects.filter(pk=other.pk).update(turn_seat=1)
    page = logged_in(players, people[1], width=390, height=844)
    page.goto(f"/games/{game.pk}/")
    badge = page.locator("[data-games-waiting]")
    expect(badge).to_have_attribute("data-games-waiting", "1")
    expect(page).to_have_title(re.compile(r"^\(1\) "))

    draw_and_discard(game, 0)
    expect(page.locator("[data-game]")).to_have_attribute("data-your-turn", "true", timeout=5000)
    expect(badge).to_have_attribute("data-games-waiting", "2")
    expect(badge).to_have_text("2")
    expect(page).to_have_title(re.compile(r"^\(2\) "))

    draw_and_discard(game, 1)
    expect(page.locator("[data-game]")).to_have_attribute("data-your-turn", "false", timeout=5000)
    expect(badge).to_have_attribute("data-games-waiting", "1")
    expect(page).to_have_title(re.compile(r"^\(1\) "))
