"""End-of-deal scoring (R-SCORE-1, R-CAN-1, R-RED-1/2, R-OUT-1/3)."""

from .cards import VALUE, WILDS, red_three_points

NATURAL_CANASTA_BONUS = 500
MIXED_CANASTA_BONUS = 300
GOING_OUT_BONUS = 100
CONCEALED_GOING_OUT_BONUS = 200


def canasta_kind(cards: list[str]) -> str | None:
    """R-CAN-1: None below seven cards, else "natural" (no wild) or "mixed"."""
    if len(cards) < 7:
        return None
    return "mixed" if any(card in WILDS for card in cards) else "natural"


def score_team(
    melds: list[list[str]], red_threes: int, hands: list[list[str]], going_out: int
) -> dict[str, int]:
    """One team's line of the contract's `result`."""
    cards = sum(VALUE[card] for meld in melds for card in meld)
    canastas = 0
    for meld in melds:
        kind = canasta_kind(meld)
        if kind == "natural":
            canastas += NATURAL_CANASTA_BONUS
        elif kind == "mixed":
            canastas += MIXED_CANASTA_BONUS
    reds = red_three_points(red_threes)
    if not melds:  # R-RED-2
        reds = -reds
    hand = -sum(VALUE[card] for cards in hands for card in cards)
    return {
        "cards": cards,
        "canastas": canastas,
        "red_threes": reds,
        "going_out": going_out,
        "hand": hand,
        "total": cards + canastas + reds + going_out + hand,
    }
