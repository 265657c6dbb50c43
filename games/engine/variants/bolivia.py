"""Bolivia (R-BOL-*, games/engine/README.md): Samba with melds of wild cards (a bolivia of seven,
2,500), escaleras (Samba's sambas), one escalera among the two canastas that go out, 150 from
7,000, black threes left in a hand −100 each, and the game to 15,000."""

from ..cards import BLACK_THREES, VALUE
from .samba import Samba

BLACK_THREE_IN_HAND = 100  # R-BOL-BLACK


class Bolivia(Samba):
    name = "bolivia"
    target = 15_000  # R-BOL-GAME
    top_minimum = 150  # R-BOL-OPEN
    wild_melds = True  # R-BOL-WILD
    sequence_canasta = "escalera"  # R-BOL-ESC
    sequence_to_go_out = True  # R-BOL-OUT
    rule_ids = {
        **Samba.rule_ids,
        "pile_blocked": "R-BOL-PILE",
        "below_minimum": "R-BOL-OPEN",
        "no_canasta": "R-BOL-OUT",
        "wild_only": "R-BOL-WILD",
    }
    hand_values = {**VALUE, **dict.fromkeys(BLACK_THREES, BLACK_THREE_IN_HAND)}


BOLIVIA = Bolivia()
