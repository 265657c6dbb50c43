"""R-OUT-*, R-END-*, R-RED-*, R-SCORE-*: going out, the end of the deal, scoring."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence

import pytest

from games.engine import Deal, Rules
from games.players import autoplay
from tests.engine.decks import (
    OPENER,
    discard,
    draw,
    hand,
    is_natural,
    meld,
    melds_by_rank,
    new_deal,
    pass_turn,
    pile,
    quiet_card,
    refuse,
    take_pile,
    team_view,
    value,
)

KINGS = ["KH", "KH", "KS", "KS", "KD", "KD", "KC"]
QUEENS = ["QH", "QH", "QS", "QS", "QD", "QD", "QC"]
RESULT_KEYS = {"cards", "canastas", "red_threes", "going_out", "hand", "total"}


def final(deal: Deal) -> list[dict[str, int]]:
    """The deal is over; its result has the contract shape and adds up (R-SCORE-1)."""
    assert deal.phase == "over"
    result = deal.result
    assert result is not None and len(result) == 2
    for team in result:
        assert set(team) == RESULT_KEYS
        assert team["hand"] <= 0
        parts = (
            team["cards"] + team["canastas"] + team["red_threes"] + team["going_out"] + team["hand"]
        )
        assert team["total"] == parts
    assert deal.view(None)["result"] == result
    assert deal.view(0)["result"] == result
    return list(result)


def run_down(deal: Deal, stock_left: int, keep: Collection[str] = ()) -> None:
    """Players draw and discard (the drawn card when natural, otherwise a natural card of the
    hand not in `keep`) until the stock holds `stock_left` cards. Never discards a wild."""
    while deal.view(None)["stock_count"] > stock_left:
        seat = deal.turn
        drawn = draw(deal, seat)
        assert deal.phase == "play"
        held = deal.view(seat)["hand"]
        card = next((c for c in drawn if is_natural(c)), None)
        if card is None:
            card = next(c for c in held if is_natural(c) and c not in keep)
        discard(deal, seat, card)


# --- R-OUT ------------------------------------------------------------------------------------


def test_r_out_1_no_going_out_without_a_canasta() -> None:
    # R-OUT-1: six kings, QQQ, JJJ would be the whole hand, but there is no canasta
    hand0 = ["KH", "KH", "KS", "KS", "KD", "KD", "QH", "QS", "QD", "JH", "JS"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["4D"], stock=["JD"])
    draw(deal, 0)
    everything = [
        {"cards": hand0[:6]},
        {"cards": ["QH", "QS", "QD"]},
        {"cards": ["JH", "JS", "JD"]},
    ]
    refuse(deal, 0, {"type": "meld", "melds": everything}, {"no_canasta", "must_keep_card"})
    meld(deal, 0, hand0[:6], ["QH", "QS", "QD"])
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"cards": ["JH", "JS", "JD"]}]},
        {"no_canasta", "must_keep_card"},
    )
    discard(deal, 0, "JD")
    assert deal.phase == "draw" and deal.turn == 1


def test_r_out_2_melds_must_leave_two_cards_without_a_canasta() -> None:
    # R-OUT-2
    hand0 = ["KH", "KS", "KD", "KC", "QH", "QS", "QD", "JH", "JS", "JD", "9C"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["4D"], stock=["JC"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"], ["JH", "JS", "JD"])
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KC"]}, {"cards": ["JC"]}]}, "must_keep_card"
    )
    meld(deal, 0, ["KC"])  # leaves JC 9C: fine
    refuse(deal, 0, {"type": "meld", "melds": [{"cards": ["JC"]}]}, "must_keep_card")
    discard(deal, 0, "9C")
    assert deal.view(0)["hand"] == ["JC"]


def test_r_out_1_canasta_completed_in_the_going_out_turn() -> None:
    # R-OUT-1: turn 1 JJJJ + 999 (no canasta); turn 2 three more jacks make the canasta, 9H joins
    # the nines, 8D is discarded: out. Melded before, so 100 (R-OUT-3 not concealed).
    hand0 = ["JH", "JS", "JD", "JC", "9C", "9D", "9S", "JH", "JS", "JD", "8D"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0},
        upcards=["4D"],
        stock=["TC", "TD", "TH", "TS", "9H"],
    )
    draw(deal, 0)
    meld(deal, 0, ["JH", "JS", "JD", "JC"], ["9C", "9D", "9S"])
    discard(deal, 0, "TC")
    for seat in (1, 2, 3):
        pass_turn(deal, seat)
    assert draw(deal, 0) == ["9H"]
    meld(deal, 0, ["JH", "JS", "JD"], ["9H"])
    assert melds_by_rank(deal, 0)["J"]["canasta"] == "natural"
    assert deal.phase == "play"
    discard(deal, 0, "8D")
    result = final(deal)
    assert result[0]["going_out"] == 100
    assert result[1]["going_out"] == 0


def test_r_out_2_with_a_canasta_the_last_cards_may_go() -> None:
    # R-OUT-2: with a team canasta melds may leave one card (then discarded) or none
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: [*KINGS, "AH", "AS", "AD", "9C"]},
        upcards=["4D"],
        stock=["KC"],
    )
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD"])
    assert sorted(deal.view(0)["hand"]) == ["9C", "KC"]
    meld(deal, 0, ["KC"])
    assert deal.phase == "play"
    discard(deal, 0, "9C")
    assert deal.phase == "over"


def test_r_out_3_concealed_going_out_scores_200() -> None:
    # R-OUT-3: whole hand in one turn, a canasta among the melds, nothing melded before
    deal = new_deal(hands={0: [*KINGS, "AH", "AS", "AD", "9C"]}, upcards=["4D"], stock=["AC"])
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    result = final(deal)
    assert result[0]["going_out"] == 200
    assert result[0]["canastas"] == 500


def test_r_out_3_concealed_going_out_without_a_final_discard() -> None:
    # R-OUT-3: "with or without a final discard"
    deal = new_deal(hands={0: [*KINGS, "AH", "AS", "AD", "AC"]}, upcards=["4D"], stock=["KC"])
    draw(deal, 0)
    event = meld(deal, 0, [*KINGS, "KC"], ["AH", "AS", "AD", "AC"])
    assert event["public"]["deal_over"] is True  # R-OUT-4: at once
    result = final(deal)
    assert result[0]["going_out"] == 200
    assert result[0]["cards"] == 80 + 80


def _partner_melds_first(
    hand0: list[str], hand2: list[str], partner_meld: list[str], draw0: str
) -> Deal:
    """Seat 0 only draws and discards in turn 1; seat 2 melds `partner_meld` in turn 3; then
    seat 0 draws `draw0`."""
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0, 2: hand2},
        upcards=["4D"],
        stock=["8C", "8D", "8H", "8S", draw0],
    )
    pass_turn(deal, 0, "8C")
    pass_turn(deal, 1, "8D")
    draw(deal, 2)
    meld(deal, 2, partner_meld)
    discard(deal, 2, "8H")
    pass_turn(deal, 3, "8S")
    assert draw(deal, 0) == [draw0]
    return deal


HAND2 = ["QH", "QS", "QD", "TC", "TD", "6H", "6S", "5C", "5D", "4C", "7H"]


def test_r_out_3_partner_melds_untouched_still_concealed() -> None:
    # R-OUT-3: the partner's melds on the table do not matter if not added to
    deal = _partner_melds_first([*KINGS, "AH", "AS", "AD", "9C"], HAND2, ["QH", "QS", "QD"], "AC")
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    assert final(deal)[0]["going_out"] == 200


def test_r_out_3_adding_to_a_partner_meld_is_not_concealed() -> None:
    # R-OUT-3: "in this turn they add nothing to melds their partner laid"
    deal = _partner_melds_first([*KINGS, "AH", "AS", "AD", "QC"], HAND2, ["QH", "QS", "QD"], "AC")
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"], ["QC"])
    assert final(deal)[0]["going_out"] == 100


def test_r_out_3_needs_a_canasta_among_the_players_own_melds() -> None:
    # R-OUT-3: the partner made the canasta; seat 0 melds its whole hand without one: 100
    hand0 = ["AH", "AS", "AD", "9C", "9D", "9S", "8C", "8D", "8S", "4C", "4D"]
    hand2 = [*QUEENS, "TC", "TD", "6H", "6S"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0, 2: hand2},
        upcards=["7D"],
        stock=["JC", "JD", "JH", "JS", "4H"],
    )
    pass_turn(deal, 0, "JC")
    pass_turn(deal, 1, "JD")
    draw(deal, 2)
    meld(deal, 2, QUEENS)
    discard(deal, 2, "JH")
    pass_turn(deal, 3, "JS")
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "AD"], ["9C", "9D", "9S"], ["8C", "8D", "8S"], ["4C", "4D", "4H"])
    assert final(deal)[0]["going_out"] == 100


def test_r_out_3_melded_earlier_is_not_concealed() -> None:
    # R-OUT-3: seat 0 melded AAA in an earlier turn; going out later with seven kings is 100
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: [*KINGS, "AH", "AS", "AD", "AC"]},
        upcards=["4D"],
        stock=["TC", "TD", "TH", "TS", "9S"],
    )
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "AD"])
    discard(deal, 0, "TC")
    for seat in (1, 2, 3):
        pass_turn(deal, seat)
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AC"])
    discard(deal, 0, "9S")
    result = final(deal)
    assert result[0]["going_out"] == 100
    assert result[0]["cards"] == 70 + 80


def test_r_out_4_deal_ends_at_once_and_nothing_more_is_accepted() -> None:
    # R-OUT-4
    deal = new_deal(hands={0: [*KINGS, "AH", "AS", "AD", "9C"]}, upcards=["4D"], stock=["AC"])
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    assert deal.phase == "over" and deal.view(None)["phase"] == "over"
    final(deal)
    for seat in range(4):
        for action in (
            {"type": "draw"},
            {"type": "take_pile", "cards": []},
            {"type": "discard", "card": "KH"},
        ):
            refuse(deal, seat, action, {"deal_over", "not_your_turn"})
    refuse(deal, 1, {"type": "draw"}, "deal_over")


# --- R-END ------------------------------------------------------------------------------------


def _opened_by_seat0(
    *,
    hands: Mapping[int, Sequence[str]],
    upcards: Sequence[str],
    stock_end: Sequence[str] = (),
    rules: Rules | None = None,
) -> Deal:
    """Seat 0 opens with KH KS KD in turn 1 (minimum 15)."""
    deal = new_deal(
        rules=rules, team_scores=(-10, -10), hands=hands, upcards=upcards, stock_end=stock_end
    )
    drawn = draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    card = next((c for c in drawn if is_natural(c)), None) or next(
        c for c in deal.view(0)["hand"] if is_natural(c)
    )
    discard(deal, 0, card)
    return deal


def test_r_end_1_drawing_the_last_stock_card_ends_the_deal() -> None:
    # R-END-1: at once, no discard, no going-out bonus
    deal = _opened_by_seat0(
        hands={0: ["KH", "KS", "KD", "QC", "JD", "TH", "9C", "8D", "7H", "6S", "5C"]},
        upcards=["3H", "3H", "3D", "3D", "9S"],
    )
    run_down(deal, 1)
    seat = deal.turn
    counts = deal.view(None)["hand_counts"]
    draw(deal, seat)
    assert deal.phase == "over"
    assert deal.view(None)["stock_count"] == 0
    assert deal.view(None)["hand_counts"][seat] == counts[seat] + 1
    result = final(deal)
    assert result[0]["going_out"] == 0 and result[1]["going_out"] == 0
    assert result[0]["cards"] == 30
    refuse(deal, (seat + 1) % 4, {"type": "draw"}, "deal_over")


def test_r_end_1_last_card_a_red_three_still_counts() -> None:
    # R-END-1: the last stock card is a red three: laid for the drawer's team, deal over
    deal = _opened_by_seat0(
        hands={0: ["KH", "KS", "KD", "QC", "JD", "TH", "9C", "8D", "7H", "6S", "5C"]},
        upcards=["3H", "3D", "3D", "9S"],
        stock_end=["3H"],
    )
    run_down(deal, 1)
    seat = deal.turn
    draw(deal, seat)
    assert deal.phase == "over"
    team = seat % 2
    assert team_view(deal, team)["red_threes"] == ["3H"]
    result = final(deal)
    has_meld = bool(team_view(deal, team)["melds"])
    assert result[team]["red_threes"] == (100 if has_meld else -100)  # R-RED-1/R-RED-2
    assert result[1 - team]["red_threes"] == 0


def _stock_emptied_by_a_replacement(rules: Rules | None = None) -> Deal:
    """Seat 2 draws the second-to-last card, a red three; its replacement empties the stock.
    Seat 3 holds 9S 9D; the pile is frozen (red threes covered at the deal)."""
    hand3 = ["9S", "9D", "QC", "JD", "TH", "8C", "7H", "6S", "5C", "4H", "AS"]
    deal = _opened_by_seat0(
        rules=rules,
        hands={0: ["KH", "KS", "KD", "QD", "JC", "TC", "9C", "8D", "7C", "6H", "5S"], 3: hand3},
        upcards=["3H", "3D", "3D", "9C"],
        stock_end=["3H", "9H"],
    )
    run_down(deal, 2, keep=["9S", "9D"])
    assert deal.turn == 2
    assert draw(deal, 2) == ["9H"]
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    assert deal.view(None)["stock_count"] == 0
    assert deal.phase == "play", "a replacement emptying the stock does not end the deal (R-END-2)"
    discard(deal, 2, "9H")
    return deal


def test_r_end_2_stock_emptied_by_a_replacement_next_player_draws_and_ends() -> None:
    # R-END-2
    deal = _stock_emptied_by_a_replacement()
    draw(deal, 3)
    result = final(deal)
    assert result[0]["going_out"] == 0 and result[1]["going_out"] == 0


def test_r_end_2_stock_emptied_next_player_may_take_the_pile() -> None:
    # R-END-2: the next player may take the pile if the rules allow it; play goes on
    deal = _stock_emptied_by_a_replacement()
    take_pile(deal, 3, ["9S", "9D"])
    assert deal.phase == "play"
    discard(deal, 3, "QC")
    assert deal.turn == 0 and deal.phase == "draw"
    draw(deal, 0)
    final(deal)


def _classic_stock_emptied(rules: Rules, last_discard: str) -> Deal:
    """Seat 1 draws the second-to-last card (a red three), gets KC as the last card and
    discards `last_discard`; the pile is not frozen; team 0 has a meld of kings."""
    hand1 = ["3H", "3D", "3D", "QC", "JD", "TH", "8C", "7H", "6S", "5C", "4H"]
    deal = _opened_by_seat0(
        rules=rules,
        hands={0: ["KH", "KS", "KD", "QD", "JC", "TC", "9C", "8D", "7C", "6H", "5S"], 1: hand1},
        upcards=["3S", "9S"],
        stock_end=["3H", "KC"],
    )
    run_down(deal, 2, keep=["QC"])
    assert deal.turn == 1
    assert draw(deal, 1) == ["KC"]
    assert deal.view(None)["stock_count"] == 0 and deal.phase == "play"
    discard(deal, 1, last_discard)
    assert pile(deal)["frozen"] is False
    return deal


def test_r_end_2_variant_classic_must_take_a_fitting_pile() -> None:
    # R-END-2 variant stock_out="classic": the top card fits team 0's kings and the pile is not
    # frozen, so seat 2 must take it; pressing draw is refused
    deal = _classic_stock_emptied(Rules(stock_out="classic"), "KC")
    refuse(deal, 2, {"type": "draw"}, "wrong_phase")
    take_pile(deal, 2, [])
    assert deal.phase == "play"


def test_r_end_2_variant_classic_not_taking_ends_the_deal() -> None:
    # R-END-2 variant: a top card that fits no meld of the team: the player ends the deal
    deal = _classic_stock_emptied(Rules(stock_out="classic"), "QC")
    draw(deal, 2)
    final(deal)


def test_r_end_2_variant_classic_the_last_draw_does_not_end_the_deal() -> None:
    # R-END-1 / R-END-2 variant: drawing the last stock card ends the club's deal; with
    # stock_out="classic" play goes on, the next player must take the fitting pile, and a team
    # without a meld of the top card's rank ends the deal by drawing. Red threes and wilds are
    # dealt (seat 1's threes replaced at once), so the stock never freezes the pile.
    wilds = ["2S", "2H", "2D", "2C"] * 2 + ["JK"] * 4
    hands = {0: OPENER, 1: ["3H", "3H", "3D", "3D", "KC", *wilds[:6]], 3: wilds[6:]}
    for rules in (Rules(), Rules(stock_out="classic")):
        deal = new_deal(rules=rules, hands=hands, upcards=["3S", "9D"])
        drawn = draw(deal, 0)
        meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
        discard(deal, 0, drawn[-1])
        run_down(deal, 1)
        assert deal.turn == 1
        draw(deal, 1)  # the last stock card
        if rules.stock_out == "club":
            final(deal)
            continue
        assert deal.phase == "play"
        discard(deal, 1, "KC")
        refuse(deal, 2, {"type": "draw"}, "wrong_phase")
        take_pile(deal, 2, [])
        discard(deal, 2, quiet_card(deal.view(2)["hand"]))
        draw(deal, 3)
        final(deal)


def test_r_end_2_club_rule_draw_ends_even_when_the_pile_fits() -> None:
    # R-END-2 club rule: taking is allowed, not required
    deal = _classic_stock_emptied(Rules(), "KC")
    draw(deal, 2)
    final(deal)


# --- R-RED ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "points"), [(1, 100), (2, 200), (3, 300), (4, 800)])
def test_r_red_1_red_threes_100_each_all_four_800(count: int, points: int) -> None:
    # R-RED-1: seat 0 holds `count` red threes (the others are covered in the pile) and goes out
    reds = ["3H", "3H", "3D", "3D"]
    aces = ["AH", "AS", "AD", "AC"]
    hand0 = [*KINGS, *reds[:count], *aces[: 4 - count]]
    deal = new_deal(
        hands={0: hand0}, upcards=[*reds[count:], "TC"], stock=[*aces[4 - count :], "9C"]
    )
    assert len(team_view(deal, 0)["red_threes"]) == count
    draw(deal, 0)
    meld(deal, 0, KINGS, aces)
    discard(deal, 0, "9C")
    assert final(deal)[0]["red_threes"] == points


def test_r_red_2_red_threes_negative_without_a_meld() -> None:
    # R-RED-2: team 1 holds all four red threes and never melded: -800
    hand1 = ["3H", "3H", "3D", "3D", "QH", "QS", "QD", "JH", "JS", "JD", "TH"]
    hand0 = [*KINGS, "AH", "AS", "AD", "9C"]
    deal = new_deal(
        hands={0: hand0, 1: hand1}, upcards=["4D"], stock=["TS", "TD", "9H", "9S", "AC"]
    )
    assert len(team_view(deal, 1)["red_threes"]) == 4
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    result = final(deal)
    assert result[1]["red_threes"] == -800
    assert result[1]["cards"] == 0


# --- R-SCORE ----------------------------------------------------------------------------------


def test_r_score_2_worked_example() -> None:
    # R-SCORE-2 (seed 003), played out. Team 0 melds 888 999 (turn 1, seat 0), six sevens and 444
    # (turn 3, seat 2), then seat 0 adds the seventh seven (natural canasta) and 5555 and goes
    # out by discarding TC; partner keeps 9S 5H.
    #   team 0: cards 30+30+35+15+20 = 130, canasta 500, one red three 100, going out 100,
    #           partner's hand -(10+5) = -15: total 815
    #   team 1: no meld, one red three -100, hands 65 + 55 = 120: total -220
    # (RULES' example cards - seven kings and three aces, 130 points - cannot all be melded by
    # the going-out player while the partner keeps two cards; the points are the same.)
    hands = {
        0: ["3H", "8C", "8D", "8S", "9C", "9D", "9H", "7C", "5C", "5D", "5S"],
        1: ["3D", "4C", "4D", "4H", "4S", "4S", "5C", "5D", "5H", "7S", "KH"],
        2: ["7C", "7D", "7D", "7H", "7H", "7S", "4C", "4D", "4H", "9S", "5H"],
        3: ["6C", "6C", "6D", "6D", "6H", "6H", "6S", "6S", "3S", "3S", "3C"],
    }
    deal = new_deal(
        dealer=3,
        team_scores=(0, 0),
        hands=hands,
        upcards=["KD"],
        stock=["5S", "QH", "JC", "JD", "QC", "TD", "TC"],
    )
    assert team_view(deal, 0)["red_threes"] == ["3H"] and team_view(deal, 1)["red_threes"] == ["3D"]
    assert draw(deal, 0) == ["JC"]
    meld(deal, 0, ["8C", "8D", "8S"], ["9C", "9D", "9H"])
    discard(deal, 0, "JC")
    pass_turn(deal, 1, "JD")
    assert draw(deal, 2) == ["QC"]
    meld(deal, 2, ["7C", "7D", "7D", "7H", "7H", "7S"], ["4C", "4D", "4H"])
    discard(deal, 2, "QC")
    pass_turn(deal, 3, "TD")
    assert draw(deal, 0) == ["TC"]
    meld(deal, 0, ["7C"], ["5C", "5D", "5S", "5S"])
    assert melds_by_rank(deal, 0)["7"]["canasta"] == "natural"
    discard(deal, 0, "TC")
    result = final(deal)
    assert result[0] == {
        "cards": 130,
        "canastas": 500,
        "red_threes": 100,
        "going_out": 100,
        "hand": -15,
        "total": 815,
    }
    assert result[1] == {
        "cards": 0,
        "canastas": 0,
        "red_threes": -100,
        "going_out": 0,
        "hand": -120,
        "total": -220,
    }


def test_r_score_1_all_four_red_threes_concealed_out() -> None:
    # R-SCORE-1 example: seat 0 is dealt all four red threes (replaced by four aces), draws 9C,
    # melds seven kings + four aces, discards 9C: concealed.
    #   team 0: cards 70 + 80 = 150, natural canasta 500, red threes 800, concealed 200,
    #           partner 4C 4D 5C 5D 6C 6D 7C 7D (8 x 5 = 40) + 8C 8D 9D (30) = -70: total 1580
    #   team 1: seat 1 QQQ JJJ TTT 99 (11 x 10 = 110), seat 3 QC QH JC JD TC TH 8H 8S (80)
    #           + 6H 6S 5H (15) = 95: total -205
    hands = {
        0: ["3H", "3H", "3D", "3D", *KINGS],
        1: ["QH", "QS", "QD", "JH", "JS", "JD", "TH", "TS", "TD", "9H", "9S"],
        2: ["4C", "4D", "5C", "5D", "6C", "6D", "7C", "7D", "8C", "8D", "9D"],
        3: ["QC", "QH", "JC", "JD", "TC", "TH", "8H", "8S", "6H", "6S", "5H"],
    }
    deal = new_deal(hands=hands, upcards=["KC"], stock=["AH", "AS", "AD", "AC", "9C"])
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    result = final(deal)
    assert result[0] == {
        "cards": 150,
        "canastas": 500,
        "red_threes": 800,
        "going_out": 200,
        "hand": -70,
        "total": 1580,
    }
    assert result[1] == {
        "cards": 0,
        "canastas": 0,
        "red_threes": 0,
        "going_out": 0,
        "hand": -205,
        "total": -205,
    }


def test_r_score_1_mixed_canasta_and_negative_red_threes() -> None:
    # R-SCORE-1 example: seat 0 goes out at once with a mixed canasta KH KH KS KS KD 2C JK
    # (5x10 + 20 + 50 = 120) and AH AS AD AC (80); team 1 has all four red threes, no meld.
    #   team 0: cards 200, mixed canasta 300, concealed 200, partner -70 (as above): total 630
    #   team 1: red threes -800, hands 110 + 95 = -205: total -1005
    mixed = ["KH", "KH", "KS", "KS", "KD", "2C", "JK"]
    hands = {
        0: [*mixed, "AH", "AS", "AD", "9C"],
        1: ["3H", "3H", "3D", "3D", "QH", "QS", "QD", "JH", "JS", "JD", "TH"],
        2: ["4C", "4D", "5C", "5D", "6C", "6D", "7C", "7D", "8C", "8D", "9D"],
        3: ["QC", "QH", "JC", "JD", "TC", "TH", "8H", "8S", "6H", "6S", "5H"],
    }
    deal = new_deal(hands=hands, upcards=["KC"], stock=["TS", "TD", "9H", "9S", "AC"])
    assert draw(deal, 0) == ["AC"]
    meld(deal, 0, mixed, ["AH", "AS", "AD", "AC"])
    assert melds_by_rank(deal, 0)["K"]["canasta"] == "mixed"
    discard(deal, 0, "9C")
    result = final(deal)
    assert result[0] == {
        "cards": 200,
        "canastas": 300,
        "red_threes": 0,
        "going_out": 200,
        "hand": -70,
        "total": 630,
    }
    assert result[1] == {
        "cards": 0,
        "canastas": 0,
        "red_threes": -800,
        "going_out": 0,
        "hand": -205,
        "total": -1005,
    }


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_r_score_1_every_line_adds_up_from_the_table(seed: int) -> None:
    # R-SCORE-1, R-CAN-1, R-RED-1/2: each line of an autoplayed deal, recomputed from the table
    deal = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=seed)
    while deal.phase != "over":
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
    view = deal.view(None)
    for team, line in enumerate(final(deal)):
        table = view["teams"][team]
        cards = sum(value(c) for m in table["melds"] for c in m["cards"])
        bonus = sum({"natural": 500, "mixed": 300, None: 0}[m["canasta"]] for m in table["melds"])
        reds = len(table["red_threes"])
        red_points = (800 if reds == 4 else 100 * reds) * (1 if table["melds"] else -1)
        seats = Rules().seating.teams[team]
        hands = sum(value(c) for seat in seats for c in deal.view(seat)["hand"])
        assert line["cards"] == cards and line["canastas"] == bonus
        assert line["red_threes"] == red_points and line["hand"] == -hands
        assert line["going_out"] in (0, 100, 200)


def test_r_score_1_result_is_json_and_in_every_view() -> None:
    # R-SCORE-1 + CONTRACT view: `result` once the phase is over, null before
    deal = new_deal(hands={0: [*KINGS, "AH", "AS", "AD", "9C"]}, upcards=["4D"], stock=["AC"])
    assert deal.result is None and deal.view(0)["result"] is None
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    result = final(deal)
    for seat in (0, 1, 2, 3, None):
        assert deal.view(seat)["result"] == result
    assert json.loads(json.dumps(result)) == result
    assert hand(deal, 0) == {}


def test_r_out_3_concealed_after_an_undo_in_the_same_turn() -> None:
    # R-OUT-3 + R-UNDO-1: undone melds were never melded; the whole hand still goes in one turn
    deal = new_deal(hands={0: [*KINGS, "AH", "AS", "AD", "9C"]}, upcards=["4D"], stock=["AC"])
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "AD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9C")
    assert final(deal)[0]["going_out"] == 200


def test_r_out_3_melds_undone_in_an_earlier_turn_do_not_count() -> None:
    # R-OUT-3: "they had melded nothing earlier in this deal" - an undone meld left nothing
    deal = new_deal(
        hands={0: [*KINGS, "AH", "AS", "AD", "AC"]},
        upcards=["4D"],
        stock=["TC", "TD", "TH", "TS", "9S"],
    )
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "AD"])
    deal.apply(0, {"type": "undo"})
    discard(deal, 0, "TC")
    for seat in (1, 2, 3):
        pass_turn(deal, seat)
    draw(deal, 0)
    meld(deal, 0, KINGS, ["AH", "AS", "AD", "AC"])
    discard(deal, 0, "9S")
    assert final(deal)[0]["going_out"] == 200


def test_r_end_1_variant_classic_red_three_as_last_card_ends_the_deal() -> None:
    # R-END-1 with stock_out="classic" (seed 003: "the deal also ends when the last card of the
    # stock is a red three"; no going-out bonus)
    deal = _opened_by_seat0(
        rules=Rules(stock_out="classic"),
        hands={0: ["KH", "KS", "KD", "QC", "JD", "TH", "9C", "8D", "7H", "6S", "5C"]},
        upcards=["3H", "3D", "3D", "9S"],
        stock_end=["3H"],
    )
    run_down(deal, 1)
    draw(deal, deal.turn)
    result = final(deal)
    assert result[0]["going_out"] == 0 and result[1]["going_out"] == 0
