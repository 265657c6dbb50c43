"""Invitations (issue 37): seats of a waiting table kept for the players its creator invited.

Opening a table (`open_table(invite=...)`), or later while it waits (`invite_players`), its
creator names players: each gets a free seat kept for them — the creator's partners' seats
first (a friend invited to a four-handed table is the creator's partner), then the others in
the order of play — and an `invitation` notification (in the app, by email or in the digest,
by web push, as their settings say). Nobody else takes a kept seat (403 `seat_reserved`).

An invitation ends when its player sits down (accepted: `join_table` on any free seat, or
`accept_invitation`), declines, is withdrawn by whoever invited them, or lapses: it lasts the
table's turn limit (24 hours by correspondence, 30 s live), `Invitation.expires_at`, and the
invitations' sweep (beat, every few seconds) claims the lapsed ones with SKIP LOCKED and opens
their seats, so a lost broker message only delays a lapse. Each change is announced to the
table's open pages.

A block (social) keeps two players apart: neither invites the other, nor sits at a table where
the other sits or is invited (403 `blocked`). A block between two invitees is not checked when
inviting (that would tell the creator of it): neither of them sits while the other is invited.
"""

from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction

from accounts.models import User
from club import clock
from club.errors import Conflict, Forbidden, Invalid, NotFound
from club.i18n import text
from games import live, selectors
from games.engine import Rules
from games.models import Game, Invitation
from games.services.locking import lock_game, lock_game_or_404, refuse_suspended
from games.store import LoadedGame
from notifications.services import notify
from social import errors as social_errors
from social import selectors as social_selectors

# Lapsed invitations one sweep claims at a time.
LAPSE_BATCH = 100


def invitation_not_found() -> NotFound:
    return NotFound("not_found", text("Приглашение не найдено.", "Invitation not found."))


def seats_for_invitees(*, rules: Rules, inviter_seat: int | None, free: Sequence[int]) -> list[int]:
    """The free seats in the order invitees get them: the inviter's partners first, then the
    others in the order of play from the inviter (from seat 0 when the inviter sits nowhere)."""
    seating = rules.seating
    start = inviter_seat if inviter_seat is not None else 0
    partners = set(seating.partners_of(inviter_seat)) if inviter_seat is not None else set()
    ordered = [seat for seat in seating.round_from(start) if seat in free]
    return sorted(ordered, key=lambda seat: seat not in partners)


def pending_locked(locked: LoadedGame) -> list[Invitation]:
    """The table's pending invitations, their rows locked (on a game the caller locked)."""
    return list(
        Invitation.objects.filter(game=locked.game, status=Invitation.Status.PENDING)
        .select_for_update(of=("self",))
        .order_by("seat")
    )


def _invitees(*, inviter: User, invitee_ids: Sequence[int]) -> list[User]:
    """The players named, checked: no one twice, not the inviter, people with an account, and
    no block either way with the inviter."""
    if len(set(invitee_ids)) != len(invitee_ids):
        raise Invalid(
            "duplicate_invitee",
            text("Один игрок приглашён дважды.", "A player is invited twice."),
        )
    if inviter.pk in invitee_ids:
        raise Invalid(
            "cannot_invite_yourself",
            text("Себя приглашать не нужно: вы уже за столом.", "You cannot invite yourself."),
        )
    found = {player.pk: player for player in User.objects.filter(pk__in=invitee_ids)}
    players = []
    for player_id in invitee_ids:
        player = found.get(player_id)
        if player is None or not player.is_active:
            raise Invalid(
                "unknown_player",
                text(f"Нет игрока с номером {player_id}.", f"There is no player {player_id}."),
                player=player_id,
            )
        if player.is_bot:
            raise Invalid(
                "invitee_is_bot",
                text(
                    "Боты не получают приглашений: посадите бота на свободное место.",
                    "Bots are not invited: give a free seat to a bot instead.",
                ),
                player=player_id,
            )
        players.append(player)
    if social_selectors.blocked_between(user_id=inviter.pk, others=found):
        raise social_errors.blocked()
    return players


