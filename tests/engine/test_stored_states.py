"""CONTRACT §2's exact round trip, for states the engine stored before the games became variants
(cda185f): the club keeps `Match.to_dict()` in its database, so every such game loads, shows
and plays on as it did."""

import json
from pathlib import Path

import pytest

from games.engine import Match, legal_actions

# Mid-deal matches stored by the engine at cda185f: the classic game with two house rules,
# Samba and Bolivia; with the seat to act's view and legal actions as that engine gave them.
STORED = json.loads((Path(__file__).parent / "stored_states.json").read_text())


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_stored_match_loads_round_trips_and_plays_on_as_it_did(name: str) -> None:
    stored = STORED[name]
    match = Match.from_dict(stored["state"])
    assert match.to_dict() == stored["state"]
    seat = stored["to_act"]
    assert match.deal.to_act == seat
    assert match.deal.view(seat) == stored["view"]
    assert legal_actions(match.deal, seat) == stored["legal"]
