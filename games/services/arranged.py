"""Games the club arranges for an event (a tournament's round): opened, seated and dealt at
once, played out by the club's bots when the event's time is up, unsealed when their deals may
be seen. Nobody joins or leaves them.

open_arranged_games and unseal_games run inside the caller's transaction (a round opens all
its games in one); play_out is an entry point with its own durable transaction, a game at a
time.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from accounts.models import User
from club import clock
from games.engine import Match, Rules
from games.models import Game, Seat
from games.services import bots, rating
from games.services.abandonment import give_seat_to_bot_locked
from games.services.locking import lock_game
from games.services.moves import apply_actions_locked
from games.services.turns import notify_turn, start_turn
from games.store import LoadedGame


@dataclass(frozen=True)
class ArrangedGame:
    """One table of an event: who sits where, and the shuffle (a seed of 128 random bits, or a
    round's shared one in a duplicate event, with its first dealer)."""

    players: Mapping[int, User]  # seat -> player
    seed: int
    first_dealer: int


def open_arranged_games(
    *,
    mode: str,
    rules: Rules,
    tournament: dict[str, int],
    sealed: bool,
    rated: bool,
    games: Sequence[ArrangedGame],
) -> list[Game]:
    """Opens every game of `games` seated and dealt (active, first turn's clock running), in
    the caller's transaction: a few statements for any number of tables. `tournament` is the
    games' `{"id", "round"}`; `sealed`, their deals are dealt at other tables too; `rated`,
    whether they move their players' ratings (games.services.rating).

    The first player to move is told it is their turn; the players are told of the game by the
    event (which knows what to call it), so no `game_started` is sent here.
    """
    now = clock.now()
    length = Game.Length.DEAL if (rules.deals or 1) == 1 else Game.Length.MATCH
    options = rules.to_options()
    pool = rating.pool_of(mode=mode, rules=rules)
    opened: list[Game] = []
    tables: list[tuple[LoadedGame, Match]] = []
    for arranged in games:
        match = Match.new(rules, first_dealer=arranged.first_dealer, seed=arranged.seed)
        game = Game(
            mode=mode,
            length=length,
            rules=options,
            status=Game.Status.ACTIVE,
            # Whoever sits first: the creator's say over an abandoned seat never waits here
            # (an arranged game gives it to the club's bot at once).
            created_by=arranged.players[min(arranged.players)],
            scores=list(match.scores),
            seed=arranged.seed,
            first_dealer=arranged.first_dealer,
            state=match.to_dict(),
            deal_number=match.deal_number,
            started_at=now,
            tournament=tournament,
            sealed=sealed,
            rated=rated,
            pool=pool,
        )
        seats = tuple(
            # Seen now: a live player has the absence grace to reach the table.
            Seat.at_table(game=game, seat=seat, user=player, last_seen_at=now)
            for seat, player in sorted(arranged.players.items())
        )
        table = LoadedGame(game=game, seats=seats, now=now)
        start_turn(table, match, now)  # the first turn's clock, before the row is written
        opened.append(game)
        tables.append((table, match))
    Game.objects.bulk_create(opened)
    Seat.objects.bulk_create(seat for table, _match in tables for seat in table.seats)
    for table, match in tables:
        notify_turn(table, match)
    return opened


def unseal_games(*, game_ids: Sequence[int]) -> None:
    """The games' deals may be seen by all now (the event's round is over): spectators, the
    export and the replay; in the caller's transaction."""
    Game.objects.filter(pk__in=game_ids, sealed=True).update(sealed=False)


@transaction.atomic(durable=True)
def play_out(*, game_id: int) -> bool:
    """The event's time for this game is up: the club's bots play every turn left to the end,
    now (each seat's own bot level, the club level for people, as a timed-out turn is played;
    logged as automatic, counted as nobody's timeout). The players are told when it ends, not
    of each turn. False when the game was not under way."""
    locked = lock_game(game_id=game_id)
    game = locked.game
    if game.status != Game.Status.ACTIVE:
        return False
    while game.status == Game.Status.ACTIVE:
        assert game.turn_seat is not None
        seat = next((seat for seat in locked.seats if seat.seat == game.turn_seat), None)
        if seat is None:  # a seat left empty for a bot (a lobby table's abandonment)
            locked = give_seat_to_bot_locked(locked, seat=game.turn_seat)
            game = locked.game
            continue
        level = seat.user.bot_level or bots.TIMEOUT_LEVEL
        assert game.state is not None
        actions: list[dict[str, Any]] = bots.bot_turn(
            game=game, match=Match.from_dict(game.state), seat=seat.seat, level=level
        )
        apply_actions_locked(
            locked=locked,
            seat=seat.seat,
            actions=actions,
            automatic=not seat.user.is_bot,
            quiet=True,
        )
    return True
