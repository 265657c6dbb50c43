"""What the tournaments' pages show, shaped from the tournaments selectors (the API's reads)."""

from dataclasses import dataclass
from fractions import Fraction

from accounts.models import User
from club.i18n import text
from games.models import Game
from tournaments import selectors
from tournaments.models import Entry, Round, Tournament
from web.tournaments.forms import TABLE_NAMES


def points_text(points: Fraction) -> str:
    """1, 1½, 2.63: halves as the club writes them, a duplicate score to two decimals."""
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole) or ''}½"
    return f"{float(points):.2f}"


def describe(tournament: Tournament) -> str:
    """One line: format, pace, table, partners, deals a game, duplicate, rated."""
    rules = tournament.rules
    table = "two" if rules["players"] == 2 else rules.get("game", "classic")
    parts = [
        text("по швейцарской системе", "Swiss")
        if tournament.format == Tournament.Format.SWISS
        else text("круговой", "round robin"),
        text("по дням", "by correspondence")
        if tournament.mode == Game.Mode.ASYNC
        else text("вживую", "live"),
        text(*TABLE_NAMES[table]),
    ]
    if rules["players"] == 4:
        parts.append(
            text("постоянные пары", "fixed pairs")
            if tournament.partners == Tournament.Partners.FIXED
            else text("партнёры меняются", "rotating partners")
        )
    deals = tournament.deals
    parts.append(text(f"раздач в игре: {deals}", f"{deals} deal{'s' if deals > 1 else ''} a game"))
    if tournament.duplicate:
        parts.append(
            text("дубль: одни раздачи на всех столах", "duplicate: the same deals at every table")
        )
    if not tournament.rated:
        parts.append(text("без рейтинга", "casual"))
    return " · ".join(parts)


@dataclass
class EntryView:
    entry: Entry
    players: list[User]
    mine: bool

    @property
    def pk(self) -> int:
        return self.entry.pk


@dataclass
class SideView:
    """A side of a table: its entries' players, and its score once the game is over."""

    players: list[User]
    score: int | None


@dataclass
class TableView:
    number: int
    game: Game
    sides: list[SideView]
    mine: bool
    your_turn: bool


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[EntryView]


@dataclass
class StandingView:
    row: selectors.StandingRow
    entry: EntryView

    @property
    def points(self) -> str:
        return points_text(self.row.points)

    @property
    def tiebreak(self) -> str:
        return points_text(self.row.tiebreak)

    @property
    def difference(self) -> str:
        return f"{float(self.row.difference):+.0f}"


@dataclass
class TournamentPage:
    tournament: Tournament
    description: str
    entries: list[EntryView]
    rounds: list[RoundView]
    standings: list[StandingView]
    mine: EntryView | None
    may_start: bool
    fixed_pairs: bool


def tournament_page(*, tournament: Tournament, viewer: User | None) -> TournamentPage:
    """The tournament as `viewer` (None: signed out) sees it: their entry and games marked."""
    viewer_id = viewer.pk if viewer is not None else None
    entries = [
        EntryView(
            entry=entry,
            players=[player.user for player in entry.players.all()],
            mine=any(player.user_id == viewer_id for player in entry.players.all()),
        )
        for entry in selectors.entries_of(tournament)
    ]
    by_id = {view.pk: view for view in entries}
    rounds = []
    for round_ in reversed(selectors.rounds_of(tournament)):
        placements = list(round_.placements.all())
        tables = []
        for table in round_.tables.all():
            game = table.game
            sides = [
                [by_id[p.entry_id] for p in placements if p.table_id == table.pk and p.team == team]
                for team in range(len(game.scores))
            ]
            at_table = any(view.mine for side in sides for view in side)
            tables.append(
                TableView(
                    number=table.number,
                    game=game,
                    sides=[
                        SideView(
                            players=[player for view in side for player in view.players],
                            score=game.scores[team] if game.is_over else None,
                        )
                        for team, side in enumerate(sides)
                    ],
                    mine=at_table,
                    your_turn=at_table
                    and game.status == Game.Status.ACTIVE
                    and _seat_of(game, viewer_id) == game.turn_seat,
                )
            )
        byes = [by_id[p.entry_id] for p in placements if p.table_id is None]
        rounds.append(RoundView(round=round_, tables=tables, byes=byes))
    mine = next((view for view in entries if view.mine), None)
    return TournamentPage(
        tournament=tournament,
        description=describe(tournament),
        entries=entries,
        rounds=rounds,
        standings=[
            StandingView(row=row, entry=by_id[row.entry]) for row in selectors.standings(tournament)
        ],
        mine=mine,
        may_start=tournament.status == Tournament.Status.OPEN
        and tournament.created_by_id == viewer_id,
        fixed_pairs=tournament.partners == Tournament.Partners.FIXED,
    )


def _seat_of(game: Game, viewer_id: int | None) -> int | None:
    return next((seat.seat for seat in game.seats.all() if seat.user_id == viewer_id), None)


@dataclass(frozen=True)
class ListedTournament:
    tournament: Tournament
    description: str
    entry_count: int


# The most of each section the list shows, newest first.
LISTED = 50


def tournament_lists() -> dict[str, list[ListedTournament]]:
    """Taking entries, running, and the latest finished (cancelled ones with them)."""
    sections = {
        "open": [Tournament.Status.OPEN],
        "running": [Tournament.Status.RUNNING],
        "finished": [Tournament.Status.FINISHED, Tournament.Status.CANCELLED],
    }
    return {
        section: [
            ListedTournament(
                tournament=tournament,
                description=describe(tournament),
                entry_count=tournament.entry_count,  # type: ignore[attr-defined]  # annotated
            )
            for tournament in selectors.tournaments(status=None).filter(status__in=statuses)[
                :LISTED
            ]
        ]
        for section, statuses in sections.items()
    }
