"""The expert level (issue 20) on constructed positions: its search keeps the club's sound
choices (the big pile taken, no feeding of the opponents' melds), the standing that judges a
world cut short counts what each side holds and builds, and the rollouts' seats remember what
the table saw."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import Deal
from games.players import expert, levels
from games.players.club import Memory, notes_on_table
from games.players.expert import EXPERT_CANDIDATES, standing
from tests.players.bot_table import Table
from tests.players.test_club_strategy import _state


def test_the_expert_takes_a_large_pile_with_a_natural_pair() -> None:
    pile = ["6S", "7D", "TH", "8C", "5D", "4H", "9C", "QH"]
    hand = ["QS", "QD", "JH", "JD", "8H", "7C", "6C", "5S", "4S"]
    for seed in (1, 2):
        actions = Table(_state(hand, pile, ours={"A": ["AS", "AH", "AD"]})).bot_turn(
            "expert", seed=seed
        )
        assert actions[0]["type"] == "take_pile", actions


def test_the_expert_stops_dealing_worlds_once_its_rollout_moves_are_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its time is bounded by the moves its rollouts play, whatever the decision: a budget this
    # big decision reaches (with the level's own it spends about 1,800).
    budget = 300
    decisions: list[list[int]] = []  # the moves of each play-out, decision by decision
    decide, play_out = expert.expert_action, expert._play_out

    def deciding(*args: Any) -> Any:
        decisions.append([])
        return decide(*args)

    def counted(*args: Any) -> tuple[float, int]:
        outcome, moves = play_out(*args)
        decisions[-1].append(moves)
        return outcome, moves

    monkeypatch.setattr(levels, "expert_action", deciding)
    monkeypatch.setattr(expert, "_play_out", counted)
    monkeypatch.setattr(expert, "EXPERT_MOVES", budget)
    pile = ["6S", "7D", "TH", "8C", "5D", "4H", "9C", "QH"]
    hand = ["QS", "QD", "JH", "JD", "8H", "7C", "6C", "5S", "4S"]
    Table(_state(hand, pile, ours={"A": ["AS", "AH", "AD"]})).bot_turn("expert", seed=1)
    taking = decisions[0]  # the pile: a big decision
    one_world = EXPERT_CANDIDATES * max(taking)
    assert sum(taking) - one_world < budget  # it stopped at the first world past the budget
    assert sum(taking) > budget  # it still compared the candidates over a few worlds
    assert len(taking) >= 2 * EXPERT_CANDIDATES


def test_the_expert_does_not_discard_into_an_open_pile_a_rank_the_opponents_meld() -> None:
    theirs = {"9": ["9H", "9D", "9C"], "K": ["KH", "KD", "KC", "KS"]}
    pile = ["6S", "7D", "TH", "8C", "5D", "4H"]
    hand = ["9S", "KS", "JH", "JD", "8H", "8D", "7C", "7S", "3S"]
    deal = _state(hand, pile, ours={"A": ["AS", "AH", "AD"]}, theirs=theirs, draw="4C")
    for seed in (1, 2):
        actions = Table(Deal.from_dict(deal.to_dict())).bot_turn("expert", seed=seed)
        assert actions[-1]["type"] == "discard" and actions[-1]["card"][0] not in "9K", actions


def _with(deal: Deal, **changes: object) -> Deal:
    state = deal.to_dict()
    state.update(changes)
    return Deal.from_dict(state)


def test_held_cards_are_material_while_the_deal_goes_on_and_count_against_at_its_end() -> None:
    deal = _state(["QS", "QD", "JH", "7C", "5S"], ["4D"], ours={"A": ["AS", "AH", "AD"]})
    more = _with(deal, hands=["QSQDJH7C5SKSKH", *deal.to_dict()["hands"][1:]])
    assert standing(more, 0) > standing(deal, 0)  # a long stock, full hands across the table
    short = deal.to_dict()["stock"][:8]  # four cards: the deal is about to end
    ending, ending_more = _with(deal, stock=short), _with(more, stock=short)
    assert standing(ending_more, 0) < standing(ending, 0)


def test_a_meld_nearer_its_canasta_stands_higher_beyond_its_cards() -> None:
    four = _state(["5S", "7C"], ["4D"], ours={"A": ["AS", "AH", "AD", "AC"]})
    six = _state(["5S", "7C"], ["4D"], ours={"A": ["AS", "AH", "AD", "AC", "AS", "AH"]})
    assert standing(six, 0) - standing(four, 0) > 2 * 20  # more than the two aces' points


def test_the_seats_of_a_rollout_remember_what_the_table_saw_taken_while_it_is_still_held() -> None:
    # The expert's rollouts play every seat on with the club policy: each remembers the cards
    # another seat took with the pile (public) as long as that seat still holds them.
    deal = _state(["QS", "QD", "JH", "7C", "5S"], ["4D"], ours={"A": ["AS", "AH", "AD"]})
    held = next(card[0] for card in deal.hands[1] if card[0] in "456789TJQK")
    gone = next(rank for rank in "456789TJQK" if all(card[0] != rank for card in deal.hands[1]))
    no_one = [Counter[str]() for _ in range(4)]
    memory = Memory(discarded=no_one, passed=no_one, taken={1: Counter({held: 1, gone: 1})})
    plain, remembering = notes_on_table(deal, 0, None), notes_on_table(deal, 0, memory)
    assert remembering.known == {1: Counter({held: 1})}  # `gone` was melded or thrown since
    assert remembering.unseen[held] == plain.unseen[held] - 1
    assert remembering.hidden == plain.hidden - 1
    assert notes_on_table(deal, 1, memory).known == {}  # a seat knows its own hand
