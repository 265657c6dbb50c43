"""Reads. Everything a player receives is built here, filtered for what that player may see.

The engine state (`Game.state`) holds every hand, the stock and the seed; only `deal.view(seat)`,
`legal_actions` of the caller's own turn, and the public part of each move leave this module —
except `export_of`, which is for finished games only.
"""

import functools
import json
import secrets
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.db.models.functions import Mod
from django.utils import timezone

from accounts.models import User
from canasta_club import clock
from canasta_club.rows import ModelRows
from games.engine import Match, Rules, legal_actions
from games.engine.preview import Preview, preview
from games.models import DealRecord, Game, Move, Seat

MOVE_LOG_PAGE = 500


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 as DRF renders it, so stored (idempotent) bodies equal fresh ones."""
    if moment is None:
        return None
    return moment.isoformat().replace("+00:00", "Z")


def with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


# Seat fields and the user names players are shown, per seat, as one JSON array column.
_SEAT_KEYS = [(field.attname, f"s.{field.column}") for field in Seat._meta.concrete_fields] + [
    ("player_username", "u.username"),
    ("player_display_name", "u.display_name"),
]
_SEAT_FIELDS = {field.attname: field for field in Seat._meta.concrete_fields}
_GAMES = ModelRows(Game)
# (array aggregate, object builder) of each database's JSON functions.
_JSON_FUNCTIONS = {
    "postgresql": ("jsonb_agg", "jsonb_build_object"),
    "sqlite": ("json_group_array", "json_object"),
}


@functools.cache
def _game_with_seats_sql(*, vendor: str, for_update: bool) -> str:
    aggregate, build_object = _JSON_FUNCTIONS[vendor]
    pairs = ", ".join(f"'{key}', {column}" for key, column in _SEAT_KEYS)
    return (
        f"SELECT {_GAMES.columns('g')}, {clock.now_column(vendor)} AS db_now, "
        f"(SELECT {aggregate}({build_object}({pairs})) FROM {Seat._meta.db_table} s "
        f"JOIN {User._meta.db_table} u ON u.id = s.user_id WHERE s.game_id = g.id) AS seat_rows "
        f"FROM {Game._meta.db_table} g WHERE g.id = %s" + (" FOR UPDATE OF g" if for_update else "")
    )


def _seat_from_json(row: dict[str, Any], game: Game) -> Seat:
    values = {name: _SEAT_FIELDS[name].to_python(row[name]) for name in _SEAT_FIELDS}
    for name, value in values.items():
        # SQLite keeps datetimes as naive UTC text.
        if isinstance(value, datetime) and timezone.is_naive(value):
            values[name] = timezone.make_aware(value, UTC)
    seat = Seat.from_db(Seat.objects.db, list(values), list(values.values()))
    seat.game = game
    # Only the names shown to players; other user fields load on access.
    seat.user = User.from_db(
        Seat.objects.db,
        ["id", "username", "display_name"],
        [seat.user_id, row["player_username"], row["player_display_name"]],
    )
    return seat


def game_with_seats(*, game_id: int, for_update: bool = False) -> Game | None:
    """The game and its seated players in one query; `db_now` is the club's clock.

    `game.seats.all()` then runs no query. With `for_update` (inside a transaction) the game row
    is locked. Written-out SQL: this is every read's and every move's query, and building the
    same with the ORM (a subquery with JSON functions) costs ~1.5 ms CPU per request.
    """
    vendor = connection.vendor
    sql = _game_with_seats_sql(vendor=vendor, for_update=for_update and vendor != "sqlite")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game, (db_now, seat_rows) = _GAMES.read(row)
    game.db_now = clock.now_from_column(db_now)  # type: ignore[attr-defined]
    seats = sorted(
        (_seat_from_json(seat_row, game) for seat_row in json.loads(seat_rows or "[]")),
        key=lambda seat: seat.seat,
    )
    queryset = game.seats.all()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    # What prefetch_related stores: later game.seats.all() calls run no query.
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]
    return game


def seat_row_of(*, game: Game, user: User) -> Seat | None:
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def seat_of(*, game: Game, user: User) -> int | None:
    seat = seat_row_of(game=game, user=user)
    return None if seat is None else seat.seat


def games_of(*, user: User) -> QuerySet[Game]:
    return Game.objects.filter(seats__user=user)


def player_stats(*, user: User) -> dict[str, int]:
    """Games finished (played to the end or abandoned), won, and abandoned by this player."""
    return Seat.objects.filter(
        user=user, game__status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
    ).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(game__winner_team=Mod(F("seat"), 2))),
        abandoned=Count("pk", filter=Q(game__abandoned_by_seat=F("seat"))),
    )


FINISHED_STATUSES = (Game.Status.FINISHED, Game.Status.ABANDONED)


def recent_finished_games(*, user: User, limit: int) -> list[dict[str, Any]]:
    """The player's last finished games, newest first, each with whether their team won."""
    games = with_seats(
        Game.objects.filter(seats__user=user, status__in=FINISHED_STATUSES).order_by(
            "-finished_at", "-pk"
        )
    )[:limit]
    rows = []
    for game in games:
        players = _players(game)
        team = next(player["team"] for player in players if player["user"]["id"] == user.pk)
        rows.append(
            {
                "id": game.pk,
                "mode": game.mode,
                "length": game.length,
                "status": game.status,
                "finished_at": game.finished_at,
                "scores": list(game.scores or [0, 0]),
                "players": players,
                "team": team,
                "winner_team": game.winner_team,
                "won": game.winner_team is not None and game.winner_team == team,
            }
        )
    return rows


