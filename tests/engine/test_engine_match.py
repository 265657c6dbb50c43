"""ENGINE's tests of Match: scores across deals, dealer rotation, the end (R-GAME-1/2)."""

import json

import pytest

from games.engine import Deal, Match, Rules, autoplay
from tests.engine.test_engine_rules import stacked

# Seat 0 (dealer 3) goes out concealed at once: seven queens + four aces, discard 9C.
GOING_OUT = {0: ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]}
GOING_OUT_ACTIONS = [
    {"type": "draw"},  # AC
    {"type": "meld", "melds": [{"cards": GOING_OUT[0][:7]}, {"cards": ["AS", "AH", "AD", "AC"]}]},
    {"type": "discard", "card": "9C"},
]


def _play_deal_with_autoplay(match: Match) -> dict:
    number = match.deal_number
    for _turn in range(500):
        seat = match.deal.turn
        for action in autoplay(match.deal, seat):
            event = match.apply(seat, action)
            if event["deal_over"]:
                assert match.history[-1]["number"] == number
                return event
    raise AssertionError("the deal did not end")


def _stacked_match(rules: Rules, scores: tuple[int, int]) -> Match:
    match = Match.new(rules, first_dealer=3, seed=11)
    match.scores = scores
    deck = stacked(hands=GOING_OUT, stock=["AC"])
    match.deal = Deal.new(rules, dealer=3, team_scores=scores, deck=deck)
    return match


def _deal_totals() -> tuple[int, int]:
    deal = Deal.new(Rules(), dealer=3, deck=stacked(hands=GOING_OUT, stock=["AC"]))
    for action in GOING_OUT_ACTIONS:
        deal.apply(0, action)
    assert deal.result is not None
    return deal.result[0]["total"], deal.result[1]["total"]


def test_r_game_2_single_deal_ends_the_match() -> None:
    match = Match.new(Rules(target=None), first_dealer=2, seed=5)
    assert match.deal.dealer == 2 and match.deal.turn == 3
    event = _play_deal_with_autoplay(match)
    assert match.over and match.deal_number == 1 and len(match.history) == 1
    first, second = match.scores
    assert event["result"] == match.history[0]["result"]
    assert match.winner == (None if first == second else (0 if first > second else 1))


def test_r_deal_1_dealer_rotates_and_the_minimum_follows_the_score() -> None:
    match = Match.new(Rules(), first_dealer=1, seed=99)
    _play_deal_with_autoplay(match)
    assert not match.over and match.deal_number == 2
    assert match.deal.dealer == 2 and match.deal.turn == 3
    assert match.deal.team_scores == match.scores == tuple(match.history[0]["scores_after"])
    assert match.deal.minimums == [Rules.opening_minimum(s) for s in match.scores]
    view = match.view(0)
    assert set(view) == {"deal", "deal_number", "scores", "history", "over", "winner", "last_deal"}
    assert "seed" not in view["history"][0]
    assert view["last_deal"] is not None and "hand" not in view["last_deal"]
    assert view["last_deal"]["result"] == match.history[0]["result"]


def test_match_seeds_are_derived_deterministically() -> None:
    one = Match.new(Rules(), first_dealer=0, seed=7)
    two = Match.new(Rules(), first_dealer=0, seed=7)
    assert one.to_dict() == two.to_dict()
    assert one.to_dict() != Match.new(Rules(), first_dealer=0, seed=8).to_dict()


def test_match_round_trips_through_json_mid_deal() -> None:
    match = Match.new(Rules(tie="extra_deal", target=2500), first_dealer=0, seed=3)
    _play_deal_with_autoplay(match)
    match.apply(match.deal.turn, {"type": "draw"})
    state = json.loads(json.dumps(match.to_dict()))
    copy = Match.from_dict(state)
    assert copy.to_dict() == match.to_dict() and copy.view(1) == match.view(1)


def test_r_game_1_reaching_the_target_wins() -> None:
    mine, theirs = _deal_totals()
    match = _stacked_match(Rules(), (5000 - mine, 0))
    for action in GOING_OUT_ACTIONS:
        event = match.apply(0, action)
    assert event["deal_over"] and match.over and match.winner == 0
    assert match.scores == (5000, theirs)


def test_r_game_1_below_the_target_deals_again() -> None:
    mine, _theirs = _deal_totals()
    match = _stacked_match(Rules(), (4990 - mine, 0))
    for action in GOING_OUT_ACTIONS:
        match.apply(0, action)
    assert not match.over and match.deal_number == 2 and match.deal.minimums[0] == 120


@pytest.mark.parametrize(("tie", "over"), [("draw", True), ("extra_deal", False)])
def test_r_game_1_equal_totals_draw_or_extra_deal(tie: str, over: bool) -> None:
    mine, theirs = _deal_totals()
    match = _stacked_match(Rules(tie=tie), (5200 - mine, 5200 - theirs))
    for action in GOING_OUT_ACTIONS:
        match.apply(0, action)
    assert match.scores == (5200, 5200)
    assert match.over is over and match.winner is None


def test_r_game_1_variant_target_2500() -> None:
    mine, _theirs = _deal_totals()
    match = _stacked_match(Rules(target=2500), (2500 - mine, 0))
    for action in GOING_OUT_ACTIONS:
        match.apply(0, action)
    assert match.over and match.winner == 0
