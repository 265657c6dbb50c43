"""No admin list can be filtered by a report's reporter (issue #11, finding 2): Django's
lookup_allowed accepts a filter on any local foreign key, so `?reporter=<user id>` named the
reporter of a game's report in three requests, unaudited."""

from collections.abc import Callable

import pytest
from django.contrib import admin
from django.test import Client

from accounts.models import User
from canasta_club.admin import ClubModelAdmin
from games.models import Game
from moderation.models import Afterword, Report
from tests.moderation.conftest import file_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(players: list[User], game: Game) -> Report:
    rude = Afterword.objects.create(game=game, author=players[1], to="table", text="Слабаки!")
    assert file_report(players[0], game, players[1], afterword=rude.pk).status_code == 201
    return Report.objects.get()


def _staff_client(user: User) -> Client:
    User.objects.filter(pk=user.pk).update(is_staff=True)
    client = Client()
    client.force_login(user)
    return client


def _lookups(report: Report) -> list[str]:
    reporter = report.reporter_id
    return [
        f"/admin/moderation/report/?reporter={reporter}",
        f"/admin/moderation/report/?reporter__id__exact={reporter}",
        f"/admin/moderation/report/?reporter_id={reporter}",
        f"/admin/moderation/report/?reporter__username={report.reporter.username}",
        f"/admin/moderation/sanction/?report__reporter={reporter}",
        f"/admin/moderation/moderationauditentry/?report__reporter__id={reporter}",
        f"/admin/accounts/user/?reports_filed__id={report.pk}",
        f"/admin/accounts/user/?reports_filed={report.pk}",
    ]


@pytest.mark.parametrize("grant", ["moderator", "senior moderator", "superuser"])
def test_no_admin_list_filters_by_the_reporter(
    report: Report, make_moderator: Callable[..., User], grant: str
) -> None:
    user = make_moderator(reporter_identity=grant == "senior moderator")
    if grant == "superuser":
        User.objects.filter(pk=user.pk).update(is_superuser=True)
    client = _staff_client(user)

    answers = {url: client.get(url).status_code for url in _lookups(report)}

    assert set(answers.values()) <= {400, 403}, answers


def test_other_filters_still_work(report: Report, moderator: User) -> None:
    client = _staff_client(moderator)

    assert client.get(f"/admin/moderation/report/?accused={report.accused_id}").status_code == 200
    assert client.get("/admin/moderation/report/?status=open").status_code == 200


def test_every_admin_of_the_club_refuses_such_lookups() -> None:
    # Django's own admins (groups, beat schedules) reach a reporter only through two or
    # more relations, which Django refuses unless list_filter names them.
    plain = [
        type(model_admin).__name__
        for model_admin in admin.site._registry.values()
        if not isinstance(model_admin, ClubModelAdmin)
        and model_admin.model._meta.app_label not in {"auth", "django_celery_beat"}
    ]

    assert plain == []
