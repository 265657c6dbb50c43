"""Reads: tournaments, their entries and rounds, and the standings worked out from the games.

**Points.** A game is worth one point between its sides; a bye is worth a win (1).
Without duplicate, a side scores by the game's final totals: 1 for a win, 1/2 for a draw, 0
for a loss (at a table of more sides: the share of the other sides it finished ahead of, a tie
counting half). **Duplicate** (match points): each deal of a round is a board; on a board a
side's result is its deal total less the other side's, compared with the same seats' result at
every other table of the round (which held the same cards): 1 for each table it did better
than, 1/2 for each it tied, divided by the number of other tables (1/2 when it is the only
table); a game scores the mean of its boards. A duplicate round counts once every table of it
has finished (its match points depend on them all); byes count from the round's start.

**Tie-breaks**, in order: Swiss, Buchholz (the sum, over the games played, of the opponents'
points: the mean of them when two entries sat opposite as partners); round robin,
Sonneborn–Berger (the same sum, each game's weighted by the points it scored); then the score
difference (the sum of the side's game totals less the opponents', every board's in duplicate);
entries level on all three share their rank.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, F, Prefetch, QuerySet

from accounts.models import User
from games import selectors as game_selectors
from games.engine import Rules
from games.engine.seating import Seating
from games.models import DealRecord, Game
from tournaments.models import Entry, EntryPlayer, Placement, Round, RoundTable, Tournament
from tournaments.pairing import History, Standing

BYE_POINTS = Fraction(1)


def rules_of(tournament: Tournament) -> Rules:
    return Rules.from_options(tournament.rules)


def seating_of(tournament: Tournament) -> Seating:
    return rules_of(tournament).seating


def tournaments(*, status: str | None) -> QuerySet[Tournament]:
    """Newest first, each with its number of entries (`entry_count`)."""
    listed = Tournament.objects.annotate(entry_count=Count("entries"))
    if status:
        listed = listed.filter(status=status)
    return listed.select_related("created_by").order_by("-created_at", "-pk")


def entries_of(tournament: Tournament) -> list[Entry]:
    """Its entries in the order they entered, each with its players (`players.all()`, by
    position, their users loaded)."""
    return list(
        Entry.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("players", queryset=EntryPlayer.objects.select_related("user")))
        .order_by("number")
    )


def players_by_entry(tournament: Tournament) -> dict[int, list[User]]:
    """Each entry's players, by position (one query: what a round's seating needs)."""
    players: dict[int, list[User]] = defaultdict(list)
    for player in (
        EntryPlayer.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("entry_id", "position")
    ):
        players[player.entry_id].append(player.user)
    return dict(players)


def rounds_of(tournament: Tournament) -> list[Round]:
    """Its rounds, with their tables (`tables.all()`, by number, their games loaded without
    their engine state) and placements."""
    return list(
        Round.objects.filter(tournament=tournament)
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=RoundTable.objects.select_related("game")
                .defer("game__state")
                .order_by("number"),
            ),
            "placements",
        )
        .order_by("number")
    )


@dataclass
class StandingRow:
    """An entry's place: points, the tie-breaks, games played and won, byes."""

    entry: int
    number: int
    points: Fraction = Fraction(0)
    tiebreak: Fraction = Fraction(0)
    difference: Fraction = Fraction(0)
    played: int = 0
    won: int = 0
    byes: int = 0
    rank: int = 0
    # (points the game scored, the opponents' entries) of each game counted.
    games: list[tuple[Fraction, tuple[int, ...]]] = field(default_factory=list)


@dataclass(frozen=True)
class _Side:
    """One side of a counted game: its share of the game's point and its score difference."""

    points: Fraction
    difference: Fraction


@dataclass(frozen=True)
class _Result:
    """What the standings read of a game."""

    pk: int
    status: str
    scores: list[int]
    winner_team: int | None

    @property
    def is_over(self) -> bool:
        return self.status in Game.OVER_STATUSES


