"""Moderators: appointing and dismissing them, their duty shifts."""

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from accounts.models import User
from club import clock
from moderation import policy
from moderation.models import ModeratorShift
from moderation.permissions import REPORTER_IDENTITY_PERMISSION


def set_on_duty(*, moderator: User, on_duty: bool) -> ModeratorShift:
    shift, _ = ModeratorShift.objects.update_or_create(
        moderator=moderator, defaults={"on_duty": on_duty, "updated_at": clock.now()}
    )
    return shift


@transaction.atomic(durable=True)
def appoint_moderator(*, user: User, reveal_reporters: bool = False) -> None:
    """Into the Moderators group, with the staff flag the Django admin asks of every user;
    `reveal_reporters` also grants seeing who filed a report (given person by person)."""
    user.groups.add(Group.objects.get(name=policy.MODERATORS_GROUP))
    if reveal_reporters:
        user.user_permissions.add(_reporter_identity_permission())
    User.objects.filter(pk=user.pk).update(is_staff=True)


@transaction.atomic(durable=True)
def dismiss_moderator(*, user: User) -> None:
    """Out of the group, without the reporter-identity grant, off duty; superusers stay staff."""
    user.groups.remove(Group.objects.get(name=policy.MODERATORS_GROUP))
    user.user_permissions.remove(_reporter_identity_permission())
    ModeratorShift.objects.filter(moderator=user).update(on_duty=False, updated_at=clock.now())
    User.objects.filter(pk=user.pk, is_superuser=False).update(is_staff=False)


def _reporter_identity_permission() -> Permission:
    app_label, codename = REPORTER_IDENTITY_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)
