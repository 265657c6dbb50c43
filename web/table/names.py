"""The names of ranks, suits and melds the table's sentences use, in the page's language."""

from collections.abc import Mapping
from typing import Any

from club.i18n import text


def rank_name_dative(rank: str) -> str:
    """«2♣ к шестёркам»: the Russian meld name after «к»."""
    names = {
        "A": "тузам",
        "K": "королям",
        "Q": "дамам",
        "J": "валетам",
        "T": "десяткам",
        "9": "девяткам",
        "8": "восьмёркам",
        "7": "семёркам",
        "6": "шестёркам",
        "5": "пятёркам",
        "4": "четвёркам",
        "3": "чёрным тройкам",
    }
    return names.get(rank, rank)


_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAMES = {"S": ("пик", "spades"), "H": ("червей", "hearts"), "D": ("бубён", "diamonds"),
               "C": ("треф", "clubs")}  # fmt: skip


# The canastas' marks in a preview: natural, mixed; Samba's samba (Bolivia's escalera), bolivia.
CANASTA_MARKS = {"natural": " ★", "mixed": " ☆", "samba": " ♪", "escalera": " ♪", "bolivia": " ♦"}


def meld_name(*, rank: str | None, kind: str, suit: str | None) -> str:
    """A meld's name: its rank's, a run of a suit (Samba, Bolivia), wild cards."""
    if kind == "sequence" and suit:
        ru, en = _SUIT_NAMES[suit]
        return text(f"последовательность {ru}", f"run of {en}")
    if rank == "*":
        return text("дикие карты", "wild cards")
    return rank_name(rank or "")


def meld_face(meld: Mapping[str, Any]) -> str:
    """A meld chip's face: its rank (10 for T), a run's suit, ★ for wild cards."""
    if meld.get("kind") == "sequence" and meld.get("suit"):
        return _SUIT_SYMBOLS[meld["suit"]]
    rank = meld["rank"]
    return {"T": "10", "*": "W"}.get(rank, rank)


def rank_name(rank: str) -> str:
    names = {
        "A": ("тузы", "aces"),
        "K": ("короли", "kings"),
        "Q": ("дамы", "queens"),
        "J": ("валеты", "jacks"),
        "T": ("десятки", "tens"),
        "9": ("девятки", "nines"),
        "8": ("восьмёрки", "eights"),
        "7": ("семёрки", "sevens"),
        "6": ("шестёрки", "sixes"),
        "5": ("пятёрки", "fives"),
        "4": ("четвёрки", "fours"),
        "3": ("чёрные тройки", "black threes"),
    }
    ru, en = names.get(rank, (rank, rank))
    return text(ru, en)
