"""In the browser (#19, points 1, 2, 7, 8): the table played on one screen.

- Mid-game with a full hand and four or more melds a team, at four and six seats, at 390×844
  and 1440×900: every hand card, the five buttons, the pile and the turn clock are inside the
  viewport without scrolling; a meld shows its cards (fanned; spread on demand).
- No dead end without words: «Выложить» waits for the engine's yes, each disabled button says
  why (the engine's words), the opening progress in numbers with the way out, one selected wild
  says which meld to tap.
- Real card faces and a bot badge without emoji.
- The hand as players handle it: dragged (mouse and touch) or moved with Alt+arrow, the order
  kept across a reload; the keyboard focus stays in the hand after a move; the confirm step
  before a discard (a profile setting, correspondence games).

Screenshots of each state (the screen as the player sees it) in var/test-artifacts/look/.
"""

import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from games.engine import Deal, Match, Rules
from games.models import Game
from tests.engine.decks import build_deck
from tests.factories import UserFactory, stack_deal, started_game
from tests.web.browser.conftest import LOOK, Players, horizontal_overflow, serious_violations
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FIVE_BUTTONS = ("draw", "take_pile", "meld", "undo", "discard")
# Melds a team, as (rank, naturals, wilds): a natural canasta, a mixed one, and melds short of
# seven, so every team shows five or six melds.
MELDS = [
    [("A", 7, 0), ("K", 5, 1), ("Q", 4, 0), ("9", 3, 1), ("7", 6, 0), ("4", 3, 0)],
    [("J", 5, 2), ("T", 4, 0), ("8", 3, 0), ("6", 5, 1), ("5", 3, 0)],
    [("K", 4, 0), ("Q", 5, 2), ("9", 3, 0), ("6", 3, 1), ("5", 4, 0)],
]
WILDS = ["2C", "2D", "2H", "2S", "JK"]


def look(page: Page, name: str) -> None:
    """The screen as the player sees it (not the whole page): what fits without scrolling."""
    LOOK.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(LOOK / f"{name}.png"))


def crowded_table(game: Game) -> int:
    """The game's deal rewritten to mid-game: every team opened with the melds of MELDS (cards
    taken from the stock), a pile of five, a joker in the hand of the seat to move; returns
    that seat."""
    match = Match.from_dict(game.state or {})
    data = match.deal.to_dict()
    stock = [data["stock"][i : i + 2] for i in range(0, len(data["stock"]), 2)]

    def taken(card: str) -> str:
        if card in stock:
            stock.remove(card)
        return card

    suits = "SHDC" * 3
    for team in range(len(data["melds"])):
        melds = []
        for number, (rank, naturals, wilds) in enumerate(MELDS[team]):
            cards = [taken(rank + suits[i]) for i in range(naturals)]
            cards += [taken(WILDS[(number + i) % len(WILDS)]) for i in range(wilds)]
            melds.append([rank, "".join(cards)])
        data["melds"][team] = melds
        data["opened"][team] = True
    turn = data["turn"]
    hand = [data["hands"][turn][i : i + 2] for i in range(0, len(data["hands"][turn]), 2)]
    hand[0] = taken("JK")
    data["hands"][turn] = "".join(hand)
    data["pile"] = "".join(taken(card) for card in ["7H", "8C", "9D", "TS", "QH"])
    data["stock"] = "".join(stock)
    match.deal = Deal.from_dict(data)
    Game.objects.filter(pk=game.pk).update(state=match.to_dict())
    return int(turn)


def box_of(page: Page, locator: Any) -> dict[str, float]:
    """An element's box (looked at again should a live refresh swap the table in right then)."""
    for _ in range(20):
        box = locator.bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(100)
    raise AssertionError("not shown")


def outside_the_screen(page: Page) -> list[str]:
    """The hand's cards, the five buttons, the pile and the turn clock not wholly inside the
    viewport as the page opens (no scrolling)."""
    return list(
        page.evaluate(
            """(buttons) => {
              const button = (kind) =>
                document.querySelector(`[data-actions] [data-action="${kind}"]`);
              const wanted = [...document.querySelectorAll("[data-hand] [data-card]"),
                ...buttons.map(button), document.querySelector("[data-pile]"),
                document.querySelector("[data-turn-clock]")];
              const out = [];
              if (window.scrollY !== 0) out.push(`scrolled ${window.scrollY}`);
              for (const el of wanted) {
                if (!el) { out.push("missing"); continue; }
                const box = el.getBoundingClientRect();
                if (box.width === 0 || box.left < 0 || box.top < 0 || box.right > innerWidth
                    || box.bottom > innerHeight)
                  out.push(`${el.dataset.card || el.dataset.action || el.className}`
                    + ` ${JSON.stringify(box)}`);
              }
              return out;
            }""",
            list(FIVE_BUTTONS),
        )
    )


