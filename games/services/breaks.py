"""Between two deals: each person closes the finished deal's summary («Дальше»).

The table shows a person the summary of the last finished deal until they close it or make
their next move (`Seat.deal_seen`). In a live game the next deal's clock waits for it: the
break (`Game.deal_break_until`, set where the deal ends, games.services.moves) lasts until
every person at the table has closed the summary, or 30 s (`settings.DEAL_BREAK`); bots are
never waited for. The deadline sweep honours it through the turn's deadline, which starts
after the break (games.services.turns.start_clock), and plays no absent player's turn during it
(games.services.timeouts).
"""

from django.db import transaction

from accounts.models import User
from games import live, store
from games.models import Seat
from games.services.locking import lock_seated
from games.services.turns import everyone_saw_the_deal, start_clock
from games.store import LoadedGame


@transaction.atomic(durable=True)
def close_deal_summary(*, game_id: int, user: User) -> LoadedGame:
    """The person has read the last finished deal's summary («Дальше»); the last of the table's
    people to close it ends a live game's break: the turn's clock starts now."""
    locked, seat = lock_seated(game_id, user)
    game = locked.game
    finished = game.deal_number - 1
    if seat.deal_seen >= finished:
        return locked
    seat.deal_seen = finished
    Seat.objects.filter(pk=seat.pk).update(deal_seen=finished)
    breaking = game.deal_break_until is not None and game.deal_break_until > locked.now
    if breaking and everyone_saw_the_deal(locked):
        game.deal_break_until = None
        start_clock(locked, locked.now)
        store.write(game=game, moves=[])
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return locked
