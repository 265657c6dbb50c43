"""A finished game's replay frame laid out for the page (games.selectors.replay_at)."""

from typing import Any

from club.i18n import quantity, text
from games import selectors as game_selectors
from games.store import Table
from web.shared import player_name


def _action_name(action: dict[str, Any]) -> str:
    return {
        "draw": text("берёт из колоды", "draws from the stock"),
        "take_pile": text("берёт стопку", "takes the pile"),
        "meld": text("выкладывает", "melds"),
        "undo": text("возвращает как было", "undoes the turn"),
        "discard": text("сбрасывает", "discards"),
        "ask_to_go_out": text("спрашивает партнёра: можно выходить?", "asks: may I go out?"),
        "answer_go_out": text("отвечает: да", "answers: yes")
        if action.get("yes")
        else text("отвечает: нет", "answers: no"),
        "lay_down": text("выкладывает все карты", "lays down every card"),
        "pass": text("не выкладывается", "passes"),
    }.get(str(action.get("type")), str(action.get("type")))


def _cards_of(action: dict[str, Any]) -> list[str]:
    """The cards a move shows: the discard, or every card laid down or taken with the pile."""
    if action.get("type") == "discard":
        return [action["card"]]
    cards = list(action.get("cards", []))
    for meld in action.get("melds", []):
        cards.extend(meld["cards"])
    return cards


def replay_page(*, table: Table, step: int) -> dict[str, Any]:
    """A replay frame laid out for the page: each seat with its player and whole hand, and the
    teams named by their players as the table names them."""
    frame = game_selectors.replay_at(table=table, step=step)
    players = {player["seat"]: player for player in frame["players"]}
    teams = {player["seat"]: player["team"] for player in frame["players"]}
    team_names = [
        ", ".join(
            player_name(player) for seat, player in sorted(players.items()) if teams[seat] == team
        )
        for team in range(len(frame["table"]["teams"]))
    ]
    move = frame["move"]
    return {
        **frame,
        "seats": [
            {
                "seat": seat,
                "player": players.get(seat),
                "team": teams.get(seat),
                # Named only where the team is more than this player.
                "team_name": team_names[teams[seat]]
                if list(teams.values()).count(teams.get(seat)) > 1
                else "",
                "hand": hand,
                "turn": seat == frame["table"]["turn"],
            }
            for seat, hand in enumerate(frame["hands"])
        ],
        "team_names": team_names,
        "team_players": [
            [player for seat, player in sorted(players.items()) if teams[seat] == team]
            for team in range(len(team_names))
        ],
        "move_player": players.get(move["seat"]) if move else None,
        "move_text": _action_name(move["action"]) if move else "",
        "move_cards": _cards_of(move["action"]) if move else [],
        "previous": max(0, frame["step"] - 1),
        "next": min(frame["total"], frame["step"] + 1),
    }


def replay_step_note(*, asked: str, shown: int, total: int) -> str:
    """What the replay shows when ?step= named no move of the game ("" when it did)."""
    try:
        number = int(asked)
    except ValueError:
        return text(
            f"«{asked}» — не номер хода: показано начало партии.",
            f"“{asked}” is not a move number: this is the start of the game.",
        )
    if number == shown:
        return ""
    if number < 0:
        return text(
            "Ходы считаются с 0: показано начало партии.",
            "Moves count from 0: this is the start of the game.",
        )
    moves = quantity(total, ("ход", "хода", "ходов"), ("move", "moves"))
    return text(
        f"Хода {number} нет, в партии {moves}: показан последний.",
        f"There is no move {number}, the game has {moves}: this is the last one.",
    )
