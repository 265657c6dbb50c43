"""ENGINE's own rule tests, one or more per rule id of RULES.md (stacked decks, public API)."""

import json
from collections import Counter
from typing import Any

import pytest

from games.engine import Deal, IllegalMove, Rules, autoplay
from games.engine.cards import VALUE, full_deck
from games.engine.scoring import score_team

CLUB = Rules()


def _quiet_order(pool: Counter[str]) -> list[str]:
    """Leftover cards: naturals round-robin over ranks (few pairs), then black threes, wilds,
    red threes last, so filler never melds, freezes or replaces by accident."""
    ordered: list[str] = []
    for _ in range(8):
        for rank in "KQJT98765A4":
            for suit in "SHDC":
                if pool[rank + suit] > 0:
                    pool[rank + suit] -= 1
                    ordered.append(rank + suit)
                    break
    for group in (("3S", "3C"), ("2S", "2H", "2D", "2C", "JK"), ("3H", "3D")):
        for card in group:
            ordered.extend([card] * pool[card])
            pool[card] = 0
    return ordered


def stacked(
    *,
    dealer: int = 3,
    hands: dict[int, list[str]] | None = None,
    upcards: list[str] | None = None,
    stock: list[str] | None = None,
    stock_end: list[str] | None = None,
) -> list[str]:
    """A 108-card deck (top first): given hands (filled to 11), upcards, first and last stock
    cards."""
    pool = Counter(full_deck())
    given = [c for cards in (hands or {}).values() for c in cards] + (upcards or []) + (stock or [])
    given += stock_end or []
    pool.subtract(given)
    assert min(pool.values()) >= 0, "a card is used too often"
    filler = iter(_quiet_order(pool))
    if upcards is None:
        upcards = [next(filler)]
    codes = [""] * 44
    for seat in range(4):
        cards = list((hands or {}).get(seat, []))
        for k in range(11):
            codes[4 * k + (seat - dealer - 1) % 4] = cards[k] if k < len(cards) else next(filler)
    return codes + upcards + (stock or []) + list(filler) + (stock_end or [])


def new(
    hands: dict[int, list[str]] | None = None,
    *,
    rules: Rules = CLUB,
    dealer: int = 3,
    scores: tuple[int, int] = (0, 0),
    upcards: list[str] | None = None,
    stock: list[str] | None = None,
    stock_end: list[str] | None = None,
) -> Deal:
    deck = stacked(dealer=dealer, hands=hands, upcards=upcards, stock=stock, stock_end=stock_end)
    return Deal.new(rules, dealer=dealer, team_scores=scores, deck=deck)


def refused(deal: Deal, seat: Any, action: Any, code: str) -> IllegalMove:
    """Refused with `code`, a message in both languages, and the deal byte for byte unchanged."""
    before = json.dumps(deal.to_dict())
    with pytest.raises(IllegalMove) as info:
        deal.apply(seat, action)
    assert info.value.code == code, (info.value.code, str(info.value))
    assert str(info.value) and info.value.message("en") and info.value.message("ru")
    assert json.dumps(deal.to_dict()) == before
    return info.value


def meld(deal: Deal, seat: int, *groups: list[str], rank: str | None = None) -> dict[str, Any]:
    entries: list[dict[str, Any]] = [{"cards": g} for g in groups]
    if rank:
        entries[-1]["rank"] = rank
    return deal.apply(seat, {"type": "meld", "melds": entries})


def draw(deal: Deal, seat: int) -> list[str]:
    cards: list[str] = deal.apply(seat, {"type": "draw"})["private"]["cards"]
    return cards


def discard(deal: Deal, seat: int, card: str) -> None:
    deal.apply(seat, {"type": "discard", "card": card})


def pass_turn(deal: Deal, seat: int) -> None:
    """Draw and throw the drawn card back (filler stock cards are quiet naturals)."""
    drawn = draw(deal, seat)
    discard(deal, seat, drawn[-1])


def melds(deal: Deal, team: int) -> dict[str, list[str]]:
    return {m["rank"]: m["cards"] for m in deal.view(None)["teams"][team]["melds"]}


def all_cards(deal: Deal) -> Counter[str]:
    state = deal.to_dict()
    packed = "".join(state["hands"]) + state["stock"] + state["pile"] + "".join(state["red"])
    packed += "".join(cards for team in state["melds"] for _, cards in team)
    return Counter(packed[i : i + 2] for i in range(0, len(packed), 2))


# Seat 0 moves first (dealer 3). A hand that can open with 50: three kings and three aces.
OPENER = ["KS", "KH", "KD", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S"]


# ----------------------------------------------------------------------------- cards and deal


def test_r_card_1_a_deal_holds_108_cards_and_codes() -> None:
    deal = Deal.new(CLUB, dealer=0, seed=7)
    assert all_cards(deal) == Counter(full_deck())
    assert len(full_deck()) == 108 and full_deck().count("JK") == 4


def test_r_card_1_stacked_deck_must_be_the_108_cards() -> None:
    with pytest.raises(ValueError):
        Deal.new(CLUB, dealer=0, deck=[*full_deck()[:-1], "AS"])


def test_r_card_2_values() -> None:
    expected = {
        "JK": 50,
        "AS": 20,
        "2H": 20,
        "KD": 10,
        "8C": 10,
        "7H": 5,
        "4S": 5,
        "3C": 5,
        "3H": 100,
    }
    assert {card: VALUE[card] for card in expected} == expected


def test_r_card_3_threes_are_neither_wild_nor_natural() -> None:
    deal = new({0: ["3S", "3C", "3S", "KS", "KH", "KD", "AS", "AH", "AD", "9S", "2C"]})
    draw(deal, 0)
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3C", "2C"]}]}, "threes_not_allowed"
    )


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_r_deal_1_left_of_dealer_moves_first_and_play_goes_round(dealer: int) -> None:
    deal = Deal.new(CLUB, dealer=dealer, seed=1)
    assert deal.turn == (dealer + 1) % 4
    first = deal.turn
    for step in range(4):
        assert deal.turn == (first + step) % 4
        drawn = draw(deal, deal.turn)
        discard(deal, deal.turn, drawn[-1])


