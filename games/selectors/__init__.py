"""Reads. Everything a player receives is built here, filtered for what that player may see.

The engine state (`Game.state`) holds every hand, the stock and the seed; only `deal.view(seat)`,
`legal_actions` of the caller's own turn, and the public part of each move leave this module —
except `export_of`, which is for finished games only. Who is at the table and who is away are
the package's `presence` and `time_off`.
"""

import functools
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast, overload

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery

from accounts.models import User
from club import clock
from club.postgres import AnyOf
from games import bodies, store
from games.engine import IllegalMove, Match, Rules, legal_actions
from games.engine.preview import (
    MOVES,
    Opening,
    Preview,
    Selection,
    opening_progress,
    preview,
    preview_selection,
    refusals,
)
from games.engine.seating import Seating
from games.models import DealRecord, Game, Invitation, Move, Rematch, Seat, TablePhrase
from games.selectors import time_off
from games.store import LoadedGame, Table
from games.table_phrases import LATEST as LATEST_PHRASES
from games.table_phrases import phrase_text
from ratings import selectors as rating_selectors
from social import selectors as social_selectors

MOVE_LOG_PAGE = 500


@overload
def iso(moment: datetime) -> str: ...
@overload
def iso(moment: datetime | None) -> str | None: ...
def iso(moment: datetime | None) -> str | None:
    """ISO 8601 as DRF renders it, so stored (idempotent) bodies equal fresh ones."""
    if moment is None:
        return None
    return moment.isoformat().replace("+00:00", "Z")


def with_seats(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """The games with their seats and the pending invitations of those waiting (`Table`s to
    be: `table_of`)."""
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user")),
        Prefetch(
            "invitations",
            queryset=_pending_invitations().filter(game__status=Game.Status.WAITING),
            to_attr="pending_invitations",
        ),
    )


def _pending_invitations() -> QuerySet[Invitation]:
    return (
        Invitation.objects.filter(status=Invitation.Status.PENDING)
        .select_related("invitee")
        .order_by("seat")
    )


def pending_invitations(*, game: Game) -> list[Invitation]:
    """A waiting table's pending invitations, by seat (prefetched by `with_seats`); none once
    the game started (every kept seat was taken by then)."""
    if game.status != Game.Status.WAITING:
        return []
    prefetched: list[Invitation] | None = getattr(game, "pending_invitations", None)
    if prefetched is not None:
        return prefetched
    return list(_pending_invitations().filter(game=game))


def game_with_seats(*, game_id: int) -> LoadedGame | None:
    """The game and its seated players in one query (`game_detail` and its kin show them)."""
    return store.load(game_id=game_id)


def table_of(game: Game) -> Table:
    """A game of `with_seats` (its seats prefetched, by seat number) as a Table."""
    return Table(game=game, seats=tuple(game.seats.all()))


def seat_of(*, table: Table, user: User) -> int | None:
    seat = table.seat_of(user)
    return None if seat is None else seat.seat


def rules_of(*, game: Game) -> Rules:
    """The table's rules; a game stored before an option existed has that option's default."""
    return Rules.from_options(game.rules)


def seating_of(*, game: Game) -> Seating:
    """The table's seats, teams and partners: the engine's, for the game's rules."""
    return rules_of(game=game).seating


def partners_at(*, game: Game, user: User) -> list[User] | None:
    """The user's partners at the game, by seat (the engine's partnerships; none where each
    plays alone); None when the user has no seat there."""
    seats = {seat.seat: seat.user for seat in Seat.objects.filter(game=game).select_related("user")}
    seat = next((number for number, player in seats.items() if player.pk == user.pk), None)
    if seat is None:
        return None
    return [seats[partner] for partner in seating_of(game=game).partners_of(seat)]


