"""The pages at every table (#13): the lobby's form offers the tables and the house rules, and the
table page shows each table's seats, teams, question and lay-down (Django client)."""

import re

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.engine import Rules
from games.models import Game
from tests.factories import UserFactory, started_game
from tests.games.playing import asking, fix_shuffles, play_until

pytestmark = pytest.mark.django_db

TABLES = [(2, 2), (3, 3), (4, 2), (6, 3), (6, 2)]
IDS = [f"{players}x{teams}" for players, teams in TABLES]


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form(**fields: str) -> dict[str, str]:
    return {
        "mode": "async",
        "length": "match",
        "wild_limit": "strict",
        "stock_out": "club",
        "tie": "draw",
        "seat": "0",
        **fields,
    }


def test_the_lobby_form_offers_every_table_and_the_house_rules_in_both_languages():
    user = UserFactory.create()
    russian = client_of(user).get("/").content.decode()
    for value in ("4x2", "2x2", "3x3", "6x3", "6x2"):
        assert f'<option value="{value}"' in russian
    for name in ("two_canastas", "ask_partner_to_go_out", "to_7500", "double_going_out"):
        assert f'name="{name}"' in russian
    assert "три пары" in russian and "Можно выходить?" in russian
    User.objects.filter(pk=user.pk).update(language="en")
    english = client_of(user).get("/").content.decode()
    assert "two teams of three" in english and "May I go out?" in english


@pytest.mark.parametrize(("players", "teams"), TABLES, ids=IDS)
def test_the_form_opens_each_table_and_the_lobby_says_its_size(players, teams):
    creator, visitor = UserFactory.create_batch(2)
    answer = client_of(creator).post("/tables/new/", form(table=f"{players}x{teams}"))
    assert answer.status_code == 302
    game = Game.objects.get()
    rules = Rules.from_options(game.rules)
    assert (rules.players, rules.teams) == (players, teams)
    assert rules.target == Rules(players=players, teams=teams).target  # the table's own length
    lobby = client_of(visitor).get("/").content.decode()
    assert f'data-table-size="{players}"' in lobby
    assert f"Мест свободно: {players - 1} из {players}" in lobby
    table = client_of(visitor).get(f"/games/{game.pk}/").content.decode()
    offered = re.findall(r'name="seat" value="(\d)"', table)
    assert offered == [str(seat) for seat in range(1, players)]


def test_the_house_rules_from_the_form():
    creator = UserFactory.create()
    fields = form(table="4x2", two_canastas="on", ask_partner_to_go_out="on", to_7500="on")
    assert (
        client_of(creator).post("/tables/new/", {**fields, "double_going_out": "on"}).status_code
        == 302
    )
    rules = Game.objects.get().rules
    assert rules["canastas_to_go_out"] == 2 and rules["target"] == 7500
    assert rules["ask_partner_to_go_out"] and rules["double_going_out"]
    assert rules["canasta_opening_from_5000"]


def test_a_partner_rule_at_a_table_of_three_is_refused_on_the_form():
    creator = UserFactory.create()
    answer = client_of(creator).post("/tables/new/", form(table="3x3", ask_partner_to_go_out="on"))
    assert answer.status_code == 400
    assert "needs partners" in answer.content.decode()
    assert not Game.objects.exists()


def test_a_seat_the_table_lacks_is_refused_on_the_form():
    answer = client_of(UserFactory.create()).post("/tables/new/", form(table="2x2", seat="3"))
    assert answer.status_code == 400 and not Game.objects.exists()