def test_r_deal_2_eleven_each_stacked_order_and_upcard() -> None:
    deck = stacked(dealer=1)
    deal = Deal.new(CLUB, dealer=1, deck=deck)
    # dealt one at a time from seat 2 (dealer+1): seat 2 gets codes 0, 4, 8, ...
    assert Counter(deal.view(2)["hand"]) == Counter(deck[0:44:4])
    assert Counter(deal.view(3)["hand"]) == Counter(deck[1:44:4])
    assert deal.view(None)["pile"] == {"top": deck[44], "count": 1, "frozen": False}
    assert deal.view(None)["stock_count"] == 108 - 45
    assert draw(deal, 2) == [deck[45]]  # the stock is drawn from the front


@pytest.mark.parametrize("upcard", ["2S", "JK", "3H", "3S"])
def test_r_deal_3_wild_or_three_upcard_is_covered(upcard: str) -> None:
    deal = new(upcards=[upcard, "9D"])
    assert deal.view(None)["pile"]["top"] == "9D"
    assert deal.view(None)["pile"]["count"] == 2


def test_r_deal_3_variant_black_three_stops_the_turning() -> None:
    deal = new(rules=Rules(upcard_stops_on_black_three=True), upcards=["3S"])
    assert deal.view(None)["pile"] == {"top": "3S", "count": 1, "frozen": False}
    refused(deal, 0, {"type": "take_pile", "cards": []}, "pile_blocked")


@pytest.mark.parametrize(
    ("covered", "frozen"), [("2S", True), ("JK", True), ("3D", True), ("3C", False)]
)
def test_r_deal_4_covered_wild_or_red_three_freezes(covered: str, frozen: bool) -> None:
    deal = new(upcards=[covered, "9D"])
    assert deal.view(None)["pile"]["frozen"] is frozen


def test_r_deal_5_red_threes_replaced_in_turn_order_repeating() -> None:
    # seat 1 is dealt 3H, seat 0 is dealt 3D; seat 0 (first player) is replaced first and its
    # replacement is 3H again, replaced by the next card.
    hands = {
        0: ["3D", *OPENER[:10]],
        1: ["3H", "QS", "QH", "JS", "JH", "TS", "TH", "9C", "8C", "7C", "6D"],
    }
    deal = new(hands, stock=["3H", "4C", "4D"])
    teams = deal.view(None)["teams"]
    assert teams[0]["red_threes"] == ["3D", "3H"] and teams[1]["red_threes"] == ["3H"]
    assert "4C" in deal.view(0)["hand"] and "4D" in deal.view(1)["hand"]
    assert deal.view(None)["hand_counts"] == [11, 11, 11, 11]


# ----------------------------------------------------------------------------- the turn


def test_r_turn_1_draw_meld_discard_and_phases() -> None:
    deal = new({0: OPENER})
    refused(deal, 0, {"type": "discard", "card": "5S"}, "wrong_phase")
    refused(deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]}, "wrong_phase")
    refused(deal, 1, {"type": "draw"}, "not_your_turn")
    draw(deal, 0)
    assert deal.phase == "play"
    refused(deal, 0, {"type": "draw"}, "wrong_phase")
    refused(deal, 0, {"type": "discard", "card": "QC"}, "card_not_in_hand")
    discard(deal, 0, "5S")
    assert (deal.turn, deal.phase) == (1, "draw")


def test_r_turn_2_red_three_drawn_is_laid_and_replaced() -> None:
    deal = new({0: OPENER}, stock=["3H", "3D", "QC"])
    event = deal.apply(0, {"type": "draw"})
    assert event["public"]["red_threes"] == ["3H", "3D"]
    assert event["private"]["cards"] == ["QC"]
    assert deal.view(None)["teams"][0]["red_threes"] == ["3H", "3D"]


# ----------------------------------------------------------------------------- melds


def test_r_meld_1_one_meld_per_rank_shared_and_not_with_opponents() -> None:
    deal = new(
        {
            0: OPENER,
            1: ["KC", "KC", "KS", "QS", "QH", "QD", "JS", "JH", "TS", "TH", "9C"],
            2: ["KH", "QC", "JC", "TC", "9H", "8S", "7S", "6S", "5D", "4D", "4H"],
        }
    )
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    discard(deal, 0, "5S")
    draw(deal, 1)
    meld(deal, 1, ["KC", "KC", "KS"], ["QS", "QH", "QD"])  # opponents may meld kings too
    discard(deal, 1, "9C")
    draw(deal, 2)
    meld(deal, 2, ["KH"])  # partner's king joins the team's kings
    assert melds(deal, 0)["K"] == ["KS", "KH", "KD", "KH"]
    assert melds(deal, 1)["K"] == ["KC", "KC", "KS"]


def test_r_meld_1_too_small_and_mixed_ranks() -> None:
    deal = new({0: OPENER})
    draw(deal, 0)
    refused(deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH"]}]}, "meld_too_small")
    refused(deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "AS"]}]}, "mixed_ranks")
    refused(
        deal,
        0,
        {"type": "meld", "melds": [{"rank": "A", "cards": ["KS", "KH", "KD"]}]},
        "mixed_ranks",
    )