def games_of(*, user: User) -> QuerySet[Game]:
    return Game.objects.filter(seats__user=user)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's figures, `stats` (games played, won, abandoned), and their latest finished
    games (`recent_games`, newest first, each with whether their team won)."""

    stats: dict[str, int]
    recent_games: list[dict[str, Any]]


# A recent game's seat: its game's fields, then the seat's and its player's.
_RECENT_SEAT_FIELDS = (
    "game_id",
    "game__mode",
    "game__length",
    "game__status",
    "game__finished_at",
    "game__scores",
    "game__winner_team",
    "seat",
    "team",
    "user_id",
    "user__username",
    "user__display_name",
    "user__bot_level",
    "is_absent",
)


# A card's recent games are read once per change of the player's counters, which the games'
# services move in the transaction where a game of theirs ends: until then the list is the
# same, save for a co-player's new name, which reaches it within this many seconds.
RECENT_GAMES_SECONDS = 60


def player_record(*, user: User, recent_games: int) -> PlayerRecord:
    """The player's figures (`player_stats`) and their last `recent_games` finished games.

    The games are one query, cached per the player's counters (RECENT_GAMES_SECONDS): the seats
    of those games with their game's fields and the players' names, read as plain rows, no
    model instances. `user` must be loaded with the request (its counters current)."""
    key = (
        f"games:recent-games:{user.pk}:{user.date_joined.timestamp()}:"
        f"{user.games_played}:{user.games_abandoned}:{recent_games}"
    )
    games: list[dict[str, Any]] | None = cache.get(key)
    if games is None:
        games = _recent_games(user=user, limit=recent_games)
        cache.set(key, games, RECENT_GAMES_SECONDS)
    return PlayerRecord(stats=player_stats(user=user), recent_games=games)


def _recent_games(*, user: User, limit: int) -> list[dict[str, Any]]:
    latest = (
        Seat.objects.filter(user=user, game__status__in=Game.OVER_STATUSES)
        .order_by("-game__finished_at", "-game_id")
        .values("game_id")[:limit]
    )
    seats_of_games: dict[int, list[tuple[Any, ...]]] = {}
    for row in (
        Seat.objects.filter(game_id__in=latest)
        .order_by("-game__finished_at", "-game_id", "seat")
        .values_list(*_RECENT_SEAT_FIELDS)
    ):
        seats_of_games.setdefault(row[0], []).append(row)
    return [_recent_game(seats, user) for seats in seats_of_games.values()]


def player_stats(*, user: User) -> dict[str, int]:
    """Games finished, won, and abandoned by this player: the counters the games' services keep
    on the user (games.services.records), no query.

    Played counts the games finished (played to the end or abandoned) with the seats they kept
    to the end, and those they abandoned to a bot while others played on (`Abandonment`:
    played and abandoned, never won)."""
    return {"played": user.games_played, "won": user.games_won, "abandoned": user.games_abandoned}


def _recent_game(seats: list[tuple[Any, ...]], user: User) -> dict[str, Any]:
    """One finished game from its seats' rows (the game's fields, then the seat's)."""
    game_id, mode, length, status, finished_at, scores, winner_team = seats[0][:7]
    players = [
        _player(
            seat=seat,
            team=team,
            user_id=user_id,
            username=username,
            display_name=display_name,
            bot_level=bot_level,
            is_absent=is_absent,
        )
        for *_game, seat, team, user_id, username, display_name, bot_level, is_absent in seats
    ]
    team = next(player["team"] for player in players if player["user"]["id"] == user.pk)
    return {
        "id": game_id,
        "mode": mode,
        "length": length,
        "status": status,
        "finished_at": finished_at,
        "scores": list(scores),
        "players": players,
        "team": team,
        "winner_team": winner_team,
        "won": winner_team is not None and winner_team == team,
    }


def tables_seen(*, user: User, status: str | None) -> QuerySet[Game]:
    """The tables the lobby shows `user` (of `status`): public ones, plus private ones the user
    sits at, opened or is invited to; none where a player blocked either way with the user sits
    or is invited (social: a block keeps the two apart). A filter: no seats read, no order."""
    invited = Invitation.objects.filter(
        game=OuterRef("pk"), invitee=user, status=Invitation.Status.PENDING
    )
    # A subquery, not a join to the seats: PostgreSQL asks it only of the private tables.
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    games = Game.objects.filter(
        Q(private=False, sealed=False) | Exists(seated) | Q(created_by=user) | Exists(invited)
    )
    if status:
        games = games.filter(status=status)
    apart = social_selectors.blocked_either_way(user_id=user.pk)
    if apart:
        games = games.exclude(
            Exists(Seat.objects.filter(game=OuterRef("pk"), user_id__in=apart))
        ).exclude(
            Exists(
                Invitation.objects.filter(
                    game=OuterRef("pk"), invitee_id__in=apart, status=Invitation.Status.PENDING
                )
            )
        )
    return games


