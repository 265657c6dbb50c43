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

from games.engine import Deal, IllegalMove, Match, Rules, legal_actions
from games.engine.house import answering_partner, plan_to_go_out
from games.engine.preview import preview
from games.engine.state import DealState
from games.illegal_moves import MESSAGES, message
from games.players import LEVELS, autoplay, decide, play_turn, sight
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
from tests.players.bot_table import Table

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
KINGS_MELD: dict[str, Any] = {"cards": GOER[:7]}
REST_MELDS: list[dict[str, Any]] = [{"cards": ["QS", "QH", "2C"]}, {"rank": "K", "cards": ["JK"]}]
KINGS = {"type": "meld", "melds": [KINGS_MELD]}  # opens the side: then it may ask
REST = {"type": "meld", "melds": REST_MELDS}
GOING_OUT = {"type": "meld", "melds": [KINGS_MELD, *REST_MELDS]}
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
    deal.apply(0, KINGS)
    deal.apply(0, ASK)
    return deal


# ----------------------------------------------------------------------------- R-HOUSE-ASK


def test_R_HOUSE_ASK_the_question_waits_for_the_partner_who_alone_may_act() -> None:
    deal = goer(ASK_RULES)
    assert deal.view(0)["question"] is None and deal.view(0)["to_act"] == 0
    draw(deal, 0)
    deal.apply(0, KINGS)
    event = deal.apply(0, ASK)
    assert event["public"] == {"type": "ask_to_go_out", "seat": 0, "partner": 2}
    question = {"asker": 0, "partner": 2, "answer": None}
    for viewer in (0, 1, 2, 3, None):
        view = deal.view(viewer)
        assert view["question"] == question and view["to_act"] == 2 and view["turn"] == 0
    assert deal.to_act == 2 and deal.turn == 0
    refuse(deal, 0, REST, "awaiting_partner")
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
    strands = {"type": "meld", "melds": [{"rank": "K", "cards": ["2C", "JK"]}]}
    refuse(deal, 0, strands, "must_go_out")
    plan = legal_actions(deal, 0)[0]  # the whole going out comes first
    trial = Deal.from_dict(deal.to_dict())
    trial.apply(0, plan)
    assert trial.view(0)["hand"] == ["4D"]
    assert all(deal.is_legal(0, action) for action in legal_actions(deal, 0))
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["QS", "QH", "2C"]}]})  # still possible
    refuse(deal, 0, {"type": "discard", "card": "4D"}, "must_go_out")
    deal.apply(0, {"type": "meld", "melds": [{"rank": "K", "cards": ["JK"]}]})
    deal.apply(0, {"type": "discard", "card": "4D"})
    assert deal.phase == "over" and deal.view(0)["question"] is None
    assert deal.result is not None and deal.result[0]["going_out"] == 200  # concealed, R-OUT-3


def test_R_HOUSE_ASK_after_no_the_asker_may_not_go_out_this_turn_but_later() -> None:
    deal = asked()
    deal.apply(2, NO)
    refuse(deal, 0, REST, "may_not_go_out")  # it would leave one card: the discard
    offered = legal_actions(deal, 0)
    assert offered and all(deal.is_legal(0, action) for action in offered)
    assert REST not in offered
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["QS", "QH", "2C"]}]})  # keeps two
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
    assert ASK not in legal_actions(deal, 0)  # the side has not opened
    deal.apply(0, KINGS)
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
        ru, en = MESSAGES[code][""]
        assert ru and en
        assert message(IllegalMove(code), "en") == en


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


def test_R_HOUSE_DOUBLE_at_six_each_partner_acts_in_turn_after_the_next_partner_answered() -> None:
    rules = Rules(players=6, teams=2, ask_partner_to_go_out=True, double_going_out=True)
    kings_queens = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QH"]
    layer = ["JS", "JH", "JD", "JC", "TS", "TH", "TD", "TC", "9S", "9H", "9D", "9C", "9S"]
    deal = new_deal(
        rules=rules, dealer=5, team_scores=(0, 0), hands={0: kings_queens, 2: layer}, stock=["JK"]
    )
    draw(deal, 0)
    deal.apply(0, {"type": "meld", "melds": [{"cards": kings_queens[:7]}]})
    deal.apply(0, ASK)
    assert deal.view(3)["question"] == {"asker": 0, "partner": 2, "answer": None}
    refuse(deal, 4, YES, "not_your_turn")
    deal.apply(2, YES)
    second_canasta = {"type": "meld", "melds": [{"cards": [*kings_queens[7:], "JK"]}]}
    deal.apply(0, second_canasta)  # R-HOUSE-TWO at six: the second canasta, the whole hand
    assert deal.phase == "partner_out" and deal.to_act == 2
    refuse(deal, 4, PASS, "not_your_turn")
    deal.apply(2, legal_actions(deal, 2)[0])
    assert deal.phase == "partner_out" and deal.to_act == 4
    assert legal_actions(deal, 4)[-1] == PASS
    deal.apply(4, PASS)
    assert deal.phase == "over" and deal.result is not None
    assert deal.result[0]["double_going_out"] == 100
    assert deal.result[0]["hand"] == -sum(value(c) for c in deal.view(4)["hand"])


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


