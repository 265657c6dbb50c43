"""R-TURN-*, R-MELD-*, R-CAN-*: the turn, melds, wild cards, threes and canastas."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import Deal, Rules
from tests.engine.decks import (
    draw,
    hand,
    meld,
    melds_by_rank,
    new_deal,
    pass_turn,
    pile,
    refuse,
    team_view,
)

# Singles of many ranks to fill a hand without creating pairs or wilds.
PAD = ["QC", "JD", "TH", "8C", "7D", "6H", "5S", "4C", "AD", "9S", "KS", "QD"]


def padded(cards: list[str], exclude: str = "") -> list[str]:
    """`cards` plus single fillers up to 11 cards (fillers of other ranks than `cards`)."""
    ranks = {c[0] for c in cards} | set(exclude)
    return [*cards, *[c for c in PAD if c[0] not in ranks]][:11]


def low_minimum_deal(hand0: list[str], stock: list[str], rules: Rules | None = None) -> Deal:
    """Seat 0 moves first with `hand0`; both teams' minimum is 15 (negative scores)."""
    return new_deal(
        rules=rules, team_scores=(-10, -10), hands={0: hand0}, upcards=["4D"], stock=stock
    )


# --- R-TURN -----------------------------------------------------------------------------------


def test_r_turn_1_draw_then_discard_passes_the_turn() -> None:
    # R-TURN-1
    deal = new_deal(hands={0: padded([])}, upcards=["9C"], stock=["KH"])
    assert deal.phase == "draw"
    assert draw(deal, 0) == ["KH"]
    assert deal.phase == "play" and deal.turn == 0
    assert deal.view(None)["hand_counts"] == [12, 11, 11, 11]
    deal.apply(0, {"type": "discard", "card": "KH"})
    assert deal.turn == 1 and deal.phase == "draw"
    assert pile(deal) == {"top": "KH", "count": 2, "frozen": False}
    assert deal.view(None)["hand_counts"] == [11, 11, 11, 11]


def test_r_turn_1_actions_out_of_phase_are_refused() -> None:
    # R-TURN-1: no meld or discard before the draw, no second draw
    deal = low_minimum_deal(padded(["KH", "KS", "KD"]), ["9H"])
    refuse(deal, 0, {"type": "discard", "card": "KH"}, "wrong_phase")
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}]}, "wrong_phase")
    draw(deal, 0)
    refuse(deal, 0, {"type": "draw"}, "wrong_phase")
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "wrong_phase")


def test_r_turn_1_discard_must_be_held() -> None:
    # R-TURN-1
    deal = new_deal(hands={0: padded([])}, upcards=["9C"], stock=["KH"])
    draw(deal, 0)
    held = hand(deal, 0)
    missing = next(c for c in ["3S", "JK", "2C", "9H", "TC"] if held[c] == 0)
    refuse(deal, 0, {"type": "discard", "card": missing}, "card_not_in_hand")


def test_r_turn_1_meld_is_optional_and_a_discard_ends_the_turn() -> None:
    # R-TURN-1: meld, meld again, then discard exactly one card
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "QS", "QH", "QD"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    meld(deal, 0, ["QS", "QH", "QD"])
    assert deal.turn == 0 and deal.phase == "play"
    deal.apply(0, {"type": "discard", "card": "9H"})
    assert deal.turn == 1 and deal.view(None)["hand_counts"][0] == 12 - 6 - 1


def test_r_turn_1_taking_the_pile_is_the_draw() -> None:
    # R-TURN-1: after taking the pile no draw; the turn ends with a discard
    deal = new_deal(team_scores=(-10, -10), hands={0: padded(["9S", "9D"])}, upcards=["9H"])
    deal.apply(0, {"type": "take_pile", "cards": ["9S", "9D"]})
    assert deal.phase == "play" and deal.turn == 0
    refuse(deal, 0, {"type": "draw"}, "wrong_phase")
    deal.apply(0, {"type": "discard", "card": "QC"})
    assert deal.turn == 1


