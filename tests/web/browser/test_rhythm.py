"""In the browser (issue 35): the table's rhythm, each point at 390×844 and 1440×900, in Russian
and English.

1. One press to play with bots (the lobby; the welcome, through sign-up), the bots' level and
   the pace changed at the table; the open-table form's common choices first, the rest folded.
2. A score between deals (`[data-deal-summary]`) until «Дальше», what was unfolded kept open
   across refreshes and a reload.
3. The turns the club played for you (`[data-autoplayed]`) until your next move, with the first
   live timeout's ways on (the rest by correspondence if everyone agrees, a bot in your seat).
4. Melds as cards (`[data-meld] [data-card]`, wilds marked), a wild added by a tap and by a
   drag, a refusal said, the hand sorted by rank and by suit.
5. Targets: 44 px one way and 24 px the other, the five buttons 44 px tall, a hand card's strip
   ≥ 32 px up to 15 cards, the buttons still from the draw to the discard.
6. The end: `[data-result]` with «Победа» / «Поражение» / «Ничья», the score unobstructed,
   «Сыграть ещё» and the lobby.
7. English as a native writes it: no Cyrillic on an English page, bots "Club bot 1".
8. A desktop's table at 1440 px (the seats around it, each side's melds on its half, the hand
   unoverlapped, larger cards), the phone's unchanged; a correspondence deadline as a local
   day and time with its countdown.

Each state's screen (what fits without scrolling) is left in var/test-artifacts/look/rhythm-*.
"""

import itertools
import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from accounts.models import User
from club import clock
from games import services
from games.engine import Deal, Match
from games.models import Game, Seat
from games.services import timeouts
from tests.factories import DEFAULT_PASSWORD, UserFactory, started_game
from tests.games.test_rhythm import bots_play_round_to, end_the_deal, last_card_in_stock
from tests.timing.conftest import play_turn, turn_of
from tests.web.browser.conftest import (
    LOOK,
    Players,
    horizontal_overflow,
    serious_violations,
    small_targets,
)
from tests.web.browser.test_around_the_table import log_in
from tests.web.browser.test_table_on_a_phone import box_of, crowded_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENS = {"390": {"width": 390, "height": 844}, "1440": {"width": 1440, "height": 900}}
FIVE_BUTTONS = ("draw", "take_pile", "meld", "undo", "discard")
WORDS = {
    "ru": {
        "play": "Играть с ботами",
        "continue": "Дальше",
        "won": "Победа",
        "lost": "Поражение",
        "draw": "Ничья",
        "again": "Сыграть ещё",
        "bot": "Бот «клуб» 1",
        "expert": "Бот «мастер» 1",
        "draw_button": "Взять из колоды",
        "discard": "Сбросить",
        "sort_suit": "По масти",
        "sort_rank": "По достоинству",
        "to_async": "Предложить доиграть по дням",
        "agree": "Согласиться",
        "settings": "Настройки стола",
        "change": "Сменить",
        "by_post": "Играть по дням",
    },
    "en": {
        "play": "Play with bots",
        "continue": "Continue",
        "won": "You won",
        "lost": "You lost",
        "draw": "Draw",
        "again": "Play again",
        "bot": "Club bot 1",
        "expert": "Expert bot 1",
        "draw_button": "Draw",
        "discard": "Discard",
        "sort_suit": "Sort by suit",
        "sort_rank": "Sort by rank",
        "to_async": "Ask to play the rest by correspondence",
        "agree": "Agree",
        "settings": "Table settings",
        "change": "Change",
        "by_post": "Play by correspondence",
    },
}
CYRILLIC = re.compile("[А-Яа-яЁё]")


def look(page: Page, name: str) -> None:
    """The screen as the player sees it, no scrolling: var/test-artifacts/look/rhythm-*.png."""
    LOOK.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(LOOK / f"rhythm-{name}.png"))


def person(language: str, name: str = "") -> User:
    user = UserFactory.create(language=language, **({"display_name": name} if name else {}))
    assert isinstance(user, User)
    return user


FRAGMENT = re.compile(r"/games/\d+/table/")


