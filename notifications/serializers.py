from typing import Any

from rest_framework import serializers

from club.errors import Invalid
from club.i18n import current_language, text
from notifications import texts
from notifications.models import Kind, Notification

BIGINT_MAX = 2**63 - 1
# More than a page of notifications at once is a mistake (every id is an SQL parameter).
MAX_IDS_MARKED = 500


class NotificationSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id", allow_null=True)
    text = serializers.SerializerMethodField(help_text="The title, in the request's language.")
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "game", "payload", "text", "created_at", "read"]

    def get_text(self, notification: Notification) -> str:
        return texts.title(
            kind=notification.kind, game_id=notification.game_id, language=current_language()
        )

    def get_read(self, notification: Notification) -> bool:
        return notification.read_at is not None


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=BIGINT_MAX),
        required=False,
        max_length=MAX_IDS_MARKED,
    )
    all = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("all") and not attrs.get("ids"):
            raise serializers.ValidationError('Send {"ids": [...]} or {"all": true}.')
        return attrs


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many notifications became read.")


def _switches() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.BooleanField(), help_text=f"kind: on/off; kinds: {', '.join(Kind.values)}"
    )


class NotificationSettingsSerializer(serializers.Serializer):
    in_app = _switches()
    email = _switches()
    push = _switches()
    digest = serializers.BooleanField(
        help_text="One email a day listing what happened, instead of one email each."
    )


class NotificationSettingsPatchSerializer(serializers.Serializer):
    """A partial change of the switches. Refusals keep the codes the API has always given them
    (`unknown_field`, `unknown_kind`, `invalid` with one message), and switches are JSON
    booleans only, not DRF's "yes" or 1."""

    in_app = _switches()
    email = _switches()
    push = _switches()
    digest = serializers.BooleanField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise Invalid("invalid", text("Нужен JSON-объект.", "A JSON object is required."))
        unknown_fields = set(data) - set(self.fields)
        if unknown_fields:
            field = sorted(unknown_fields)[0]
            raise Invalid(
                "unknown_field", text(f"Неизвестное поле: {field}", f"Unknown field: {field}")
            )
        for channel in ("in_app", "email", "push"):
            switches = data.get(channel, {})
            if not isinstance(switches, dict):
                raise Invalid(
                    "invalid",
                    text(
                        f"{channel}: объект вида {{вид: true/false}}.",
                        f"{channel} must be an object of kind: bool.",
                    ),
                )
            for kind, enabled in switches.items():
                if kind not in Kind.values:
                    raise Invalid(
                        "unknown_kind",
                        text(
                            f"Неизвестный вид уведомлений: {kind}",
                            f"Unknown notification kind: {kind}",
                        ),
                    )
                if not isinstance(enabled, bool):
                    raise Invalid(
                        "invalid",
                        text("Переключатели: true или false.", "Switches must be true or false."),
                    )
        if "digest" in data and not isinstance(data["digest"], bool):
            raise Invalid(
                "invalid", text("digest: true или false.", "digest must be true or false.")
            )
        return dict(data)


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscriptionSerializer(serializers.Serializer):
    """The browser's `PushSubscription.toJSON()` as it is."""

    endpoint = serializers.URLField(max_length=2000)
    keys = PushKeysSerializer()


class PushEndpointSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=2000)


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(
        help_text="The club's VAPID key for pushManager.subscribe({applicationServerKey})."
    )