def _share(own: Fraction, others: list[Fraction]) -> Fraction:
    """A side's share of a point against `others`: the share of them it did better than, a tie
    counting half (1/2 with nobody to compare with)."""
    if not others:
        return Fraction(1, 2)
    beaten = sum(1 for other in others if other < own)
    level = sum(1 for other in others if other == own)
    return Fraction(2 * beaten + level, 2 * len(others))


def _game_sides(scores: list[int], status: str, winner_team: int | None) -> dict[int, _Side]:
    """Each team's share of a game played to its end by its final totals (a game that ended
    abandoned: its winner takes it, none a draw)."""
    sides = {}
    for team, score in enumerate(scores):
        others = [Fraction(other) for index, other in enumerate(scores) if index != team]
        if status == Game.Status.ABANDONED:
            share = Fraction(1, 2) if winner_team is None else Fraction(int(winner_team == team))
        else:
            share = _share(Fraction(score), others)
        sides[team] = _Side(points=share, difference=score - sum(others, Fraction(0)) / len(others))
    return sides


def _board_nets(result: list[dict[str, Any]]) -> list[Fraction]:
    """A deal's result from each team's seats: its total less the others' mean."""
    totals = [Fraction(line["total"]) for line in result]
    return [total - (sum(totals) - total) / (len(totals) - 1) for total in totals]


def _duplicate_sides(tables: list[tuple[int, _Result]]) -> dict[int, dict[int, _Side]]:
    """Each table's teams' match points over a finished round's boards (see the module)."""
    # (deal number, team) -> game -> that team's result on the board
    boards: dict[tuple[int, int], dict[int, Fraction]] = defaultdict(dict)
    records = DealRecord.objects.filter(game_id__in=[game.pk for _table, game in tables])
    for game_id, number, result in records.values_list("game_id", "number", "result"):
        for team, net in enumerate(_board_nets(result)):
            boards[number, team][game_id] = net
    sides: dict[int, dict[int, _Side]] = {}
    for table, game in tables:
        sides[table] = {}
        for team in range(len(game.scores)):
            played = [
                results
                for (_number, board_team), results in boards.items()
                if board_team == team and game.pk in results
            ]
            shares = [
                _share(
                    results[game.pk], [net for other, net in results.items() if other != game.pk]
                )
                for results in played
            ]
            sides[table][team] = _Side(
                points=sum(shares, Fraction(0)) / len(shares) if shares else Fraction(1, 2),
                difference=sum((results[game.pk] for results in played), Fraction(0)),
            )
    return sides


@dataclass(frozen=True)
class _Played:
    """A placement as the standings read it."""

    round: int
    round_ended: bool
    entry: int
    table: int | None
    team: int | None
    game: _Result | None


def _placements(tournament: Tournament) -> list[_Played]:
    """Every placement of the tournament with its game's result, as plain rows (a round of a
    thousand entries is read in one query, no model instances)."""
    rows = (
        Placement.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table__number", "team", "entry__number")
        .values_list(
            "round__number",
            "round__ended_at",
            "entry_id",
            "table_id",
            "team",
            "table__game_id",
            "table__game__status",
            "table__game__scores",
            "table__game__winner_team",
        )
    )
    return [
        _Played(
            round=number,
            round_ended=ended_at is not None,
            entry=entry,
            table=table,
            team=team,
            game=None if game is None else _Result(game, status, scores, winner_team),
        )
        for number, ended_at, entry, table, team, game, status, scores, winner_team in rows
    ]


def history(tournament: Tournament) -> History:
    """Who met whom across a table and who sat on one side, every round so far."""
    return _history(_placements(tournament))


def pairing_view(tournament: Tournament) -> tuple[list[Standing], History]:
    """What the next round's pairing needs (the standings and the history), read once."""
    played = _placements(tournament)
    return pairing_standings(standings(tournament, played=played)), _history(played)


def _history(played: Iterable[_Played]) -> History:
    opponents: dict[frozenset[int], int] = defaultdict(int)
    partners: dict[frozenset[int], int] = defaultdict(int)
    at_table: dict[int, list[_Played]] = defaultdict(list)
    for placement in played:
        if placement.table is not None:
            at_table[placement.table].append(placement)
    for sitting in at_table.values():
        for index, first in enumerate(sitting):
            for second in sitting[index + 1 :]:
                key = frozenset((first.entry, second.entry))
                if first.team == second.team:
                    partners[key] += 1
                else:
                    opponents[key] += 1
    return History(opponents=dict(opponents), partners=dict(partners))


