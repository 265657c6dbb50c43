"""Afterwords: warm words after a game, and the kudos (Authority) one to a partner gives."""

from django.db import transaction

from accounts.models import User
from club import clock, i18n
from club.errors import Conflict, Forbidden, Invalid
from games import selectors as game_selectors
from games.models import Game
from moderation import policy, selectors
from moderation.models import Afterword, AuthorityChange
from moderation.services.authority import record_authority_change
from moderation.services.checks import (
    lock_users,
    require_game_over,
    require_player,
    seats_of,
    table_or_404,
)
from notifications.services import notify
from social import errors as social_errors
from social import selectors as social_selectors


def _partner_of(game: Game, seats: dict[int, int], author_seat: int, partner_id: int | None) -> int:
    """The partner a partner afterword goes to (the engine's partnerships): the one partner,
    or of several (six players in two teams of three) the one named; none at a table where
    each plays alone."""
    partners = game_selectors.seating_of(game=game).partners_of(author_seat)
    partner_ids = [uid for uid, seat in seats.items() if seat in partners]
    if not partner_ids:
        raise Invalid(
            "no_partner",
            i18n.text(
                "За этим столом каждый играл сам за себя: напишите всем за столом.",
                "At this table each played alone: write to the table.",
            ),
        )
    if partner_id is None and len(partner_ids) == 1:
        return partner_ids[0]
    if partner_id not in partner_ids:
        raise Invalid(
            "invalid_partner",
            i18n.text(
                "Выберите, кому из партнёров вы пишете.",
                "Choose which of your partners you write to.",
            ),
        )
    return partner_id


def create_afterword(
    *, game_id: int, author: User, to: str, text: str, partner_id: int | None = None
) -> Afterword:
    """Leave an afterword; one to a partner (kudos) and one to the table per player and game.

    `partner_id` names the partner when the author had several (else it may be left out)."""
    with transaction.atomic(durable=True):
        now = clock.now()
        table = table_or_404(game_id)
        game = table.game
        seats = seats_of(table)
        author_seat = require_player(table, seats, author)
        require_game_over(game)
        ended_at = game.finished_at or game.created_at
        if ended_at < now - policy.AFTERWORD_WINDOW:
            raise Invalid(
                "afterword_window_closed",
                i18n.text(
                    "Послесловие можно оставить в течение 7 дней после игры.",
                    "Afterwords can be left within 7 days after the game.",
                ),
            )
        recipient_id = None
        bots = selectors.bots_among(user_ids=seats)
        if to == Afterword.To.PARTNER:
            recipient_id = _partner_of(game, seats, author_seat, partner_id)
            if recipient_id in bots:
                raise Invalid(
                    "partner_is_bot",
                    i18n.text(
                        "Ваш партнёр — бот: благодарность ему не передать.",
                        "Your partner is a bot: it receives no kudos.",
                    ),
                )
            # A block either way: no words between the two (their table words are hidden from
            # each other, moderation.selectors.afterwords_visible_to).
            if social_selectors.blocked_between(user_id=author.pk, others={recipient_id}):
                raise social_errors.blocked()
        locked = lock_users([author.pk] + ([recipient_id] if recipient_id else []))
        giver = locked[author.pk]
        if giver.is_muted(now=now):
            raise Forbidden(
                "muted",
                i18n.text(
                    "Вам временно запрещено писать послесловия.",
                    "You are temporarily not allowed to write afterwords.",
                ),
            )
        if Afterword.objects.filter(game=game, author=author, to=to).exists():
            raise Conflict(
                "afterword_exists",
                i18n.text(
                    "Вы уже оставили послесловие в этой игре.",
                    "You have already left this afterword for this game.",
                ),
            )
        afterword = Afterword.objects.create(
            game=game,
            author=author,
            to=to,
            recipient_id=recipient_id,
            text=text,
            created_at=now,
        )
        if recipient_id is not None:
            amount, reason = selectors.kudos_weight(
                giver=giver, recipient_id=recipient_id, game_has_bots=bool(bots), now=now
            )
            record_authority_change(
                user_id=recipient_id,
                amount=amount,
                kind=AuthorityChange.Kind.KUDOS,
                reason=reason,
                giver=giver,
                afterword=afterword,
                now=now,
            )
            notify(
                user_id=recipient_id,
                kind="kudos_received",
                game_id=game.pk,
                payload={
                    "afterword_id": afterword.pk,
                    "from_user_id": giver.pk,
                    "from_name": str(giver),
                    "text": afterword.text,
                },
                dedupe_key=f"afterword:{afterword.pk}",
            )
    return afterword
