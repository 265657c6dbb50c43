"""R-SAMBA-OPEN, R-BOL-OPEN (issue 24): `legal_actions` for a Samba or Bolivia side that has not
opened, against an independent brute force over the hand's melds judged by the engine.

The generator promises (games/engine/variants/samba/moves.py): an opening meld reaching the minimum
is offered exactly when some set of the hand's melds reaches it and the engine accepts that set;
each new meld of the hand is offered as a step; every offered action is accepted.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, Rules, legal_actions
from games.engine.cards import full_deck
from tests.engine.decks import is_wild, value

SEQUENCE = "456789TJQKA"
GAMES = st.sampled_from([Rules(game="samba"), Rules(game="bolivia")])
# A side's total at the start of the deal gives its minimum: 15, 50, 90, 120, 160 (Bolivia 150).
SCORES = st.sampled_from([-20, 0, 1500, 3000, 7000])


def unopened_turn(rules: Rules, hand: list[str], score: int) -> Deal:
    """Seat 0 to meld after a stock draw, holding `hand`; its side has not opened; every other
    card in the other hands, the stock and a one-card pile."""
    rest = list((Counter(full_deck(3)) - Counter(hand)).elements())
    random.Random(len(hand)).shuffle(rest)
    data = Deal.new(rules, dealer=3, team_scores=(score, 0), seed=0).to_dict()
    data["hands"] = ["".join(hand)] + ["".join(rest[i * 15 : i * 15 + 15]) for i in range(3)]
    data["pile"] = rest[45]
    data["stock"] = "".join(rest[46:])
    data["red"] = ["", ""]
    data["turn"], data["phase"], data["drew"] = 0, "play", "stock"
    return Deal.from_dict(data)


def is_meld(cards: tuple[str, ...], game: str) -> bool:
    """A new meld as the digest reads (R-SAMBA-GROUP/SEQ, R-BOL-WILD), written apart from the
    engine: a group, a sequence of one suit in order, or (Bolivia) wilds alone."""
    if len(cards) < 3 or any(card[0] == "3" for card in cards):
        return False
    wilds = [card for card in cards if is_wild(card)]
    naturals = [card for card in cards if not is_wild(card)]
    if not naturals:
        return game == "bolivia" and len(cards) <= 7
    if len({card[0] for card in naturals}) == 1:
        return len(naturals) >= 2 and len(wilds) <= 2
    places = sorted(SEQUENCE.index(card[0]) for card in naturals)
    return (
        not wilds
        and len({card[1] for card in naturals}) == 1
        and len(cards) <= 7
        and places == list(range(places[0], places[0] + len(places)))
    )


def openings_the_engine_accepts(deal: Deal) -> list[list[tuple[str, ...]]]:
    """Every set of disjoint melds of the hand (up to equal cards) that reaches the minimum and
    that the engine accepts as one meld action; at most a few, found depth first."""
    hand = deal.hands[0]
    minimum = deal.minimums[0]
    game = deal.rules.game
    melds = sorted(
        {
            cards
            for size in range(3, len(hand) - 1)
            for cards in itertools.combinations(sorted(hand), size)
            if is_meld(cards, game)
        }
    )
    found: list[list[tuple[str, ...]]] = []

    def dive(start: int, left: Counter[str], chosen: list[tuple[str, ...]], points: int) -> None:
        if len(found) >= 3:
            return
        if points >= minimum:
            action = {"type": "meld", "melds": [{"cards": list(cards)} for cards in chosen]}
            if deal.is_legal(0, action):
                found.append(list(chosen))
            return
        for index in range(start, len(melds)):
            cards = melds[index]
            need = Counter(cards)
            if all(left[card] >= count for card, count in need.items()):
                chosen.append(cards)
                dive(index, left - need, chosen, points + sum(map(value, cards)))
                chosen.pop()

    dive(0, Counter(hand), [], 0)
    return found


def opens(deal: Deal, action: dict[str, Any]) -> bool:
    cards = [card for entry in action["melds"] for card in entry["cards"]]
    return sum(map(value, cards)) >= deal.minimums[0]


@st.composite
def meld_rich_hands(draw: st.DrawFn) -> list[str]:
    """8 to 12 cards from a few ranks and suits, so that groups, sequences sharing their cards
    with groups, wilds and near misses are common."""
    ranks = draw(st.lists(st.sampled_from(SEQUENCE), min_size=2, max_size=4, unique=True))
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=2, unique=True))
    low = draw(st.integers(0, len(SEQUENCE) - 5))
    pool = [rank + suit for rank in ranks for suit in "SHDC"] * 2
    pool += [SEQUENCE[at] + suit for suit in suits for at in range(low, low + 5)]
    pool += ["JK", "JK", "2S", "2H", "2D", "3S", "3C"]
    size = draw(st.integers(8, 12))
    cards = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    held: Counter[str] = Counter()
    kept = []
    for card in cards:  # three packs: three of each card
        held[card] += 1
        if held[card] <= 3:
            kept.append(card)
    return kept


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=GAMES, hand=meld_rich_hands(), score=SCORES)
def test_r_samba_open_an_opening_is_offered_exactly_when_the_hands_melds_reach_the_minimum(
    rules: Rules, hand: list[str], score: int
) -> None:
    # R-SAMBA-OPEN, R-BOL-OPEN, R-OPEN-2: every offered action is accepted; an offered meld
    # reaches the minimum exactly when some set of the hand's melds does and the engine takes it
    deal = unopened_turn(rules, hand, score)
    offered = legal_actions(deal, 0)
    for action in offered:
        assert deal.is_legal(0, action), action
    offered_openings = [a for a in offered if a["type"] == "meld" and opens(deal, a)]
    accepted = openings_the_engine_accepts(deal)
    assert bool(offered_openings) == bool(accepted), (hand, deal.minimums[0], accepted)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=GAMES, hand=meld_rich_hands(), score=SCORES)
def test_r_samba_open_each_new_meld_of_the_hand_is_offered_as_a_step_until_an_undo(
    rules: Rules, hand: list[str], score: int
) -> None:
    # R-SAMBA-OPEN, R-SAMBA-UNDO: below the minimum each group and each longest run of the hand
    # (and, Bolivia, a wild meld) leaving two cards is offered alone, and accepted; after an
    # undo only what reaches the minimum in one go is
    deal = unopened_turn(rules, hand, score)
    offered = legal_actions(deal, 0)
    melds = [action for action in offered if action["type"] == "meld"]
    singles = [action["melds"][0]["cards"] for action in melds if len(action["melds"]) == 1]
    naturals = Counter(card[0] for card in hand if not is_wild(card) and card[0] != "3")
    wilds = sum(1 for card in hand if is_wild(card))
    for rank, count in naturals.items():
        if (count >= 3 or (count == 2 and wilds)) and len(hand) - max(count, 3) >= 2:
            assert any(cards[0][0] == rank and cards[1][0] == rank for cards in singles), rank
    for cards in singles:
        assert is_meld(tuple(cards), rules.game)
    steps = [a for a in offered if a["type"] == "meld" and not opens(deal, a)]
    if steps:
        deal.apply(0, steps[0])
        deal.apply(0, {"type": "undo"})
        for action in legal_actions(deal, 0):
            if action["type"] == "meld":
                assert opens(deal, action) and deal.is_legal(0, action)
