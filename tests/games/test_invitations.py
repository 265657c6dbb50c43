"""Invitations (issue 37, CONTRACT.md §8): seats kept for invited players, accepted, declined,
withdrawn, lapsing on the database's clock; refusals that open nothing; blocks on every path of
a seat (join, invite, lobby)."""

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.db import connections, transaction
from rest_framework.test import APIClient

from accounts.models import User
from club import clock
from games import services
from games.models import Game, Invitation
from notifications.models import (
    Notification,
    NotificationSettings,
    OutboxMessage,
    PushDelivery,
    PushSubscription,
)
from notifications.services import drain_outbox
from social import services as social_services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

Client = Callable[[User], APIClient]


def open_with(client: APIClient, invite: list[int], **fields: Any) -> Any:
    return client.post(
        "/api/games/",
        {"mode": "async", "length": "deal", "invite": invite, **fields},
        format="json",
    )


def join(client: APIClient, game_id: int, seat: int) -> Any:
    return client.post(f"/api/games/{game_id}/join/", {"seat": seat}, format="json")


def kept_seats(game_id: int) -> dict[int, int]:
    """seat -> invitee id, of the pending invitations."""
    return dict(
        Invitation.objects.filter(game_id=game_id, status="pending").values_list(
            "seat", "invitee_id"
        )
    )


def test_invitees_get_the_creators_partner_seat_first_then_the_order_of_play(
    client_for: Client,
) -> None:
    anna, boris, vera, gleb = UserFactory.create_batch(4)
    created = open_with(client_for(anna), [boris.pk, vera.pk, gleb.pk])
    assert created.status_code == 201, created.json()
    body = created.json()
    # At four, seat 2 is seat 0's partner: the first invitee plays with the creator.
    assert kept_seats(body["id"]) == {2: boris.pk, 1: vera.pk, 3: gleb.pk}
    assert [(row["seat"], row["user"]["id"]) for row in body["invitations"]] == [
        (1, vera.pk),
        (2, boris.pk),
        (3, gleb.pk),
    ]
    expires = Invitation.objects.filter(game_id=body["id"]).values_list("expires_at", flat=True)
    game = Game.objects.get(pk=body["id"])
    # The table's turn limit (24 hours by correspondence), from the opening.
    assert all(
        abs(moment - game.created_at - settings.TURN_LIMIT["async"]) < timedelta(seconds=2)
        for moment in expires
    )


