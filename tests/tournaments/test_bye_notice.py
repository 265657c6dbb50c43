"""The entry that sits a round out is told (`tournament_bye`): in the app, by email and by push
as each player's switches say, in their language, opening the tournament's page."""

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from notifications import services as notification_services
from notifications import texts
from notifications.models import Notification, OutboxMessage
from tests.tournaments.conftest import enter, open_tournament, start
from tournaments.models import Placement

pytestmark = pytest.mark.django_db


def test_both_players_of_the_entry_with_the_bye_are_told_and_nobody_else() -> None:
    tournament = open_tournament(rounds=2, name="Кубок осени")
    enter(tournament, 3)
    start(tournament)
    [sitting_out] = Placement.objects.filter(table__isnull=True)
    players = list(User.objects.filter(tournament_entries__entry=sitting_out.entry_id))
    assert len(players) == 2
    told = OutboxMessage.objects.filter(kind="tournament_bye")
    assert sorted(told.values_list("user_id", flat=True)) == sorted(p.pk for p in players)
    assert all(
        message.payload == {"tournament": tournament.pk, "round": 1, "text": "Кубок осени"}
        and message.game_id is None
        for message in told
    )


def test_the_bye_opens_the_tournament_page_in_the_players_language() -> None:
    tournament = open_tournament(rounds=2, name="Кубок осени")
    enter(tournament, 3)
    start(tournament)
    [sitting_out] = Placement.objects.filter(table__isnull=True)
    anna, boris = User.objects.filter(tournament_entries__entry=sitting_out.entry_id).order_by("pk")
    User.objects.filter(pk=boris.pk).update(language="en")
    # Boris wants no bye in the app nor by email.
    notification_services.update_settings(
        user=boris,
        changes={"in_app": {"tournament_bye": False}, "email": {"tournament_bye": False}},
    )
    notification_services.drain_outbox()
    page_path = f"/tournaments/{tournament.pk}/"
    assert Notification.objects.filter(user=anna, kind="tournament_bye").count() == 1
    assert not Notification.objects.filter(user=boris, kind="tournament_bye").exists()
    [email] = [message for message in mail.outbox if anna.email in message.to]
    assert email.subject == "Вы пропускаете тур турнира: он засчитан как победа"
    assert "Кубок осени" in email.body and page_path in email.body
    assert not [message for message in mail.outbox if boris.email in message.to]
    client = Client()
    client.force_login(anna)
    page = client.get("/notifications/").content.decode()
    assert f'<a href="{page_path}">Вы пропускаете тур турнира' in page
    push = texts.push_payload(
        kind="tournament_bye",
        game_id=None,
        payload={"tournament": tournament.pk, "round": 1, "text": "Кубок осени"},
        language="en",
        tag="t",
    )
    assert push["url"] == page_path
    assert push["title"] == "You sit this tournament round out: it counts as a win"
