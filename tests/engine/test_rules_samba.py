"""Samba and Bolivia (games/engine/README.md, R-SAMBA-*, R-BOL-*) with stacked decks of 162 cards,
through the public engine API only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import Deal, IllegalMove, Rules, legal_actions
from tests.engine.decks import SIX_HANDED_DECK, build_deck, new_deal, state

SAMBA = Rules(game="samba")
BOLIVIA = Rules(game="bolivia")
LOW = (-10, -10)  # a minimum of 15: any meld opens (R-OPEN-1)
# Quiet fillers for seats 0, 1 and 2 (no pair, no run among them; no copy used four times).
FILLS = (
    ["9S", "8D", "7C", "6S", "5D", "4C", "QH", "JD", "TC"],
    ["9D", "8C", "7S", "6D", "5C", "4S", "QC", "JH", "TS"],
    ["9C", "8S", "7D", "6C", "5S", "4D", "QS", "JC", "TH"],
)


def hand_of(*cards: str, seat: int = 0) -> list[str]:
    """Fifteen cards: `cards`, then quiet fillers."""
    return [*cards, *FILLS[seat]][:15]


def refused(deal: Deal, seat: int, action: dict[str, Any], code: str) -> None:
    before = state(deal)
    with pytest.raises(IllegalMove) as caught:
        deal.apply(seat, action)
    assert caught.value.code == code, caught.value
    assert state(deal) == before


def melds(deal: Deal, team: int = 0) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = deal.view(None)["teams"][team]["melds"]
    return found


def drawn(rules: Rules, *, hand: list[str], stock: Sequence[str] = (), **kwargs: Any) -> Deal:
    """Seat 0's turn after its draw of two (dealer 3)."""
    deal = new_deal(rules=rules, team_scores=LOW, hands={0: hand}, stock=stock, **kwargs)
    deal.apply(0, {"type": "draw"})
    return deal


# --- cards, deal, draw ---------------------------------------------------------------------------


def test_r_samba_cards_three_packs_fifteen_cards_and_four_players_only() -> None:
    deal = Deal.new(SAMBA, dealer=3, seed=7)
    view = deal.view(0)
    assert len(view["hand"]) == 15 and view["hand_counts"] == [15, 15, 15, 15]
    assert SAMBA.target == 10_000 and BOLIVIA.target == 15_000
    assert SAMBA.packs == 3 and SAMBA.canastas_to_go_out == 2
    with pytest.raises(ValueError):
        Deal.new(SAMBA, dealer=3, deck=build_deck(rules=Rules()))
    Deal.new(SAMBA, dealer=3, deck=list(SIX_HANDED_DECK))
    for options in ({"players": 2}, {"wild_limit": "half"}, {"acaba": True}, {"target": 20_000}):
        with pytest.raises(ValueError):
            Rules(game="samba", **options)


def test_r_samba_deal_stacked_order_deals_fifteen_rounds_then_the_upcard() -> None:
    deck = build_deck(rules=SAMBA, hands={0: hand_of("AS", "AH", "AD")}, upcards=["KC"])
    assert deck[60] == "KC"
    deal = Deal.new(SAMBA, dealer=3, deck=deck)
    assert deal.view(None)["pile"]["top"] == "KC"
    dealt = deal.view(0)["hand"]
    assert len(dealt) == 15 and all(card in dealt for card in hand_of("AS", "AH", "AD"))


def test_r_samba_draw_takes_two_cards() -> None:
    deal = drawn(SAMBA, hand=hand_of(), stock=["KH", "QS"])
    assert len(deal.view(0)["hand"]) == 17
    assert {"KH", "QS"} <= set(deal.view(0)["hand"])


# --- sequences -----------------------------------------------------------------------------------


