"""Four people sign up, open and join a live table and play a whole single deal in the browser:
a refused move, a meld and its undo, a meld that opens with a natural canasta, a pile take and
going out; each move shows on the other pages within a second; no response to a player carries
another seat's cards; a phone-sized page never scrolls sideways; axe finds nothing serious."""

import functools
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, expect

from games.models import Game
from tests.engine.decks import build_deck
from tests.factories import stack_deal
from tests.web.browser.conftest import LOOK, Players, horizontal_overflow, serious_violations, shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "queen-of-spades-7"
KINGS = ["KS", "KH", "KD", "KC"] * 2
# Dealer 3, so seat 0 plays first. Seat 0 holds all eight kings and three fives; seat 2 (its
# partner) a pair of sevens for seat 1's discarded seven; the stock's first four cards are the
# four draws of the deal.
DECK = build_deck(
    dealer=3,
    hands={0: [*KINGS, "5S", "5H", "5D"], 1: ["7C"], 2: ["7D", "7H"]},
    upcards=["6H"],
    stock=["9S", "8S", "8D", "QD"],
)
KING_MARKS = re.compile(r'data-card="K[SHDC]"|K[♠♥♦♣]')


def sign_up(page: Page, name: str) -> None:
    page.goto("/signup/")
    page.fill("[name=username]", name)
    page.fill("[name=email]", f"{name}@example.com")
    page.fill("[name=password]", PASSWORD)
    page.get_by_role("button", name="Зарегистрироваться").click()
    page.wait_for_url("**/")


def select(page: Page, *codes: str) -> None:
    for code in codes:
        page.locator(f'[data-hand] [data-card="{code}"][aria-pressed="false"]').first.click()


def version_of(page: Page) -> int:
    return int(page.locator("[data-game]").get_attribute("data-version") or -1)


