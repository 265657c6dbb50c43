"""The players' profiles as the API shows them, composed from the apps: the account
(accounts), the games played and the correspondence time off (games), the notification settings
(notifications). Composed here so that accounts never imports games."""

from datetime import datetime

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import User
from accounts.selectors import is_online
from accounts.serializers import AccountSerializer, PlayerCardSerializer, password_field
from club import clock
from games.selectors import people_followed, player_stats, time_off
from games.services.time_off import check_time_zone, check_weekend_days
from notifications.selectors import settings_for
from notifications.serializers import NotificationSettingsSerializer
from ratings import selectors as rating_selectors
from ratings.serializers import StandingSerializer
from social import selectors as social_selectors


class GameStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    abandoned = serializers.IntegerField()


RATINGS_HELP = (
    "The player's rating in each pool they have played a rated game in (CONTRACT §6), the most "
    "played first."
)


def ratings_of(user: User) -> list[dict[str, object]]:
    return [
        standing.as_dict()
        for standing in rating_selectors.ratings_of(user_id=user.pk, now=clock.now())
    ]


class PublicUserSerializer(PlayerCardSerializer):
    """A player's card as anyone sees it: never the email or sanctions. With the `viewer` in
    its context, also what the player is to them (social)."""

    games = serializers.SerializerMethodField()
    ratings = serializers.SerializerMethodField(help_text=RATINGS_HELP)
    away_until = serializers.SerializerMethodField(
        help_text="When the player is back from a vacation or a day off (their correspondence "
        "turns' clocks stop meanwhile); null when not away."
    )
    away_reason = serializers.SerializerMethodField(
        help_text="Why the player is away until `away_until`: `vacation` or `day_off`; null "
        "exactly when `away_until` is null."
    )

    class Meta(PlayerCardSerializer.Meta):
        fields = [
            "id",
            "display_name",
            "authority",
            "games",
            "ratings",
            "is_bot",
            "bot_level",
            "away_until",
            "away_reason",
            "online",
            "following",
            "blocked",
        ]
        read_only_fields = fields

    online = serializers.SerializerMethodField(
        help_text="In the club now (seen within the last few minutes); always false to a "
        "player they keep apart from (a block either way)."
    )
    following = serializers.SerializerMethodField(help_text="You follow this player.")
    blocked = serializers.SerializerMethodField(
        help_text="You blocked this player (only you see it)."
    )

    def _relation(self, user: User) -> social_selectors.Relation:
        viewer: User = self.context["viewer"]
        if "relation" not in self.context:
            self.context["relation"] = social_selectors.relation(viewer=viewer, player_id=user.pk)
        relation: social_selectors.Relation = self.context["relation"]
        return relation

    def get_online(self, user: User) -> bool:
        if user.is_bot or self._relation(user).apart:
            return False
        return is_online(user=user)

    def get_following(self, user: User) -> bool:
        return self._relation(user).following

    def get_blocked(self, user: User) -> bool:
        return self._relation(user).blocked

    @extend_schema_field(GameStatsSerializer)
    def get_games(self, user: User) -> dict[str, int]:
        return player_stats(user=user)

    @extend_schema_field(StandingSerializer(many=True))
    def get_ratings(self, user: User) -> list[dict[str, object]]:
        return ratings_of(user)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_away_until(self, user: User) -> datetime | None:
        return time_off.away_until(user, clock.now())

    @extend_schema_field(
        serializers.ChoiceField(choices=list(time_off.AWAY_REASONS), allow_null=True)
    )
    def get_away_reason(self, user: User) -> str | None:
        away = time_off.absence(user, clock.now())
        return away.reason if away is not None else None


class VacationSerializer(serializers.Serializer):
    """Correspondence time off (games.selectors.time_off); CONTRACT.md §5."""

    days_left = serializers.FloatField(
        help_text="Vacation days left this calendar year (UTC); the allowance "
        "(CORRESPONDENCE_VACATION_DAYS, 14 by default) renews on 1 January. Counted in hours, "
        "each charged to the year it falls in: an automatic vacation spends 1/24 of a day at a "
        "time, and a vacation booked into next year spends next year's days."
    )
    days_left_next_year = serializers.FloatField(
        help_text="Vacation days left next calendar year: the allowance less the hours of "
        "vacations already booked into it."
    )
    until = serializers.DateTimeField(
        allow_null=True,
        help_text="The end of your vacation running or booked (an automatic hour included); "
        "null when none.",
    )
    starts = serializers.DateTimeField(
        allow_null=True, help_text="When that vacation starts (a booked one: in the future)."
    )
    auto = serializers.BooleanField(
        help_text="Automatic vacation (on by default): a correspondence turn about to time out "
        "spends an hour of your days instead, telling you once, while days are left."
    )
    weekend_days = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        help_text="Days off each week, Monday = 0 (at most 3): your turns' clocks stop on them, "
        "midnight to midnight in `time_zone`.",
    )
    time_zone = serializers.CharField(help_text="An IANA zone, e.g. `Europe/Moscow`.")