def test_r_samba_seq_a_run_of_one_suit_is_a_sequence_shown_low_to_high() -> None:
    deal = drawn(SAMBA, hand=hand_of("7H", "5H", "6H"))
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["7H", "5H", "6H"]}]})
    assert melds(deal) == [
        {
            "rank": None,
            "kind": "sequence",
            "suit": "H",
            "cards": ["5H", "6H", "7H"],
            "canasta": None,
        }
    ]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (["5H", "6H", "8H"], "mixed_ranks"),  # a gap
        (["5H", "6H", "7S"], "mixed_ranks"),  # two suits
        (["5H", "6H", "2C"], "too_many_wilds"),  # no wild in a sequence
        (["3S", "4S", "5S"], "threes_not_allowed"),  # threes are not naturals
        (["KH", "AH", "2H"], "too_many_wilds"),  # A is high: no 2 after it, and 2 is wild
    ],
)
def test_r_samba_seq_refuses_broken_runs_and_wilds(cards: list[str], code: str) -> None:
    deal = drawn(SAMBA, hand=hand_of(*cards))
    refused(deal, 0, {"type": "meld", "melds": [{"cards": cards}]}, code)


def test_r_samba_seq_joins_at_either_end_and_closes_at_seven_as_a_samba() -> None:
    deal = drawn(SAMBA, hand=hand_of("7D", "8D", "9D", "6D", "TD", "JD", "5D", "QD"))
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["7D", "8D", "9D"]}]})
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 0, "cards": ["JD"]}]}, "mixed_ranks")
    deal.apply(0, {"type": "meld", "melds": [{"meld": 0, "cards": ["6D", "TD", "JD", "5D"]}]})
    meld = melds(deal)[0]
    assert meld["cards"] == ["5D", "6D", "7D", "8D", "9D", "TD", "JD"]
    assert meld["canasta"] == "samba"
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 0, "cards": ["QD"]}]}, "meld_closed")


def test_r_samba_seq_a_run_longer_than_seven_is_refused() -> None:
    run = ["4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC"]
    deal = drawn(SAMBA, hand=hand_of(*run, "KS", "KH", "KD"))
    refused(deal, 0, {"type": "meld", "melds": [{"cards": run}]}, "meld_closed")


# --- groups and entries --------------------------------------------------------------------------


def test_r_samba_group_two_groups_of_one_rank_and_at_most_two_wilds() -> None:
    deal = drawn(SAMBA, hand=hand_of("KS", "KH", "KD", "KC", "KS", "KH", "2C", "JK", "2D"))
    deal.apply(
        0,
        {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}, {"cards": ["KC", "KS", "KH"]}]},
    )
    assert [m["rank"] for m in melds(deal)] == ["K", "K"]
    deal.apply(0, {"type": "meld", "melds": [{"meld": 1, "cards": ["2C", "JK"]}]})
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 1, "cards": ["2D"]}]}, "too_many_wilds")


def test_r_samba_group_no_wild_joins_a_canasta_but_naturals_do() -> None:
    deal = drawn(SAMBA, hand=hand_of("QS", "QH", "QD", "QC", "QS", "QH", "QD", "QC", "2S"))
    deal.apply(
        0, {"type": "meld", "melds": [{"cards": ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]}]}
    )
    assert melds(deal)[0]["canasta"] == "natural"
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 0, "cards": ["2S"]}]}, "too_many_wilds")
    deal.apply(0, {"type": "meld", "melds": [{"meld": 0, "cards": ["QC"]}]})
    assert len(melds(deal)[0]["cards"]) == 8


def test_r_samba_group_needs_two_naturals() -> None:
    deal = drawn(SAMBA, hand=hand_of("KS", "2C", "JK"))
    refused(deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "2C", "JK"]}]}, "too_many_wilds")


def test_r_samba_entry_a_lone_wild_names_its_meld_and_the_meld_must_exist() -> None:
    deal = drawn(SAMBA, hand=hand_of("KS", "KH", "KD", "2C"))
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]})
    refused(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2C"]}]}, "wild_only")
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 3, "cards": ["2C"]}]}, "bad_action")
    deal.apply(0, {"type": "meld", "melds": [{"meld": 0, "cards": ["2C"]}]})
    assert melds(deal)[0]["cards"] == ["KS", "KH", "KD", "2C"]


# --- the pile ------------------------------------------------------------------------------------