@pytest.mark.parametrize(
    ("players_at_table", "teams"), [(4, 2), (6, 3), (6, 2)], ids=["4x2", "6x3", "6x2"]
)
def test_a_turn_fits_one_screen_mid_game_at_every_table_size(
    players: Players, players_at_table: int, teams: int
) -> None:
    seated = UserFactory.create_batch(players_at_table)
    rules = {"players": players_at_table, "teams": teams}
    game = started_game(players=seated, rules=rules)
    seat = crowded_table(game)
    hand_size = Rules(players=players_at_table, teams=teams).hand_size
    assert hand_size >= 9
    for width, height in ((390, 844), (1440, 900)):
        page = players.new_page(width=width, height=height)
        log_in(page, seated[seat])
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("[data-game]")).to_have_attribute("data-your-turn", "true")
        expect(page.locator("[data-hand] [data-card]")).to_have_count(hand_size)
        for team in range(teams):
            assert page.locator(f'[data-meld][data-team="{team}"]').count() >= 4
        assert outside_the_screen(page) == []
        assert horizontal_overflow(page) == 0
        look(page, f"one-screen-{players_at_table}x{teams}-{width}")
        # A meld shows its cards, fanned (issue 35); a tap on its head spreads them, another
        # fans them again.
        meld = page.locator('[data-meld="A"][data-team="0"]')
        toggle = meld.locator("[data-meld-toggle]")
        expect(meld.locator("[data-card] img")).to_have_count(7)
        fanned = box_of(page, meld)
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        spread = box_of(page, meld)
        assert fanned and spread and spread["width"] > fanned["width"]
        assert serious_violations(page) == []
        look(page, f"one-screen-{players_at_table}x{teams}-{width}-meld-open")
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "false")
        # The joker and the other cards are drawn as real faces, loaded, named for readers.
        joker = page.locator('[data-hand] [data-card="JK"] img').first
        expect(joker).to_have_attribute("alt", "джокер")
        assert page.evaluate(
            "(img) => img.complete && img.naturalWidth > 0", joker.element_handle()
        )


# Seat 0 moves first (dealer 3): kings, fives and a wild; the stock's first card is a jack.
OPENING = build_deck(
    dealer=3,
    hands={0: ["KS", "KH", "KD", "5S", "5H", "5D", "2C", "9H", "8D", "7C", "6S"]},
    upcards=["4C"],
    stock=["JH"],
)


def why_of(page: Page, kind: str) -> str:
    """What a tap on the disabled button shows (again if a live refresh swapped the table in
    between)."""
    button = page.locator(f'[data-actions] [data-action="{kind}"]')
    expect(button).to_be_disabled()
    for _ in range(5):
        expect(button).to_be_visible()  # a live refresh may be swapping the table right now
        try:
            button.click(force=True, timeout=2000)  # the mouse presses it, as a person would
        except PlaywrightError:  # swapped out between the look and the press: look again
            continue
        shown = page.locator("[data-why-line]").inner_text()
        if shown:
            return shown
        page.wait_for_timeout(200)
    return ""


