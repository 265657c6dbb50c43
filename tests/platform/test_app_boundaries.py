"""The apps depend one way: games uses accounts and notifications, never the other way round.

notifications is a leaf app (no circle of apps); accounts leaves a player's games and time away
to the API layer (profiles), which joins them to the profile."""

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


@pytest.mark.parametrize("app", ["accounts", "notifications"])
def test_the_app_never_imports_games(app: str) -> None:
    folder = ROOT / app
    importers = {
        str(path.relative_to(folder)): sorted(
            module for module in _imported_modules(path) if module.split(".")[0] == "games"
        )
        for path in folder.rglob("*.py")
        if "migrations" not in path.parts
    }
    assert {path: modules for path, modules in importers.items() if modules} == {}