@pytest.mark.parametrize(
    ("cards", "strict_code", "half_code"),
    [
        (["9S", "9H", "2C"], None, None),  # 2N+1W legal
        (["9S", "9H", "2C", "JK"], "too_many_wilds", None),  # 2N+2W: only with "half"
        (["9S", "9H", "9D", "9C", "2C", "JK", "2S"], None, None),  # 4N+3W legal
        (
            ["9S", "9H", "9D", "9C", "9S", "2C", "JK", "2S", "2H"],
            "too_many_wilds",
            "too_many_wilds",
        ),  # 5N+4W: never (at most 3 wilds)
        (["9S", "2C", "JK"], "too_many_wilds", "too_many_wilds"),  # 1N+2W
    ],
)
def test_r_meld_2_wild_limits(
    cards: list[str], strict_code: str | None, half_code: str | None
) -> None:
    filler = ["KS", "QH", "JD", "TC", "8S", "7H", "6D", "5C", "4S", "AH"]
    for rules, code in ((CLUB, strict_code), (Rules(wild_limit="half"), half_code)):
        # score below zero: minimum 15, so the meld alone opens
        deal = new({0: cards + filler[: 11 - len(cards)]}, rules=rules, scores=(-5, 0))
        draw(deal, 0)
        action = {"type": "meld", "melds": [{"cards": cards}]}
        if code:
            refused(deal, 0, action, code)
        else:
            deal.apply(0, action)
            assert Counter(melds(deal, 0)["9"]) == Counter(cards)


def test_r_meld_3_wilds_alone_never_start_but_may_join() -> None:
    deal = new({0: ["KS", "KH", "KD", "KC", "AS", "AH", "AD", "2C", "JK", "2S", "5S"]})
    draw(deal, 0)
    refused(
        deal,
        0,
        {"type": "meld", "melds": [{"rank": "Q", "cards": ["2C", "JK", "2S"]}]},
        "wild_only",
    )
    refused(deal, 0, {"type": "meld", "melds": [{"cards": ["2C"]}]}, "wild_only")
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    meld(deal, 0, ["2C"], rank="K")  # 3N+1W
    meld(deal, 0, ["JK"], rank="K")  # 3N+2W
    refused(
        deal, 0, {"type": "meld", "melds": [{"rank": "K", "cards": ["2S"]}]}, "too_many_wilds"
    )  # 3N+3W
    meld(deal, 0, ["KC"])
    meld(deal, 0, ["2S"], rank="K")  # 4N+3W
    assert Counter(melds(deal, 0)["K"]) == Counter(["KS", "KH", "KD", "KC", "2C", "JK", "2S"])


def test_r_meld_3_third_wild_is_legal_with_four_naturals() -> None:
    deal = new({0: ["KS", "KH", "KD", "KC", "AS", "AH", "AD", "2C", "JK", "2S", "5S"]})
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD", "KC", "2C", "JK", "2S"])  # 4N+3W mixed canasta
    assert deal.view(None)["teams"][0]["melds"][0]["canasta"] == "mixed"


def test_r_meld_4_threes_never_in_ordinary_melds() -> None:
    deal = new({0: ["KS", "KH", "3S", "3C", "3S", *OPENER[3:9]]})
    draw(deal, 0)
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "3S"]}]}, "threes_not_allowed"
    )
    # black threes before going out: refused even with a canasta-less team
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3C", "3S"]}]}, "threes_not_allowed"
    )


# ----------------------------------------------------------------------------- canastas


def test_r_can_1_and_2_natural_then_mixed_one_bonus() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "QC", "2C", "9S", "8H"]
    deal = new({0: hand})
    draw(deal, 0)
    meld(deal, 0, hand[:7])
    assert deal.view(None)["teams"][0]["melds"][0]["canasta"] == "natural"
    meld(deal, 0, ["QC"])
    meld(deal, 0, ["2C"], rank="Q")
    assert deal.view(None)["teams"][0]["melds"][0]["canasta"] == "mixed"


# ----------------------------------------------------------------------------- opening minimum


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (9000, 120)],
)
def test_r_open_1_minimum_from_the_score(score: int, minimum: int) -> None:
    deal = Deal.new(CLUB, dealer=0, team_scores=(score, 0), seed=1)
    assert deal.view(None)["teams"][0]["minimum"] == minimum
    assert deal.view(None)["teams"][1]["minimum"] == 50


def test_r_open_2_melds_accumulate_through_the_turn_with_a_wild() -> None:
    # 9S 9H 9D = 30, then a joker added to the nines laid this turn = 80 >= 50.
    deal = new({0: ["9S", "9H", "9D", "JK", "KS", "QH", "JD", "TC", "8S", "7H", "6D"]})
    draw(deal, 0)
    meld(deal, 0, ["9S", "9H", "9D"])
    assert deal.view(None)["teams"][0]["opened"] is False
    refused(deal, 0, {"type": "discard", "card": "KS"}, "below_minimum")  # R-OPEN-3
    meld(deal, 0, ["JK"], rank="9")
    assert deal.view(None)["teams"][0]["opened"] is True
    discard(deal, 0, "KS")


def test_r_open_2_bonuses_never_count() -> None:
    # a natural canasta of seven fives = 35 points < 50, the 500 bonus does not count
    hand = ["5S", "5H", "5D", "5C", "5S", "5H", "5D", "KS", "QH", "JD", "TC"]
    deal = new({0: ["3H", *hand[:10]]}, stock=[hand[10]])
    draw(deal, 0)
    meld(deal, 0, hand[:7])
    refused(deal, 0, {"type": "discard", "card": "KS"}, "below_minimum")


def test_r_open_3_discard_without_melding_is_fine() -> None:
    deal = new({0: OPENER})
    draw(deal, 0)
    discard(deal, 0, "KS")
    assert deal.turn == 1


