"""The rule modules over DealState import one way (games/engine/README.md): no circle, no Deal."""

import ast
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
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


def test_rule_modules_import_only_later_ones_and_never_deal() -> None:
    for position, name in enumerate(ORDER):
        tree = ast.parse((ENGINE / f"{name}.py").read_text())
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
        assert "deal" not in imported, name
        assert imported & set(ORDER) <= set(ORDER[position + 1 :]), (name, imported)
