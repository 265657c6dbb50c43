"""The pages through Django's test client: accounts, the lobby, the table and its moves."""

import json
import re

import pytest
from django.test import Client

from accounts.models import User
from games import services as game_services
from games.engine import Match
from games.models import Game
from tests.factories import DEFAULT_PASSWORD, UserFactory, started_game

pytestmark = pytest.mark.django_db


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_signed_out_lobby_is_a_welcome_with_sign_up_and_log_in() -> None:
    page = Client().get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/signup/"' in html and 'href="/login/"' in html
    assert "Канаста-клуб" in html


def test_sign_up_lands_on_the_lobby_signed_in() -> None:
    client = Client()
    answer = client.post(
        "/signup/",
        {"username": "olga", "email": "olga@example.com", "password": "queen-of-spades-7"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert "Ваш ход" in client.get("/").content.decode()
    assert User.objects.get(username="olga").display_name == "olga"


def test_sign_up_refusal_is_shown_on_the_page() -> None:
    UserFactory(username="olga")
    answer = Client().post(
        "/signup/", {"username": "olga", "email": "o2@example.com", "password": "queen-of-spades-7"}
    )
    assert answer.status_code == 400
    assert 'role="alert"' in answer.content.decode()


def test_log_in_and_out() -> None:
    user = UserFactory.create()
    client = Client()
    answer = client.post("/login/", {"username": user.username, "password": DEFAULT_PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert client.post("/logout/").status_code == 302
    assert 'href="/signup/"' in client.get("/").content.decode()


def test_wrong_password_shows_an_alert() -> None:
    user = UserFactory.create()
    answer = Client().post("/login/", {"username": user.username, "password": "nope"})
    assert answer.status_code == 200 and 'role="alert"' in answer.content.decode()


def test_language_switch_cookie_for_visitors_and_the_profile_for_members() -> None:
    visitor = Client()
    visitor.post("/language/", {"language": "en", "next": "/"})
    english = visitor.get("/").content.decode()
    assert "Sign up" in english
    # The page says which language it is in, and the switch offers the other one.
    assert '<html lang="en">' in english and 'value="ru"' in english
    user = UserFactory.create(language="ru")
    member = client_of(user)
    member.post("/language/", {"language": "en", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"
    assert "Your move" in member.get("/").content.decode()


def test_profile_changes_the_display_name() -> None:
    user = UserFactory.create(language="ru")
    client = client_of(user)
    answer = client.post(
        "/profile/", {"display_name": "Оля", "email": user.email, "language": "ru"}
    )
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Оля"


def test_open_a_table_and_the_others_join_it_from_the_page() -> None:
    players = UserFactory.create_batch(4)
    answer = client_of(players[0]).post(
        "/tables/new/",
        {
            "mode": "live",
            "length": "deal",
            "target": "5000",
            "wild_limit": "half",
            "stock_out": "club",
            "tie": "draw",
            "seat": "0",
        },
    )
    assert answer.status_code == 302
    game = Game.objects.get()
    assert answer["Location"] == f"/games/{game.pk}/"
    assert game.rules["wild_limit"] == "half" and game.mode == "live"
    lobby = client_of(players[1]).get("/").content.decode()
    assert f"/games/{game.pk}/" in lobby
    assert "Мест свободно: 3" in lobby and "дикие: половина" in lobby
    for seat, player in enumerate(players[1:], start=1):
        joined = client_of(player).post(f"/games/{game.pk}/join/", {"seat": str(seat)})
        assert joined.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_bad_table_form_is_a_400_with_the_form_again() -> None:
    answer = client_of(UserFactory.create()).post("/tables/new/", {"mode": "nope"})
    assert answer.status_code == 400


def _hand_codes(html: str) -> list[str]:
    hand = html.split("data-hand role", 1)[1].split("</div>", 1)[0]
    return re.findall(r'data-card="([0-9A-Z]{2})"', hand)


def test_the_table_carries_the_contract_hooks_and_only_the_viewers_cards() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    match = Match.from_dict(game.state or {})
    turn = match.deal.turn
    html = client_of(players[turn]).get(f"/games/{game.pk}/").content.decode()
    assert f'data-game="{game.pk}"' in html and 'data-version="0"' in html
    assert 'data-phase="draw"' in html and 'data-your-turn="true"' in html
    assert "data-pile" in html and "data-stock" in html and "data-turn-clock" in html
    assert sorted(_hand_codes(html)) == sorted(match.deal.hands[turn])
    for other in range(4):
        if other != turn:
            assert f'data-hand-count="{other}"' in html
    for label in ("Взять из колоды", "Взять стопку", "Выложить", "Вернуть как было", "Сбросить"):
        assert label in html
    spectator = Client().get(f"/games/{game.pk}/").content.decode()
    assert "data-hand role" not in spectator and 'data-hand-count="0"' in spectator


def test_a_move_through_the_page_and_a_refused_one() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    turn = Match.from_dict(game.state or {}).deal.turn
    client = client_of(players[turn])
    refused = client.post(
        f"/games/{game.pk}/move/",
        {"version": "0", "action": json.dumps({"type": "discard", "card": "JK"})},
    )
    assert refused.status_code == 400
    assert 'role="alert"' in refused.content.decode()
    game.refresh_from_db()
    assert game.version == 0
    drawn = client.post(
        f"/games/{game.pk}/move/", {"version": "0", "action": json.dumps({"type": "draw"})}
    )
    assert drawn.status_code == 200 and 'data-version="1"' in drawn.content.decode()
    again = client.post(
        f"/games/{game.pk}/move/", {"version": "0", "action": json.dumps({"type": "draw"})}
    )
    assert again.status_code == 409  # the second click of a double click plays nothing
    game.refresh_from_db()
    assert game.version == 1


def test_preview_answers_the_engines_judgement() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    turn = Match.from_dict(game.state or {}).deal.turn
    answer = client_of(players[turn]).post(
        f"/games/{game.pk}/preview/", {"action": json.dumps({"type": "meld", "melds": []})}
    )
    body = answer.json()
    assert body["legal"] is False and body["message"].startswith("Нельзя")
    game.refresh_from_db()
    assert game.version == 0


def test_the_english_table_names_its_buttons_in_english() -> None:
    players = [UserFactory.create(language="en") for _ in range(4)]
    game = started_game(players=players)
    html = client_of(players[0]).get(f"/games/{game.pk}/").content.decode()
    for label in ("Draw", "Take the pile", "Meld", "Undo", "Discard"):
        assert f">{label}</button>" in html


def test_no_page_or_fragment_shows_a_card_of_another_hand() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    deal = Match.from_dict(game.state or {}).deal
    top = deal.pile[-1]
    for seat, player in enumerate(players):
        client = client_of(player)
        for path in (f"/games/{game.pk}/", f"/games/{game.pk}/table/"):
            html = client.get(path).content.decode()
            shown = re.findall(r'data-card="([0-9A-Z]{2})"', html)
            assert sorted(shown) == sorted([*deal.hands[seat], top])
    spectator = Client().get(f"/games/{game.pk}/table/").content.decode()
    assert re.findall(r'data-card="([0-9A-Z]{2})"', spectator) == [top]


def test_a_private_table_is_not_found_without_its_invite() -> None:
    owner, guest = UserFactory.create_batch(2)
    client_of(owner).post(
        "/tables/new/",
        {
            "mode": "async",
            "length": "deal",
            "target": "5000",
            "wild_limit": "strict",
            "stock_out": "club",
            "tie": "draw",
            "seat": "0",
            "private": "on",
        },
    )
    game = Game.objects.get()
    assert client_of(guest).get(f"/games/{game.pk}/").status_code == 404
    invited = client_of(guest).get(f"/games/{game.pk}/?invite={game.invite_code}")
    assert invited.status_code == 200 and "Сесть на место" in invited.content.decode()
    joined = client_of(guest).post(
        f"/games/{game.pk}/join/", {"seat": "1", "invite": game.invite_code}
    )
    assert joined.status_code == 302


def test_the_lobby_lists_your_turn_first_with_the_badge() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    turn = Match.from_dict(game.state or {}).deal.turn
    html = client_of(players[turn]).get("/").content.decode()
    assert "<title>(1) " in html and 'data-games-waiting="1"' in html
    assert html.index(f"/games/{game.pk}/") < html.index("Открытые столы")


def test_the_tables_creator_seats_bots_from_the_page_and_they_wear_a_badge() -> None:
    owner, guest = UserFactory.create_batch(2)
    game = game_services.open_table(
        user=owner, mode="async", length="deal", rules={}, private=False, seat=0
    )
    html = client_of(owner).get(f"/games/{game.pk}/").content.decode()
    assert "Посадить бота на место 2" in html
    assert "Посадить бота" not in client_of(guest).get(f"/games/{game.pk}/").content.decode()
    for seat in (1, 2, 3):
        answer = client_of(owner).post(
            f"/games/{game.pk}/bots/", {"seat": str(seat), "level": "club"}
        )
        assert answer.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert "bot-badge" in client_of(owner).get(f"/games/{game.pk}/").content.decode()


def test_a_bot_of_an_unknown_level_is_refused_on_the_page() -> None:
    owner = UserFactory.create()
    game = game_services.open_table(
        user=owner, mode="async", length="deal", rules={}, private=False, seat=0
    )
    answer = client_of(owner).post(f"/games/{game.pk}/bots/", {"seat": "1", "level": "genius"})
    assert answer.status_code == 400 and 'role="alert"' in answer.content.decode()
