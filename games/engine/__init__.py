"""The Canasta rules engine (RULES.md, CONTRACT §2): pure Python, no Django, no I/O."""

from .bots import autoplay
from .deal import Deal
from .errors import IllegalMove
from .match import Match
from .moves import legal_actions
from .rules import Rules

__all__ = ["Deal", "IllegalMove", "Match", "Rules", "autoplay", "legal_actions"]
