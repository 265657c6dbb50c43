"""The games, each one `Variant` (games/engine/variant.py), by their `Rules.game` name."""

from ..variant import Variant
from .bolivia import BOLIVIA
from .classic import CLASSIC
from .samba import SAMBA

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (CLASSIC, SAMBA, BOLIVIA)}
