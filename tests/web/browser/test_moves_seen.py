"""The others' moves seen happening (issue 19, points 5 and 6): the last turn is pointed at on
the table and named in the log, a run of turns arriving together is stepped through, the turn
tone is a toggle, an absent live seat counts its 60-second wait down, and bots are never away."""

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from club import clock
from games import services as game_services
from games.engine import Match
from games.models import Game, Seat
from games.services import presence
from tests.engine.decks import OPENER, build_deck
from tests.factories import UserFactory, stack_deal, started_game
from tests.web.browser.conftest import Players, serious_violations, shoot
from web.table import events

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDTHS = [(390, 844), (1440, 900)]
MOVED = re.compile(r"\bmoved\b")


def logged_in(players: Players, user: Any, *, width: int, height: int) -> Page:
    client = Client()
    client.force_login(user)
    page = players.new_page(width=width, height=height)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": players.base_url,
            }
        ]
    )
    return page


def move(game: Game, seat: int, action: dict[str, Any]) -> None:
    user = Seat.objects.get(game=game, seat=seat).user
    version = Game.objects.get(pk=game.pk).version
    outcome = game_services.make_move(game_id=game.pk, user=user, version=version, action=action)
    assert isinstance(outcome, game_services.MoveResult), outcome


def draw_and_discard(game: Game, seat: int) -> None:
    move(game, seat, {"type": "draw"})
    state = Game.objects.get(pk=game.pk).state
    assert state is not None
    hand = Match.from_dict(state).deal.view(seat)["hand"]
    move(game, seat, {"type": "discard", "card": hand[-1]})


def stacked(game: Game, hands: dict[int, list[str]]) -> Game:
    """Re-dealt from a stacked deck with seat 0 to move first."""
    return stack_deal(game=game, deck=build_deck(dealer=3, hands=hands), dealer=3)


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_another_players_turn_is_pointed_at_and_named_in_the_log(
    players: Players, width: int, height: int
) -> None:
    people = UserFactory.create_batch(4)
    game = stacked(started_game(players=people, mode=Game.Mode.LIVE), {0: OPENER})
    page = logged_in(players, people[1], width=width, height=height)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-turn-sound]")).to_have_attribute("aria-pressed", "false")

    # Seat 0 opens with kings and aces and discards: seat 1's page shows what changed.
    move(game, 0, {"type": "draw"})
    move(
        game, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}, {"cards": OPENER[3:6]}]}
    )
    move(game, 0, {"type": "discard", "card": "5S"})
    table = page.locator("[data-game]")
    expect(table).to_have_attribute("data-version", "3", timeout=5000)
    expect(page.locator('[data-meld="K"][data-team="0"]')).to_have_class(MOVED)
    expect(page.locator('[data-meld="A"][data-team="0"]')).to_have_class(MOVED)
    expect(page.locator("[data-pile]")).to_have_class(re.compile(r"\bmoved--discarded\b"))
    expect(page.locator('[data-seat="0"]')).to_have_class(re.compile(r"\bmoved-seat\b"))
    entry = page.locator(".move-turn").first
    expect(entry).to_have_class(re.compile(r"\bmove-turn--current\b"))
    expect(entry).to_contain_text("новая комбинация «короли»")
    expect(entry).to_contain_text("новая комбинация «тузы»")
    expect(entry).to_contain_text("сбросил(а)")
    expect(page.locator("[data-move-caption]")).to_contain_text("новая комбинация «короли»")
    # It is seat 1's turn now: the tone would sound were it switched on (off by default).
    expect(table).to_have_attribute("data-your-turn", "true")
    assert page.locator(".table-page").get_attribute("data-turn-chimed") is None
    assert serious_violations(page) == []
    shoot(page, f"moves-highlight-{width}")
    # The meld settles in with a short transition; none for who asked for less motion.
    animation = "el => getComputedStyle(el).animationName"
    kings = page.locator('[data-meld="K"][data-team="0"]')
    assert kings.evaluate(animation) == "moved-in"
    page.emulate_media(reduced_motion="reduce")
    assert kings.evaluate(animation) == "none"
    expect(kings).to_have_class(MOVED)  # still pointed at

    # The player's own move needs no pointing at.
    draw_and_discard(game, 1)
    expect(table).to_have_attribute("data-version", "5", timeout=5000)
    expect(page.locator(".moved")).to_have_count(0)


