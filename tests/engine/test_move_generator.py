"""The move generator `legal_actions` against the engine itself.

Sound everywhere (every action it offers the engine accepts, on random play in every variant);
complete for the draw phase, by enumeration on small stacked states: whenever the engine accepts
`draw` it is offered, and for every way of melding the pile's top card the engine accepts in some
take (joining the team's meld, a natural pair, a natural and a wild), a take of that way is offered.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import Deal, Rules, legal_actions
from games.engine.cards import full_deck

WILD_CODES = ("JK", "2S", "2H")


def is_wild(card: str) -> bool:
    return card == "JK" or card[0] == "2"


def position(
    hand: list[str],
    pile: list[str],
    *,
    rules: Rules | None = None,
    scores: tuple[int, int] = (0, 0),
    melds: dict[str, list[str]] | None = None,
    frozen: bool = False,
) -> Deal:
    """Seat 0 to draw, holding `hand`, the pile `pile` (top last), team 0's `melds` on the table
    (opened when there are any); every other card in the other hands and the stock."""
    melds = melds or {}
    placed = Counter(hand) + Counter(pile) + Counter(c for cards in melds.values() for c in cards)
    rest = list((Counter(full_deck()) - placed).elements())
    random.Random(len(hand) * 31 + len(pile)).shuffle(rest)
    if Counter(rest) + placed != Counter(full_deck()):
        raise ValueError("more cards than two decks hold")
    data = Deal.new(rules or Rules(), dealer=3, team_scores=scores, seed=0).to_dict()
    data["hands"] = ["".join(hand)] + ["".join(rest[i * 11 : i * 11 + 11]) for i in range(3)]
    data["stock"] = "".join(rest[33:])
    data["pile"] = "".join(pile)
    data["frozen"] = frozen
    data["red"] = ["", ""]
    data["melds"] = [[[rank, "".join(cards)] for rank, cards in melds.items()], []]
    data["opened"] = [bool(melds), False]
    data["turn"], data["phase"] = 0, "draw"
    return Deal.from_dict(data)


def way(take: dict[str, Any]) -> str:
    """Which form of R-PILE-4 / R-FRZ-3 a take uses: a natural pair (wilds with it only join the
    meld, as the engine reads R-FRZ-3), one natural and a wild, or neither (the top card, with
    whatever else, joins the team's meld of its rank)."""
    wilds = sum(1 for card in take["cards"] if is_wild(card))
    naturals = len(take["cards"]) - wilds
    if naturals >= 2:
        return "pair"
    return "wild" if naturals and wilds else "join"


def every_take(deal: Deal) -> list[dict[str, Any]]:
    """Every take_pile the engine could be sent, up to suits: each choice of hand cards for the
    top card, then each choice, per rank, of how many naturals and which wilds to meld."""
    hand = deal.hands[0]
    rank = deal.pile[-1][0]
    usable = [card for card in hand if card[0] == rank or is_wild(card)]
    takes = []
    for size in range(len(usable) + 1):
        for cards in set(itertools.combinations(sorted(usable), size)):
            left = list(hand)
            for card in cards:
                left.remove(card)
            for melds in every_meld_set(left, set(deal.melds[0]) | {rank}):
                takes.append({"type": "take_pile", "cards": list(cards), "melds": melds})
    return takes


def every_meld_set(hand: list[str], ranks_on_table: set[str]) -> list[list[dict[str, Any]]]:
    naturals: dict[str, list[str]] = {}
    for card in hand:
        if not is_wild(card) and card[0] != "3":
            naturals.setdefault(card[0], []).append(card)
    wilds = [card for card in hand if is_wild(card)]
    blacks = [card for card in hand if card in ("3S", "3C")]
    ranks = sorted(set(naturals) | ranks_on_table)
    meld_sets = []
    for counts in itertools.product(*(range(len(naturals.get(r, [])) + 1) for r in ranks)):
        for homes in set(itertools.product([None, *ranks], repeat=len(wilds))):
            entries: list[dict[str, Any]] = []
            for r, count in zip(ranks, counts, strict=True):
                joined = [w for w, home in zip(wilds, homes, strict=True) if home == r]
                cards = naturals.get(r, [])[:count] + joined
                if count:
                    entries.append({"cards": cards})
                elif joined:
                    entries.append({"rank": r, "cards": cards})
            for with_blacks in [False, True] if len(blacks) >= 3 else [False]:
                meld_sets.append(entries + ([{"cards": blacks}] if with_blacks else []))
    return meld_sets


def random_position(rnd: random.Random) -> Deal:
    while True:
        try:
            return _random_position(rnd)
        except ValueError:
            continue


def _random_position(rnd: random.Random) -> Deal:
    rules = rnd.choice([Rules(), Rules(wild_limit="half")])
    top_rank, other, third = rnd.sample("AKQJT98765", 3)
    pool = [top_rank + s for s in "SHDC"] + [other + s for s in "SHDC"] + [third + "S"] * 2
    pool += [*WILD_CODES, "3S", "3C", "3S"]
    hand = rnd.sample(pool, rnd.randint(2, 7))
    melds: dict[str, list[str]] = {}
    if rnd.random() < 0.6:
        for meld_rank in rnd.sample([top_rank, other, "4"], rnd.randint(1, 2)):
            suits = "SHDCSHDC"[: rnd.randint(3, 6)]
            melds[meld_rank] = [meld_rank + s for s in suits] + ["2D"] * rnd.randint(0, 1)
    pile = [rnd.choice(["5H", "9C", "3D", "KC", "2C"]) for _ in range(rnd.randint(0, 3))]
    pile.append(top_rank + rnd.choice("SHDC"))
    scores = rnd.choice([(0, 0), (-20, 0), (1500, 0), (3000, 0)])
    frozen = rnd.random() < 0.3
    return position(hand, pile, rules=rules, scores=scores, melds=melds, frozen=frozen)


def test_R_PILE_3_R_OPEN_4_a_take_opens_when_the_piles_other_cards_join_the_hand() -> None:
    # The example: 90 to open; 8C with 8H 8S, then 999, an eighth 8S and 7777 make 90
    # from the top card and the hand, leaving one 9 and the 3S from the pile.
    hand = ["9C", "9H", "9S", "9S", "8H", "8S", "8S", "7C", "7H", "7H", "7S"]
    deal = position(hand, ["3S", "8C"], scores=(1500, 0))
    takes = [action for action in legal_actions(deal, 0) if action["type"] == "take_pile"]
    assert takes, "the opening take was not offered"
    for take in takes:
        deal.check(0, take)
    deal.apply(0, takes[0])
    assert deal.opened[0] and deal.phase == "play"


@pytest.mark.parametrize("batch", range(4))
def test_R_PILE_R_FRZ_every_way_of_taking_the_pile_is_offered(batch: int) -> None:
    rnd = random.Random(batch)
    positions = 0
    while positions < 40:
        deal = random_position(rnd)
        offered = legal_actions(deal, 0)
        for action in offered:
            deal.check(0, action)
        assert ({"type": "draw"} in offered) == deal.is_legal(0, {"type": "draw"})
        legal_ways = {way(take) for take in every_take(deal) if deal.is_legal(0, take)}
        offered_ways = {way(action) for action in offered if action["type"] == "take_pile"}
        assert legal_ways <= offered_ways, (deal.to_dict(), legal_ways, offered_ways)
        positions += bool(legal_ways)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(wild_limit="half", stock_out="classic"),
        Rules(concealed_out_skips_minimum=True, upcard_stops_on_black_three=True),
    ],
)
def test_every_offered_action_is_legal_through_random_deals(rules: Rules) -> None:
    rnd = random.Random(7)
    for number in range(30):
        deal = Deal.new(rules, dealer=number % 4, team_scores=(number * 150 - 500, 0), seed=number)
        while deal.phase != "over":
            seat = deal.turn
            offered = legal_actions(deal, seat)
            assert offered
            for action in offered:
                deal.check(seat, action)
            deal.apply(seat, rnd.choice(offered))