def test_r_turn_2_red_three_drawn_is_laid_and_replaced() -> None:
    # R-TURN-2
    deal = new_deal(hands={0: padded([])}, upcards=["9C"], stock=["3H", "KH"])
    stock_before = deal.view(None)["stock_count"]
    event = deal.apply(0, {"type": "draw"})
    assert event["public"]["red_threes"] == ["3H"] and event["private"]["cards"] == ["KH"]
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    view = deal.view(None)
    assert view["stock_count"] == stock_before - 2
    assert view["hand_counts"][0] == 12
    assert "3H" not in deal.view(0)["hand"]


def test_r_turn_2_red_three_replacements_repeat() -> None:
    # R-TURN-2: the replacement is a red three too
    deal = new_deal(upcards=["9C"], stock=["KC", "3D", "3H", "QH"])
    pass_turn(deal, 0, "KC")
    event = deal.apply(1, {"type": "draw"})
    assert event["public"]["red_threes"] == ["3D", "3H"] and event["private"]["cards"] == ["QH"]
    assert sorted(team_view(deal, 1)["red_threes"]) == ["3D", "3H"]
    assert team_view(deal, 0)["red_threes"] == []
    assert deal.view(None)["hand_counts"][1] == 12


# --- R-MELD -----------------------------------------------------------------------------------


def test_r_meld_1_meld_needs_three_cards() -> None:
    # R-MELD-1
    deal = low_minimum_deal(padded(["KH", "KS", "KD"]), ["9H"])
    draw(deal, 0)
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS"]}]}, "meld_too_small")
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["KH"]}]}, "meld_too_small")
    meld(deal, 0, ["KH", "KS", "KD"])
    assert sorted(melds_by_rank(deal, 0)["K"]["cards"]) == ["KD", "KH", "KS"]


def test_r_meld_1_meld_is_one_rank() -> None:
    # R-MELD-1: cards of two ranks, or a rank named that the cards are not
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "QD"]), ["9H"])
    draw(deal, 0)
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS", "QD"]}]}, "mixed_ranks")
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"rank": "Q", "cards": ["KH", "KS", "KD"]}]},
        "mixed_ranks",
    )


def test_r_meld_1_more_cards_of_a_rank_join_the_team_meld() -> None:
    # R-MELD-1: one meld per rank per team; later cards of that rank go into it
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "KC", "KH"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    meld(deal, 0, ["KC"])
    meld(deal, 0, ["KH"])
    melds = team_view(deal, 0)["melds"]
    assert len(melds) == 1
    assert melds[0]["rank"] == "K" and len(melds[0]["cards"]) == 5


