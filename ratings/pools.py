"""The rating pools: one per kind of game people play, `"{mode}.{game}.{seats}"`
(`async.classic.4`, `live.samba.4`, `async.classic.2` ...): correspondence and live play apart,
each game apart, each table size apart (six seats in pairs and in two teams of three share one)."""

from club.errors import Invalid
from club.i18n import text
from games.engine import Rules
from games.engine.rules import GAMES, TABLE_TEAMS

# The games' modes (games.models.Game.Mode): the engine knows no clocks.
MODES = ("async", "live")
# The club's own game: the pool a page shows first.
DEFAULT_POOL = "async.classic.4"


def pool_name(*, mode: str, game: str, players: int) -> str:
    return f"{mode}.{game}.{players}"


def _tables() -> list[tuple[str, int]]:
    """(game, players) of every table the engine seats, in the engine's order."""
    tables = []
    for game in GAMES:
        for players, teams in TABLE_TEAMS.items():
            try:
                Rules(game=game, players=players, teams=teams[0])
            except ValueError:
                continue
            tables.append((game, players))
    # The club's four-handed game first within each game.
    return sorted(tables, key=lambda table: (GAMES.index(table[0]), table[1] != 4, table[1]))


POOLS: tuple[str, ...] = tuple(
    pool_name(mode=mode, game=game, players=players)
    for mode in MODES
    for game, players in _tables()
)


def checked_pool(name: str) -> str:
    if name not in POOLS:
        raise Invalid(
            "unknown_pool",
            text(
                f"Нет такого рейтинга: {name!r}. Рейтинги: {', '.join(POOLS)}.",
                f"No such rating pool: {name!r}. The pools: {', '.join(POOLS)}.",
            ),
        )
    return name


def pool_title(name: str) -> str:
    """A pool as the pages name it: «По дням · канаста · 4 игрока»."""
    mode, game, players = name.split(".")
    return " · ".join(
        [
            text("По дням", "Correspondence") if mode == "async" else text("Вживую", "Live"),
            text(*_GAME_NAMES[game]),
            text(f"{players} {'игрока' if int(players) < 5 else 'игроков'}", f"{players} players"),
        ]
    )


_GAME_NAMES = {
    "classic": ("канаста", "Canasta"),
    "samba": ("самба", "Samba"),
    "bolivia": ("боливия", "Bolivia"),
}
