"""Following and blocking players: each entry point one durable transaction.

Both are idempotent: following a player already followed, or unfollowing one not followed,
changes nothing and says so (`created` / `removed`).
"""

from django.db import transaction

from accounts.models import User
from club.errors import Conflict, Invalid
from club.i18n import text
from social import errors
from social.models import Block, Follow

# A player's lists have an end (each is read whole: the page of people they follow).
MAX_FOLLOWING = 1000
MAX_BLOCKED = 1000


def _other_player(*, user: User, player_id: int, yourself: Invalid) -> User:
    """The player a relation is about, with the caller's row locked (their list's cap holds
    under concurrent requests): a person other than the caller, with an active account."""
    User.objects.select_for_update(of=("self",)).filter(pk=user.pk).values_list("pk").get()
    player = User.objects.filter(pk=player_id, is_active=True).first()
    if player is None:
        raise errors.player_not_found()
    if player.pk == user.pk:
        raise yourself
    if player.is_bot:
        raise Invalid(
            "player_is_bot",
            text(
                "Это бот клуба: он садится за любой стол по просьбе хозяина.",
                "This is a club bot: it takes any seat the table's host asks it to.",
            ),
        )
    return player


def _refuse_past_cap(count: int, *, cap: int, code: str, ru: str, en: str) -> None:
    if count >= cap:
        raise Conflict(code, text(ru, en))


@transaction.atomic(durable=True)
def follow(*, user: User, player_id: int) -> bool:
    """`user` follows the player; True when they did not before. A player `user` blocked is
    refused (`player_blocked`: unblock first); one who blocked `user` is followed as any other
    (a block is private), and never shown online to them."""
    player = _other_player(
        user=user,
        player_id=player_id,
        yourself=Invalid(
            "cannot_follow_yourself",
            text("Нельзя подписаться на самого себя.", "You cannot follow yourself."),
        ),
    )
    if Block.objects.filter(blocker=user, blocked=player).exists():
        raise Conflict(
            "player_blocked",
            text(
                "Вы заблокировали этого игрока: сначала снимите блокировку.",
                "You blocked this player: unblock them first.",
            ),
        )
    if Follow.objects.filter(follower=user, followed=player).exists():
        return False
    _refuse_past_cap(
        Follow.objects.filter(follower=user).count(),
        cap=MAX_FOLLOWING,
        code="too_many_follows",
        ru=f"Можно следить не больше чем за {MAX_FOLLOWING} игроками.",
        en=f"You can follow at most {MAX_FOLLOWING} players.",
    )
    Follow.objects.create(follower=user, followed=player)
    return True


@transaction.atomic(durable=True)
def unfollow(*, user: User, player_id: int) -> bool:
    """True when `user` followed the player until now."""
    deleted, _ = Follow.objects.filter(follower=user, followed_id=player_id).delete()
    return bool(deleted)


@transaction.atomic(durable=True)
def block(*, user: User, player_id: int) -> bool:
    """`user` blocks the player (nobody is told); True when they had not before. `user` stops
    following them; the player's follow of `user` stays (removing it would tell them), but
    shows `user` offline and never waiting for a game."""
    player = _other_player(
        user=user,
        player_id=player_id,
        yourself=Invalid(
            "cannot_block_yourself",
            text("Нельзя заблокировать самого себя.", "You cannot block yourself."),
        ),
    )
    Follow.objects.filter(follower=user, followed=player).delete()
    if Block.objects.filter(blocker=user, blocked=player).exists():
        return False
    _refuse_past_cap(
        Block.objects.filter(blocker=user).count(),
        cap=MAX_BLOCKED,
        code="too_many_blocks",
        ru=f"Можно заблокировать не больше {MAX_BLOCKED} игроков.",
        en=f"You can block at most {MAX_BLOCKED} players.",
    )
    Block.objects.create(blocker=user, blocked=player)
    return True


@transaction.atomic(durable=True)
def unblock(*, user: User, player_id: int) -> bool:
    """True when `user` blocked the player until now."""
    deleted, _ = Block.objects.filter(blocker=user, blocked_id=player_id).delete()
    return bool(deleted)
