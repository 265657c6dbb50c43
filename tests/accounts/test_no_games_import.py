"""accounts never imports games: a player's games and time away join their profile in the API
layer (profiles), so the apps depend one way (games on accounts)."""

import ast
from pathlib import Path

ACCOUNTS = Path(__file__).resolve().parents[2] / "accounts"


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def test_accounts_never_imports_games():
    importers = {
        str(path.relative_to(ACCOUNTS)): sorted(
            module for module in _imported_modules(path) if module.split(".")[0] == "games"
        )
        for path in ACCOUNTS.rglob("*.py")
        if "migrations" not in path.parts
    }
    assert {path: modules for path, modules in importers.items() if modules} == {}
