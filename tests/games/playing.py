"""Playing a game on in tests: a short-game policy and a loop through the move service."""

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from games import selectors, services
from games.models import Game

# The house actions first: tests of the house rules want them played whenever they may be.
PREFERRED = ("lay_down", "answer_go_out", "ask_to_go_out", "take_pile", "meld")


class _FixedShuffles:
    """`secrets` as the game's start uses it (games.services.turns), with the shuffle and first
    dealer fixed."""

    @staticmethod
    def randbits(bits: int) -> int:
        return 20261201

    @staticmethod
    def choice(seats: Sequence[int]) -> int:
        return seats[0]


def fix_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same shuffle and first dealer on every run, so a whole game's path is repeatable
    (only in the games' services: sessions and tokens keep their randomness)."""
    monkeypatch.setattr("games.services.turns.secrets", _FixedShuffles)


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """House actions when offered (a yes to every question), then take the pile, meld the most
    cards, draw, discard."""

    def size(action: dict[str, Any]) -> int:
        cards = len(action.get("cards", []))
        return cards + sum(len(meld["cards"]) for meld in action.get("melds", []))

    for kind in PREFERRED:
        options = [action for action in legal if action["type"] == kind]
        if options:
            return max(options, key=lambda action: (action.get("yes", False), size(action)))
    for kind in ("draw", "discard", "undo", "pass"):
        options = [action for action in legal if action["type"] == kind]
        if options:
            return options[0]
    raise AssertionError(f"nothing to play in {legal}")


def play_until(
    game: Game, players: list[User], stop: Callable[[dict[str, Any]], bool], limit: int = 3000
) -> dict[str, Any]:
    """Moves by the seat the game waits for, through the move service, until `stop(detail)`
    holds for that seat's view of the game (its detail, as the API shows it; the first seat's
    once the game is over); returns it."""
    for _ in range(limit):
        table = selectors.game_with_seats(game_id=game.pk)
        assert table is not None
        turn = table.game.turn_seat
        detail: dict[str, Any] = dict(selectors.game_detail(table=table, viewer=players[turn or 0]))
        if stop(detail):
            return detail
        assert turn is not None, "the game ended first"
        services.make_move(
            game_id=game.pk,
            user=players[turn],
            version=detail["version"],
            action=choose(detail["legal_actions"]),
        )
    raise AssertionError("the game never got there")


def asking(detail: dict[str, Any]) -> bool:
    """The seat on turn may ask «можно выходить?»."""
    return any(action["type"] == "ask_to_go_out" for action in detail["legal_actions"])
