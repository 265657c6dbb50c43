"""The table's pace changed by agreement: the rest of a live game played by correspondence (the
way out offered after a first live timeout), or back.

Any person at an active game asks for the other pace (asking counts as agreeing); once every
person at the table agrees (bots are not asked), the game's `mode` changes and the running
turn's clock starts again at the new pace's limit. A person alone with bots changes it at once.
"""

from django.db import transaction

from accounts.models import User
from club.errors import Conflict, Invalid
from club.i18n import text
from games import live
from games.models import Game
from games.services.locking import lock_seated
from games.services.turns import start_clock
from games.store import LoadedGame


@transaction.atomic(durable=True)
def ask_pace(*, game_id: int, user: User, mode: str) -> LoadedGame:
    """The user asks (or agrees) to play the rest of the game at `mode`'s pace ("async" or
    "live"); the last person's yes changes it."""
    if mode not in Game.Mode.values:
        message = text("Темп: async (по дням) или live (вживую).", "Pace: async or live.")
        raise Invalid("invalid", message, errors={"mode": [message]})
    locked, seat = lock_seated(game_id, user, under_way=True)
    game = locked.game
    if game.mode == mode:
        raise Conflict(
            "same_pace", text("Стол уже играет в этом темпе.", "The table already plays so.")
        )
    if game.pace_wanted != mode:
        game.pace_wanted, game.pace_votes = mode, []
    game.pace_votes = sorted({*game.pace_votes, seat.seat})
    people = {taken.seat for taken in locked.seats if not taken.user.is_bot}
    changed = ["pace_wanted", "pace_votes"]
    if people <= set(game.pace_votes):
        game.mode = mode
        game.pace_wanted, game.pace_votes = "", []
        # A correspondence game has no break between deals.
        game.deal_break_until = None
        start_clock(locked, locked.now)
        changed += ["mode", "deal_break_until", "turn_started_at", "turn_deadline"]
    game.save(update_fields=changed)
    live.announce_after_commit(game_id=game.pk, version=game.version)
    return locked
