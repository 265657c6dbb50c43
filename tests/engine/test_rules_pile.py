"""R-PILE-*, R-FRZ-*, R-RED-* (laying red threes): taking the discard pile, freezing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from games.engine import Deal, Rules
from tests.engine.decks import (
    cards_on_table,
    discard,
    draw,
    hand,
    meld,
    melds_by_rank,
    new_deal,
    pile,
    refuse,
    take_pile,
    team_view,
)


def round_then_seat0(
    hand0: list[str],
    opening: Sequence[Sequence[str]],
    discards: list[str],
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    upcards: Sequence[str] = ("4D",),
    team_scores: tuple[int, int] = (-10, -10),
) -> Deal:
    """Seat 0 draws discards[0], melds `opening` (may be empty) and discards discards[0]; seats
    1-3 each draw discards[i] and discard it. Then seat 0 faces the pile, discards[3] on top."""
    assert len(hand0) == 11 and len(discards) == 4
    deal = new_deal(
        team_scores=team_scores,
        hands={0: hand0, **(hands or {})},
        upcards=upcards,
        stock=[*discards, "8H", "8S"],
    )
    for seat, card in enumerate(discards):
        assert draw(deal, seat) == [card]
        if seat == 0 and opening:
            meld(deal, 0, *opening)
        discard(deal, seat, card)
    assert deal.turn == 0 and pile(deal)["top"] == discards[3]
    return deal


OPEN_K = [["KH", "KS", "KD"]]


# --- R-PILE-1 ---------------------------------------------------------------------------------


def test_r_pile_1_the_whole_pile_is_taken() -> None:
    # R-PILE-1: every pile card but the melded top goes to the hand
    hand0 = ["KH", "KS", "KD", "9S", "9D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "9H"])
    before = hand(deal, 0)
    take_pile(deal, 0, ["9S", "9D"])
    assert hand(deal, 0) == before - Counter(["9S", "9D"]) + Counter(["4D", "AC", "AD", "JC"])
    assert pile(deal)["count"] == 0
    assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(["9H", "9S", "9D"])
    assert cards_on_table(deal.view(None)) == 108
    discard(deal, 0, "QC")
    assert pile(deal) == {"top": "QC", "count": 1, "frozen": False}


def test_r_pile_1_wild_on_top_blocks_the_pile() -> None:
    # R-PILE-1: a 2 or a joker on top: the pile cannot be taken
    for wild in ["2C", "JK"]:
        hand0 = ["KH", "KS", "KD", "2S", "2D", "JK", "QC", "JD", "TH", "7C", "6H"]
        deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", wild])
        assert pile(deal)["frozen"] is True
        refuse(deal, 0, {"type": "take_pile", "cards": ["2S", "2D"]}, "pile_blocked")
        refuse(deal, 0, {"type": "take_pile", "cards": []}, "pile_blocked")


def test_r_pile_1_black_three_on_top_blocks_the_pile() -> None:
    # R-PILE-1 + R-PILE-5
    hand0 = ["KH", "KS", "KD", "3S", "3C", "QH", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "3S"])
    refuse(deal, 0, {"type": "take_pile", "cards": ["3S", "3C"]}, "pile_blocked")
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "pile_blocked")


def test_r_pile_1_the_top_card_must_be_melded() -> None:
    # R-PILE-1: the pile is taken only to meld its top card at once
    hand0 = ["KH", "KS", "KD", "QS", "QD", "9S", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "9H"])
    refuse(
        deal,
        0,
        {"type": "take_pile", "cards": ["QS", "QD"]},
        {"mixed_ranks", "cannot_take_pile"},
    )
    # one natural alone cannot make a meld with the top card
    refuse(
        deal,
        0,
        {"type": "take_pile", "cards": ["9S"]},
        {"meld_too_small", "cannot_take_pile"},
    )
    # no meld of nines for the top card to join
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "cannot_take_pile")
    # cards not held
    refuse(deal, 0, {"type": "take_pile", "cards": ["9C", "9D"]}, "card_not_in_hand")


# --- R-PILE-2 ---------------------------------------------------------------------------------


def test_r_pile_2_take_is_atomic_a_bad_extra_meld_refuses_everything() -> None:
    # R-PILE-2: take_pile names the melds; if one is illegal nothing happens
    hand0 = ["AS", "AD", "QH", "QS", "KH", "9C", "8D", "7H", "6S", "5C", "TD"]
    deal = new_deal(hands={0: hand0}, upcards=["AH"])
    refuse(
        deal,
        0,
        {"type": "take_pile", "cards": ["AS", "AD"], "melds": [{"cards": ["QH", "QS"]}]},
        "meld_too_small",
    )
    refuse(
        deal,
        0,
        {"type": "take_pile", "cards": ["AS", "AD"], "melds": [{"cards": ["QH", "QS", "KH"]}]},
        "mixed_ranks",
    )
    take_pile(deal, 0, ["AS", "AD"])
    assert deal.phase == "play"


def test_r_pile_2_a_pile_of_one_taken_to_open() -> None:
    # R-PILE-2 + R-OPEN-4: the take names the opening melds; a pile of one card gives nothing
    # to the hand, and the turn goes on to a discard
    hand0 = ["KS", "KH", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new_deal(hands={0: hand0}, upcards=["KC"])
    event = take_pile(deal, 0, ["KS", "KH"], ["AS", "AH", "AD"])
    assert event["public"]["count"] == 1 and event["private"]["cards"] == []
    assert deal.phase == "play" and pile(deal)["count"] == 0
    by_rank = {rank: Counter(meld["cards"]) for rank, meld in melds_by_rank(deal, 0).items()}
    assert by_rank == {"K": Counter(["KC", "KS", "KH"]), "A": Counter(["AS", "AH", "AD"])}
    discard(deal, 0, "QC")


def test_r_pile_2_turn_goes_on_after_taking() -> None:
    # R-PILE-2: after the take the player may meld more and must discard
    hand0 = ["KH", "KS", "KD", "9S", "9D", "QC", "QD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "QS", "9H"])
    take_pile(deal, 0, ["9S", "9D"])
    meld(deal, 0, ["QC", "QD", "QS"])
    assert deal.phase == "play" and deal.turn == 0
    discard(deal, 0, "AC")
    assert deal.turn == 1


def test_r_pile_2_take_with_a_malformed_meld_is_refused() -> None:
    # R-PILE-2 + CONTRACT: melds must have the meld form
    hand0 = ["AS", "AD", "QH", "QS", "QD", "9C", "8D", "7H", "6S", "5C", "TD"]
    deal = new_deal(hands={0: hand0}, upcards=["AH"])
    refuse(deal, 0, {"type": "take_pile", "cards": ["AS", "AD"], "melds": "QH QS QD"}, "bad_action")


# --- R-PILE-3 ---------------------------------------------------------------------------------


def _one_card_left(kings: list[str], *, seat3_takes: bool, seat3_discard: str) -> Deal:
    """Seat 0 melds ten cards in turn 1 and keeps one (9C). If `seat3_takes`, seat 3 takes the
    pile (team 1, minimum 15) and then discards `seat3_discard` onto the empty pile."""
    others = ["QH", "QS", "QD", "JH", "JS", "JD"][: 11 - len(kings) - 1]
    hand0 = [*kings, *others, "9C"]
    hand3 = ["9S", "9D", seat3_discard, "5C", "5D", "6C", "6D", "7C", "7D", "TC", "TD"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0, 3: hand3},
        upcards=["4D"],
        stock=["8D", "TS", "9H", "AC", "AD"],
    )
    draw(deal, 0)
    melds = [kings] + [others[i : i + 3] for i in range(0, len(others), 3)]
    meld(deal, 0, *melds)
    discard(deal, 0, "8D")
    assert deal.view(0)["hand"] == ["9C"]
    draw(deal, 1)
    discard(deal, 1, "TS")
    draw(deal, 2)
    discard(deal, 2, "9H")
    if seat3_takes:
        take_pile(deal, 3, ["9S", "9D"])
    else:
        draw(deal, 3)
    discard(deal, 3, seat3_discard)
    return deal


def test_r_pile_3_no_take_that_leaves_no_card_after_the_discard_without_a_canasta() -> None:
    # R-PILE-3: KC alone in the pile; KS KH with it plus AAAA QQQQ would leave 9C alone, and
    # no card after the discard; melding only the aces leaves five cards
    hand0 = ["KS", "KH", "AS", "AH", "AD", "AC", "QS", "QH", "QD", "QC", "9C"]
    deal = new_deal(hands={0: hand0}, upcards=["KC"])
    refuse(
        deal,
        0,
        {
            "type": "take_pile",
            "cards": ["KS", "KH"],
            "melds": [{"cards": ["AS", "AH", "AD", "AC"]}, {"cards": ["QS", "QH", "QD", "QC"]}],
        },
        "cannot_take_pile",
    )
    take_pile(deal, 0, ["KS", "KH"], ["AS", "AH", "AD", "AC"])
    assert deal.view(None)["hand_counts"][0] == 5


def test_r_pile_3_one_card_may_not_take_a_pile_of_one() -> None:
    # R-PILE-3: holding 9C, pile = [KC]; the king would join the team's kings and the 9C be
    # discarded: no card left and no canasta
    deal = _one_card_left(["KH", "KS", "KD", "KC"], seat3_takes=True, seat3_discard="KC")
    assert pile(deal) == {"top": "KC", "count": 1, "frozen": False}
    assert team_view(deal, 0)["opened"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "cannot_take_pile")
    draw(deal, 0)


def test_r_pile_3_one_card_may_take_a_bigger_pile() -> None:
    # R-PILE-3: with a pile of several cards the player keeps cards after the discard
    deal = _one_card_left(["KH", "KS", "KD", "KC"], seat3_takes=False, seat3_discard="KC")
    assert pile(deal)["count"] > 1
    take_pile(deal, 0, [])
    discard(deal, 0, "9C")
    assert deal.turn == 1 and deal.phase == "draw"


def test_r_pile_3_one_card_never_takes_a_pile_of_one_even_with_a_canasta() -> None:
    # R-PILE-3 first sentence (seed 000: "С одной картой в руке стопку из одной карты не
    # берут.") holds on its own, canasta or not
    kings = ["KH", "KH", "KS", "KS", "KD", "KD", "KC"]
    deal = _one_card_left(kings, seat3_takes=True, seat3_discard="KC")
    assert melds_by_rank(deal, 0)["K"]["canasta"] == "natural"
    assert pile(deal)["count"] == 1
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "cannot_take_pile")
    draw(deal, 0)


def test_r_pile_3_with_a_canasta_taking_may_leave_no_card() -> None:
    # R-PILE-3 second sentence: no card left after the take is fine with a team canasta (the
    # player goes out). Seat 0 melds eight kings + a 2 (canasta) and keeps 9C 9D; seat 3 takes
    # the pile and discards 9H; seat 0 takes that one-card pile with its pair: out.
    kings = ["KH", "KH", "KS", "KS", "KD", "KD", "KC", "KC", "2C"]
    hand3 = ["JS", "JD", "9H", "5C", "5D", "6C", "6D", "7C", "7D", "TC", "TD"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: [*kings, "9C", "9D"], 3: hand3},
        upcards=["4D"],
        stock=["8D", "TS", "JH", "AC"],
    )
    draw(deal, 0)
    meld(deal, 0, kings)
    discard(deal, 0, "8D")
    draw(deal, 1)
    discard(deal, 1, "TS")
    draw(deal, 2)
    discard(deal, 2, "JH")
    take_pile(deal, 3, ["JS", "JD"])
    discard(deal, 3, "9H")
    assert pile(deal)["count"] == 1 and sorted(deal.view(0)["hand"]) == ["9C", "9D"]
    take_pile(deal, 0, ["9C", "9D"])
    assert deal.phase == "over"
    assert deal.result is not None and deal.result[0]["going_out"] == 100


# --- R-PILE-4 ---------------------------------------------------------------------------------


def test_r_pile_4_opened_unfrozen_two_naturals() -> None:
    # R-PILE-4
    hand0 = ["KH", "KS", "KD", "9S", "9D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "9H"])
    take_pile(deal, 0, ["9S", "9D"])
    assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(["9H", "9S", "9D"])


def test_r_pile_4_opened_unfrozen_natural_and_wild() -> None:
    # R-PILE-4
    hand0 = ["KH", "KS", "KD", "9S", "2D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "9H"])
    assert pile(deal)["frozen"] is False
    take_pile(deal, 0, ["9S", "2D"])
    assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(["9H", "9S", "2D"])


def test_r_pile_4_opened_unfrozen_top_joins_the_team_meld() -> None:
    # R-PILE-4: cards [] = the top card joins the team's meld of its rank
    hand0 = ["KH", "KS", "KD", "9S", "2D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "KC"])
    take_pile(deal, 0, [])
    assert Counter(melds_by_rank(deal, 0)["K"]["cards"]) == Counter(["KH", "KS", "KD", "KC"])
    assert hand(deal, 0)["AC"] == 1 and hand(deal, 0)["4D"] == 1


def test_r_pile_4_partner_meld_counts_for_joining() -> None:
    # R-PILE-4 + R-MELD-1: seat 2 takes a king onto the kings seat 0 melded
    hand0 = ["KH", "KS", "KD", "9S", "2D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["4D"], stock=["AC", "KC"])
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "AC")
    draw(deal, 1)
    discard(deal, 1, "KC")
    take_pile(deal, 2, [])
    assert len(melds_by_rank(deal, 0)["K"]["cards"]) == 4


def test_r_pile_4_opponents_meld_does_not_help() -> None:
    # R-PILE-4: only the taking team's meld of that rank counts
    hand1 = ["QS", "9C", "8D", "7H", "6S", "5C", "TD", "JS", "4H", "AS", "9H"]
    hand0 = ["KH", "KS", "KD", "9S", "2D", "QC", "JD", "TH", "7C", "6H", "5S"]
    deal = new_deal(
        team_scores=(-10, -10), hands={0: hand0, 1: hand1}, upcards=["4D"], stock=["KC"]
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "KC")
    refuse(deal, 1, {"type": "take_pile", "cards": []}, "pile_frozen")  # R-FRZ-2: not opened


# --- R-PILE-5 ---------------------------------------------------------------------------------


def test_r_pile_5_black_three_blocks_the_next_player_only() -> None:
    # R-PILE-5: not a freeze; once covered the pile can be taken again
    hand0 = ["KH", "KS", "KD", "3S", "QC", "JD", "TH", "7C", "6H", "5S", "AH"]
    hand1 = ["9C", "8D", "7H", "6S", "5C", "TD", "JS", "4H", "AS", "QH", "3C"]
    hand2 = ["9S", "9D", "QS", "JH", "TC", "8C", "7D", "6C", "5D", "4C", "AD"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0, 1: hand1, 2: hand2},
        upcards=["4D"],
        stock=["8S", "9H"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "3S")
    assert pile(deal) == {"top": "3S", "count": 2, "frozen": False}
    refuse(deal, 1, {"type": "take_pile", "cards": []}, "pile_blocked")
    draw(deal, 1)
    discard(deal, 1, "9H")
    take_pile(deal, 2, ["9S", "9D"])
    assert hand(deal, 2)["3S"] == 1


# --- R-PILE-6 ---------------------------------------------------------------------------------


def test_r_pile_6_red_three_in_a_taken_pile_is_laid_without_replacement() -> None:
    # R-PILE-6: a red three covered at the deal (R-DEAL-3) comes with the pile
    hand0 = ["9S", "9D", "KH", "QC", "JD", "TH", "7C", "6H", "5S", "AH", "8C"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["3H", "2C", "9C"])
    assert pile(deal) == {"top": "9C", "count": 3, "frozen": True}
    stock_before = deal.view(None)["stock_count"]
    event = take_pile(deal, 0, ["9S", "9D"])
    assert event["public"]["red_threes"] == ["3H"]
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    assert deal.view(None)["stock_count"] == stock_before
    assert hand(deal, 0) == Counter(hand0) - Counter(["9S", "9D"]) + Counter(["2C"])
    assert deal.view(None)["hand_counts"][0] == 10
    assert cards_on_table(deal.view(None)) == 108


# --- R-FRZ ------------------------------------------------------------------------------------


def test_r_frz_1_discarded_wild_freezes_until_taken() -> None:
    # R-FRZ-1: a discarded 2 freezes the pile; it stays frozen under later cards
    hand0 = ["KH", "KS", "KD", "9S", "9D", "2D", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "2C", "JC", "9H"])
    assert pile(deal) == {"top": "9H", "count": 5, "frozen": True}
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "2D"]}, "pile_frozen")
    take_pile(deal, 0, ["9S", "9D"])
    discard(deal, 0, "AC")
    assert pile(deal) == {"top": "AC", "count": 1, "frozen": False}, "the next pile starts unfrozen"


def test_r_frz_1_discarded_joker_freezes() -> None:
    # R-FRZ-1
    hand0 = ["KH", "KS", "KD", "9S", "9D", "2D", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["JK", "AD", "JC", "9H"])
    assert pile(deal)["frozen"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "2D"]}, "pile_frozen")


def test_r_frz_2_unopened_team_always_needs_a_natural_pair() -> None:
    # R-FRZ-2: the pile is not frozen (view) but the team has not opened
    hand0 = ["AS", "2D", "AD", "QH", "QS", "QD", "9C", "8D", "7H", "6S", "5C"]
    deal = new_deal(hands={0: hand0}, upcards=["AH"])
    assert pile(deal)["frozen"] is False and team_view(deal, 0)["opened"] is False
    refuse(deal, 0, {"type": "take_pile", "cards": ["AS", "2D"]}, "pile_frozen")
    refuse(deal, 0, {"type": "take_pile", "cards": ["AS", "2D"], "melds": [["QH"]]}, "bad_action")
    take_pile(deal, 0, ["AS", "AD"])


def test_r_frz_3_frozen_pile_needs_natural_pair() -> None:
    # R-FRZ-3: the team's meld of that rank does not help on its own; the top with the pair then
    # joins that meld
    hand0 = ["KH", "KS", "KD", "KC", "KC", "2D", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "2C", "JC", "KH"])
    assert pile(deal)["frozen"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "pile_frozen")
    refuse(deal, 0, {"type": "take_pile", "cards": ["KC"]}, "pile_frozen")
    refuse(deal, 0, {"type": "take_pile", "cards": ["KC", "2D"]}, "pile_frozen")
    take_pile(deal, 0, ["KC", "KC"])
    melds = team_view(deal, 0)["melds"]
    assert len(melds) == 1
    assert Counter(melds[0]["cards"]) == Counter(["KH", "KS", "KD", "KH", "KC", "KC"])
    assert pile(deal) == {"top": None, "count": 0, "frozen": False}


def test_r_frz_3_dealt_red_three_freezes() -> None:
    # R-FRZ-1/R-FRZ-3: a red three covered at the deal freezes too
    hand0 = ["KH", "KS", "KD", "9S", "9D", "2D", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "AD", "JC", "9H"], upcards=["3D", "4D"])
    assert pile(deal)["frozen"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "2D"]}, "pile_frozen")
    take_pile(deal, 0, ["9S", "9D"])
    assert team_view(deal, 0)["red_threes"] == ["3D"]


def test_r_frz_4_frozen_pile_to_open_needs_the_minimum() -> None:
    # R-FRZ-4: KS KD + top KH = 30 < 50; with QQQ from the hand 60
    hand0 = ["KS", "KD", "QH", "QS", "QD", "9C", "8D", "7H", "6S", "5C", "TD"]
    deal = new_deal(hands={0: hand0}, upcards=["2C", "KH"])
    assert pile(deal)["frozen"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": ["KS", "KD"]}, "below_minimum")
    take_pile(deal, 0, ["KS", "KD"], ["QH", "QS", "QD"])
    assert team_view(deal, 0)["opened"] is True
    assert hand(deal, 0)["2C"] == 1


def test_r_frz_4_take_to_open_must_keep_two_cards() -> None:
    # R-FRZ-4 + R-OUT-2: melds that leave fewer than two cards without a canasta are refused
    hand0 = ["KS", "KD", "QH", "QS", "QD", "JH", "JS", "JD", "TH", "TS", "TD"]
    deal = new_deal(hands={0: hand0}, upcards=["KH"])
    action = {
        "type": "take_pile",
        "cards": ["KS", "KD"],
        "melds": [
            {"cards": ["QH", "QS", "QD"]},
            {"cards": ["JH", "JS", "JD"]},
            {"cards": ["TH", "TS", "TD"]},
        ],
    }
    refuse(deal, 0, action, "cannot_take_pile")


def test_r_pile_5_variant_black_three_upcard_blocks_only_the_first_player() -> None:
    # R-PILE-5 + R-DEAL-3 variant: the black three upcard blocks seat 0; once seat 0's discard
    # covers it, seat 1 may take the pile
    hand1 = ["9S", "9D", "QC", "JD", "TH", "8C", "7H", "6S", "5C", "4H", "AS"]
    deal = new_deal(
        rules=Rules(upcard_stops_on_black_three=True),
        team_scores=(-10, -10),
        hands={1: hand1},
        upcards=["3S"],
        stock=["9H"],
    )
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "pile_blocked")
    draw(deal, 0)
    discard(deal, 0, "9H")
    take_pile(deal, 1, ["9S", "9D"])
    assert hand(deal, 1)["3S"] == 1


def test_r_frz_3_wild_may_join_after_the_natural_pair_in_the_same_take() -> None:
    # R-FRZ-3 + R-PILE-2 DECIDED: the pair that takes the frozen pile is natural; a wild from
    # the hand may join the new meld in the same action, in `cards` or in `melds` alike, but
    # never stand in for one card of the pair
    hand0 = ["KH", "KS", "KD", "9S", "9D", "2D", "JD", "TH", "7C", "6H", "5S"]
    deal = round_then_seat0(hand0, OPEN_K, ["AC", "2C", "JC", "9H"])
    assert pile(deal)["frozen"] is True
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "2D"]}, "pile_frozen")
    in_cards = Deal.from_dict(deal.to_dict())
    take_pile(in_cards, 0, ["9S", "9D", "2D"])
    take_pile(deal, 0, ["9S", "9D"], {"rank": "9", "cards": ["2D"]})
    assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(["9H", "9S", "9D", "2D"])
    assert in_cards.to_dict() == deal.to_dict()


def test_r_frz_4_wild_beside_the_pair_counts_toward_the_minimum_in_either_form() -> None:
    # R-FRZ-2/4 + R-OPEN-2 DECIDED: an unopened team takes with 9S 9D and a joker: 10 + 20 + 50
    # = 80 >= 50 whether the joker is in `cards` or in `melds`; without it, 30 is too little
    hand0 = ["9S", "9D", "JK", "QH", "JS", "TC", "8D", "7H", "6S", "5C", "4D"]
    deal = new_deal(hands={0: hand0}, upcards=["9H"])
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "9D"]}, "below_minimum")
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "JK"]}, "pile_frozen")
    in_cards = Deal.from_dict(deal.to_dict())
    take_pile(in_cards, 0, ["9S", "9D", "JK"])
    take_pile(deal, 0, ["9S", "9D"], {"rank": "9", "cards": ["JK"]})
    assert team_view(deal, 0)["opened"] is True
    assert in_cards.to_dict() == deal.to_dict()


def test_r_open_4_wild_added_in_the_take_counts_for_the_minimum() -> None:
    # R-OPEN-2 + R-OPEN-4: top KH 10 + KS KD 20 + a 2 added to those kings 20 = 50 >= 50
    hand0 = ["KS", "KD", "2C", "QH", "JS", "9C", "8D", "7H", "6S", "5C", "TD"]
    deal = new_deal(hands={0: hand0}, upcards=["KH"])
    refuse(deal, 0, {"type": "take_pile", "cards": ["KS", "KD"]}, "below_minimum")
    take_pile(deal, 0, ["KS", "KD"], {"rank": "K", "cards": ["2C"]})
    assert team_view(deal, 0)["opened"] is True


def test_r_frz_2_the_same_pile_is_frozen_for_the_unopened_team_only() -> None:
    # R-FRZ-2: an unfrozen pile (view) after team 0 opened: team 1 (not opened) needs a natural
    # pair, team 0 may take it with a natural and a wild (R-PILE-4)
    hand0 = ["KH", "KS", "KD", "QC", "JD", "TH", "7C", "6H", "5S", "AH", "8C"]
    hand1 = ["9S", "2D", "QH", "JS", "TC", "8D", "7S", "6C", "5D", "4C", "AS"]
    hand2 = ["9D", "2H", "QS", "JC", "TD", "8S", "7D", "6D", "5C", "4H", "AD"]
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: hand0, 1: hand1, 2: hand2},
        upcards=["4D"],
        stock=["9H", "9C"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "9H")
    assert pile(deal)["frozen"] is False
    refuse(deal, 1, {"type": "take_pile", "cards": ["9S", "2D"]}, "pile_frozen")
    draw(deal, 1)
    discard(deal, 1, "9C")
    take_pile(deal, 2, ["9D", "2H"])
    assert Counter(melds_by_rank(deal, 0)["9"]["cards"]) == Counter(["9C", "9D", "2H"])
