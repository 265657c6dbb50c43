"""Issue 19 in the browser at 390 and 1440 px: from a finished table a player reaches
«Пожаловаться» by clicks alone (the name, then the card's «Пожаловаться»); the end of a live
game brings the after-game part (result, replay link, afterwords form) without a reload, and an
afterword sent from it arrives; the rules page, reached from the header, with a rule's anchor.
axe finds nothing serious; screenshots go to var/test-artifacts/look/."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from moderation.models import Afterword, Report
from tests.factories import UserFactory, started_game
from tests.games.test_replay import finished_single_deal
from tests.timing.conftest import play_turn
from tests.web.browser.conftest import Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Анна Петрова", "Борис", "Вера", "Глеб"]


def named(users: list[User]) -> list[User]:
    for user, name in zip(users, NAMES, strict=True):
        User.objects.filter(pk=user.pk).update(display_name=name)
        user.refresh_from_db()
    return users


def seated(game: Game) -> list[User]:
    return [seat.user for seat in game.seats.order_by("seat").select_related("user")]


@pytest.mark.parametrize("width", [390, 1440])
def test_from_a_finished_table_report_is_reached_by_clicks_alone(
    players: Players, width: int
) -> None:
    game = finished_single_deal()
    people = named(seated(game))
    page = players.new_page(width=width, height=844 if width == 390 else 900)
    log_in(page, people[0])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-after-game]")).to_be_visible()
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"finished-table-{width}")
    page.locator("[data-replay-link]").click()
    page.get_by_role("link", name="В конец").click()
    expect(page.locator("[data-replay-final]")).to_be_visible()
    expect(page.locator(f'.replay-seats a[data-person="{people[1].pk}"]')).to_have_text("Борис")
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"replay-end-{width}")
    page.go_back()
    page.go_back()

    opponent = page.locator(f'[data-seat="1"] a[data-person="{people[1].pk}"]')
    expect(opponent).to_have_text("Борис")
    opponent.click()  # 1: the name
    page.wait_for_url(f"**/users/{people[1].pk}/")
    page.get_by_role("link", name="Пожаловаться").click()  # 2: «Пожаловаться»
    form = page.locator("[data-report-form]")
    expect(form).to_be_in_viewport()
    expect(form.get_by_role("button", name="Пожаловаться")).to_be_in_viewport()
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"card-report-{width}")
    form.get_by_role("button", name="Пожаловаться").click()
    page.wait_for_url("**/reports/mine/?filed=1")
    assert Report.objects.filter(accused=people[1], game=game).exists()


def test_names_link_in_the_lobby_and_the_move_log(players: Players) -> None:
    people = named(UserFactory.create_batch(4))
    game = started_game(players=people)
    play_turn(game.pk)
    game.refresh_from_db()
    assert game.turn_seat is not None
    page = players.new_page(width=390, height=844)
    log_in(page, people[(game.turn_seat + 1) % 4])  # waits, so the row names whose turn it is
    row = page.locator(f'.game-row:has(a[href="/games/{game.pk}/"])')
    expect(row.locator(".game-players a[data-person]")).to_have_count(4)
    expect(row.locator(".game-when a[data-person]")).to_have_count(1)  # whose turn
    assert horizontal_overflow(page) == 0
    shoot(page, "lobby-names-390")
    row.get_by_role("link", name=f"#{game.pk}", exact=False).first.click()
    page.wait_for_url(f"**/games/{game.pk}/")
    log_line = page.locator(".move-list li").first
    mover = log_line.locator("a[data-person]")
    expect(mover).to_have_count(1)
    shoot(page, "table-names-390")
    name = mover.inner_text()
    mover.click()
    expect(page.locator("#player-name")).to_have_text(name)


@pytest.mark.parametrize("width", [390, 1440])
def test_the_end_of_a_live_game_arrives_without_a_reload(players: Players, width: int) -> None:
    people = named(UserFactory.create_batch(4))
    game = started_game(players=people, mode=Game.Mode.LIVE)
    page = players.new_page(width=width, height=844 if width == 390 else 900)
    log_in(page, people[0])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "active")
    expect(page.locator("[data-after-game]")).to_have_count(0)
    page.evaluate("() => { window.stayedOpen = true; }")

    while game.status == Game.Status.ACTIVE:
        play_turn(game.pk)
        game.refresh_from_db()

    after = page.locator("[data-after-game]")
    expect(after).to_be_visible(timeout=15_000)
    assert page.evaluate("() => window.stayedOpen === true"), "the page was reloaded"
    expect(page.locator("[data-game]")).to_have_attribute("data-phase", "over")
    expect(page.locator("[data-result]")).to_be_visible()
    expect(after.locator("[data-replay-link]")).to_be_visible()
    # A new account: the form says before sending that the words will not move Authority.
    expect(after.locator("[data-kudos-forecast]")).to_contain_text("не изменят")
    after.scroll_into_view_if_needed()
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"game-ended-live-{width}")

    after.locator(".phrase").first.click()
    after.get_by_role("button", name="Отправить").click()
    page.wait_for_url(f"**/games/{game.pk}/#afterwords")
    expect(page.locator("[data-afterword]")).to_have_count(1)
    assert Afterword.objects.filter(game=game, author=people[0], to="partner").exists()


@pytest.mark.parametrize("width", [390, 1440])
def test_the_rules_page_from_the_header_with_each_rules_anchor(
    players: Players, width: int
) -> None:
    page = players.new_page(width=width, height=844 if width == 390 else 900)
    page.goto("/")
    page.locator("header").get_by_role("link", name="Правила").click()
    page.wait_for_url("**/rules/")
    expect(page.locator("#R-PILE-3")).to_contain_text("одной картой")
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"rules-{width}")
    page.goto("/rules/#R-FRZ-3")
    expect(page.locator("#R-FRZ-3")).to_be_in_viewport()
    page.screenshot(path=f"var/test-artifacts/look/rules-anchor-{width}.png")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_long_name_gives_way_in_the_phones_header_which_keeps_one_row(
    players: Players, language: str
) -> None:
    user = UserFactory.create(display_name="Анна-Мария Константинопольская", language=language)
    page = players.new_page(width=390, height=844)
    log_in(page, user)
    page.goto("/")
    nav = page.locator("header nav")
    links = nav.locator(":scope > *")
    boxes = [links.nth(i).bounding_box() for i in range(links.count())]
    middles = [box["y"] + box["height"] / 2 for box in boxes if box]
    assert max(middles) - min(middles) < 8, middles  # every link of the menu on one row
    me = nav.locator(".nav-link--me")
    assert me.evaluate("el => el.scrollWidth > el.clientWidth")  # cut with an ellipsis
    expect(
        nav.get_by_role("button", name="Выйти" if language == "ru" else "Log out")
    ).to_be_in_viewport()
    assert horizontal_overflow(page) == 0
    shoot(page, f"header-long-name-{language}-390")