def lobby(
    *, user: User, status: str | None, mine: bool, for_my_rating: bool = False
) -> QuerySet[Game]:
    """Open tables (tables_seen: public ones, plus private ones the user sits at or is invited
    to, none with a player blocked either way) or the user's own games; `for_my_rating`: only
    tables without a rating range or whose range holds the user's rating in the table's pool."""
    if mine:
        games = Game.objects.filter(seats__user=user)
        if status:
            games = games.filter(status=status)
    else:
        games = tables_seen(user=user, status=status)
    games = games.defer("state")
    if for_my_rating:
        own = rating_selectors.rating_in_pool(user_id=user.pk, pool=OuterRef("pool"))
        games = games.filter(
            Q(rating_min__isnull=True) | Q(rating_min__lte=own, rating_max__gte=own)
        )
    return with_seats(games.distinct()).order_by("-created_at", "-pk")


def _players(table: Table, now: datetime | None) -> list[bodies.Player]:
    """The seated players; who is away at `now` in a correspondence game not over (None: not
    asked)."""
    game = table.game
    correspondence = now is not None and game.mode == Game.Mode.ASYNC and not game.is_over
    return [
        _player(
            seat=seat.seat,
            team=seat.team,
            user_id=seat.user_id,
            username=seat.user.username,
            display_name=seat.user.display_name,
            bot_level=seat.user.bot_level,
            is_absent=seat.is_absent,
            away=time_off.absence(seat.user, now) if correspondence and now else None,
        )
        for seat in table.seats
    ]


def _player(
    *,
    seat: int,
    team: int,
    user_id: int,
    username: str,
    display_name: str,
    bot_level: str,
    is_absent: bool,
    away: time_off.Absence | None = None,
) -> bodies.Player:
    """One player at a table, as every answer and page shows them (`away`: back from a
    vacation or a day off when; correspondence games only)."""
    return {
        "seat": seat,
        "team": team,
        "user": {
            "id": user_id,
            "username": username,
            "display_name": display_name,
            "is_bot": bool(bot_level),
            "bot_level": bot_level,
        },
        "is_absent": is_absent,
        "away_until": iso(away.until) if away is not None else None,
        "away_reason": away.reason if away is not None else None,
    }


def invite_code_matches(*, game: Game, invite_code: str) -> bool:
    """In constant time; as bytes, since compare_digest refuses non-ASCII strings."""
    return bool(game.invite_code) and secrets.compare_digest(
        invite_code.encode(), game.invite_code.encode()
    )


def may_see(*, table: Table, viewer: User, invite_code: str = "") -> bool:
    """A private table is seen only by its creator and seated players, and while it waits for
    players by whoever has its invite code or is invited to it; a sealed one (its deals are
    dealt at other tables of a duplicate round too) by its players alone; to anybody else it
    does not exist (404)."""
    game = table.game
    if game.sealed:
        return table.seat_of(viewer) is not None
    if not game.private or game.created_by_id == viewer.pk:
        return True
    if table.seat_of(viewer) is not None:
        return True
    if game.status != Game.Status.WAITING:
        return False
    return invite_code_matches(game=game, invite_code=invite_code) or any(
        invitation.invitee_id == viewer.pk for invitation in pending_invitations(game=game)
    )


def empty_seats(*, table: Table) -> list[int]:
    """Seats nobody sits at: before the start, those still free; in a game, the seat of a
    player who abandoned it while others played on (the game waits for a bot to take it)."""
    if table.game.status not in (Game.Status.WAITING, Game.Status.ACTIVE):
        return []
    taken = {seat.seat for seat in table.seats}
    return [seat for seat in seating_of(game=table.game).seats if seat not in taken]


def may_seat_bots(*, table: Table, user: User) -> bool:
    """Who gives an empty seat to a bot: the table's creator; once the game is on, the creator
    while still at the table, and when they are not, any person seated there."""
    game = table.game
    if game.status == Game.Status.WAITING:
        return game.created_by_id == user.pk
    people = {seat.user_id for seat in table.seats if not seat.user.is_bot}
    if game.created_by_id in people:
        return game.created_by_id == user.pk
    return user.pk in people


def _may_see_invite(table: Table, viewer: User) -> bool:
    return table.game.private and (
        table.game.created_by_id == viewer.pk or table.seat_of(viewer) is not None
    )