def opened_deal(rules: Rules, *, upcards: list[str], hand: list[str]) -> Deal:
    """Seat 0 opened with 9S 9H 9D and 5H 6H 7H in the first turn; seat 2 (its partner) is on
    turn with `hand` after seats 0 and 1 discarded; `upcards[-1]` is the card seat 1 discards."""
    top = upcards[-1]
    deal = new_deal(
        rules=rules,
        team_scores=LOW,
        hands={
            0: hand_of("9S", "9H", "9D", "5H", "6H", "7H", "KC"),
            1: hand_of(top, seat=1),
            2: hand,
        },
        upcards=["QC"],
        stock=["AS", "AH", "AD", "AC"],
    )
    deal.apply(0, {"type": "draw"})
    deal.apply(
        0, {"type": "meld", "melds": [{"cards": ["9S", "9H", "9D"]}, {"cards": ["5H", "6H", "7H"]}]}
    )
    deal.apply(0, {"type": "discard", "card": "KC"})
    deal.apply(1, {"type": "draw"})
    deal.apply(1, {"type": "discard", "card": top})
    return deal


def test_r_samba_pile_the_top_card_alone_joins_a_group_or_extends_a_sequence() -> None:
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of(seat=2))
    assert {"type": "take_pile", "cards": [], "meld": 0} in legal_actions(deal, 2)
    deal.apply(2, {"type": "take_pile", "cards": [], "meld": 0})
    assert len(melds(deal)[0]["cards"]) == 4
    deal = opened_deal(SAMBA, upcards=["8H"], hand=hand_of(seat=2))
    refused(deal, 2, {"type": "take_pile", "cards": [], "meld": 0}, "cannot_take_pile")
    deal.apply(2, {"type": "take_pile", "cards": [], "meld": 1})
    assert melds(deal)[1]["cards"] == ["5H", "6H", "7H", "8H"]


def test_r_samba_pile_never_a_natural_and_a_wild_nor_a_hand_card_onto_a_sequence() -> None:
    deal = opened_deal(SAMBA, upcards=["KD"], hand=hand_of("KS", "2C", seat=2))
    refused(deal, 2, {"type": "take_pile", "cards": ["KS", "2C"]}, "cannot_take_pile")
    deal = opened_deal(SAMBA, upcards=["9H"], hand=hand_of("8H", seat=2))
    refused(deal, 2, {"type": "take_pile", "cards": [], "meld": 1}, "cannot_take_pile")
    refused(deal, 2, {"type": "take_pile", "cards": ["8H"]}, "mixed_ranks")


def test_r_samba_pile_a_natural_pair_makes_a_new_group_beside_the_old() -> None:
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of("9S", "9D", seat=2))
    deal.apply(2, {"type": "take_pile", "cards": ["9S", "9D"]})
    assert [(m["rank"], len(m["cards"])) for m in melds(deal)] == [("9", 3), (None, 3), ("9", 3)]


def test_r_samba_pile_frozen_by_a_wild_needs_the_pair() -> None:
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of("9S", "9D", seat=2))
    data = deal.to_dict()
    data["frozen"] = True
    frozen = Deal.from_dict(data)
    refused(frozen, 2, {"type": "take_pile", "cards": [], "meld": 0}, "pile_frozen")
    frozen.apply(2, {"type": "take_pile", "cards": ["9S", "9D"]})


def test_r_samba_pile_blocked_by_a_wild_or_a_three_on_top_and_r_bol_pile() -> None:
    for rules in (SAMBA, BOLIVIA):
        deal = opened_deal(rules, upcards=["JK"], hand=hand_of("2S", "2D", seat=2))
        refused(deal, 2, {"type": "take_pile", "cards": ["2S", "2D"]}, "pile_blocked")


def test_r_samba_pile_never_onto_a_canasta() -> None:
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of(seat=2))
    data = deal.to_dict()
    data["melds"][0][0][1] += "9C9S9H9D"  # the 9s are a canasta of seven
    full = Deal.from_dict(data)
    refused(full, 2, {"type": "take_pile", "cards": [], "meld": 0}, "cannot_take_pile")


