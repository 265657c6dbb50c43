"""Melds and canastas (R-MELD-1..4, R-CAN-1/2, R-OUT-2): checking entries, laying them."""

from typing import Any

from .actions import Entry
from .cards import IS_WILD, RED_THREES, VALUE, WILDS
from .errors import IllegalMove
from .house import (
    canasta_opening,
    canasta_opening_refused,
    check_meld_answer,
    go_out,
    partner_done,
)
from .opening import below_minimum, check_minimum_reachable, exempt_from_minimum
from .state import DealState, Event

# A meld being checked: [naturals, wilds, length] after the cards of this action.
MeldShape = list[int]


def meld(state: DealState, seat: int, entries: list[Entry], commit: bool) -> Event:
    if state.phase != "play":
        raise IllegalMove("wrong_phase", "meld_before_draw")
    team = state.seating.team_of(seat)
    if not state.opened[team] and canasta_opening(state, team):  # R-HOUSE-7500
        raise canasta_opening_refused()
    hand = state.hands[seat]
    used = [card for _, meld_cards in entries for card in meld_cards]
    require_in_hand(hand, used)
    sim: dict[str, MeldShape] = {}
    resolved, points, black = check_entries(state, team, entries, sim)
    left = len(hand) - len(used)
    canasta = enough_canastas(state, team, sim)
    if black:
        check_black_threes(state, left, canasta)
    if not canasta and left < 2:  # R-OUT-2
        raise missing_canastas(state, "must_keep_card")
    opened = state.opened[team]
    total = state.points + points
    minimum = state.minimums[team]
    opens = not opened and total >= minimum
    if not opened and total < minimum:
        if canasta_in_hand(state, sim):  # R-ART-CANASTA
            opens = True
        exempt = opens or exempt_from_minimum(state, canasta)
        if left == 0 and not exempt:
            raise below_minimum(total, minimum)
        if state.undo_used and left > 0 and not opens:  # R-UNDO-3
            hand_after = list(hand)
            for card in used:
                hand_after.remove(card)
            check_minimum_reachable(state, team, hand_after, resolved, minimum - total)
    if state.question is not None:
        check_meld_answer(state, seat, used, resolved, points)
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    events = meld_events(resolved, state.melds[team])
    lay(state, team, resolved)
    state.points = total
    if opens:
        state.opened[team] = True
        state.opened_now = True
    if left == 0:  # R-OUT-1: melded the whole hand
        go_out(state, seat)
    return {
        "public": {
            "type": "meld",
            "seat": seat,
            "melds": events,
            "opened": state.opened[team],
            "went_out": left == 0,
            "deal_over": state.phase == "over",
        },
        "private": {},
    }


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
    sim: dict[str, MeldShape] = {}
    resolved, _points, black = check_entries(state, team, entries, sim)
    if black:
        check_black_threes(state, 0, enough_canastas(state, team, sim))
    if not commit:
        return {}
    hand.clear()
    melds = state.melds[team]
    events = meld_events(resolved, melds)
    for rank, cards in resolved:
        melds.setdefault(rank, []).extend(cards)
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