def test_r_meld_1_opponents_may_meld_the_same_rank_but_never_add_to_ours() -> None:
    # R-MELD-1
    deal = new_deal(
        team_scores=(-10, -10),
        hands={
            0: padded(["KH", "KS", "KD"]),
            1: ["KC", "KC", "KS", "KD", "9C", "8D", "7S", "6C", "5D", "TS", "JC"],
        },
        upcards=["4D"],
        stock=["9H", "QH"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    deal.apply(0, {"type": "discard", "card": "9H"})
    draw(deal, 1)
    # a single king of team 1 cannot go into team 0's kings
    refuse(deal, 1, {"type": "meld", "melds": [{"cards": ["KC"]}]}, "meld_too_small")
    meld(deal, 1, ["KC", "KC", "KS"])
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 3
    assert len(melds_by_rank(deal, 1)["K"]["cards"]) == 3
    meld(deal, 1, ["KD"])
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 3
    assert len(melds_by_rank(deal, 1)["K"]["cards"]) == 4


STRICT_CASES = [
    (["9H", "9S", "2C"], None),  # 2N+1W legal
    (["9H", "9S", "2C", "2D"], "too_many_wilds"),  # 2N+2W not
    (["9H", "9S", "9D", "2C", "2D"], None),  # 3N+2W
    (["9H", "9S", "9D", "2C", "2D", "JK"], "too_many_wilds"),  # 3N+3W: not strictly more
    (["9H", "9S", "9D", "9C", "2C", "2D", "JK"], None),  # 4N+3W legal
    (["9H", "9S", "9D", "9C", "9H", "2C", "2D", "JK", "2H"], "too_many_wilds"),  # 5N+4W not
    (["9H", "9S", "9D", "9C", "9H", "9S", "2C", "2D", "JK", "2H"], "too_many_wilds"),  # 6N+4W
    (["9H", "2C", "JK"], "too_many_wilds"),  # 1N+2W
]
HALF_CASES = [
    (["9H", "9S", "2C"], None),
    (["9H", "9S", "2C", "2D"], None),  # 2N+2W legal in the variant
    (["9H", "9S", "9D", "2C", "2D", "JK"], None),  # 3N+3W
    (["9H", "9S", "2C", "2D", "JK"], "too_many_wilds"),  # 2N+3W: more wilds than naturals
    (["9H", "2C", "JK"], "too_many_wilds"),  # 1N+2W
    (["9H", "9S", "9D", "9C", "2C", "2D", "JK"], None),  # 4N+3W
    (["9H", "9S", "9D", "9C", "2C", "2D", "JK", "2H"], "too_many_wilds"),  # 4N+4W: max 3 wilds
    (["9H", "9S", "9D", "9C", "9H", "2C", "2D", "JK", "2H"], "too_many_wilds"),  # 5N+4W
]


def _meld_case(rules: Rules, cards: list[str], code: str | None) -> None:
    deal = new_deal(
        rules=rules, team_scores=(-10, -10), hands={0: padded(cards)}, upcards=["4D"], stock=["KH"]
    )
    draw(deal, 0)
    action = {"type": "meld", "melds": [{"cards": cards}]}
    if code is None:
        deal.apply(0, action)
        assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(cards)
    else:
        refuse(deal, 0, action, code)


@pytest.mark.parametrize(("cards", "code"), STRICT_CASES)
def test_r_meld_2_naturals_strictly_more_than_wilds(cards: list[str], code: str | None) -> None:
    # R-MELD-2 (club rule, wild_limit="strict")
    _meld_case(Rules(), cards, code)


@pytest.mark.parametrize(("cards", "code"), HALF_CASES)
def test_r_meld_2_variant_half_wilds_may_equal_naturals(cards: list[str], code: str | None) -> None:
    # R-MELD-2 variant wild_limit="half" (seeds 001/003)
    _meld_case(Rules(wild_limit="half"), cards, code)


def test_r_meld_2_limit_holds_when_adding_wilds_to_a_meld() -> None:
    # R-MELD-2 + R-MELD-3: the limit is checked on the whole meld after the addition; a fourth
    # natural makes room for the third wild, and no natural for a fourth
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "KC", "2C", "2D", "JK", "2H"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD", "2C"])  # 3N+1W
    meld(deal, 0, {"rank": "K", "cards": ["2D"]})  # 3N+2W
    refuse(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["JK"]}]}, "too_many_wilds")
    refuse(
        deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["JK", "2H"]}]}, "too_many_wilds"
    )
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 5
    meld(deal, 0, ["KC"])
    meld(deal, 0, {"rank": "K", "cards": ["JK"]})  # 4N+3W
    refuse(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2H"]}]}, "too_many_wilds")
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 7


def test_r_meld_2_variant_half_adding_wilds() -> None:
    # R-MELD-2 variant: 3N+3W is fine, a fourth wild never
    deal = low_minimum_deal(
        padded(["KH", "KS", "KD", "2C", "2D", "JK", "2H"]), ["9H"], rules=Rules(wild_limit="half")
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD", "2C"])
    meld(deal, 0, {"rank": "K", "cards": ["2D", "JK"]})
    refuse(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2H"]}]}, "too_many_wilds")


def test_r_meld_3_no_meld_of_wilds_alone() -> None:
    # R-MELD-3
    deal = low_minimum_deal(padded(["2C", "2D", "JK", "KH", "KS", "KD"]), ["9H"])
    draw(deal, 0)
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["2C", "2D", "JK"]}]}, "wild_only")
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"rank": "K", "cards": ["2C", "2D", "JK"]}]},
        "wild_only",
    )
    # a lone wild naming a rank the team has no meld of starts nothing
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"rank": "Q", "cards": ["2C"]}]},
        {"wild_only", "meld_too_small"},
    )


