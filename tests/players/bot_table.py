"""A deal played by bots as the service plays it: each seat's log kept beside the deal."""

import json
from typing import Any

from games.engine import Deal
from games.players import log_entry, play_turn


class Table:
    """A deal with each seat's log; bots play whoever the deal waits for (`to_act`)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.logs: list[list[dict[str, Any]]] = [[] for _ in deal.seating.seats]

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        event = self.deal.apply(seat, action)
        for viewer in self.deal.seating.seats:
            self.logs[viewer].append(log_entry(seat, action, event, viewer=viewer))

    def bot_turn(self, level: str, seed: int) -> list[dict[str, Any]]:
        seat = self.deal.to_act
        before = json.dumps(self.deal.to_dict())
        actions = play_turn(self.deal, seat, level=level, log=self.logs[seat], seed=seed)
        assert json.dumps(self.deal.to_dict()) == before, "play_turn changed the deal"
        assert actions, "the bot did nothing"
        for action in actions:
            self.apply(seat, action)  # raises IllegalMove if the bot played an illegal move
        assert self.deal.phase == "over" or self.deal.to_act != seat, "the turn did not end"
        return actions

    def bot_turns(self, level: str, *, seed: int, turns: int) -> None:
        """Up to `turns` bot turns of `level` (seeds `seed`, `seed + 1`, ...), ending early
        with the deal."""
        for turn in range(turns):
            if self.deal.phase == "over":
                break
            self.bot_turn(level, seed=seed + turn)
