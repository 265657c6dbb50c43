"""Issue 36 in the browser at 390 and 1440 px: the leaderboard `/ratings/` (your place a click
away, your row marked), a player's card with each pool's rating and its chart, a finished rated
game's rating changes on its result, the ratings beside the names on the table and in the
lobby, the lobby's rated tables with their range and its filter, and the open-table form's
rating choices; in Russian and English. axe finds nothing serious, nothing scrolls sideways;
screenshots go to var/test-artifacts/look/."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from accounts.models import User
from club import clock
from games import services
from ratings import services as rating_services
from ratings import skill
from ratings.models import Leaderboard, Pool, Rating
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of, set_rating
from tests.web.browser.conftest import Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Rated players on the leaderboard besides the viewer: three pages of 50.
CROWD = 120


def crowd_rated(pool: str = "async.classic.4") -> None:
    """CROWD players placed on the pool's leaderboard, 2100 down to about 1000."""
    now = clock.now()
    users = User.objects.bulk_create(
        User(username=f"rated{n}", display_name=f"Игрок {n}", password="!") for n in range(CROWD)
    )
    Pool.objects.get_or_create(name=pool, defaults={"version": 1})
    Leaderboard.objects.get_or_create(pool_id=pool)
    ratings = []
    for number, user in enumerate(users):
        belief = skill.Skill(mu=skill.MODEL.mu + (600 - 9 * number) / skill.SCALE, sigma=2.5)
        ratings.append(
            Rating(
                user=user,
                pool_id=pool,
                mu=belief.mu,
                sigma=belief.sigma,
                games=30 + number % 40,
                last_played_at=now,
                steady_until=skill.steady_until(belief, since=now),
            )
        )
    Rating.objects.bulk_create(ratings)


def a_rated_player() -> tuple[User, int]:
    """A player with three rated games behind them (the last one's id), then as if long rated
    at 1480 ± 90: on the leaderboard's second page."""
    me = UserFactory.create(display_name="Вера Рейтингова")
    game_id = 0
    for number in range(3):
        game = end_game(game_of([me, *UserFactory.create_batch(3)]), scores=[3000, 900 * number])
        game_id = game.pk
        clock.advance(timedelta(days=2))
    set_rating(me, rating=1480, deviation=90)
    crowd_rated()
    rating_services.refresh_leaderboards()
    return me, game_id


@pytest.mark.parametrize("width", [390, 1440])
def test_the_leaderboard_the_card_and_a_games_result(players: Players, width: int) -> None:
    me, last_game = a_rated_player()
    page = players.new_page(width=width, height=844 if width == 390 else 900)
    log_in(page, me)

    page.get_by_role("link", name="Рейтинги").first.click()
    page.wait_for_url("**/ratings/")
    board = page.locator("[data-leaderboard='async.classic.4']")
    expect(board.locator("tbody tr")).to_have_count(50)
    expect(board.locator("tr[data-rank='1']")).to_contain_text("Игрок 0")
    rank = int(page.locator("[data-my-rank]").inner_text())
    assert rank > 50
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"ratings-top-{width}")

    page.locator("[data-my-place-link]").click()
    mine = page.locator("tr.is-me")
    expect(mine).to_have_attribute("aria-current", "true")
    expect(mine).to_have_attribute("data-rank", str(rank))
    expect(mine).to_contain_text("Вера Рейтингова")
    expect(mine).to_be_in_viewport()
    expect(page.locator("[data-pager]")).to_contain_text("Страница 2 из 3")
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"ratings-my-place-{width}")

    mine.locator(f"a[data-person='{me.pk}']").click()
    page.wait_for_url(f"**/users/{me.pk}/")
    card = page.locator("[data-pool-rating='async.classic.4']")
    expect(card.locator("[data-rating]")).to_have_text("1480")
    expect(card.locator("[data-rank]")).to_have_text(str(rank))
    chart = card.locator("svg[data-rating-chart='3']")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] > 250  # type: ignore[index]
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"ratings-card-{width}")

    page.goto(f"/games/{last_game}/")
    changes = page.locator("[data-rating-changes]")
    expect(changes.locator("li")).to_have_count(4)
    expect(changes.locator("li.is-me")).to_contain_text("Вера Рейтингова")
    moved = changes.locator("li.is-me [data-rating-change]").get_attribute("data-rating-change")
    assert int(moved or 0) > 0
    expect(page.locator(".rating[data-rating]").first).to_be_visible()
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"ratings-result-{width}")


@pytest.mark.parametrize("width", [390, 1440])
def test_the_lobby_shows_rated_tables_their_range_and_the_ratings_beside_names(
    players: Players, width: int
) -> None:
    me, host, expert_host = UserFactory.create_batch(3)
    set_rating(me, rating=1420, deviation=100)
    set_rating(expert_host, rating=1900, deviation=100)
    User.objects.filter(pk=expert_host.pk).update(display_name="Мастер Макс")
    services.open_table(
        user=host, mode="async", length="match", rules={}, private=False, rating_range=(1300, 1600)
    )
    experts = services.open_table(
        user=expert_host,
        mode="async",
        length="match",
        rules={},
        private=False,
        rating_range=(1800, 2200),
    )
    services.open_table(user=host, mode="live", length="deal", rules={}, private=False, rated=False)
    page = players.new_page(width=width, height=844 if width == 390 else 900)
    log_in(page, me)

    rows = page.locator("section[aria-labelledby='open-tables'] .game-row")
    expect(rows).to_have_count(3)
    expect(page.locator("[data-rating-range='1800-2200']")).to_be_visible()
    expect(page.locator("[data-rated='false']")).to_have_count(1)
    expect(rows.filter(has_text="Мастер Макс").locator(".rating")).to_have_text("рейтинг 1900")
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, f"ratings-lobby-{width}")

    page.locator("[data-for-my-rating]").click()
    expect(rows).to_have_count(2)
    expect(page.locator("[data-rating-range='1800-2200']")).to_have_count(0)

    # The experts' table refuses a seat: its range says why.
    page.goto(f"/games/{experts.pk}/")
    page.get_by_role("button", name="Сесть на место 2").click()
    expect(page.get_by_role("alert")).to_contain_text("1800")

    # Opening a rated table for a range.
    page.goto("/")
    form = page.locator("[data-open-table]")
    form.locator("details.more-rules summary").click()  # folded with the house rules
    form.locator("[name=rating_min]").fill("1300")
    form.locator("[name=rating_max]").fill("1700")
    form.get_by_role("button", name="Открыть стол").click()
    page.wait_for_url("**/games/*/")
    expect(page.locator("h1 [data-rating-range='1300-1700']")).to_be_visible()


def test_the_ratings_page_in_english_with_nobody_placed_yet(players: Players) -> None:
    user = UserFactory.create(language="en")
    page = players.new_page(width=390, height=844)
    log_in(page, user)
    page.goto("/ratings/?pool=live.samba.4")

    expect(page.get_by_role("heading", name="Ratings")).to_be_visible()
    expect(page.locator("[data-empty-board]")).to_be_visible()
    expect(page.locator("[data-my-standing]")).to_contain_text("1500")
    expect(page.locator("a[data-pool='live.samba.4']")).to_have_attribute("aria-current", "page")
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, "ratings-empty-en-390")
