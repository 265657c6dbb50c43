from datetime import datetime

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import DEVICE_NAME_MAX_LENGTH, ApiToken, User
from club import clock

# Passwords are never trimmed; the cap keeps hashing cheap for absurd inputs.
PASSWORD_MAX_LENGTH = 128


def password_field(*, required: bool = True, help_text: str = "") -> serializers.CharField:
    return serializers.CharField(
        max_length=PASSWORD_MAX_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        required=required,
        help_text=help_text or None,
    )


class RegisterSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = password_field()
    email = serializers.EmailField()
    display_name = serializers.CharField(
        max_length=40, required=False, help_text="Shown to other players; the username if omitted."
    )


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = password_field()
    device = serializers.CharField(
        max_length=DEVICE_NAME_MAX_LENGTH,
        required=False,
        help_text="Names the token in your list of devices.",
    )


class ApiTokenSerializer(serializers.ModelSerializer):
    """A token as its owner sees it: never the key (only its digest is stored)."""

    current = serializers.SerializerMethodField(help_text="The token this request carries.")

    class Meta:
        model = ApiToken
        fields = ["id", "device", "created_at", "last_used_at", "expires_at", "current"]
        read_only_fields = fields

    def get_current(self, token: ApiToken) -> bool:
        return bool(token.pk == self.context.get("current"))


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")


class PasswordChangeSerializer(serializers.Serializer):
    old_password = password_field()
    new_password = password_field()


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.EmailField()


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=64)
    new_password = password_field()


class PlayerCardSerializer(serializers.ModelSerializer):
    """The account's part of a player's card as anyone sees it: never the email or sanctions.
    The API layer adds the games and the time away (profiles.serializers)."""

    is_bot = serializers.BooleanField(read_only=True, help_text="A computer player.")
    bot_level = serializers.CharField(
        read_only=True, help_text="A bot's level (beginner, club, expert); empty for a person."
    )

    class Meta:
        model = User
        fields = ["id", "display_name", "authority", "is_bot", "bot_level"]
        read_only_fields = fields


class AccountSerializer(serializers.ModelSerializer):
    """The account as its owner sees it. The API layer adds the games, the notification
    settings and the vacation (profiles.serializers)."""

    muted_until = serializers.SerializerMethodField(
        help_text="End of a mute in force (no afterwords), else null."
    )
    suspended_until = serializers.SerializerMethodField(
        help_text="End of a suspension in force (no new tables), else null."
    )

    class Meta:
        model = User
        fields = [
            "id",
            "username",
            "display_name",
            "email",
            "language",
            "authority",
            "muted_until",
            "suspended_until",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_muted_until(self, user: User) -> datetime | None:
        return user.muted_until if user.is_muted(now=clock.now()) else None

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_suspended_until(self, user: User) -> datetime | None:
        return user.suspended_until if user.is_suspended(now=clock.now()) else None