def kings_laid_before(rules: Rules) -> Deal:
    """GOER's position a turn later: its seven kings went down in an earlier turn (the side has
    opened); seat 0 holds QS QH 2C 4D, the partner LAYER, and JK is the next stock card."""
    data = goer(rules, LAYER).to_dict()
    data["hands"][0] = "".join(GOER[7:])
    data["melds"][0] = [["K", "".join(GOER[:7])]]
    data["opened"][0] = True
    data["melded"][0] = True
    return Deal.from_dict(data)


@pytest.mark.parametrize("level", LEVELS)
def test_bots_ask_answer_go_out_after_yes_and_lay_down(level: str) -> None:
    rules = Rules(ask_partner_to_go_out=True, double_going_out=True)
    table = Table(kings_laid_before(rules))
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
    table.apply(0, KINGS)
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
    table = Table(kings_laid_before(rules))
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
        Rules(ask_partner_to_go_out=True, double_going_out=True, canastas_to_go_out=2),
        Rules(players=6, teams=2, ask_partner_to_go_out=True, double_going_out=True),
        Rules(players=6, teams=3, ask_partner_to_go_out=True, canasta_opening_from_5000=True),
        Rules(players=6, teams=2, canasta_opening_from_5000=True, stock_out="classic"),
        Rules(players=2, canasta_opening_from_5000=True),
        Rules(players=3, canasta_opening_from_5000=True, wild_limit="half"),
    ]
)
# Team totals at the start of the deal, cut to the table's teams: 5,000 brings R-HOUSE-7500.
HOUSE_SCORES = st.sampled_from([(0, 0, 0), (5000, 1500, 0), (3000, 5200, 5000), (-40, 5000, 90)])


def house_deal(seed: int, rules: Rules, scores: tuple[int, ...]) -> Deal:
    teams = len(rules.seating.teams)
    return Deal.new(rules, dealer=seed % rules.players, team_scores=scores[:teams], seed=seed)


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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**48),
    play_seed=st.integers(0, 2**32),
    rules=HOUSE_RULES,
    scores=HOUSE_SCORES,
)
def test_house_rules_random_legal_play_ends_and_keeps_every_invariant(
    seed: int, play_seed: int, rules: Rules, scores: tuple[int, ...]
) -> None:
    deal = house_deal(seed, rules, scores)
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
    assert result is not None and len(result) == len(rules.seating.teams)
    for line in result:
        parts = [key for key in line if key != "total"]
        assert line["total"] == sum(line[key] for key in parts)
        assert ("double_going_out" in line) == rules.double_going_out
    check_house_refusals(deal, rng, tries=6)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), rules=HOUSE_RULES, scores=HOUSE_SCORES)
def test_house_rules_bots_finish_every_deal_legally(
    seed: int, rules: Rules, scores: tuple[int, ...]
) -> None:
    table = Table(house_deal(seed, rules, scores))
    for step in range(400):
        if table.deal.phase == "over":
            break
        table.bot_turn("club" if step % 2 else "beginner", seed=seed + step)
    assert table.deal.phase == "over"


def goes_out_by(deal: Deal, seat: int, plan: tuple[list[dict[str, Any]], str | None]) -> bool:
    """The plan, played on a copy, takes `seat` out."""
    copy = Deal.from_dict(deal.to_dict())
    entries, card = plan
    if entries:
        copy.apply(seat, {"type": "meld", "melds": entries})
    if card is not None:
        copy.apply(seat, {"type": "discard", "card": card})
    return copy.phase in ("over", "partner_out") and not copy.hands[seat]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), rules=HOUSE_RULES, scores=HOUSE_SCORES)
def test_R_HOUSE_ASK_the_going_out_search_is_sound_and_misses_no_going_out_of_a_bot(
    seed: int, rules: Rules, scores: tuple[int, ...]
) -> None:
    """Sound: whenever the search finds a going out, it goes out. Complete on the positions bots
    reach: every turn in which a player went out had a plan at each step after the draw."""
    plain = Rules(**{**rules.to_options(), "ask_partner_to_go_out": False})
    table = Table(house_deal(seed, plain, scores))
    turn: list[Deal] = []
    for step in range(400):
        deal = table.deal
        if deal.phase in ("over", "partner_out"):
            break
        seat = deal.turn
        if deal.phase == "draw":
            turn = []
        else:
            turn.append(Deal.from_dict(deal.to_dict()))
            plan = plan_to_go_out(deal, seat)
            if plan is not None:
                assert goes_out_by(deal, seat, plan)
        action = play_turn(deal, seat, level="club", log=table.logs[seat], seed=seed + step)[0]
        table.apply(seat, action)
        if not table.deal.hands[seat] and action["type"] != "take_pile":
            assert turn and all(plan_to_go_out(before, seat) is not None for before in turn)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48), rules=HOUSE_RULES, scores=HOUSE_SCORES)
