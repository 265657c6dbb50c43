"""The seeds' house rules (issue 13): R-HOUSE-ASK, R-HOUSE-DOUBLE, R-HOUSE-7500.

Stacked decks (tests/engine/decks.py) and the public engine API only; with the rules off
nothing changes (the other engine tests run the defaults).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, IllegalMove, Rules, autoplay, legal_actions
from games.engine.bots import LEVELS, decide, log_entry, play_turn
from games.engine.errors import MESSAGES
from games.engine.house import answering_partner
from games.engine.state import DealState
from tests.engine.decks import (
    VIEW_KEYS,
    draw,
    new_deal,
    refuse,
    state,
    value,
)
from tests.engine.test_properties import (
    CONTRACT_CODES,
    check_counts,
    check_round_trip,
    random_action,
)

ASK_RULES = Rules(ask_partner_to_go_out=True)
DOUBLE_RULES = Rules(double_going_out=True)
ALL_HOUSE = Rules(
    ask_partner_to_go_out=True, double_going_out=True, canasta_opening_from_5000=True, target=7500
)
HOUSE_CODES = {"awaiting_partner", "must_go_out", "may_not_go_out"}

ASK = {"type": "ask_to_go_out"}
YES = {"type": "answer_go_out", "yes": True}
NO = {"type": "answer_go_out", "yes": False}
PASS = {"type": "pass"}

# Seat 0 (first to play, dealer 3) draws JK and can go out at once: seven kings, the queen pair
# with 2C, the joker on the kings, 4D discarded. Melding all the wilds on the kings first
# strands the queens.
GOER = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "2C", "4D"]
GOING_OUT = {
    "type": "meld",
    "melds": [
        {"cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]},
        {"cards": ["QS", "QH", "2C"]},
        {"rank": "K", "cards": ["JK"]},
    ],
}
# Seat 2 can lay its whole hand down: four queens join the team's, new jacks and tens.
LAYER = ["QD", "QC", "QS", "QH", "JS", "JH", "JD", "JC", "TS", "TH", "TD"]
LAY_DOWN = {
    "type": "lay_down",
    "melds": [
        {"cards": ["QD", "QC", "QS", "QH"]},
        {"cards": ["JS", "JH", "JD", "JC"]},
        {"cards": ["TS", "TH", "TD"]},
    ],
}


def goer(rules: Rules, partner: list[str] | None = None) -> Deal:
    hands = {0: GOER} if partner is None else {0: GOER, 2: partner}
    return new_deal(rules=rules, hands=hands, stock=["JK"])


def asked(rules: Rules = ASK_RULES) -> Deal:
    deal = goer(rules)
    draw(deal, 0)
    deal.apply(0, ASK)
    return deal


# ----------------------------------------------------------------------------- R-HOUSE-ASK


def test_R_HOUSE_ASK_the_question_waits_for_the_partner_who_alone_may_act() -> None:
    deal = goer(ASK_RULES)
    assert deal.view(0)["question"] is None and deal.view(0)["to_act"] == 0
    draw(deal, 0)
    event = deal.apply(0, ASK)
    assert event["public"] == {"type": "ask_to_go_out", "seat": 0, "partner": 2}
    question = {"asker": 0, "partner": 2, "answer": None}
    for viewer in (0, 1, 2, 3, None):
        view = deal.view(viewer)
        assert view["question"] == question and view["to_act"] == 2 and view["turn"] == 0
    assert deal.to_act == 2 and deal.turn == 0
    refuse(deal, 0, GOING_OUT, "awaiting_partner")
    refuse(deal, 0, {"type": "discard", "card": "4D"}, "awaiting_partner")
    refuse(deal, 0, YES, "awaiting_partner")
    refuse(deal, 1, {"type": "draw"}, "not_your_turn")
    refuse(deal, 3, YES, "not_your_turn")
    refuse(deal, 2, {"type": "draw"}, "wrong_phase")
    refuse(deal, 2, {"type": "answer_go_out", "yes": "да"}, "bad_action")
    assert legal_actions(deal, 2) == [YES, NO]
    assert legal_actions(deal, 0) == legal_actions(deal, 1) == []
    event = deal.apply(2, YES)
    assert event["public"] == {"type": "answer_go_out", "seat": 2, "yes": True}
    assert deal.view(1)["question"] == {**question, "answer": True}
    assert deal.to_act == 0


def test_R_HOUSE_ASK_after_yes_the_asker_must_go_out_this_turn() -> None:
    deal = asked()
    deal.apply(2, YES)
    refuse(deal, 0, {"type": "discard", "card": "4D"}, "must_go_out")
    # Both wilds on the kings leave the queen pair without one: no going out after that.
    strands = {"type": "meld", "melds": [{"cards": [*GOER[:7], "2C", "JK"]}]}
    refuse(deal, 0, strands, "must_go_out")
    plan = legal_actions(deal, 0)[0]  # the whole going out comes first
    trial = Deal.from_dict(deal.to_dict())
    trial.apply(0, plan)
    assert trial.view(0)["hand"] == ["4D"]
    assert all(deal.is_legal(0, action) for action in legal_actions(deal, 0))
    deal.apply(0, {"type": "meld", "melds": [{"cards": GOER[:7]}]})  # going out stays possible
    refuse(deal, 0, {"type": "discard", "card": "4D"}, "must_go_out")
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["QS", "QH", "2C"]}]})
    deal.apply(0, {"type": "meld", "melds": [{"rank": "K", "cards": ["JK"]}]})
    deal.apply(0, {"type": "discard", "card": "4D"})
    assert deal.phase == "over" and deal.view(0)["question"] is None
    assert deal.result is not None and deal.result[0]["going_out"] == 200  # concealed, R-OUT-3


def test_R_HOUSE_ASK_after_no_the_asker_may_not_go_out_this_turn_but_later() -> None:
    deal = asked()
    deal.apply(2, NO)
    refuse(deal, 0, GOING_OUT, "may_not_go_out")  # it would leave one card: the discard
    everything = {"type": "meld", "melds": [*GOING_OUT["melds"], {"cards": ["4D"]}]}
    refuse(deal, 0, everything, ("may_not_go_out", "meld_too_small"))
    offered = legal_actions(deal, 0)
    assert offered and all(deal.is_legal(0, action) for action in offered)
    assert GOING_OUT not in offered
    deal.apply(0, {"type": "meld", "melds": [{"cards": GOER[:7]}]})
    deal.apply(0, {"type": "discard", "card": "4D"})
    assert deal.view(0)["question"] is None and deal.turn == 1
    for seat in (1, 2, 3):
        draw(deal, seat)
        card = next(c for c in deal.view(seat)["hand"] if c[0] not in "23Q" and c != "JK")
        deal.apply(seat, {"type": "discard", "card": card})
    draw(deal, 0)
    refuse(deal, 0, ASK, "wrong_phase")  # once per deal
    assert ASK not in legal_actions(deal, 0)


def test_R_HOUSE_ASK_is_asked_only_after_drawing_when_going_out_is_possible() -> None:
    deal = goer(ASK_RULES)
    refuse(deal, 0, ASK, "wrong_phase")  # before drawing
    assert ASK not in legal_actions(deal, 0)
    draw(deal, 0)
    assert ASK in legal_actions(deal, 0)
    stuck = new_deal(rules=ASK_RULES, stock=["JK"])  # a filler hand cannot go out
    draw(stuck, 0)
    refuse(stuck, 0, ASK, "wrong_phase")
    assert ASK not in legal_actions(stuck, 0)
    refuse(stuck, 0, NO, "wrong_phase")  # nobody asked


def test_R_HOUSE_ASK_the_rule_off_refuses_its_actions_as_bad_action() -> None:
    deal = goer(Rules())
    draw(deal, 0)
    refuse(deal, 0, ASK, "bad_action")
    refuse(deal, 2, YES, "bad_action")
    assert ASK not in legal_actions(deal, 0)
    assert set(deal.view(0)) == VIEW_KEYS


def test_R_HOUSE_ASK_the_answering_partner_is_the_next_in_the_order_of_play() -> None:
    four = DealState(ASK_RULES, 3, (0, 0))
    assert [answering_partner(four, seat) for seat in range(4)] == [2, 3, 0, 1]
    six_two = DealState(Rules(players=6, teams=2, ask_partner_to_go_out=True), 5, (0, 0))
    assert [answering_partner(six_two, seat) for seat in range(6)] == [2, 3, 4, 5, 0, 1]
    six_three = DealState(Rules(players=6, teams=3, ask_partner_to_go_out=True), 5, (0, 0, 0))
    assert [answering_partner(six_three, seat) for seat in range(6)] == [3, 4, 5, 0, 1, 2]


def test_R_HOUSE_ASK_a_waiting_question_survives_to_dict_and_from_dict() -> None:
    deal = asked()
    copy = Deal.from_dict(json.loads(json.dumps(deal.to_dict())))
    assert state(copy) == state(deal) and copy.to_act == 2
    copy.apply(2, YES)
    assert copy.to_act == 0 and deal.to_act == 2


def test_R_HOUSE_ASK_the_new_codes_have_messages_in_both_languages() -> None:
    for code in HOUSE_CODES:
        ru, en = MESSAGES[code]
        assert ru and en
        assert IllegalMove(code).message("en") == en


# ----------------------------------------------------------------------------- R-HOUSE-DOUBLE


def went_out(rules: Rules = DOUBLE_RULES) -> Deal:
    deal = goer(rules, LAYER)
    draw(deal, 0)
    deal.apply(0, GOING_OUT)
    deal.apply(0, {"type": "discard", "card": "4D"})
    return deal


def test_R_HOUSE_DOUBLE_the_partner_may_lay_down_the_whole_hand_for_a_bonus() -> None:
    deal = went_out()
    assert deal.phase == "partner_out" and deal.turn == deal.to_act == 2
    assert deal.result is None and deal.view(1)["to_act"] == 2 and "question" not in deal.view(1)
    refuse(deal, 1, {"type": "draw"}, "not_your_turn")
    refuse(deal, 2, {"type": "draw"}, "wrong_phase")
    refuse(deal, 2, {"type": "meld", "melds": [{"cards": ["TS", "TH", "TD"]}]}, "wrong_phase")
    partial = {"type": "lay_down", "melds": LAY_DOWN["melds"][:2]}
    refuse(deal, 2, partial, "bad_action")
    refuse(deal, 2, {"type": "lay_down", "melds": [{"cards": ["JS", "JH"]}]}, "bad_action")
    assert legal_actions(deal, 2)[-1] == PASS and legal_actions(deal, 2)[0]["type"] == "lay_down"
    event = deal.apply(2, LAY_DOWN)
    assert event["public"]["deal_over"] is True and deal.phase == "over"
    assert deal.result is not None
    ours, theirs = deal.result
    assert ours["double_going_out"] == 100 and theirs["double_going_out"] == 0
    assert ours["going_out"] == 200  # seat 0's concealed going out, judged when it went out
    assert ours["hand"] == 0
    melded = [c for m in deal.view(None)["teams"][0]["melds"] for c in m["cards"]]
    assert ours["cards"] == sum(value(c) for c in melded)
    for line in deal.result:
        parts = ("cards", "canastas", "red_threes", "going_out", "double_going_out", "hand")
        assert line["total"] == sum(line[key] for key in parts)


def test_R_HOUSE_DOUBLE_a_partner_who_passes_keeps_the_cards_against_the_team() -> None:
    deal = went_out()
    deal.apply(2, PASS)
    assert deal.phase == "over" and deal.result is not None
    assert deal.result[0]["double_going_out"] == 0
    assert deal.result[0]["hand"] == -sum(value(c) for c in LAYER)


def test_R_HOUSE_DOUBLE_going_out_by_melding_everything_also_waits_for_the_partner() -> None:
    deal = goer(DOUBLE_RULES, LAYER)
    draw(deal, 0)
    everything = dict(GOING_OUT, melds=[*GOING_OUT["melds"]])
    deal.apply(0, everything)  # 4D stays: the discard goes out
    assert deal.phase == "play"
    refuse(deal, 0, PASS, "wrong_phase")
    refuse(deal, 0, LAY_DOWN, "wrong_phase")
    deal.apply(0, {"type": "discard", "card": "4D"})
    assert deal.phase == "partner_out"
    assert [action["type"] for action in autoplay(deal, 2)] == ["lay_down"]


def test_R_HOUSE_DOUBLE_without_the_rule_the_deal_ends_at_once_with_the_contract_lines() -> None:
    deal = went_out(Rules())
    assert deal.phase == "over" and deal.result is not None
    keys = {"cards", "canastas", "red_threes", "going_out", "hand", "total"}
    assert all(set(line) == keys for line in deal.result)
    assert "house" not in deal.to_dict()


def test_R_HOUSE_DOUBLE_partner_out_survives_to_dict_and_from_dict() -> None:
    deal = went_out(ALL_HOUSE)
    copy = Deal.from_dict(json.loads(json.dumps(deal.to_dict())))
    assert state(copy) == state(deal)
    copy.apply(2, LAY_DOWN)
    deal.apply(2, LAY_DOWN)
    assert state(copy) == state(deal)


# ----------------------------------------------------------------------------- R-HOUSE-7500

OPENER_7500 = ["KS", "KH", "KD", "KC", "KS", "KH", "AS", "AH", "AD", "JK", "9S"]
SIX_KINGS = OPENER_7500[:6]


def at_5000(rules: Rules, score: int = 5000) -> Deal:
    return new_deal(rules=rules, hands={0: OPENER_7500}, upcards=["KD"], team_scores=(score, 0))


HOUSE_7500 = Rules(canasta_opening_from_5000=True, target=7500)


def test_R_HOUSE_7500_from_5000_a_side_opens_only_with_a_canasta_from_the_pile() -> None:
    deal = at_5000(HOUSE_7500)
    teams = deal.view(0)["teams"]
    assert teams[0]["canasta_opening"] is True and teams[1]["canasta_opening"] is False
    # 140 points would open at 120, but it is no canasta.
    pair = {
        "type": "take_pile",
        "cards": ["KS", "KH"],
        "melds": [{"cards": ["AS", "AH", "AD", "JK"]}],
    }
    refuse(deal, 0, pair, "below_minimum")
    assert at_5000(Rules(target=7500)).is_legal(0, pair)  # the control: the rule off
    assert legal_actions(deal, 0) == [
        {"type": "draw"},
        {"type": "take_pile", "cards": SIX_KINGS},
    ]
    draw(deal, 0)
    from_hand = {
        "type": "meld",
        "melds": [{"cards": SIX_KINGS}, {"cards": ["AS", "AH", "AD", "JK"]}],
    }
    refuse(deal, 0, from_hand, "below_minimum")  # a canasta, but not with the pile's top card
    assert all(action["type"] == "discard" for action in legal_actions(deal, 0))


def test_R_HOUSE_7500_the_top_card_makes_the_canasta_in_the_take() -> None:
    for cards in (SIX_KINGS, [*SIX_KINGS[:5], "JK"]):
        deal = at_5000(HOUSE_7500)
        deal.apply(0, {"type": "take_pile", "cards": cards})
        team = deal.view(0)["teams"][0]
        assert team["opened"] is True
        assert [(m["rank"], len(m["cards"]), m["canasta"] is not None) for m in team["melds"]] == [
            ("K", 7, True)
        ]
        deal.apply(0, {"type": "meld", "melds": [{"cards": ["AS", "AH", "AD"]}]})  # any value now


def test_R_HOUSE_7500_below_5000_the_usual_minimum_holds() -> None:
    deal = at_5000(HOUSE_7500, score=4995)
    assert deal.view(0)["teams"][0]["canasta_opening"] is False
    deal.apply(
        0,
        {
            "type": "take_pile",
            "cards": ["KS", "KH"],
            "melds": [{"cards": ["AS", "AH", "AD", "JK"]}],
        },
    )
    assert deal.view(0)["teams"][0]["opened"] is True


# ----------------------------------------------------------------------------- bots


class Table:
    """A deal with each seat's log; bots play whoever is to act."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.logs: list[list[dict[str, Any]]] = [[] for _ in deal.seating.seats]

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        event = self.deal.apply(seat, action)
        for viewer in self.deal.seating.seats:
            self.logs[viewer].append(log_entry(seat, action, event, viewer=viewer))

    def bot_turn(self, level: str, seed: int) -> list[dict[str, Any]]:
        seat = self.deal.to_act
        before = state(self.deal)
        actions = play_turn(self.deal, seat, level=level, log=self.logs[seat], seed=seed)
        assert state(self.deal) == before and actions
        for action in actions:
            self.apply(seat, action)
        assert self.deal.phase == "over" or self.deal.to_act != seat
        return actions