def test_r_meld_3_lone_wild_joins_an_existing_meld() -> None:
    # R-MELD-3: a wild may be added alone to the team's meld (named by `rank`)
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "JK"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    meld(deal, 0, {"rank": "K", "cards": ["JK"]})
    assert Counter(melds_by_rank(deal, 0)["K"]["cards"]) == Counter(["KH", "KS", "KD", "JK"])


def test_r_meld_3_lone_wild_refused_when_it_breaks_the_limit() -> None:
    # R-MELD-3 + R-MELD-2: KK2 plus one more wild would be 2N+2W
    deal = low_minimum_deal(padded(["KH", "KS", "2C", "2D"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "2C"])
    refuse(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2D"]}]}, "too_many_wilds")


def test_r_meld_4_threes_never_in_ordinary_melds() -> None:
    # R-MELD-4 (and R-CARD-3: threes are neither naturals nor wild)
    deal = low_minimum_deal(padded(["3S", "3C", "3S", "KH", "KS"]), ["9H"])
    draw(deal, 0)
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3C", "3S"]}]}, "threes_not_allowed"
    )
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS", "3S"]}]}, "threes_not_allowed"
    )


def _canasta_then_threes(threes: list[str], extra: list[str]) -> Deal:
    """Seat 0 melds seven kings (a canasta) in turn 1 and keeps `threes` + `extra`."""
    kings = ["KH", "KH", "KS", "KS", "KD", "KD", "KC"]
    hand0 = [*kings, *threes, *extra]
    assert len(hand0) == 11, hand0
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0},
        upcards=["4D"],
        stock=["8C", "9H", "9D", "9S", "KC"],
    )
    draw(deal, 0)
    meld(deal, 0, kings)
    assert melds_by_rank(deal, 0)["K"]["canasta"] == "natural"
    deal.apply(0, {"type": "discard", "card": "8C"})
    for seat in (1, 2, 3):
        pass_turn(deal, seat)
    assert draw(deal, 0) == ["KC"]
    return deal


def test_r_meld_4_black_threes_only_when_going_out() -> None:
    # R-MELD-4 DECIDED: legal only when the player then holds at most one card (discarded)
    deal = _canasta_then_threes(["3S", "3S", "3C"], ["9C"])
    # holding 3S 3S 3C 9C KC: melding the threes would leave two cards
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3S", "3C"]}]}, "threes_not_allowed"
    )
    meld(deal, 0, ["KC"])
    meld(deal, 0, ["3S", "3S", "3C"])
    assert melds_by_rank(deal, 0)["3"]["cards"]
    deal.apply(0, {"type": "discard", "card": "9C"})
    assert deal.phase == "over"
    assert deal.result is not None and deal.result[0]["going_out"] == 100


def test_r_meld_4_four_black_threes_going_out_without_discard() -> None:
    # R-MELD-4: three or four black threes, the whole hand melded
    deal = _canasta_then_threes(["3S", "3S", "3C", "3C"], [])
    meld(deal, 0, ["KC"], ["3S", "3S", "3C", "3C"])
    assert deal.phase == "over"
    result = deal.result
    assert result is not None
    assert result[0]["cards"] == 8 * 10 + 4 * 5  # black threes are worth 5 (R-CARD-2)


def test_r_meld_4_black_threes_never_with_wilds() -> None:
    # R-MELD-4: no wild cards in a black-three meld
    deal = _canasta_then_threes(["3S", "3C", "2C"], ["9C"])
    meld(deal, 0, ["KC"])
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3C", "2C"]}]}, "threes_not_allowed"
    )


def test_r_meld_4_black_threes_need_a_team_canasta() -> None:
    # R-MELD-4 DECIDED: "and the team has a canasta"
    # six queens and three jacks are no canasta; the black threes would be the last cards
    hand0 = ["3S", "3S", "3C", "QH", "QH", "QS", "QS", "QD", "QC", "JH", "JS"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["4D"], stock=["JD"])
    draw(deal, 0)
    meld(deal, 0, ["QH", "QH", "QS", "QS", "QD", "QC"], ["JH", "JS", "JD"])
    assert melds_by_rank(deal, 0)["Q"]["canasta"] is None
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3S", "3C"]}]}, "no_canasta")


