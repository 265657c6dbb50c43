"""The existing bots at the Samba and Bolivia tables (issue 24): the sight rebuilt from a view and
a log with index-addressed melds, and the club's play of sequences (no stuck or illegal turn at
any level: tests/players/test_bots.py, with every table)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engine import Deal, Rules, legal_actions
from games.engine.cards import full_deck
from games.players.club import notes_on_table
from games.players.samba import samba_club_action
from tests.players.test_bots import GAMES, check_the_sight_through_a_deal


@pytest.mark.parametrize("rules", GAMES, ids=lambda rules: rules.game)
def test_the_sight_at_samba_and_bolivia_is_what_the_seat_knows(rules: Rules) -> None:
    # R-SAMBA-ENTRY: the rebuilt deal names every meld by the index the real one does
    for number in range(2):
        check_the_sight_through_a_deal(rules, number)


def club_table(
    hand: list[str], melds: dict[str, list[str]], *, phase: str, pile: list[str]
) -> Deal:
    """Seat 0 of an open Samba side holding `hand`, its side's `melds` (keys as Samba names
    them: games/engine/variants/samba/sequences.py), the pile `pile`; every other card
    elsewhere."""
    rules = Rules(game="samba")
    placed = Counter(hand) + Counter(pile) + Counter(c for cards in melds.values() for c in cards)
    rest = list((Counter(full_deck(3)) - placed).elements())
    random.Random(7).shuffle(rest)
    data = Deal.new(rules, dealer=3, seed=0).to_dict()
    data["hands"] = ["".join(hand)] + ["".join(rest[i * 15 : i * 15 + 15]) for i in range(3)]
    data["stock"] = "".join(rest[45:])
    data["pile"] = "".join(pile)
    data["red"] = ["", ""]
    data["melds"] = [[[key, "".join(cards)] for key, cards in melds.items()], []]
    data["opened"] = [True, False]
    data["turn"], data["phase"] = 0, phase
    data["drew"] = "stock" if phase == "play" else None
    return Deal.from_dict(data)


def club_choice(deal: Deal) -> dict[str, Any]:
    seat = deal.turn
    return samba_club_action(deal, seat, notes_on_table(deal, seat), legal_actions(deal, seat))


def test_the_samba_club_extends_its_sequence_before_anything_else() -> None:
    # R-SAMBA-SEQ: the side's sequence 5H-7H grows with the hand's 8H 9H (toward a samba)
    deal = club_table(
        ["8H", "9H", "KS", "KD", "KC", "4C", "QD", "JS"],
        {"H0": ["5H", "6H", "7H"], "A1": ["AS", "AD", "AC"]},
        phase="play",
        pile=["6C"],
    )
    assert club_choice(deal) == {"type": "meld", "melds": [{"meld": 0, "cards": ["8H", "9H"]}]}


def test_the_samba_club_takes_the_top_card_onto_its_sequence() -> None:
    # R-SAMBA-PILE (b): the top card 8H extends the side's 5H-7H, so the pile is taken with it
    deal = club_table(
        ["KS", "QD", "JS", "4C", "9D", "TC"],
        {"H0": ["5H", "6H", "7H"]},
        phase="draw",
        pile=["5C", "8H"],
    )
    assert club_choice(deal) == {"type": "take_pile", "cards": [], "meld": 0}


def test_the_samba_club_does_not_break_a_run_of_its_hand_for_a_group() -> None:
    # R-SAMBA-GROUP/SEQ: 7S stands in the hand's run 6S-7S-8S: no group of sevens takes it
    deal = club_table(
        ["6S", "7S", "8S", "7D", "7C", "KH", "QD", "4C", "9D", "JC"],
        {"A0": ["AS", "AD", "AC"]},
        phase="play",
        pile=["5C"],
    )
    choice = club_choice(deal)
    taken = [card for entry in choice.get("melds", []) for card in entry["cards"]]
    assert not ({"7D", "7C"} <= set(taken) and "7S" in taken)
    if choice["type"] == "discard":
        assert choice["card"] not in ("6S", "7S", "8S")