def check_entries(
    state: DealState, team: int, entries: list[Entry], sim: dict[str, MeldShape]
) -> tuple[list[tuple[str, list[str]]], int, bool]:
    """Checks meld entries in order against the team's melds (R-MELD-1..4).

    Records the resulting meld shapes in `sim`; returns the entries with their ranks,
    the card points they add and whether black threes are among them.
    """
    strict = state.rules.strict_wilds
    melds = state.melds[team]
    resolved: list[tuple[str, list[str]]] = []
    points = 0
    black = False
    for named, cards in entries:
        hint = meld_rank_at(melds, named) if isinstance(named, int) else named
        natural_rank: str | None = None
        naturals = wilds = blacks = 0
        for card in cards:
            if card in WILDS:
                wilds += 1
            elif card[0] == "3":
                if card in RED_THREES:
                    raise IllegalMove("threes_not_allowed", "red_three")
                blacks += 1
            else:
                if natural_rank is None:
                    natural_rank = card[0]
                elif card[0] != natural_rank:
                    raise IllegalMove("mixed_ranks")
                naturals += 1
        if blacks:  # R-MELD-4
            if naturals or wilds or hint not in (None, "3"):
                raise IllegalMove("threes_not_allowed", "black_threes_alone")
            if "3" in melds or "3" in sim:
                raise IllegalMove("threes_not_allowed")
            if blacks < 3:
                raise IllegalMove("meld_too_small")
            sim["3"] = [blacks, 0, blacks]
            black = True
            rank = "3"
        else:
            if natural_rank is None:
                if hint == "3":
                    raise IllegalMove("threes_not_allowed")
                if hint is None:
                    raise IllegalMove("wild_only", "name_rank")
                rank = hint
                if rank not in sim and rank not in melds:  # R-MELD-3
                    raise IllegalMove("wild_only")
            else:
                if hint is not None and hint != natural_rank:
                    raise IllegalMove("mixed_ranks")
                rank = natural_rank
            shape = sim.get(rank)
            if shape is None and rank in melds:
                existing = melds[rank]
                on_wilds = sum(map(IS_WILD.__getitem__, existing))
                shape = [len(existing) - on_wilds, on_wilds, len(existing)]
            if shape is None:
                if len(cards) < 3:
                    raise IllegalMove("meld_too_small")
                shape = [0, 0, 0]
            naturals += shape[0]
            wilds += shape[1]
            if wilds > 3 or (wilds >= naturals if strict else wilds > naturals):  # R-MELD-2
                raise IllegalMove("too_many_wilds")
            sim[rank] = [naturals, wilds, shape[2] + len(cards)]
        points += sum(map(VALUE.__getitem__, cards))
        resolved.append((rank, cards))
    return resolved, points, black


def meld_rank_at(melds: dict[str, list[str]], index: object) -> str:
    """The rank of the team's meld at `index` in the view (an entry's `"meld": i`)."""
    assert isinstance(index, int)
    if index >= len(melds):
        raise IllegalMove("bad_action", "no_meld", number=index)
    return list(melds)[index]


def canasta_in_hand(state: DealState, sim: dict[str, MeldShape], skip: str = "") -> bool:
    """R-ART-CANASTA: a canasta made from the hand opens whatever the minimum (`skip`: the
    rank of a pile take's top card, whose meld is not the hand's)."""
    return state.rules.canasta_in_hand_opens and any(
        shape[2] >= 7 for rank, shape in sim.items() if rank != skip
    )


def enough_canastas(state: DealState, team: int, sim: dict[str, MeldShape]) -> bool:
    """R-OUT-1/2: the team has the canastas going out needs (R-CAN-1: melds of seven or more,
    on the table or after `sim`): one, or two with `rules.canastas_to_go_out` (R-HOUSE-TWO and
    the tables of two, three and six)."""
    needed = state.rules.canastas_to_go_out
    for shape in sim.values():
        if shape[2] >= 7:
            needed -= 1
    for rank, meld in state.melds[team].items():
        if len(meld) >= 7 and rank not in sim:
            needed -= 1
    return needed <= 0


def lay(state: DealState, team: int, resolved: list[tuple[str, list[str]]]) -> None:
    """Puts checked entries on the table, remembering each meld's length before this turn."""
    melds = state.melds[team]
    for rank, cards in resolved:
        meld = melds.get(rank)
        if meld is None:
            melds[rank] = meld = []
        state.base.setdefault(rank, len(meld))
        meld.extend(cards)


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
        raise missing_canastas(state, "no_canasta")


def missing_canastas(state: DealState, code: str, why: str = "") -> IllegalMove:
    """A refusal for want of canastas (R-OUT-1/2, R-PILE-3) that says how many the table needs."""
    return IllegalMove(code, why if state.rules.canastas_to_go_out == 1 else "two_canastas")


def meld_events(
    resolved: list[tuple[str, list[str]]], melds_before: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """The entries as the log shows them, each `new` when it starts a meld (the team had none of
    its rank before), so a reader knows where every card went."""
    ranks = set(melds_before)
    events = []
    for rank, cards in resolved:
        events.append({"rank": rank, "cards": list(cards), "new": rank not in ranks})
        ranks.add(rank)
    return events
