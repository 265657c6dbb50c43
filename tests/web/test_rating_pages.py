"""The ratings on the pages through Django's test client: /ratings/ (a page of places, your
own marked, no count of the pool), the card's ratings and chart, the ratings beside the names
(one query for a page's names, not one per name), a finished game's rating changes, the lobby's
rated and casual tables and the open-table form's rating choices."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services as game_services
from games.models import Game
from ratings import services as rating_services
from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.ratings.ending import end_game, game_of, set_rating

pytestmark = pytest.mark.django_db

OPEN_TABLE = {
    "game": "classic",
    "mode": "async",
    "length": "match",
    "target": "",
    "wild_limit": "strict",
    "stock_out": "club",
    "tie": "draw",
    "table": "4x2",
    "seat": "0",
}


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def placed(count: int) -> list[User]:
    players = UserFactory.create_batch(count)
    for number, player in enumerate(players):
        set_rating(player, rating=2000 - 5 * number, deviation=100)
    rating_services.refresh_leaderboards()
    return players


def test_the_leaderboard_pages_and_marks_your_place() -> None:
    players = placed(60)
    me = players[55]

    first = client_of(me).get("/ratings/").content.decode()
    second = client_of(me).get("/ratings/?pool=async.classic.4&page=2").content.decode()

    assert first.count("<tr data-rank=") == 50
    assert 'data-rank="1"' in first and 'class="is-me"' not in first
    assert "Страница 1 из 2" in first
    assert 'href="?pool=async.classic.4&amp;page=2#me" data-my-place-link' in first
    assert re.search(r'<tr data-rank="56" id="me" class="is-me" aria-current="true">', second)
    assert second.count("<tr data-rank=") == 10


def test_a_leaderboard_page_counts_nothing_per_view() -> None:
    placed(30)
    client = client_of(UserFactory.create())
    client.get("/ratings/")  # warm: the session, the header

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/ratings/?page=1").status_code == 200

    statements = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in statements if "COUNT(" in sql.upper() and "ratings_rating" in sql]
    assert len(statements) < 12, statements


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?pool=async.classic.5", 404),
        ("?pool=<script>", 404),
        ("?page=abc", 200),
        ("?page=-4", 200),
        ("?page=" + "9" * 40, 200),
    ],
)
def test_odd_addresses_of_the_ratings_page(query: str, status: int) -> None:
    assert Client().get(f"/ratings/{query}").status_code == status


def test_the_ratings_page_signed_out_and_in_english() -> None:
    placed(3)
    client = Client()
    client.cookies["language"] = "en"

    page = client.get("/ratings/?pool=async.classic.4").content.decode()

    assert "data-my-standing" not in page
    assert page.count("<tr data-rank=") == 3


def test_the_card_shows_each_pools_rating_with_its_chart() -> None:
    player = UserFactory.create()
    for scores in ([3000, 100], [100, 3000], [3000, 2000]):
        end_game(game_of([player, *UserFactory.create_batch(3)]), scores=scores)
    end_game(game_of([player, UserFactory.create()], players=2), scores=[500, 0])

    page = Client().get(f"/users/{player.pk}/").content.decode()

    assert 'data-pool-rating="async.classic.4"' in page
    assert 'data-pool-rating="async.classic.2"' in page
    assert 'data-rating-chart="3"' in page and 'data-rating-chart="1"' in page
    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', page)
    assert points is not None and len(points.group(1).split()) == 3
    assert re.search(r'cx="[\d.]+" cy="[\d.]+"', page)  # numbers as SVG reads them, never "12,5"


def test_the_ratings_beside_the_names_cost_one_query_for_the_page() -> None:
    me = UserFactory.create()
    tables = [game_of([me, *UserFactory.create_batch(3)]) for _ in range(3)]
    for table in tables:
        for seat in table.seats.all():
            set_rating(seat.user, rating=1400 + seat.seat * 37, deviation=100)
    client = client_of(me)
    client.get("/")

    with CaptureQueriesContext(connection) as queries:
        lobby = client.get("/").content.decode()

    assert lobby.count('class="rating"') >= 12
    # Your own ratings' line, and every name's rating.
    assert len([q for q in queries.captured_queries if "ratings_rating" in q["sql"]]) == 2
    seats = client.get(f"/games/{tables[0].pk}/").content.decode()
    assert 'data-rating="1437"' in seats


def test_a_finished_rated_game_shows_its_rating_changes() -> None:
    game = game_of()
    players = [seat.user for seat in game.seats.order_by("seat")]
    end_game(game, scores=[4000, 1000])

    page = client_of(players[0]).get(f"/games/{game.pk}/").content.decode()

    assert "data-rating-changes" in page
    for player in players:
        change = RatingChange.objects.get(game=game, user=player).change
        assert f'data-rating-change="{change}"' in page
    assert f'<li data-player="{players[0].pk}" class="is-me">' in page


def test_a_casual_game_over_shows_no_rating_changes() -> None:
    people = UserFactory.create_batch(4)
    game = game_services.open_table(
        user=people[0], mode="async", length="deal", rules={}, private=False, rated=False
    )
    for seat, person in enumerate(people[1:], start=1):
        game_services.join_table(game_id=game.pk, user=person, seat=seat)
    end_game(Game.objects.get(pk=game.pk), scores=[4000, 1000])

    page = client_of(people[0]).get(f"/games/{game.pk}/").content.decode()

    assert "data-rating-changes" not in page
    assert 'data-rated="false"' in page


def test_the_open_table_form_opens_a_rated_table_with_a_range_or_a_casual_one() -> None:
    me = UserFactory.create()
    client = client_of(me)

    rated = client.post(
        "/tables/new/", {**OPEN_TABLE, "rated": "true", "rating_min": "1300", "rating_max": "1700"}
    )
    casual = client.post("/tables/new/", {**OPEN_TABLE, "rated": "false"})

    assert rated.status_code == casual.status_code == 302
    games = Game.objects.order_by("pk")
    assert [(game.rated, game.rating_range) for game in games] == [
        (True, (1300, 1700)),
        (False, None),
    ]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rated": "true", "rating_min": "1300"}, "оба числа"),
        ({"rated": "true", "rating_min": "1700", "rating_max": "1300"}, "от меньшего к большему"),
        ({"rated": "false", "rating_min": "1300", "rating_max": "1700"}, "только у рейтингового"),
        ({"rated": "true", "rating_min": "1600", "rating_max": "1700"}, "вне диапазона"),
    ],
)
def test_the_open_table_form_says_why_a_range_is_refused(fields: dict, message: str) -> None:
    answer = client_of(UserFactory.create()).post("/tables/new/", {**OPEN_TABLE, **fields})

    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_filters_the_open_tables_by_my_rating() -> None:
    me, host = UserFactory.create_batch(2)
    set_rating(host, rating=1900, deviation=100)
    game_services.open_table(
        user=host, mode="async", length="match", rules={}, private=False, rating_range=(1800, 2000)
    )
    client = client_of(me)

    assert 'data-rating-range="1800-2000"' in client.get("/").content.decode()
    assert (
        'data-rating-range="1800-2000"' not in client.get("/?tables=for-my-rating").content.decode()
    )


def test_the_person_tag_shows_a_rating_only_where_the_page_gave_one() -> None:
    from django.template import Context, Template

    from ratings.selectors import Standing

    tag = Template("{% load people %}{% person who with_rating=True %}|{% rating who %}")
    placed_player = {
        "user": {"id": 7, "display_name": "Анна", "is_bot": False},
        "standing": Standing(
            pool="async.classic.4", rating=1623, deviation=90, games=40, provisional=False, rank=3
        ),
    }
    newcomer = {
        "user": {"id": 8, "display_name": "Борис", "is_bot": False},
        "standing": Standing(
            pool="async.classic.4", rating=1500, deviation=350, games=0, provisional=True, rank=None
        ),
    }
    bot = {"user": {"id": 9, "display_name": "Бот", "is_bot": True}}

    shown = [tag.render(Context({"who": who})) for who in (placed_player, newcomer, bot)]

    assert shown[0].count('data-rating="1623"') == 2 and "?" not in shown[0]
    assert "1500?" in shown[1] and "предварительный" in shown[1]
    assert "data-rating" not in shown[2] and shown[2].endswith("|")
