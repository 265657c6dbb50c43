"""The apps depend one way: games uses accounts, notifications and ratings, never the other way
round.

notifications is a leaf app (no circle of apps); accounts leaves a player's games and time away
to the API layer (profiles), which joins them to the profile. ratings is a leaf too: games tells
it a rated game's result (games.rating); of games it knows only the pure rules engine, for the
tables its pools are made of."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def _importers(app: str, imported: str, allowed: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """The app's modules that import the app `imported` (but for its packages `allowed`)."""
    folder = ROOT / app
    importers = {
        str(path.relative_to(folder)): sorted(
            module
            for module in _imported_modules(path)
            if module.split(".")[0] == imported
            and not any(module == ok or module.startswith(f"{ok}.") for ok in allowed)
        )
        for path in folder.rglob("*.py")
        if "migrations" not in path.parts
    }
    return {path: modules for path, modules in importers.items() if modules}


@pytest.mark.parametrize("app", ["accounts", "notifications"])
def test_the_app_never_imports_games(app: str) -> None:
    assert _importers(app, "games") == {}


def test_ratings_knows_of_games_only_the_rules_engine() -> None:
    assert _importers("ratings", "games", allowed=("games.engine",)) == {}


@pytest.mark.parametrize("app", ["accounts", "notifications", "games", "moderation", "ratings"])
def test_the_app_never_imports_the_pages_or_the_profiles(app: str) -> None:
    assert {
        **_importers(app, "web"),
        **_importers(app, "profiles"),
    } == {}


@pytest.mark.parametrize("app", ["accounts", "notifications", "moderation"])
def test_the_app_never_imports_ratings(app: str) -> None:
    assert _importers(app, "ratings") == {}