def test_each_invitee_is_notified_in_the_app_and_by_email(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    game_id = open_with(client_for(anna), [boris.pk]).json()["id"]
    message = OutboxMessage.objects.get(user=boris, kind="invitation")
    assert message.game_id == game_id
    assert message.payload["inviter"] == anna.pk and message.payload["seat"] == 2
    drain_outbox()
    assert Notification.objects.filter(user=boris, kind="invitation", game_id=game_id).exists()
    (email,) = [sent for sent in mail.outbox if boris.email in sent.to]
    assert f"№{game_id}" in email.subject
    assert str(anna) in email.body


def test_an_invitation_follows_the_invitees_settings_digest_and_push(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    NotificationSettings.objects.create(user=boris, digest=True)
    PushSubscription.objects.create(
        user=boris, endpoint="https://push.example.com/boris", p256dh="key", auth="secret"
    )
    open_with(client_for(anna), [boris.pk])
    drain_outbox(budget_seconds=0)
    message = OutboxMessage.objects.get(user=boris, kind="invitation")
    assert message.status == OutboxMessage.Status.HELD  # in tomorrow's digest
    assert PushDelivery.objects.filter(message=message).exists()
    assert Notification.objects.filter(user=boris, kind="invitation").exists()


def test_a_kept_seat_is_refused_to_others_and_taken_by_its_invitee(client_for: Client) -> None:
    anna, boris, vera, gleb = UserFactory.create_batch(4)
    game_id = open_with(client_for(anna), [boris.pk]).json()["id"]
    refused = client_for(vera).post(f"/api/games/{game_id}/join/", {"seat": 2}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "seat_reserved")
    assert join(client_for(vera), game_id, 1).status_code == 200
    assert join(client_for(boris), game_id, 2).status_code == 200
    assert Invitation.objects.get(game_id=game_id).status == "accepted"
    last = client_for(gleb).post(f"/api/games/{game_id}/join/", {"seat": 3}, format="json")
    assert last.json()["status"] == "active"
    assert last.json()["invitations"] == []


def test_accept_and_decline_from_the_invitation(client_for: Client) -> None:
    anna, boris, vera, gleb = UserFactory.create_batch(4)
    game_id = open_with(client_for(anna), [boris.pk, vera.pk]).json()["id"]
    mine = client_for(boris).get("/api/me/invitations/").json()
    assert [(row["game"], row["seat"], row["invited_by"]["id"]) for row in mine] == [
        (game_id, 2, anna.pk)
    ]
    accepted = client_for(boris).post(f"/api/invitations/{mine[0]['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["your_seat"] == 2
    again = client_for(boris).post(f"/api/invitations/{mine[0]['id']}/accept/")
    assert (again.status_code, again.json()["code"], again.json()["status"]) == (
        409,
        "invitation_not_pending",
        "accepted",
    )
    vera_invitation = Invitation.objects.get(game_id=game_id, invitee=vera)
    # Only the invitee answers; to anyone else the invitation does not exist.
    assert (
        client_for(gleb).post(f"/api/invitations/{vera_invitation.pk}/decline/").status_code == 404
    )
    declined = client_for(vera).post(f"/api/invitations/{vera_invitation.pk}/decline/")
    assert declined.json() == {"id": vera_invitation.pk, "status": "declined"}
    # The seat is open again, for anybody.
    assert join(client_for(gleb), game_id, 1).status_code == 200


def test_the_inviter_withdraws_an_invitation(client_for: Client) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game_id = open_with(client_for(anna), [boris.pk]).json()["id"]
    invitation = Invitation.objects.get(game_id=game_id)
    assert client_for(boris).delete(f"/api/invitations/{invitation.pk}/").status_code == 404
    assert client_for(anna).delete(f"/api/invitations/{invitation.pk}/").status_code == 204
    assert Invitation.objects.get(pk=invitation.pk).status == "withdrawn"
    assert join(client_for(vera), game_id, 2).status_code == 200


@pytest.mark.parametrize("mode", ["async", "live"])
def test_an_unanswered_invitation_lapses_after_the_turn_limit(
    client_for: Client, mode: str
) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game_id = open_with(client_for(anna), [boris.pk], mode=mode).json()["id"]
    clock.advance(settings.TURN_LIMIT[mode] - timedelta(seconds=2))
    assert services.lapse_invitations() == 0
    refused = client_for(vera).post(f"/api/games/{game_id}/join/", {"seat": 2}, format="json")
    assert refused.json()["code"] == "seat_reserved"
    clock.advance(timedelta(seconds=3))
    assert services.lapse_invitations() == 1
    assert Invitation.objects.get(game_id=game_id).status == "lapsed"
    assert client_for(boris).get("/api/me/invitations/").json() == []
    assert join(client_for(vera), game_id, 2).status_code == 200
    assert settings.CELERY_BEAT_SCHEDULE["lapse-invitations"]["task"] == (
        "games.tasks.lapse_invitations"
    )


@pytest.mark.django_db(transaction=True)
def test_the_sweep_leaves_an_invitation_being_answered_to_the_next_sweep() -> None:
    anna, boris = UserFactory.create_batch(2)
    game = services.open_table(
        user=anna, mode="live", length="deal", rules={}, private=False, invite=[boris.pk]
    )
    clock.advance(timedelta(minutes=1))
    locked = threading.Event()
    release = threading.Event()

    def answering() -> None:
        try:
            with transaction.atomic():
                Invitation.objects.select_for_update().get(game=game)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=answering)
    thread.start()
    assert locked.wait(10)
    try:
        assert services.lapse_invitations() == 0  # SKIP LOCKED: not waiting for it
    finally:
        release.set()
        thread.join()
    assert services.lapse_invitations() == 1


@pytest.mark.parametrize(
    ("invite", "status", "code"),
    [
        ("self", 400, "cannot_invite_yourself"),
        ("twice", 400, "duplicate_invitee"),
        ("unknown", 400, "unknown_player"),
        ("bot", 400, "invitee_is_bot"),
        ("too_many", 400, "too_many_invitees"),
        ("blocked_by_them", 403, "blocked"),
        ("blocked_by_me", 403, "blocked"),
    ],
)
def test_a_refused_invitation_opens_nothing(
    client_for: Client, invite: str, status: int, code: str
) -> None:
    anna, boris, vera, gleb, dina = UserFactory.create_batch(5)
    bot = UserFactory.create(bot_level="club")
    if invite == "blocked_by_them":
        social_services.block(user=boris, player_id=anna.pk)
    if invite == "blocked_by_me":
        social_services.block(user=anna, player_id=boris.pk)
    ids = {
        "self": [anna.pk],
        "twice": [boris.pk, boris.pk],
        "unknown": [boris.pk, 999_999],
        "bot": [bot.pk],
        "too_many": [boris.pk, vera.pk, gleb.pk, dina.pk],
        "blocked_by_them": [vera.pk, boris.pk],
        "blocked_by_me": [boris.pk],
    }[invite]
    refused = open_with(client_for(anna), ids)
    assert (refused.status_code, refused.json()["code"]) == (status, code), refused.json()
    assert not Game.objects.exists() and not Invitation.objects.exists()
    assert not OutboxMessage.objects.filter(kind="invitation").exists()


def test_a_private_table_is_seen_and_joined_by_its_invitees_only(client_for: Client) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game_id = open_with(client_for(anna), [boris.pk], private=True).json()["id"]
    assert client_for(boris).get(f"/api/games/{game_id}/").status_code == 200
    assert client_for(vera).get(f"/api/games/{game_id}/").status_code == 404
    lobby = client_for(boris).get("/api/games/?status=waiting").json()["results"]
    assert [row["id"] for row in lobby] == [game_id]
    assert client_for(vera).get("/api/games/?status=waiting").json()["results"] == []
    joined = client_for(boris).post(f"/api/games/{game_id}/join/", {"seat": 2}, format="json")
    assert joined.status_code == 200, joined.json()


def test_the_creator_invites_more_players_while_the_table_waits(client_for: Client) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game_id = open_with(client_for(anna), [boris.pk]).json()["id"]
    more = client_for(anna).post(
        f"/api/games/{game_id}/invitations/", {"invite": [vera.pk]}, format="json"
    )
    assert more.status_code == 200, more.json()
    assert kept_seats(game_id) == {2: boris.pk, 1: vera.pk}
    again = client_for(anna).post(
        f"/api/games/{game_id}/invitations/", {"invite": [vera.pk]}, format="json"
    )
    assert (again.status_code, again.json()["code"]) == (409, "already_invited")
    not_mine = client_for(boris).post(
        f"/api/games/{game_id}/invitations/", {"invite": [vera.pk]}, format="json"
    )
    assert (not_mine.status_code, not_mine.json()["code"]) == (403, "not_creator")


def test_a_kept_seat_takes_no_bot(client_for: Client) -> None:
    anna, boris = UserFactory.create_batch(2)
    game_id = open_with(client_for(anna), [boris.pk]).json()["id"]
    refused = client_for(anna).post(
        f"/api/games/{game_id}/bots/", {"seat": 2, "level": "club"}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "seat_reserved")


# --------------------------------------------------------------------------- blocks and seats


@pytest.mark.parametrize("who_blocks", ["the one seated", "the one joining"])
def test_a_block_either_way_keeps_a_player_from_the_other_ones_table(
    client_for: Client, who_blocks: str
) -> None:
    anna, boris = UserFactory.create_batch(2)
    game_id = open_with(client_for(anna), []).json()["id"]
    if who_blocks == "the one seated":
        social_services.block(user=anna, player_id=boris.pk)
    else:
        social_services.block(user=boris, player_id=anna.pk)
    refused = client_for(boris).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    assert not Game.objects.get(pk=game_id).seats.filter(user=boris).exists()


def test_a_blocked_player_may_not_sit_where_the_blocker_is_invited(client_for: Client) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game_id = open_with(client_for(anna), [vera.pk]).json()["id"]
    social_services.block(user=vera, player_id=boris.pk)
    refused = client_for(boris).post(f"/api/games/{game_id}/join/", {"seat": 1}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "blocked")


def test_two_invitees_apart_neither_sits_while_the_other_is_invited(client_for: Client) -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    social_services.block(user=boris, player_id=vera.pk)
    # The creator is not told of a block between others: both are invited.
    game_id = open_with(client_for(anna), [boris.pk, vera.pk]).json()["id"]
    for invitee, seat in ((boris, 2), (vera, 1)):
        refused = join(client_for(invitee), game_id, seat)
        assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
    invitation = Invitation.objects.get(game_id=game_id, invitee=vera)
    assert client_for(vera).post(f"/api/invitations/{invitation.pk}/decline/").status_code == 200
    assert join(client_for(boris), game_id, 2).status_code == 200


@pytest.mark.parametrize("who_blocks", ["viewer", "player"])
def test_the_lobby_hides_tables_across_a_block(client_for: Client, who_blocks: str) -> None:
    anna, boris, vera, gleb = UserFactory.create_batch(4)
    seated_there = open_with(client_for(boris), []).json()["id"]
    invited_there = open_with(client_for(vera), [boris.pk]).json()["id"]
    elsewhere = open_with(client_for(gleb), []).json()["id"]
    if who_blocks == "viewer":
        social_services.block(user=anna, player_id=boris.pk)
    else:
        social_services.block(user=boris, player_id=anna.pk)
    shown = [
        row["id"] for row in client_for(anna).get("/api/games/?status=waiting").json()["results"]
    ]
    assert shown == [elsewhere]
    assert seated_there not in shown and invited_there not in shown
    # The other side of the block does not see Anna's tables either.
    annas = open_with(client_for(anna), []).json()["id"]
    theirs = client_for(boris).get("/api/games/?status=waiting").json()["results"]
    assert annas not in [row["id"] for row in theirs]