def opened(players: Players, user: User, path: str, screen: str) -> Page:
    """The page of `path` for `user`; a table once its live stream's first refresh has swapped
    the table in (a press before it may land on the table being replaced)."""
    page = players.new_page(**SCREENS[screen])
    log_in(page, user)
    if path.startswith("/games/"):
        with page.expect_response(FRAGMENT):
            page.goto(path)
        page.wait_for_timeout(200)
    else:
        page.goto(path)
    return page


def reloaded(page: Page) -> None:
    with page.expect_response(FRAGMENT):
        page.reload()
    page.wait_for_timeout(200)


def button(page: Page, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def clean(page: Page) -> None:
    """Axe-clean, nothing sideways, and on an English page not a Cyrillic letter (but the
    language switch's «Русский»)."""
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    if page.evaluate("document.documentElement.lang") == "en":
        shown = page.evaluate(
            """() => { const copy = document.body.cloneNode(true);
              copy.querySelectorAll('[lang="ru"]').forEach((el) => el.remove());
              const named = [...copy.querySelectorAll('[title],[alt],[aria-label]')]
                .map((el) => [el.title, el.alt, el.getAttribute('aria-label')].join(' '));
              return copy.innerText + ' ' + named.join(' '); }"""
        )
        russian = CYRILLIC.search(shown)
        assert russian is None, shown[max(0, russian.start() - 60) : russian.start() + 60]


def alone_with_bots(user: User, *, to_move: bool = True) -> Game:
    """The one-press table, the bots having played round to the person when `to_move`."""
    game = services.play_with_bots(user=user)
    return bots_play_round_to(game, 0) if to_move else Game.objects.get(pk=game.pk)


# ----------------------------------------------------------------------------- 1. one press


@pytest.mark.parametrize("language", ["ru", "en"])
def test_one_press_seats_you_with_three_club_bots_at_a_live_game(
    players: Players, language: str
) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        user = person(language)
        page = opened(players, user, "/", screen)
        form = page.locator("[data-open-table]")
        # The common choices first; the variants, the house rules and the rest folded.
        expect(form.locator("[name=mode]").first).to_be_visible()
        expect(form.locator("[name=table]")).to_be_visible()
        expect(form.locator("details.more-rules")).not_to_have_attribute("open", "")
        expect(form.locator("[name=two_canastas]")).to_be_hidden()
        assert box_of(page, form)["height"] < 1100  # was 2,150 px on a phone
        clean(page)
        look(page, f"lobby-{screen}-{language}")
        button(page, words["play"]).click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        table = page.locator("[data-game]")
        expect(table).to_have_attribute("data-status", "active")
        expect(table).to_have_attribute("data-mode", "live")
        expect(page.locator("[data-seat] .bot-badge")).to_have_count(3)
        expect(page.locator("[data-seat]").filter(has_text=words["bot"])).to_have_count(1)
        game = Game.objects.get(pk=int(table.get_attribute("data-game") or 0))
        assert game.length == "match" and game.rules.get("game", "classic") == "classic"
        clean(page)
        look(page, f"bots-table-{screen}-{language}")
        # The bots' level and the pace are the player's to change, on the table.
        page.get_by_text(words["settings"]).click()
        page.locator("[data-table-settings] select[name=level]").select_option("expert")
        button(page, words["change"]).click()
        expect(page.locator("[data-seat]").filter(has_text=words["expert"])).to_have_count(1)
        expect(page.locator("[data-table-settings]")).to_have_attribute("open", "")  # kept open
        button(page, words["by_post"]).click()
        expect(table).to_have_attribute("data-mode", "async")
        look(page, f"bots-settings-{screen}-{language}")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_welcomes_button_leads_through_sign_up_to_a_started_table(
    players: Players, language: str
) -> None:
    words = WORDS[language]
    for number, screen in enumerate(SCREENS):
        page = players.new_page(**SCREENS[screen])
        page.context.add_cookies([{"name": "language", "value": language, "url": players.base_url}])
        page.goto("/")
        clean(page)
        look(page, f"welcome-{screen}-{language}")
        page.get_by_role("link", name=words["play"]).click()
        page.fill("[name=username]", f"newcomer{number}{language}")
        page.fill("[name=email]", f"newcomer{number}{language}@example.com")
        page.fill("[name=password]", DEFAULT_PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url("**/play/")
        clean(page)
        look(page, f"play-step-{screen}-{language}")
        page.locator("[data-play-with-bots] button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        expect(page.locator("[data-game]")).to_have_attribute("data-status", "active")
        expect(page.locator("[data-seat] .bot-badge")).to_have_count(3)


# ----------------------------------------------------------------------------- 2. between deals


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_deal_ends_in_its_score_until_continue_and_the_live_clock_waits(
    players: Players, language: str
) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        user = person(language)
        game = end_the_deal(alone_with_bots(user))
        page = opened(players, user, f"/games/{game.pk}/", screen)
        summary = page.locator("[data-deal-summary]")
        expect(summary).to_have_attribute("data-deal-summary", "1")
        expect(summary.locator("thead [data-side]")).to_have_count(2)
        for row in ("data-deal-total", "data-match-score"):
            expect(summary.locator(f"[{row}]")).to_have_count(2)
        expect(summary.locator("[data-deal-break] [data-break-clock]")).to_be_visible()
        clean(page)
        look(page, f"summary-{screen}-{language}")
        # What the player unfolded stays so: the deals' scores across a reload and a refresh.
        page.locator("details.result > summary").click()
        reloaded(page)
        expect(page.locator("[data-deal-summary]")).to_be_visible()
        expect(page.locator("details.result")).to_have_attribute("open", "")
        button(page, words["continue"]).click()
        expect(page.locator("[data-deal-summary]")).to_have_count(0)
        expect(page.locator("details.result")).to_have_attribute("open", "")
        game.refresh_from_db()
        assert game.deal_break_until is None  # bots are never waited for: the clock runs
        look(page, f"after-continue-{screen}-{language}")


def test_in_correspondence_the_score_stays_on_top_until_you_move(players: Players) -> None:
    people = [person("en") for _ in range(4)]
    game = started_game(players=people, length=Game.Length.MATCH)
    game = end_the_deal(game)
    seat = game.turn_seat
    assert seat is not None
    page = opened(players, people[seat], f"/games/{game.pk}/", "390")
    expect(page.locator("[data-deal-summary]")).to_be_visible()
    expect(page.locator("[data-deal-break]")).to_have_count(0)  # no break by correspondence
    reloaded(page)
    expect(page.locator("[data-deal-summary]")).to_be_visible()
    button(page, "Draw").click()
    expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")
    expect(page.locator("[data-deal-summary]")).to_have_count(0)


# ----------------------------------------------------------------------------- 3. autoplayed


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_live_turn_that_ran_out_is_told_with_the_ways_on(players: Players, language: str) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        people = [person(language) for _ in range(2)]
        game = services.open_table(
            user=people[0], mode="live", length="match", rules={}, private=False
        )
        services.join_table(game_id=game.pk, user=people[1], seat=1)
        for seat in (2, 3):
            services.seat_bot(game_id=game.pk, user=people[0], seat=seat, level="club")
        game = round_to_seat_zero(Game.objects.get(pk=game.pk))
        clock.advance(settings.TURN_LIMIT["live"] + timedelta(seconds=1))
        Seat.objects.filter(game=game).update(last_seen_at=clock.now())
        timeouts.sweep()
        assert Seat.objects.get(game=game, seat=0).autoplayed
        page = opened(players, people[0], f"/games/{game.pk}/", screen)
        told = page.locator("[data-autoplayed]")
        expect(told).to_be_visible()
        expect(told.locator("li")).to_have_count(1)
        expect(told.locator("li .card-face").first).to_be_visible()  # what was played
        expect(told.locator("[data-autoplayed-offer] button")).to_have_count(2)
        clean(page)
        look(page, f"autoplayed-{screen}-{language}")
        button(page, words["to_async"]).click()
        expect(page.locator("[data-pace-asked]")).to_be_visible()
        other = opened(players, people[1], f"/games/{game.pk}/", screen)
        expect(other.locator("[data-autoplayed]")).to_have_count(0)  # the player's own
        button(other, words["agree"]).click()
        expect(other.locator("[data-game]")).to_have_attribute("data-mode", "async")
        look(other, f"pace-agreed-{screen}-{language}")
        # The told turns stay until the player's next move.
        game = round_to_seat_zero(Game.objects.get(pk=game.pk))
        reloaded(page)
        expect(page.locator("[data-autoplayed]")).to_be_visible()
        button(page, words["draw_button"]).click()
        expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")
        expect(page.locator("[data-autoplayed]")).to_have_count(0)
        other.close()


def round_to_seat_zero(game: Game) -> Game:
    """The others play (bots after their pause, people their turn) until seat 0 is to move."""
    while game.turn_seat != 0:
        if Seat.objects.get(game=game, seat=turn_of(game)).user.is_bot:
            clock.advance(settings.BOT_PAUSE[game.mode])
            timeouts.sweep()
        else:
            play_turn(game.pk)
        game.refresh_from_db()
    return game


# ----------------------------------------------------------------------------- 4. melds as cards


def crowded_for_seat_zero(game: Game) -> None:
    """Mid-game with many melds a side (test_table_on_a_phone.crowded_table), seat 0 (team 0:
    A★, K with a wild, Q 4, 9 with a wild, 7 6, 4 3) to move."""
    crowded_table(game)
    game.refresh_from_db()
    match = Match.from_dict(game.state or {})
    data = match.deal.to_dict()
    data["turn"] = 0
    match.deal = Deal.from_dict(data)
    Game.objects.filter(pk=game.pk).update(state=match.to_dict(), turn_seat=0)


def wild_in_hand(game: Game, seat: int, cards: list[str]) -> None:
    """`cards` put into the hand of `seat` (taken from the stock)."""
    match = Match.from_dict(game.state or {})
    data = match.deal.to_dict()
    stock = [data["stock"][i : i + 2] for i in range(0, len(data["stock"]), 2)]
    hand = [data["hands"][seat][i : i + 2] for i in range(0, len(data["hands"][seat]), 2)]
    for card in cards:
        if card in stock:
            stock.remove(card)
        hand.append(card)
    data["hands"][seat], data["stock"] = "".join(hand), "".join(stock)
    match.deal = Deal.from_dict(data)
    Game.objects.filter(pk=game.pk).update(state=match.to_dict())


def drag(page: Page, source: Any, target: Any) -> None:
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + 10, start["y"] + 30)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=15)
    page.mouse.up()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_melds_are_cards_a_wild_joins_by_a_tap_or_a_drag(players: Players, language: str) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        people = [person(language) for _ in range(4)]
        game = started_game(players=people)
        crowded_for_seat_zero(game)
        wild_in_hand(Game.objects.get(pk=game.pk), 0, ["2H", "2S", "9C"])
        page = opened(players, people[0], f"/games/{game.pk}/", screen)
        melds = page.locator("[data-meld]")
        assert melds.count() >= 8
        for index in range(melds.count()):
            meld = melds.nth(index)
            count = int(meld.get_attribute("data-count") or 0)
            expect(meld.locator("[data-card]")).to_have_count(count)
            expect(meld.locator("[data-card] img").first).to_be_visible()
        mixed = page.locator('[data-meld="K"][data-team="0"]')
        expect(mixed.locator("[data-card][data-wild]")).to_have_count(1)
        expect(mixed.locator(".meld-head")).to_contain_text("1W")
        button(page, words["draw_button"]).click()
        expect(page.locator("[data-game]")).to_have_attribute("data-phase", "play")
        look(page, f"melds-{screen}-{language}")
        # A tap: the selected wild, then the meld.
        queens = page.locator('[data-meld="Q"][data-team="0"]')
        page.locator('[data-hand] [data-card="2H"]').first.click()
        expect(queens).to_have_class(re.compile("meld--can-join"))
        queens.click()
        expect(queens).to_have_attribute("data-count", "5")
        expect(queens.locator("[data-wild]")).to_have_count(1)
        # A drag: the wild dropped on the meld.
        sevens = page.locator('[data-meld="7"][data-team="0"]')
        drag(page, page.locator('[data-hand] [data-card="2S"]').first, sevens)
        expect(sevens).to_have_attribute("data-count", "7")
        expect(sevens).to_have_attribute("data-canasta", "mixed")
        # A card that may not join is refused in the engine's words.
        page.locator('[data-hand] [data-card="9C"]').first.click()
        page.locator('[data-meld="A"][data-team="0"]').click()
        expect(page.locator("[data-dock] [role=alert]")).not_to_be_empty()
        clean(page)
        look(page, f"refused-{screen}-{language}")
        # The hand sorted by suit, then by rank again.
        button(page, words["sort_suit"]).click()
        by_suit = page.locator("[data-hand]").get_attribute("data-by-suit") or ""
        expect(page.locator("[data-hand] [data-card]").first).to_have_attribute(
            "data-card", by_suit.split()[0]
        )
        assert hand_of(page) == by_suit.split()
        button(page, words["sort_rank"]).click()
        assert (
            hand_of(page)
            == (page.locator("[data-hand]").get_attribute("data-by-rank") or "").split()
        )
        assert hand_of(page) != by_suit.split()


def hand_of(page: Page) -> list[str]:
    return [
        str(code)
        for code in page.locator("[data-hand] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.dataset.card)"
        )
    ]


# ----------------------------------------------------------------------------- 5. targets

# On the table, what a target check leaves aside: the move log, hidden text and links inside a
# sentence.
TABLE_ASIDE = ".move-list, .sr-only, p, li"


def button_boxes(page: Page) -> list[tuple[int, int, int, int]]:
    """Where the five buttons are (looked at again should a live refresh swap the table in
    right then)."""
    for _ in range(20):
        boxes = [
            page.locator(f'[data-actions] [data-action="{kind}"]').bounding_box()
            for kind in FIVE_BUTTONS
        ]
        if all(boxes):
            return [
                (round(box["x"]), round(box["y"]), round(box["width"]), round(box["height"]))
                for box in boxes
                if box
            ]
        page.wait_for_timeout(100)
    raise AssertionError("the five buttons are not all shown")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_targets_are_big_enough_and_the_buttons_stay_still(players: Players, language: str) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        people = [person(language) for _ in range(4)]
        game = started_game(players=people)
        crowded_for_seat_zero(game)
        wild_in_hand(Game.objects.get(pk=game.pk), 0, ["9C", "9D", "8C"])  # 14 cards
        page = opened(players, people[0], f"/games/{game.pk}/", screen)
        expect(page.locator("[data-hand] [data-card]")).to_have_count(14)
        if screen == "390":
            assert small_targets(page, within="[data-game]", aside=TABLE_ASIDE) == []
        before = button_boxes(page)
        assert all(height >= 44 for *_xy, _width, height in before)
        button(page, words["draw_button"]).click()
        expect(page.locator("[data-hand] [data-card]")).to_have_count(15)
        # Each card of 15 shows at least 32 px of itself.
        strips = page.locator("[data-hand] [data-card]").evaluate_all(
            """(cards) => cards.map((card, i) => {
                 const box = card.getBoundingClientRect(), next = cards[i + 1];
                 const after = next && next.getBoundingClientRect();
                 return after && after.top === box.top ? after.left - box.left : box.width; })"""
        )
        assert min(strips) >= 32, strips
        assert button_boxes(page) == before  # the draw moved no button
        look(page, f"fifteen-{screen}-{language}")
        page.locator('[data-hand] [data-card="8C"]').first.click()
        button(page, words["discard"]).click()
        expect(page.locator("[data-game]")).to_have_attribute("data-your-turn", "false")
        assert button_boxes(page) == before  # nor did the discard


# ----------------------------------------------------------------------------- 6. the end


def ended(players_: list[User], *, mode: str = "async") -> Game:
    """A single deal played to its end (the stock's last card drawn)."""
    game = started_game(players=players_, mode=mode)
    last_card_in_stock(game)
    game.refresh_from_db()
    assert game.turn_seat is not None
    services.make_move(
        game_id=game.pk,
        user=players_[game.turn_seat],
        version=game.version,
        action={"type": "draw"},
    )
    game.refresh_from_db()
    assert game.is_over
    return game


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_end_says_who_won_with_the_score_in_full_view_and_the_ways_on(
    players: Players, language: str
) -> None:
    words = WORDS[language]
    for screen in SCREENS:
        people = [person(language) for _ in range(4)]
        game = ended(people)
        scores = game.scores
        for seat in (0, 1):
            page = opened(players, people[seat], f"/games/{game.pk}/", screen)
            result = page.locator("[data-result]")
            team = Seat.objects.get(game=game, seat=seat).team
            expected = (
                "draw"
                if game.winner_team is None
                else "won"
                if game.winner_team == team
                else "lost"
            )
            expect(result).to_have_attribute("data-result", expected)
            expect(result.locator("h2")).to_have_text(words[expected])
            expect(result.locator("[data-final-score]")).to_have_count(2)
            # The final score is in view, nothing over it.
            for row in range(2):
                cell = result.locator("[data-final-score]").nth(row)
                box = cell.bounding_box()
                assert box is not None and box["y"] + box["height"] <= SCREENS[screen]["height"]
                assert page.evaluate(
                    "([x, y]) => document.elementFromPoint(x, y).closest('[data-result]') !== null",
                    [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
                )
            assert sorted(
                int(re.sub(r"\D", "", text) or 0) * (-1 if "−" in text else 1)
                for text in result.locator("[data-final-score]").all_inner_texts()
            ) == sorted(scores)
            expect(result.locator("[data-lobby-link]")).to_have_attribute("href", "/")
            clean(page)
            look(page, f"end-{expected}-{screen}-{language}")
            if seat == 1:
                button(page, words["again"]).click()
                page.wait_for_url(re.compile(r"/games/\d+/$"))
                new = Game.objects.exclude(pk=game.pk).latest("pk")
                assert (new.mode, new.length, new.rules) == (game.mode, game.length, game.rules)
                assert Seat.objects.get(game=new).user == people[1]
            page.close()


# ----------------------------------------------------------------------------- 7. English


def test_english_pages_say_nothing_in_russian(players: Players) -> None:
    user = person("en", "Anna")
    game = end_the_deal(alone_with_bots(user))
    samba = services.open_table(
        user=person("en"), mode="async", length="match", rules={"game": "samba"}, private=False
    )
    page = opened(players, user, "/", "390")
    row = page.locator(f'.game-row:has(a[href="/games/{samba.pk}/"])')
    expect(row.locator("[data-game-name]")).to_have_text("Samba")
    expect(row).to_contain_text("to 10,000")
    expect(
        page.locator(f'.game-row:has(a[href="/games/{game.pk}/"]) [data-game-name]')
    ).to_have_text("Canasta")
    clean(page)
    look(page, "lobby-rows-390-en")
    for path in (
        f"/games/{game.pk}/",
        "/play/",
        f"/users/{Seat.objects.get(game=game, seat=1).user_id}/",
    ):
        page.goto(path)
        clean(page)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-seat]").filter(has_text="Club bot 1")).to_have_count(1)


# ----------------------------------------------------------------------------- 8. desktop


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_desktop_plays_at_a_real_table_and_a_deadline_has_its_day(
    players: Players, language: str
) -> None:
    people = [person(language) for _ in range(4)]
    game = started_game(players=people, length=Game.Length.MATCH)
    seat = crowded_table(game)
    for screen in SCREENS:
        page = opened(players, people[seat], f"/games/{game.pk}/", screen)
        boxes = {
            place: box_of(page, page.locator(f".seat--{place}"))
            for place in ("left", "across", "right")
        }
        ours = box_of(page, page.locator(".team--ours"))
        theirs = box_of(page, page.locator(".team:not(.team--ours)"))
        cards = page.locator("[data-hand] [data-card]").evaluate_all(
            "(cards) => cards.map((card) => card.getBoundingClientRect().toJSON())"
        )
        if screen == "1440":
            assert boxes["left"]["x"] < boxes["across"]["x"] < boxes["right"]["x"]
            assert boxes["across"]["y"] + boxes["across"]["height"] <= boxes["left"]["y"]
            assert theirs["y"] < ours["y"]  # each side's melds on its half
            assert all(card["width"] >= 70 for card in cards)  # larger cards
            assert all(
                a["right"] <= b["left"]
                for a, b in itertools.pairwise(cards)
                if a["top"] == b["top"]
            )
        else:  # the phone's: the other seats in one row, the hand overlapped
            assert boxes["left"]["y"] == boxes["across"]["y"] == boxes["right"]["y"]
            assert any(a["right"] > b["left"] for a, b in itertools.pairwise(cards))
        local = page.locator("[data-deadline-local]")
        days = "пн|вт|ср|чт|пт|сб|вс" if language == "ru" else "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
        expect(local).to_have_text(
            re.compile(rf"^({'до' if language == 'ru' else 'until'}) ({days}) \d\d:\d\d$")
        )
        expect(page.locator("[data-turn-clock]")).to_have_text(re.compile(r"^\d+:\d\d:\d\d$"))
        clean(page)
        look(page, f"table-{screen}-{language}")
