"""The move generator: `legal_actions(deal, seat)`.

Complete for the draw phase: `draw` whenever it is legal, and a pile take for every way the
rules allow the top card to be melded (joining the team's meld, with a natural pair, with a
natural and a wild), with the hand melds that reach the minimum when the team opens (R-PILE-3,
R-OPEN-4: the pile's other cards join the hand, so fewer hand cards are kept back) or that make
the canasta a take leaving no card needs. In the play phase: every distinct discard and undo
when legal, and a useful set of melds (not every subset of the hand). The house rules'
actions (house.py) are complete: the question when it may be asked, both answers, and after
the answer only what keeps to it; laying down the whole hand (when possible) and passing.

Every action is checked by the engine itself, but only once per kind of check: discards all
obey the same rule whatever the card, so one check decides them all.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from .actions import DISCARDS, DRAW, UNDO, Action
from .cards import IS_WILD, MELD_GROUP, RED_THREES, VALUE, WILDS
from .deal import Deal
from .house import canasta_opening, plan_to_go_out
from .opening import can_undo
from .samba_moves import sequence_legal_actions
from .search import going_out_plan, opening_plan

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
    if deal.rules.sequences:  # Samba, Bolivia
        return sequence_legal_actions(deal, seat)
    if deal.phase == "draw":
        # Only the classic variant ever refuses a draw (R-END-2: the pile must be taken).
        drawable = (
            bool(deal.stock) or deal.rules.stock_out != "classic" or deal.is_legal(seat, DRAW)
        )
        takes = pile_takes(deal, seat)
        actions = [DRAW, *takes] if drawable else takes
        return _acaba(deal, seat, actions) if deal.rules.acaba else actions
    team = deal.seating.team_of(seat)
    opened = deal.opened[team]
    # R-HOUSE-7500: a side that opens with a canasta from the pile melds nothing from the hand.
    actions = [] if not opened and canasta_opening(deal, team) else legal_melds(deal, seat)
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
    plan = going_out_plan(
        deal.hands[seat],
        deal.melds[team],
        strict=deal.rules.strict_wilds,
        canastas=0,
        points=0,
        discard=False,
    )
    if plan is None:
        return [PASS]
    lay_down = {"type": "lay_down", "melds": plan[0]}
    return [lay_down, PASS] if deal.is_legal(seat, lay_down) else [PASS]


def pile_takes(deal: Deal, seat: int) -> list[Action]:
    """One legal take of the pile for each way of melding its top card that the rules allow."""
    pile = deal.pile
    if not pile or deal.phase != "draw":
        return []
    top = pile[-1]
    if top in WILDS or top[0] == "3":  # R-PILE-1, R-PILE-5
        return []
    rank = top[0]
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    opened = deal.opened[team]
    naturals = [card for card in hand if MELD_GROUP[card] == rank]
    if not opened and canasta_opening(deal, team):
        return _canasta_opening_take(deal, seat, naturals)
    bases: list[list[str]] = []
    if rank in deal.melds[team] and opened and not deal.frozen:
        bases.append([])
    if len(naturals) >= 2:
        bases.append(naturals[:2])
    if naturals and opened and not deal.frozen:
        wild_kinds = dict.fromkeys(filter(IS_WILD.__getitem__, hand))
        bases.extend([naturals[0], wild] for wild in wild_kinds)
    if not bases:
        return []
    keep = 2  # R-PILE-3: hand cards to keep back; the pile's other cards join the hand
    for card in islice(reversed(pile), 1, None):
        if card not in RED_THREES:  # R-PILE-6: red threes go to the table
            keep -= 1
            if not keep:
                break
    strict = deal.rules.strict_wilds
    meld = deal.melds[team].get(rank, ())
    on_wilds = sum(map(IS_WILD.__getitem__, meld))
    canastas = deal.rules.canastas_to_go_out
    missing = canastas
    for cards in deal.melds[team].values():
        if len(cards) >= 7:
            missing -= 1
            if not missing:
                break
    takes: list[Action] = []
    for base in bases:
        if opened:
            # Judged here from its shape (a test holds it equal to the engine): the meld of the
            # top card (R-MELD-2), then R-PILE-3.
            wilds = on_wilds + sum(map(IS_WILD.__getitem__, base))
            length = len(meld) + 1 + len(base)
            if wilds > 3 or (2 * wilds >= length if strict else 2 * wilds > length):
                continue
            if len(hand) == 1 and len(pile) == 1:
                continue
            made = 1 if length >= 7 > len(meld) else 0
            if missing <= made or len(hand) - len(base) >= keep:
                takes.append({"type": "take_pile", "cards": base})
                continue
            target = 1  # only the canastas going out needs let the take leave no card (R-PILE-3)
        else:
            target = deal.minimums[team] - VALUE[top] - sum(VALUE[card] for card in base)
        remaining = list(hand)
        for card in base:
            remaining.remove(card)
        melds = {name: list(cards) for name, cards in deal.melds[team].items()}
        melds[rank] = [*melds.get(rank, []), top, *base]
        plan = opening_plan(
            remaining, melds, strict=strict, target=target, keep=keep, canastas=canastas
        )
        if plan is None:
            continue
        action = {"type": "take_pile", "cards": base, "melds": plan}
        if deal.is_legal(seat, action):
            takes.append(action)
    return takes


def _canasta_opening_take(deal: Deal, seat: int, naturals: list[str]) -> list[Action]:
    """R-HOUSE-7500: the one way to open is a canasta of the top card's rank, made in the take
    from the hand's naturals of that rank and, when they fall short, as few wilds as will do."""
    if len(naturals) < 2:  # the pile is frozen for a side that has not opened (R-FRZ-2/3)
        return []
    wilds = [card for card in deal.hands[seat] if card in WILDS]
    wilds.sort(key=VALUE.__getitem__)
    short = max(0, 6 - len(naturals))  # the top card and the naturals make the rest of seven
    if short > len(wilds):
        return []
    take = {"type": "take_pile", "cards": naturals + wilds[:short]}
    return [take] if deal.is_legal(seat, take) else []