def finished_games_shared(*, user: User, other: User, limit: int) -> QuerySet[Game]:
    """Finished games both played in, newest first (what a report may be about)."""
    return (
        Game.objects.filter(seats__user=user, status__in=FINISHED_STATUSES)
        .filter(seats__user=other)
        .order_by("-finished_at", "-pk")[:limit]
    )


def lobby(*, user: User, status: str | None, mine: bool) -> QuerySet[Game]:
    """Open tables (public ones, plus private ones the user sits at) or the user's own games."""
    games = Game.objects.defer("state")
    if mine:
        games = games.filter(seats__user=user)
    else:
        games = games.filter(Q(private=False) | Q(seats__user=user) | Q(created_by=user))
    if status:
        games = games.filter(status=status)
    return with_seats(games.distinct()).order_by("-created_at", "-pk")


def _players(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.seat,
            "team": seat.seat % 2,
            "user": {
                "id": seat.user_id,
                "username": seat.user.username,
                "display_name": seat.user.display_name,
            },
            "is_absent": seat.is_absent,
        }
        for seat in game.seats.all()
    ]


def invite_code_matches(*, game: Game, invite_code: str) -> bool:
    """In constant time; as bytes, since compare_digest refuses non-ASCII strings."""
    return bool(game.invite_code) and secrets.compare_digest(
        invite_code.encode(), game.invite_code.encode()
    )


def may_see(*, game: Game, viewer: User, invite_code: str = "") -> bool:
    """A private table is seen only by its creator and seated players, and while it waits for
    players by whoever has its invite code; to anybody else it does not exist (404)."""
    if not game.private or game.created_by_id == viewer.pk:
        return True
    if seat_row_of(game=game, user=viewer) is not None:
        return True
    return game.status == Game.Status.WAITING and invite_code_matches(
        game=game, invite_code=invite_code
    )


def _may_see_invite(game: Game, viewer: User) -> bool:
    return game.private and (
        game.created_by_id == viewer.pk or seat_row_of(game=game, user=viewer) is not None
    )


def game_summary(*, game: Game, viewer: User) -> dict[str, Any]:
    """A lobby row: the table, its players and whose turn it is (no engine state)."""
    viewer_seat = seat_of(game=game, user=viewer)
    return {
        "id": game.pk,
        "mode": game.mode,
        "length": game.length,
        "rules": game.rules,
        "status": game.status,
        "private": game.private,
        "invite_code": game.invite_code if _may_see_invite(game, viewer) else None,
        "created_by": game.created_by_id,
        "created_at": iso(game.created_at),
        "players": _players(game),
        "your_seat": viewer_seat,
        "version": game.version,
        "deal_number": game.deal_number,
        "scores": list(game.scores or [0, 0]),
        "turn_seat": game.turn_seat,
        "your_turn": viewer_seat is not None and viewer_seat == game.turn_seat,
        "turn_started_at": iso(game.turn_started_at),
        "turn_deadline": iso(game.turn_deadline),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "winner_team": game.winner_team,
        "abandoned_by_seat": game.abandoned_by_seat,
    }