def test_no_dead_end_the_opening_in_numbers_every_refusal_in_the_engines_words(
    players: Players,
) -> None:
    seated = UserFactory.create_batch(4)
    game = stack_deal(game=started_game(players=seated), deck=OPENING, dealer=3)
    phone = players.new_page(width=390, height=844)
    desk = players.new_page()
    log_in(phone, seated[0])
    log_in(desk, seated[2])
    for page in (phone, desk):
        page.goto(f"/games/{game.pk}/")
    # Not your turn: every button says so, pointed at or tapped.
    for kind in FIVE_BUTTONS:
        assert "Сейчас не ваш ход." in why_of(desk, kind)
    expect(desk.locator('[data-action="draw"]')).to_have_attribute("title", "Сейчас не ваш ход.")
    look(desk, "dead-end-not-your-turn-1440")
    # The draw phase: melding and discarding wait for the draw, in the engine's words.
    assert "Сначала возьмите карту." in why_of(phone, "discard")
    phone.get_by_role("button", name="Взять из колоды", exact=True).click()
    expect(phone.locator("[data-game]")).to_have_attribute("data-phase", "play")
    # «Выложить» waits for the engine's yes: two kings are not a meld, three are.
    meld = phone.get_by_role("button", name="Выложить", exact=True)
    for code in ("KS", "KH"):
        phone.locator(f'[data-hand] [data-card="{code}"]').click()
    expect(phone.locator("[data-preview]")).to_contain_text("Нельзя")
    expect(meld).to_be_disabled()
    assert "не меньше трёх" in why_of(phone, "meld")
    phone.locator('[data-hand] [data-card="KD"]').click()
    expect(meld).to_be_enabled()
    meld.click()
    expect(phone.locator('[data-meld="K"][data-team="0"]')).to_have_count(1)
    expect(phone.locator("[data-opening]")).to_contain_text("30 из 50")
    for code in ("5S", "5H", "5D"):
        phone.locator(f'[data-hand] [data-card="{code}"]').click()
    expect(phone.locator("[data-preview]")).to_contain_text("45 очков к минимуму 50")
    meld.click()
    expect(phone.locator('[data-meld="5"][data-team="0"]')).to_have_count(1)
    # 45 of 50: the numbers, the ways on, and «Сбросить» says why it waits.
    opening = phone.locator("[data-opening]")
    expect(opening).to_have_attribute("data-opening", "45/50")
    expect(opening).to_contain_text("45 из 50")
    expect(opening).to_contain_text("«Вернуть как было»")
    expect(phone.locator("[data-opening-progress]")).to_have_text("45 из 50")
    why = why_of(phone, "discard")
    assert "45" in why and "50" in why and "Вернуть как было" in why
    phone.locator('[data-hand] [data-card="9H"]').click()
    discard = phone.get_by_role("button", name="Сбросить", exact=True)
    expect(discard).to_have_attribute("title", re.compile("Сбросить нельзя: .*45 очков"))
    expect(discard).to_be_disabled()
    assert horizontal_overflow(phone) == 0
    assert serious_violations(phone) == []
    look(phone, "dead-end-45-of-50-390")
    phone.locator('[data-hand] [data-card="9H"]').click()  # deselected
    expect(phone.locator("[data-preview]")).to_be_empty()
    # One wild: which meld to tap, the meld lit; a tap lays it there and opens the team.
    phone.locator('[data-hand] [data-card="2C"]').click()
    expect(phone.locator("[data-preview]")).to_contain_text("Нажмите на комбинацию")
    target = phone.locator('[data-meld="K"][data-team="0"]')
    expect(target).to_have_class(re.compile("meld--can-join"))
    look(phone, "dead-end-wild-390")
    target.click()
    expect(target).to_have_attribute("data-count", "4")
    expect(phone.locator("[data-opening]")).to_have_count(0)
    phone.locator('[data-hand] [data-card="9H"]').click()
    expect(phone.locator("[data-preview]")).to_contain_text("Эту карту можно сбросить")
    phone.get_by_role("button", name="Сбросить", exact=True).click()
    expect(desk.locator("[data-pile] [data-card]")).to_have_attribute("data-card", "9H")
    expect(desk.locator("[data-game]")).to_have_attribute("data-your-turn", "false")


def test_the_english_page_says_the_same_in_english(players: Players) -> None:
    seated = [UserFactory.create(language="en") for _ in range(4)]
    game = stack_deal(game=started_game(players=seated), deck=OPENING, dealer=3)
    page = players.new_page(width=390, height=844)
    log_in(page, seated[0])
    page.goto(f"/games/{game.pk}/")
    assert "Draw before you discard." in why_of(page, "discard")
    page.get_by_role("button", name="Draw", exact=True).click()
    expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")
    for code in ("KS", "KH", "KD"):
        page.locator(f'[data-hand] [data-card="{code}"]').click()
    page.get_by_role("button", name="Meld", exact=True).click()
    expect(page.locator("[data-opening]")).to_contain_text("30 of 50")
    expect(page.locator("[data-opening]")).to_contain_text("“Undo”")
    look(page, "dead-end-30-of-50-390-en")


def hand_order(page: Page) -> list[str]:
    return [
        str(code)
        for code in page.locator("[data-hand] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)"
        )
    ]


def drag_by_touch(page: Page, code: str, to_code: str) -> None:
    """A finger drags the card `code` leftwards onto the right of `to_code`'s visible edge
    (pointer events, as a touch screen sends them)."""
    page.evaluate(
        """([code, to]) => {
          const card = document.querySelector(`[data-hand] [data-card="${code}"]`);
          const target = document.querySelector(`[data-hand] [data-card="${to}"]`)
            .getBoundingClientRect();
          const start = card.getBoundingClientRect();
          const at = (x, y, type) => card.dispatchEvent(new PointerEvent(type, {
            bubbles: true, pointerId: 7, pointerType: "touch", isPrimary: true,
            clientX: x, clientY: y}));
          const y = start.top + start.height / 2;
          at(start.left + 10, y, "pointerdown");
          for (let x = start.left + 10; x >= target.left + 20; x -= 8) at(x, y, "pointermove");
          at(target.left + 20, y, "pointerup");
        }""",
        [code, to_code],
    )