def standings(tournament: Tournament, *, played: list[_Played] | None = None) -> list[StandingRow]:
    """Every entry's place, best first (see the module for the points and tie-breaks);
    `played`: the placements, when already read."""
    played = _placements(tournament) if played is None else played
    rows = {
        entry: StandingRow(entry=entry, number=number)
        for entry, number in Entry.objects.filter(tournament=tournament).values_list("pk", "number")
    }
    sides = _sides(tournament, played)
    at_table: dict[int, list[_Played]] = defaultdict(list)
    for placement in played:
        if placement.table is not None:
            at_table[placement.table].append(placement)
    for placement in played:
        row = rows[placement.entry]
        if placement.table is None:
            row.byes += 1
            row.points += BYE_POINTS
            continue
        assert placement.team is not None
        side = sides.get(placement.table, {}).get(placement.team)
        if side is None:
            continue  # not counted yet
        opponents = tuple(
            other.entry for other in at_table[placement.table] if other.team != placement.team
        )
        row.points += side.points
        row.difference += side.difference
        row.played += 1
        row.won += side.points == 1
        row.games.append((side.points, opponents))
    by_points = {entry: row.points for entry, row in rows.items()}
    weighted = tournament.format == Tournament.Format.ROUND_ROBIN
    for row in rows.values():
        row.tiebreak = sum(
            (
                (share if weighted else 1)
                * Fraction(sum(by_points[other] for other in opponents), len(opponents))
                for share, opponents in row.games
                if opponents
            ),
            Fraction(0),
        )
    ordered = sorted(
        rows.values(), key=lambda row: (-row.points, -row.tiebreak, -row.difference, row.number)
    )
    for index, row in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        level = previous is not None and (
            (previous.points, previous.tiebreak, previous.difference)
            == (row.points, row.tiebreak, row.difference)
        )
        row.rank = previous.rank if level and previous else index + 1
    return ordered


def _sides(tournament: Tournament, played: list[_Played]) -> dict[int, dict[int, _Side]]:
    """Every counted table's sides (see the module: a game over; in duplicate, its round
    over)."""
    games = {
        placement.table: placement.game
        for placement in played
        if placement.table is not None and placement.game is not None
    }
    rounds = {placement.table: placement for placement in played if placement.table is not None}
    if not tournament.duplicate:
        return {
            table: _game_sides(list(game.scores), game.status, game.winner_team)
            for table, game in games.items()
            if game.is_over
        }
    by_round: dict[int, list[tuple[int, _Result]]] = defaultdict(list)
    for table, game in games.items():
        if rounds[table].round_ended:
            by_round[rounds[table].round].append((table, game))
    sides: dict[int, dict[int, _Side]] = {}
    for tables in by_round.values():
        sides.update(_duplicate_sides(tables))
    return sides


def pairing_standings(rows: list[StandingRow]) -> list[Standing]:
    """What the pairing needs of the standings."""
    return [
        Standing(entry=row.entry, points=row.points, byes=row.byes, number=row.number)
        for row in rows
    ]


def unfinished_games(round_: Round) -> list[int]:
    """The round's games still under way."""
    return list(
        RoundTable.objects.filter(round=round_, game__status=Game.Status.ACTIVE).values_list(
            "game_id", flat=True
        )
    )


def round_games(round_: Round) -> list[int]:
    return list(RoundTable.objects.filter(round=round_).values_list("game_id", flat=True))


def current_round(tournament: Tournament) -> Round | None:
    if not tournament.current_round:
        return None
    return Round.objects.filter(tournament=tournament, number=tournament.current_round).first()


@dataclass(frozen=True)
class TournamentGame:
    """A game of a tournament round waiting for the user's move (the lobby shows them)."""

    tournament: Tournament
    round: int
    game: Game


