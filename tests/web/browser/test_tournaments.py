"""Tournaments in the browser (issue 38): a tournament opened with the short form, entered as a
pair, started by its creator; its page with the round's games and the standings, the lobby's
block of the tournament game waiting for your move; at 390 px first, in Russian and English,
with axe finding nothing serious; screenshots in var/test-artifacts/look/."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory
from tests.tournaments.conftest import (
    enter,
    finish_game,
    open_tournament,
    round_games,
    start,
    turn_of,
)
from tests.web.browser.conftest import (
    Players,
    horizontal_overflow,
    serious_violations,
    shoot,
    small_targets,
)
from tests.web.browser.test_around_the_table import log_in
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_open_enter_start_and_follow_a_tournament_on_a_phone(players: Players) -> None:
    anna, boris = UserFactory.create_batch(2)
    anna.display_name, boris.display_name = "Анна", "Борис"
    anna.save(update_fields=["display_name"])
    boris.save(update_fields=["display_name"])

    phone = players.new_page(width=390, height=844)
    log_in(phone, anna)
    phone.goto("/tournaments/")
    assert horizontal_overflow(phone) == 0
    assert serious_violations(phone) == []
    shoot(phone, "tournaments-390")
    phone.fill("[name=name]", "Весенний кубок")
    phone.get_by_label("Туров").fill("2")
    phone.get_by_role("button", name="Открыть турнир").click()
    phone.wait_for_url("**/tournaments/*/")
    tournament = Tournament.objects.get(name="Весенний кубок")
    expect(phone.locator("[data-tournament-state]")).to_contain_text("Набор участников")

    phone.fill("#partner", boris.username)
    phone.get_by_role("button", name="Участвовать").click()
    expect(phone.get_by_role("status")).to_have_text("Заявка принята.")
    enter(tournament, 2)
    phone.get_by_role("button", name="Начать турнир").click()
    expect(phone.get_by_role("status")).to_contain_text("Турнир начался")
    expect(phone.locator('[data-round="1"] [data-round-table]')).to_have_count(1)
    expect(phone.locator('[data-standings="live"]')).to_be_visible()
    assert horizontal_overflow(phone) == 0
    assert serious_violations(phone) == []
    shoot(phone, "tournament-running-390")

    # The player whose turn it is sees their tournament game in the lobby's block.
    games = round_games(tournament, 1)
    playing = next(g for g in games if g.seats.filter(user__in=[anna, boris]).exists())
    mover = playing.seats.get(seat=turn_of(playing)).user
    lobby = players.new_page(width=390, height=844)
    log_in(lobby, mover)
    block = lobby.locator("[data-tournament-turns]")
    expect(block).to_contain_text("Весенний кубок · тур 1")
    assert horizontal_overflow(lobby) == 0
    shoot(lobby, "lobby-tournament-turn-390")
    block.get_by_role("link", name="Весенний кубок · тур 1").click()
    lobby.wait_for_url(f"**/games/{playing.pk}/")
    # The table leads back to its tournament.
    expect(lobby.locator(f'[data-game-tournament="{tournament.pk}"]')).to_have_text(
        "Турнир · тур 1"
    )

    # The round ends, the next is paired by the sweep; the page in English on a desktop.
    for game in games:
        finish_game(game, [900, 400])
    assert services.sweep_tournaments() == 1
    desk = players.new_page(width=1440, height=900)
    boris.language = "en"
    boris.save(update_fields=["language"])
    log_in(desk, boris)
    desk.goto(f"/tournaments/{tournament.pk}/")
    expect(desk.locator("[data-round]")).to_have_count(2)
    expect(desk.get_by_role("heading", name="Standings so far")).to_be_visible()
    expect(desk.locator("[data-standing]")).to_have_count(3)
    assert serious_violations(desk) == []
    shoot(desk, "tournament-running-1440-en")
    for game in round_games(tournament, 2):
        finish_game(game, [500, 600])
    assert services.sweep_tournaments() == 1
    desk.reload()
    expect(desk.get_by_role("heading", name="Final table")).to_be_visible()
    shoot(desk, "tournament-final-1440-en")
    phone.goto(f"/tournaments/{tournament.pk}/")
    expect(phone.get_by_role("heading", name="Итоговая таблица")).to_be_visible()
    assert horizontal_overflow(phone) == 0
    shoot(phone, "tournament-final-390")


def test_an_open_tournament_page_shows_a_game_ending_and_the_next_round_without_reload(
    players: Players,
) -> None:
    """Two pages on one tournament, a player's and a visitor's: a game of it ends, then the
    round's last game and the next round is paired, and both pages show it as it happens."""
    tournament = open_tournament(rounds=2, name="Кубок вечера")
    enter(tournament, 4)
    tournament = start(tournament)
    first, second = round_games(tournament, 1)
    player = first.seats.get(seat=0).user
    mine = players.new_page(width=390, height=844)
    log_in(mine, player)
    mine.goto(f"/tournaments/{tournament.pk}/")
    visitor = players.new_page(width=1440, height=900)
    visitor.goto(f"/tournaments/{tournament.pk}/")
    for page in (mine, visitor):
        expect(page.locator(f'[data-game="{first.pk}"] .side-score')).to_have_count(0)
        # Marks the page: a reload would forget it.
        page.evaluate("() => { window.stillThisPage = true; }")

    finish_game(first, [900, 400])
    for page in (mine, visitor):
        expect(page.locator(f'[data-game="{first.pk}"] .side-score')).to_have_text(["900", "400"])
        expect(page.locator(f'[data-game="{first.pk}"]')).to_contain_text("сыграна")
        expect(page.locator("[data-standing] >> nth=0")).to_contain_text("1")
        assert page.evaluate("() => window.stillThisPage") is True

    finish_game(second, [300, 800])
    assert services.sweep_tournaments() == 1
    for page in (mine, visitor):
        expect(page.locator("[data-round]")).to_have_count(2)
        expect(page.locator("[data-tournament-state]")).to_contain_text("Идёт тур 2 из 2")
        assert page.evaluate("() => window.stillThisPage") is True
    assert serious_violations(visitor) == []


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_running_tournament_reads_on_a_phone(players: Players, language: str) -> None:
    """At 390 px: no sideways scroll, each standing's place, names and points on one line with
    its tie-breaks folded under the names, every target big enough, nothing serious for axe."""
    people = UserFactory.create_batch(10)
    names = ["Анна Каренина", "Борис", "Вероника Сергеевна", "Глеб", "Дмитрий Константинович"]
    for user, name in zip(people, names * 2, strict=True):
        user.display_name = name
        user.language = language
        user.save(update_fields=["display_name", "language"])
    tournament = open_tournament(rounds=3, name="Осенний кубок клуба «Канаста»")
    for first, second in zip(people[0::2], people[1::2], strict=True):
        services.join_tournament(tournament_id=tournament.pk, user=first, partner_id=second.pk)
    tournament = start(tournament)
    played, _ = round_games(tournament, 1)
    finish_game(played, [1230, -150])
    phone = players.new_page(width=390, height=844)
    log_in(phone, people[0])
    phone.goto(f"/tournaments/{tournament.pk}/")
    expect(phone.locator("[data-standing]")).to_have_count(5)
    assert horizontal_overflow(phone) == 0
    assert small_targets(phone, within="main", aside="p:not(.crumbs), .sr-only") == []
    assert serious_violations(phone) == []
    for row in phone.locator("[data-standing]").all():
        players_box = row.locator("th").bounding_box()
        points = row.locator("td >> nth=1").bounding_box()
        tiebreak = row.locator("td.tiebreak >> nth=0").bounding_box()
        assert players_box and points and tiebreak
        # The points beside the names, the tie-breaks under them, inside the screen.
        assert points["x"] > players_box["x"]
        assert tiebreak["y"] >= players_box["y"] + players_box["height"] - 1
        assert tiebreak["x"] + tiebreak["width"] <= 390
    shoot(phone, f"tournament-standings-390-{language}")
