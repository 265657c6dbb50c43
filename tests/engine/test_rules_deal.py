"""R-CARD-*, R-DEAL-*: the cards, the stacked deck order of CONTRACT.md §2, the deal."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.engine import Deal, IllegalMove, Rules
from games.engine.cards import VALUE, full_deck
from games.engine.seating import Seating
from tests.engine.decks import (
    FULL_DECK,
    all_cards,
    build_deck,
    cards_on_table,
    dealt_hand,
    discard,
    draw,
    hand,
    iter_card_codes,
    meld,
    new_deal,
    pass_turn,
    refuse,
    state,
    team_view,
)

CODE = re.compile(r"^(?:[AKQJT98765432][SHDC]|JK)$")


# --- R-CARD -----------------------------------------------------------------------------------


def test_r_card_1_a_shuffled_deal_holds_108_cards() -> None:
    # R-CARD-1
    for seed in (0, 1, 42, 2**31 - 1):
        deal = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=seed)
        spectator = deal.view(None)
        assert cards_on_table(spectator) == 108
        seen = Counter(code for seat in range(4) for code in deal.view(seat)["hand"])
        seen += Counter(code for t in spectator["teams"] for code in t["red_threes"])
        assert seen <= Counter(FULL_DECK)
        assert all_cards(deal) == Counter(FULL_DECK), "the full state holds every card once"
    assert Counter(full_deck()) == Counter(FULL_DECK)


def test_r_card_1_a_stacked_deck_must_be_the_exact_108_card_multiset() -> None:
    # R-CARD-1
    deck = build_deck()
    with pytest.raises((ValueError, IllegalMove)):
        Deal.new(Rules(), dealer=3, team_scores=(0, 0), deck=deck[:-1])
    with pytest.raises((ValueError, IllegalMove)):
        Deal.new(Rules(), dealer=3, team_scores=(0, 0), deck=[*deck[:-1], "AS"])


def test_r_card_1_card_codes_are_two_characters() -> None:
    # R-CARD-1 + CONTRACT §1: every card code the engine shows is rank+suit or JK
    deal = Deal.new(Rules(), dealer=2, team_scores=(0, 0), seed=5)
    for seat in (0, 1, 2, 3, None):
        for code in iter_card_codes(deal.view(seat)):
            assert CODE.match(code)
    assert all(CODE.match(code) for code in deal.view(0)["hand"])
    assert CODE.match(deal.view(None)["pile"]["top"])


def test_r_card_1_suits_do_not_matter_in_a_meld() -> None:
    # R-CARD-1: kings of any suits (and two copies of one suit) form one meld
    deal = new_deal(
        team_scores=(-10, -10),
        hands={0: ["KH", "KH", "KC", "QS", "QD", "QS", "9C", "8D", "7H", "6S", "5C"]},
        stock=["4D"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KH", "KC"], ["QS", "QD", "QS"])
    ranks = {m["rank"]: sorted(m["cards"]) for m in team_view(deal, 0)["melds"]}
    assert ranks == {"K": ["KC", "KH", "KH"], "Q": ["QD", "QS", "QS"]}


def test_r_card_2_values() -> None:
    # R-CARD-2: the engine's table of values
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


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["JK", "5H", "5S"], 60),  # joker 50 + 5 + 5
        (["AH", "AS", "AD"], 60),  # A = 20
        (["KH", "KS", "KD", "KC", "KH"], 50),  # K = 10, exactly the minimum
        (["8H", "8S", "8D", "8C", "8H"], 50),  # 8 = 10
        (["4H", "4S", "2D"], 30),  # 4 = 5, 2 = 20
        (["7H", "7S", "7D", "7C", "2D"], 40),  # 7 = 5
        (["KH", "KS", "KD"], 30),
        (["9H", "9S", "JK"], 70),  # 9 = 10
    ],
)
def test_r_card_2_card_values_count_towards_the_minimum(cards: list[str], points: int) -> None:
    # R-CARD-2 (values) through R-OPEN-1 (minimum 50 for a team score of 0)
    pad = [
        c
        for c in ["QC", "JD", "TH", "6C", "QS", "JH", "TC", "6D"]
        if c[0] not in {x[0] for x in cards}
    ]
    deal = new_deal(hands={0: [*cards, *pad][:11]}, upcards=["9C"], stock=["5D"])
    draw(deal, 0)
    meld(deal, 0, cards)
    if points >= 50:
        discard(deal, 0, "5D")
        assert deal.turn == 1
    else:
        refuse(deal, 0, {"type": "discard", "card": "5D"}, "below_minimum")


def test_r_card_2_hand_values_in_the_result() -> None:
    # R-CARD-2: what the partner still holds costs black three 5, joker 50, A 20, 2 20, K 10,
    # 7 6 5 4 five each. Seat 0 goes out at once: 7 queens (70) + 4 aces (80), discards 9D.
    partner = ["3S", "JK", "AS", "2C", "KH", "7S", "4C", "5C", "6C", "4D", "5D"]
    partner_points = 5 + 50 + 20 + 20 + 10 + 5 + 5 * 5  # = 135
    deal = new_deal(
        hands={
            0: ["QH", "QH", "QS", "QS", "QD", "QD", "QC", "AH", "AD", "AC", "9D"],
            2: partner,
        },
        upcards=["TC"],
        stock=["AC"],
    )
    draw(deal, 0)
    meld(deal, 0, ["QH", "QH", "QS", "QS", "QD", "QD", "QC"], ["AH", "AD", "AC", "AC"])
    discard(deal, 0, "9D")
    assert deal.phase == "over"
    result = deal.result
    assert result is not None
    assert result[0]["hand"] == -partner_points
    assert result[0]["cards"] == 7 * 10 + 4 * 20


# --- R-DEAL -----------------------------------------------------------------------------------


def test_r_deal_1_four_players_partners_sit_opposite() -> None:
    # R-DEAL-1: seats 0+2 are team 0, seats 1+3 team 1; play goes 0→1→2→3→0
    seating = Rules().seating
    assert seating.players == 4
    assert seating.seats == (0, 1, 2, 3)
    assert seating.teams == ((0, 2), (1, 3))
    assert [seating.team_of(seat) for seat in seating.seats] == [0, 1, 0, 1]
    assert [seating.partners_of(seat) for seat in seating.seats] == [(2,), (3,), (0,), (1,)]
    assert [seating.next_seat(seat) for seat in seating.seats] == [1, 2, 3, 0]
    assert seating.round_from(2) == (2, 3, 0, 1)


@pytest.mark.parametrize(("players", "teams"), [(2, 2), (3, 3), (6, 2), (6, 3)])
def test_r_deal_1_round_tables_seat_partners_apart(players: int, teams: int) -> None:
    # R-DEAL-1 for the seeds' other tables: every seat in one team, no partners side by side
    seating = Seating.round_table(players=players, teams=teams)
    assert sorted(seat for team in seating.teams for seat in team) == list(seating.seats)
    for seat in seating.seats:
        partners = seating.partners_of(seat)
        assert seat not in partners and len(partners) == players // teams - 1
        assert seating.next_seat(seat) not in partners
        assert all(seating.team_of(partner) == seating.team_of(seat) for partner in partners)


def test_r_deal_1_teams_must_be_equal() -> None:
    # R-DEAL-1: every team holds the same number of seats
    with pytest.raises(ValueError):
        Seating.round_table(players=6, teams=4)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_r_deal_1_player_left_of_the_dealer_moves_first(dealer: int) -> None:
    # R-DEAL-1
    deal = Deal.new(Rules(), dealer=dealer, team_scores=(0, 0), seed=11)
    view = deal.view(None)
    assert view["dealer"] == dealer
    assert view["turn"] == deal.turn == (dealer + 1) % 4
    assert view["phase"] == deal.phase == "draw"
    for seat in range(4):
        if seat != (dealer + 1) % 4:
            refuse(deal, seat, {"type": "draw"}, "not_your_turn")


def test_r_deal_1_play_goes_clockwise_0_1_2_3_0() -> None:
    # R-DEAL-1
    deal = new_deal(dealer=1, upcards=["9C"])
    order = []
    for _ in range(6):
        order.append(deal.turn)
        pass_turn(deal, deal.turn)
    assert order == [2, 3, 0, 1, 2, 3]


def test_r_deal_1_partners_share_melds() -> None:
    # R-DEAL-1: seats 0+2 are team 0; a king melded by seat 2 joins seat 0's kings
    deal = new_deal(
        team_scores=(-10, -10),
        hands={
            0: ["KH", "KS", "KD", "9C", "8D", "7H", "6S", "5C", "QD", "JS", "TH"],
            2: ["KC", "9D", "8S", "7D", "6H", "5S", "QC", "JH", "TD", "4S", "AC"],
        },
        stock=["4H", "4C", "4D"],
    )
    draw(deal, 0)
    meld(deal, 0, ["KH", "KS", "KD"])
    discard(deal, 0, "4H")
    pass_turn(deal, 1, "4C")
    draw(deal, 2)
    meld(deal, 2, ["KC"])
    melds = team_view(deal, 0)["melds"]
    assert len(melds) == 1 and sorted(melds[0]["cards"]) == ["KC", "KD", "KH", "KS"]
    assert team_view(deal, 1)["melds"] == []


def test_r_deal_2_eleven_cards_each_and_the_upcard_starts_the_pile() -> None:
    # R-DEAL-2 + CONTRACT §2 stacked deck order: dealt one at a time from dealer+1
    for dealer in range(4):
        deck = build_deck(dealer=dealer, upcards=["9H"])
        deal = Deal.new(Rules(), dealer=dealer, team_scores=(0, 0), deck=deck)
        view = deal.view(None)
        assert view["hand_counts"] == [11, 11, 11, 11]
        assert view["stock_count"] == 108 - 44 - 1
        assert view["pile"] == {"top": deck[44], "count": 1, "frozen": False}
        for seat in range(4):
            first = (dealer + 1) % 4
            assert deck[(seat - first) % 4] in deal.view(seat)["hand"]
            assert hand(deal, seat) == Counter(deck[(seat - first) % 4 : 44 : 4])
            assert hand(deal, seat) == Counter(dealt_hand(deck, dealer=dealer, seat=seat))


def test_r_deal_2_stock_is_drawn_from_the_front() -> None:
    # R-DEAL-2 + CONTRACT §2: the stock is codes[45:], drawn from the front
    deck = build_deck(upcards=["9H"], stock=["KC", "QD", "JS", "TH", "8C"])
    deal = Deal.new(Rules(), dealer=3, team_scores=(0, 0), deck=deck)
    assert deck[45:50] == ["KC", "QD", "JS", "TH", "8C"]
    for seat, expected in zip([0, 1, 2, 3, 0], deck[45:50], strict=True):
        assert draw(deal, seat) == [expected]
        discard(deal, seat, expected)
    assert deal.view(None)["stock_count"] == 63 - 5


@pytest.mark.parametrize(
    "upcards",
    [
        ["2C", "9H"],
        ["JK", "9H"],
        ["3H", "9H"],
        ["3D", "9H"],
        ["3S", "9H"],
        ["3C", "9H"],
        ["2C", "JK", "3S", "3D", "2H", "9H"],
    ],
)
def test_r_deal_3_wild_or_three_upcard_is_covered(upcards: list[str]) -> None:
    # R-DEAL-3
    deal = new_deal(upcards=upcards, stock=["KC"])
    view = deal.view(None)
    assert view["pile"]["top"] == "9H"
    assert view["pile"]["count"] == len(upcards)
    assert view["stock_count"] == 108 - 44 - len(upcards)
    assert draw(deal, 0) == ["KC"]


def test_r_deal_3_natural_upcard_is_not_covered() -> None:
    # R-DEAL-3
    for top in ["4S", "7D", "8C", "TH", "AD", "KS"]:
        deal = new_deal(upcards=[top], stock=["QC"])
        assert deal.view(None)["pile"] == {"top": top, "count": 1, "frozen": False}


def test_r_deal_3_variant_black_three_stops_the_turning() -> None:
    # R-DEAL-3 variant upcard_stops_on_black_three (seed 003)
    rules = Rules(upcard_stops_on_black_three=True)
    deal = new_deal(rules=rules, upcards=["3S"], stock=["9H", "KC"])
    assert deal.view(None)["pile"] == {"top": "3S", "count": 1, "frozen": False}
    # the black three on top blocks the first player (R-PILE-5); the stock starts after it
    refuse(deal, 0, {"type": "take_pile", "cards": []}, "pile_blocked")
    assert draw(deal, 0) == ["9H"]

    deal = new_deal(rules=rules, upcards=["2C", "3D", "3C"], stock=["9H"])
    assert deal.view(None)["pile"] == {"top": "3C", "count": 3, "frozen": True}

    # without the variant a black three is covered
    deal = new_deal(upcards=["3S", "9H"])
    assert deal.view(None)["pile"]["top"] == "9H"


@pytest.mark.parametrize(
    ("upcards", "frozen"),
    [
        (["9H"], False),
        (["2C", "9H"], True),
        (["JK", "9H"], True),
        (["3H", "9H"], True),
        (["3D", "9H"], True),
        (["3S", "9H"], False),  # a covered black three does not freeze
        (["3C", "3S", "9H"], False),
        (["3S", "2D", "9H"], True),
    ],
)
def test_r_deal_4_covered_wild_or_red_three_freezes_the_pile(
    upcards: list[str], frozen: bool
) -> None:
    # R-DEAL-4
    deal = new_deal(upcards=upcards)
    assert deal.view(None)["pile"]["frozen"] is frozen


def test_r_deal_4_pile_frozen_from_the_start_refuses_natural_and_wild() -> None:
    # R-DEAL-4 + R-FRZ-3: a covered 2 freezes the pile; a natural pair still takes it
    hand0 = ["9S", "2H", "9D", "KH", "KS", "KD", "QC", "JD", "TS", "8C", "7C"]
    deal = new_deal(team_scores=(-10, -10), hands={0: hand0}, upcards=["2C", "9H"])
    refuse(deal, 0, {"type": "take_pile", "cards": ["9S", "2H"]}, "pile_frozen")
    take = {"type": "take_pile", "cards": ["9S", "9D"]}
    deal.apply(0, take)
    assert hand(deal, 0)["2C"] == 1  # the covered 2 came with the pile


def test_r_deal_5_dealt_red_three_is_laid_and_replaced() -> None:
    # R-DEAL-5
    deal = new_deal(hands={0: ["3H"]}, upcards=["9H"], stock=["KC"])
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    assert team_view(deal, 1)["red_threes"] == []
    assert "3H" not in deal.view(0)["hand"]
    assert "KC" in deal.view(0)["hand"]
    view = deal.view(None)
    assert view["hand_counts"] == [11, 11, 11, 11]
    assert view["stock_count"] == 63 - 1
    assert cards_on_table(view) == 108


def test_r_deal_5_replacements_in_turn_order_from_the_first_player() -> None:
    # R-DEAL-5 DECIDED: seats dealer+1, dealer+2, ... ; the replacement comes after the covering
    deal = new_deal(
        dealer=3,
        hands={0: ["3H"], 1: ["3D"], 2: ["3H"]},
        upcards=["JK", "9H"],
        stock=["KC", "QC", "JC"],
    )
    assert hand(deal, 0)["KC"] == 1 and hand(deal, 1)["QC"] == 1 and hand(deal, 2)["JC"] == 1
    assert sorted(team_view(deal, 0)["red_threes"]) == ["3H", "3H"]
    assert team_view(deal, 1)["red_threes"] == ["3D"]

    deal = new_deal(dealer=1, hands={0: ["3H"], 2: ["3D"]}, upcards=["9H"], stock=["KC", "QC"])
    assert hand(deal, 2)["KC"] == 1, "seat 2 (dealer+1) is replaced first"
    assert hand(deal, 0)["QC"] == 1


def test_r_deal_5_red_three_replacement_repeats_at_once() -> None:
    # R-DEAL-5: a red three replacement that is itself a red three is laid and replaced again
    # before the next seat's replacement
    deal = new_deal(
        dealer=3, hands={0: ["3H"], 1: ["3H"]}, upcards=["9H"], stock=["3D", "KC", "QC"]
    )
    assert sorted(team_view(deal, 0)["red_threes"]) == ["3D", "3H"]
    assert hand(deal, 0)["KC"] == 1
    assert hand(deal, 1)["QC"] == 1
    assert deal.view(None)["hand_counts"] == [11, 11, 11, 11]


def test_r_deal_5_two_red_threes_in_one_hand() -> None:
    # R-DEAL-5
    deal = new_deal(hands={0: ["3H", "3D"]}, upcards=["9H"], stock=["KC", "QC"])
    assert sorted(team_view(deal, 0)["red_threes"]) == ["3D", "3H"]
    assert hand(deal, 0)["KC"] == 1 and hand(deal, 0)["QC"] == 1
    assert deal.view(None)["stock_count"] == 61


def test_contract_same_seed_same_deal_and_seeds_differ() -> None:
    # CONTRACT §2: "shuffled by seed" - deterministic
    a = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=123)
    b = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=123)
    c = Deal.new(Rules(), dealer=0, team_scores=(0, 0), seed=124)
    assert state(a) == state(b)
    assert [a.view(s)["hand"] for s in range(4)] != [c.view(s)["hand"] for s in range(4)]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (["9H", "9S", "2C"], None),  # a 2 is wild
        (["9H", "9S", "JK"], None),  # a joker is wild
        (["4H", "4S", "4D"], None),  # 4 is the lowest natural
        (["AH", "AS", "AD"], None),  # A is a natural
        (["9H", "9S", "3C"], {"threes_not_allowed", "mixed_ranks"}),  # a black three is no wild
        (["3S", "3C", "3S"], "threes_not_allowed"),  # nor a natural (outside going out)
    ],
)
def test_r_card_3_wild_cards_and_naturals(cards: list[str], code: str | set[str] | None) -> None:
    # R-CARD-3: wild cards are 2s and jokers; naturals 4..A; threes are neither
    others = [
        c
        for c in ["KC", "QD", "JH", "TS", "8C", "7D", "6H", "5C"]
        if c[0] not in {x[0] for x in cards}
    ]
    deal = new_deal(
        team_scores=(-10, -10), hands={0: [*cards, *others][:11]}, upcards=["KD"], stock=["QH"]
    )
    draw(deal, 0)
    action = {"type": "meld", "melds": [{"cards": cards}]}
    if code is None:
        deal.apply(0, action)
        assert len(team_view(deal, 0)["melds"]) == 1
    else:
        refuse(deal, 0, action, code)