def game_detail(*, game: Game, viewer: User, match: Match | None = None) -> dict[str, Any]:
    """The game as `viewer` may see it: their seat's view of the deal and their legal actions.

    `match` is the game's state already parsed (Match.from_dict(game.state)), when at hand.
    """
    detail = game_summary(game=game, viewer=viewer)
    viewer_seat = detail["your_seat"]
    detail["deals"] = []
    detail["deal"] = None
    detail["last_deal"] = None
    detail["legal_actions"] = []
    if game.state is not None:
        match = match or Match.from_dict(game.state)
        # Seeds stay out until the export: later deals' seeds derive from the match seed.
        detail["deals"] = [
            {key: deal[key] for key in ("number", "dealer", "result", "scores_after")}
            for deal in match.history
        ]
        detail["deal"] = match.deal.view(viewer_seat)
        detail["last_deal"] = match.last_deal
        if (
            game.status == Game.Status.ACTIVE
            and viewer_seat is not None
            and viewer_seat == match.deal.turn
        ):
            detail["legal_actions"] = legal_actions(match.deal, viewer_seat)
    return detail


def move_entry(move: Move, *, viewer_seat: int | None) -> dict[str, Any]:
    return {
        "seq": move.seq,
        "deal_number": move.deal_number,
        "seat": move.seat,
        "action": move.action,
        "automatic": move.automatic,
        "public": move.public,
        "private": move.private if viewer_seat == move.seat else None,
        "created_at": iso(move.created_at),
    }


def move_log_for(
    *, game: Game, viewer_seat: int | None, after: int, limit: int = MOVE_LOG_PAGE
) -> list[dict[str, Any]]:
    """Moves after seq `after`, oldest first: public events for all, private ones for the actor."""
    moves = Move.objects.filter(game=game, seq__gt=after).order_by("seq")[:limit]
    return [move_entry(move, viewer_seat=viewer_seat) for move in moves]


def export_of(*, game: Game) -> dict[str, Any]:
    """A finished game in full, for replay: rules, match seed, first dealer, every event."""
    return {
        "id": game.pk,
        "mode": game.mode,
        "length": game.length,
        "rules": game.rules,
        "status": game.status,
        # Seeds are 128-bit: decimal strings, which JavaScript's numbers could not hold exactly.
        "seed": None if game.seed is None else str(int(game.seed)),
        "first_dealer": game.first_dealer,
        "players": _players(game),
        "scores": list(game.scores or [0, 0]),
        "winner_team": game.winner_team,
        "abandoned_by_seat": game.abandoned_by_seat,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "deals": [
            {**deal, "seed": str(int(deal["seed"]))}
            for deal in DealRecord.objects.filter(game=game)
            .order_by("number")
            .values("number", "dealer", "seed", "result", "scores_after")
        ],
        # Every seat's private events too, each as its actor saw it.
        "moves": [
            move_entry(move, viewer_seat=move.seat)
            for move in Move.objects.filter(game=game).order_by("seq")
        ],
    }


def games_waiting_count(*, user: User) -> int:
    """How many active games wait for the user's move (the header badge and the tab title)."""
    return Seat.objects.filter(
        user=user, game__status=Game.Status.ACTIVE, game__turn_seat=F("seat")
    ).count()


def move_preview(*, game_id: int, viewer: User, action: dict[str, Any]) -> Preview | None:
    """What `action` would do for the viewer's seat now (games.engine.preview); None when the
    viewer has no seat at an active game. Nothing is played or written."""
    game = game_with_seats(game_id=game_id)
    if game is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    seat = seat_of(game=game, user=viewer)
    if seat is None:
        return None
    return preview(Match.from_dict(game.state).deal, seat, action)


def replay_at(*, game: Game, step: int) -> dict[str, Any]:
    """A finished game after its first `step` moves, rebuilt by the engine from its export.

    The game is over, so every hand is shown. The table is that of the deal the last move was
    made in (at its end, with its result, when that move ended it). `step` is clamped.
    """
    export = export_of(game=game)
    moves = export["moves"]
    step = max(0, min(step, len(moves)))
    match = Match.new(
        Rules.from_options(export["rules"]),
        first_dealer=export["first_dealer"],
        seed=int(export["seed"]),
    )
    deal = match.deal
    for move in moves[:step]:
        deal = match.deal  # the deal this move is made in, kept when the move ends it
        match.apply(move["seat"], move["action"])
    views = [deal.view(seat) for seat in range(4)]
    table = {key: value for key, value in views[0].items() if key != "hand"}
    return {
        "step": step,
        "total": len(moves),
        "move": moves[step - 1] if step else None,
        "deal_number": moves[step - 1]["deal_number"] if step else 1,
        "table": table,
        "hands": [view["hand"] for view in views],
        "scores": list(match.scores),
        "players": export["players"],
        "final_scores": export["scores"],
    }