def legal_melds(deal: Deal, seat: int) -> list[Action]:
    """Legal melds worth considering (not every subset of the hand): the opening while the team
    has not opened, each rank's naturals (with a wild to make a pair a meld), each wild on each
    of the team's melds, black threes going out.

    Most are judged here from their shape (R-MELD-2, R-OUT-2, R-MELD-4, R-OPEN-3): the engine
    takes a few microseconds for each and a search makes thousands of such calls; the opening
    plan is legal as `opening_plan` builds it. Melds that go out or follow an undo below the
    minimum (R-UNDO-3) go to the engine. A test holds every offered meld legal to the engine.
    """
    team = deal.seating.team_of(seat)
    hand = deal.hands[seat]
    melds = deal.melds[team]
    hand_size = len(hand)
    legal: list[Action] = []
    # Melds leaving at most `engine_left` cards go to the engine: below the minimum, going out
    # (R-OPEN-3) or any meld after an undo (R-UNDO-3).
    engine_left = -1
    by_shape = True  # melds leaving more cards are judged by their shape
    if not deal.opened[team] and deal.points < deal.minimums[team]:
        plan = opening_melds(deal, seat)
        if plan:  # reaches the minimum, keeps the cards R-OUT-2 asks: legal as planned
            legal.append({"type": "meld", "melds": plan})
        if not deal.undo_used:
            engine_left = 0
        elif plan is None:
            # R-UNDO-3: a hand that cannot reach the minimum cannot after melding part of it
            # either (its plan would be a plan of the whole hand): only going out is left.
            engine_left, by_shape = 0, False
        else:
            engine_left = hand_size
    groups: dict[str, list[str]] = {}
    for card in hand:
        group = MELD_GROUP[card]
        if group in groups:
            groups[group].append(card)
        else:
            groups[group] = [card]
    wilds = groups.pop("*", None)
    kinds = list(dict.fromkeys(wilds)) if wilds else None
    blacks = groups.pop("3", None)
    strict = deal.rules.strict_wilds
    # Canastas the team still needs to go out (R-OUT-1/2): one, or two (R-HOUSE-TWO, tables).
    missing = deal.rules.canastas_to_go_out
    for cards in melds.values():
        if len(cards) >= 7:
            missing -= 1
            if not missing:
                break
    canasta = missing <= 0

    # Each meld judged by its shape after the cards (R-MELD-2; R-OUT-2: `left` cards stay, and
    # going out needs `missing` canastas more, which a meld reaching seven makes).
    for rank, cards in groups.items():
        naturals = len(cards)
        meld = melds.get(rank)
        if meld is not None:
            entry: dict[str, Any] = {"cards": cards}
            left = hand_size - naturals
            on_wilds = sum(map(IS_WILD.__getitem__, meld))
            naturals += len(meld) - on_wilds
            if on_wilds >= naturals if strict else on_wilds > naturals:
                continue
            made = naturals + on_wilds >= 7 > len(meld)
        elif naturals >= 3:
            entry, left, made = {"cards": cards}, hand_size - naturals, naturals >= 7
        elif naturals == 2 and kinds:
            entry, left, made = {"cards": [*cards, kinds[-1]]}, hand_size - 3, False
        else:
            continue
        if left <= engine_left:
            _by_engine(deal, seat, entry, legal)
        elif by_shape and (left >= 2 or canasta or (missing == 1 and made)):
            legal.append({"type": "meld", "melds": [entry]})
    if kinds:
        left = hand_size - 1
        for rank, meld in melds.items():
            if rank == "3":
                continue
            if left <= engine_left:
                for wild in kinds:
                    _by_engine(deal, seat, {"rank": rank, "cards": [wild]}, legal)
                continue
            wilds_after = sum(map(IS_WILD.__getitem__, meld)) + 1
            naturals = len(meld) + 1 - wilds_after
            if (
                by_shape
                and wilds_after <= 3
                and (wilds_after < naturals if strict else wilds_after <= naturals)
                and (left >= 2 or canasta or (missing == 1 and len(meld) == 6))
            ):  # every kind of wild alike
                legal += [{"type": "meld", "melds": [{"rank": rank, "cards": [w]}]} for w in kinds]
    if blacks and len(blacks) >= 3:  # R-MELD-4: only while going out, with a canasta
        left = hand_size - len(blacks)
        if left <= engine_left:
            _by_engine(deal, seat, {"cards": blacks}, legal)
        elif by_shape and left <= 1 and canasta and "3" not in melds:
            legal.append({"type": "meld", "melds": [{"cards": blacks}]})
    return legal


def _by_engine(deal: Deal, seat: int, entry: dict[str, Any], legal: list[Action]) -> None:
    """Offers the meld of `entry` when the engine accepts it (the cases no shape decides)."""
    action = {"type": "meld", "melds": [entry]}
    if deal.is_legal(seat, action):
        legal.append(action)


def opening_melds(deal: Deal, seat: int) -> list[dict[str, Any]] | None:
    """Melds from the hand that complete the team's minimum this turn (R-OPEN-2), or None."""
    team = deal.seating.team_of(seat)
    return opening_plan(
        deal.hands[seat],
        deal.melds[team],
        strict=deal.rules.strict_wilds,
        target=deal.minimums[team] - deal.points,
        exempt_out=deal.rules.concealed_out_skips_minimum and deal.drew == "stock",
        canastas=deal.rules.canastas_to_go_out,
    )
