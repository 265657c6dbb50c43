"""Game writes, the one way to call them: tables and seats, invitations, moves, abandonment,
idempotency, the players' games counters, the games the club arranges for events (tournaments).
The clock's writes are modules of the package, called as such: `pauses`, `time_off`,
`timeouts` (the deadline sweep), `presence`, `bots` and `rating`.

Entry points (open_table, play_with_bots, join_table, seat_bot, change_bot_level,
hand_seat_to_bot, leave_table, make_move, close_deal_summary, ask_pace, play_out,
invite_players, decline_invitation, withdraw_invitation, lapse_invitations' batches, rematch,
say_phrase) each run one durable transaction, so calling one inside another's transaction fails
loudly. The `*_locked` helpers and abandon_seat / finish_game_abandoned run inside their
caller's transaction, on a game it locked with `lock_game` (the deadline sweep, pauses, a
rematch), and open none; so does count_game_over, which the game's end calls (and the tests,
for games they make over without playing them), and so do open_arranged_games and
unseal_games, which an event runs in its own transaction.
"""

from games.services.abandonment import abandon_seat, finish_game_abandoned
from games.services.arranged import ArrangedGame, open_arranged_games, play_out, unseal_games
from games.services.breaks import close_deal_summary
from games.services.idempotency import (
    IDEMPOTENCY_KEY_TTL,
    Replay,
    purge_idempotency_keys,
    request_fingerprint,
)
from games.services.invitations import (
    decline_invitation,
    invitation_to_accept,
    invite_players,
    lapse_invitations,
    withdraw_invitation,
)
from games.services.locking import lock_game, refuse_suspended
from games.services.moves import Idempotency, MoveResult, apply_actions_locked, make_move
from games.services.pace import ask_pace
from games.services.records import count_game_over
from games.services.rematches import RematchResult, rematch
from games.services.table_phrases import say_phrase
from games.services.tables import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    MAX_WAITING_TABLES,
    change_bot_level,
    hand_seat_to_bot,
    join_table,
    leave_table,
    open_table,
    play_with_bots,
    seat_bot,
    validated_rules,
)

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_BOT_LEVEL",
    "IDEMPOTENCY_KEY_TTL",
    "MAX_WAITING_TABLES",
    "ArrangedGame",
    "Idempotency",
    "MoveResult",
    "RematchResult",
    "Replay",
    "abandon_seat",
    "apply_actions_locked",
    "ask_pace",
    "change_bot_level",
    "close_deal_summary",
    "count_game_over",
    "decline_invitation",
    "finish_game_abandoned",
    "hand_seat_to_bot",
    "invitation_to_accept",
    "invite_players",
    "join_table",
    "lapse_invitations",
    "leave_table",
    "lock_game",
    "make_move",
    "open_arranged_games",
    "open_table",
    "play_out",
    "play_with_bots",
    "purge_idempotency_keys",
    "refuse_suspended",
    "rematch",
    "request_fingerprint",
    "say_phrase",
    "seat_bot",
    "unseal_games",
    "validated_rules",
    "withdraw_invitation",
]
