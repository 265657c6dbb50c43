"""A moderator never handles a report about themselves, filed by themselves, or about a game they
played: it is hidden (404, nothing revealed) in the API, the Django admin and the SLA alerts,
for superusers and Moderators-group members alike."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from club import clock
from games.models import Game
from moderation import services
from moderation.models import ModerationAuditEntry, Report
from tests.factories import UserFactory
from tests.moderation.conftest import (
    NotifyRecorder,
    client_for,
    file_report,
    make_group_moderator,
    over_game,
)

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/moderation/report/"
EMPTY_INLINES = {
    "sanction-TOTAL_FORMS": "0",
    "sanction-INITIAL_FORMS": "0",
    "audit_entries-TOTAL_FORMS": "0",
    "audit_entries-INITIAL_FORMS": "0",
}
# players[0] reports players[1]; players[2] only sat at the table.
SEAT_OF_ROLE = {"accused": 1, "reporter": 0, "fellow_player": 2}


def promote(user: User, kind: str) -> User:
    """Make a user a moderator who may also see reporters and use the admin."""
    User.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=kind == "superuser")
    if kind == "superuser":
        return User.objects.get(pk=user.pk)
    return make_group_moderator(user, reporter_identity=True)


@pytest.fixture
def report(players: list[User], game: Game) -> Report:
    assert file_report(players[0], game, players[1]).status_code == 201
    return Report.objects.get()


@pytest.fixture(params=["superuser", "group"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(params=list(SEAT_OF_ROLE))
def conflicted(request: pytest.FixtureRequest, players: list[User], kind: str) -> User:
    return promote(players[SEAT_OF_ROLE[request.param]], kind)


@pytest.fixture
def free_moderator(kind: str) -> User:
    return promote(UserFactory.create(), kind)


def claim_for(moderator: User, report: Report) -> None:
    """As if the moderator held the report (e.g. from before this rule): no way in even then."""
    Report.objects.filter(pk=report.pk).update(
        claimed_by=moderator, claim_expires_at=clock.now() + timedelta(minutes=30)
    )


def admin_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the API -------------------------------------------------------------------------------------


@pytest.mark.parametrize("status_filter", ["open", "unclaimed", "resolved"])
def test_the_queue_hides_the_report(
    report: Report, conflicted: User, free_moderator: User, status_filter: str
) -> None:
    if status_filter == "resolved":
        Report.objects.filter(pk=report.pk).update(
            status="resolved", decision="dismiss", resolved_at=clock.now()
        )
    url = f"/api/moderation/reports/?status={status_filter}"

    assert client_for(conflicted).get(url).json()["results"] == []
    assert [item["id"] for item in client_for(free_moderator).get(url).json()["results"]] == [
        report.pk
    ]


def test_the_detail_is_not_found(report: Report, conflicted: User, free_moderator: User) -> None:
    url = f"/api/moderation/reports/{report.pk}/"

    response = client_for(conflicted).get(url)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert client_for(free_moderator).get(url).status_code == 200


def test_claiming_is_not_found(report: Report, conflicted: User) -> None:
    response = client_for(conflicted).post(f"/api/moderation/reports/{report.pk}/claim/")

    assert response.status_code == 404
    report.refresh_from_db()
    assert report.claimed_by is None
    assert not ModerationAuditEntry.objects.exists()


def test_a_claim_held_by_another_moderator_is_not_revealed(
    report: Report, conflicted: User, free_moderator: User
) -> None:
    claim_for(free_moderator, report)

    response = client_for(conflicted).post(f"/api/moderation/reports/{report.pk}/claim/")

    assert response.status_code == 404  # not 409 `report_claimed`


@pytest.mark.parametrize("decision", ["dismiss", "warn"])
def test_resolving_is_not_found_even_when_holding_the_claim(
    players: list[User], report: Report, conflicted: User, decision: str
) -> None:
    claim_for(conflicted, report)

    response = client_for(conflicted).post(
        f"/api/moderation/reports/{report.pk}/resolve/",
        {"decision": decision, "message": "Всё в порядке."},
        format="json",
    )

    assert response.status_code == 404
    report.refresh_from_db()
    assert (report.status, report.decision) == ("open", "")
    assert not User.objects.get(pk=players[1].pk).sanctions.exists()


def test_releasing_is_not_found(report: Report, conflicted: User) -> None:
    claim_for(conflicted, report)

    response = client_for(conflicted).post(f"/api/moderation/reports/{report.pk}/release/")

    assert response.status_code == 404


def test_the_reporter_identity_is_not_found(
    players: list[User], report: Report, conflicted: User, free_moderator: User
) -> None:
    url = f"/api/moderation/reports/{report.pk}/reporter/"

    response = client_for(conflicted).get(url)

    assert response.status_code == 404
    assert str(players[0].username) not in response.content.decode()
    assert not ModerationAuditEntry.objects.filter(moderator=conflicted).exists()
    assert client_for(free_moderator).get(url).json()["reporter"]["id"] == players[0].pk


def test_other_reports_stay_workable(players: list[User], report: Report, conflicted: User) -> None:
    strangers = UserFactory.create_batch(4)
    other_game = over_game(strangers)
    assert file_report(strangers[0], other_game, strangers[1]).status_code == 201
    other = Report.objects.get(game=other_game)
    client = client_for(conflicted)

    queue = client.get("/api/moderation/reports/").json()["results"]
    claimed = client.post(f"/api/moderation/reports/{other.pk}/claim/")
    resolved = client.post(
        f"/api/moderation/reports/{other.pk}/resolve/",
        {"decision": "dismiss", "message": "Нарушений нет."},
        format="json",
    )

    assert [item["id"] for item in queue] == [other.pk]
    assert (claimed.status_code, resolved.status_code) == (200, 200)


# --- the Django admin ----------------------------------------------------------------------------


def test_the_admin_changelist_hides_the_report(
    report: Report, conflicted: User, free_moderator: User
) -> None:
    link = f"{CHANGELIST}{report.pk}/change/"

    assert link not in admin_client(conflicted).get(CHANGELIST).content.decode()
    assert link in admin_client(free_moderator).get(CHANGELIST).content.decode()


def test_the_admin_change_page_does_not_exist(report: Report, conflicted: User) -> None:
    response = admin_client(conflicted).get(f"{CHANGELIST}{report.pk}/change/")

    # The admin's answer for an id that does not exist: back to the index with a message.
    assert (response.status_code, response["Location"]) == (302, "/admin/")
    assert not ModerationAuditEntry.objects.filter(moderator=conflicted).exists()


def test_the_admin_claim_action_skips_the_report(report: Report, conflicted: User) -> None:
    admin_client(conflicted).post(
        CHANGELIST, {"action": "claim_reports", "_selected_action": [report.pk]}
    )

    report.refresh_from_db()
    assert report.claimed_by is None


def test_the_admin_answer_form_cannot_dismiss(report: Report, conflicted: User) -> None:
    claim_for(conflicted, report)

    admin_client(conflicted).post(
        f"{CHANGELIST}{report.pk}/change/",
        {"answer": "dismiss", "message": "Нарушений нет.", **EMPTY_INLINES},
    )

    report.refresh_from_db()
    assert report.status == "open"


def test_the_admin_audit_log_hides_the_report(
    report: Report, conflicted: User, free_moderator: User
) -> None:
    claimed = client_for(free_moderator).post(f"/api/moderation/reports/{report.pk}/claim/")
    assert claimed.status_code == 200
    url = "/admin/moderation/moderationauditentry/"

    assert f"Report #{report.pk}" not in admin_client(conflicted).get(url).content.decode()
    assert f"Report #{report.pk}" in admin_client(free_moderator).get(url).content.decode()


# --- the SLA alerts ------------------------------------------------------------------------------


def alerted(notifications: NotifyRecorder, kind: str) -> dict[int, list[int]]:
    return {sent.user_id: sent.payload["report_ids"] for sent in notifications.of_kind(kind)}


def test_the_accused_on_duty_moderator_is_not_alerted_about_their_report(
    players: list[User],
    report: Report,
    make_moderator: Callable[..., User],
    notifications: NotifyRecorder,
) -> None:
    accused = make_group_moderator(players[1])
    services.set_on_duty(moderator=accused, on_duty=True)
    off_duty = make_moderator()
    strangers = UserFactory.create_batch(4)
    other_game = over_game(strangers)
    assert file_report(strangers[0], other_game, strangers[1]).status_code == 201
    other = Report.objects.get(game=other_game)

    clock.advance(timedelta(hours=3))
    assert services.sweep_report_deadlines().due_soon == 2

    # Their own report goes to the next moderators instead; the other one stays with them.
    assert alerted(notifications, "report_due_soon") == {
        accused.pk: [other.pk],
        off_duty.pk: [report.pk],
    }


def test_the_accused_superuser_is_not_alerted_about_their_report(
    players: list[User], report: Report, notifications: NotifyRecorder
) -> None:
    accused = promote(players[1], "superuser")
    # And no moderator at all: the admins stand in for the due-soon alert.
    other_admin = UserFactory.create(is_superuser=True, is_staff=True)

    clock.advance(timedelta(hours=3))
    services.sweep_report_deadlines()
    clock.advance(timedelta(hours=1))
    services.sweep_report_deadlines()

    assert alerted(notifications, "report_due_soon") == {other_admin.pk: [report.pk]}
    assert alerted(notifications, "report_breached") == {other_admin.pk: [report.pk]}
    assert accused.pk not in {sent.user_id for sent in notifications.sent}


def test_when_the_only_admin_is_accused_the_breach_goes_to_the_moderators(
    players: list[User],
    report: Report,
    make_moderator: Callable[..., User],
    notifications: NotifyRecorder,
) -> None:
    accused = promote(players[1], "superuser")
    moderator = make_moderator()

    clock.advance(timedelta(hours=4))
    assert services.sweep_report_deadlines().breached == 1

    assert alerted(notifications, "report_breached") == {moderator.pk: [report.pk]}
    assert accused.pk not in {sent.user_id for sent in notifications.sent}
