"""The game's course inside a caller's transaction: its start, each turn's clock and notice,
its end. Helpers of the services that hold the game row lock; never entry points."""

import secrets
from datetime import datetime

from django.conf import settings

from games.away import deadline_after
from games.engine import Match, Rules
from games.models import Game
from games.selectors.time_off import turn_away
from games.services import rating
from games.services.records import count_game_over
from games.signals import game_over
from games.store import LoadedGame
from notifications.models import Kind
from notifications.services import notify


def start_turn(locked: LoadedGame, match: Match, started_at: datetime) -> None:
    """The clock of the seat the deal waits for (`to_act`: the seat on turn, or the partner a
    question waits for). A bot's move is due after a short pause: the deadline sweep plays it
    from the worker, as it plays a timed-out turn (games.services.timeouts)."""
    locked.game.turn_seat = match.deal.to_act
    start_clock(locked, started_at)


def start_clock(locked: LoadedGame, started_at: datetime) -> None:
    """The turn seat's clock, from `started_at`, or from the end of a live game's break between
    deals while some person at the table has still to close the deal's summary."""
    game = locked.game
    started_at = _after_deal_break(locked, started_at)
    game.turn_started_at = started_at
    limit = settings.BOT_PAUSE if _bot_to_move(locked) else settings.TURN_LIMIT
    # A correspondence clock does not run while its player is away or the game is paused.
    player = next((seat.user for seat in locked.seats if seat.seat == game.turn_seat), None)
    away = turn_away(game, player)
    game.turn_deadline = deadline_after(started_at, limit[game.mode], away)


def everyone_saw_the_deal(locked: LoadedGame) -> bool:
    """Every person at the table has closed the summary of the last finished deal (bots are
    never asked)."""
    finished = locked.game.deal_number - 1
    return all(seat.deal_seen >= finished for seat in locked.seats if not seat.user.is_bot)


def _after_deal_break(locked: LoadedGame, started_at: datetime) -> datetime:
    """When a clock starting at `started_at` really starts: at the end of the break between
    deals, unless it is over or every person has closed the summary (then the break ends)."""
    game = locked.game
    until = game.deal_break_until
    if until is None:
        return started_at
    if until <= started_at or everyone_saw_the_deal(locked):
        game.deal_break_until = None
        return started_at
    return until


def _bot_to_move(locked: LoadedGame) -> bool:
    turn = locked.game.turn_seat
    return any(seat.seat == turn and seat.user.is_bot for seat in locked.seats)


def notify_turn(locked: LoadedGame, match: Match) -> None:
    """ "Your turn" to the seat the game now waits for, or "your partner asks" when that is a
    question to answer (R-HOUSE-ASK)."""
    game = locked.game
    if game.mode != Game.Mode.ASYNC or game.turn_seat is None or _bot_to_move(locked):
        return
    question = match.deal.question
    asked = question is not None and question["answer"] is None
    notify(
        user_id=locked.seat_users()[game.turn_seat],
        kind=Kind.PARTNER_ASKS if asked else Kind.YOUR_TURN,
        game_id=game.pk,
        payload={"seat": game.turn_seat, "deadline": game.turn_deadline.isoformat()}
        if game.turn_deadline
        else {"seat": game.turn_seat},
        dedupe_key=f"{'partner_asks' if asked else 'your_turn'}:{game.pk}:{game.version}",
    )


def start_game(locked: LoadedGame) -> None:
    """Every seat is taken: random first dealer (R-DEAL-1), a fresh random seed, deal 1."""
    game = locked.game
    rules = Rules.from_options(game.rules)
    seed = secrets.randbits(128)  # too many to search offline from one's hand and the upcard
    game.seed = seed
    game.first_dealer = secrets.choice(rules.seating.seats)
    if any(seat.user.is_bot for seat in locked.seats):
        unrate(game)
    match = Match.new(rules, first_dealer=game.first_dealer, seed=seed)
    now = locked.now
    game.state = match.to_dict()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.deal_number = match.deal_number
    game.scores = list(match.scores)
    start_turn(locked, match, now)
    game.save()
    seat_users = locked.seat_users()
    for seat, user_id in seat_users.items():
        notify(
            user_id=user_id,
            kind="game_started",
            game_id=game.pk,
            payload={"seat": seat, "mode": game.mode, "length": game.length},
            dedupe_key=f"game_started:{game.pk}:{user_id}",
        )
    notify_turn(locked, match)


def unrate(game: Game) -> None:
    """A bot sits at the table before its start: the game is casual (and asks for no range)."""
    game.rated = False
    game.rating_min = game.rating_max = None


def finish(locked: LoadedGame, *, winner_team: int | None, finished_at: datetime) -> None:
    """The game is over (its status set by the caller): no clock any more, the players' games
    counted and, in a rated game, their ratings moved, everyone told, and the apps built on
    the games (an event that arranged it) given `game_over`."""
    game = locked.game
    game.winner_team = winner_team
    game.finished_at = finished_at
    game.turn_seat = None
    game.turn_started_at = None
    game.turn_deadline = None
    count_game_over(game=game, seats=locked.seats)
    rating.rate_game_over(locked)
    for seat in locked.seats:
        notify(
            user_id=seat.user_id,
            kind="game_finished",
            game_id=game.pk,
            payload={
                "status": game.status,
                "scores": list(game.scores),
                "winner_team": winner_team,
                "your_team": seat.team,
                "abandoned_by_seat": game.abandoned_by_seat,
            },
            dedupe_key=f"game_finished:{game.pk}:{seat.user_id}",
        )
    game_over.send(sender=Game, game=game)
