"""In the browser (issue 24), at 390 and 1440 px: a Samba table with a samba (a run of seven), a
shorter run and groups, the runs drawn low to high with their marks; the pile taken onto the
meld the player picks, by taps; the lobby's links to Samba and Bolivia on the rules page. No
sideways scroll, nothing serious for axe. Screenshots in var/test-artifacts/look/."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.models import Game
from tests.factories import UserFactory, started_game
from tests.games.playing import fix_shuffles
from tests.web.browser.conftest import LOOK, Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in
from tests.web.test_samba_pages import top_card_joins_two_melds

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_samba_table_draws_runs_on_a_phone_and_a_desktop(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated, rules={"game": "samba"})
    state = game.state
    assert state is not None
    deal = state["deal"]
    deal["melds"][0] = [
        ["H0", "4H5H6H7H8H9HTH"],
        ["K1", "KSKHKD2C"],
        ["S2", "9STSJS"],
    ]
    deal["melds"][1] = [["Q0", "QSQHQDQCQSQHJK"]]
    deal["opened"] = [True, True]
    Game.objects.filter(pk=game.pk).update(state=state)
    for width, height in ((390, 844), (1440, 900)):
        page = players.new_page(width=width, height=height)
        log_in(page, seated[0])
        page.goto(f"/games/{game.pk}/")
        expect(page.locator('[data-kind="sequence"]')).to_have_count(2)
        expect(page.locator('[data-canasta="samba"]')).to_have_count(1)
        assert horizontal_overflow(page) == 0
        assert serious_violations(page) == []
        shoot(page, f"table-samba-{width}")


def test_the_pile_is_taken_onto_the_chosen_meld_by_taps(players: Players) -> None:
    for width, height in ((390, 844), (1440, 900)):
        seated = UserFactory.create_batch(4)
        game = top_card_joins_two_melds(started_game(players=seated, rules={"game": "samba"}))
        page = players.new_page(width=width, height=height)
        log_in(page, seated[0])
        page.goto(f"/games/{game.pk}/")
        expect(page.locator('[data-game-rules="samba"]')).to_have_attribute("href", "/rules/#samba")
        held = page.locator("[data-hand] [data-card]").count()
        offered = page.locator(".meld--takes-top")
        expect(offered).to_have_count(2)
        assert horizontal_overflow(page) == 0
        assert serious_violations(page) == []
        shoot(page, f"table-samba-take-offered-{width}")
        # «Взять стопку» alone cannot know which meld: the page asks, pointing at both.
        page.get_by_role("button", name="Взять стопку", exact=True).click()
        expect(page.locator("[data-preview]")).to_contain_text("нажмите «Взять стопку сюда»")
        expect(page.locator(".meld--choose")).to_have_count(2)
        shoot(page, f"table-samba-take-choose-{width}")
        run = page.locator('[data-meld-index="1"][data-kind="sequence"]')
        # The meld's chip still shows its cards (to look before taking): nothing is played.
        run.locator("[data-meld-toggle]").click()
        expect(run).to_have_class(re.compile("meld--open"))
        expect(page.locator("[data-game]")).to_have_attribute("data-phase", "draw")
        run.get_by_role("button", name=re.compile("Взять стопку сюда")).click()
        expect(page.locator('[data-meld-index="1"]')).to_have_attribute("data-count", "4")
        expect(page.locator('[data-meld-index="0"]')).to_have_attribute("data-count", "3")
        expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")
        # The pile's other two cards (5♦, 9♥) went to the hand.
        expect(page.locator("[data-hand] [data-card]")).to_have_count(held + 2)
        expect(page.locator(".meld--takes-top")).to_have_count(0)
        assert serious_violations(page) == []
        shoot(page, f"table-samba-take-done-{width}")


def test_with_one_meld_to_take_it_onto_the_pile_button_takes_it(players: Players) -> None:
    seated = UserFactory.create_batch(4)
    game = top_card_joins_two_melds(started_game(players=seated, rules={"game": "samba"}))
    state = game.state
    assert state is not None
    state["deal"]["melds"][0] = [["S0", "8S9STS"], ["K1", "KSKHKD"]]  # the sevens gone
    Game.objects.filter(pk=game.pk).update(state=state)
    page = players.new_page(width=390, height=844)
    log_in(page, seated[0])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".meld--takes-top")).to_have_count(1)
    page.get_by_role("button", name="Взять стопку", exact=True).click()
    expect(page.locator('[data-meld-index="0"]')).to_have_attribute("data-count", "4")
    expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")


# Every rule of the engine's digests (games/engine/README.md) has its paragraph.
DIGESTS = (Path(settings.BASE_DIR) / "games" / "engine" / "README.md").read_text()
SAMBA_RULES = re.findall(r"\*\*(R-SAMBA-[A-Z]+)\*\*", DIGESTS)
BOLIVIA_RULES = re.findall(r"\*\*(R-BOL-[A-Z]+)\*\*", DIGESTS)


def test_the_lobby_leads_to_samba_and_bolivia_on_the_rules_page(players: Players) -> None:
    assert len(SAMBA_RULES) == 14 and len(BOLIVIA_RULES) == 8
    user = UserFactory.create()
    for width, height in ((390, 844), (1440, 900)):
        page = players.new_page(width=width, height=height)
        log_in(page, user)
        for game, name, rules in (
            ("samba", "Правила самбы", SAMBA_RULES),
            ("bolivia", "Правила боливии", BOLIVIA_RULES),
        ):
            page.goto("/")
            page.get_by_role("link", name=name).click()
            page.wait_for_url(f"**/rules/#{game}")
            expect(page.locator(f"h2#{game}")).to_be_in_viewport()
            for rule in rules:
                expect(page.locator(f'[id="{rule}"] a.rule-id')).to_have_attribute(
                    "href", f"#{rule}"
                )
        assert horizontal_overflow(page) == 0
        assert serious_violations(page) == []
        for game in ("samba", "bolivia"):  # the sections alone: the whole page is too tall
            section = page.locator(f'section[aria-labelledby="{game}"]')
            section.screenshot(path=str(LOOK / f"rules-{game}-{width}.png"))
        page.goto("/")
        assert serious_violations(page) == []
