"""The players stand beside the engine: they import of it only its public face (the names of
`games.engine.__all__`), never one of its modules, and nothing of the club; the engine imports
nothing outside itself. Each game of the engine has its club level (games/players/README.md)."""

import ast
import sys
from pathlib import Path

import games.engine
import games.players
from games.engine.variants import VARIANTS
from games.players.club_level import CLUB_LEVEL
from games.players.sight import PASSED_PAIR_SPREAD

ENGINE = Path(games.engine.__file__).parent
PLAYERS = Path(games.players.__file__).parent


def _absolute_imports(path: Path) -> list[tuple[str, set[str]]]:
    """(module, names imported from it) for each absolute import of `path`."""
    found: list[tuple[str, set[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, set()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.module, {alias.name for alias in node.names}))
    return found


def _standard(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def test_the_players_import_only_the_engines_public_face() -> None:
    face = set(games.engine.__all__)
    for path in PLAYERS.rglob("*.py"):
        for module, names in _absolute_imports(path):
            if module == "games.engine":
                assert names <= face, (path.name, names - face)
            else:
                assert _standard(module), (path.name, module)


def test_the_engine_imports_nothing_outside_itself() -> None:
    for path in ENGINE.rglob("*.py"):
        for module, _names in _absolute_imports(path):
            assert _standard(module), (path.relative_to(ENGINE), module)


def test_every_game_has_its_club_level_and_its_dealing_of_worlds() -> None:
    assert set(CLUB_LEVEL) == set(VARIANTS) == set(PASSED_PAIR_SPREAD)
