"""The apps depend one way: games uses accounts, social and notifications, never the other way
round.

notifications is a leaf app (no circle of apps); accounts leaves a player's games and time away
to the API layer (profiles), which joins them to the profile. social (who follows and who blocks
whom) knows accounts only: games, moderation and the pages ask it whether two players may share
a table, and compose the list of people one follows with their games."""

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


def _importers(app: str, others: set[str]) -> dict[str, list[str]]:
    """The app's modules that import any of the `others` apps, with what they import."""
    folder = ROOT / app
    importers = {
        str(path.relative_to(folder)): sorted(
            module for module in _imported_modules(path) if module.split(".")[0] in others
        )
        for path in folder.rglob("*.py")
        if "migrations" not in path.parts
    }
    return {path: modules for path, modules in importers.items() if modules}


@pytest.mark.parametrize("app", ["accounts", "notifications", "social"])
def test_the_app_never_imports_games(app: str) -> None:
    assert _importers(app, {"games"}) == {}


def test_social_knows_accounts_only() -> None:
    assert _importers("social", {"games", "moderation", "notifications", "profiles", "web"}) == {}


@pytest.mark.parametrize("app", ["accounts", "notifications"])
def test_the_lower_apps_never_import_social(app: str) -> None:
    assert _importers(app, {"social"}) == {}