class VacationSettingsSerializer(serializers.Serializer):
    auto = serializers.BooleanField(required=False)
    weekend_days = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        required=False,
        max_length=7,
        help_text="Monday = 0; at most 3 days (else 400 `invalid`).",
    )
    time_zone = serializers.CharField(
        required=False, max_length=64, help_text="An IANA zone (else 400 `invalid`)."
    )

    def validate_weekend_days(self, days: list[int]) -> list[int]:
        return check_weekend_days(days)

    def validate_time_zone(self, name: str) -> str:
        return check_time_zone(name)


class VacationRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        min_value=1,
        max_value=366,
        help_text="Whole days, each hour charged to the year it falls in; more than a year has "
        "left: 400 `vacation_exceeds_allowance`.",
    )
    start = serializers.DateTimeField(
        required=False,
        help_text="When it starts (ISO 8601); now when left out. The vacation must end within "
        "365 days of now (else 400 `vacation_too_far_ahead`).",
    )


def vacation_answer(vacation: time_off.Vacation) -> dict[str, object]:
    return VacationSerializer(vacation).data


class MeSerializer(AccountSerializer):
    """Your own profile: the account, your games, notification settings and vacation."""

    games = serializers.SerializerMethodField()
    ratings = serializers.SerializerMethodField(help_text=RATINGS_HELP)
    notification_settings = serializers.SerializerMethodField()
    vacation = serializers.SerializerMethodField()

    class Meta(AccountSerializer.Meta):
        fields = [
            "id",
            "username",
            "display_name",
            "email",
            "language",
            "authority",
            "games",
            "ratings",
            "muted_until",
            "suspended_until",
            "phrases_muted",
            "notification_settings",
            "vacation",
        ]
        read_only_fields = fields

    @extend_schema_field(GameStatsSerializer)
    def get_games(self, user: User) -> dict[str, int]:
        return player_stats(user=user)

    @extend_schema_field(StandingSerializer(many=True))
    def get_ratings(self, user: User) -> list[dict[str, object]]:
        return ratings_of(user)

    @extend_schema_field(NotificationSettingsSerializer)
    def get_notification_settings(self, user: User) -> dict[str, object]:
        return settings_for(user=user)

    @extend_schema_field(VacationSerializer)
    def get_vacation(self, user: User) -> dict[str, object]:
        return vacation_answer(time_off.vacation_of(user))


class ProfileUpdateSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=40, required=False)
    email = serializers.EmailField(
        required=False, help_text="A new email needs `password` (else 400 `wrong_password`)."
    )
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES, required=False, help_text="The language of your emails."
    )
    password = password_field(
        required=False, help_text="The current password; needed only to change the email."
    )
    phrases_muted = serializers.BooleanField(
        required=False,
        help_text="The other players' table phrases are not shown to you (your own are).",
    )
    vacation = VacationSettingsSerializer(
        required=False,
        help_text="Correspondence time off: automatic vacation on/off, days off, time zone. "
        "Your running turns are re-timed for new days off from now on.",
    )


class RegisteredSerializer(serializers.Serializer):
    user = MeSerializer()
    token = serializers.CharField()


class FollowedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    online = serializers.BooleanField(
        help_text="In the club now; always false for a player who keeps apart from you."
    )
    waiting_games = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The public tables waiting for players where they sit (join them there); "
        "empty for a player who keeps apart from you.",
    )


def following_answer(*, user: User) -> list[dict[str, object]]:
    """The players `user` follows, by name: who is online now and who waits for a game."""
    return [
        {
            "id": followed.player.id,
            "name": followed.player.name,
            "online": followed.player.online,
            "waiting_games": followed.waiting_games,
        }
        for followed in people_followed(user=user)
    ]
