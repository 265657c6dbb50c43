"""The seeds' house rules (seed 001), off by default: asking the partner whether to go out
(R-HOUSE-ASK), the partner laying down too when one goes out (R-HOUSE-DOUBLE), the canasta
opening from 5,000 (R-HOUSE-7500) and British «Acaba» (R-ACABA). games/engine/README.md says how
each is read.
"""

from typing import Any

from .errors import IllegalMove
from .opening import exempt_from_minimum
from .scoring import finish, finish_acaba
from .state import DealState, Event
from .variant import GoingOut

# R-HOUSE-7500: from this total a side's first meld is a whole canasta with the pile's top card.
CANASTA_OPENING_FROM = 5000


def plays_partner_rules(state: DealState) -> bool:
    """The table plays a house rule in which a seat other than the one on turn may act."""
    rules = state.rules
    return rules.ask_partner_to_go_out or rules.double_going_out or rules.acaba


def require_rule(state: DealState, kind: str) -> None:
    """The house actions exist only at a table that plays their rule."""
    rules = state.rules
    if kind in ("acaba", "ask_acaba", "answer_go_out") and rules.acaba:
        allowed = kind != "ask_acaba" or bool(state.seating.partners_of(state.turn))
    elif kind in ("ask_to_go_out", "answer_go_out"):
        allowed = rules.ask_partner_to_go_out
    else:
        allowed = kind in ("lay_down", "pass") and rules.double_going_out
    if not allowed:
        raise IllegalMove("bad_action", "no_house_rule")


def to_act(state: DealState) -> int:
    """The seat whose action the deal waits for: the partner while a question waits."""
    question = state.question
    if question is not None and question["answer"] is None:
        partner: int = question["partner"]
        return partner
    return state.turn


def not_to_act(state: DealState, seat: int) -> IllegalMove:
    """Why `seat`, which is not the seat to act, may not act."""
    if seat == state.turn and state.question is not None:
        return IllegalMove("awaiting_partner")
    return IllegalMove("not_your_turn")


# ----------------------------------------------------------------------------- R-HOUSE-7500


def canasta_opening(state: DealState, team: int) -> bool:
    """R-HOUSE-7500: this deal the team's first meld must be a whole canasta."""
    return state.rules.canasta_opening_from_5000 and state.team_scores[team] >= CANASTA_OPENING_FROM


def canasta_opening_refused() -> IllegalMove:
    return IllegalMove("below_minimum", "canasta_opening")


# ----------------------------------------------------------------------------- R-HOUSE-ASK


def answering_partner(state: DealState, seat: int) -> int:
    """The partner who answers: the next partner in the order of play (DECIDED at six)."""
    seating = state.seating
    team = seating.team_of(seat)
    return next(other for other in seating.round_from(seat)[1:] if seating.team_of(other) == team)


def plan_to_go_out(
    state: DealState,
    seat: int,
    hand: list[str] | None = None,
    melds: dict[str, list[str]] | None = None,
    points: int | None = None,
) -> GoingOut | None:
    """How `seat` goes out this turn (melds, then the discard or None), or None when it cannot.

    By default from the deal as it is; `hand`, `melds` and `points` (card points melded this
    turn) describe it after a meld that is being checked.
    """
    team = state.seating.team_of(seat)
    hand = state.hands[seat] if hand is None else hand
    melds = state.melds[team] if melds is None else melds
    points = state.points if points is None else points
    if state.opened[team] or exempt_from_minimum(state, True):
        needed = 0
    elif canasta_opening(state, team):
        return None  # only a pile take opens (R-HOUSE-7500)
    else:
        needed = state.minimums[team] - points
    return state.variant.going_out_plan(state.rules, hand, melds, needed)


def ask_to_go_out(state: DealState, seat: int, commit: bool) -> Event:
    """«Можно выходить?»: once per deal, in the play phase, by a player whose team has opened
    and who could both go out now and stay in (so either answer can be kept)."""
    if state.phase != "play":
        raise IllegalMove("wrong_phase", "ask_before_draw")
    if state.asked[seat]:
        raise IllegalMove("wrong_phase", "asked_once")
    if not state.opened[state.seating.team_of(seat)]:
        raise IllegalMove("wrong_phase", "ask_unopened")
    if len(state.hands[seat]) < 2:
        # Holding one card, going out is the only move left: after a no the player could not
        # move at all (found at six by tests/engine/test_rules_tables.py).
        raise IllegalMove("wrong_phase", "ask_one_card")
    if plan_to_go_out(state, seat) is None:
        raise IllegalMove("wrong_phase", "nothing_to_ask")
    if not commit:
        return {}
    partner = answering_partner(state, seat)
    state.asked[seat] = True
    state.question = {"asker": seat, "partner": partner, "answer": None}
    return {
        "public": {"type": "ask_to_go_out", "seat": seat, "partner": partner},
        "private": {},
    }


def answer_go_out(state: DealState, seat: int, yes: bool, commit: bool) -> Event:
    """The partner's yes or no binds the asker for the rest of the turn."""
    if not commit:
        return {}
    question = state.question
    assert question is not None
    question["answer"] = yes
    return {"public": {"type": "answer_go_out", "seat": seat, "yes": yes}, "private": {}}


def answered(state: DealState) -> bool | None:
    """The answer to going out the seat on turn got this turn: True, False, or None (no answer,
    or the question was «Acaba», which binds only that word)."""
    question = state.question
    return None if question is None or "about" in question else question["answer"]