def test_r_open_4_only_top_and_hand_cards_count() -> None:
    # Pile: 3S (covered) under KC. Taking it with KS KH: 3 x 10 = 30 < 50; with 9S 9H 9D
    # from the hand: 60 >= 50.
    hand = ["KS", "KH", "9S", "9H", "9D", "QS", "JH", "TD", "8C", "7S", "6H"]
    deal = new({0: hand}, upcards=["3S", "KC"])
    refused(deal, 0, {"type": "take_pile", "cards": ["KS", "KH"]}, "below_minimum")
    # the buried black three is not the player's to meld in the same action
    refused(
        deal,
        0,
        {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["3S", "3S", "3C"]}]},
        "card_not_in_hand",
    )
    deal.apply(
        0, {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["9S", "9H", "9D"]}]}
    )
    assert deal.view(None)["teams"][0]["opened"] is True
    assert "3S" in deal.view(0)["hand"]


def test_r_open_5_concealed_going_out_needs_the_minimum_unless_variant() -> None:
    # Team score 3000: minimum 120. Seven queens (70) + four nines (40) = 110 < 120; the
    # drawn 8S is the last card to discard.
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "9C", "9D", "9H", "9S"]
    for rules in (CLUB, Rules(concealed_out_skips_minimum=True)):
        deal = new({0: hand}, rules=rules, scores=(3000, 0), stock=["8S"])
        draw(deal, 0)
        meld(deal, 0, hand[:7], hand[7:])  # below the minimum, one card left: allowed
        if rules == CLUB:
            refused(deal, 0, {"type": "discard", "card": "8S"}, "below_minimum")
        else:
            discard(deal, 0, "8S")
            assert deal.result is not None and deal.result[0]["going_out"] == 200


def test_r_open_5_variant_does_not_exempt_a_turn_that_does_not_go_out() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "9C", "9D", "9H", "7S"]
    rules = Rules(concealed_out_skips_minimum=True)
    deal = new({0: hand}, rules=rules, scores=(3000, 0), stock=["8S"])
    draw(deal, 0)
    meld(deal, 0, hand[:7], hand[7:10])  # 100 < 120, holds 7S 8S
    refused(deal, 0, {"type": "discard", "card": "8S"}, "below_minimum")


# ----------------------------------------------------------------------------- undo


def test_r_undo_1_returns_cards_turn_goes_on() -> None:
    deal = new(
        {0: ["9S", "9H", "9D", "KS", "KH", "QS", "JH", "TD", "8C", "7S", "6H"]}, stock=["4C"]
    )
    draw(deal, 0)
    meld(deal, 0, ["9S", "9H", "9D"])
    assert deal.view(0)["undo_available"] is True
    assert deal.view(1)["undo_available"] is False
    deal.apply(0, {"type": "undo"})
    view = deal.view(0)
    assert view["teams"][0]["melds"] == [] and "4C" in view["hand"] and len(view["hand"]) == 12
    assert view["phase"] == "play" and view["undo_available"] is False
    refused(deal, 0, {"type": "undo"}, "undo_not_allowed")  # R-UNDO-2: once per turn
    discard(deal, 0, "4C")


def test_r_undo_1_takes_back_additions_to_partner_melds() -> None:
    deal = new({0: OPENER, 2: ["KC", "AC", "QS", "QH", "JS", "JH", "TS", "TH", "9C", "8C", "7C"]})
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    discard(deal, 0, "5S")
    pass_turn(deal, 1)
    draw(deal, 2)
    meld(deal, 2, ["KC"], ["AC"])
    deal.apply(2, {"type": "undo"})
    assert melds(deal, 0) == {"K": ["KS", "KH", "KD"], "A": ["AS", "AH", "AD"]}
    assert deal.view(None)["teams"][0]["opened"] is True


def test_r_undo_2_never_after_the_pile_nor_before_drawing() -> None:
    deal = new({0: OPENER}, upcards=["KC"])
    refused(deal, 0, {"type": "undo"}, "undo_not_allowed")
    deal.apply(
        0, {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["AS", "AH", "AD"]}]}
    )
    refused(deal, 0, {"type": "undo"}, "undo_not_allowed")


def test_r_undo_3_meld_refused_when_minimum_becomes_unreachable() -> None:
    # Fours (15) + kings (30) = 45 < 50 and nothing else melds: after the undo, neither group
    # may be laid (there would be no way to reach 50 and no undo left).
    deal = new(
        {0: ["4S", "4H", "4D", "KS", "KH", "KD", "QS", "JH", "TD", "8C", "7S"]}, stock=["6C"]
    )
    draw(deal, 0)
    meld(deal, 0, ["4S", "4H", "4D"])  # before an undo this is allowed
    deal.apply(0, {"type": "undo"})
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["4S", "4H", "4D"]}]}, "minimum_unreachable"
    )
    refused(
        deal, 0, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]}, "minimum_unreachable"
    )
    discard(deal, 0, "6C")  # melding nothing and discarding is always possible