def invite_locked(
    *,
    locked: LoadedGame,
    inviter: User,
    invitee_ids: Sequence[int],
    seats: Sequence[int] = (),
    rematch_of: int | None = None,
) -> list[Invitation]:
    """Inside the caller's transaction, on a waiting table it locked: keeps a free seat for each
    player named and notifies them (of a rematch of the game `rematch_of`, when it is one): the
    `seats` given, one per player (a rematch keeps everyone's seat), else the free seats in the
    order of `seats_for_invitees`. Refuses the whole list (nothing is kept) when one of them
    cannot be invited, or when there are more of them than free seats."""
    if not invitee_ids:
        return []
    game = locked.game
    invitees = _invitees(inviter=inviter, invitee_ids=invitee_ids)
    pending = pending_locked(locked)
    seated = {seat.user_id for seat in locked.seats}
    invited = {invitation.invitee_id for invitation in pending}
    for player in invitees:
        if player.pk in seated:
            raise Conflict(
                "already_seated",
                text(f"{player} уже за этим столом.", f"{player} already sits at this table."),
                player=player.pk,
            )
        if player.pk in invited:
            raise Conflict(
                "already_invited",
                text(f"{player} уже приглашён(а).", f"{player} is already invited."),
                player=player.pk,
            )
    kept = {invitation.seat for invitation in pending}
    free = [seat for seat in selectors.empty_seats(table=locked) if seat not in kept]
    if len(invitees) > len(free):
        raise Invalid(
            "too_many_invitees",
            text(
                f"Свободных мест за столом: {len(free)}, а приглашённых больше.",
                f"The table has {len(free)} free seats: fewer than the players invited.",
            ),
        )
    if seats:
        assert len(seats) == len(invitees) and set(seats) <= set(free), (seats, free)
    else:
        inviter_seat = locked.seat_of(inviter)
        seats = seats_for_invitees(
            rules=selectors.rules_of(game=game),
            inviter_seat=None if inviter_seat is None else inviter_seat.seat,
            free=free,
        )
    now = locked.now
    expires_at = now + settings.TURN_LIMIT[game.mode]
    invitations = Invitation.objects.bulk_create(
        Invitation(
            game=game,
            seat=seat,
            invitee=player,
            invited_by=inviter,
            created_at=now,
            expires_at=expires_at,
        )
        for player, seat in zip(invitees, seats, strict=False)
    )
    for invitation in invitations:
        notify(
            user_id=invitation.invitee_id,
            kind="invitation",
            game_id=game.pk,
            payload={
                "invitation": invitation.pk,
                "seat": invitation.seat,
                "inviter": inviter.pk,
                "inviter_name": str(inviter),
                "expires_at": selectors.iso(expires_at),
                "mode": game.mode,
                "rematch_of": rematch_of,
            },
            dedupe_key=f"invitation:{invitation.pk}",
        )
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return invitations


def admit_locked(
    *, locked: LoadedGame, pending: Sequence[Invitation], user: User, seat: int
) -> None:
    """Inside the caller's transaction, before `user` sits at `seat` of the waiting table it
    locked (with its `pending` invitations): a seat kept for another player is refused
    (`seat_reserved`), and so is a table where a player blocked either way with `user` sits or
    is invited (`blocked`). The user's own invitation to the table is accepted."""
    kept = next((invitation for invitation in pending if invitation.seat == seat), None)
    if kept is not None and kept.invitee_id != user.pk:
        raise Forbidden(
            "seat_reserved",
            text(
                "Это место ждёт приглашённого игрока.",
                "This seat is kept for an invited player.",
            ),
        )
    others = {taken.user_id for taken in locked.seats} | {
        invitation.invitee_id for invitation in pending
    }
    if social_selectors.blocked_between(user_id=user.pk, others=others):
        raise social_errors.blocked()
    own = next((invitation for invitation in pending if invitation.invitee_id == user.pk), None)
    if own is not None:
        _answer(own, Invitation.Status.ACCEPTED, locked.now)


def refuse_kept_seat(*, pending: Sequence[Invitation], seat: int) -> None:
    """A seat kept for an invited player takes no bot (its creator withdraws the invitation
    first)."""
    if any(invitation.seat == seat for invitation in pending):
        raise Forbidden(
            "seat_reserved",
            text(
                "Это место ждёт приглашённого игрока: сначала отмените приглашение.",
                "This seat is kept for an invited player: withdraw the invitation first.",
            ),
        )


