"""Appointing and dismissing moderators (manage.py moderator add|remove)."""

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import User
from moderation.models import ModeratorShift
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def fresh(user: User) -> User:
    return User.objects.get(pk=user.pk)  # permissions are cached on the instance


def test_an_appointed_moderator_reaches_the_queue_and_the_admin():
    user = UserFactory.create()

    call_command("moderator", "add", user.username.upper())

    moderator = fresh(user)
    assert moderator.is_staff
    assert moderator.has_perm("moderation.change_report")
    assert not moderator.has_perm("moderation.view_reporter_identity")
    browser = Client()
    assert browser.login(username=user.username, password=DEFAULT_PASSWORD)
    assert browser.get("/admin/moderation/report/").status_code == 200


def test_reveal_reporters_is_granted_only_on_request():
    user = UserFactory.create()

    call_command("moderator", "add", user.username, "--reveal-reporters")

    assert fresh(user).has_perm("moderation.view_reporter_identity")


def test_a_dismissed_moderator_loses_queue_admin_duty_and_the_identity_grant():
    user = UserFactory.create()
    call_command("moderator", "add", user.username, "--reveal-reporters")
    ModeratorShift.objects.create(moderator=user, on_duty=True)

    call_command("moderator", "remove", user.username)

    former = fresh(user)
    assert not former.is_staff
    assert not former.has_perm("moderation.change_report")
    assert not former.has_perm("moderation.view_reporter_identity")
    assert not ModeratorShift.objects.get(moderator=user).on_duty


def test_a_dismissed_superuser_stays_staff():
    admin = UserFactory.create(is_superuser=True, is_staff=True)
    call_command("moderator", "add", admin.username)

    call_command("moderator", "remove", admin.username)

    assert fresh(admin).is_staff


def test_an_unknown_user_is_a_clear_error():
    with pytest.raises(CommandError, match="No user"):
        call_command("moderator", "add", "nobody")
