"""The moderators' queue: claim, release, answer, sanctions, evidence, stats, the audit log."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group

from accounts.models import User
from club import clock
from games.models import Game, Move
from moderation import policy
from moderation.models import Afterword, AuthorityChange, ModerationAuditEntry, Report, Sanction
from tests.factories import UserFactory
from tests.moderation.conftest import NotifyRecorder, client_for, file_report, over_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(players: list[User], game: Game) -> Report:
    assert file_report(players[0], game, players[1]).status_code == 201
    return Report.objects.get()


def claim(moderator: User, report: Report):
    return client_for(moderator).post(f"/api/moderation/reports/{report.pk}/claim/")


def resolve(moderator: User, report: Report, **body):
    body = {"message": "Спасибо, разобрались.", **body}
    return client_for(moderator).post(
        f"/api/moderation/reports/{report.pk}/resolve/", body, format="json"
    )


MODERATOR_URLS = [
    ("get", "/api/moderation/reports/"),
    ("get", "/api/moderation/reports/{id}/"),
    ("post", "/api/moderation/reports/{id}/claim/"),
    ("post", "/api/moderation/reports/{id}/release/"),
    ("post", "/api/moderation/reports/{id}/resolve/"),
    ("get", "/api/moderation/reports/{id}/reporter/"),
    ("get", "/api/moderation/stats/"),
    ("get", "/api/moderation/duty/"),
]


@pytest.mark.parametrize(("method", "url"), MODERATOR_URLS)
def test_players_cannot_use_the_moderator_api(
    players: list[User], report: Report, method: str, url: str
) -> None:
    response = getattr(client_for(players[1]), method)(url.format(id=report.pk))

    assert response.status_code == 403


def test_the_queue_is_ordered_by_due_time_with_seconds_left(
    players: list[User], moderator: User
) -> None:
    first = over_game(players)
    file_report(players[0], first, players[1], reason="rudeness")
    clock.advance(timedelta(minutes=10))
    second = over_game(players)
    file_report(players[2], second, players[3], reason="cheating")

    queue = client_for(moderator).get("/api/moderation/reports/").json()
    cheating = client_for(moderator).get("/api/moderation/reports/?reason=cheating").json()

    assert [item["game"] for item in queue["results"]] == [first.pk, second.pk]
    seconds_left = [item["seconds_left"] for item in queue["results"]]
    assert 4 * 3600 - 10 * 60 - 60 < seconds_left[0] <= 4 * 3600 - 10 * 60
    assert 4 * 3600 - 60 < seconds_left[1] <= 4 * 3600
    assert [item["game"] for item in cheating["results"]] == [second.pk]
    assert all("reporter" not in item for item in queue["results"])


def test_status_filters(players: list[User], game: Game, moderator: User) -> None:
    for accused in players[1:]:
        file_report(players[0], game, accused)
    first, second, _third = Report.objects.order_by("pk")
    claim(moderator, first)
    claim(moderator, second)
    resolve(moderator, second, decision="dismiss")
    client = client_for(moderator)

    def ids(status: str) -> list[int]:
        return [
            item["id"]
            for item in client.get(f"/api/moderation/reports/?status={status}").json()["results"]
        ]

    assert ids("open") == [first.pk, _third.pk]
    assert ids("claimed") == [first.pk]
    assert ids("unclaimed") == [_third.pk]
    assert ids("resolved") == [second.pk]
    assert client.get("/api/moderation/reports/?status=lost").status_code == 400


def test_claim_is_exclusive_and_lapses_when_idle(
    report: Report, make_moderator: Callable[..., User]
) -> None:
    anna, boris = make_moderator(), make_moderator()

    assert claim(anna, report).status_code == 200
    taken = claim(boris, report)
    assert taken.status_code == 409
    assert taken.json()["code"] == "report_claimed"
    assert claim(anna, report).status_code == 200  # renewing one's own claim

    clock.advance(policy.CLAIM_IDLE_TIMEOUT + timedelta(seconds=1))

    assert claim(boris, report).status_code == 200
    report.refresh_from_db()
    assert report.claimed_by == boris
    assert resolve(anna, report, decision="dismiss").json()["code"] == "not_claimed"


def test_release_gives_the_report_back(report: Report, make_moderator: Callable[..., User]) -> None:
    anna, boris = make_moderator(), make_moderator()
    claim(anna, report)

    assert (
        client_for(boris).post(f"/api/moderation/reports/{report.pk}/release/").status_code == 409
    )
    assert client_for(anna).post(f"/api/moderation/reports/{report.pk}/release/").status_code == 200
    assert claim(boris, report).status_code == 200


def test_answer_needs_a_claim(report: Report, moderator: User) -> None:
    response = resolve(moderator, report, decision="dismiss")

    assert response.status_code == 409
    assert response.json()["code"] == "not_claimed"


def test_dismissal_answers_the_reporter_and_spares_the_accused(
    players: list[User], report: Report, moderator: User, notifications: NotifyRecorder
) -> None:
    claim(moderator, report)

    response = resolve(moderator, report, decision="dismiss", message="Нарушений не нашли.")

    assert response.status_code == 200, response.json()
    [answer] = notifications.of_kind("report_answered")
    assert answer.user_id == players[0].pk
    assert answer.payload["message"] == "Нарушений не нашли."
    assert notifications.of_kind("sanction") == []
    accused = User.objects.get(pk=players[1].pk)
    assert (accused.authority, accused.muted_until, accused.suspended_until) == (0, None, None)
    again = resolve(moderator, report, decision="warn")
    assert again.status_code == 409
    assert again.json()["code"] == "report_resolved"


def test_a_mute_silences_lowers_authority_and_notifies_anonymously(
    players: list[User], game: Game, report: Report, moderator: User, notifications: NotifyRecorder
) -> None:
    claim(moderator, report)

    response = resolve(moderator, report, decision="mute", days=3)

    assert response.status_code == 200, response.json()
    accused = User.objects.get(pk=players[1].pk)
    now = clock.now()
    assert accused.muted_until is not None
    assert (
        now + timedelta(days=3) - timedelta(minutes=1)
        < accused.muted_until
        <= now + timedelta(days=3)
    )
    assert accused.suspended_until is None
    assert accused.authority == -policy.UPHELD_REPORT_PENALTY["mute"]
    change = AuthorityChange.objects.get(report=report)
    assert (change.kind, change.amount) == ("report_upheld", -policy.UPHELD_REPORT_PENALTY["mute"])
    [notice] = notifications.of_kind("sanction")
    assert notice.user_id == accused.pk
    assert notice.payload == {
        "sanction": "mute",
        "until": accused.muted_until.isoformat(),
        "reason": "rudeness",
    }
    # The mute is enforced: no afterwords.
    refused = client_for(accused).post(
        f"/api/games/{game.pk}/afterwords/", {"to": "table", "text": "ну-ну"}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "muted"
    mine = client_for(accused).get("/api/sanctions/mine/").json()
    assert [(item["kind"], item["reason"]) for item in mine] == [("mute", "rudeness")]


def test_a_suspension_keeps_the_player_from_tables(
    players: list[User], report: Report, moderator: User
) -> None:
    claim(moderator, report)

    assert resolve(moderator, report, decision="suspend", days=7).status_code == 200

    accused = User.objects.get(pk=players[1].pk)
    assert accused.suspended_until is not None
    assert accused.muted_until == accused.suspended_until
    assert accused.authority == -policy.UPHELD_REPORT_PENALTY["suspend"]
    opened = client_for(accused).post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": {}}, format="json"
    )
    assert opened.status_code == 403
    assert opened.json()["code"] == "suspended"


def test_a_warning_lowers_authority_without_silencing(
    players: list[User], report: Report, moderator: User
) -> None:
    claim(moderator, report)

    assert resolve(moderator, report, decision="warn").status_code == 200

    accused = User.objects.get(pk=players[1].pk)
    assert (accused.muted_until, accused.suspended_until) == (None, None)
    assert accused.authority == -policy.UPHELD_REPORT_PENALTY["warn"]
    assert Sanction.objects.get().kind == "warn"


@pytest.mark.parametrize("decision", ["mute", "suspend"])
def test_mute_and_suspension_need_days(report: Report, moderator: User, decision: str) -> None:
    claim(moderator, report)

    response = resolve(moderator, report, decision=decision)

    assert response.status_code == 400
    assert response.json()["code"] == "days_required"
    assert resolve(moderator, report, decision=decision, days=0).status_code == 400
    assert resolve(moderator, report, decision=decision, days=10_000).status_code == 400


def test_a_longer_sanction_in_force_is_not_shortened(
    players: list[User], game: Game, moderator: User
) -> None:
    file_report(players[0], game, players[1])
    file_report(players[2], game, players[1])
    first, second = Report.objects.order_by("pk")
    claim(moderator, first)
    resolve(moderator, first, decision="mute", days=30)
    until = User.objects.get(pk=players[1].pk).muted_until
    claim(moderator, second)

    resolve(moderator, second, decision="mute", days=1)

    assert User.objects.get(pk=players[1].pk).muted_until == until


def test_the_moderator_sees_evidence_and_the_accuseds_history(
    players: list[User], game: Game, moderator: User
) -> None:
    rude = Afterword.objects.create(
        game=game, author=players[1], to="table", text="Играете как дети"
    )
    Move.objects.create(game=game, seq=1, deal_number=1, seat=1, action={"type": "draw"})
    Move.objects.create(
        game=game,
        seq=2,
        deal_number=1,
        seat=1,
        action={"type": "discard", "card": "7H"},
        automatic=True,
    )
    earlier_game = over_game(players)
    file_report(players[2], earlier_game, players[1])
    earlier = Report.objects.get()
    claim(moderator, earlier)
    resolve(moderator, earlier, decision="warn")
    file_report(players[0], game, players[1], afterword=rude.pk)
    report = Report.objects.latest("pk")

    detail = client_for(moderator).get(f"/api/moderation/reports/{report.pk}/").json()

    assert detail["afterword"]["text"] == "Играете как дети"
    assert detail["move_log"]["total_moves"] == 2
    seat_one = next(seat for seat in detail["move_log"]["seats"] if seat["seat"] == 1)
    assert (seat_one["moves"], seat_one["automatic_moves"]) == (2, 1)
    assert detail["accused_history"]["reports_total"] == 1
    assert detail["accused_history"]["recent_reports"][0]["decision"] == "warn"
    assert [s["kind"] for s in detail["accused_history"]["sanctions"]] == ["warn"]
    assert "reporter" not in detail


def test_reporter_identity_needs_the_separate_permission_and_is_audited(
    players: list[User], report: Report, make_moderator: Callable[..., User]
) -> None:
    plain, senior = make_moderator(), make_moderator(reporter_identity=True)
    url = f"/api/moderation/reports/{report.pk}/reporter/"

    assert client_for(plain).get(url).status_code == 403
    response = client_for(senior).get(url)

    assert response.status_code == 200
    assert response.json()["reporter"]["id"] == players[0].pk
    [entry] = ModerationAuditEntry.objects.filter(action="view_reporter")
    assert (entry.moderator, entry.report) == (senior, report)


def test_every_moderator_action_is_audited(report: Report, moderator: User) -> None:
    client = client_for(moderator)
    claim(moderator, report)
    client.post(f"/api/moderation/reports/{report.pk}/release/")
    claim(moderator, report)
    resolve(moderator, report, decision="warn")

    actions = list(
        ModerationAuditEntry.objects.filter(report=report)
        .order_by("pk")
        .values_list("action", "moderator")
    )

    assert actions == [
        ("claim", moderator.pk),
        ("release", moderator.pk),
        ("claim", moderator.pk),
        ("resolve", moderator.pk),
    ]


def test_stats(players: list[User], moderator: User) -> None:
    games = [over_game(players) for _ in range(3)]
    for game in games:
        file_report(players[0], game, players[1])
    in_time, late, _still_open = Report.objects.order_by("pk")
    clock.advance(timedelta(hours=1))
    claim(moderator, in_time)
    resolve(moderator, in_time, decision="dismiss")
    clock.advance(timedelta(hours=4))
    claim(moderator, late)
    resolve(moderator, late, decision="dismiss")

    stats = client_for(moderator).get("/api/moderation/stats/").json()

    assert stats["open_reports"] == 1
    assert 5 * 3600 - 60 <= stats["oldest_open_age_seconds"] <= 5 * 3600 + 60
    # Three reports fell due; one was answered in time.
    assert stats["answered_within_sla_7d"] == stats["answered_within_sla_30d"] == round(1 / 3, 4)
    assert 3 * 3600 - 60 <= stats["median_answer_seconds_30d"] <= 3 * 3600 + 60


def test_stats_leave_out_what_the_moderator_may_not_see(
    players: list[User], moderator: User
) -> None:
    file_report(players[0], over_game(players), players[1])
    # A game the moderator played: its report is hidden from them, counts included.
    table = [moderator, *players[1:]]
    assert file_report(players[1], over_game(table), moderator).status_code == 201

    stats = client_for(moderator).get("/api/moderation/stats/").json()

    assert stats["open_reports"] == 1
    assert client_for(moderator).get("/api/moderation/reports/").json()["count"] == 1


def test_duty(moderator: User) -> None:
    client = client_for(moderator)

    assert client.get("/api/moderation/duty/").json() == {"on_duty": False}
    assert client.put("/api/moderation/duty/", {"on_duty": True}, format="json").status_code == 200
    assert client.get("/api/moderation/duty/").json() == {"on_duty": True}


def test_moderators_group_exists_without_the_reporter_identity_permission() -> None:
    moderator = UserFactory.create()
    moderator.groups.add(Group.objects.get(name=policy.MODERATORS_GROUP))
    moderator = User.objects.get(pk=moderator.pk)

    assert moderator.has_perm("moderation.change_report")
    assert not moderator.has_perm("moderation.view_reporter_identity")
