"""A player says one of the table's phrases (games.table_phrases) to the whole table."""

import math

from django.db import transaction
from django.db.models import F

from accounts.models import User
from club import clock
from club.errors import Forbidden, Invalid, LimitReached
from club.i18n import text
from games import errors, live, selectors, store
from games.models import Game, TablePhrase
from games.services.locking import not_seated
from games.table_phrases import PHRASE_INTERVAL, PHRASES


@transaction.atomic(durable=True)
def say_phrase(*, game_id: int, user: User, phrase: str) -> TablePhrase:
    """`phrase` (a key of the fixed list) from the user's seat to everyone at the table; the
    table's open pages are told at once. A player says one every PHRASE_INTERVAL at most: their
    row is locked, so two at once are one phrase and one refusal (`phrase_too_soon`, 429, with
    `retry_after` seconds). Muted players (a moderator's sanction) say nothing."""
    table = store.load(game_id=game_id)
    if table is None or not selectors.may_see(table=table, viewer=user):
        raise errors.game_not_found()
    seat = table.seat_of(user)
    if seat is None:
        raise not_seated(table, user)
    if phrase not in PHRASES:
        raise Invalid(
            "unknown_phrase",
            text(
                "Такой фразы нет: выберите из списка (GET /api/phrases/).",
                "No such phrase: choose one from the list (GET /api/phrases/).",
            ),
        )
    speaker = User.objects.select_for_update(of=("self",)).only("muted_until").get(pk=user.pk)
    now = clock.now()
    if speaker.is_muted(now=now):
        raise Forbidden(
            "muted",
            text(
                "Вам временно запрещено писать за столом.",
                "You are temporarily not allowed to speak at the table.",
            ),
        )
    last = (
        TablePhrase.objects.filter(user=user, said_at__gt=now - PHRASE_INTERVAL)
        .order_by("-said_at")
        .values_list("said_at", flat=True)
        .first()
    )
    if last is not None:
        wait = math.ceil((last + PHRASE_INTERVAL - now).total_seconds())
        raise LimitReached(
            "phrase_too_soon",
            text(
                f"Не так часто: следующую фразу можно сказать через {wait} с.",
                f"Not so often: your next phrase in {wait} s.",
            ),
            retry_after=wait,
        )
    said = TablePhrase.objects.create(
        game=table.game,
        seat=seat.seat,
        user=user,
        phrase=phrase,
        version=table.game.version,
        said_at=now,
    )
    Game.objects.filter(pk=table.game.pk).update(phrases_said=F("phrases_said") + 1)
    live.announce_after_commit(game_id=table.game.pk, version=table.game.version)
    return said
