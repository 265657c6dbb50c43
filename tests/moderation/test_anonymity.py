"""Reports are anonymous (R-CLUB-4): nothing the accused can call names the reporter.

The reporter gets a unique id, username and display name; every response body the accused can
reach after the whole report cycle (filed, claimed, answered with a sanction, notified) is
searched for them. Game endpoints list the players of a table by nature (the reporter is one of
them) and say nothing about reports, so they are not part of this check.
"""

import json
from collections.abc import Callable

import pytest
from django.core import mail
from django.db.models import Q

from accounts.models import User
from games.models import Game
from moderation.models import Afterword, Report
from notifications.models import Notification, OutboxMessage
from notifications.services import drain_outbox
from tests.factories import UserFactory
from tests.moderation.conftest import client_for, file_report, over_game

pytestmark = pytest.mark.django_db

REPORTER_ID = 987_654_321
REPORTER_USERNAME = "whistleblower_q7x"
REPORTER_DISPLAY_NAME = "Тайный Информатор"


def reveals_reporter(body: str) -> list[str]:
    lowered = body.lower()
    return [
        secret
        for secret in (str(REPORTER_ID), REPORTER_USERNAME.lower(), REPORTER_DISPLAY_NAME.lower())
        if secret in lowered
    ]


@pytest.fixture
def reporter(db: None) -> User:
    return UserFactory.create(
        id=REPORTER_ID, username=REPORTER_USERNAME, display_name=REPORTER_DISPLAY_NAME
    )


def test_nothing_the_accused_can_reach_names_the_reporter(
    reporter: User, make_moderator: Callable[..., User]
) -> None:
    accused, partner, other = UserFactory.create_batch(3)
    game: Game = over_game([reporter, accused, partner, other])
    rude = Afterword.objects.create(game=game, author=accused, to="table", text="Ну вы и слабаки")
    assert file_report(reporter, game, accused, afterword=rude.pk).status_code == 201
    report = Report.objects.get()
    moderator = make_moderator()
    client_for(moderator).post(f"/api/moderation/reports/{report.pk}/claim/")
    answered = client_for(moderator).post(
        f"/api/moderation/reports/{report.pk}/resolve/",
        {"decision": "mute", "days": 2, "message": f"Спасибо, {REPORTER_DISPLAY_NAME}!"},
        format="json",
    )
    assert answered.status_code == 200, answered.json()
    drain_outbox()  # what the Celery worker does after commit: in-app rows and emails
    client = client_for(accused)
    urls = [
        "/api/me/",
        f"/api/users/{accused.pk}/",
        "/api/notifications/",
        "/api/reports/mine/",
        "/api/sanctions/mine/",
        f"/api/games/{game.pk}/afterwords/",
        "/api/afterwords/phrases/",
        "/api/club/mood/",
        "/api/moderation/reports/",
        f"/api/moderation/reports/{report.pk}/",
        f"/api/moderation/reports/{report.pk}/reporter/",
        "/api/moderation/stats/",
    ]

    leaks = {}
    statuses = {}
    for url in urls:
        response = client.get(url)
        statuses[url] = response.status_code
        body = response.content.decode()
        if response.get("Content-Type", "").startswith("application/json"):
            body += json.dumps(response.json(), ensure_ascii=False)
        if found := reveals_reporter(body):
            leaks[url] = found
    # The accused's own attempts to act on the report.
    for url in ("claim", "release", "resolve"):
        response = client.post(f"/api/moderation/reports/{report.pk}/{url}/", {}, format="json")
        statuses[url] = response.status_code
        if found := reveals_reporter(response.content.decode()):
            leaks[url] = found

    assert leaks == {}
    assert statuses["/api/notifications/"] == 200
    assert statuses["/api/sanctions/mine/"] == 200
    assert all(statuses[u] == 403 for u in urls if u.startswith("/api/moderation/"))
    # The accused did get the sanction notice, and no stored notification or email names the
    # reporter either.
    assert Notification.objects.filter(user=accused, kind="sanction").exists()
    stored = list(Notification.objects.filter(user=accused).values_list("payload", "key")) + list(
        OutboxMessage.objects.filter(user=accused).values_list("payload", "key")
    )
    assert stored
    assert reveals_reporter(json.dumps(stored, ensure_ascii=False, default=str)) == []
    accused_mail = [m for m in mail.outbox if accused.email in m.to]
    assert accused_mail
    assert reveals_reporter("".join(f"{m.subject}\n{m.body}" for m in accused_mail)) == []
    # Only the reporter received the moderator's answer.
    assert not Notification.objects.filter(~Q(user=reporter), kind="report_answered").exists()