@pytest.mark.parametrize("level", LEVELS)
def test_bots_ask_answer_go_out_after_yes_and_lay_down(level: str) -> None:
    rules = Rules(ask_partner_to_go_out=True, double_going_out=True)
    table = Table(goer(rules, LAYER))
    table.apply(0, {"type": "draw"})
    assert table.bot_turn(level, seed=1) == [ASK]
    assert table.bot_turn(level, seed=2) == [YES]  # the partner can lay its hand down
    out = table.bot_turn(level, seed=3)
    assert out[-1] == {"type": "discard", "card": "4D"} and table.deal.phase == "partner_out"
    assert [action["type"] for action in table.bot_turn(level, seed=4)] == ["lay_down"]
    assert table.deal.result is not None and table.deal.result[0]["double_going_out"] == 100


def test_a_bot_partner_holding_points_to_meld_says_no() -> None:
    partner = ["AS", "AH", "QD", "QC", "JS", "JH", "TD", "TC", "9D", "9C", "8S"]
    table = Table(goer(ASK_RULES, partner))
    table.apply(0, {"type": "draw"})
    table.apply(0, ASK)
    for level in LEVELS:
        assert play_turn(table.deal, 2, level=level, log=table.logs[2], seed=5) == [NO]


def twin_of(deal: Deal, seat: int) -> Deal:
    """The deal with other hidden cards (a rival's hand and the stock swap cards)."""
    data = deal.to_dict()
    seating = deal.seating
    other = next(s for s in seating.seats if seating.team_of(s) != seating.team_of(seat))
    hand, stock = data["hands"][other], data["stock"]
    data["hands"][other], data["stock"] = stock[: len(hand)], hand + stock[len(hand) :]
    twin = Deal.from_dict(data)
    assert twin.to_dict() != deal.to_dict() and twin.view(seat) == deal.view(seat)
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_house_decisions_depend_only_on_what_the_seat_sees(level: str) -> None:
    rules = Rules(ask_partner_to_go_out=True, double_going_out=True)
    table = Table(goer(rules, LAYER))
    table.apply(0, {"type": "draw"})
    kinds = []
    while table.deal.phase != "over":  # ask, answer, go out, lay down
        deal = table.deal
        seat = deal.to_act
        log = table.logs[seat]
        first = decide(deal.view(seat), log, rules=rules, level=level, seed=9)
        second = decide(twin_of(deal, seat).view(seat), log, rules=rules, level=level, seed=9)
        assert first == second
        table.apply(seat, first)
        kinds.append(first["type"])
    assert kinds[:2] == ["ask_to_go_out", "answer_go_out"] and kinds[-1] == "lay_down"