def test_r_undo_3_reachable_keeps_two_cards() -> None:
    # K K K (30) + Q Q Q (30) + J J (wild 2C: 10+10+20 = 40): plenty, the meld stays legal.
    hand = ["KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "2C", "8C", "7S"]
    deal = new({0: hand}, stock=["6C"])
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"])
    deal.apply(0, {"type": "undo"})
    meld(deal, 0, ["KS", "KH", "KD"])  # 30, still reachable with the queens
    meld(deal, 0, ["QS", "QH", "QD"])  # 60 >= 50
    assert deal.view(None)["teams"][0]["opened"] is True


def test_r_undo_3_keeping_two_cards_can_make_the_minimum_unreachable() -> None:
    # After the undo: 4S 4H 4D (15), then the hand holds KS KH KD (30) and 9C 8C 2C.
    # 15 + 30 + a wild (20) = 65 would need 3 + 3 + 1 of the 7 cards, leaving 2 (8C and 9C)
    # -> reachable. Without the wild (hand 9C 8C 7C) 45 < 50 -> unreachable.
    for wild, ok in (("2C", True), ("7C", False)):
        hand = ["4S", "4H", "4D", "KS", "KH", "KD", "9C", "8C", wild, "QS", "JH"]
        deal = new({0: hand}, stock=["6C"])
        draw(deal, 0)
        meld(deal, 0, ["KS", "KH", "KD"])
        deal.apply(0, {"type": "undo"})
        action = {"type": "meld", "melds": [{"cards": ["4S", "4H", "4D"]}]}
        if ok:
            deal.apply(0, action)
            meld(deal, 0, ["KS", "KH", "KD", "2C"])
            assert deal.view(None)["teams"][0]["opened"] is True
        else:
            refused(deal, 0, action, "minimum_unreachable")


# ----------------------------------------------------------------------------- the pile


def _pile_after_discards(
    hands: dict[int, list[str]], discards: list[str], rules: Rules = CLUB, upcard: str = "4C"
) -> Deal:
    """Seats 0..3 each draw a filler card and discard the given card, in order."""
    stock = ["4H", "4S", "4D", "6S", "6H", "6D", "6C", "7S"]
    deal = new(hands, rules=rules, upcards=[upcard], stock=stock)
    for card in discards:
        seat = deal.turn
        draw(deal, seat)
        discard(deal, seat, card)
    return deal


def test_r_pile_1_blocked_by_a_wild_or_three_on_top() -> None:
    deal = _pile_after_discards({0: ["JK", *OPENER[:10]]}, ["JK"])
    refused(deal, 1, {"type": "take_pile", "cards": []}, "pile_blocked")
    assert deal.view(None)["pile"]["frozen"] is True  # R-FRZ-1


def test_r_pile_2_take_names_the_opening_melds_or_is_refused() -> None:
    hand = ["KS", "KH", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new({0: hand}, upcards=["KC"])
    refused(deal, 0, {"type": "take_pile", "cards": ["KS", "KH"]}, "below_minimum")
    refused(
        deal,
        0,
        {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["AS", "AH"]}]},
        "meld_too_small",
    )


def test_r_pile_2_take_gives_the_rest_to_the_hand_and_goes_on() -> None:
    hand = ["KS", "KH", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new({0: hand}, upcards=["KC"])
    event = deal.apply(
        0, {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["AS", "AH", "AD"]}]}
    )
    assert event["public"]["count"] == 1 and event["private"]["cards"] == []
    assert deal.phase == "play" and deal.view(None)["pile"]["count"] == 0
    assert melds(deal, 0) == {"K": ["KC", "KS", "KH"], "A": ["AS", "AH", "AD"]}
    discard(deal, 0, "QC")


def test_r_pile_3_no_take_that_leaves_no_card_without_a_canasta() -> None:
    # A pile of one card (KC). Melding it with KS KH plus AAAA QQQQ leaves 9C alone: after the
    # discard no card would stay -> refused. Melding only the aces leaves five cards -> fine.
    hand = ["KS", "KH", "AS", "AH", "AD", "AC", "QS", "QH", "QD", "QC", "9C"]
    action = {
        "type": "take_pile",
        "cards": ["KS", "KH"],
        "melds": [{"cards": ["AS", "AH", "AD", "AC"]}, {"cards": ["QS", "QH", "QD", "QC"]}],
    }
    deal = new({0: hand}, upcards=["KC"])
    refused(deal, 0, action, "cannot_take_pile")
    deal.apply(
        0,
        {
            "type": "take_pile",
            "cards": ["KS", "KH"],
            "melds": [{"cards": ["AS", "AH", "AD", "AC"]}],
        },
    )
    assert deal.view(None)["hand_counts"][0] == 5


def test_r_pile_4_unfrozen_and_opened_three_ways() -> None:
    hands = {
        0: OPENER,
        1: ["QD", "5H", "5D", "JH", "TC", "TD", "9D", "8D", "7S", "7H", "4C"],
        2: ["QS", "QH", "2C", "JS", "TS", "TH", "9H", "8C", "8S", "7C", "6S"],
        3: ["KC", "QC", "JC", "JD", "6H", "6D", "5C", "4S", "4H", "4D", "9C"],
    }
    stock = ["JS", "JH", "TC", "9D"]

    def opened_then(seat_1_discard: str) -> Deal:
        deal = new(hands, stock=stock)
        draw(deal, 0)
        meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
        discard(deal, 0, "5S")
        draw(deal, 1)
        discard(deal, 1, seat_1_discard)
        return deal

    for cards in (["QS", "QH"], ["QS", "2C"]):  # a natural pair, or a natural and a wild
        deal = opened_then("QD")
        deal.apply(2, {"type": "take_pile", "cards": cards})
        assert Counter(melds(deal, 0)["Q"]) == Counter(["QD", *cards])
    deal = opened_then("7S")
    refused(deal, 2, {"type": "take_pile", "cards": []}, "cannot_take_pile")
    draw(deal, 2)
    discard(deal, 2, "TC")
    draw(deal, 3)
    discard(deal, 3, "KC")
    deal.apply(0, {"type": "take_pile", "cards": []})  # the top joins the team's kings
    assert melds(deal, 0)["K"] == ["KS", "KH", "KD", "KC"]


def test_r_pile_5_black_three_blocks_only_the_next_player() -> None:
    hands = {0: ["3S", *OPENER[:10]], 1: ["KC", "KS", *OPENER[3:11], "QD"]}
    deal = new(hands, stock=["4H", "9D", "4D", "4C"])
    draw(deal, 0)
    discard(deal, 0, "3S")
    refused(deal, 1, {"type": "take_pile", "cards": ["KC", "KS"]}, "pile_blocked")
    draw(deal, 1)
    discard(deal, 1, "9D")
    assert deal.view(None)["pile"] == {"top": "9D", "count": 3, "frozen": False}


