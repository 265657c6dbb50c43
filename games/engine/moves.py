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

from .cards import ALL_CODES, RED_THREES, VALUE, WILDS
from .deal import Deal
from .house import canasta_opening, plan_to_go_out
from .search import going_out_plan, opening_plan

Action = dict[str, Any]

# The group a hand card melds in: its rank, "*" for wilds; black threes are "3" (red threes
# never stay in a hand).
_GROUP = {code: "*" if code in WILDS else code[0] for code in ALL_CODES}

# Actions that need no building; shared, so callers must not change an action they are given.
DRAW: Action = {"type": "draw"}
UNDO: Action = {"type": "undo"}
DISCARDS: dict[str, Action] = {code: {"type": "discard", "card": code} for code in ALL_CODES}
ASK: Action = {"type": "ask_to_go_out"}
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
        takes = pile_takes(deal, seat)
        return [DRAW, *takes] if drawable else takes
    team = deal.seating.team_of(seat)
    opened = deal.opened[team]
    # R-HOUSE-7500: a side that opens with a canasta from the pile melds nothing from the hand.
    actions = [] if not opened and canasta_opening(deal, team) else legal_melds(deal, seat)
    if deal.undo_available(seat):
        actions.append(UNDO)
    hand = deal.hands[seat]
    # A card stays and no minimum is pending (R-OPEN-3): any card goes; else the engine judges.
    if (len(hand) > 1 and (opened or not deal.base)) or deal.is_legal(seat, DISCARDS[hand[0]]):
        actions += [DISCARDS[card] for card in dict.fromkeys(hand)]
    if deal.rules.ask_partner_to_go_out:
        return _asking(deal, seat, actions)
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
    naturals = [card for card in hand if card[0] == rank and card not in WILDS]
    if not opened and canasta_opening(deal, team):
        return _canasta_opening_take(deal, seat, naturals)
    bases: list[list[str]] = []
    if rank in deal.melds[team] and opened and not deal.frozen:
        bases.append([])
    if len(naturals) >= 2:
        bases.append(naturals[:2])
    if naturals and opened and not deal.frozen:
        bases.extend([naturals[0], wild] for wild in dict.fromkeys(c for c in hand if c in WILDS))
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
    on_wilds = sum(1 for card in meld if card in WILDS)
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
            wilds = on_wilds + sum(1 for card in base if card in WILDS)
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
    strict = deal.rules.strict_wilds
    # Canastas the team still needs to go out (R-OUT-1/2): one, or two (R-HOUSE-TWO, tables).
    missing = deal.rules.canastas_to_go_out
    for cards in melds.values():
        if len(cards) >= 7:
            missing -= 1
            if not missing:
                break
    canasta = missing <= 0
    hand_size = len(hand)
    pending = 0 if deal.opened[team] else deal.minimums[team] - deal.points
    legal: list[Action] = []
    if pending > 0:
        plan = opening_melds(deal, seat)
        if plan:  # reaches the minimum, keeps the cards R-OUT-2 asks: legal as planned
            legal.append({"type": "meld", "melds": plan})
    groups: dict[str, list[str]] = {}
    for card in hand:
        group = groups.get(_GROUP[card])
        if group is None:
            groups[_GROUP[card]] = [card]
        else:
            group.append(card)
    wild_kinds = list(dict.fromkeys(groups.pop("*", ())))
    blacks = groups.pop("3", [])

    def fits(rank: str, naturals: int, wilds: int, entry: dict[str, Any]) -> None:
        """Appends the meld `entry` when it is legal."""
        left = hand_size - naturals - wilds
        if pending > 0 and (left == 0 or deal.undo_used):
            action = {"type": "meld", "melds": [entry]}
            if deal.is_legal(seat, action):
                legal.append(action)
            return
        meld = melds.get(rank)
        if meld:
            on_wilds = 0
            for card in meld:
                if card in WILDS:
                    on_wilds += 1
            wilds += on_wilds
            naturals += len(meld) - on_wilds
        if wilds > 3 or (wilds >= naturals if strict else wilds > naturals):
            return
        if left >= 2 or canasta or (missing == 1 and naturals + wilds >= 7 > len(meld or ())):
            legal.append({"type": "meld", "melds": [entry]})

    for rank, cards in groups.items():
        if len(cards) >= 3 or rank in melds:
            fits(rank, len(cards), 0, {"cards": cards})
        elif len(cards) == 2 and wild_kinds:
            fits(rank, 2, 1, {"cards": [*cards, wild_kinds[-1]]})
    if wild_kinds:
        for rank in melds:
            if rank != "3":
                for wild in wild_kinds:
                    fits(rank, 0, 1, {"rank": rank, "cards": [wild]})
    if len(blacks) >= 3:  # R-MELD-4: only while going out, with a canasta
        left = hand_size - len(blacks)
        action = {"type": "meld", "melds": [{"cards": blacks}]}
        if pending > 0 and (left == 0 or deal.undo_used):
            if deal.is_legal(seat, action):
                legal.append(action)
        elif left <= 1 and canasta and "3" not in melds:
            legal.append(action)
    return legal


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