def rating_changes_of(games: Sequence[Game]) -> dict[int, dict[int, int]]:
    """The rating changes of the rated games over among `games` (game id -> user id -> change),
    in one query: for a list of game summaries."""
    return rating_selectors.changes_of(
        game_ids=[game.pk for game in games if game.rated and game.is_over]
    )


def game_summary(
    *,
    table: Table,
    viewer: User,
    now: datetime | None = None,
    rating_changes: dict[int, dict[int, int]] | None = None,
) -> bodies.GameSummary:
    """A lobby row: the table, its players and whose turn it is (no engine state). `now`, the
    club's clock (a loaded game's own by default), says who is away and whether it is paused.
    A rated game over shows each player's rating change (`rating_changes`, from
    `rating_changes_of`, or read here)."""
    game = table.game
    viewer_seat = seat_of(table=table, user=viewer)
    now = now or (table.now if isinstance(table, LoadedGame) else clock.now())
    pause = time_off.pause_state_of(game, now)
    players = _players(table, now)
    if game.rated and game.is_over:
        if rating_changes is None:
            rating_changes = rating_selectors.changes_of(game_ids=[game.pk])
        moved = rating_changes.get(game.pk, {})
        for player in players:
            player["rating_change"] = moved.get(player["user"]["id"])
    bounds = game.rating_range
    return {
        "id": game.pk,
        "mode": game.mode,
        "length": game.length,
        "rules": rules_of(game=game).to_options(),
        "status": game.status,
        "private": game.private,
        "rated": game.rated,
        "pool": game.pool,
        "rating_range": list(bounds) if bounds else None,
        "invite_code": game.invite_code if _may_see_invite(table, viewer) else None,
        "created_by": game.created_by_id,
        "created_at": iso(game.created_at),
        "players": players,
        "with_bots": any(seat.user.is_bot for seat in table.seats),
        "your_seat": viewer_seat,
        "version": game.version,
        "deal_number": game.deal_number,
        "scores": list(game.scores),
        "turn_seat": game.turn_seat,
        "your_turn": viewer_seat is not None and viewer_seat == game.turn_seat,
        "turn_started_at": iso(game.turn_started_at),
        "turn_deadline": iso(game.turn_deadline),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "winner_team": game.winner_team,
        "abandoned_by_seat": game.abandoned_by_seat,
        "invitations": [
            {
                "id": invitation.pk,
                "seat": invitation.seat,
                "user": {
                    "id": invitation.invitee_id,
                    "username": invitation.invitee.username,
                    "display_name": invitation.invitee.display_name,
                },
                "expires_at": iso(invitation.expires_at),
            }
            for invitation in pending_invitations(game=game)
        ],
        "paused_until": iso(pause.paused_until),
        "deal_break_until": iso(game.deal_break_until)
        if game.deal_break_until is not None and game.deal_break_until > now
        else None,
        "pause": {
            "asked_by": pause.asked_by,
            "days": pause.days,
            "asked_until": iso(pause.asked_until),
            "votes": pause.votes,
        },
        # Fixed when the game was opened: a cached answer of any version holds it unchanged.
        "tournament": game.tournament,
    }


def game_detail(*, table: Table, viewer: User, match: Match | None = None) -> bodies.GameDetail:
    """The game as `viewer` may see it: their seat's view of the deal and their legal actions.

    `match` is the game's state already parsed (Match.from_dict(game.state)), when at hand.
    """
    game = table.game
    detail = bodies.GameDetail(
        **game_summary(table=table, viewer=viewer),
        deals=[],
        deal=None,
        last_deal=None,
        legal_actions=[],
    )
    viewer_seat = detail["your_seat"]
    if game.state is not None:
        match = match or Match.from_dict(game.state)
        # Seeds stay out until the export: later deals' seeds derive from the match seed.
        detail["deals"] = [
            {
                "number": deal["number"],
                "dealer": deal["dealer"],
                "result": deal["result"],
                "scores_after": deal["scores_after"],
            }
            for deal in match.history
        ]
        # The engine's views (CONTRACT §2 "View"), untyped there: the contract tests hold them to
        # the shape bodies.DealView documents.
        detail["deal"] = cast(bodies.DealView, match.deal.view(viewer_seat))
        detail["last_deal"] = cast(bodies.DealView | None, match.last_deal)
        if (
            game.status == Game.Status.ACTIVE
            and viewer_seat is not None
            and viewer_seat == match.deal.to_act
        ):
            detail["legal_actions"] = legal_actions(match.deal, viewer_seat)
    return detail