# ----------------------------------------------------------------------------- R-ACABA


def asked_about_acaba(state: DealState) -> bool:
    question = state.question
    return question is not None and "about" in question


def say_acaba(state: DealState, seat: int, commit: bool) -> Event:
    """R-ACABA-1: the deal ends at once; the other sides score 1,500, this side nothing."""
    if state.phase not in ("draw", "play"):
        raise IllegalMove("wrong_phase")
    if not commit:
        return {}
    state.question = None
    finish_acaba(state, seat)
    return {"public": {"type": "acaba", "seat": seat, "deal_over": True}, "private": {}}


def ask_acaba(state: DealState, seat: int, commit: bool) -> Event:
    """R-ACABA-ASK: the partner's yes or no binds the word «Acaba» for this turn."""
    if state.phase not in ("draw", "play"):
        raise IllegalMove("wrong_phase")
    if state.asked_acaba[seat]:
        raise IllegalMove("wrong_phase", "acaba_asked_once")
    if not commit:
        return {}
    partner = answering_partner(state, seat)
    state.asked_acaba[seat] = True
    state.question = {"asker": seat, "partner": partner, "answer": None, "about": "acaba"}
    return {
        "public": {"type": "ask_acaba", "seat": seat, "partner": partner},
        "private": {},
    }


def check_acaba_answer(state: DealState, kind: str) -> None:
    """After the partner's answer about «Acaba»: yes binds the player to say it, no forbids it."""
    question = state.question
    assert question is not None
    answer = question["answer"]
    if answer is True and kind != "acaba":
        raise IllegalMove("must_go_out", "say_acaba")
    if answer is False and kind == "acaba":
        raise IllegalMove("may_not_go_out", "no_acaba")


def check_discard_answer(state: DealState, left: int) -> None:
    """A discard keeps to the answer: with yes it goes out, with no it does not."""
    answer = answered(state)
    if answer is True and left > 0:
        raise IllegalMove("must_go_out")
    if answer is False and left == 0:
        raise IllegalMove("may_not_go_out")


def check_meld_answer(
    state: DealState,
    seat: int,
    used: list[str],
    laid: list[tuple[str, list[str]]],
    points: int,
) -> None:
    """A meld keeps to the answer: after yes going out stays possible this turn; after no the
    meld keeps the two cards that stop the player going out (the discard and one more)."""
    answer = answered(state)
    if answer is None:
        return
    left = len(state.hands[seat]) - len(used)
    if answer is False:
        if left < 2:
            raise IllegalMove("may_not_go_out")
        return
    if left == 0:
        return
    hand_after = list(state.hands[seat])
    for card in used:
        hand_after.remove(card)
    team_melds = state.melds[state.seating.team_of(seat)]
    melds_after = {rank: list(cards) for rank, cards in team_melds.items()}
    for rank, cards in laid:
        melds_after.setdefault(rank, []).extend(cards)
    if plan_to_go_out(state, seat, hand_after, melds_after, state.points + points) is None:
        raise IllegalMove("must_go_out", "meld_stops_going_out")


# ----------------------------------------------------------------------------- R-HOUSE-DOUBLE


def go_out(state: DealState, seat: int) -> None:
    """`seat` has gone out: the deal ends (R-OUT-4), or with R-HOUSE-DOUBLE each partner in
    turn may first lay down their whole hand."""
    state.question = None
    if not state.rules.double_going_out:
        finish(state, seat)
        return
    # The bonus is judged now: the partners' cards do not make the going out concealed.
    state.out = {"seat": seat, "bonus": state.variant.going_out_bonus(state, seat), "laid_down": []}
    state.phase = "partner_out"
    _next_partner(state, seat)


def pass_out(state: DealState, seat: int, commit: bool) -> Event:
    """The partner keeps their cards (they count against the team)."""
    if not commit:
        return {}
    partner_done(state)
    return {
        "public": {"type": "pass", "seat": seat, "deal_over": state.phase == "over"},
        "private": {},
    }


def partner_done(state: DealState) -> None:
    """The partner on turn laid down or passed: the next partner, or the end of the deal."""
    _next_partner(state, state.turn)


def _next_partner(state: DealState, after: int) -> None:
    out = state.out
    assert out is not None
    seating = state.seating
    team = seating.team_of(out["seat"])
    for seat in seating.round_from(after)[1:]:
        if seat == out["seat"]:
            break
        if seating.team_of(seat) == team:
            state.turn = seat
            return
    finish(state, out["seat"])


def house_state(state: DealState) -> dict[str, Any]:
    """The house rules' part of `to_dict()`."""
    data = {
        "asked": list(state.asked),
        "question": dict(state.question) if state.question else None,
        "out": _copy_out(state.out),
    }
    if state.rules.acaba:
        data["asked_acaba"] = list(state.asked_acaba)
    return data


def load_house_state(state: DealState, data: dict[str, Any] | None) -> None:
    """Restores `house_state`; an old state (or a table without the rules) has none."""
    data = data or {}
    state.asked = list(data.get("asked") or [False] * state.seating.players)
    state.asked_acaba = list(data.get("asked_acaba") or [False] * state.seating.players)
    question = data.get("question")
    state.question = dict(question) if question else None
    state.out = _copy_out(data.get("out"))


def _copy_out(out: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if out is None else {**out, "laid_down": list(out["laid_down"])}
