"""The Canasta rules engine (RULES.md, CONTRACT §2): pure Python, no Django, no I/O.

This package's names are the engine's public face: the contract's `Rules`, `Deal` and
`IllegalMove`, the match and the move generator, the table's seats, the games, the cards, and
the few answers of the rules a player asks beside the view and `legal_actions`. The players
(games/players) import nothing else of the engine (tests/players/test_players_layout.py).
"""

# The cards (CONTRACT §1, R-CARD).
from .cards import (
    BLACK_THREES,
    MELD_GROUP,
    NATURAL_RANKS,
    RED_THREES,
    SUITS,
    VALUE,
    WILDS,
    deck_counts,
    red_three_points,
)

# CONTRACT §2, and the agreed match and move generator.
from .deal import Deal
from .errors import IllegalMove

# The house rules' answers: the canasta opening (R-HOUSE-7500), how a seat goes out now.
from .house import CANASTA_OPENING_FROM, canasta_opening, plan_to_go_out
from .match import Match
from .moves import Action, legal_actions
from .rules import Rules

# A table's seats, teams and partners; the games (`Rules.variant`).
from .seating import Seating
from .variant import Variant

# The classic game's canastas (R-CAN-1) and going-out bonus (R-OUT-1).
from .variants.classic.scoring import GOING_OUT_BONUS, canasta_kind

# Samba's sequences (R-SAMBA-SEQ): their ranks in order, closed at seven; Bolivia's wild melds.
from .variants.samba.sequences import CLOSED_AT, SEQUENCE_ORDER, SEQUENCE_RANKS, WILD_MELD

__all__ = [
    "BLACK_THREES",
    "CANASTA_OPENING_FROM",
    "CLOSED_AT",
    "GOING_OUT_BONUS",
    "MELD_GROUP",
    "NATURAL_RANKS",
    "RED_THREES",
    "SEQUENCE_ORDER",
    "SEQUENCE_RANKS",
    "SUITS",
    "VALUE",
    "WILDS",
    "WILD_MELD",
    "Action",
    "Deal",
    "IllegalMove",
    "Match",
    "Rules",
    "Seating",
    "Variant",
    "canasta_kind",
    "canasta_opening",
    "deck_counts",
    "legal_actions",
    "plan_to_go_out",
    "red_three_points",
]
