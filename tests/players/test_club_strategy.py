"""The club level's classic strategy (issue 20) on constructed positions: discard safety from
what the table shows, keeping cards after melding, taking and freezing the pile, going out when
ahead and holding on when behind."""

from __future__ import annotations

from typing import Any

from games.engine import Deal
from games.engine.cards import WILDS
from tests.engine.test_move_generator import position
from tests.players.bot_table import Table

SEVEN_ACES = ["AS", "AH", "AD", "AC", "AS", "AH", "AD"]


def _state(
    hand: list[str],
    pile: list[str],
    *,
    ours: dict[str, list[str]] | None = None,
    theirs: dict[str, list[str]] | None = None,
    frozen: bool = False,
    draw: str | None = None,
) -> Deal:
    """Seat 0 to draw (`draw`: the stock's top card), `ours` on team 0's side of the table and
    `theirs` on team 1's (opened when there are any)."""
    placed = [card for cards in (theirs or {}).values() for card in cards]
    deal = position(hand, pile, melds=ours, frozen=frozen)
    state = deal.to_dict()
    hands = [[h[i : i + 2] for i in range(0, len(h), 2)] for h in state["hands"]]
    stock = [state["stock"][i : i + 2] for i in range(0, len(state["stock"]), 2)]
    for card in placed:  # the opponents' melds come out of their hands and the stock
        for cards in (hands[1], hands[3], hands[2], stock):
            if card in cards:
                cards.remove(card)
                break
        else:
            raise ValueError(f"no {card} left to meld")
    for seat in (1, 2, 3):  # the other hands keep a normal size
        while len(hands[seat]) < 9 and stock:
            hands[seat].append(stock.pop(0))
    if draw is not None:
        if draw in stock:
            stock.remove(draw)
        else:
            for cards in hands[1:]:
                if draw in cards:
                    cards.remove(draw)
                    cards.append(stock.pop(0))
                    break
        stock.append(draw)
    state["hands"] = ["".join(cards) for cards in hands]
    state["stock"] = "".join(stock)
    state["melds"][1] = [[rank, "".join(cards)] for rank, cards in (theirs or {}).items()]
    state["opened"][1] = bool(theirs)
    return Deal.from_dict(state)


def _turn(deal: Deal, seed: int = 1) -> list[dict[str, Any]]:
    """Seat 0's whole turn as the club plays it."""
    return Table(deal).bot_turn("club", seed=seed)


def _discarded(actions: list[dict[str, Any]]) -> str:
    assert actions[-1]["type"] == "discard", actions
    card: str = actions[-1]["card"]
    return card


def test_the_club_never_feeds_the_opponents_meld_into_an_open_pile_when_it_holds_a_safe_card() -> (
    None
):
    # The opponents have nines and kings down and the pile is open; the hand's odd nine and king
    # would hand them the pile. A black three, or a rank with every other card in sight, is safe.
    theirs = {"9": ["9H", "9D", "9C"], "K": ["KH", "KD", "KC", "KS"]}
    pile = ["6S", "7D", "TH", "8C", "5D", "4H"]
    for safe in ("3S", "QC"):
        hand = ["9S", "KS", "JH", "JD", "8H", "8D", "7C", "7S", safe]
        deal = _state(hand, pile, ours={"A": ["AS", "AH", "AD"]}, theirs=theirs, draw="4C")
        if safe == "QC":  # every other queen in sight: on the table and in the pile
            state = deal.to_dict()
            state["melds"][0].append(["Q", "QSQHQDQSQHQD"])
            state["pile"] = "QC" + state["pile"]
            deal = Deal.from_dict(state)
        actions = _turn(deal)
        assert actions[0] == {"type": "draw"}
        assert _discarded(actions)[0] not in "9K", actions


def test_the_club_keeps_cards_after_melding_unless_it_goes_out_with_its_sides_canasta() -> None:
    # Three ranks to meld and no canasta on the side: the club never melds itself down to a card
    # or two, which would leave it nothing to take the pile with and no way on.
    hands = [
        ["KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "5C"],
        ["KS", "KH", "KD", "QS", "QH", "QD", "7C", "8S"],
        ["KS", "KH", "KD", "KC", "9S", "9D", "9H", "6C"],
    ]
    for hand in hands:
        actions = _turn(_state(hand, ["4D"], ours={"A": ["AS", "AH", "AD"]}, draw="6D"))
        melded = sum(len(m["cards"]) for a in actions if a["type"] == "meld" for m in a["melds"])
        left = len(hand) + 1 - melded - 1
        assert left >= 2, actions


def test_the_club_goes_out_with_its_sides_canasta_when_ahead() -> None:
    hand = ["QS", "QH", "QD", "5C"]
    actions = _turn(_state(hand, ["8C"], ours={"A": SEVEN_ACES}, draw="QC"))
    melded = sum(len(m["cards"]) for a in actions if a["type"] == "meld" for m in a["melds"])
    assert melded == 4 and _discarded(actions) == "5C", actions


def test_the_club_holds_on_when_going_out_leaves_its_side_far_behind() -> None:
    # The opponents have two natural canastas and more; going out now would end the deal lost.
    theirs = {
        "K": ["KH", "KD", "KC", "KS", "KH", "KD", "KC"],
        "J": ["JH", "JD", "JC", "JS", "JH", "JD", "JC"],
        "T": ["TH", "TD", "TC", "TS", "TH", "TD"],
    }
    hand = ["QS", "QH", "QD", "5C"]
    deal = _state(
        hand,
        ["8C"],
        ours={"7": ["7S", "7H", "7D", "7C", "7S", "7H", "7D"]},
        theirs=theirs,
        draw="QC",
    )
    assert len(deal.stock) >= 10 and min(len(deal.hands[s]) for s in (1, 3)) > 3
    table = Table(deal)
    actions = table.bot_turn("club", seed=1)
    assert table.deal.phase != "over", actions


def test_the_club_takes_a_large_pile_with_a_natural_pair() -> None:
    pile = ["6S", "7D", "TH", "8C", "5D", "4H", "9C", "QH"]
    hand = ["QS", "QD", "JH", "JD", "8H", "7C", "6C", "5S", "4S"]
    actions = _turn(_state(hand, pile, ours={"A": ["AS", "AH", "AD"]}))
    assert actions[0]["type"] == "take_pile", actions


def test_the_club_freezes_a_big_open_pile_when_no_discard_is_safe() -> None:
    # Every natural in hand matches an opponents' meld on an open pile of eight cards: a two
    # goes in (frozen, R-FRZ-1) rather than the pile to the opponents.
    theirs = {
        "9": ["9H", "9D", "9C"],
        "K": ["KH", "KD", "KC"],
        "8": ["8H", "8D", "8C"],
        "6": ["6H", "6D", "6C"],
    }
    pile = ["5S", "7D", "TH", "4C", "5D", "4H", "TC", "QH"]
    hand = ["9S", "KS", "8S", "6S", "2C", "JH", "JD"]
    actions = _turn(_state(hand, pile, ours={"A": ["AS", "AH", "AD"]}, theirs=theirs, draw="KD"))
    assert _discarded(actions) in WILDS, actions