def press(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def play(page: Page, name: str, others: list[Page], seconds: list[float]) -> None:
    """Press the button; once the mover's page shows the move (it is committed), time how long
    until the other three pages show it too."""
    before = version_of(page)
    press(page, name)
    expect(page.locator("[data-game]")).to_have_attribute(
        "data-version", str(before + 1), timeout=5000
    )
    committed = time.monotonic()
    for other in others:
        expect(other.locator("[data-game]")).to_have_attribute(
            "data-version", str(before + 1), timeout=3000
        )
    seconds.append(time.monotonic() - committed)


def test_four_players_play_a_whole_deal_through_the_pages(players: Players) -> None:
    # Seat 1 plays on a phone-sized page the whole deal.
    pages = [players.new_page(), players.new_page(width=390, height=844)] + [
        players.new_page() for _ in range(2)
    ]
    for index, page in enumerate(pages):
        sign_up(page, f"player{index}")
    anna, boris, vera, gleb = pages
    assert horizontal_overflow(boris) == 0
    assert serious_violations(anna) == []  # the lobby
    shoot(anna, "lobby-1440")
    shoot(boris, "lobby-390")

    anna.check("input[name=mode][value=live]")
    anna.check("input[name=length][value=deal]")
    anna.get_by_role("button", name="Открыть стол").click()
    anna.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(anna.url.rstrip("/").rsplit("/", 1)[1])
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(f"/games/{game_id}/")
        # The join's answer is a page at the same address: wait for that navigation itself.
        with page.expect_navigation():
            page.get_by_role("button", name=f"Сесть на место {seat + 1}").click()
    shoot(gleb, "table-1440-joined")
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ACTIVE
    stack_deal(game=game, deck=DECK, dealer=3)

    # From here on, record every answer the other three get: none may show a king, all of
    # which are in seat 0's hand until it melds them.
    seen: dict[int, list[str]] = {1: [], 2: [], 3: []}

    def record(seat: int, response: Response) -> None:
        if "/events/" not in response.url and response.status < 300:
            seen[seat].append(response.text())

    for seat in seen:
        pages[seat].on("response", functools.partial(record, seat))
    for page in pages:
        page.goto(f"/games/{game_id}/")
        expect(page.locator("[data-game]")).to_have_attribute("data-version", "0")
    expect(anna.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
    expect(boris.locator("[data-game]")).to_have_attribute("data-your-turn", "false")
    lag: list[float] = []

    play(anna, "Взять из колоды", [boris, vera, gleb], lag)
    # Two fives are not a meld: the engine says so before anything is sent, and «Выложить»
    # stays disabled with its reason.
    select(anna, "5S", "5H")
    expect(anna.locator("[data-preview]")).to_contain_text("Нельзя")
    meld_button = anna.get_by_role("button", name="Выложить", exact=True)
    expect(meld_button).to_be_disabled()
    expect(meld_button).to_have_attribute("title", re.compile("не меньше трёх"))
    assert version_of(anna) == 1
    shoot(anna, "table-1440-refused")
    # Three fives are a new meld, short of the minimum; undo takes them back.
    select(anna, "5D")
    expect(anna.locator("[data-preview]")).to_contain_text("15 очков к минимуму 50")
    play(anna, "Выложить", [boris, vera, gleb], lag)
    expect(boris.locator('[data-meld="5"][data-team="0"]')).to_have_attribute("data-count", "3")
    play(anna, "Вернуть как было", [boris, vera, gleb], lag)
    expect(anna.locator('[data-meld="5"]')).to_have_count(0)
    expect(anna.locator("[data-hand] [data-card]")).to_have_count(12)
    assert all(seen.values())
    assert not any(KING_MARKS.search(body) for bodies in seen.values() for body in bodies), (
        "another seat's cards reached a player"
    )
    # Eight kings: the opening meld, a natural canasta.
    select(anna, *KINGS)
    expect(anna.locator("[data-preview]")).to_contain_text("80 очков к минимуму 50")
    play(anna, "Выложить", [boris, vera, gleb], lag)
    for page in pages:
        meld = page.locator('[data-meld="K"][data-team="0"]')
        expect(meld).to_have_attribute("data-canasta", "natural")
        expect(meld).to_have_attribute("data-count", "8")
        expect(meld).to_contain_text("★")
    select(anna, "9S")
    play(anna, "Сбросить", [boris, vera, gleb], lag)

    expect(boris.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
    assert horizontal_overflow(boris) == 0
    assert serious_violations(boris) == []  # the table, at 390 px
    shoot(boris, "table-390-midgame")
    play(boris, "Взять из колоды", [anna, vera, gleb], lag)
    select(boris, "7C")
    play(boris, "Сбросить", [anna, vera, gleb], lag)

    # Vera takes the pile with her pair of sevens.
    expect(vera.locator("[data-pile]")).to_have_attribute("data-count", "3")
    select(vera, "7D", "7H")
    expect(vera.locator("[data-preview]")).to_contain_text("семёрки")
    play(vera, "Взять стопку", [anna, boris, gleb], lag)
    expect(anna.locator('[data-meld="7"][data-team="0"]')).to_have_attribute("data-count", "3")
    expect(anna.locator("[data-pile]")).to_have_attribute("data-count", "0")
    vera.locator("[data-hand] [data-card]").first.click()
    play(vera, "Сбросить", [anna, boris, gleb], lag)

    play(gleb, "Взять из колоды", [anna, boris, vera], lag)
    gleb.locator("[data-hand] [data-card]").first.click()
    play(gleb, "Сбросить", [anna, boris, vera], lag)

    # Anna goes out: three fives, and the queen she drew is her last discard.
    play(anna, "Взять из колоды", [boris, vera, gleb], lag)
    shoot(anna, "table-1440-midgame")
    assert serious_violations(anna) == []  # the table
    select(anna, "5S", "5H", "5D")
    play(anna, "Выложить", [boris, vera, gleb], lag)
    select(anna, "QD")
    play(anna, "Сбросить", [boris, vera, gleb], lag)
    for page in pages:
        expect(page.locator("[data-game]")).to_have_attribute("data-phase", "over")
        expect(page.locator(".score-table")).to_be_visible()
    shoot(anna, "table-1440-over")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_team == 0
    assert max(lag) < 1.0, f"a move took {max(lag):.2f} s to reach the other pages"
    print(f"\nmove to the other pages: max {max(lag):.3f} s over {len(lag)} moves; looks in {LOOK}")
    assert Path(LOOK / "table-390-midgame.png").exists()