def move_entry(move: Move, *, viewer_seat: int | None) -> bodies.MoveEntry:
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
) -> list[bodies.MoveEntry]:
    """Moves after seq `after`, oldest first: public events for all, private ones for the actor."""
    moves = Move.objects.filter(game=game, seq__gt=after).order_by("seq")[:limit]
    return [move_entry(move, viewer_seat=viewer_seat) for move in moves]


# What the table's log says of a move: its public part and the action (a discard's card, an
# answer), never a seat's private events.
_LOGGED_MOVE_FIELDS = ("seq", "deal_number", "seat", "action", "automatic", "public")
# Game versions whose last moves a process keeps (a few live tables' worth each).
RECENT_MOVES_VERSIONS = 512


def recent_moves(
    *, game: Game, window: int, written: Sequence[Move] = ()
) -> Sequence[dict[str, Any]]:
    """The game's last `window` moves, oldest first, as `_LOGGED_MOVE_FIELDS` (shared by every
    caller: read-only). Moves are never rewritten and are the same for every viewer, so a
    process reads them once per game version, however many pages fetch that version; kept in
    the process's memory, as a shared cache's read would cost more than the rest of the
    selector. The game is named by its id and its moment of creation: a database emptied and
    filled again (tests, a restored backup) gives an id to another game.

    `written`: the game's last moves, just made (a move's MoveResult), added to the moves of
    the version before them, which the mover's page has most likely read already."""
    if not written:
        return _moves_up_to(game.pk, game.created_at, game.version, window)
    before = _moves_up_to(game.pk, game.created_at, game.version - len(written), window)
    made = tuple({field: getattr(move, field) for field in _LOGGED_MOVE_FIELDS} for move in written)
    return (before + made)[-window:]


@functools.lru_cache(maxsize=RECENT_MOVES_VERSIONS)
def _moves_up_to(
    game_id: int, created_at: datetime, version: int, window: int
) -> tuple[dict[str, Any], ...]:
    # Bounded above too: a move made since the game was read belongs to a later version.
    return tuple(
        Move.objects.filter(game_id=game_id, seq__gt=max(version - window, 0), seq__lte=version)
        .order_by("seq")
        .values(*_LOGGED_MOVE_FIELDS)[:window]
    )


def export_of(*, table: Table) -> bodies.Export:
    """A finished game in full, for replay: rules, match seed, first dealer, every event."""
    game = table.game
    # Only a game over is exported, and a game is over only once dealt (seeded, its first
    # dealer drawn) and started: abandoning is of a game under way.
    assert game.seed is not None and game.first_dealer is not None
    assert game.started_at is not None and game.finished_at is not None
    return {
        "id": game.pk,
        "mode": game.mode,
        "length": game.length,
        "rules": rules_of(game=game).to_options(),
        "status": game.status,
        # Seeds are 128-bit: decimal strings, which JavaScript's numbers could not hold exactly.
        "seed": str(int(game.seed)),
        "first_dealer": game.first_dealer,
        "players": _players(table, None),
        "scores": list(game.scores),
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
            # The actor's own view: its `private` is always there.
            cast(bodies.ExportMove, move_entry(move, viewer_seat=move.seat))
            for move in Move.objects.filter(game=game).order_by("seq")
        ],
    }


def games_waiting(*, user: User) -> QuerySet[Seat]:
    """The user's seats at active games waiting for their move (the header's badge and the tab
    title count them)."""
    return Seat.objects.filter(
        user=user, game__status=Game.Status.ACTIVE, game__turn_seat=F("seat")
    )


def move_preview(*, game_id: int, viewer: User, action: dict[str, Any]) -> Preview | None:
    """What `action` would do for the viewer's seat now (games.engine.preview); None when the
    viewer has no seat at an active game. Nothing is played or written."""
    table = game_with_seats(game_id=game_id)
    if table is None or table.game.status != Game.Status.ACTIVE or table.game.state is None:
        return None
    seat = seat_of(table=table, user=viewer)
    if seat is None:
        return None
    return preview(Match.from_dict(table.game.state).deal, seat, action)


