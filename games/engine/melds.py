"""Melding (R-MELD-1..4, R-OPEN-2/3, R-OUT-1/2): the `meld` action and what every game's
melding shares; what a meld may be is the game's (`state.variant`: its meld kinds, canastas and
the opening after an undo).
"""

from typing import Any

from .actions import Entry
from .cards import RED_THREES, WILDS
from .errors import IllegalMove
from .house import (
    canasta_opening,
    canasta_opening_refused,
    check_meld_answer,
    go_out,
    partner_done,
)
from .opening import below_minimum, exempt_from_minimum
from .state import DealState, Event
from .variant import Resolved


def meld(state: DealState, seat: int, entries: list[Entry], commit: bool) -> Event:
    if state.phase != "play":
        raise IllegalMove("wrong_phase", "meld_before_draw")
    team = state.seating.team_of(seat)
    if not state.opened[team] and canasta_opening(state, team):  # R-HOUSE-7500
        raise canasta_opening_refused()
    hand = state.hands[seat]
    used = entries[0][1] if len(entries) == 1 else [c for _, cards in entries for c in cards]
    require_in_hand(hand, used)
    variant = state.variant
    sim: dict[str, Any] = {}
    resolved, points, black = variant.check_entries(state, team, entries, sim)
    left = len(hand) - len(used)
    # The canastas matter only going out, or close to it (R-OUT-2, R-MELD-4).
    canasta = (black or left < 2) and variant.enough_canastas(state, team, sim)
    if black:
        check_black_threes(state, left, canasta)
    if not canasta and left < 2:  # R-OUT-2
        raise variant.missing_canastas(state, "must_keep_card")
    opened = state.opened[team]
    total = state.points + points
    minimum = state.minimums[team]
    opens = not opened and total >= minimum
    if not opened and total < minimum:
        opens = canasta_in_hand(state, sim)  # R-ART-CANASTA
        if left == 0 and not (opens or exempt_from_minimum(state, canasta)):
            raise below_minimum(total, minimum)
        if state.undo_used and left > 0 and not opens:  # R-UNDO-3, R-SAMBA-UNDO
            hand_after = list(hand)
            for card in used:
                hand_after.remove(card)
            variant.check_after_undo(state, team, hand_after, resolved, total)
    if state.question is not None:
        check_meld_answer(state, seat, used, resolved, points)
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    events = variant.lay_melds(state, team, resolved)
    state.points = total
    if opens:
        state.opened[team] = True
        state.opened_now = True
    if left == 0:  # R-OUT-1: melded the whole hand
        go_out(state, seat)
    public: dict[str, Any] = {
        "type": "meld",
        "seat": seat,
        "melds": events,
        "opened": state.opened[team],
    }
    if variant.meld_event_says_went_out:
        public["went_out"] = left == 0
    public["deal_over"] = state.phase == "over"
    return {"public": public, "private": {}}


def lay_down(state: DealState, seat: int, entries: list[Entry], commit: bool) -> Event:
    """R-HOUSE-DOUBLE: the partner of the player who went out melds every card of their hand
    in one action, in new melds or on the team's (the turn-local state stays the going-out
    player's, for R-OUT-3)."""
    team = state.seating.team_of(seat)
    hand = state.hands[seat]
    used = [card for _, meld_cards in entries for card in meld_cards]
    require_in_hand(hand, used)
    if len(used) != len(hand):
        raise IllegalMove("bad_action", "lay_down_whole_hand")
    variant = state.variant
    sim: dict[str, Any] = {}
    resolved, _points, black = variant.check_entries(state, team, entries, sim)
    if black:
        check_black_threes(state, 0, variant.enough_canastas(state, team, sim))
    if not commit:
        return {}
    hand.clear()
    events = variant.lay_melds(state, team, resolved, this_turn=False)
    assert state.out is not None
    state.out["laid_down"].append(seat)
    partner_done(state)
    return {
        "public": {
            "type": "lay_down",
            "seat": seat,
            "melds": events,
            "deal_over": state.phase == "over",
        },
        "private": {},
    }


def canasta_in_hand(state: DealState, sim: dict[str, Any], skip: str = "") -> bool:
    """R-ART-CANASTA: a canasta made from the hand opens whatever the minimum (`skip`: the key
    of a pile take's top card's meld, which is not the hand's)."""
    if not state.rules.canasta_in_hand_opens:
        return False
    variant = state.variant
    return any(variant.meld_size(sim, key) >= 7 for key in sim if key != skip)


def lay(state: DealState, team: int, resolved: Resolved, *, this_turn: bool = True) -> None:
    """Puts checked entries on the table; `this_turn`: remembering each meld's length before
    this turn (R-UNDO-1, R-OUT-3), which a partner laying down (R-HOUSE-DOUBLE) leaves alone."""
    melds = state.melds[team]
    for key, cards in resolved:
        meld = melds.get(key)
        if meld is None:
            melds[key] = meld = []
        if this_turn:
            state.base.setdefault(key, len(meld))
        meld.extend(cards)


def split_entry(cards: list[str]) -> tuple[list[str], int, int]:
    """A meld entry's naturals, and how many wild cards and black threes it holds; a red three
    never goes into a meld (R-MELD-4)."""
    naturals: list[str] = []
    wilds = blacks = 0
    for card in cards:
        if card in WILDS:
            wilds += 1
        elif card[0] == "3":
            if card in RED_THREES:
                raise IllegalMove("threes_not_allowed", "red_three")
            blacks += 1
        else:
            naturals.append(card)
    return naturals, wilds, blacks


def require_in_hand(hand: list[str], cards: list[str]) -> None:
    # A meld holds a few cards: counting each in the hand beats building Counters (and no
    # more cards than the hand holds are ever counted).
    for card in cards:
        if (
            len(cards) > len(hand)
            or card not in hand
            or (cards.count(card) > 1 and hand.count(card) < cards.count(card))
        ):
            raise IllegalMove("card_not_in_hand", "card", card=card)


def check_black_threes(state: DealState, left: int, canasta: bool) -> None:
    """R-MELD-4 DECIDED: black threes only while going out, with a team canasta."""
    if left > 1:
        raise IllegalMove("threes_not_allowed", "black_threes_going_out")
    if not canasta:
        raise state.variant.missing_canastas(state, "no_canasta")
