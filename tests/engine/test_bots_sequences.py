"""The existing bots at the Samba and Bolivia tables (issue 24): the sight rebuilt from a view and
a log with index-addressed melds, and no stuck or illegal turn at any level."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Rules
from tests.engine.test_bots import _random_state, check_the_sight_through_a_deal

GAMES = [Rules(game="samba"), Rules(game="bolivia")]


@pytest.mark.parametrize("rules", GAMES, ids=lambda rules: rules.game)
def test_the_sight_at_samba_and_bolivia_is_what_the_seat_knows(rules: Rules) -> None:
    # R-SAMBA-ENTRY: the rebuilt deal names every meld by the index the real one does
    for number in range(2):
        check_the_sight_through_a_deal(rules, number)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    rules=st.sampled_from(GAMES),
    steps=st.integers(0, 150),
    level=st.sampled_from(["beginner", "club"]),
)
def test_bots_at_samba_and_bolivia_never_get_stuck_and_finish_every_turn_legally(
    seed: int, rules: Rules, steps: int, level: str
) -> None:
    table = _random_state(seed, rules, steps, (0, 0))
    for turn in range(400):
        if table.deal.phase == "over":
            break
        table.bot_turn(level, seed=seed + turn)
    assert table.deal.phase == "over"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(GAMES), steps=st.integers(0, 150))
def test_the_expert_at_samba_and_bolivia_finishes_turns_legally(
    seed: int, rules: Rules, steps: int
) -> None:
    table = _random_state(seed, rules, steps, (0, 0))
    for turn in range(4):
        if table.deal.phase == "over":
            break
        table.bot_turn("expert", seed=seed + turn)
