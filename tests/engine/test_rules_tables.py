"""Tables of two, three and six, and two canastas to go out (issue 13), on stacked decks.

R-TABLE-DEAL, R-TABLE-2, R-TABLE-3, R-TABLE-6, R-TABLE-6-RED, R-TABLE-6-OPEN, R-HOUSE-TWO, and
R-OUT-1/2, R-END-1/2, R-GAME-1 where a table changes them (games/engine/README.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import pytest

from games.engine import Deal, Match, Rules, legal_actions
from games.engine.preview import preview
from games.illegal_moves import message
from games.players import autoplay, log_entry, play_turn
from tests.engine.decks import (
    FULL_DECK,
    SIX_HANDED_DECK,
    build_deck,
    cards_on_table,
    discard,
    draw,
    hand,
    meld,
    new_deal,
    pass_turn,
    refuse,
    take_pile,
    team_view,
)
from tests.engine.test_rules_house import ASK

TABLES = [
    Rules(players=2),
    Rules(players=3),
    Rules(),
    Rules(players=6),
    Rules(players=6, teams=2),
]


def table_id(rules: Rules) -> str:
    return f"{rules.players}p{rules.teams}t"


def first_dealer(rules: Rules) -> int:
    """The dealer that makes seat 0 move first."""
    return rules.players - 1


def zero_scores(rules: Rules) -> tuple[int, ...]:
    return tuple(0 for _ in rules.seating.teams)


def cut_stock(deal: Deal, top_first: Sequence[str]) -> Deal:
    """The deal with its stock cut down to `top_first` (drawn in that order); every other stock
    card goes under the pile, so that every card stays accounted for."""
    data = deal.to_dict()
    packed = data["stock"]
    stock = Counter(packed[i : i + 2] for i in range(0, len(packed), 2))
    assert Counter(top_first) <= stock, "the cards must be in the stock"
    data["stock"] = "".join(reversed(top_first))
    data["pile"] = "".join(sorted((stock - Counter(top_first)).elements())) + data["pile"]
    return Deal.from_dict(data)


# --- R-TABLE-DEAL -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", TABLES, ids=table_id)
@pytest.mark.parametrize("dealer_step", [0, 1])
def test_R_TABLE_DEAL_one_card_at_a_time_from_dealer_plus_one_then_the_upcard(
    rules: Rules, dealer_step: int
) -> None:
    # R-TABLE-DEAL: hand_size rounds, one card each, seat dealer+1 first; then the upcard; the
    # stock is the rest, drawn from the front
    dealer = (first_dealer(rules) + dealer_step) % rules.players
    deck = build_deck(rules=rules, dealer=dealer)
    deal = Deal.new(rules, dealer=dealer, team_scores=zero_scores(rules), deck=deck)
    players, size = rules.players, rules.hand_size
    for position, seat in enumerate(rules.seating.round_from(rules.seating.next_seat(dealer))):
        assert hand(deal, seat) == Counter(deck[position : players * size : players])
    view = deal.view(None)
    assert view["hand_counts"] == [size] * players
    assert view["pile"] == {"top": deck[players * size], "count": 1, "frozen": False}
    assert view["stock_count"] == len(deck) - players * size - 1
    assert view["turn"] == rules.seating.next_seat(dealer)
    event = deal.apply(view["turn"], {"type": "draw"})
    assert (
        event["private"]["cards"]
        == deck[players * size + 1 : players * size + 1 + rules.cards_drawn]
    )


@pytest.mark.parametrize(
    ("rules", "hand_size", "cards"),
    [
        (Rules(players=2), 15, 108),
        (Rules(players=3), 13, 108),
        (Rules(), 11, 108),
        (Rules(players=6), 13, 162),
        (Rules(players=6, teams=2), 13, 162),
    ],
    ids=["2", "3", "4", "6x3", "6x2"],
)
def test_R_TABLE_DEAL_seeded_deals_of_every_table(rules: Rules, hand_size: int, cards: int) -> None:
    # R-TABLE-2/3/6: 15, 13, 11, 13 cards each; three packs (162 cards, six jokers) at six
    for seed in range(5):
        deal = Deal.new(
            rules, dealer=seed % rules.players, team_scores=zero_scores(rules), seed=seed
        )
        view = deal.view(None)
        assert view["hand_counts"] == [hand_size] * rules.players
        assert len(view["teams"]) == rules.teams
        assert cards_on_table(view) == cards
        data = deal.to_dict()
        assert Deal.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_R_TABLE_DEAL_a_stacked_deck_is_the_tables_packs() -> None:
    # R-TABLE-6: three packs at six, two elsewhere; Deal.new refuses any other deck
    six, four = Rules(players=6), Rules()
    with pytest.raises(ValueError, match="162"):
        Deal.new(six, dealer=0, team_scores=(0, 0, 0), deck=list(FULL_DECK))
    with pytest.raises(ValueError, match="108"):
        Deal.new(four, dealer=0, deck=list(SIX_HANDED_DECK))
    with pytest.raises(ValueError):
        Deal.new(six, dealer=0, team_scores=(0, 0, 0), deck=[*SIX_HANDED_DECK[:-1], "AS"])
    assert Counter(SIX_HANDED_DECK)["JK"] == 6 and len(SIX_HANDED_DECK) == 162
    Deal.new(six, dealer=0, team_scores=(0, 0, 0), deck=list(SIX_HANDED_DECK))
    Deal.new(Rules(players=2), dealer=0, team_scores=(0, 0), deck=list(FULL_DECK))


def test_R_TABLE_DEAL_dealt_red_threes_are_replaced_round_the_table_from_dealer_plus_one() -> None:
    # R-DEAL-5 at three: the dealer is seat 0, so seat 1 is replaced first, then 2, then 0
    rules = Rules(players=3)
    deal = new_deal(
        rules=rules,
        dealer=0,
        team_scores=(0, 0, 0),
        hands={0: ["3H"], 2: ["3D"]},
        stock=["JK", "2S"],  # the fillers deal no wild
    )
    assert hand(deal, 2)["JK"] == 1 and hand(deal, 0)["2S"] == 1
    assert [team_view(deal, team)["red_threes"] for team in (0, 1, 2)] == [["3H"], [], ["3D"]]
    assert deal.view(None)["hand_counts"] == [13, 13, 13]


# --- R-TABLE-2: two players, two cards a draw ---------------------------------------------------

TWO = Rules(players=2)


def two_handed(hands: dict[int, list[str]], stock: Sequence[str] = (), **options: object) -> Deal:
    rules = Rules(players=2, **options)  # type: ignore[arg-type]
    return new_deal(rules=rules, dealer=1, hands=hands, stock=stock)


def test_R_TABLE_2_a_stock_draw_takes_two_cards() -> None:
    deal = two_handed({}, stock=["KS", "QS", "JS"])
    stock = deal.view(None)["stock_count"]
    event = deal.apply(0, {"type": "draw"})
    assert event["private"] == {"cards": ["KS", "QS"]}
    assert event["public"]["stock_count"] == stock - 2
    assert deal.view(None)["hand_counts"] == [17, 15]
    discard(deal, 0, "KS")
    assert deal.view(None)["hand_counts"] == [16, 15] and deal.turn == 1


def test_R_TABLE_2_a_red_three_among_the_two_is_laid_and_replaced() -> None:
    # R-TURN-2 with two cards drawn: the draw's own cards first, then the replacement
    deal = two_handed({}, stock=["3H", "KS", "QS", "JS"])
    event = deal.apply(0, {"type": "draw"})
    assert event["public"]["red_threes"] == ["3H"]
    assert event["private"] == {"cards": ["KS", "QS"]}
    assert team_view(deal, 0)["red_threes"] == ["3H"]
    assert deal.view(None)["hand_counts"] == [17, 15] and deal.phase == "play"


def test_R_TABLE_2_taking_the_pile_replaces_the_draw() -> None:
    deal = new_deal(rules=TWO, dealer=1, hands={0: ["KS", "KH", "AS", "AH", "AD"]}, upcards=["KD"])
    stock = deal.view(None)["stock_count"]
    take_pile(deal, 0, ["KS", "KH"], ["AS", "AH", "AD"])
    assert deal.view(None)["stock_count"] == stock
    assert deal.view(None)["hand_counts"] == [10, 15] and deal.phase == "play"
    refuse(deal, 0, {"type": "draw"}, "wrong_phase")


def test_R_TABLE_2_R_END_1_one_card_left_when_two_are_due_ends_the_deal() -> None:
    # DECIDED: the draw takes the last card, and drawing the last card ends the deal at once
    deal = cut_stock(two_handed({}, stock=["KS"]), ["KS"])
    assert draw(deal, 0) == ["KS"]
    assert deal.phase == "over" and deal.view(None)["stock_count"] == 0
    assert deal.result is not None and all(line["going_out"] == 0 for line in deal.result)


def test_R_TABLE_2_R_END_2_variant_classic_one_card_left_the_turn_goes_on() -> None:
    # stock_out="classic": drawing the last card does not end the deal, with one or two due
    deal = cut_stock(two_handed({}, stock=["KS"], stock_out="classic"), ["KS"])
    assert draw(deal, 0) == ["KS"]
    assert deal.phase == "play" and deal.view(None)["hand_counts"] == [16, 15]


def test_R_TABLE_2_R_END_1_drawing_the_last_two_cards_ends_the_deal() -> None:
    deal = cut_stock(two_handed({}, stock=["KS", "QS", "JS"]), ["KS", "QS", "JS"])
    pass_turn(deal, 0)
    assert deal.turn == 1 and deal.view(None)["stock_count"] == 1
    deal = cut_stock(two_handed({}, stock=["KS", "QS"]), ["KS", "QS"])
    assert sorted(draw(deal, 0)) == ["KS", "QS"]
    assert deal.phase == "over"


def test_R_TABLE_2_R_END_1_a_red_three_as_the_last_card_ends_the_deal_and_counts() -> None:
    deal = cut_stock(two_handed({}, stock=["KS", "3H"]), ["KS", "3H"])
    assert draw(deal, 0) == ["KS"]
    assert deal.phase == "over" and team_view(deal, 0)["red_threes"] == ["3H"]
    assert deal.result is not None and deal.result[0]["red_threes"] == -100  # R-RED-2


def test_R_TABLE_2_R_END_2_a_replacement_emptying_the_stock_lets_the_turn_go_on() -> None:
    deal = cut_stock(two_handed({}, stock=["KS", "3H", "QS"]), ["KS", "3H", "QS"])
    assert sorted(draw(deal, 0)) == ["KS", "QS"]
    assert deal.phase == "play" and deal.view(None)["stock_count"] == 0
    discard(deal, 0, "KS")
    draw(deal, 1)  # R-END-2: the next player meets the empty stock; drawing ends the deal
    assert deal.phase == "over"


# --- going out with two canastas: the tables and R-HOUSE-TWO ------------------------------------

KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
QUEENS = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]


def test_R_TABLE_2_R_OUT_2_one_canasta_is_not_enough_to_keep_no_card() -> None:
    deal = two_handed({0: [*KINGS, *QUEENS[:6], "JS", "9H"]}, stock=["JH", "JD"])
    draw(deal, 0)
    meld(deal, 0, KINGS, ["JS", "JH", "JD"])
    error = refuse(deal, 0, {"type": "meld", "melds": [{"cards": QUEENS[:6]}]}, "must_keep_card")
    assert "two canastas" in message(error, "en")


def test_R_TABLE_2_R_OUT_1_concealed_going_out_with_two_canastas() -> None:
    # R-OUT-3 unchanged: the whole hand melded in one turn, canastas among the player's melds
    deal = two_handed({0: [*KINGS, *QUEENS[:6], "JK", "JS"]}, stock=["JH", "JD"])
    draw(deal, 0)
    meld(deal, 0, KINGS)
    meld(deal, 0, [*QUEENS[:6], "JK"])
    meld(deal, 0, ["JS", "JH", "JD"])
    assert deal.phase == "over" and deal.result is not None
    line = deal.result[0]
    assert line["going_out"] == 200 and line["canastas"] == 500 + 300


def test_R_TABLE_2_R_OUT_1_black_threes_go_out_only_with_two_canastas() -> None:
    deal = two_handed({0: [*KINGS, *QUEENS[:5], "3S", "3C", "3S"]}, stock=["QH", "9H"])
    draw(deal, 0)
    meld(deal, 0, KINGS, [*QUEENS[:5], "QH"])
    error = refuse(
        deal, 0, {"type": "meld", "melds": [{"cards": ["3S", "3C", "3S"]}]}, "no_canasta"
    )
    assert "two canastas" in message(error, "en")


@pytest.mark.parametrize(("canastas", "accepted"), [(1, True), (2, False)])
def test_R_HOUSE_TWO_four_handed_one_canasta_is_not_enough_to_keep_no_card(
    canastas: int, accepted: bool
) -> None:
    deal = new_deal(
        rules=Rules(canastas_to_go_out=canastas),
        hands={0: [*KINGS, "QS", "QH", "QD", "QC"]},
        stock=["9H"],
    )
    draw(deal, 0)
    meld(deal, 0, KINGS)
    action = {"type": "meld", "melds": [{"cards": ["QS", "QH", "QD", "QC"]}]}
    if accepted:
        deal.apply(0, action)
        discard(deal, 0, "9H")
        assert deal.phase == "over"
    else:
        refuse(deal, 0, action, "must_keep_card")


def test_R_HOUSE_TWO_the_partners_canastas_count_together() -> None:
    # Seat 0 makes one canasta, its partner (seat 2) the second, then goes out
    rules = Rules(canastas_to_go_out=2)
    assert rules.seating.partners_of(0) == (2,)
    deal = new_deal(
        rules=rules,
        hands={0: KINGS, 2: [*QUEENS, "JS", "JH", "JD", "9D"]},
        stock=["8C", "7C", "8D", "7D", "6C", "6D", "JC"],
    )
    draw(deal, 0)
    meld(deal, 0, KINGS)
    discard(deal, 0, "8C")
    pass_turn(deal, 1, "7C")
    draw(deal, 2)
    meld(deal, 2, QUEENS, ["JS", "JH", "JD"])
    discard(deal, 2, "8D")
    pass_turn(deal, 3, "7D")
    pass_turn(deal, 0, "6C")
    pass_turn(deal, 1, "6D")
    draw(deal, 2)
    meld(deal, 2, ["JC"])
    discard(deal, 2, "9D")
    assert deal.phase == "over" and deal.result is not None
    assert deal.result[0]["going_out"] == 100 and deal.result[0]["canastas"] == 1000


# --- R-TABLE-3 ----------------------------------------------------------------------------------


def test_R_TABLE_3_each_plays_alone() -> None:
    rules = Rules(players=3)
    assert rules.seating.teams == ((0,), (1,), (2,))
    assert all(rules.seating.partners_of(seat) == () for seat in (0, 1, 2))
    assert rules.canastas_to_go_out == 2 and rules.target == 5000
    deal = new_deal(rules=rules, dealer=2, team_scores=(0, 0, 0), hands={1: ["AS", "AH", "AD"]})
    pass_turn(deal, 0)
    draw(deal, 1)
    meld(deal, 1, ["AS", "AH", "AD"])
    view = deal.view(None)
    assert [team["opened"] for team in view["teams"]] == [False, True, False]
    assert [len(team["melds"]) for team in view["teams"]] == [0, 1, 0]


# --- R-TABLE-6 ----------------------------------------------------------------------------------


def test_R_TABLE_6_partners_never_sit_side_by_side() -> None:
    three, two = Rules(players=6).seating, Rules(players=6, teams=2).seating
    assert three.teams == ((0, 3), (1, 4), (2, 5))
    assert two.teams == ((0, 2, 4), (1, 3, 5))
    assert three.partners_of(1) == (4,) and two.partners_of(1) == (3, 5)
    for seating in (three, two):
        for seat in seating.seats:
            assert seating.team_of(seating.next_seat(seat)) != seating.team_of(seat)
    assert Rules(players=6).target == 7500 and Rules(players=6, teams=2).target == 10_000


RED_THREES_AT_SIX = ["3H", "3H", "3D", "3H", "3D", "3D"]
REPLACEMENTS = ["4S", "4H", "4D", "4C", "5S", "5H"]


def six_handed_with_red_threes(count: int, stock: list[str]) -> Deal:
    """Team 0 (seats 0 and 3) is dealt `count` red threes; seat 0 also holds three aces."""
    reds = RED_THREES_AT_SIX[:count]
    deal = new_deal(
        rules=Rules(players=6),
        dealer=5,
        team_scores=(0, 0, 0),
        hands={0: ["AS", "AH", "AD", *reds[:3]], 3: reds[3:]},
        stock=stock,
    )
    return cut_stock(deal, stock[-2:])


@pytest.mark.parametrize(("count", "points"), [(1, 100), (4, 400), (5, 1000), (6, 1200)])
def test_R_TABLE_6_RED_up_to_four_100_each_five_1000_six_1200(count: int, points: int) -> None:
    deal = six_handed_with_red_threes(count, [*REPLACEMENTS[:count], "KC", "QC"])
    assert len(team_view(deal, 0)["red_threes"]) == count
    draw(deal, 0)
    meld(deal, 0, ["AS", "AH", "AD"])
    discard(deal, 0, "KC")
    draw(deal, 1)  # the last card (R-END-1)
    assert deal.result is not None
    assert deal.result[0]["red_threes"] == points
    assert deal.result[1]["red_threes"] == deal.result[2]["red_threes"] == 0


@pytest.mark.parametrize(("count", "points"), [(5, -1000), (6, -1200)])
def test_R_TABLE_6_RED_R_RED_2_negative_without_a_meld(count: int, points: int) -> None:
    deal = six_handed_with_red_threes(count, [*REPLACEMENTS[:count], "KC", "QC"])
    deal = cut_stock(deal, ["KC"])
    draw(deal, 0)
    assert deal.result is not None and deal.result[0]["red_threes"] == points


def test_R_TABLE_6_OPEN_two_teams_of_three_open_with_150_from_7500() -> None:
    six_two, six_three, four = Rules(players=6, teams=2), Rules(players=6), Rules()
    assert [six_two.opening_minimum(s) for s in (-5, 0, 1500, 3000, 7499, 7500, 9990)] == [
        15,
        50,
        90,
        120,
        120,
        150,
        150,
    ]
    assert six_three.opening_minimum(7500) == 120 and four.opening_minimum(7500) == 120
    opener = ["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD"]
    deal = new_deal(rules=six_two, dealer=5, team_scores=(7500, 0), hands={0: opener})
    assert [team["minimum"] for team in deal.view(None)["teams"]] == [150, 50]
    draw(deal, 0)
    meld(deal, 0, opener[:3], opener[3:6], opener[6:9])
    assert not team_view(deal, 0)["opened"]  # 120 of 150
    refuse(deal, 0, {"type": "discard", "card": "JS"}, "below_minimum")
    meld(deal, 0, opener[9:])
    assert team_view(deal, 0)["opened"]


# --- Match: N teams -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2, target=1500),
        Rules(players=3, target=1500),
        Rules(players=6, target=1500),
        Rules(players=6, teams=2, target=1500),
    ],
    ids=table_id,
)
def test_R_GAME_1_a_match_at_every_table(rules: Rules) -> None:
    # R-GAME-1: one score per team; the deal passes round the table; minimums from the scores
    match = Match.new(rules, first_dealer=1, seed=13)
    assert match.scores == zero_scores(rules)
    dealers: list[int] = []
    while not match.over:
        deal = match.deal
        if len(dealers) < match.deal_number:
            dealers.append(deal.dealer)
            assert deal.minimums == [rules.opening_minimum(s) for s in match.scores]
        seat = deal.turn
        for action in autoplay(deal, seat):
            event = match.apply(seat, action)
            if event["deal_over"]:
                break
    assert dealers == [(1 + n) % rules.players for n in range(len(dealers))]
    assert len(match.history) == len(dealers)
    totals = [
        sum(entry["result"][team]["total"] for entry in match.history)
        for team in range(rules.teams)
    ]
    assert list(match.scores) == totals
    assert max(match.scores) >= 1500
    best = max(match.scores)
    assert match.winners == tuple(t for t, s in enumerate(match.scores) if s == best)
    assert match.winner == (match.winners[0] if len(match.winners) == 1 else None)
    view = match.view(0)
    assert len(view["scores"]) == rules.teams and view["winner"] == match.winner
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))).to_dict() == match.to_dict()


def test_R_GAME_1_two_of_three_teams_sharing_the_top_is_a_draw_between_them() -> None:
    match = Match.new(Rules(players=3), first_dealer=0, seed=1)
    data = match.to_dict()
    data.update(over=True, scores=[5100, 5100, 4000], winner=None)
    ended = Match.from_dict(data)
    assert ended.winners == (0, 1) and ended.winner is None
    assert match.winners == ()


# --- the house rules at the other tables ----------------------------------------------------

# (Random legal play with the house rules at every table: test_rules_house.py's property.)
HOUSE_AT_TABLES = [
    Rules(players=6, teams=2, ask_partner_to_go_out=True, double_going_out=True),
    Rules(players=6, ask_partner_to_go_out=True, double_going_out=True),
]


def test_R_HOUSE_ASK_holding_one_card_it_is_too_late_to_ask() -> None:
    # DECIDED: with one card left the only move is going out, so a "no" would leave the player
    # with no move at all (a deal that cannot go on); the question is refused
    deal = new_deal(
        rules=Rules(ask_partner_to_go_out=True),
        hands={0: [*KINGS, "QS", "QH", "QD", "QC"]},
        stock=["9H"],
    )
    draw(deal, 0)
    meld(deal, 0, KINGS, ["QS", "QH", "QD", "QC"])
    refuse(deal, 0, ASK, "wrong_phase")
    assert ASK not in legal_actions(deal, 0)


@pytest.mark.parametrize("rules", HOUSE_AT_TABLES, ids=table_id)
def test_house_rules_at_six_bots_finish_every_deal_legally(rules: Rules) -> None:
    for number in range(3):
        deal = Deal.new(rules, dealer=number, team_scores=zero_scores(rules), seed=70 + number)
        logs: list[list[dict[str, object]]] = [[] for _ in rules.seating.seats]
        for turn in range(600):
            if deal.phase == "over":
                break
            seat = deal.to_act
            level = ("beginner", "club")[turn % 2]
            for action in play_turn(deal, seat, level=level, log=logs[seat], seed=turn):
                event = deal.apply(seat, action)
                for viewer in rules.seating.seats:
                    logs[viewer].append(log_entry(seat, action, event, viewer=viewer))
        assert deal.phase == "over"


def test_R_TABLE_6_OPEN_preview_at_six_counts_toward_150_and_names_two_canastas() -> None:
    # games.engine.preview judges a table's action as the engine does: the 150 minimum, and
    # the refusal of two-canasta tables
    opener = ["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD"]
    deal = new_deal(
        rules=Rules(players=6, teams=2), dealer=5, team_scores=(7500, 0), hands={0: opener}
    )
    draw(deal, 0)
    answer = preview(deal, 0, {"type": "meld", "melds": [{"cards": opener[:3]}]})
    assert answer.legal and (answer.points, answer.minimum, answer.opened) == (60, 150, False)
    whole = [{"cards": opener[i : i + 3]} for i in range(0, 12, 3)]
    answer = preview(deal, 0, {"type": "meld", "melds": whole})
    assert answer.legal and (answer.points, answer.opened) == (150, True)
    deal = two_handed({0: [*KINGS, *QUEENS[:6], "JS", "9H"]}, stock=["JH", "JD"])
    draw(deal, 0)
    meld(deal, 0, KINGS, ["JS", "JH", "JD"])
    answer = preview(deal, 0, {"type": "meld", "melds": [{"cards": QUEENS[:6]}]})
    assert not answer.legal and answer.code == "must_keep_card"
    assert answer.refusal is not None and "two canastas" in message(answer.refusal, "en")
