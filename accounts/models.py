from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from accounts.names import skeleton

# The club plays by Moscow time until a player picks their own zone.
DEFAULT_TIME_ZONE = "Europe/Moscow"


class UserQuerySet(models.QuerySet["User"]):
    def update(self, **kwargs: Any) -> int:
        """Every update of user rows through `User.objects` (counters, Authority, sanctions...):
        the token authentication's cached copies of these users are forgotten first
        (accounts/token_cache.py; `save()` is covered by a signal), but for the last-seen stamp
        alone, which nobody reads from the cache (token_cache.STAMPS)."""
        from accounts import token_cache

        # Not a migration's historical model (no cache there).
        if self.model is not User or set(kwargs) <= token_cache.STAMPS:
            return super().update(**kwargs)
        with token_cache.changing(token_cache.digests_of_users(self.values_list("pk", flat=True))):
            return super().update(**kwargs)


class ClubUserManager(UserManager.from_queryset(UserQuerySet)):  # type: ignore[misc]
    pass


class User(AbstractUser):
    display_name = models.CharField(max_length=40, blank=True)
    # What the username looks like (accounts/names.py): unique, so "Аdmin" in Cyrillic cannot
    # join beside "Admin". Kept by save() for every way an account is made (API, admin, shell);
    # NULL (unique allows many) only for look-alikes that existed before the column.
    username_skeleton = models.CharField(  # noqa: DJ001
        max_length=150, unique=True, null=True, editable=False
    )
    # The language of the user's emails; set from the request at sign-up, changed in /api/me/.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # Correspondence games: a discard waits for a second press (the profile's setting; a
    # misclick there costs a day).
    confirm_discard = models.BooleanField(default=False)
    # The table's phrases (games.table_phrases) of other players are not shown to this player
    # (the profile's and the table's switch).
    phrases_muted = models.BooleanField(default=False)
    # The last request of this player (accounts.middleware, at most once per SEEN_RESOLUTION):
    # who is online now, for the people who follow them (accounts.selectors.is_online).
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # Denormalised sum of moderation.AuthorityChange rows; only moderation's services move it.
    authority = models.IntegerField(default=0)
    # Denormalised counts of games' rows (the player card's and /api/me/'s figures); only games'
    # services move them, where a game ends and where a player leaves one to a bot
    # (games.services.records): games finished or abandoned with the seat kept to the end, and
    # games left to a bot while others played on; won with the winning team; abandoned by the
    # player (ended by their seat, or left to a bot).
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    games_abandoned = models.PositiveIntegerField(default=0)
    # Sanctions in force, set by moderation's services (the history is in moderation's tables).
    muted_until = models.DateTimeField(null=True, blank=True)
    suspended_until = models.DateTimeField(null=True, blank=True)
    # Empty for a person; for a bot, the level it plays (games.players.LEVELS).
    bot_level = models.CharField(max_length=10, blank=True, default="")
    # Correspondence time off (games.services.time_off): the vacation running or booked (for an
    # automatic one, the hour being spent), the allowance used in `vacation_year` and in the year
    # after it (a vacation booked across 31 December), the days off a week (0 = Monday) in the
    # player's own time zone, and whether a turn about to time out spends the allowance by itself.
    vacation_start = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_auto = models.BooleanField(default=False)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_hours_used = models.PositiveIntegerField(default=0)
    vacation_hours_next_year = models.PositiveIntegerField(default=0)
    auto_vacation = models.BooleanField(default=True)
    weekend_days = models.JSONField(default=list, blank=True)
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE)
    # The fields above that games.services.time_off writes and every game load reads with the
    # players.
    TIME_OFF_FIELDS = (
        "vacation_start",
        "vacation_until",
        "vacation_auto",
        "vacation_year",
        "vacation_hours_used",
        "vacation_hours_next_year",
        "auto_vacation",
        "weekend_days",
        "time_zone",
    )

    objects: ClassVar[ClubUserManager] = ClubUserManager()

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # django-stubs lack it
        constraints = [
            # "Alice" and "alice" would be two players nobody can tell apart.
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            # The email is the way back into the account (password reset): one account each.
            # Accounts made in the admin may have none.
            models.UniqueConstraint(
                Lower("email"), name="accounts_user_email_ci_unique", condition=~Q(email="")
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = skeleton(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    def is_muted(self, *, now: datetime) -> bool:
        return self.muted_until is not None and self.muted_until > now

    def is_suspended(self, *, now: datetime) -> bool:
        return self.suspended_until is not None and self.suspended_until > now

    def __str__(self) -> str:
        return self.display_name or self.username


DEVICE_NAME_MAX_LENGTH = 100


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def update(self, **kwargs: Any) -> int:
        """The token authentication's cached copies of these tokens are forgotten first, but for
        the authentication's own hourly `last_used_at`, which nobody reads from the cache."""
        from accounts import token_cache

        if set(kwargs) == {"last_used_at"}:
            return super().update(**kwargs)
        with token_cache.changing(self.values_list("digest", flat=True)):
            return super().update(**kwargs)


class ApiToken(models.Model):
    """One device's API token (`Authorization: Token <key>`). Only the SHA-256 of the key is
    stored: the key is shown once, when it is made, and a copy of this table lets nobody in."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    # What the owner sees in their list: the `device` sent at log-in, else the User-Agent.
    device = models.CharField(max_length=DEVICE_NAME_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=("user", "created_at"), name="accounts_token_user_idx")]

    def __str__(self) -> str:
        return f"{self.device or 'token'} of {self.user_id}"


class BrowserSession(AbstractBaseSession):
    """A browser's session (the session engine, accounts/sessions.py: Django's database engine)
    with the user signed in on it, so that the admin can end a user's sessions."""

    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.CASCADE, related_name="browser_sessions"
    )

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        from accounts.sessions import SessionStore  # the engine imports this module

        return SessionStore
