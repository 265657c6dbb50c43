"""ENGINE's tests of the view, persistence and strict action parsing (CONTRACT §2)."""

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, IllegalMove, Rules
from tests.engine.decks import OPENER, VIEW_KEYS, draw, meld, new_deal, refuse


def test_view_has_exactly_the_contract_shape() -> None:
    deal = Deal.new(Rules(), dealer=3, seed=5)
    view = deal.view(0)
    assert set(view) == VIEW_KEYS
    assert set(view["pile"]) == {"top", "count", "frozen"}
    for team in view["teams"]:
        assert set(team) == {"opened", "minimum", "red_threes", "melds"}
    assert view["seat"] == 0 and view["dealer"] == 3 and view["turn"] == 0
    assert len(view["hand"]) == view["hand_counts"][0]
    spectator = deal.view(None)
    assert set(spectator) == VIEW_KEYS - {"hand"} and spectator["seat"] is None
    json.dumps(view)


def test_view_never_shows_another_hand_the_stock_or_the_seed() -> None:
    deal = Deal.new(Rules(), dealer=3, seed=123456)
    text = json.dumps(deal.view(1))
    assert "123456" not in text
    state = deal.to_dict()
    for seat in (0, 2, 3):
        assert state["hands"][seat] not in text
    assert state["stock"][:8] not in text


def test_meld_view_marks_canastas() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]
    deal = new_deal(hands={0: hand})
    draw(deal, 0)
    meld(deal, 0, hand[:7], hand[7:10])
    team = deal.view(None)["teams"][0]
    assert team["opened"] is True
    assert team["melds"] == [
        {"rank": "Q", "cards": hand[:7], "canasta": "natural"},
        {"rank": "A", "cards": hand[7:10], "canasta": None},
    ]


def test_to_dict_round_trips_mid_turn_with_turn_local_state() -> None:
    deal = new_deal(hands={0: ["9S", "9H", "9D", "JK", "KS", "QH", "JD", "TC", "8S", "7H", "6D"]})
    draw(deal, 0)
    meld(deal, 0, ["9S", "9H", "9D"])  # 30 of 50: opening in progress, undo available
    state = deal.to_dict()
    assert json.loads(json.dumps(state)) == state
    copy = Deal.from_dict(json.loads(json.dumps(state)))
    assert copy.to_dict() == state and copy.view(0) == deal.view(0)
    for d in (deal, copy):
        refuse(d, 0, {"type": "discard", "card": "KS"}, "below_minimum")
        d.apply(0, {"type": "undo"})
        refuse(d, 0, {"type": "undo"}, "undo_not_allowed")
    assert copy.to_dict() == deal.to_dict()
    assert len(json.dumps(state, separators=(",", ":"))) < 4096


def test_seed_is_deterministic() -> None:
    assert (
        Deal.new(Rules(), dealer=0, seed=9).to_dict()
        == Deal.new(Rules(), dealer=0, seed=9).to_dict()
    )
    assert (
        Deal.new(Rules(), dealer=0, seed=9).to_dict()
        != Deal.new(Rules(), dealer=0, seed=10).to_dict()
    )


def test_rules_options_round_trip_and_refuse_bad_values() -> None:
    rules = Rules(
        wild_limit="half",
        upcard_stops_on_black_three=True,
        concealed_out_skips_minimum=True,
        stock_out="classic",
        tie="extra_deal",
        target=None,
    )
    assert Rules.from_options(json.loads(json.dumps(rules.to_options()))) == rules
    assert Rules.from_options({}) == Rules() and Rules().target == 5000
    for bad in (
        {"colour": 1},
        {"wild_limit": "loose"},
        {"target": 0},
        {"target": "5000"},
        {"tie": None},
        {"stock_out": 1},
        {"concealed_out_skips_minimum": "yes"},
    ):
        with pytest.raises(ValueError):
            Rules.from_options(bad)
    with pytest.raises(ValueError):
        Rules(wild_limit="loose")
    with pytest.raises(ValueError):
        Rules.from_options([])


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (None, "bad_action"),
        ([], "bad_action"),
        (5, "bad_action"),
        ("draw", "bad_action"),
        ({}, "bad_action"),
        ({"type": "fly"}, "bad_action"),
        ({"type": ["draw"]}, "bad_action"),
        ({"type": "draw", "card": "KS"}, "bad_action"),
        ({"type": "discard"}, "bad_action"),
        ({"type": "discard", "card": 7}, "bad_action"),
        ({"type": "discard", "card": "ZZ"}, "unknown_card"),
        ({"type": "discard", "card": "ks"}, "unknown_card"),
        ({"type": "meld", "melds": []}, "bad_action"),
        ({"type": "meld", "melds": {"cards": ["KS"]}}, "bad_action"),
        ({"type": "meld", "melds": [{"cards": []}]}, "bad_action"),
        ({"type": "meld", "melds": [{"cards": ["KS"], "x": 1}]}, "bad_action"),
        ({"type": "meld", "melds": [{"rank": ["K"], "cards": ["KS"]}]}, "bad_action"),
        ({"type": "meld", "melds": [{"rank": "2", "cards": ["2S"]}]}, "bad_action"),
        ({"type": "meld", "melds": [{"cards": [None]}]}, "bad_action"),
        ({"type": "meld", "melds": [{"cards": ["XX"]}]}, "unknown_card"),
        ({"type": "take_pile"}, "bad_action"),
        ({"type": "take_pile", "cards": "KS"}, "bad_action"),
        ({"type": "take_pile", "cards": [], "melds": None}, "bad_action"),
        ({"type": "undo", "now": True}, "bad_action"),
    ],
)
def test_bad_actions_are_refused_with_a_code(action: Any, code: str) -> None:
    deal = new_deal(hands={0: OPENER})
    refuse(deal, 0, action, code)


@pytest.mark.parametrize("seat", [None, "0", 4, -1, True, 1.0])
def test_bad_seats_are_refuse(seat: Any) -> None:
    refuse(new_deal(hands={0: OPENER}), seat, {"type": "draw"}, "bad_action")


def test_illegal_move_messages_in_both_languages() -> None:
    deal = new_deal(hands={0: OPENER})
    exc = refuse(deal, 1, {"type": "draw"}, "not_your_turn")
    assert str(exc) == exc.message("ru") == "Сейчас не ваш ход."
    assert exc.message("en") == "It is not your turn."


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["draw", "take_pile", "meld", "undo", "discard", "KS", "JK", "2C", "K"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["type", "cards", "melds", "rank", "card", "x"]), children, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=_json, seat=st.integers(-1, 4) | st.none(), drawn=st.booleans())
def test_any_json_raises_only_illegal_move_and_changes_nothing(
    action: Any, seat: Any, drawn: bool
) -> None:
    deal = new_deal(hands={0: OPENER})
    if drawn:
        draw(deal, 0)
    before = json.dumps(deal.to_dict())
    try:
        deal.apply(seat, action)
    except IllegalMove as exc:
        assert exc.code and str(exc)
        assert json.dumps(deal.to_dict()) == before
