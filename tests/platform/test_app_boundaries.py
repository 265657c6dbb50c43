"""The apps depend one way: games uses accounts, social, notifications and ratings, never the
other way round; tournaments uses games, never the other way round.

notifications is a leaf app (no circle of apps); accounts leaves a player's games and time away
to the API layer (profiles), which joins them to the profile. social (who follows and who blocks
whom) knows accounts only: games, moderation and the pages ask it whether two players may share
a table, and compose the list of people one follows with their games. ratings is a leaf too:
games tells it a rated game's result (games.services.rating); of games it knows only the pure rules
engine, for the tables its pools are made of. tournaments opens, plays out and reads games only
through the games app's front doors (its services, selectors, models, the engine's rules, the
API's shapes, the `game_over` signal and the live pages' announcements): how a turn is timed out
or a bot decides is the games app's alone, and games knows of a tournament only the label it was
opened with."""

import ast
import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            # `from games import services` imports games.services (or a name of games).
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def _imports_of(app: str, allowed: Callable[[str], bool]) -> dict[str, list[str]]:
    """The app's modules (migrations aside) importing a module `allowed` refuses."""
    folder = ROOT / app
    importers = {
        str(path.relative_to(folder)): sorted(
            module for module in _imported_modules(path) if not allowed(module)
        )
        for path in folder.rglob("*.py")
        if "migrations" not in path.parts
    }
    return {path: modules for path, modules in importers.items() if modules}


def _none_of(*apps: str) -> Callable[[str], bool]:
    """Allows a module of any app but `apps`."""
    return lambda module: module.split(".")[0] not in apps


@pytest.mark.parametrize("app", ["accounts", "notifications", "social"])
def test_the_app_never_imports_games(app: str) -> None:
    assert _imports_of(app, _none_of("games", "tournaments")) == {}


def test_social_knows_accounts_only() -> None:
    assert (
        _imports_of("social", _none_of("games", "moderation", "notifications", "profiles", "web"))
        == {}
    )


@pytest.mark.parametrize("app", ["accounts", "notifications"])
def test_the_lower_apps_never_import_social(app: str) -> None:
    assert _imports_of(app, _none_of("social")) == {}


def test_games_never_imports_tournaments() -> None:
    assert _imports_of("games", _none_of("tournaments")) == {}


# What tournaments may use of games.
GAMES_FRONT_DOORS = (
    "games.services",
    "games.selectors",
    "games.models",
    "games.engine",
    "games.engine.rules",
    "games.engine.seating",
    "games.serializers",
    "games.urls",
    # A game's end, told to whoever listens (a tournament moves its page on).
    "games.signals",
    # The live pages' pub/sub, which a tournament's page shares with the tables'.
    "games.live",
)


def _through_front_doors(imported: str) -> bool:
    """Not games, or one of its front doors, or a name imported from one."""
    if imported.split(".")[0] != "games":
        return True
    return (imported if _is_module(imported) else imported.rsplit(".", 1)[0]) in GAMES_FRONT_DOORS


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name inside a module, not a package
        return False


def test_tournaments_use_games_through_its_front_doors() -> None:
    assert _imports_of("tournaments", _through_front_doors) == {}


def test_ratings_knows_of_games_only_the_rules_engine() -> None:
    def engine_or_not_games(module: str) -> bool:
        return module.split(".")[0] != "games" or module.split(".")[:2] == ["games", "engine"]

    assert _imports_of("ratings", engine_or_not_games) == {}


@pytest.mark.parametrize(
    "app", ["accounts", "notifications", "games", "moderation", "ratings", "social", "tournaments"]
)
def test_the_app_never_imports_the_pages_or_the_profiles(app: str) -> None:
    assert _imports_of(app, _none_of("web", "profiles")) == {}


@pytest.mark.parametrize("app", ["accounts", "notifications", "moderation", "social"])
def test_the_app_never_imports_ratings(app: str) -> None:
    assert _imports_of(app, _none_of("ratings")) == {}
