"""In the browser (issue 35, after its review): what the table tells between turns, and the
finished table, at 390×844 and 1440×900 in Russian and English.

- After «Дальше» in a live break, who of the others is still reading (`[data-deal-waiting]`),
  until the next deal starts.

Each state's screen is left in var/test-artifacts/look/notes-*.png.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.factories import started_game
from tests.games.test_rhythm import end_the_deal
from tests.web.browser.conftest import LOOK, Players
from tests.web.browser.test_rhythm import SCREENS, WORDS, button, clean, opened, person

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def look(page: Page, name: str) -> None:
    """The screen as the player sees it, no scrolling: var/test-artifacts/look/notes-*.png."""
    LOOK.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(LOOK / f"notes-{name}.png"))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_after_continue_the_break_names_who_is_still_reading(
    players: Players, language: str
) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        people = [person(language, name) for name in ("Anna", "Boris", "Vera", "Gleb")]
        game = end_the_deal(started_game(players=people, mode="live", length="match"))
        page = opened(players, people[0], f"/games/{game.pk}/", screen)
        button(page, words["continue"]).click()
        waiting = page.locator("[data-deal-waiting]")
        expect(waiting).to_be_visible()
        expect(page.locator("[data-deal-summary]")).to_have_count(0)
        for name in ("Boris", "Vera", "Gleb"):
            expect(waiting.get_by_text(name, exact=True)).to_be_visible()
        expect(waiting.get_by_text("Anna", exact=True)).to_have_count(0)
        expect(waiting.locator("[data-break-clock]")).to_have_text(re.compile(r"^0:\d\d$"))
        clean(page)
        look(page, f"waiting-{screen}-{language}")
        # The others close it, one by one, in their own browsers: the names go, then the note.
        for seat in (1, 2, 3):
            other = opened(players, people[seat], f"/games/{game.pk}/", screen)
            button(other, words["continue"]).click()
            expect(other.locator("[data-deal-summary]")).to_have_count(0)
            if seat < 3:
                expect(waiting.get_by_text(people[seat].display_name, exact=True)).to_have_count(0)
            other.close()
        expect(page.locator("[data-deal-waiting]")).to_have_count(0)
        game.refresh_from_db()
        assert game.deal_break_until is None and game.status == Game.Status.ACTIVE
        page.close()
