"""Tables of two, three and six and the house rules, through the HTTP API on the real database
(#13): every table starts when its seats are taken, plays, finishes and replays from its export."""

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import Rules
from games.models import Game, Move
from notifications.models import OutboxMessage
from tests.factories import UserFactory, started_game
from tests.games.playing import choose, fix_shuffles
from tests.games.test_full_match import play_out, replay, sign_up

pytestmark = pytest.mark.django_db

# Each table as the lobby offers it: (players, teams).
TABLES = [(2, 2), (3, 3), (4, 2), (6, 3), (6, 2)]


@pytest.fixture(autouse=True)
def fixed_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)


def open_and_fill(players: int, rules: dict[str, Any], length: str) -> tuple[list[APIClient], int]:
    tag = "".join(str(value) for value in rules.values() if isinstance(value, int))
    clients = [sign_up(f"t{players}{tag}{length}p{seat}") for seat in range(players)]
    created = clients[0].post(
        "/api/games/", {"mode": "async", "length": length, "rules": rules}, format="json"
    )
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    for seat in range(1, players):
        waiting = clients[seat].get(f"/api/games/{game_id}/").json()
        assert waiting["status"] == "waiting"
        joined = clients[seat].post(f"/api/games/{game_id}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.json()
    assert joined.json()["status"] == "active"
    return clients, game_id


@pytest.mark.parametrize(("players", "teams"), TABLES, ids=[f"{p}x{t}" for p, t in TABLES])
def test_a_game_at_every_table_from_sign_up_to_the_score(players, teams):
    clients, game_id = open_and_fill(players, {"players": players, "teams": teams}, "deal")
    final = play_out(clients, game_id, policy=choose)
    assert {body["status"] for body in final} == {"finished"}
    body = final[0]
    rules = Rules(players=players, teams=teams)
    assert body["rules"] == {**rules.to_options(), "target": None}
    assert [player["team"] for player in body["players"]] == [
        rules.seating.team_of(seat) for seat in rules.seating.seats
    ]
    assert len(body["scores"]) == len(body["deal"]["teams"]) == teams
    assert len(body["deal"]["hand_counts"]) == players
    assert body["scores"] == [line["total"] for line in body["deals"][0]["result"]]
    # Nobody sees another seat's hand; each seat sees its own.
    assert all("hand" in view["deal"] for view in final)
    export = clients[0].get(f"/api/games/{game_id}/export/").json()
    game = Game.objects.get(pk=game_id)
    assert replay(export).to_dict() == game.state
    assert OutboxMessage.objects.filter(game_id=game_id, kind="game_finished").count() == players
    lobby = clients[1].get("/api/games/?mine=1&status=finished").json()["results"]
    assert [row["id"] for row in lobby] == [game_id]


def test_a_four_handed_match_with_every_house_rule_plays_the_question_and_the_lay_down():
    rules = {
        "target": 2500,
        "canastas_to_go_out": 2,
        "ask_partner_to_go_out": True,
        "double_going_out": True,
    }
    clients, game_id = open_and_fill(4, rules, "match")
    final = play_out(clients, game_id, policy=choose)
    assert {body["status"] for body in final} == {"finished"}
    kinds = list(Move.objects.filter(game_id=game_id).values_list("action__type", flat=True))
    assert "ask_to_go_out" in kinds and "answer_go_out" in kinds
    assert {"lay_down", "pass"} & set(kinds)
    # Each answer is the partner's, who is not the seat on turn.
    rules_of = Rules.from_options(final[0]["rules"])
    moves = list(Move.objects.filter(game_id=game_id).order_by("seq"))
    for asked, answered in itertools.pairwise(moves):
        if asked.action["type"] == "ask_to_go_out":
            assert answered.action["type"] == "answer_go_out"
            assert answered.seat in rules_of.seating.partners_of(asked.seat)
    assert "double_going_out" in final[0]["deals"][0]["result"][0]
    export = clients[0].get(f"/api/games/{game_id}/export/").json()
    assert replay(export).to_dict() == Game.objects.get(pk=game_id).state
    assert OutboxMessage.objects.filter(game_id=game_id, kind="partner_asks").exists()


def test_a_table_starts_only_when_all_its_seats_are_taken(client_for):
    players = UserFactory.create_batch(6)
    created = client_for(players[0]).post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": {"players": 6}}, format="json"
    )
    game_id = created.json()["id"]
    for seat, player in enumerate(players[1:5], start=1):
        answer = client_for(player).post(
            f"/api/games/{game_id}/join/", {"seat": seat}, format="json"
        )
        assert answer.json()["status"] == "waiting"
    answer = client_for(players[5]).post(f"/api/games/{game_id}/join/", {"seat": 5}, format="json")
    assert answer.json()["status"] == "active"
    assert answer.json()["scores"] == [0, 0, 0]


@pytest.mark.parametrize(("players", "seat"), [(2, 2), (3, 3), (4, 4), (6, 6)])
def test_a_seat_the_table_does_not_have_is_refused(client_for, players, seat):
    creator, joiner = UserFactory.create_batch(2)
    body = {"mode": "async", "length": "deal", "rules": {"players": players}, "seat": seat}
    refused = client_for(creator).post("/api/games/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    created = client_for(creator).post("/api/games/", {**body, "seat": 0}, format="json").json()
    joined = client_for(joiner).post(
        f"/api/games/{created['id']}/join/", {"seat": seat}, format="json"
    )
    assert joined.status_code == 400 and "seat" in joined.json()["errors"]


def test_a_partner_rule_at_a_table_of_individuals_is_invalid_rules(client_for):
    answer = client_for(UserFactory()).post(
        "/api/games/",
        {"mode": "async", "length": "deal", "rules": {"players": 3, "ask_partner_to_go_out": True}},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_rules"


def test_abandoning_at_three_teams_gives_the_game_to_the_team_ahead():
    from django.db import transaction

    from games import services, store

    game = started_game(players=UserFactory.create_batch(6), rules={"players": 6})
    Game.objects.filter(pk=game.pk).update(scores=[100, 300, 200])
    with transaction.atomic():
        locked = store.load(game_id=game.pk, for_update=True)
        assert locked is not None
        services.finish_game_abandoned(locked=locked, seat=1)  # team 1 leaves
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.winner_team == 2


def test_player_stats_count_wins_at_every_table():
    from games.selectors import player_stats
    from games.services import count_game_over

    players = UserFactory.create_batch(6)
    for table, winner in (({"players": 6, "teams": 2}, 1), ({"players": 3}, 2)):
        size = table["players"]
        game = started_game(players=players[:size], rules=table)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner_team=winner)
        game.refresh_from_db()
        count_game_over(game=game, seats=game.seats.all())
    for player in players:
        player.refresh_from_db()
    # Seat 5 plays for team 1 of two at six; seat 2 is team 2 at three (its own).
    assert player_stats(user=players[5])["won"] == 1
    assert player_stats(user=players[2])["won"] == 1
    assert player_stats(user=players[0])["won"] == 0
