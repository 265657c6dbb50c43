"""Correspondence time off in the browser (issue 21): a vacation taken on the profile shows on
the table to the other players, and the table's pause is asked and accepted; screenshots at 390
and 1440 px, no sideways scroll on a phone."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory, started_game
from tests.web.browser.conftest import Players, horizontal_overflow, shoot
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_vacation_shows_on_the_table_and_a_pause_is_agreed(players: Players) -> None:
    people = UserFactory.create_batch(4)
    people[0].display_name = "Анна"
    people[0].save(update_fields=["display_name"])
    game = started_game(players=people)

    anna = players.new_page(width=390, height=844)
    log_in(anna, people[0])
    anna.goto("/profile/")
    anna.fill("#vacation-days", "5")
    anna.get_by_role("button", name="Уйти в отпуск").click()
    expect(anna.get_by_text("Вы в отпуске до")).to_be_visible()
    assert horizontal_overflow(anna) == 0
    shoot(anna, "profile-time-off-390")

    others = []
    for person in people[1:]:
        page = players.new_page()
        log_in(page, person)
        page.goto(f"/games/{game.pk}/")
        others.append(page)
    boris = others[0]
    expect(boris.locator(".seat .away-note")).to_contain_text("Анна в отпуске до")
    boris.get_by_text("Нужна пауза?").click()  # the ask is folded away until wanted
    boris.fill("#pause-days", "3")
    boris.get_by_role("button", name="Попросить паузу").click()
    expect(boris.get_by_text("Предложена пауза на 3")).to_be_visible()
    for page in [*others[1:], anna]:
        page.goto(f"/games/{game.pk}/")
        page.get_by_role("button", name="Согласиться на паузу").click()
    expect(anna.get_by_text("Пауза до").first).to_be_visible()
    # The dock's turn clock stands still and says until when (nothing for table.js to tick).
    turn_clock = anna.locator("[data-turn-clock]")
    expect(turn_clock).to_contain_text("Пауза до")
    assert turn_clock.get_attribute("data-deadline") is None
    assert horizontal_overflow(anna) == 0
    shoot(anna, "table-paused-390")
    boris.goto(f"/games/{game.pk}/")
    expect(boris.get_by_role("button", name="Продолжить игру")).to_be_visible()
    shoot(boris, "table-paused-1440")