def games_waiting_for(*, user: User) -> list[TournamentGame]:
    """The user's tournament games whose turn is theirs, nearest deadline first."""
    waiting = game_selectors.games_waiting(user=user).values("game_id")
    tables = (
        RoundTable.objects.filter(game_id__in=waiting)
        .select_related("round", "game")
        .defer("game__state")
        .order_by(F("game__turn_deadline").asc(nulls_last=True))
    )
    by_id = {
        tournament.pk: tournament
        for tournament in Tournament.objects.filter(
            pk__in={table.round.tournament_id for table in tables}
        )
    }
    return [
        TournamentGame(
            tournament=by_id[table.round.tournament_id], round=table.round.number, game=table.game
        )
        for table in tables
    ]


def points_number(points: Fraction) -> float:
    """Points as the API and the pages show them (a duplicate game's share has many digits)."""
    return round(float(points), 4)


def _user_brief(user: User) -> dict[str, Any]:
    """A player as every answer of the club names them (games' UserBriefSerializer)."""
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "is_bot": user.is_bot,
        "bot_level": user.bot_level,
    }


def tournament_summary(tournament: Tournament, *, entry_count: int | None = None) -> dict[str, Any]:
    """A tournament as lists show it: its settings and where it stands, no entries or rounds."""
    rules = rules_of(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "mode": tournament.mode,
        "format": tournament.format,
        "duplicate": tournament.duplicate,
        "partners": tournament.partners,
        "rated": tournament.rated,
        "rules": rules.to_options(),
        "deals": tournament.deals,
        "round_count": tournament.rounds,
        "current_round": tournament.current_round,
        "max_entries": tournament.max_entries,
        "entry_count": (
            entry_count
            if entry_count is not None
            else Entry.objects.filter(tournament=tournament).count()
        ),
        "round_minutes": int(tournament.round_limit.total_seconds() // 60),
        "starts_at": game_selectors.iso(tournament.starts_at),
        "started_at": game_selectors.iso(tournament.started_at),
        "finished_at": game_selectors.iso(tournament.finished_at),
        "created_by": _user_brief(tournament.created_by),
        "created_at": game_selectors.iso(tournament.created_at),
    }


def tournament_detail(tournament: Tournament, *, viewer: User) -> dict[str, Any]:
    """A tournament in full (CONTRACT §7): its entries, rounds with their games, standings."""
    entries = entries_of(tournament)
    rounds = rounds_of(tournament)
    mine = next(
        (
            entry.pk
            for entry in entries
            for player in entry.players.all()
            if player.user_id == viewer.pk
        ),
        None,
    )
    return {
        **tournament_summary(tournament, entry_count=len(entries)),
        "your_entry": mine,
        "entries": [
            {
                "id": entry.pk,
                "number": entry.number,
                "players": [player.user_id for player in entry.players.all()],
                "members": [_user_brief(player.user) for player in entry.players.all()],
            }
            for entry in entries
        ],
        "rounds": [_round(round_) for round_ in rounds],
        "standings": [
            {
                "entry": row.entry,
                "points": points_number(row.points),
                "rank": row.rank,
                "tiebreak": points_number(row.tiebreak),
                "difference": points_number(row.difference),
                "played": row.played,
                "won": row.won,
                "byes": row.byes,
            }
            for row in standings(tournament)
        ],
    }


def _round(round_: Round) -> dict[str, Any]:
    tables = list(round_.tables.all())
    placements = list(round_.placements.all())
    return {
        "number": round_.number,
        "games": [table.game_id for table in tables],
        "started_at": game_selectors.iso(round_.started_at),
        "deadline": game_selectors.iso(round_.deadline),
        "ended_at": game_selectors.iso(round_.ended_at),
        "tables": [
            {
                "game": table.game_id,
                "status": table.game.status,
                "sides": [
                    [p.entry_id for p in placements if p.table_id == table.pk and p.team == team]
                    for team in range(len(table.game.scores))
                ],
            }
            for table in tables
        ],
        "byes": [placement.entry_id for placement in placements if placement.table_id is None],
    }
