"""An example client written from the OpenAPI schema alone: four players play one deal.

It signs up four players, opens an async single-deal table, seats them and plays the deal to its
end, each move chosen from the `legal_actions` the server offers. Then it reads the move log,
the notifications, leaves afterwords and files a report, printing what it saw.

    .venv/bin/python bench/stranger_client.py [--api http://127.0.0.1:8000/api]

Needs a running club (`make run`); every run signs up four new players.
"""

import argparse
import json
import secrets
import time
import uuid
from typing import Any

import requests

Action = dict[str, Any]

# Card values (RULES.md R-CARD-2), used only to pick cheap discards.
VALUES = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "T": 10, "9": 10, "8": 10}
WILD_RANKS = {"2", "JK"}
RETRIES = 4
MELDS_PER_TURN = 6


class ApiError(Exception):
    """A non-2xx answer: the `{"code", "detail"}` body with the HTTP status."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status = status
        self.code = body.get("code", "")
        self.body = body


class Player:
    """One signed-up player with a token session."""

    def __init__(self, api: str, username: str, password: str, display_name: str) -> None:
        self.api = api
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = "en"
        registered = self.call(
            "POST",
            "/auth/register/",
            {
                "username": username,
                "password": password,
                "email": f"{username}@example.com",
                "display_name": display_name,
            },
        )
        self.id: int = registered["user"]["id"]
        self.name: str = display_name
        self.session.headers["Authorization"] = f"Token {registered['token']}"

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        response = self.session.request(
            method, self.api + path, json=body, headers=headers, timeout=30
        )
        if response.status_code == 204:
            return None
        payload = response.json()
        if not response.ok:
            raise ApiError(response.status_code, payload)
        return payload

    def game(self, game_id: int) -> dict[str, Any]:
        return self.call("GET", f"/games/{game_id}/")

    def move(self, game_id: int, version: int, action: Action) -> dict[str, Any]:
        """One move, retried on a server error or a lost connection with the same
        Idempotency-Key, so a retry of a move that did get through is answered, not replayed."""
        key = str(uuid.uuid4())
        for attempt in range(1, RETRIES + 1):
            try:
                return self.call(
                    "POST",
                    f"/games/{game_id}/moves/",
                    {"version": version, "action": action},
                    headers={"Idempotency-Key": key},
                )
            except (ApiError, requests.ConnectionError) as error:
                retryable = not isinstance(error, ApiError) or error.status >= 500
                if not retryable or attempt == RETRIES:
                    raise
                print(f"  {self.name}: {error}; retrying the same move (key {key})")
                time.sleep(0.5 * attempt)
        raise AssertionError("unreachable")


def card_rank(card: str) -> str:
    return "JK" if card == "JK" else card[0]


def cards_in(action: Action) -> int:
    melds = action.get("melds") or []
    return len(action.get("cards") or []) + sum(len(meld["cards"]) for meld in melds)


def discard_cost(card: str, deal: dict[str, Any], team: int) -> tuple[int, int]:
    """Cheap, useless cards first: black threes, then low naturals we do not meld; wilds last."""
    rank = card_rank(card)
    if card in ("3S", "3C"):
        return (0, 0)
    if rank in WILD_RANKS:
        return (3, VALUES[rank])
    our_ranks = {meld["rank"] for meld in deal["teams"][team]["melds"]}
    pairs = sum(1 for held in deal["hand"] if card_rank(held) == rank)
    return (2 if rank in our_ranks or pairs >= 2 else 1, VALUES.get(rank, 5))


def choose(game: dict[str, Any], may_meld: bool) -> Action:
    """A simple player: take the pile or meld when offered, else draw; discard the cheapest card.

    `legal_actions` also offers melds below the opening minimum (R-OPEN-2: several melds may
    reach it together); when none follows, only undo is left, and the turn ends with a discard.
    """
    legal: list[Action] = game["legal_actions"]
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "take_pile" in by_type:
        return max(by_type["take_pile"], key=cards_in)
    if "draw" in by_type:
        return by_type["draw"][0]
    if "meld" in by_type and may_meld:
        return max(by_type["meld"], key=cards_in)
    if "discard" in by_type:
        deal = game["deal"]
        # The game says which partnership each seat plays for.
        team = next(player["team"] for player in game["players"] if player["seat"] == deal["seat"])
        return min(by_type["discard"], key=lambda action: discard_cost(action["card"], deal, team))
    if "undo" in by_type:
        return by_type["undo"][0]
    raise RuntimeError(f"nothing to play: {legal}")


def play_deal(players: list[Player], game_id: int) -> dict[str, Any]:
    """Each turn: the player to move reads the game and sends one action at a time."""
    by_seat = {player_seat(players[0].game(game_id), p.id): p for p in players}
    melds_this_turn = 0
    moves = 0
    while True:
        game = players[0].game(game_id)
        if game["status"] != "active":
            print(f"deal over after {moves} moves, status {game['status']}")
            return game
        mover = by_seat[game["turn_seat"]]
        game = mover.game(game_id)
        if not game["your_turn"]:  # the turn passed meanwhile (e.g. a timeout autoplay)
            continue
        action = choose(game, may_meld=melds_this_turn < MELDS_PER_TURN)
        try:
            result = mover.move(game_id, game["version"], action)
        except ApiError as error:
            if error.code == "stale_version":
                continue
            if error.status == 400 and action["type"] == "meld":
                melds_this_turn = MELDS_PER_TURN  # this meld does not fit: discard this turn
                continue
            raise
        moves += 1
        if action["type"] == "meld":
            melds_this_turn += 1
        elif action["type"] == "undo":
            melds_this_turn = MELDS_PER_TURN  # undo is once a turn (R-UNDO-2): no more melds
        if action["type"] == "discard" or result["game"]["turn_seat"] != game["turn_seat"]:
            melds_this_turn = 0  # the turn is over


def player_seat(game: dict[str, Any], user_id: int) -> int:
    return next(p["seat"] for p in game["players"] if p["user"]["id"] == user_id)


def read_move_log(player: Player, game_id: int) -> list[dict[str, Any]]:
    """The whole log, page by page (`after` = the last seq seen, while `has_more`)."""
    moves: list[dict[str, Any]] = []
    after = 0
    while True:
        page = player.call("GET", f"/games/{game_id}/moves/?after={after}")
        moves.extend(page["moves"])
        if not page["has_more"] or not page["moves"]:
            return moves
        after = page["moves"][-1]["seq"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", default="http://127.0.0.1:8000/api")
    args = parser.parse_args()

    suffix = secrets.token_hex(3)
    names = ("anna", "boris", "vera", "gleb")
    password = secrets.token_urlsafe(12)
    players = [Player(args.api, f"{name}_{suffix}", password, name.title()) for name in names]

    table = players[0].call("POST", "/games/", {"mode": "async", "length": "deal", "rules": {}})
    game_id = table["id"]
    for seat, player in enumerate(players[1:], start=1):
        table = player.call("POST", f"/games/{game_id}/join/", {"seat": seat})
    print(f"game {game_id}: {table['status']}, seat {table['turn_seat']} moves first")

    final = play_deal(players, game_id)
    for deal in final["deals"]:
        print(f"deal {deal['number']}: " + json.dumps(deal["result"]))
    print(f"scores {final['scores']}, winner team {final['winner_team']}")

    log = read_move_log(players[0], game_id)
    automatic = sum(1 for move in log if move["automatic"])
    print(f"move log: {len(log)} moves ({automatic} automatic); last: {json.dumps(log[-1])}")

    for player in players:
        notes = player.call("GET", "/notifications/")
        kinds = sorted({note["kind"] for note in notes["results"]})
        print(f"{player.name}: {notes['count']} notifications {kinds}")
        player.call("POST", "/notifications/read/", {"all": True})

    phrases = players[0].call("GET", "/afterwords/phrases/")
    players[0].call(
        "POST", f"/games/{game_id}/afterwords/", {"to": "partner", "text": phrases[0]["text"]}
    )
    players[2].call("POST", f"/games/{game_id}/afterwords/", {"to": "table", "text": "Good game!"})
    afterwords = players[1].call("GET", f"/games/{game_id}/afterwords/")
    print(f"afterwords seen by {players[1].name}: {[a['text'] for a in afterwords]}")
    print(f"{players[2].name}'s authority: {players[2].call('GET', '/me/')['authority']}")

    receipt = players[1].call(
        "POST",
        "/reports/",
        {"game": game_id, "accused": players[2].id, "reason": "other", "text": "Example report."},
    )
    print(f"report {receipt['id']}: {receipt.get('status')}")
    print(f"reports filed: {players[1].call('GET', '/reports/mine/')['count']}")


if __name__ == "__main__":
    main()
