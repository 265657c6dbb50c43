"""The project's layers, read from the imports and calls themselves (ast), never by running them.

- `club/` is the base every app builds on: it imports no app, nor the project's configuration.
- `canasta_club/` is the configuration, on top: no app imports it.
- `games/engine/` is the pure rules engine: Python's standard library only, so no Django.
- Writes happen in an app's services (`services.py` or `services/`): elsewhere no ORM write, no
  row lock, and no `store.write`; a few named places are the exceptions, each with its reason.
- `notifications` is a leaf: it never imports `games` (who is at the table it asks
  `notifications.at_table`, which games fills in).

The apps' finer boundaries (who may import whom): tests/platform/test_app_boundaries.py; the
engine's inside: tests/engine/test_engine_layout.py.
"""

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "accounts",
    "games",
    "moderation",
    "notifications",
    "profiles",
    "ratings",
    "social",
    "tournaments",
    "web",
)
# Model methods and manager/queryset calls that write or lock rows.
ALWAYS_WRITES = {
    "save",
    "delete",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "select_for_update",
}
# Writes only when called through a manager (`Model.objects...`): `dict.update` is not one.
WRITES_THROUGH_A_MANAGER = {"create", "update"}
# (app-relative path, why it writes outside the services).
WRITES_ALLOWED = {
    ("accounts", "authentication.py"): "a token's last use, stamped as it authenticates",
    ("accounts", "models.py"): "User.save keeps the username's skeleton with the username",
}


def _modules(package: str) -> Iterator[Path]:
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" not in path.parts:
            yield path


def _imports(path: Path) -> set[str]:
    """Every module `path` imports by absolute name (`from a import b` counts `a` and `a.b`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _importers(package: str, refused: set[str]) -> dict[str, list[str]]:
    """The package's modules importing a top-level package of `refused`."""
    found = {
        str(path.relative_to(ROOT)): sorted(
            name for name in _imports(path) if name.split(".")[0] in refused
        )
        for path in _modules(package)
    }
    return {path: names for path, names in found.items() if names}


def test_the_base_imports_no_app_nor_the_configuration() -> None:
    assert _importers("club", {*APPS, "canasta_club"}) == {}


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_the_configuration(app: str) -> None:
    assert _importers(app, {"canasta_club"}) == {}


def test_the_engine_imports_the_standard_library_only() -> None:
    outside = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in _imports(path)
            if name.split(".")[0] not in sys.stdlib_module_names and name != "__future__"
        )
        for path in _modules("games/engine")
    }
    assert {path: names for path, names in outside.items() if names} == {}


def test_the_engine_s_relative_imports_stay_inside_it() -> None:
    engine = ROOT / "games" / "engine"
    climbing = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _modules("games/engine")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.level
        and not path.parents[node.level - 1].is_relative_to(engine)
    ]
    assert climbing == []


def test_notifications_never_imports_games() -> None:
    assert _importers("notifications", {"games", "tournaments"}) == {}


def _through_a_manager(node: ast.expr) -> bool:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _writes(path: Path) -> list[str]:
    """`line: call` for each write or row lock in the module (a model's `super().save()` is the
    model's own save, not a caller's write)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        if isinstance(receiver, ast.Call) and ast.unparse(receiver.func) == "super":
            continue
        if (
            method in ALWAYS_WRITES
            or (method in WRITES_THROUGH_A_MANAGER and _through_a_manager(receiver))
            or ast.unparse(node.func) == "store.write"
        ):
            found.append(f"{node.lineno}: {method}")
    return found


def _in_services(path: Path, app: str) -> bool:
    inside = path.relative_to(ROOT / app).parts
    return inside[0] in ("services", "services.py")


@pytest.mark.parametrize("app", APPS)
def test_writes_only_in_the_services(app: str) -> None:
    outside = {
        str(path.relative_to(ROOT)): writes
        for path in _modules(app)
        if not _in_services(path, app)
        and (app, str(path.relative_to(ROOT / app))) not in WRITES_ALLOWED
        and (writes := _writes(path))
    }
    assert outside == {}