def test_r_samba_pile_and_r_bol_pile_refusals_name_these_games_rules() -> None:
    """The rule a refusal links to on the rules page is Samba's or Bolivia's, not the classic's."""
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of("9S", "9D", seat=2))
    data = deal.to_dict()
    data["frozen"] = True
    with pytest.raises(IllegalMove) as frozen:
        Deal.from_dict(data).apply(2, {"type": "take_pile", "cards": [], "meld": 0})
    assert (frozen.value.code, frozen.value.rule) == ("pile_frozen", "R-SAMBA-PILE")
    blocked = opened_deal(BOLIVIA, upcards=["JK"], hand=hand_of("2S", "2D", seat=2))
    with pytest.raises(IllegalMove) as wild_on_top:
        blocked.apply(2, {"type": "take_pile", "cards": ["2S", "2D"]})
    assert wild_on_top.value.rule == "R-BOL-PILE"
    one = ending(BOLIVIA, melds0=[SEVEN_KINGS, SEVEN_ACES_MIXED], hand=["QS"])
    with pytest.raises(IllegalMove) as no_escalera:
        one.apply(0, {"type": "discard", "card": "QS"})
    assert no_escalera.value.rule == "R-BOL-OUT"


# --- opening, undo -------------------------------------------------------------------------------


def test_r_samba_open_and_r_bol_open_minimums() -> None:
    expected = {-5: 15, 0: 50, 1500: 90, 3000: 120, 6995: 120, 7000: 160, 12_000: 160}
    for score, minimum in expected.items():
        assert SAMBA.opening_minimum(score) == minimum
        assert BOLIVIA.opening_minimum(score) == (150 if minimum == 160 else minimum)


def test_r_samba_open_first_meld_reaches_the_minimum_with_sequences() -> None:
    deal = new_deal(
        rules=SAMBA, team_scores=(0, 0), hands={0: hand_of("TS", "JS", "QS", "KS", "AS")}
    )
    deal.apply(0, {"type": "draw"})
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["TS", "JS", "QS", "KS", "AS"]}]})
    assert deal.view(None)["teams"][0]["opened"]  # 60 >= 50


def test_r_samba_undo_after_an_undo_only_a_whole_opening() -> None:
    deal = new_deal(
        rules=SAMBA, team_scores=(0, 0), hands={0: hand_of("KS", "KH", "KD", "AS", "AH", "AD")}
    )
    deal.apply(0, {"type": "draw"})
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]})  # 30 of 50
    refused(deal, 0, {"type": "discard", "card": "9S"}, "below_minimum")
    deal.apply(0, {"type": "undo"})
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]}, "minimum_unreachable"
    )
    deal.apply(
        0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}, {"cards": ["AS", "AH", "AD"]}]}
    )
    assert deal.view(None)["teams"][0]["opened"]


# --- going out and scoring -----------------------------------------------------------------------


def ending(rules: Rules, *, melds0: list[tuple[str, str]], hand: list[str], reds: str = "") -> Deal:
    """Seat 0 in its play phase holding `hand`, its side's melds `melds0` (key, packed cards)."""
    deal = drawn(rules, hand=hand_of())
    data = deal.to_dict()
    data["melds"][0] = [list(meld) for meld in melds0]
    data["opened"] = [True, False]
    data["hands"][0] = "".join(hand)
    data["red"][0] = reds
    return Deal.from_dict(data)


SEVEN_KINGS = ("K0", "KSKHKDKCKSKHKD")
SEVEN_ACES_MIXED = ("A1", "ASAHADACASAH2C")
SAMBA_HEARTS = ("H2", "4H5H6H7H8H9HTH")


def test_r_samba_out_needs_two_canastas_and_scores_200() -> None:
    one = ending(SAMBA, melds0=[SEVEN_KINGS], hand=["QS"])
    refused(one, 0, {"type": "discard", "card": "QS"}, "no_canasta")
    two = ending(SAMBA, melds0=[SEVEN_KINGS, SEVEN_ACES_MIXED], hand=["QS"])
    two.apply(0, {"type": "discard", "card": "QS"})
    line = two.result[0] if two.result else {}
    assert line["going_out"] == 200 and line["canastas"] == 800