def test_r_pile_6_red_three_in_the_pile_goes_to_the_table_without_replacement() -> None:
    hand = ["KS", "KH", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new({0: hand}, upcards=["3H", "KC"])
    assert deal.view(None)["pile"]["frozen"] is True  # R-DEAL-4
    stock_before = deal.view(None)["stock_count"]
    event = deal.apply(
        0, {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["AS", "AH", "AD"]}]}
    )
    assert event["public"]["red_threes"] == ["3H"]
    assert deal.view(None)["teams"][0]["red_threes"] == ["3H"]
    assert deal.view(None)["stock_count"] == stock_before
    assert deal.view(None)["pile"]["frozen"] is False


# ----------------------------------------------------------------------------- frozen pile


def test_r_frz_2_and_3_unopened_team_needs_a_natural_pair() -> None:
    hand = ["KS", "2H", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S", "QC"]
    deal = new({0: hand}, upcards=["KC"])
    refused(
        deal,
        0,
        {"type": "take_pile", "cards": ["KS", "2H"], "melds": [{"cards": ["AS", "AH", "AD"]}]},
        "pile_frozen",
    )
    refused(deal, 0, {"type": "take_pile", "cards": []}, "pile_frozen")


def test_r_frz_3_existing_meld_does_not_help_on_its_own() -> None:
    hands = {
        0: ["KS", "KH", "KD", "KC", "KS", "AS", "AH", "AD", "JK", "9S", "8H"],
        3: ["KH", "QC", "JC", "JD", "6H", "6D", "5C", "4S", "4H", "4D", "9C"],
    }
    deal = new(hands)
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    discard(deal, 0, "JK")  # a wild in the pile: frozen for everybody
    pass_turn(deal, 1)
    pass_turn(deal, 2)
    draw(deal, 3)
    discard(deal, 3, "KH")
    refused(deal, 0, {"type": "take_pile", "cards": []}, "pile_frozen")
    refused(deal, 0, {"type": "take_pile", "cards": ["KC"]}, "pile_frozen")
    deal.apply(0, {"type": "take_pile", "cards": ["KC", "KS"]})
    assert Counter(melds(deal, 0)["K"]) == Counter(["KS", "KH", "KD", "KH", "KC", "KS"])
    assert deal.view(None)["pile"] == {"top": None, "count": 0, "frozen": False}


def test_r_frz_4_frozen_pile_to_open_needs_the_minimum() -> None:
    hand = ["KS", "KH", "QS", "QH", "QD", "9S", "8H", "7D", "6C", "5S", "4C"]
    deal = new({0: hand}, upcards=["2C", "KC"])
    # K K K = 30 < 50: refused; with Q Q Q (30) = 60: taken
    refused(deal, 0, {"type": "take_pile", "cards": ["KS", "KH"]}, "below_minimum")
    deal.apply(
        0, {"type": "take_pile", "cards": ["KS", "KH"], "melds": [{"cards": ["QS", "QH", "QD"]}]}
    )
    assert deal.view(0)["hand"].count("2C") == 1  # the covered wild came with the pile


# ----------------------------------------------------------------------------- going out


def test_r_out_1_and_4_melding_the_whole_hand_ends_the_deal_at_once() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "AC"]
    deal = new({0: hand}, stock=["AS"])
    draw(deal, 0)
    event = meld(deal, 0, hand[:7], [*hand[7:], "AS"])
    assert event["public"]["deal_over"] is True and deal.phase == "over"
    refused(deal, 1, {"type": "draw"}, "deal_over")
    assert deal.result is not None and deal.view(0)["result"] == deal.result


def test_r_out_3_adding_to_the_partners_meld_is_not_concealed() -> None:
    hand_2 = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "KC", "9C", "9D", "9H"]
    deal = new({0: OPENER, 2: hand_2}, stock=["5H", "5D", "9S"])
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    discard(deal, 0, "5H")
    pass_turn(deal, 1)
    draw(deal, 2)  # 9S
    meld(deal, 2, hand_2[:7], ["KC"], ["9C", "9D", "9H", "9S"])  # the whole hand
    assert deal.result is not None and deal.result[0]["going_out"] == 100


def test_r_out_3_concealed_while_the_partner_has_melds() -> None:
    hand_2 = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "8S", "9C", "9D", "9H"]
    deal = new({0: OPENER, 2: hand_2}, stock=["5H", "5D", "9S"])
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    discard(deal, 0, "5H")
    pass_turn(deal, 1)
    draw(deal, 2)  # 9S
    meld(deal, 2, hand_2[:7], ["9C", "9D", "9H", "9S"])
    discard(deal, 2, "8S")
    assert deal.result is not None and deal.result[0]["going_out"] == 200


def test_r_out_3_concealed_goes_out_with_discard() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]
    deal = new({0: hand}, stock=["AC"])
    draw(deal, 0)
    # Q*7 natural canasta (70) + A*4 (80); discard 9C: out concealed.
    meld(deal, 0, hand[:7], ["AS", "AH", "AD", "AC"])
    discard(deal, 0, "9C")
    assert deal.phase == "over" and deal.result is not None
    mine = deal.result[0]
    # cards 70 + 80 = 150; natural canasta 500; concealed going out 200; partner's hand -H.
    assert mine["cards"] == 150 and mine["canastas"] == 500 and mine["going_out"] == 200
    partner = sum(VALUE[c] for c in deal.view(2)["hand"])
    assert mine["hand"] == -partner
    assert mine["total"] == 150 + 500 + 200 - partner