def test_the_sight_rebuilt_at_a_house_table_is_what_the_seat_knows(
    seed: int, rules: Rules, scores: tuple[int, ...]
) -> None:
    table = Table(house_deal(seed, rules, scores))
    rng = random.Random(seed)
    while table.deal.phase != "over":
        deal = table.deal
        seat = deal.to_act
        world = sight(deal.view(seat), table.logs[seat], rules=rules).world(rng)
        assert world.view(seat) == deal.view(seat)
        real, rebuilt = deal.to_dict(), world.to_dict()
        if seat == deal.turn and deal.phase != "partner_out":  # its own turn so far
            for key in ("drew", "points", "undo_used", "opened_now"):
                assert rebuilt[key] == real[key], key
        if "house" in real:
            for key in ("asked", "question"):
                assert rebuilt["house"][key] == real["house"][key], key
            out, seen_out = real["house"]["out"], rebuilt["house"]["out"]
            assert (out is None) == (seen_out is None)
            if out is not None:
                assert seen_out["seat"] == out["seat"]
                assert seen_out["laid_down"] == out["laid_down"]
        actions = legal_actions(deal, seat)
        table.apply(seat, ASK if ASK in actions else rng.choice(actions))


def test_preview_judges_the_house_actions_as_apply_would() -> None:
    deal = goer(Rules(ask_partner_to_go_out=True, double_going_out=True), LAYER)
    draw(deal, 0)
    assert preview(deal, 0, ASK).code == "wrong_phase"  # not before the side has opened
    deal.apply(0, KINGS)
    assert preview(deal, 0, ASK).legal
    assert preview(deal, 2, YES).code == "not_your_turn"
    deal.apply(0, ASK)
    assert preview(deal, 0, REST).code == "awaiting_partner"
    assert preview(deal, 2, YES).legal
    deal.apply(2, YES)
    assert preview(deal, 0, {"type": "discard", "card": "4D"}).code == "must_go_out"
    deal.apply(0, REST)
    going_out = preview(deal, 0, {"type": "discard", "card": "4D"})
    assert going_out.legal and not going_out.deal_over  # the partner lays down first
    deal.apply(0, {"type": "discard", "card": "4D"})
    laying = preview(deal, 2, LAY_DOWN)
    assert laying.legal and laying.deal_over
    assert {change.rank for change in laying.melds} == {"Q", "J", "T"}


def test_a_whole_match_with_every_house_rule_reaches_7500() -> None:
    match = Match.new(ALL_HOUSE, first_dealer=0, seed=13)
    steps = 0
    while not match.over:
        deal = match.deal
        seat = deal.to_act
        for action in autoplay(deal, seat):
            match.apply(seat, action)
        steps += 1
        assert steps < 20_000
    assert max(match.scores) >= 7500
    assert all("double_going_out" in entry["result"][0] for entry in match.history)
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict()


@pytest.mark.parametrize("answer", [YES, NO])
def test_R_HOUSE_ASK_once_the_partner_is_asked_the_turns_melds_stand(answer: Any) -> None:
    deal = goer(ASK_RULES)
    draw(deal, 0)
    refuse(deal, 0, ASK, "wrong_phase")  # the side has not opened yet
    deal.apply(0, {"type": "meld", "melds": [{"cards": GOER[:7]}]})
    assert deal.view(0)["undo_available"] is True
    deal.apply(0, ASK)
    assert deal.view(0)["undo_available"] is False and not deal.undo_available(0)
    refuse(deal, 0, {"type": "undo"}, "awaiting_partner")
    deal.apply(2, answer)
    assert deal.view(0)["undo_available"] is False
    refuse(deal, 0, {"type": "undo"}, "undo_not_allowed")
    assert {"type": "undo"} not in legal_actions(deal, 0)


def test_R_HOUSE_ASK_holding_one_card_it_is_too_late_to_ask() -> None:
    # Seat 0 takes the one-card pile with its kings and holds one card: a no could not be kept.
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "QS", "QH", "QD", "2C", "4D"]
    deal = new_deal(rules=ASK_RULES, hands={0: hand}, upcards=["KD"])
    deal.apply(0, {"type": "take_pile", "cards": hand[:6], "melds": [{"cards": hand[6:10]}]})
    assert deal.view(0)["hand"] == ["4D"] and deal.view(0)["teams"][0]["opened"]
    refuse(deal, 0, ASK, "wrong_phase")
    assert ASK not in legal_actions(deal, 0)
