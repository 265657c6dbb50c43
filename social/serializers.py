"""The documented shapes of the relations' answers (CONTRACT.md §8)."""

from rest_framework import serializers

from accounts.models import User


class PlayerNameSerializer(serializers.Serializer):
    """A player as the lists name them."""

    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The shown name (the log-in name where none is set).")


def player_name(player: User) -> dict[str, object]:
    return {"id": player.pk, "name": str(player)}