def test_r_out_3_not_concealed_after_melding_earlier() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]
    deal = new({0: hand}, stock=["9D", "7S", "7H", "7D", "AC"])
    draw(deal, 0)  # 9D
    meld(deal, 0, ["AS", "AH", "AD"], hand[:3])  # 60 + 30: opened
    discard(deal, 0, "9D")
    pass_turn(deal, 1)
    pass_turn(deal, 2)
    pass_turn(deal, 3)
    draw(deal, 0)  # AC
    meld(deal, 0, hand[3:7], ["AC"])
    discard(deal, 0, "9C")
    assert deal.result is not None and deal.result[0]["going_out"] == 100


def test_r_meld_4_black_threes_need_a_team_canasta() -> None:
    hand = ["KS", "KH", "KD", "AS", "AH", "AD", "QS", "QH", "QD", "3S", "3C"]
    deal = new({0: hand}, stock=["3C"])
    draw(deal, 0)
    action = {
        "type": "meld",
        "melds": [
            {"cards": hand[0:3]},
            {"cards": hand[3:6]},
            {"cards": hand[6:9]},
            {"cards": ["3S", "3C", "3C"]},
        ],
    }
    refused(deal, 0, action, "no_canasta")


def test_r_meld_4_black_threes_going_out_with_canasta() -> None:
    hand = ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "3S", "3C", "3S", "9C"]
    deal = new({0: hand}, stock=["QC"])
    draw(deal, 0)
    refused(
        deal,
        0,
        {"type": "meld", "melds": [{"cards": hand[:7]}, {"cards": ["3S", "3C", "3S"]}]},
        "threes_not_allowed",
    )  # would hold 9C and QC
    meld(deal, 0, [*hand[:7], "QC"], ["3S", "3C", "3S"])  # holds 9C
    discard(deal, 0, "9C")
    assert deal.result is not None
    # queens 8 x 10 = 80, black threes 3 x 5 = 15; natural canasta 500; concealed 200
    assert deal.result[0]["cards"] == 95 and deal.result[0]["canastas"] == 500
    assert deal.result[0]["going_out"] == 200


# ----------------------------------------------------------------------------- end of the deal


def test_r_end_1_drawing_the_last_card_ends_the_deal() -> None:
    deal = Deal.new(CLUB, dealer=3, seed=3)
    while deal.phase != "over":
        seat = deal.turn
        drawn = deal.apply(seat, {"type": "draw"})["private"]["cards"]
        if deal.phase == "over":
            break
        discard(deal, seat, drawn[-1] if drawn else deal.view(seat)["hand"][0])
    assert deal.view(None)["stock_count"] == 0
    assert deal.result is not None
    assert all(line["going_out"] == 0 for line in deal.result)


def _draw_and_discard_until(deal: Deal, stock_left: int) -> None:
    while deal.view(None)["stock_count"] > stock_left:
        seat = deal.turn
        drawn = draw(deal, seat)
        if deal.phase == "over":
            return
        discard(deal, seat, drawn[-1])


def test_r_end_2_stock_emptied_by_a_replacement_then_draw_ends() -> None:
    # All wilds and the other red threes are dealt (so the draw-and-discard loop never
    # freezes or blocks); the stock ends with 3H then 9C.
    wilds = ["2S", "2H", "2D", "2C"] * 2 + ["JK"] * 4
    hands = {1: ["3D", "3D", "3H", *wilds[:8]], 3: wilds[8:]}
    deal = new(hands, stock_end=["3H", "9C"])
    _draw_and_discard_until(deal, 2)
    seat = deal.turn
    event = deal.apply(seat, {"type": "draw"})
    assert event["public"]["red_threes"] == ["3H"] and event["private"]["cards"] == ["9C"]
    assert deal.phase == "play" and deal.view(None)["stock_count"] == 0  # turn goes on
    discard(deal, seat, "9C")
    nxt = deal.turn
    refused(deal, nxt, {"type": "take_pile", "cards": []}, "pile_frozen")  # nobody opened
    deal.apply(nxt, {"type": "draw"})
    assert deal.phase == "over" and deal.result is not None
    assert all(line["going_out"] == 0 for line in deal.result)
    # R-RED-2: nobody melded, so every red three counts against its team
    for team, line in enumerate(deal.result):
        reds = len(deal.view(None)["teams"][team]["red_threes"])
        assert line["red_threes"] == -(800 if reds == 4 else 100 * reds)
    assert sum(len(t["red_threes"]) for t in deal.view(None)["teams"]) == 4


def test_r_end_1_a_red_three_as_the_last_card_ends_the_deal_and_counts() -> None:
    wilds = ["2S", "2H", "2D", "2C"] * 2 + ["JK"] * 4
    hands = {1: ["3D", "3D", "3H", *wilds[:8]], 3: wilds[8:]}
    for rules in (CLUB, Rules(stock_out="classic")):
        deal = new(hands, rules=rules, stock_end=["3H"])
        _draw_and_discard_until(deal, 1)
        seat = deal.turn
        event = deal.apply(seat, {"type": "draw"})
        assert event["public"]["red_threes"] == ["3H"] and event["public"]["deal_over"] is True
        assert deal.result is not None
        assert "3H" in deal.view(None)["teams"][seat % 2]["red_threes"]