def test_a_run_of_turns_is_stepped_through_and_the_tone_is_a_toggle(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refused(scope: object, receive: object, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    # No stream: the (correspondence) page polls every 5 s, so turns arrive together.
    monkeypatch.setattr(events, "asgi_stream", refused)
    people = UserFactory.create_batch(4)
    game = stacked(started_game(players=people), {0: OPENER})
    page = logged_in(players, people[3], width=390, height=844)
    page.goto(f"/games/{game.pk}/")
    toggle = page.locator("[data-turn-sound]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("[data-turn-sound]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-reconnecting]")).to_be_visible()

    # The three turns are made while the page's polls are held back: they arrive together.
    page.route("**/table/", lambda route: route.abort())
    for seat in (0, 1, 2):
        draw_and_discard(game, seat)
    page.unroute("**/table/")
    table = page.locator("[data-game]")
    expect(table).to_have_attribute("data-version", "6", timeout=8000)
    # The first turn is shown first, the later ones wait their step.
    expect(page.locator(".move-turn--current")).to_have_attribute("data-turn-seat", "0")
    expect(page.locator(".move-turn--pending")).to_have_count(2)
    shoot(page, "moves-run-first-step-390")
    expect(page.locator(".move-turn--current")).to_have_attribute(
        "data-turn-seat", "1", timeout=3000
    )
    expect(page.locator(".move-turn--current")).to_have_attribute(
        "data-turn-seat", "2", timeout=3000
    )
    expect(page.locator(".move-turn--pending")).to_have_count(0)
    # It became this player's turn: the tone sounded once.
    expect(table).to_have_attribute("data-your-turn", "true")
    expect(page.locator(".table-page")).to_have_attribute("data-turn-chimed", "1")
    assert serious_violations(page) == []


def live_table_with_a_bot() -> tuple[Game, list[Any]]:
    """Three people and a bot (seat 3) at a live table, the bot to move."""
    people = UserFactory.create_batch(3)
    game = game_services.open_table(
        user=people[0], mode=Game.Mode.LIVE, length="deal", rules={}, private=False, seat=0
    )
    for seat, person in enumerate(people[1:], start=1):
        game_services.join_table(game_id=game.pk, user=person, seat=seat)
    game_services.seat_bot(game_id=game.pk, user=people[0], seat=3, level="club")
    game = stack_deal(
        game=Game.objects.get(pk=game.pk), deck=build_deck(dealer=2, hands={}), dealer=2
    )
    return game, people


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_an_absent_seat_counts_its_wait_down_and_a_bot_is_never_away(
    players: Players, width: int, height: int
) -> None:
    game, people = live_table_with_a_bot()
    # The bot was never "seen" (and an old row even says absent): it shows no away mark.
    Seat.objects.filter(game=game, seat=3).update(last_seen_at=None, is_absent=True)
    page = logged_in(players, people[0], width=width, height=height)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-turn-clock]")).to_have_text("бот думает")

    # Seat 1's tab closed 50 s ago (on the club's clock): ten seconds of the wait are left.
    dropped = Seat.objects.get(game=game, seat=1)
    presence.left_table(seat_id=dropped.pk)
    Seat.objects.filter(pk=dropped.pk).update(
        last_seen_at=clock.now() - timedelta(seconds=50),
        left_table_at=clock.now() - timedelta(seconds=50),
    )
    page.reload()
    wait = page.locator('[data-seat="1"] [data-away-at]')
    expect(wait).to_contain_text("нет связи · ждём 0:")
    first = wait.locator("[data-away-clock]").inner_text()
    assert "0:08" <= first <= "0:10", first
    expect(wait.locator("[data-away-clock]")).not_to_have_text(first, timeout=2500)
    bot_seat = page.locator('[data-seat="3"]')
    expect(bot_seat).to_contain_text("бот")
    expect(bot_seat).not_to_contain_text("нет за столом")
    expect(bot_seat.locator("[data-away-at]")).to_have_count(0)
    expect(page.locator("[data-turn-clock]")).not_to_have_text("0:00")
    assert serious_violations(page) == []
    shoot(page, f"moves-away-wait-{width}")

    # At the end of the wait the seat reads "away" (the server's sweep then marks it so).
    Seat.objects.filter(pk=dropped.pk).update(
        last_seen_at=clock.now() - timedelta(seconds=58),
        left_table_at=clock.now() - timedelta(seconds=58),
    )
    page.reload()
    expect(page.locator('[data-seat="1"]')).to_contain_text("(нет за столом)", timeout=5000)
    presence.mark_absences()
    page.reload()
    expect(page.locator('[data-seat="1"] [data-away]')).to_have_text("(нет за столом)")
    expect(bot_seat).not_to_contain_text("нет за столом")
    shoot(page, f"moves-away-{width}")


def test_a_closed_tab_starts_the_countdown_on_the_others_pages_at_once(players: Players) -> None:
    people = UserFactory.create_batch(4)
    game = started_game(players=people, mode=Game.Mode.LIVE)
    watching = logged_in(players, people[0], width=1440, height=900)
    watching.goto(f"/games/{game.pk}/")
    leaving = logged_in(players, people[1], width=390, height=844)
    leaving.goto(f"/games/{game.pk}/")
    expect(leaving.locator("[data-reconnecting]")).to_be_hidden()
    wait = watching.locator('[data-seat="1"] [data-away-at]')
    expect(wait).to_have_count(0)
    time.sleep(0.5)  # the stream is open

    leaving.close()  # nobody moves: the closing alone reaches the other pages
    expect(wait).to_contain_text("нет связи · ждём 0:5", timeout=5000)
    shoot(watching, "moves-tab-closed-1440")

    back = players.contexts[1].new_page()
    back.goto(f"/games/{game.pk}/")
    expect(wait).to_have_count(0, timeout=5000)