def test_r_bol_out_needs_an_escalera_among_the_two_canastas() -> None:
    groups = ending(BOLIVIA, melds0=[SEVEN_KINGS, SEVEN_ACES_MIXED], hand=["QS"])
    refused(groups, 0, {"type": "discard", "card": "QS"}, "no_canasta")
    with_escalera = ending(BOLIVIA, melds0=[SEVEN_KINGS, SAMBA_HEARTS], hand=["QS"])
    with_escalera.apply(0, {"type": "discard", "card": "QS"})
    assert with_escalera.result is not None
    assert with_escalera.result[0]["canastas"] == 500 + 1500
    assert melds(with_escalera)[1]["canasta"] == "escalera"


def test_r_samba_can_samba_is_1500_and_r_samba_red_counts_by_two_canastas() -> None:
    deal = ending(SAMBA, melds0=[SEVEN_KINGS, SAMBA_HEARTS], hand=["QS"], reds="3H3D3H3D3H3D")
    deal.apply(0, {"type": "discard", "card": "QS"})
    assert deal.result is not None
    ours = deal.result[0]
    assert ours["canastas"] == 2000 and ours["red_threes"] == 1000
    assert ours["total"] == ours["cards"] + 2000 + 1000 + 200 + ours["hand"]
    one = ending(SAMBA, melds0=[SEVEN_KINGS], hand=["QS", "QH"], reds="3H3D")
    data = one.to_dict()
    data["stock"] = ""
    data["phase"] = "draw"
    data["turn"] = 1
    empty = Deal.from_dict(data)
    empty.apply(1, {"type": "draw"})  # R-END-2: the stock is empty
    assert empty.result is not None and empty.result[0]["red_threes"] == -200


def test_r_bol_wild_three_to_seven_wilds_meld_and_seven_is_a_bolivia() -> None:
    deal = drawn(BOLIVIA, hand=hand_of("2S", "2H", "JK", "2D", "2C", "JK", "2S", "2H"))
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["2S", "2H", "JK"]}]})
    assert melds(deal)[0]["rank"] == "*" and melds(deal)[0]["kind"] == "group"
    deal.apply(0, {"type": "meld", "melds": [{"meld": 0, "cards": ["2D", "2C", "JK", "2S"]}]})
    assert melds(deal)[0]["canasta"] == "bolivia"
    refused(deal, 0, {"type": "meld", "melds": [{"meld": 0, "cards": ["2H"]}]}, "meld_closed")
    samba = drawn(SAMBA, hand=hand_of("2S", "2H", "JK"))
    refused(samba, 0, {"type": "meld", "melds": [{"cards": ["2S", "2H", "JK"]}]}, "wild_only")


def test_r_bol_black_a_black_three_left_in_hand_counts_minus_100() -> None:
    deal = ending(BOLIVIA, melds0=[SEVEN_KINGS, SAMBA_HEARTS], hand=["QS"])
    data = deal.to_dict()
    data["hands"][2] = "3S3C4D"
    deal = Deal.from_dict(data)
    deal.apply(0, {"type": "discard", "card": "QS"})
    assert deal.result is not None and deal.result[0]["hand"] == -205
    samba = ending(SAMBA, melds0=[SEVEN_KINGS, SAMBA_HEARTS], hand=["QS"])
    data = samba.to_dict()
    data["hands"][2] = "3S3C4D"
    samba = Deal.from_dict(data)
    samba.apply(0, {"type": "discard", "card": "QS"})
    assert samba.result is not None and samba.result[0]["hand"] == -15


def test_r_samba_view_round_trip_and_legal_actions_use_meld_indexes() -> None:
    deal = opened_deal(SAMBA, upcards=["9C"], hand=hand_of("9S", "2D", "8H", seat=2))
    copy = Deal.from_dict(deal.to_dict())
    assert copy.to_dict() == deal.to_dict()
    actions = legal_actions(deal, 2)
    assert {"type": "take_pile", "cards": [], "meld": 0} in actions
    deal.apply(2, {"type": "take_pile", "cards": [], "meld": 0})
    offered = legal_actions(deal, 2)
    assert {"type": "meld", "melds": [{"meld": 1, "cards": ["8H"]}]} in offered
    assert {"type": "meld", "melds": [{"meld": 0, "cards": ["2D"]}]} in offered
    for action in offered:
        assert deal.is_legal(2, action), action
