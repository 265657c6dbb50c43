"""Card codes (CONTRACT §1) and their values (R-CARD-1..3)."""

from collections import Counter
from functools import cache

RANKS = "AKQJT98765432"
SUITS = "SHDC"
JOKER = "JK"
# Ranks that can form an ordinary meld: naturals 4..A (R-CARD-3).
NATURAL_RANKS = "AKQJT987654"
# Ranks a meld entry may name: naturals, or 3 for black threes going out (R-MELD-4).
MELD_RANKS = frozenset(NATURAL_RANKS + "3")

ALL_CODES = frozenset([rank + suit for rank in RANKS for suit in SUITS] + [JOKER])
WILDS = frozenset([JOKER] + ["2" + suit for suit in SUITS])
RED_THREES = frozenset({"3H", "3D"})
BLACK_THREES = frozenset({"3S", "3C"})
IS_WILD: dict[str, bool] = {code: code in WILDS for code in ALL_CODES}
# The group a card melds in: its rank, "*" for wilds; threes are "3" (red threes never stay
# in a hand).
MELD_GROUP: dict[str, str] = {code: "*" if code in WILDS else code[0] for code in ALL_CODES}


def _value(code: str) -> int:
    if code == JOKER:
        return 50
    rank = code[0]
    if rank in "A2":
        return 20
    if rank in "KQJT98":
        return 10
    if code in RED_THREES:
        return 100
    return 5


VALUE: dict[str, int] = {code: _value(code) for code in ALL_CODES}

# Display order of a hand: naturals from A down, black threes, then wilds.
_ORDER = {rank: index for index, rank in enumerate("AKQJT9876543")}
SORT_KEY: dict[str, tuple[int, str]] = {
    code: ((100 if code in WILDS else _ORDER[code[0]]), code) for code in ALL_CODES
}


def full_deck(packs: int = 2) -> list[str]:
    """The cards of `packs` full packs in a fixed order: every rank and suit once a pack, two
    jokers a pack; 108 cards from two (R-CARD-1), 162 from three at six (R-TABLE-6)."""
    return [rank + suit for rank in RANKS for suit in SUITS] * packs + [JOKER] * (2 * packs)


@cache
def deck_counts(packs: int) -> Counter[str]:
    """How many of each card `packs` packs hold (do not change the returned Counter)."""
    return Counter(full_deck(packs))


def meld_groups(cards: list[str]) -> dict[str, list[str]]:
    """`cards` by the group they meld in (MELD_GROUP: the rank, "*" the wilds), in order."""
    groups: dict[str, list[str]] = {}
    for card in cards:
        group = MELD_GROUP[card]
        if group in groups:
            groups[group].append(card)
        else:
            groups[group] = [card]
    return groups


def split_codes(packed: str) -> list[str]:
    """Inverse of "".join(codes): every code is two characters."""
    return [packed[i : i + 2] for i in range(0, len(packed), 2)]


def points(cards: "list[str] | tuple[str, ...]") -> int:
    return sum(VALUE[card] for card in cards)


def red_three_points(count: int, *, packs: int) -> int:
    """R-CARD-2 / R-RED-1: 100 each, all four with one team 800. With three packs
    (R-TABLE-6-RED): up to four 100 each, five together 1,000, six 1,200."""
    if packs == 3:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count