def selection_preview(
    *, game_id: int, viewer: User, cards: list[str], groups: list[list[str]]
) -> Selection | None:
    """What the viewer's selected cards would do with each move that takes cards
    (games.engine.preview.preview_selection); None when the viewer has no seat at an active
    game. Nothing is played or written."""
    table = game_with_seats(game_id=game_id)
    if table is None or table.game.status != Game.Status.ACTIVE or table.game.state is None:
        return None
    seat = seat_of(table=table, user=viewer)
    if seat is None:
        return None
    return preview_selection(Match.from_dict(table.game.state).deal, seat, cards, groups)


@dataclass(frozen=True)
class TableView:
    """A table as one viewer may see it, read once: what the table page lays out."""

    table: LoadedGame
    detail: bodies.GameDetail  # the viewer's seat's view and legal actions
    seat: Seat | None  # the viewer's
    seating: Seating
    # The last moves (recent_moves, oldest first); `moves_cut`: earlier ones exist.
    moves: Sequence[dict[str, Any]]
    moves_cut: bool
    free_seats: list[int]  # empty_seats
    may_seat_bots: bool
    # Why the viewer's seat cannot make each of the five moves no selection of cards could make
    # now (the engine's refusals), and its turn's melds toward the opening minimum.
    refused: dict[str, IllegalMove]
    opening: Opening | None


def table_view(
    *,
    table: LoadedGame,
    viewer: User | AnonymousUser,
    invite_code: str = "",
    move_window: int,
    match: Match | None = None,
    written: Sequence[Move] = (),
) -> TableView | None:
    """The loaded table as `viewer` may see it (their seat's view; a spectator's for anybody
    else), with its last `move_window` moves; None when it is a private table hidden from the
    viewer. After a move (its MoveResult), `match` is the game's state already parsed and
    `written` the moves just made: neither is read again."""
    # An anonymous visitor sits nowhere and created nothing: a User's checks hold for them.
    person = cast(User, viewer)
    if not may_see(table=table, viewer=person, invite_code=invite_code):
        return None
    game = table.game
    if match is None and game.state is not None:
        match = Match.from_dict(game.state)
    detail = game_detail(table=table, viewer=person, match=match)
    seat = table.seat_of(person) if viewer.is_authenticated else None
    refused: dict[str, IllegalMove] = {}
    opening = None
    if match is not None and seat is not None and game.status == Game.Status.ACTIVE:
        legal = {action["type"] for action in detail["legal_actions"]}
        refused = refusals(match.deal, seat.seat, [kind for kind in MOVES if kind not in legal])
        opening = opening_progress(match.deal, seat.seat)
    return TableView(
        table=table,
        detail=detail,
        seat=seat,
        seating=seating_of(game=game),
        moves=recent_moves(game=game, window=move_window, written=written),
        moves_cut=game.version > move_window,
        free_seats=empty_seats(table=table),
        may_seat_bots=viewer.is_authenticated and may_seat_bots(table=table, user=person),
        refused=refused,
        opening=opening,
    )


def replay_at(*, table: Table, step: int) -> dict[str, Any]:
    """A finished game after its first `step` moves, rebuilt by the engine from its export.

    The game is over, so every hand is shown. The table is that of the deal the last move was
    made in (at its end, with its result, when that move ended it). `step` is clamped.
    """
    export = export_of(table=table)
    moves = export["moves"]
    step = max(0, min(step, len(moves)))
    rules = Rules.from_options(export["rules"])
    match = Match.new(rules, first_dealer=export["first_dealer"], seed=int(export["seed"]))
    deal = match.deal
    for move in moves[:step]:
        deal = match.deal  # the deal this move is made in, kept when the move ends it
        match.apply(move["seat"], move["action"])
    views = [deal.view(seat) for seat in rules.seating.seats]
    seen = {key: value for key, value in views[0].items() if key != "hand"}
    return {
        "step": step,
        "total": len(moves),
        "move": moves[step - 1] if step else None,
        "deal_number": moves[step - 1]["deal_number"] if step else 1,
        "table": seen,
        "hands": [view["hand"] for view in views],
        "scores": list(match.scores),
        "players": export["players"],
        "final_scores": export["scores"],
    }