# ----------------------------------------------------------------------------- properties

HOUSE_RULES = st.sampled_from(
    [
        ASK_RULES,
        DOUBLE_RULES,
        ALL_HOUSE,
        Rules(
            ask_partner_to_go_out=True,
            double_going_out=True,
            wild_limit="half",
            concealed_out_skips_minimum=True,
            stock_out="classic",
        ),
    ]
)
HOUSE_SCORES = st.sampled_from([(0, 0), (5000, 1500), (3000, 5200), (-40, 5000)])


def house_random_action(rng: random.Random, hand: list[str]) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return ASK
    if kind == 1:
        return rng.choice([YES, NO])
    if kind == 2:
        return PASS
    if kind == 3 and hand:
        return {"type": "lay_down", "melds": [{"cards": rng.sample(hand, min(3, len(hand)))}]}
    return random_action(rng, hand)


def check_house_refusals(deal: Deal, rng: random.Random, tries: int) -> None:
    before = state(deal)
    seats = list(deal.seating.seats)
    for _ in range(tries):
        copy = Deal.from_dict(json.loads(before))
        seat = rng.choice([*seats, deal.to_act, deal.turn])
        action = house_random_action(rng, copy.view(seat)["hand"])
        try:
            copy.apply(seat, action)
        except IllegalMove as exc:
            assert exc.code in CONTRACT_CODES | HOUSE_CODES, exc.code
            assert state(copy) == before, f"refused {action!r} by seat {seat} changed the deal"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**48),
    play_seed=st.integers(0, 2**32),
    rules=HOUSE_RULES,
    scores=HOUSE_SCORES,
)
def test_house_rules_random_legal_play_ends_and_keeps_every_invariant(
    seed: int, play_seed: int, rules: Rules, scores: tuple[int, int]
) -> None:
    deal = Deal.new(rules, dealer=seed % 4, team_scores=scores, seed=seed)
    rng = random.Random(play_seed)
    steps = 0
    while deal.phase != "over":
        seat = deal.to_act
        actions = legal_actions(deal, seat)
        assert actions, f"no legal action for seat {seat} in {deal.phase}"
        for other in deal.seating.seats:
            if other != seat:
                assert legal_actions(deal, other) == []
        action = rng.choice(actions)
        if rng.random() < 0.5 and ASK in actions:
            action = ASK  # ask often: the question's paths are the point here
        deal.apply(seat, action)
        steps += 1
        check_counts(deal)
        check_round_trip(deal)
        if steps % 3 == 0:
            check_house_refusals(deal, rng, tries=4)
        if steps % 7 == 0 and deal.phase != "over":
            copy = Deal.from_dict(deal.to_dict())
            for auto in autoplay(copy, copy.to_act):
                copy.apply(copy.to_act, auto)
        assert steps < 3000, "the deal does not end"
    result = deal.result
    assert result is not None
    for line in result:
        parts = [key for key in line if key != "total"]
        assert line["total"] == sum(line[key] for key in parts)
        assert ("double_going_out" in line) == rules.double_going_out
    check_house_refusals(deal, rng, tries=6)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), rules=HOUSE_RULES, scores=HOUSE_SCORES)
def test_house_rules_bots_finish_every_deal_legally(
    seed: int, rules: Rules, scores: tuple[int, int]
) -> None:
    table = Table(Deal.new(rules, dealer=seed % 4, team_scores=scores, seed=seed))
    for step in range(400):
        if table.deal.phase == "over":
            break
        table.bot_turn("club" if step % 2 else "beginner", seed=seed + step)
    assert table.deal.phase == "over"
