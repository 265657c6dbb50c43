"""CONTRACT §2 shapes: the view and hidden information, events, malformed actions."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, IllegalMove, Rules
from games.illegal_moves import words
from games.players import autoplay
from tests.engine.decks import (
    MELD_KEYS,
    OPENER,
    TEAM_KEYS,
    VIEW_KEYS,
    assert_view_hides_others,
    draw,
    iter_card_codes,
    meld,
    new_deal,
    public_cards,
    refuse,
    state,
)


def test_view_has_exactly_the_contract_keys() -> None:
    # CONTRACT §2 View
    deal = Deal.new(Rules(), dealer=3, team_scores=(0, 0), seed=8)
    view = deal.view(0)
    assert set(view) == VIEW_KEYS
    assert view["seat"] == 0 and view["dealer"] == 3 and view["turn"] == 0
    assert view["phase"] == "draw"
    assert set(view["pile"]) == {"top", "count", "frozen"}
    assert len(view["teams"]) == 2 and all(set(t) == TEAM_KEYS for t in view["teams"])
    assert view["undo_available"] is False and view["result"] is None
    assert isinstance(view["hand_counts"], list) and len(view["hand_counts"]) == 4
    spectator = deal.view(None)
    assert set(spectator) == VIEW_KEYS - {"hand"}
    assert spectator["seat"] is None


def test_view_melds_have_the_contract_shape() -> None:
    # CONTRACT §2 View: melds {"rank", "cards", "canasta"}
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: ["KH", "KS", "KD", "2C", "QH", "QS", "QD", "9C", "8D", "7H", "6S"]},
        upcards=["4D"],
        stock=["5C"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD", "2C"], ["QH", "QS", "QD"])
    for team in deal.view(None)["teams"]:
        for meld_view in team["melds"]:
            assert set(meld_view) == MELD_KEYS
            assert meld_view["canasta"] is None
    ranks = {m["rank"] for m in deal.view(None)["teams"][0]["melds"]}
    assert ranks == {"K", "Q"}


def test_view_melds_in_the_order_laid_with_their_canasta() -> None:
    # CONTRACT §2 View: a team's melds, cards as laid, natural canasta or none
    hand0 = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]
    deal = new_deal(hands={0: hand0})
    draw(deal, 0)
    meld(deal, 0, hand0[:7], hand0[7:10])
    team = deal.view(None)["teams"][0]
    assert team["opened"] is True
    assert team["melds"] == [
        {"rank": "Q", "cards": hand0[:7], "canasta": "natural"},
        {"rank": "A", "cards": hand0[7:10], "canasta": None},
    ]


def test_view_shows_only_the_own_hand_in_play() -> None:
    # CONTRACT §2: what that seat may see; no other hand, no stock order, no seed
    seed = 987_654_321
    deal = Deal.new(Rules(), dealer=1, team_scores=(0, 0), seed=seed)
    for _ in range(40):
        assert_view_hides_others(deal)
        for viewer in (0, 1, 2, 3, None):
            assert str(seed) not in json.dumps(deal.view(viewer))
        if deal.phase == "over":
            break
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
            assert_view_hides_others(deal)


def test_view_at_the_end_still_hides_other_hands() -> None:
    # CONTRACT §2: hands are not revealed by the view, not even when the deal is over
    deal = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=77)
    while deal.phase != "over":
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
    assert_view_hides_others(deal)


def test_spectator_view_has_no_hand() -> None:
    # CONTRACT §2: "hand is absent for a spectator"
    deal = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=3)
    spectator = deal.view(None)
    assert "hand" not in spectator
    hands = [Counter(deal.view(s)["hand"]) for s in range(4)]
    codes = Counter(iter_card_codes(spectator))
    assert codes <= public_cards(spectator)
    assert all(not (hand <= codes) for hand in hands if hand)


def test_events_keep_drawn_cards_private() -> None:
    # interfaces.md apply(): "private" for the acting seat (drawn cards, replacements),
    # "public" for everyone
    deal = new_deal(
        upcards=["9C"], stock=["3H", "QD"], hands={0: ["KH"] * 2 + ["KS"] * 2 + ["TC"] * 2}
    )
    event = deal.apply(0, {"type": "draw"})
    assert set(event) >= {"public", "private"}
    assert "QD" not in json.dumps(event["public"])
    assert "QD" in json.dumps(event["private"])
    assert "QD" not in json.dumps(deal.view(1)) and "QD" not in json.dumps(deal.view(None))
    event = deal.apply(0, {"type": "discard", "card": "TC"})
    assert "TC" in json.dumps(event["public"])


# --- malformed actions: IllegalMove, never another exception ------------------------------------

JUNK_ACTIONS: list[Any] = [
    None,
    42,
    "draw",
    ["draw"],
    {},
    {"type": None},
    {"type": 7},
    {"type": "fly"},
    {"type": "DRAW"},
    {"kind": "draw"},
]
PLAY_PHASE_JUNK: list[Any] = [
    {"type": "discard"},
    {"type": "discard", "card": None},
    {"type": "discard", "card": ["KH"]},
    {"type": "discard", "card": {"code": "KH"}},
    {"type": "meld"},
    {"type": "meld", "melds": None},
    {"type": "meld", "melds": "KH KS KD"},
    {"type": "meld", "melds": {"cards": ["KH", "KS", "KD"]}},
    {"type": "meld", "melds": [["KH", "KS", "KD"]]},
    {"type": "meld", "melds": [{"cards": "KHKSKD"}]},
    {"type": "meld", "melds": [{"cards": None}]},
    {"type": "meld", "melds": [{}]},
    {"type": "meld", "melds": [{"cards": [1, 2, 3]}]},
    {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"], "rank": 13}]},
]
DRAW_PHASE_JUNK: list[Any] = [
    {"type": "take_pile"},
    {"type": "take_pile", "cards": None},
    {"type": "take_pile", "cards": "KHKS"},
    {"type": "take_pile", "cards": [None]},
    {"type": "take_pile", "cards": [], "melds": "x"},
    {"type": "take_pile", "cards": [], "melds": [7]},
]


def _deal_in_phase(phase: str) -> Deal:
    deal = new_deal(
        hands={0: ["KH", "KS", "KD", "QH", "QS", "9C", "8D", "7H", "6S", "5C", "TD"]},
        upcards=["4D"],
        stock=["JC"],
    )
    if phase == "play":
        draw(deal, 0)
    return deal


@pytest.mark.parametrize("action", JUNK_ACTIONS, ids=repr)
@pytest.mark.parametrize("phase", ["draw", "play"])
def test_contract_junk_action_is_bad_action(phase: str, action: Any) -> None:
    # CONTRACT §2: `bad_action` for an action that is not one of the forms
    refuse(_deal_in_phase(phase), 0, action, "bad_action")


@pytest.mark.parametrize("action", PLAY_PHASE_JUNK, ids=repr)
def test_contract_malformed_meld_or_discard_is_bad_action(action: Any) -> None:
    # CONTRACT §2
    refuse(_deal_in_phase("play"), 0, action, {"bad_action", "unknown_card"})


@pytest.mark.parametrize("action", DRAW_PHASE_JUNK, ids=repr)
def test_contract_malformed_take_pile_is_bad_action(action: Any) -> None:
    # CONTRACT §2
    refuse(_deal_in_phase("draw"), 0, action, {"bad_action", "unknown_card"})


@pytest.mark.parametrize("card", ["ZZ", "1H", "KX", "kh", "K", "KHS", "", "10H", "jk", " KH"])
def test_contract_unknown_card_codes(card: str) -> None:
    # CONTRACT §1/§2: a string that is no card code is `unknown_card`
    deal = _deal_in_phase("play")
    refuse(deal, 0, {"type": "discard", "card": card}, "unknown_card")
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS", card]}]}, "unknown_card")
    deal = _deal_in_phase("draw")
    refuse(deal, 0, {"type": "take_pile", "cards": [card, "4S"]}, "unknown_card")


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
    ids=repr,
)
def test_contract_bad_actions_are_refused_with_their_code(action: Any, code: str) -> None:
    # CONTRACT §2: the form is checked before the turn and phase
    refuse(new_deal(hands={0: OPENER}), 0, action, code)


@pytest.mark.parametrize("seat", [4, -1, 7, "0", None, 0.0, 1.0, True])
def test_contract_bad_seat_is_refused(seat: Any) -> None:
    # CONTRACT §2: refused with IllegalMove, deal unchanged, whatever the seat argument; a seat
    # that is no int is bad even when it equals the mover's (seat 1, dealer 0)
    deal = new_deal(dealer=0, upcards=["4D"])
    refuse(deal, seat, {"type": "draw"}, "bad_action")


def test_contract_illegal_move_messages() -> None:
    # CONTRACT §2: str(exc) is a human message, the code's gloss; the club's catalogue words
    # the refusal for players in Russian and English (games/engine/README.md)
    deal = _deal_in_phase("draw")
    exc = refuse(deal, 1, {"type": "draw"}, "not_your_turn")
    assert str(exc) == "not_your_turn: it is not this seat's turn"
    assert words(exc) == ("Сейчас не ваш ход.", "It is not your turn.")


def test_contract_to_dict_from_dict_round_trip() -> None:
    # CONTRACT §2: exact round trip, JSON-safe
    deal = Deal.new(Rules(wild_limit="half"), dealer=2, team_scores=(1500, -20), seed=5)
    for _ in range(30):
        data = deal.to_dict()
        copy = Deal.from_dict(json.loads(json.dumps(data)))
        assert copy.to_dict() == data and state(copy) == state(deal)
        assert [copy.view(s) for s in (0, 1, 2, 3, None)] == [
            deal.view(s) for s in (0, 1, 2, 3, None)
        ]
        if deal.phase == "over":
            break
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)


def test_contract_round_trip_mid_turn_keeps_the_turn_so_far() -> None:
    # CONTRACT §2: an opening in progress (30 of 50, undo available) survives the round trip,
    # and the copy then refuses and allows exactly what the original does; the state is small
    deal = new_deal(hands={0: ["9S", "9H", "9D", "JK", "KS", "QH", "JD", "TC", "8S", "7H", "6D"]})
    draw(deal, 0)
    meld(deal, 0, ["9S", "9H", "9D"])
    data = deal.to_dict()
    assert json.loads(json.dumps(data)) == data
    copy = Deal.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data and copy.view(0) == deal.view(0)
    for each in (deal, copy):
        refuse(each, 0, {"type": "discard", "card": "KS"}, "below_minimum")
        each.apply(0, {"type": "undo"})
        refuse(each, 0, {"type": "undo"}, "undo_not_allowed")
    assert copy.to_dict() == deal.to_dict()
    assert len(json.dumps(data, separators=(",", ":"))) < 4096


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
def test_contract_any_json_raises_only_illegal_move_and_changes_nothing(
    action: Any, seat: Any, drawn: bool
) -> None:
    # CONTRACT §2: whatever JSON arrives, IllegalMove or a legal move, never another exception
    deal = new_deal(hands={0: OPENER})
    if drawn:
        draw(deal, 0)
    before = state(deal)
    try:
        deal.apply(seat, action)
    except IllegalMove as exc:
        assert exc.code and str(exc)
        assert state(deal) == before


def test_contract_refused_action_leaves_copy_and_original_equal() -> None:
    # CONTRACT §2: "raises IllegalMove and leaves the deal unchanged"
    deal = _deal_in_phase("play")
    meld(deal, 0, ["KH", "KS", "KD"])
    refuse(deal, 0, {"type": "discard", "card": "9C"}, "below_minimum")
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["QH", "QS", "QS"]}]}, "card_not_in_hand")
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["QH", "QS", "9C"]}]}, "mixed_ranks")
