"""What the lobby shows, shaped from the games selectors (the same reads the REST API makes)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accounts.models import User
from club import clock
from club.i18n import text
from games import selectors as game_selectors
from games.bodies import GameSummary
from games.models import Game
from ratings import selectors as rating_selectors
from ratings.pools import pool_title
from ratings.selectors import Standing
from social import selectors as social_selectors
from web.shared import attach_standings, game_name

# What the pages call each table the engine seats (players, teams), the club's game first.
TABLE_NAMES = {
    (4, 2): ("4: две пары (клуб)", "4: two pairs (club)"),
    (2, 2): ("2: каждый за себя", "2: each for themselves"),
    (3, 3): ("3: каждый за себя", "3: each for themselves"),
    (6, 3): ("6: три пары", "6: three pairs"),
    (6, 2): ("6: две команды по трое", "6: two teams of three"),
}


def table_name(players: int, teams: int) -> str:
    return text(*TABLE_NAMES[players, teams])


# A lobby row's table, after the game's name: who plays and how they pair.
SEATINGS = {
    (4, 2): ("вчетвером, две пары", "four players, two pairs"),
    (2, 2): ("вдвоём", "two players"),
    (3, 3): ("втроём", "three players"),
    (6, 3): ("вшестером, три пары", "six players, three pairs"),
    (6, 2): ("вшестером, две команды по трое", "six players, two teams of three"),
}


@dataclass
class LobbyRow:
    game: Game
    summary: GameSummary

    @property
    def seats(self) -> int:
        """The table's size (`rules.players`)."""
        return int(self.summary["rules"]["players"])

    @property
    def free_seats(self) -> int:
        """Seats nobody sits at and none is kept for (an invited player's)."""
        return self.seats - len(self.summary["players"]) - len(self.summary["invitations"])

    @property
    def game_name(self) -> str:
        return game_name(self.summary["rules"])

    @property
    def seating(self) -> str:
        """Who plays at the table and how they pair: "four players, two pairs"."""
        rules = self.summary["rules"]
        return text(*SEATINGS[rules["players"], rules["teams"]])


def _lobby_row(game: Game, *, user: User, now: datetime) -> LobbyRow:
    return LobbyRow(
        game,
        game_selectors.game_summary(table=game_selectors.table_of(game), viewer=user, now=now),
    )


# The opening form offers at most this many of the people one follows (those in the club
# first); the others are invited by name.
INVITABLE_SHOWN = 60


def invitable(*, user: User) -> list[tuple[int, str]]:
    """The players the opening form offers to invite: those `user` follows, online first, by
    name (a player who keeps apart from them is left out: the service would refuse them)."""
    followed = [player for player in social_selectors.following(user=user) if not player.hidden]
    followed.sort(key=lambda player: not player.online)
    return [(player.id, player.name) for player in followed[:INVITABLE_SHOWN]]


def my_ratings(*, user: User) -> list[tuple[str, Standing]]:
    """The user's ratings in the pools they have played, the most played first, named."""
    return [
        (pool_title(standing.pool), standing)
        for standing in rating_selectors.ratings_of(user_id=user.pk, now=clock.now())
    ]


def lobby_sections(*, user: User, for_my_rating: bool = False) -> dict[str, list[Any]]:
    """Your turn first (nearest deadline first), then the invitations waiting for your answer,
    your other unfinished games, your tables waiting for players, and open tables to join
    (`for_my_rating`: those without a rating range and those whose range holds your rating);
    every person's rating beside their name."""
    now = clock.now()  # one read of the club's clock for every row (who is away, paused)
    active = [
        _lobby_row(game, user=user, now=now)
        for game in game_selectors.lobby(user=user, status=Game.Status.ACTIVE, mine=True)
    ]
    your_turn = sorted(
        (row for row in active if row.summary["your_turn"]),
        key=lambda row: row.game.turn_deadline or datetime.max.replace(tzinfo=None),
    )
    waiting = [
        _lobby_row(game, user=user, now=now)
        for game in game_selectors.lobby(
            user=user, status=Game.Status.WAITING, mine=False, for_my_rating=for_my_rating
        )[:100]
    ]
    attach_standings(
        ((row.game.pool, row.summary["players"]) for row in [*active, *waiting]), now=now
    )
    return {
        "your_turn": your_turn,
        "invitations": list(game_selectors.invitations_for(user=user)),
        "other_games": [row for row in active if not row.summary["your_turn"]],
        "my_tables": [row for row in waiting if row.summary["your_seat"] is not None],
        "open_tables": [row for row in waiting if row.summary["your_seat"] is None],
    }
