"""The move generator: `legal_actions(deal, seat)`.

Complete for the draw phase: `draw` whenever it is legal, and the pile takes the game offers
(`deal.variant.pile_takes`: every way its rules allow the top card to be melded). In the play
phase: every distinct discard and undo when legal, and the useful set of melds the game offers
(`deal.variant.legal_melds`, not every subset of the hand). The house rules' actions (house.py)
are complete: the question when it may be asked, both answers, and after the answer only what
keeps to it; laying down the whole hand (when possible) and passing.

Every action is checked by the engine itself, but only once per kind of check: discards all
obey the same rule whatever the card, so one check decides them all.
"""

from __future__ import annotations

from .actions import DISCARDS, DRAW, UNDO, Action
from .deal import Deal
from .house import canasta_opening, plan_to_go_out
from .opening import can_undo

__all__ = ["DISCARDS", "DRAW", "UNDO", "Action", "legal_actions"]

# Actions that need no building; shared, so callers must not change an action they are given.
ASK: Action = {"type": "ask_to_go_out"}
ACABA: Action = {"type": "acaba"}
ASK_ACABA: Action = {"type": "ask_acaba"}
ANSWERS: tuple[Action, Action] = (
    {"type": "answer_go_out", "yes": True},
    {"type": "answer_go_out", "yes": False},
)
PASS: Action = {"type": "pass"}


def legal_actions(deal: Deal, seat: int) -> list[Action]:
    """Every legal draw, pile take, discard, undo and house-rule action of `seat` (the seat to
    act), and a useful set of legal melds."""
    if deal.phase == "over":
        return []
    if seat != deal.turn or deal.question is not None:  # (one comparison on the hot path)
        if seat != deal.to_act:
            return []
        if seat != deal.turn:  # R-HOUSE-ASK: the partner answers
            return list(ANSWERS)
    if deal.phase == "partner_out":  # R-HOUSE-DOUBLE
        return partner_out_actions(deal, seat)
    if deal.phase == "draw":
        # Only the classic variant ever refuses a draw (R-END-2: the pile must be taken).
        drawable = (
            bool(deal.stock) or deal.rules.stock_out != "classic" or deal.is_legal(seat, DRAW)
        )
        takes = deal.variant.pile_takes(deal, seat)
        actions = [DRAW, *takes] if drawable else takes
        return _acaba(deal, seat, actions) if deal.rules.acaba else actions
    team = deal.seating.team_of(seat)
    opened = deal.opened[team]
    # R-HOUSE-7500: a side that opens with a canasta from the pile melds nothing from the hand.
    if not opened and canasta_opening(deal, team):
        actions = []
    else:
        actions = deal.variant.legal_melds(deal, seat)
    if can_undo(deal, seat):
        actions.append(UNDO)
    hand = deal.hands[seat]
    # A card stays and no minimum is pending (R-OPEN-3): any card goes; else the engine judges.
    if (len(hand) > 1 and (opened or not deal.base)) or deal.is_legal(seat, DISCARDS[hand[0]]):
        actions += map(DISCARDS.__getitem__, dict.fromkeys(hand))
    if deal.rules.ask_partner_to_go_out:
        actions = _asking(deal, seat, actions)
    return _acaba(deal, seat, actions) if deal.rules.acaba else actions


def _acaba(deal: Deal, seat: int, actions: list[Action]) -> list[Action]:
    """R-ACABA: the word and the question about it; after the partner's yes only the word,
    after no everything but it."""
    question = deal.question
    if question is not None and "about" in question:
        return [ACABA] if question["answer"] else actions
    actions.append(ACABA)
    if not deal.asked_acaba[seat] and deal.seating.partners_of(seat):
        actions.append(ASK_ACABA)
    return actions


def _asking(deal: Deal, seat: int, actions: list[Action]) -> list[Action]:
    """R-HOUSE-ASK: the question while it may be asked; after the answer, the actions that
    keep to it, and after yes the whole going out first (melds, then the discard)."""
    question = deal.question
    if question is None:
        if not deal.asked[seat] and deal.is_legal(seat, ASK):
            actions.append(ASK)
        return actions
    kept = [action for action in actions if deal.is_legal(seat, action)]
    if question["answer"]:
        plan = plan_to_go_out(deal, seat)
        if plan is not None and plan[0]:
            kept.insert(0, {"type": "meld", "melds": plan[0]})
    return kept


def partner_out_actions(deal: Deal, seat: int) -> list[Action]:
    """R-HOUSE-DOUBLE: laying the whole hand down (when the cards allow it), or passing."""
    team = deal.seating.team_of(seat)
    plan = deal.variant.lay_down_plan(deal.rules, deal.hands[seat], deal.melds[team])
    if plan is None:
        return [PASS]
    lay_down = {"type": "lay_down", "melds": plan}
    return [lay_down, PASS] if deal.is_legal(seat, lay_down) else [PASS]
