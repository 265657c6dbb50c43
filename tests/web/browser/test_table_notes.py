"""In the browser (issue 35, after its review): what the table tells between turns, and the
finished table, at 390×844 and 1440×900 in Russian and English.

- After «Дальше» in a live break, who of the others is still reading (`[data-deal-waiting]`),
  until the next deal starts.
- On a phone the deal's score and the turns the club played for you are a sheet over the felt,
  docked on the dock (the table not pushed down, the hand not covered, the turn on one screen),
  with «Понятно» folding it, still folded after a reload; on a desktop, to the right.
- The finished table: every control at least 44 px one way and 24 px the other on a phone, the
  final score in the first screen with nothing over it.

Each state's screen is left in var/test-artifacts/look/notes-*.png.
"""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from club import clock
from games.models import Game, Seat
from games.services import timeouts
from tests.factories import started_game
from tests.games.test_rhythm import bots_play_round_to, end_the_deal
from tests.web.browser.conftest import LOOK, Players, small_targets
from tests.web.browser.test_rhythm import (
    SCREENS,
    TABLE_ASIDE,
    WORDS,
    alone_with_bots,
    button,
    button_boxes,
    clean,
    ended,
    opened,
    person,
    reloaded,
)
from tests.web.browser.test_table_on_a_phone import box_of, outside_the_screen

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTES_WORDS = {
    "ru": {"got_it": "Понятно", "show": "Показать"},
    "en": {"got_it": "Got it", "show": "Show"},
}


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


# ----------------------------------------------------------------------------- the finished table

RESULT_CONTROLS = ("[data-play-again]", "[data-lobby-link]", "[data-replay-link]")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_finished_table_on_a_phone_has_big_enough_targets_and_its_score_in_view(
    players: Players, language: str
) -> None:
    people = [person(language) for _ in range(4)]
    game = ended(people)
    for screen in SCREENS:
        page = opened(players, people[0], f"/games/{game.pk}/", screen)
        result = page.locator("[data-result]")
        expect(result).to_be_visible()
        for control in RESULT_CONTROLS:
            box = box_of(page, page.locator(control))
            assert max(box["width"], box["height"]) >= 44, (control, box)
            assert min(box["width"], box["height"]) >= 24, (control, box)
        if screen == "390":
            small = small_targets(page, within="[data-game]", aside=".move-list, .sr-only, p")
            assert small == [], "\n".join(small)
        # The final score is in the first screen, nothing over it.
        for cell in result.locator("[data-final-score], [data-final-player]").all():
            box = box_of(page, cell)
            assert box["y"] + box["height"] <= SCREENS[screen]["height"], box
            assert page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('[data-result]') !== null",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
        clean(page)
        look(page, f"over-{screen}-{language}")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        look(page, f"over-bottom-{screen}-{language}")
        page.close()


# ----------------------------------------------------------------------------- the notes' sheet


def felt_top(page: Page) -> float:
    return box_of(page, page.locator(".felt"))["y"]


def notes_lie_over_the_felt(page: Page, screen: str) -> None:
    """On a phone the notes are a sheet docked on the dock (nothing of the hand under it), the
    felt where it would be without them and the whole turn on the first screen; on a desktop
    they stand to the right of the felt."""
    notes = box_of(page, page.locator("[data-notes]"))
    felt = box_of(page, page.locator(".felt"))
    dock = box_of(page, page.locator("[data-dock]"))
    assert outside_the_screen(page) == []
    if screen == "390":
        small = small_targets(page, within="[data-game]", aside=TABLE_ASIDE)
        assert small == [], "\n".join(small)
        assert notes["y"] + notes["height"] <= dock["y"] + 1, (notes, dock)
        assert notes["y"] >= 100  # over the felt, the header and the table's title in view
        assert felt["y"] < 200  # the table is not pushed down
    else:
        assert notes["x"] >= felt["x"] + felt["width"], (notes, felt)
        assert notes["y"] + notes["height"] <= dock["y"]


def fold_and_reload(page: Page, name: str, words: dict[str, str]) -> None:
    """«Понятно» folds the notes to their bar, still folded after a reload; «Показать» back."""
    top, buttons = felt_top(page), button_boxes(page)
    button(page, words["got_it"]).click()
    expect(page.locator(".notes-body")).to_be_hidden()
    expect(button(page, words["show"])).to_be_visible()
    assert felt_top(page) == top  # folding moves nothing on the table
    assert button_boxes(page) == buttons
    assert outside_the_screen(page) == []
    look(page, f"{name}-folded")
    reloaded(page)
    expect(page.locator(".notes-body")).to_be_hidden()
    expect(page.locator("[data-notes-fold]")).to_have_attribute("aria-expanded", "false")
    button(page, words["show"]).click()
    expect(page.locator(".notes-body")).to_be_visible()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_deal_score_and_the_club_played_for_you_are_a_sheet_over_the_felt(
    players: Players, language: str
) -> None:
    words = {**WORDS[language], **NOTES_WORDS[language]}
    for screen in SCREENS:
        # The turns the club played for you, on your turn again.
        user = person(language)
        game = alone_with_bots(user)
        clock.advance(settings.TURN_LIMIT["live"] + timedelta(seconds=1))
        Seat.objects.filter(game=game, seat=0).update(last_seen_at=clock.now())
        timeouts.sweep()
        game = bots_play_round_to(Game.objects.get(pk=game.pk), 0)
        page = opened(players, user, f"/games/{game.pk}/", screen)
        expect(page.locator("[data-notes] [data-autoplayed]")).to_be_visible()
        expect(page.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
        notes_lie_over_the_felt(page, screen)
        clean(page)
        look(page, f"autoplayed-{screen}-{language}")
        fold_and_reload(page, f"autoplayed-{screen}-{language}", words)
        page.close()
        # The deal's score with «Дальше».
        game = end_the_deal(bots_play_round_to(Game.objects.get(pk=game.pk), 0))
        page = opened(players, user, f"/games/{game.pk}/", screen)
        expect(page.locator("[data-notes] [data-deal-summary]")).to_be_visible()
        notes_lie_over_the_felt(page, screen)
        clean(page)
        look(page, f"summary-{screen}-{language}")
        fold_and_reload(page, f"summary-{screen}-{language}", words)
        button(page, words["continue"]).click()
        expect(page.locator("[data-notes]")).to_have_count(0)
        page.close()
