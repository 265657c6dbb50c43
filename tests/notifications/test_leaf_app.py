"""notifications is a leaf app: games uses it, it never imports games (no circle of apps)."""

import ast
from pathlib import Path

NOTIFICATIONS = Path(__file__).resolve().parents[2] / "notifications"


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def test_notifications_never_imports_games():
    importers = {
        str(path.relative_to(NOTIFICATIONS)): sorted(
            module for module in _imported_modules(path) if module.split(".")[0] == "games"
        )
        for path in NOTIFICATIONS.rglob("*.py")
        if "migrations" not in path.parts
    }
    assert {path: modules for path, modules in importers.items() if modules} == {}
