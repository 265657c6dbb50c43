"""In the browser (#13): a four-handed table with «можно выходить?» — the asker asks, waits, the
partner (on a phone) answers «Да», the asker is told to go out; and the tables of two, three and
six at 390 and 1440 px: every seat's hand count, every team's melds and scores, no sideways
scroll, nothing serious for axe. Screenshots in var/test-artifacts/look/."""

import pytest
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Game
from tests.factories import UserFactory, started_game
from tests.games.playing import asking, fix_shuffles, play_until
from tests.web.browser.conftest import Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_partner_answers_the_question_from_a_phone(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated, mode=Game.Mode.LIVE, rules={"ask_partner_to_go_out": True})
    detail = play_until(game, seated, asking)
    asker_seat = detail["your_seat"]
    partner_seat = Rules.from_options(game.rules).seating.partners_of(asker_seat)[0]
    asker, partner = players.new_page(), players.new_page(width=390, height=844)
    log_in(asker, seated[asker_seat])
    log_in(partner, seated[partner_seat])
    for page in (asker, partner):
        page.goto(f"/games/{game.pk}/")
    expect(asker.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
    expect(partner.locator("[data-game]")).to_have_attribute("data-your-turn", "false")

    asker.get_by_role("button", name="Спросить партнёра: можно выходить?").click()
    expect(asker.locator("[data-question-waiting]")).to_be_visible()
    expect(asker.locator("[data-game]")).to_have_attribute("data-your-turn", "false")
    # The partner's page learns of the question by itself (events or polling).
    question = partner.locator('[data-question][data-answer="pending"]')
    expect(question).to_be_visible(timeout=5000)
    expect(partner.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
    assert horizontal_overflow(partner) == 0
    assert serious_violations(partner) == []
    shoot(partner, "question-partner-390")
    shoot(asker, "question-asker-1440")

    question.get_by_role("button", name="Да", exact=True).click()
    expect(partner.locator('[data-question][data-answer="yes"]')).to_be_visible()
    expect(asker.locator('[data-question][data-answer="yes"]')).to_be_visible(timeout=5000)
    expect(asker.locator("[data-question]")).to_contain_text("Выходите в этот ход.")
    expect(asker.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
    shoot(asker, "question-answered-1440")


@pytest.mark.parametrize(
    ("players_at_table", "teams"),
    [(6, 3), (6, 2), (3, 3), (2, 2)],
    ids=["6x3", "6x2", "3x3", "2x2"],
)
def test_every_table_size_fits_a_phone_and_a_desktop(
    players: Players, players_at_table: int, teams: int
) -> None:
    seated = UserFactory.create_batch(players_at_table)
    game = started_game(players=seated, rules={"players": players_at_table, "teams": teams})
    # A few moves, so melds and red threes may show; then the first seat's view.
    play_until(game, seated, lambda detail: detail["version"] >= 3 * players_at_table)
    for width, height in ((390, 844), (1440, 900)):
        page = players.new_page(width=width, height=height)
        log_in(page, seated[0])
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("[data-hand-count]")).to_have_count(players_at_table - 1)
        expect(page.locator("[data-team-area]")).to_have_count(teams)
        assert horizontal_overflow(page) == 0
        assert serious_violations(page) == []
        shoot(page, f"table-{players_at_table}x{teams}-{width}")
