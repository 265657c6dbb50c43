"""R-OPEN-*, R-UNDO-*: the opening minimum and "Вернуть как было"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from games.engine import Deal, Rules
from tests.engine.decks import (
    discard,
    draw,
    hand,
    meld,
    melds_by_rank,
    new_deal,
    pass_turn,
    refuse,
    take_pile,
    team_view,
)

SINGLES = ["9C", "8D", "7H", "6S", "5C", "TD", "JS", "4H"]


def seat0_deal(
    hand0: list[str],
    *,
    stock: Sequence[str] = ("3S",),
    team_scores: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
    upcards: Sequence[str] = ("4D",),
) -> Deal:
    assert len(hand0) == 11, hand0
    return new_deal(
        rules=rules, team_scores=team_scores, hands={0: hand0}, upcards=upcards, stock=stock
    )


def normalised(team: dict) -> dict:
    """A team view with every card list sorted (card order inside a meld is not contractual)."""
    melds = sorted(
        ({**m, "cards": sorted(m["cards"])} for m in team["melds"]), key=lambda m: m["rank"]
    )
    return {**team, "melds": melds, "red_threes": sorted(team["red_threes"])}


# --- R-OPEN-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "minimum"),
    [
        (-5000, 15),
        (-5, 15),
        (0, 50),
        (5, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (4995, 120),
        (9000, 120),
    ],
)
def test_r_open_1_minimum_follows_the_team_score(score: int, minimum: int) -> None:
    # R-OPEN-1
    deal = Deal.new(Rules(), dealer=0, team_scores=(score, 0), seed=1)
    assert team_view(deal, 0)["minimum"] == minimum
    assert team_view(deal, 1)["minimum"] == 50
    deal = Deal.new(Rules(), dealer=0, team_scores=(1500, score), seed=1)
    assert team_view(deal, 0)["minimum"] == 90
    assert team_view(deal, 1)["minimum"] == minimum
    assert team_view(deal, 0)["opened"] is False and team_view(deal, 1)["opened"] is False


def test_r_open_1_minimum_90_enforced() -> None:
    # R-OPEN-1: team score 1500 -> 90. AAA = 60 is short; AAA + KKK = 90 exactly reaches it
    deal = seat0_deal(["AH", "AS", "AD", "KH", "KS", "KD", *SINGLES[:5]], team_scores=(1500, -100))
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "AD"])
    refuse(deal, 0, {"type": "discard", "card": "9C"}, "below_minimum")
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "9C")
    assert team_view(deal, 0)["opened"] is True


def test_r_open_1_minimum_120_enforced() -> None:
    # R-OPEN-1: 3000 -> 120. JK+AA = 90 short; + QQQ = 120
    deal = seat0_deal(["JK", "AH", "AS", "QH", "QS", "QD", *SINGLES[:5]], team_scores=(3000, 0))
    draw(deal, 0)
    meld(deal, 0, ["AH", "AS", "JK"])
    refuse(deal, 0, {"type": "discard", "card": "9C"}, "below_minimum")
    meld(deal, 0, ["QH", "QS", "QD"])
    discard(deal, 0, "9C")


def test_r_open_1_minimum_15_for_a_negative_score() -> None:
    # R-OPEN-1: negative -> 15; three fours (15) open
    deal = seat0_deal(["4C", "4S", "4D", *SINGLES[:8]][:11], team_scores=(-20, 0), upcards=["KD"])
    draw(deal, 0)
    meld(deal, 0, ["4C", "4S", "4D"])
    discard(deal, 0, "9C")
    assert team_view(deal, 0)["opened"] is True


# --- R-OPEN-2 ---------------------------------------------------------------------------------


def test_r_open_2_several_melds_in_separate_actions_add_up() -> None:
    # R-OPEN-2: KKK (30) then QQQ (30) = 60 >= 50
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    refuse(deal, 0, {"type": "discard", "card": "9C"}, "below_minimum")
    meld(deal, 0, ["QH", "QS", "QD"])
    discard(deal, 0, "9C")
    assert team_view(deal, 0)["opened"] is True


def test_r_open_2_several_melds_in_one_action_add_up() -> None:
    # R-OPEN-2
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    discard(deal, 0, "9C")


def test_r_open_2_wild_added_this_turn_to_a_meld_of_this_turn_counts() -> None:
    # R-OPEN-2: KKK (30) + 555 (15) = 45 < 50; + a 2 on the kings (20) = 65
    deal = seat0_deal(["KH", "KS", "KD", "5H", "5S", "5D", "2C", "9C", "8D", "7H", "6S"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["5H", "5S", "5D"])
    refuse(deal, 0, {"type": "discard", "card": "9C"}, "below_minimum")
    meld(deal, 0, {"rank": "K", "cards": ["2C"]})
    discard(deal, 0, "9C")
    assert team_view(deal, 0)["opened"] is True


def test_r_open_2_canasta_bonus_never_counts() -> None:
    # R-OPEN-2: seven sevens are a natural canasta but only 35 points (< 50)
    sevens = ["7H", "7H", "7S", "7S", "7D", "7D", "7C"]
    deal = seat0_deal([*sevens, "4H", "4S", "4D", "9C"], stock=["KC"])
    draw(deal, 0)
    meld(deal, 0, sevens)
    assert melds_by_rank(deal, 0)["7"]["canasta"] == "natural"
    refuse(deal, 0, {"type": "discard", "card": "KC"}, "below_minimum")
    meld(deal, 0, ["4H", "4S", "4D"])  # 35 + 15 = 50
    discard(deal, 0, "KC")


def test_r_open_2_red_threes_never_count() -> None:
    # R-OPEN-2: a red three on the table (100) does not help: KKK = 30 < 50
    deal = seat0_deal(
        ["3H", "KH", "KS", "KD", "QH", "QS", "9C", "8D", "7H", "6S", "5C"], stock=["QD", "4S"]
    )
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    assert draw(deal, 0) == ["4S"]
    meld(deal, 0, ["KH", "KS", "KD"])
    refuse(deal, 0, {"type": "discard", "card": "4S"}, "below_minimum")
    meld(deal, 0, ["QH", "QS", "QD"])
    discard(deal, 0, "4S")


def test_r_open_2_partner_is_free_once_the_team_opened() -> None:
    # R-OPEN-1/2: the minimum is for the team's FIRST meld; afterwards 555 (15) is fine
    deal = new_deal(
        hands={
            0: ["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]],
            2: ["5H", "5S", "5D", "9H", "8S", "TC", "JD", "QC", "KC", "AC", "6D"],
        },
        upcards=["4D"],
        stock=["3S", "4C", "4S"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    discard(deal, 0, "3S")
    pass_turn(deal, 1, "4C")
    draw(deal, 2)
    meld(deal, 2, ["5H", "5S", "5D"])
    discard(deal, 2, "4S")
    assert deal.turn == 3


# --- R-OPEN-3 ---------------------------------------------------------------------------------


def test_r_open_3_no_discard_below_the_minimum_but_discard_without_melding_is_fine() -> None:
    # R-OPEN-3
    deal = seat0_deal(["KH", "KS", "KD", *SINGLES])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    for card in ["9C", "3S"]:
        refuse(deal, 0, {"type": "discard", "card": card}, "below_minimum")
    deal.apply(0, {"type": "undo"})
    discard(deal, 0, "9C")
    assert team_view(deal, 0)["opened"] is False
    assert team_view(deal, 0)["melds"] == []


# --- R-OPEN-4 ---------------------------------------------------------------------------------


def test_r_open_4_pile_top_card_counts() -> None:
    # R-OPEN-4: top AH (20) + AS AD from the hand (40) = 60 >= 50
    deal = seat0_deal(["AS", "AD", *SINGLES, "KS"], upcards=["AH"])
    take_pile(deal, 0, ["AS", "AD"])
    assert team_view(deal, 0)["opened"] is True
    assert Counter(melds_by_rank(deal, 0)["A"]["cards"]) == Counter(["AH", "AS", "AD"])


def pile_with(cards: list[str], hand0: list[str], *, team_scores: tuple[int, int] = (0, 0)) -> Deal:
    """Seat 0's first turn comes after seats 0..3 discarded `cards` (4 cards, the last on top);
    seat 0 holds `hand0` at that point (11 cards)."""
    assert len(cards) == 4
    # Seat 0 draws cards[0] then discards it, seats 1-3 likewise; then seat 0 faces the pile.
    deal = new_deal(team_scores=team_scores, hands={0: hand0}, upcards=["9C"], stock=[*cards, "4S"])
    for seat, card in enumerate(cards):
        assert draw(deal, seat) == [card]
        discard(deal, seat, card)
    assert deal.turn == 0 and deal.view(None)["pile"]["top"] == cards[-1]
    return deal


def test_r_open_4_other_pile_cards_never_count() -> None:
    # R-OPEN-4: pile 9C 5D AH AC KH. KS KD + top KH = 30 < 50; the aces under it do not help
    deal = pile_with(
        ["5D", "AH", "AC", "KH"], ["KS", "KD", "AS", "QH", "QS", "8C", "7S", "6H", "TD", "JC", "5H"]
    )
    refuse(deal, 0, {"type": "take_pile", "cards": ["KS", "KD"]}, "below_minimum")
    refuse(
        deal,
        0,
        {"type": "take_pile", "cards": ["KS", "KD"], "melds": [{"cards": ["AS", "AH", "AC"]}]},
        "card_not_in_hand",
    )


def test_r_open_4_hand_melds_with_the_pile_reach_the_minimum() -> None:
    # R-OPEN-4 + R-FRZ-4: KS KD + top KH (30) + QH QS QD from the hand (30) = 60
    deal = pile_with(
        ["5D", "AH", "AC", "KH"], ["KS", "KD", "AS", "QH", "QS", "QD", "8C", "7S", "6H", "TD", "JC"]
    )
    before = hand(deal, 0)
    take_pile(deal, 0, ["KS", "KD"], ["QH", "QS", "QD"])
    assert team_view(deal, 0)["opened"] is True
    expected = before - Counter(["KS", "KD", "QH", "QS", "QD"]) + Counter(["9C", "5D", "AH", "AC"])
    assert hand(deal, 0) == expected
    # the aces from the pile may now be melded freely (the team has opened)
    meld(deal, 0, ["AS", "AH", "AC"])
    discard(deal, 0, "5D")


# --- R-OPEN-5 ---------------------------------------------------------------------------------

FOURS = ["4C", "4C", "4D", "4D", "4H", "4H", "4S"]
FIVES = ["5C", "5C", "5D", "5D"]


def test_r_open_5_concealed_going_out_needs_the_minimum() -> None:
    # R-OPEN-5 DECIDED: seven fours (35) + four fives (20) = 55 < 90 (team score 1500)
    deal = seat0_deal([*FOURS, *FIVES], stock=["9S"], team_scores=(1500, 0), upcards=["KD"])
    draw(deal, 0)
    meld(deal, 0, FOURS, FIVES)
    refuse(deal, 0, {"type": "discard", "card": "9S"}, "below_minimum")


def test_r_open_5_concealed_going_out_by_melding_everything_needs_the_minimum() -> None:
    # R-OPEN-5: seven fours + five fives (60 < 90) melded at once, no discard
    deal = seat0_deal([*FOURS, *FIVES], stock=["5H"], team_scores=(1500, 0), upcards=["KD"])
    draw(deal, 0)
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"cards": FOURS}, {"cards": [*FIVES, "5H"]}]},
        "below_minimum",
    )


def test_r_open_5_variant_concealed_out_skips_minimum() -> None:
    # R-OPEN-5 variant concealed_out_skips_minimum (seed 003): exempt when going out at once
    # after drawing from the stock, with a canasta; concealed bonus 200
    rules = Rules(concealed_out_skips_minimum=True)
    deal = seat0_deal(
        [*FOURS, *FIVES], stock=["9S"], team_scores=(1500, 0), rules=rules, upcards=["KD"]
    )
    draw(deal, 0)
    meld(deal, 0, FOURS, FIVES)
    discard(deal, 0, "9S")
    assert deal.phase == "over"
    result = deal.result
    assert result is not None
    assert result[0]["going_out"] == 200
    assert result[0]["cards"] == 35 + 20

    deal = seat0_deal(
        [*FOURS, *FIVES], stock=["5H"], team_scores=(1500, 0), rules=rules, upcards=["KD"]
    )
    draw(deal, 0)
    meld(deal, 0, FOURS, [*FIVES, "5H"])
    assert deal.phase == "over"


def test_r_open_5_variant_does_not_exempt_melds_that_do_not_go_out() -> None:
    # R-OPEN-5 variant: only going out is exempt; an ordinary opening still needs 90
    rules = Rules(concealed_out_skips_minimum=True)
    deal = seat0_deal(
        [*FOURS, "5C", "5D", "KH", "KS"],
        stock=["9S"],
        team_scores=(1500, 0),
        rules=rules,
        upcards=["KD"],
    )
    draw(deal, 0)
    meld(deal, 0, FOURS)
    refuse(deal, 0, {"type": "discard", "card": "9S"}, "below_minimum")


# --- R-UNDO -----------------------------------------------------------------------------------


def test_r_undo_1_returns_the_melded_cards_and_the_turn_goes_on() -> None:
    # R-UNDO-1
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]], stock=["JH"])
    assert draw(deal, 0) == ["JH"]
    after_draw = hand(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    assert deal.view(0)["undo_available"] is True
    assert deal.view(1)["undo_available"] is False, "only in the view of the seat to move"
    deal.apply(0, {"type": "undo"})
    assert hand(deal, 0) == after_draw, "the drawn card stays, the melded cards come back"
    assert team_view(deal, 0)["melds"] == []
    assert team_view(deal, 0)["opened"] is False
    assert deal.turn == 0 and deal.phase == "play"
    assert deal.view(0)["undo_available"] is False
    discard(deal, 0, "JH")
    assert deal.turn == 1


def test_r_undo_1_minimum_applies_again_after_undoing_the_opening() -> None:
    # R-UNDO-1 + R-OPEN-3: after the undo the team has not opened any more
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]], stock=["JH"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KH", "KS", "KD"])  # QQQ is still in hand: the minimum stays reachable
    refuse(deal, 0, {"type": "discard", "card": "JH"}, "below_minimum")
    meld(deal, 0, ["QH", "QS", "QD"])
    discard(deal, 0, "JH")


def test_r_undo_1_only_this_turns_cards_come_back_including_additions_to_partner_melds() -> None:
    # R-UNDO-1: seat 2 adds a king to seat 0's kings and melds QQQ, then undoes both
    deal = new_deal(
        hands={
            0: ["KH", "KS", "KD", "AH", "AS", "AD", *SINGLES[:5]],
            2: ["KC", "QH", "QS", "QD", "9H", "8S", "TC", "JD", "6D", "5S", "7C"],
        },
        upcards=["4D"],
        stock=["3S", "4C", "4S"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["AH", "AS", "AD"])
    discard(deal, 0, "3S")
    pass_turn(deal, 1, "4C")
    draw(deal, 2)
    after_draw = hand(deal, 2)
    team_before = team_view(deal, 0)
    meld(deal, 2, ["KC"], ["QH", "QS", "QD"])
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 4
    deal.apply(2, {"type": "undo"})
    assert hand(deal, 2) == after_draw
    assert normalised(team_view(deal, 0)) == normalised(team_before)
    assert team_view(deal, 0)["opened"] is True


def test_r_undo_2_once_per_turn() -> None:
    # R-UNDO-2
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]], stock=["JH"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    refuse(deal, 0, {"type": "undo"}, "undo_not_allowed")
    discard(deal, 0, "JH")


def test_r_undo_2_available_again_in_the_next_turn() -> None:
    # R-UNDO-2: once per TURN
    deal = seat0_deal(
        ["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]], stock=["JH", "JC", "JD", "TS", "TH"]
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    deal.apply(0, {"type": "undo"})
    discard(deal, 0, "JH")
    for seat in (1, 2, 3):
        pass_turn(deal, seat)
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["QH", "QS", "QD"])
    assert deal.view(0)["undo_available"] is True
    deal.apply(0, {"type": "undo"})
    assert team_view(deal, 0)["melds"] == []


def test_r_undo_2_never_after_taking_the_pile() -> None:
    # R-UNDO-2 + R-PILE-2: a taken pile cannot be undone
    deal = seat0_deal(["AS", "AD", "KH", "KS", "KD", *SINGLES[:6]], upcards=["AH"])
    take_pile(deal, 0, ["AS", "AD"])
    assert deal.view(0)["undo_available"] is False
    refuse(deal, 0, {"type": "undo"}, "undo_not_allowed")
    meld(deal, 0, ["KH", "KS", "KD"])
    assert deal.view(0)["undo_available"] is False
    refuse(deal, 0, {"type": "undo"}, "undo_not_allowed")


def test_r_undo_2_not_before_the_draw() -> None:
    # R-UNDO-2 / R-TURN-1: nothing to undo before the draw
    deal = seat0_deal(["KH", "KS", "KD", *SINGLES])
    refuse(deal, 0, {"type": "undo"}, "undo_not_allowed")


def test_r_undo_3_meld_refused_when_the_minimum_became_unreachable() -> None:
    # R-UNDO-3: KKK + singles can never reach 50; before the undo the meld is still allowed
    # (R-OPEN-3 lets the player meld more or undo), after the undo it is refused
    deal = seat0_deal(["KH", "KS", "KD", *SINGLES])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    deal.apply(0, {"type": "undo"})
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KH", "KS", "KD"]}]}, "minimum_unreachable"
    )
    discard(deal, 0, "KH")
    assert deal.turn == 1


def test_r_undo_3_counts_only_cards_the_player_may_meld_keeping_two() -> None:
    # R-UNDO-3: 444 555 666 777 = 60 only if all 12 cards were melded; R-OUT-2 keeps two cards
    # in hand (no canasta possible), so at most three triples = 45 < 50: unreachable
    hand0 = ["4C", "4D", "4H", "5C", "5D", "5H", "6C", "6D", "6H", "7C", "7D"]
    deal = seat0_deal(hand0, stock=["7H"], upcards=["KD"])
    draw(deal, 0)
    meld(deal, 0, ["4C", "4D", "4H"])
    deal.apply(0, {"type": "undo"})
    refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["4C", "4D", "4H"]}]}, "minimum_unreachable"
    )
    refuse(
        deal,
        0,
        {"type": "meld", "melds": [{"cards": ["4C", "4D", "4H"]}, {"cards": ["5C", "5D", "5H"]}]},
        "minimum_unreachable",
    )


def test_r_undo_3_meld_allowed_while_the_minimum_stays_reachable() -> None:
    # R-UNDO-3: KKK (30) with QQQ (30) still in hand stays legal after an undo
    deal = seat0_deal(["KH", "KS", "KD", "QH", "QS", "QD", *SINGLES[:5]], stock=["JH"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KH", "KS", "KD"])
    meld(deal, 0, ["QH", "QS", "QD"])
    discard(deal, 0, "JH")
    assert team_view(deal, 0)["opened"] is True


def test_r_undo_3_the_two_cards_kept_decide_whether_the_minimum_is_reachable() -> None:
    # R-UNDO-3 + R-OUT-2: after the undo, 4S 4H 4D (15) leaves KS KH KD (30) and a wild: 15 +
    # 30 + 20 = 65 melds seven of the nine cards left and keeps two, so the fours stay legal;
    # with 7C instead of the wild, 45 < 50 is out of reach
    for wild, reachable in (("2C", True), ("7C", False)):
        hand0 = ["4S", "4H", "4D", "KS", "KH", "KD", "9C", "8C", wild, "QS", "JH"]
        deal = seat0_deal(hand0, stock=["6C"], upcards=["TC"])
        draw(deal, 0)
        meld(deal, 0, ["KS", "KH", "KD"])
        deal.apply(0, {"type": "undo"})
        action = {"type": "meld", "melds": [{"cards": ["4S", "4H", "4D"]}]}
        if reachable:
            deal.apply(0, action)
            meld(deal, 0, ["KS", "KH", "KD", "2C"])
            assert team_view(deal, 0)["opened"] is True
        else:
            refuse(deal, 0, action, "minimum_unreachable")


def test_r_undo_3_does_not_apply_to_an_opened_team() -> None:
    # R-UNDO-3 concerns the minimum; once the team has opened any meld is fine after an undo
    deal = new_deal(
        hands={
            0: ["KH", "KS", "KD", "AH", "AS", "AD", *SINGLES[:5]],
            2: ["QH", "QS", "QD", "9H", "8S", "TC", "JD", "6D", "5S", "7C", "KC"],
        },
        upcards=["4D"],
        stock=["3S", "4C", "4S"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"], ["AH", "AS", "AD"])
    discard(deal, 0, "3S")
    pass_turn(deal, 1, "4C")
    draw(deal, 2)
    meld(deal, 2, ["QH", "QS", "QD"])
    deal.apply(2, {"type": "undo"})
    meld(deal, 2, ["QH", "QS", "QD"])
    discard(deal, 2, "4S")


def test_r_undo_3_minimum_reachable_through_a_wild_added_later() -> None:
    # R-UNDO-3 + R-OPEN-2: KKK (30) and a 2 added to it (20) reach 50, so KKK stays legal
    deal = seat0_deal(["KH", "KS", "KD", "2C", *SINGLES[:7]], stock=["QH"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KH", "KS", "KD"])
    meld(deal, 0, {"rank": "K", "cards": ["2C"]})
    discard(deal, 0, "QH")
    assert team_view(deal, 0)["opened"] is True


def test_r_open_5_variant_exempts_only_after_a_stock_draw() -> None:
    # R-OPEN-5 variant: "after drawing from the stock" - going out by taking the pile with a
    # canasta (eight fours 40 + four fives 20 = 60 < 90) still needs the minimum
    hand0 = ["4C", "4D", "4S", "4S", "4H", "4C", "4D", "5C", "5D", "5H", "5S"]
    action = {
        "type": "take_pile",
        "cards": ["4C", "4D"],
        "melds": [{"cards": ["4S", "4S", "4H", "4C", "4D"]}, {"cards": ["5C", "5D", "5H", "5S"]}],
    }
    for rules in (Rules(), Rules(concealed_out_skips_minimum=True)):
        deal = seat0_deal(hand0, team_scores=(1500, 0), rules=rules, upcards=["4H"])
        refuse(deal, 0, action, "below_minimum")