def _answer(invitation: Invitation, status: str, now: datetime) -> None:
    invitation.status = status
    invitation.answered_at = now
    invitation.save(update_fields=["status", "answered_at"])


@transaction.atomic(durable=True)
def invite_players(*, game_id: int, user: User, invitee_ids: Sequence[int]) -> LoadedGame:
    """The creator of a waiting table, seated at it, invites more players to its free seats."""
    refuse_suspended(user)
    locked = lock_game_or_404(game_id)
    game = locked.game
    if not selectors.may_see(table=locked, viewer=user):
        raise invitation_not_found()
    if game.created_by_id != user.pk or locked.seat_of(user) is None:
        raise Forbidden(
            "not_creator",
            text(
                "Приглашать может тот, кто открыл стол и сидит за ним.",
                "Only the player who opened the table, seated at it, may invite.",
            ),
        )
    if game.status != Game.Status.WAITING:
        raise Conflict(
            "game_not_waiting", text("Эта игра уже началась.", "This game has already started.")
        )
    invite_locked(locked=locked, inviter=user, invitee_ids=invitee_ids)
    return lock_game(game_id=game.pk)


def _refuse_unless_pending(invitation: Invitation) -> None:
    if invitation.status != Invitation.Status.PENDING:
        raise Conflict(
            "invitation_not_pending",
            text(
                "Это приглашение уже не ждёт ответа.",
                "This invitation is no longer waiting for an answer.",
            ),
            status=invitation.status,
        )


def _close(*, invitation_id: int, user: User, status: str) -> Invitation:
    """Declined by its invitee, or withdrawn by whoever invited (`status`): its table locked,
    then the invitation; the seat opens for anybody and the table's pages are told."""
    by_inviter = status == Invitation.Status.WITHDRAWN
    found = (
        Invitation.objects.filter(pk=invitation_id)
        .values_list("game_id", "invited_by_id" if by_inviter else "invitee_id")
        .first()
    )
    if found is None or found[1] != user.pk:
        raise invitation_not_found()
    locked = lock_game(game_id=found[0])
    invitation = Invitation.objects.select_for_update(of=("self",)).get(pk=invitation_id)
    _refuse_unless_pending(invitation)
    _answer(invitation, status, locked.now)
    live.announce_after_commit(game_id=locked.game.pk, version=locked.game.version)
    return invitation


@transaction.atomic(durable=True)
def decline_invitation(*, invitation_id: int, user: User) -> Invitation:
    """The invitee says no: the seat opens for anybody."""
    return _close(invitation_id=invitation_id, user=user, status=Invitation.Status.DECLINED)


@transaction.atomic(durable=True)
def withdraw_invitation(*, invitation_id: int, user: User) -> Invitation:
    """Whoever invited takes the invitation back: the seat opens for anybody."""
    return _close(invitation_id=invitation_id, user=user, status=Invitation.Status.WITHDRAWN)


def invitation_to_accept(*, invitation_id: int, user: User) -> Invitation:
    """The user's pending invitation (a read: `join_table` at its seat accepts it)."""
    invitation = Invitation.objects.filter(pk=invitation_id, invitee=user).first()
    if invitation is None:
        raise invitation_not_found()
    _refuse_unless_pending(invitation)
    return invitation


def lapse_invitations(*, batch: int = LAPSE_BATCH) -> int:
    """The invitations' sweep: pending invitations past `expires_at` lapse and their seats
    open, a batch per transaction, claimed with SKIP LOCKED (one being answered right now is
    left to the next sweep, which finds it answered). Returns how many lapsed."""
    lapsed = 0
    while True:
        with transaction.atomic(durable=True):
            due = list(
                Invitation.objects.filter(
                    status=Invitation.Status.PENDING, expires_at__lte=clock.now_expression()
                )
                .select_for_update(skip_locked=True, of=("self",))
                .order_by("expires_at", "pk")
                .values_list("pk", "game_id", "game__version")[:batch]
            )
            if not due:
                return lapsed
            Invitation.objects.filter(pk__in=[pk for pk, _game, _version in due]).update(
                status=Invitation.Status.LAPSED, answered_at=clock.now_expression()
            )
            for game_id, version in {(game, version) for _pk, game, version in due}:
                live.announce_after_commit(game_id=game_id, version=version)
        lapsed += len(due)