def invitation_entry(invitation: Invitation) -> bodies.MyInvitation:
    """One of the user's invitations (`invitations_for`) as the API shows it."""
    inviter = invitation.invited_by
    return {
        "id": invitation.pk,
        "game": invitation.game_id,
        "seat": invitation.seat,
        "mode": invitation.game.mode,
        "length": invitation.game.length,
        "invited_by": {
            "id": inviter.pk,
            "username": inviter.username,
            "display_name": inviter.display_name,
        },
        "created_at": iso(invitation.created_at),
        "expires_at": iso(invitation.expires_at),
    }


def invitation_answer(invitation: Invitation) -> bodies.InvitationAnswer:
    """An invitation answered (declined): which, and how it stands now."""
    return {"id": invitation.pk, "status": invitation.status}


def seat_presence(seat: Seat) -> bodies.SeatPresence:
    """A seat's presence, as the heartbeat answers it (it has just seen the seat)."""
    assert seat.last_seen_at is not None
    return {"seat": seat.seat, "is_absent": seat.is_absent, "last_seen_at": iso(seat.last_seen_at)}


def invitations_for(*, user: User) -> QuerySet[Invitation]:
    """The user's invitations waiting for an answer, soonest to lapse first."""
    return (
        Invitation.objects.filter(invitee=user, status=Invitation.Status.PENDING)
        .select_related("invited_by", "game")
        .order_by("expires_at", "pk")
    )


def waiting_tables_of(
    *, viewer: User, user_ids: Collection[int] | QuerySet[Any]
) -> dict[int, list[int]]:
    """The tables of the lobby `viewer` sees (tables_seen) waiting for players where each of
    these players (ids, or a subquery of them) sits (a followed player "waiting for a game"),
    newest first: user id -> game ids. One query, read from the tables waiting now and then
    their seats (AnyOf): it grows with the lobby, never with the players' past games."""
    waiting = tables_seen(user=viewer, status=Game.Status.WAITING).values("pk")
    tables: dict[int, list[int]] = {}
    for user_id, game_id in (
        Seat.objects.filter(AnyOf(F("game_id"), Subquery(waiting)), user_id__in=user_ids)
        .order_by("-game__created_at", "-game_id")
        .values_list("user_id", "game_id")
    ):
        tables.setdefault(user_id, []).append(game_id)
    return tables


def table_phrases(*, game: Game, viewer: User | None) -> list[TablePhrase]:
    """The game's latest phrases (table_phrases.LATEST at most), oldest first; to a viewer who
    muted phrases, only their own. Read apart from the game's state: phrases are said without a
    move, so nothing cached per game version may hold them. A silent table (`phrases_said`, on
    the row the caller read) costs no query."""
    if not game.phrases_said:
        return []
    muted = viewer is not None and viewer.phrases_muted
    phrases = TablePhrase.objects.filter(game=game)
    if muted:
        phrases = phrases.filter(user=viewer)
    return list(phrases.order_by("-id")[:LATEST_PHRASES])[::-1]


def phrase_entry(phrase: TablePhrase) -> bodies.TablePhrase:
    """A phrase as the API shows it: the seat, the phrase's key and its text in the caller's
    language, and when it was said."""
    return {
        "seat": phrase.seat,
        "phrase": phrase.phrase,
        "text": phrase_text(phrase.phrase),
        "at": iso(phrase.said_at),
    }


@dataclass(frozen=True)
class FollowedAtTables:
    """A player the viewer follows (social), with the public tables where they wait for
    players: none shown for a player who keeps apart from the viewer."""

    player: social_selectors.FollowedPlayer
    waiting_games: list[int]


def people_followed(*, user: User) -> list[FollowedAtTables]:
    """The players `user` follows, by name: who is online now, who waits for a game and where
    (a table of `user`'s lobby, where a player who keeps apart from `user` never sits). A few
    queries, whatever their number and their past."""
    waiting = waiting_tables_of(viewer=user, user_ids=social_selectors.followed_by(user=user))
    return [
        FollowedAtTables(player=player, waiting_games=waiting.get(player.id, []))
        for player in social_selectors.following(user=user)
    ]


def rematch_of(*, game: Game) -> int | None:
    """The id of the game's rematch, once a player opened it."""
    return Rematch.objects.filter(of_game=game).values_list("game_id", flat=True).first()