@pytest.mark.parametrize(("players", "teams"), TABLES, ids=IDS)
def test_the_table_page_at_each_size(players, teams):
    seated = UserFactory.create_batch(players)
    game = started_game(players=seated, rules={"players": players, "teams": teams})
    rules = Rules(players=players, teams=teams)
    for viewer in (0, players - 1):
        html = client_of(seated[viewer]).get(f"/games/{game.pk}/").content.decode()
        counts = re.findall(r'data-hand-count="(\d)"', html)
        assert sorted(map(int, counts)) == [seat for seat in range(players) if seat != viewer]
        assert len(re.findall(r"data-team-area=", html)) == teams
        assert len(re.findall(r"data-team-score=", html)) == teams
        partners = len(rules.seating.partners_of(viewer))
        assert html.count("seat--partner") == partners
        assert html.count("seat--opponent") == players - 1 - partners
        hand = re.search(r"data-hand .*?</div>", html, re.S)
        assert hand is not None and hand.group().count("data-card=") == rules.hand_size
    spectator = client_of(UserFactory.create()).get(f"/games/{game.pk}/").content.decode()
    assert len(re.findall(r'data-hand-count="(\d)"', spectator)) == players


def test_the_question_on_the_page_yes_no_for_the_partner_waiting_for_the_asker(monkeypatch):
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(
        players=seated, rules={"ask_partner_to_go_out": True}, length=Game.Length.DEAL
    )
    detail = play_until(game, seated, asking)
    asker = detail["your_seat"]
    page = client_of(seated[asker]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-action="ask_to_go_out"' in page and "Спросить партнёра" in page
    answer = client_of(seated[asker]).post(
        f"/games/{game.pk}/move/",
        {"version": detail["version"], "action": '{"type": "ask_to_go_out"}'},
    )
    assert answer.status_code == 200
    assert "data-question-waiting" in answer.content.decode()
    partner = Rules.from_options(game.rules).seating.partners_of(asker)[0]
    asked = client_of(seated[partner]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-answer="pending"' in asked and 'data-your-turn="true"' in asked
    assert re.search(r'<button[^>]*data-action="answer_go_out"[^>]*>Да</button>', asked)
    assert re.search(r'<button[^>]*data-action="answer_go_out"[^>]*>Нет</button>', asked)
    version = Game.objects.get(pk=game.pk).version
    said = client_of(seated[partner]).post(
        f"/games/{game.pk}/move/",
        {"version": version, "action": '{"type": "answer_go_out", "yes": true}'},
    )
    assert 'data-answer="yes"' in said.content.decode()
    back = client_of(seated[asker]).get(f"/games/{game.pk}/").content.decode()
    assert "Выходите в этот ход." in back and 'data-your-turn="true"' in back


def test_the_partner_lays_down_or_passes_on_the_page(monkeypatch):
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated, rules={"double_going_out": True})
    detail = play_until(game, seated, lambda detail: detail["deal"]["phase"] == "partner_out")
    partner = detail["your_seat"]
    page = client_of(seated[partner]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-phase="partner_out"' in page and f'data-partner-out="{partner}"' in page
    assert re.search(r'<button[^>]*data-action="pass"[^>]*data-move=', page)
    opponent = Rules.from_options(game.rules).seating.next_seat(partner)
    other = client_of(seated[opponent]).get(f"/games/{game.pk}/").content.decode()
    assert "выкладывает все карты вслед за партнёром" in other
    services.make_move(
        game_id=game.pk, user=seated[partner], version=detail["version"], action={"type": "pass"}
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


@pytest.mark.parametrize(("players", "teams"), [(6, 2), (3, 3)], ids=["6x2", "3x3"])
def test_the_replay_page_of_a_finished_game_at_each_size(players, teams):
    seated = UserFactory.create_batch(players)
    game = started_game(players=seated, rules={"players": players, "teams": teams})
    play_until(game, seated, lambda detail: detail["status"] != "active")
    total = Game.objects.get(pk=game.pk).version
    for step in (0, total // 2, total):
        page = client_of(seated[1]).get(f"/games/{game.pk}/replay/?step={step}")
        assert page.status_code == 200
        html = page.content.decode()
        assert len(re.findall(r"data-replay-seat=", html)) == players
    assert "data-replay-final" in html and html.count(" : ") >= teams - 1
