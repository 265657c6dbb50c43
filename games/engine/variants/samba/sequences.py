"""Samba and Bolivia's melds (R-SAMBA-GROUP/SEQ/CAN, R-BOL-WILD/ESC/OUT): what kind a meld is,
sequences of one suit from 4 to A, the canastas a side has, and how a meld shows in the view.

A side's melds are `state.melds[team]`, a dict in the order the view lists them (an entry's
`"meld": i` is an index into it). Its keys say what each meld is: the first character is the
group's rank, the sequence's suit, `*` for a wild meld (Bolivia) or `3` for black threes going
out; its place in the side's melds follows ("K0", "H1", "*2"), keeping several melds of one
rank or suit apart.
"""

from typing import Any

from ...cards import SUITS, WILDS
from ...state import DealState

SEQUENCE_RANKS = "456789TJQKA"  # R-SAMBA-SEQ: 4 low, A high
SEQUENCE_ORDER: dict[str, int] = {rank: index for index, rank in enumerate(SEQUENCE_RANKS)}
CLOSED_AT = 7  # a samba (escalera) and a bolivia take no card beyond seven
GROUP_WILDS = 2  # R-SAMBA-GROUP: at most two wilds in a group of a natural rank
WILD_MELD = "*"
BLACK_THREES_MELD = "3"


def is_sequence(key: str) -> bool:
    return key[0] in SUITS


def new_key(first: str, place: int) -> str:
    """The key of a new meld that will stand at `place` in the side's melds. Melds keep their
    places (an undo removes only the turn's new melds, which stand last), so the numbers are
    the places and never repeat."""
    return f"{first}{place}"


def run_of(cards: list[str]) -> list[str] | None:
    """The cards as a sequence, low to high (R-SAMBA-SEQ), or None: one suit, naturals 4..A,
    in unbroken order, no rank twice."""
    suit = cards[0][1]
    places: list[int] = []
    for card in cards:
        place = SEQUENCE_ORDER.get(card[0])
        if place is None or card in WILDS or card[1] != suit:
            return None
        places.append(place)
    low = min(places)
    if len(set(places)) != len(places) or max(places) - low != len(places) - 1:
        return None
    return sorted(cards, key=lambda card: SEQUENCE_ORDER[card[0]])


def sorted_run(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda card: SEQUENCE_ORDER[card[0]])


def canasta_count(state: DealState, team: int, sim: dict[str, list[str]]) -> tuple[int, bool]:
    """The side's canastas on the table after `sim` (key -> the meld's cards after this
    action): how many, and whether a sequence (samba, escalera) is among them."""
    count = 0
    sequence = False
    melds = state.melds[team]
    for key, cards in melds.items():
        if key in sim:
            continue
        if len(cards) >= CLOSED_AT and key[0] != BLACK_THREES_MELD:
            count += 1
            sequence = sequence or key[0] in SUITS
    for key, cards in sim.items():
        if len(cards) >= CLOSED_AT and key[0] != BLACK_THREES_MELD:
            count += 1
            sequence = sequence or key[0] in SUITS
    return count, sequence


def canasta_of(key: str, cards: list[str], sequence_canasta: str) -> str | None:
    """The view's `canasta`: None below seven cards; "natural", "mixed", the sequence canasta
    (Samba's "samba", Bolivia's "escalera") or "bolivia" (seven wilds, R-BOL-WILD)."""
    if len(cards) < CLOSED_AT:
        return None
    first = key[0]
    if first in SUITS:
        return sequence_canasta
    if first == WILD_MELD:
        return "bolivia"
    return "mixed" if any(card in WILDS for card in cards) else "natural"


def meld_view(key: str, cards: list[str], sequence_canasta: str) -> dict[str, Any]:
    """One meld as the view shows it (CONTRACT §2): kind, rank or suit, cards, canasta."""
    first = key[0]
    if first in SUITS:
        return {
            "rank": None,
            "kind": "sequence",
            "suit": first,
            "cards": sorted_run(cards),
            "canasta": canasta_of(key, cards, sequence_canasta),
        }
    return {
        "rank": first,
        "kind": "group",
        "cards": list(cards),
        "canasta": canasta_of(key, cards, sequence_canasta),
    }


def view_key(meld: dict[str, Any], index: int) -> str:
    """A key for the meld at `index` of a view (a deal rebuilt from a view, e.g. by bots)."""
    first = meld["suit"] if meld.get("kind") == "sequence" else meld["rank"]
    return f"{first}{index}"