def test_the_hand_is_dragged_moved_by_keyboard_kept_and_a_discard_confirmed(
    players: Players,
) -> None:
    seated = UserFactory.create_batch(4)
    seated[0].confirm_discard = True
    seated[0].save(update_fields=["confirm_discard"])
    game = stack_deal(game=started_game(players=seated), deck=OPENING, dealer=3)
    assert game.mode == Game.Mode.ASYNC
    phone = players.new_page(width=390, height=844)
    log_in(phone, seated[0])
    # The live stream's first refresh swaps the table in: the drag starts after it.
    with phone.expect_response(re.compile(r"/games/\d+/table/")):
        phone.goto(f"/games/{game.pk}/")
    phone.wait_for_timeout(300)
    first = hand_order(phone)
    # The mouse drags the first card onto the right of the third's visible edge: it goes there.
    card = phone.locator(f'[data-hand] [data-card="{first[0]}"]').first
    third = phone.locator(f'[data-hand] [data-card="{first[2]}"]').first
    start, end = card.bounding_box(), third.bounding_box()
    assert start is not None and end is not None
    phone.mouse.move(start["x"] + 8, start["y"] + 30)
    phone.mouse.down()
    phone.mouse.move(end["x"] + 20, end["y"] + 30, steps=12)
    phone.mouse.up()
    moved = hand_order(phone)
    assert moved.index(first[0]) == 2 and sorted(moved) == sorted(first)
    # A finger drags the last card onto the second.
    drag_by_touch(phone, moved[-1], moved[1])
    touched = hand_order(phone)
    assert touched.index(moved[-1]) in (1, 2) and sorted(touched) == sorted(first)
    expect(phone.locator('[data-hand] [aria-pressed="true"]')).to_have_count(0)  # not selected
    # The keyboard: Alt+→ moves the focused card one place, the focus stays on it.
    phone.locator("[data-hand] [data-card]").first.focus()
    code = hand_order(phone)[0]
    phone.keyboard.press("Alt+ArrowRight")
    assert hand_order(phone)[1] == code
    assert phone.evaluate("() => document.activeElement.dataset.card") == code
    kept = hand_order(phone)
    phone.reload()
    assert hand_order(phone) == kept
    look(phone, "hand-dragged-390")
    # A move made from the keyboard leaves the focus in the hand, not on <body>.
    phone.get_by_role("button", name="Взять из колоды", exact=True).focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("[data-game]")).to_have_attribute("data-phase", "play")
    expect(phone.locator("[data-hand] [data-card]")).to_have_count(12)
    assert phone.evaluate("() => !!document.activeElement.closest('[data-hand]')")
    assert hand_order(phone)[:11] == kept  # the drawn card comes in on the right
    # The confirm step: «Сбросить» asks once more; «Отмена» keeps the card, «Да» discards it.
    phone.keyboard.press("Space")  # selects the focused card
    chosen = str(phone.evaluate("() => document.activeElement.dataset.card"))
    discard = phone.get_by_role("button", name="Сбросить", exact=True)
    expect(discard).to_be_enabled()
    discard.click()
    confirm = phone.locator("[data-confirm-discard]")
    expect(confirm).to_be_visible()
    look(phone, "hand-confirm-discard-390")
    assert serious_violations(phone) == []
    phone.get_by_role("button", name="Отмена").click()
    expect(confirm).to_be_hidden()
    expect(phone.locator("[data-game]")).to_have_attribute("data-version", "1")
    discard.click()
    phone.get_by_role("button", name="Да, сбросить").click()
    expect(phone.locator("[data-game]")).to_have_attribute("data-version", "2")
    expect(phone.locator("[data-pile] [data-card]")).to_have_attribute("data-card", chosen)
    assert phone.evaluate("() => !!document.activeElement.closest('[data-hand]')")


def test_a_bot_is_badged_in_words_and_no_emoji_is_drawn(players: Players) -> None:
    seated = [*UserFactory.create_batch(3), UserFactory.create(bot_level="club")]
    game = started_game(players=seated)
    crowded_table(game)
    page = players.new_page(width=390, height=844)
    log_in(page, seated[0])
    page.goto(f"/games/{game.pk}/")
    badge = page.locator('[data-seat="3"] .bot-badge')
    expect(badge).to_have_text("бот")
    text: Any = page.evaluate("() => document.body.innerText")
    assert not re.search("[\U0001f000-\U0001faff]", text), "an emoji on the table"
    look(page, "bot-badge-390")