def test_r_meld_4_black_threes_going_out_with_the_canasta_of_the_same_action() -> None:
    # R-MELD-4 + R-OUT-3: the canasta and the black threes in one action, then the discard, is
    # a concealed going out: queens 8 x 10 + black threes 3 x 5, natural canasta, bonus 200
    hand0 = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "3S", "3C", "3S", "9C"]
    deal = new_deal(hands={0: hand0}, stock=["QC"])
    draw(deal, 0)
    # without the eighth queen the player would hold 9C and QC
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"cards": hand0[:7]}, {"cards": ["3S", "3C", "3S"]}]},
        "threes_not_allowed",
    )
    meld(deal, 0, [*hand0[:7], "QC"], ["3S", "3C", "3S"])
    deal.apply(0, {"type": "discard", "card": "9C"})
    result = deal.result
    assert result is not None
    assert result[0]["cards"] == 95 and result[0]["canastas"] == 500
    assert result[0]["going_out"] == 200


# --- R-CAN ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "canasta"),
    [
        (["KH", "KH", "KS", "KS", "KD", "KD"], None),
        (["KH", "KH", "KS", "KS", "KD", "KD", "KC"], "natural"),
        (["KH", "KH", "KS", "KS", "KD", "2C", "JK"], "mixed"),
        (["KH", "KH", "KS", "KS", "2D", "2C", "JK"], "mixed"),
        (["KH", "KH", "KS", "KS", "KD", "KD", "KC", "KC"], "natural"),
    ],
)
def test_r_can_1_canasta_is_seven_cards_natural_or_mixed(
    cards: list[str], canasta: str | None
) -> None:
    # R-CAN-1
    deal = low_minimum_deal(padded(cards), ["9H"])
    draw(deal, 0)
    meld(deal, 0, cards)
    assert melds_by_rank(deal, 0)["K"]["canasta"] == canasta


def test_r_can_2_adding_to_a_canasta() -> None:
    # R-CAN-2: naturals and wilds may be added; a wild makes a natural canasta mixed;
    # never more than 3 wilds in total
    cards = ["KH", "KH", "KS", "KS", "KD", "KD", "KC"]
    deal = low_minimum_deal([*cards, "KC", "2C", "2D", "JK"], ["2H"])
    draw(deal, 0)
    meld(deal, 0, cards)
    meld(deal, 0, ["KC"])
    assert melds_by_rank(deal, 0)["K"]["canasta"] == "natural"
    meld(deal, 0, {"rank": "K", "cards": ["2C"]})
    assert melds_by_rank(deal, 0)["K"]["canasta"] == "mixed"
    meld(deal, 0, {"rank": "K", "cards": ["2D", "JK"]})
    refuse(deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2H"]}]}, "too_many_wilds")
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 11


def test_r_can_2_one_bonus_per_canasta_however_big() -> None:
    # R-CAN-2: eight kings are one natural canasta, 500 once.
    # Seat 0: 8 kings, AH AS, 9C + drawn AD; melds 8 K + AAA, discards 9C: out.
    kings = ["KH", "KH", "KS", "KS", "KD", "KD", "KC", "KC"]
    deal = new_deal(hands={0: [*kings, "AH", "AS", "9C"]}, upcards=["4D"], stock=["AD"])
    draw(deal, 0)
    meld(deal, 0, kings, ["AH", "AS", "AD"])
    deal.apply(0, {"type": "discard", "card": "9C"})
    assert deal.phase == "over"
    result = deal.result
    assert result is not None
    assert result[0]["canastas"] == 500
    assert result[0]["cards"] == 80 + 60


def test_r_meld_1_entries_of_one_rank_in_one_action_make_one_meld() -> None:
    # R-MELD-1 + R-MELD-3: a new meld, a natural and a lone wild for it in the same action
    deal = low_minimum_deal(padded(["KH", "KS", "KD", "KC", "2C"]), ["9H"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["KC"], {"rank": "K", "cards": ["2C"]})
    melds = team_view(deal, 0)["melds"]
    assert len(melds) == 1
    assert Counter(melds[0]["cards"]) == Counter(["KH", "KS", "KD", "KC", "2C"])