def test_r_frz_1_a_discarded_wild_freezes_until_the_pile_is_taken() -> None:
    hands = {
        0: ["KS", "KH", "KD", "KC", "KS", "AS", "AH", "AD", "JK", "9S", "8H"],
        3: ["KH", "QC", "JC", "JD", "6H", "6D", "5C", "4S", "4H", "4D", "9C"],
    }
    deal = new(hands)
    draw(deal, 0)
    meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
    assert deal.view(None)["pile"]["frozen"] is False
    discard(deal, 0, "JK")
    assert deal.view(None)["pile"]["frozen"] is True
    pass_turn(deal, 1)
    assert deal.view(None)["pile"]["frozen"] is True  # covered, still frozen
    pass_turn(deal, 2)
    draw(deal, 3)
    discard(deal, 3, "KH")
    deal.apply(0, {"type": "take_pile", "cards": ["KC", "KS"]})
    discard(deal, 0, "9S")
    assert deal.view(None)["pile"] == {"top": "9S", "count": 1, "frozen": False}


def test_r_end_2_variant_classic_plays_on_and_must_take_a_fitting_pile() -> None:
    # Red threes are dealt to seat 1 (replaced at once), wilds to seats 1 and 3, so the stock
    # holds no red three and discards never freeze. Upcards 3S 9D: 58 cards stay in the stock,
    # so seat 1 draws the last one; seat 1 then discards KC and team 0 holds kings.
    wilds = ["2S", "2H", "2D", "2C"] * 2 + ["JK"] * 4
    hands = {0: OPENER, 1: ["3H", "3H", "3D", "3D", "KC", *wilds[:6]], 3: wilds[6:]}
    for rules in (CLUB, Rules(stock_out="classic")):
        deal = new(hands, rules=rules, upcards=["3S", "9D"])
        drawn = draw(deal, 0)
        meld(deal, 0, ["KS", "KH", "KD"], ["AS", "AH", "AD"])
        discard(deal, 0, drawn[-1])
        _draw_and_discard_until(deal, 1)
        assert deal.turn == 1
        draw(deal, 1)  # the last stock card
        if rules == CLUB:
            assert deal.phase == "over"  # R-END-1
            continue
        assert deal.phase == "play"
        discard(deal, 1, "KC")
        refused(deal, 2, {"type": "draw"}, "wrong_phase")  # must take the fitting pile
        deal.apply(2, {"type": "take_pile", "cards": []})
        discard(deal, 2, deal.view(2)["hand"][0])
        deal.apply(3, {"type": "draw"})  # team 1 has no meld: not taking ends the deal
        assert deal.phase == "over"


# ----------------------------------------------------------------------------- scoring


def test_r_score_2_worked_example() -> None:
    # Natural canasta of seven kings: 7 x 10 = 70; three aces: 3 x 20 = 60; one red three 100;
    # going out 100; partner holds 9S 5H = 10 + 5 = 15:
    # 70 + 60 + 500 + 100 + 100 - 15 = 815.
    kings = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
    line = score_team([kings, ["AS", "AH", "AD"]], 1, [[], ["9S", "5H"]], 100)
    assert line == {
        "cards": 130,
        "canastas": 500,
        "red_threes": 100,
        "going_out": 100,
        "hand": -15,
        "total": 815,
    }
    # Opponents: no meld, one red three -> -100, and 120 points in hand: -100 - 120 = -220.
    opponents = score_team([], 1, [["JK", "JK"], ["AS"]], 0)
    assert opponents["total"] == -220 and opponents["red_threes"] == -100


def test_r_red_1_all_four_red_threes_800() -> None:
    assert score_team([["KS", "KH", "KD"]], 4, [[], []], 0)["red_threes"] == 800
    assert score_team([], 4, [[], []], 0)["red_threes"] == -800  # R-RED-2


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_r_score_1_every_line_adds_up_from_the_table(seed: int) -> None:
    deal = Deal.new(CLUB, dealer=0, seed=seed)
    while deal.phase != "over":
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
    assert deal.result is not None
    view = deal.view(None)
    for team, line in enumerate(deal.result):
        table = view["teams"][team]
        cards = sum(VALUE[c] for m in table["melds"] for c in m["cards"])
        bonus = sum({"natural": 500, "mixed": 300, None: 0}[m["canasta"]] for m in table["melds"])
        reds = len(table["red_threes"])
        red_points = (800 if reds == 4 else 100 * reds) * (1 if table["melds"] else -1)
        hands = sum(VALUE[c] for s in (team, team + 2) for c in deal.view(s)["hand"])
        assert line["cards"] == cards and line["canastas"] == bonus
        assert line["red_threes"] == red_points and line["hand"] == -hands
        assert line["going_out"] in (0, 100, 200)
        assert line["total"] == cards + bonus + red_points + line["going_out"] - hands


def test_r_pile_3_one_card_never_takes_a_pile_of_one_even_with_a_canasta() -> None:
    # The first sentence of R-PILE-3 (seed 000: "С одной картой в руке стопку из одной карты
    # не берут") holds on its own; the canasta exemption belongs to the general rule.
    hands = {
        0: ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"],
        1: ["JS", "JH", "JD", "TS", "TH", "TD", "8D", "6S", "6H", "4C", "4D"],
        3: ["7C", "7H", "QC", "5S", "5D", "6D", "4S", "4H", "KH", "KD", "9H"],
    }
    deal = new(hands, stock=["5H", "KS", "7S"])
    draw(deal, 0)
    meld(deal, 0, hands[0][:7], hands[0][7:10])  # natural canasta of queens
    discard(deal, 0, "5H")  # holds 9C alone
    draw(deal, 1)
    meld(deal, 1, ["JS", "JH", "JD"], ["TS", "TH", "TD"])
    discard(deal, 1, "8D")
    pass_turn(deal, 2)  # discards 7S
    deal.apply(3, {"type": "take_pile", "cards": ["7C", "7H"]})
    discard(deal, 3, "QC")
    assert deal.view(0)["hand"] == ["9C"] and deal.view(None)["pile"]["count"] == 1
    refused(deal, 0, {"type": "take_pile", "cards": []}, "cannot_take_pile")
    draw(deal, 0)
