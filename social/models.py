"""Relations between players (issue 37): whom a player follows, and whom they block.

A leaf of the games: it knows accounts only. The games (seats, invitations, the lobby),
moderation (afterwords) and the pages ask it; it never asks them.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Now


class Follow(models.Model):
    """`follower` follows `followed`: sees them in "people I follow", online and waiting for a
    game (unless `followed` blocked them), and invites them from there."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [
            # Also the index of a player's list (its first column).
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """`blocker` blocks `blocked`, privately: the two never share a table (neither sits where
    the other sits or is invited, neither invites the other), write no afterwords to each
    other, see none of each other's lobby tables, and `blocked` never sees `blocker` online."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        # Who blocked a player (the other direction of every check).
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
