"""British «Acaba» (R-ACABA-*) and the classic article's options (R-ART-*), seed 001, through the
public engine API with stacked decks; and the classic game unchanged by them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import Deal, IllegalMove, Rules, legal_actions
from tests.engine.decks import OPENER, build_deck, new_deal, state


def refused(deal: Deal, seat: int, action: dict[str, Any], code: str) -> None:
    before = state(deal)
    with pytest.raises(IllegalMove) as caught:
        deal.apply(seat, action)
    assert caught.value.code == code, caught.value
    assert state(deal) == before


# --- «Acaba» -------------------------------------------------------------------------------------


def test_r_acaba_1_the_deal_ends_and_the_other_side_scores_1500() -> None:
    deal = new_deal(rules=Rules(acaba=True))
    assert {"type": "acaba"} in legal_actions(deal, 0)
    deal.apply(0, {"type": "acaba"})
    assert deal.phase == "over"
    assert deal.result == [
        {"cards": 0, "canastas": 0, "red_threes": 0, "going_out": 0, "hand": 0, "acaba": 0,
         "total": 0},
        {"cards": 0, "canastas": 0, "red_threes": 0, "going_out": 0, "hand": 0, "acaba": 1500,
         "total": 1500},
    ]  # fmt: skip


def test_r_acaba_1_only_at_a_table_that_plays_it_and_only_on_turn() -> None:
    refused(new_deal(), 0, {"type": "acaba"}, "bad_action")
    refused(new_deal(), 0, {"type": "ask_acaba"}, "bad_action")
    deal = new_deal(rules=Rules(acaba=True))
    refused(deal, 1, {"type": "acaba"}, "not_your_turn")
    deal.apply(0, {"type": "draw"})
    deal.apply(0, {"type": "acaba"})  # in the play phase too
    assert deal.result is not None and deal.result[1]["total"] == 1500


def test_r_acaba_1_a_deal_scored_as_usual_carries_the_acaba_key() -> None:
    deal = new_deal(rules=Rules(acaba=True), stock_end=["KS"])
    data = deal.to_dict()
    data["stock"] = ""
    empty = Deal.from_dict(data)
    empty.apply(0, {"type": "draw"})  # R-END-2
    assert empty.result is not None
    assert [list(line)[-2:] for line in empty.result] == [["acaba", "total"]] * 2


def test_r_acaba_ask_the_partner_answers_and_the_answer_binds() -> None:
    deal = new_deal(rules=Rules(acaba=True))
    deal.apply(0, {"type": "ask_acaba"})
    assert deal.to_act == 2 and deal.view(0)["question"]["about"] == "acaba"
    refused(deal, 0, {"type": "draw"}, "awaiting_partner")
    assert legal_actions(deal, 2) == [
        {"type": "answer_go_out", "yes": True},
        {"type": "answer_go_out", "yes": False},
    ]
    deal.apply(2, {"type": "answer_go_out", "yes": True})
    refused(deal, 0, {"type": "draw"}, "must_go_out")
    assert legal_actions(deal, 0) == [{"type": "acaba"}]
    deal.apply(0, {"type": "acaba"})
    assert deal.result is not None and deal.result[1]["acaba"] == 1500

    deal = new_deal(rules=Rules(acaba=True))
    deal.apply(0, {"type": "ask_acaba"})
    deal.apply(2, {"type": "answer_go_out", "yes": False})
    refused(deal, 0, {"type": "acaba"}, "may_not_go_out")
    assert {"type": "acaba"} not in legal_actions(deal, 0)
    deal.apply(0, {"type": "draw"})
    refused(deal, 0, {"type": "ask_acaba"}, "wrong_phase")  # once per deal


def test_r_acaba_ask_round_trips_and_needs_a_partner() -> None:
    deal = new_deal(rules=Rules(acaba=True))
    deal.apply(0, {"type": "ask_acaba"})
    text = json.dumps(deal.to_dict())
    assert json.dumps(Deal.from_dict(json.loads(text)).to_dict()) == text
    alone = Deal.new(Rules(players=2, acaba=True), dealer=1, seed=3)
    refused(alone, 0, {"type": "ask_acaba"}, "bad_action")
    assert {"type": "ask_acaba"} not in legal_actions(alone, 0)


# --- the classic article's options ------------------------------------------------------------


def test_r_art_12_twelve_cards_each_at_four() -> None:
    rules = Rules(hand_of_twelve=True)
    deck = build_deck(rules=rules)
    deal = Deal.new(rules, dealer=3, deck=deck)
    assert deal.view(0)["hand_counts"] == [12, 12, 12, 12]
    assert deal.view(None)["pile"]["top"] == deck[48]
    with pytest.raises(ValueError):
        Rules(hand_of_twelve=True, players=2)


def test_r_art_canasta_a_canasta_from_the_hand_opens_whatever_the_minimum() -> None:
    kings = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
    hand = [*kings, "9S", "8H", "7D", "6C"]
    plain = new_deal(team_scores=(3000, 0), hands={0: hand})
    plain.apply(0, {"type": "draw"})
    plain.apply(0, {"type": "meld", "melds": [{"cards": kings}]})  # 70 of 120: not open
    refused(plain, 0, {"type": "discard", "card": "9S"}, "below_minimum")
    deal = new_deal(rules=Rules(canasta_in_hand_opens=True), team_scores=(3000, 0), hands={0: hand})
    deal.apply(0, {"type": "draw"})
    deal.apply(0, {"type": "meld", "melds": [{"cards": kings}]})
    assert deal.view(None)["teams"][0]["opened"]
    deal.apply(0, {"type": "discard", "card": "9S"})


def test_r_art_7000_minimums() -> None:
    rules = Rules(target=7000, minimums_7000=True)
    expected = {-5: 15, 0: 50, 1495: 50, 1500: 70, 2995: 70, 3000: 90, 4995: 90, 5000: 120}
    assert {score: rules.opening_minimum(score) for score in expected} == expected
    assert Rules(target=7000).opening_minimum(1500) == 90  # the club's table at 7000
    with pytest.raises(ValueError):
        Rules(minimums_7000=True)  # the option is the game to 7000


def test_r_art_red_red_threes_count_for_the_side_that_went_out_and_against_the_other() -> None:
    for option, expected in (("club", (100, 100)), ("going_out", (100, -100))):
        rules = Rules(red_threes=option)
        deal = new_deal(rules=rules, hands={0: OPENER}, stock=["9H"])
        data = deal.to_dict()
        data["red"] = ["3H", "3D"]
        data["melds"] = [[["Q", "QSQHQDQCQSQH2C"]], [["J", "JSJHJD"]]]
        data["opened"] = [True, True]
        data["hands"][0] = "9S"
        data["phase"] = "play"
        going = Deal.from_dict(data)
        going.apply(0, {"type": "discard", "card": "9S"})
        assert going.result is not None
        assert tuple(line["red_threes"] for line in going.result) == expected


# --- the classic game unchanged ------------------------------------------------------------------


def test_classic_rules_and_state_keep_their_keys() -> None:
    options = Rules().to_options()
    for name in ("game", "acaba", "hand_of_twelve", "canasta_in_hand_opens", "minimums_7000"):
        assert name not in options
    assert "red_threes" not in options
    assert Rules.from_options(options) == Rules()
    assert Rules.from_options(Rules(acaba=True).to_options()) == Rules(acaba=True)
    deal = new_deal(hands={0: OPENER})
    deal.apply(0, {"type": "draw"})
    deal.apply(
        0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}, {"cards": OPENER[3:6]}]}
    )
    assert all(
        set(meld) == {"rank", "cards", "canasta"} for meld in deal.view(None)["teams"][0]["melds"]
    )
    assert "question" not in deal.view(0) and "to_act" not in deal.view(0)


def test_classic_accepts_a_meld_named_by_its_index() -> None:
    deal = new_deal(hands={0: [*OPENER[:10], "KC"]})
    deal.apply(0, {"type": "draw"})
    deal.apply(
        0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}, {"cards": OPENER[3:6]}]}
    )
    deal.apply(0, {"type": "meld", "melds": [{"meld": 0, "cards": ["KC"]}]})
    assert len(deal.view(None)["teams"][0]["melds"][0]["cards"]) == 4
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 1, "cards": ["9S"]}]}, "mixed_ranks")
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 5, "cards": ["9S"]}]}, "bad_action")
    refused(
        deal,
        0,
        {"type": "meld", "melds": [{"meld": 0, "rank": "K", "cards": ["9S"]}]},
        "bad_action",
    )
