"""The engine's modules import one way (games/engine/README.md): the rule modules over DealState
in an order, never `Deal`; the games (variants/) one `Variant` each, reached by the rest of the
engine only through `Rules.variant` (rules.py is the one module that imports them, beside the
public face's few facts of theirs). The players' side: tests/players/test_players_layout.py."""

import ast
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
VARIANTS = ENGINE / "variants"
# Each module may import only those after it.
ORDER = [
    "going_out",
    "turns",
    "pile",
    "melds",
    "house",
    "opening",
    "scoring",
    "dealing",
    "state",
]
# What a game's modules may use of the engine: the rule modules and what they stand on; never
# the deal, the move generator, the match or the rules (which import the games).
GAME_MAY_IMPORT = {*ORDER, "actions", "cards", "errors", "variant"}


def _imports(path: Path) -> set[str]:
    """The engine modules `path` imports when it runs (relative imports, resolved from
    games.engine; those for the type checker only left out)."""
    package = path.parent.relative_to(ENGINE).parts
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            found.add(".".join([*base, *(node.module or "").split(".")]).strip("."))
    return found


def test_rule_modules_import_only_later_ones_and_never_deal() -> None:
    for position, name in enumerate(ORDER):
        imported = _imports(ENGINE / f"{name}.py")
        assert "deal" not in imported, name
        assert imported & set(ORDER) <= set(ORDER[position + 1 :]), (name, imported)


def test_only_the_rules_and_the_public_face_import_the_games() -> None:
    for path in ENGINE.glob("*.py"):
        games = {module for module in _imports(path) if module.startswith("variants")}
        assert not games or path.name in ("rules.py", "__init__.py"), (path.name, games)


def test_each_game_uses_only_the_rule_modules_and_its_own() -> None:
    for path in VARIANTS.rglob("*.py"):
        own = ".".join(path.parent.relative_to(ENGINE).parts)
        for module in _imports(path):
            if module.startswith("variants"):
                assert module.startswith(own) or path.parent == VARIANTS, (path, module)
            else:
                assert module in GAME_MAY_IMPORT, (path, module)
