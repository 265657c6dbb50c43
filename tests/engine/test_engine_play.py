"""ENGINE's random-play checks: legal_actions, the players' autoplay (the beginner's turn) and
whole deals through the public API."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, IllegalMove, Rules, legal_actions
from games.engine.cards import full_deck
from games.players import autoplay
from tests.engine.decks import all_cards, draw, meld, new_deal

VARIANTS = [
    Rules(),
    Rules(wild_limit="half", upcard_stops_on_black_three=True),
    Rules(concealed_out_skips_minimum=True, stock_out="classic"),
]
FULL = Counter(full_deck())


def _finish_turn_with_autoplay(deal: Deal) -> None:
    seat = deal.turn
    before = json.dumps(deal.to_dict())
    actions = autoplay(deal, seat)
    assert json.dumps(deal.to_dict()) == before, "autoplay changed the deal"
    assert actions, "autoplay returned nothing"
    for action in actions:
        deal.apply(seat, action)
    assert deal.phase == "over" or (deal.turn != seat and deal.phase == "draw")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(VARIANTS), data=st.data())
def test_random_legal_play_keeps_every_card_and_round_trips(
    seed: int, variant: Rules, data: st.DataObject
) -> None:
    deal = Deal.new(variant, dealer=seed % 4, team_scores=(seed % 3000 - 500, 0), seed=seed)
    rnd = random.Random(seed)
    for _step in range(3000):
        if deal.phase == "over":
            break
        seat = deal.turn
        actions = legal_actions(deal, seat)
        assert actions, "no legal action"
        assert legal_actions(deal, (seat + 1) % 4) == []
        if rnd.random() < 0.05:
            _finish_turn_with_autoplay(deal)  # from wherever the turn stands
        else:
            deal.apply(seat, rnd.choice(actions))
        assert all_cards(deal) == FULL
        state = deal.to_dict()
        assert Deal.from_dict(json.loads(json.dumps(state))).to_dict() == state
    assert deal.phase == "over" and deal.result is not None
    for line in deal.result:
        parts = ("cards", "canastas", "red_threes", "going_out", "hand")
        assert line["total"] == sum(line[key] for key in parts) and line["hand"] <= 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(VARIANTS))
def test_autoplay_alone_finishes_every_turn_of_a_deal(seed: int, variant: Rules) -> None:
    deal = Deal.new(variant, dealer=seed % 4, seed=seed)
    for _turn in range(400):
        if deal.phase == "over":
            break
        _finish_turn_with_autoplay(deal)
    assert deal.phase == "over"


def test_autoplay_completes_an_opening_below_the_minimum_or_undoes() -> None:
    # 9S 9H 9D laid (30 of 50) with JK in hand: autoplay completes the minimum.
    deal = new_deal(hands={0: ["9S", "9H", "9D", "JK", "KS", "QH", "JD", "TC", "8S", "7H", "6D"]})
    draw(deal, 0)
    meld(deal, 0, ["9S", "9H", "9D"])
    actions = autoplay(deal, 0)
    assert actions[0]["type"] == "meld" and actions[-1]["type"] == "discard"
    _finish_turn_with_autoplay(deal)
    assert deal.view(None)["teams"][0]["opened"] is True
    # 4S 4H 4D laid (15 of 50) and nothing else melds: autoplay undoes, then discards.
    deal = new_deal(hands={0: ["4S", "4H", "4D", "KS", "QH", "JD", "TC", "8S", "7H", "6D", "5C"]})
    draw(deal, 0)
    meld(deal, 0, ["4S", "4H", "4D"])
    assert [a["type"] for a in autoplay(deal, 0)] == ["undo", "discard"]


def test_autoplay_after_an_undo_completes_the_reachable_minimum() -> None:
    hand = ["KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "2C", "8C", "7S"]
    deal = new_deal(hands={0: hand}, stock=["6C"])
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KS", "KH", "KD"])  # 30, undo used, the queens can still open
    _finish_turn_with_autoplay(deal)
    assert deal.view(None)["teams"][0]["opened"] is True


def test_legal_actions_list_draw_takes_and_every_discard() -> None:
    hand = ["KS", "KH", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new_deal(hands={0: hand}, upcards=["KC"])
    actions = legal_actions(deal, 0)
    assert {"type": "draw"} in actions
    takes = [a for a in actions if a["type"] == "take_pile"]
    assert takes and all(a["cards"] == ["KS", "KH"] for a in takes)
    for action in actions:
        deal.check(0, action)
    draw(deal, 0)
    discards = {a["card"] for a in legal_actions(deal, 0) if a["type"] == "discard"}
    assert discards == set(deal.view(0)["hand"])
    assert legal_actions(deal, 1) == []


def test_autoplay_is_empty_for_another_seat_or_a_finished_deal() -> None:
    deal = new_deal()
    assert autoplay(deal, 1) == []
    try:
        deal.apply(1, {"type": "draw"})
    except IllegalMove as exc:
        assert exc.code == "not_your_turn"
