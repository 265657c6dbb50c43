"""Reads of the relations between players: who follows whom, and who keeps apart from whom."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce, Lower, NullIf

from accounts.models import User
from accounts.selectors import online
from club.postgres import AnyOf
from social.models import Block, Follow


def blocked_either_way(*, user_id: int) -> set[int]:
    """The players `user_id` blocked or was blocked by: those a block keeps apart from them."""
    return set(
        Block.objects.filter(blocker_id=user_id)
        .values_list("blocked_id", flat=True)
        .union(Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True))
    )


def blocked_between(*, user_id: int, others: Iterable[int]) -> bool:
    """A block either way between `user_id` and any of `others`."""
    others = set(others) - {user_id}
    if not others:
        return False
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=others) | Q(blocked_id=user_id, blocker_id__in=others)
    ).exists()


def is_following(*, user: User, player_id: int) -> bool:
    return Follow.objects.filter(follower=user, followed_id=player_id).exists()


def has_blocked(*, user: User, player_id: int) -> bool:
    return Block.objects.filter(blocker=user, blocked_id=player_id).exists()


def _by_name(players: QuerySet[User]) -> QuerySet[User]:
    """As the pages show them: the shown name (the log-in name where there is none), any case."""
    return players.order_by(Lower(Coalesce(NullIf("display_name", Value("")), "username")), "pk")


def blocked_by(*, user: User) -> QuerySet[User]:
    """The players `user` blocked, by name (their profile's list, where each is undone)."""
    return _by_name(
        User.objects.filter(pk__in=Block.objects.filter(blocker=user).values("blocked"))
    )


@dataclass(frozen=True)
class FollowedPlayer:
    """A player `user` follows, as their list shows them: `online` is always False for a player
    who blocked `user` (`hidden`: nothing of what they do is shown)."""

    id: int
    name: str
    online: bool
    hidden: bool


def followed_by(*, user: User) -> QuerySet[Follow, Any]:
    """Whom `user` follows (`followed` ids: a subquery for other reads)."""
    return Follow.objects.filter(follower=user).values("followed")


def following(*, user: User) -> list[FollowedPlayer]:
    """The players `user` follows, by name, with who is online now: one query, whatever their
    number, reading the players by the ids followed (the primary key's index; joined to the
    follows, PostgreSQL would read every player of the club)."""
    blocked_user = Block.objects.filter(blocker=OuterRef("pk"), blocked=user)
    followed = Subquery(followed_by(user=user))
    rows = _by_name(User.objects.filter(AnyOf(F("pk"), followed))).values_list(
        "pk",
        "username",
        "display_name",
        ExpressionWrapper(online(), output_field=BooleanField()),
        Exists(blocked_user),
    )
    return [
        FollowedPlayer(
            # `seen` is NULL for a player never seen.
            id=pk,
            name=display_name or username,
            online=bool(seen) and not hidden,
            hidden=hidden,
        )
        for pk, username, display_name, seen, hidden in rows
    ]


@dataclass(frozen=True)
class Relation:
    """What one player is to another, as the other's card shows it to them."""

    following: bool  # the viewer follows the player
    blocked: bool  # the viewer blocked the player
    apart: bool  # a block either way: nothing the player does is shown to the viewer


def relation(*, viewer: User, player_id: int) -> Relation:
    """One query: the viewer's follow and the blocks between the two."""
    rows = set(
        Follow.objects.filter(follower=viewer, followed_id=player_id)
        .values_list(Value("following"))
        .union(
            Block.objects.filter(blocker=viewer, blocked_id=player_id).values_list(
                Value("blocked")
            ),
            Block.objects.filter(blocker_id=player_id, blocked=viewer).values_list(
                Value("blocked_by")
            ),
        )
    )
    kinds = {kind for (kind,) in rows}
    return Relation(
        following="following" in kinds,
        blocked="blocked" in kinds,
        apart=bool(kinds & {"blocked", "blocked_by"}),
    )
