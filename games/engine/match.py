"""A match: deals in a row with the running score, dealer rotation and the end (R-GAME-1/2), for
every table: one score per team, the deal passing round the table."""

import hashlib
from typing import Any

from .deal import Deal, Event
from .rules import Rules

FORMAT_VERSION = 1


def deal_seed(match_seed: int, number: int) -> int:
    """The seed of deal `number`, derived from the match seed.

    128 bits, like the club's match seeds: a player who knows their hand and the upcard cannot
    search the seeds offline. (JSON clients get seeds as decimal strings, in the export only.)
    """
    digest = hashlib.sha256(f"{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


class Match:
    """Deals until the game ends; the service stores `to_dict()` and re-implements no rule."""

    __slots__ = (
        "deal",
        "deal_number",
        "first_dealer",
        "history",
        "last_deal",
        "over",
        "rules",
        "scores",
        "seed",
        "winner",
    )

    def __init__(self, rules: Rules, first_dealer: int, seed: int) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.seed = seed
        self.deal_number = 1
        self.scores: tuple[int, ...] = tuple(0 for _ in rules.seating.teams)
        self.history: list[dict[str, Any]] = []
        self.over = False
        self.winner: int | None = None
        self.last_deal: dict[str, Any] | None = None  # spectator view of the previous deal
        self.deal = self._new_deal(dealer=first_dealer)

    @classmethod
    def new(cls, rules: Rules, *, first_dealer: int, seed: int) -> "Match":
        if not isinstance(rules, Rules):
            raise ValueError("rules must be a Rules")
        seats = rules.seating.seats
        if (
            not isinstance(first_dealer, int)
            or isinstance(first_dealer, bool)
            or first_dealer not in seats
        ):
            raise ValueError(f"first_dealer must be a seat 0-{seats[-1]}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be an integer")
        return cls(rules, first_dealer, seed)

    def _new_deal(self, *, dealer: int) -> Deal:
        return Deal.new(
            self.rules,
            dealer=dealer,
            team_scores=self.scores,
            seed=deal_seed(self.seed, self.deal_number),
        )

    def apply(self, seat: int, action: Any) -> Event:
        """Applies to the current deal; when it ends, scores it, then ends the match or deals."""
        event: Event = dict(self.deal.apply(seat, action))
        event["deal_over"] = False
        deal = self.deal
        if deal.phase != "over" or deal.result is None:
            return event
        result = deal.result
        self.scores = tuple(
            score + line["total"] for score, line in zip(self.scores, result, strict=True)
        )
        self.history.append(
            {
                "number": self.deal_number,
                "dealer": deal.dealer,
                "seed": deal_seed(self.seed, self.deal_number),
                "result": [dict(line) for line in result],
                "scores_after": list(self.scores),
            }
        )
        event["deal_over"] = True
        event["result"] = [dict(line) for line in result]
        if self._game_over():
            self.over = True
            self.winner = self._leader()
        else:
            self.last_deal = deal.view(None)
            self.deal_number += 1
            # R-DEAL-1: the deal passes to the left.
            self.deal = self._new_deal(dealer=self.rules.seating.next_seat(deal.dealer))
        return event

    def _game_over(self) -> bool:
        """R-GAME-1/2, R-GAME-DEALS: a team reached the target (or the single deal, or the fixed
        number of deals, is played); a tie plays on only with tie="extra_deal"."""
        target = self.rules.target
        if target is not None and max(self.scores) < target:
            return False
        if target is None and self.deal_number < (self.rules.deals or 1):
            return False
        return self._leader() is not None or self.rules.tie == "draw"

    def _leader(self) -> int | None:
        """The team with the highest total; None when it is shared."""
        leaders = self._leaders()
        return leaders[0] if len(leaders) == 1 else None

    def _leaders(self) -> tuple[int, ...]:
        best = max(self.scores)
        return tuple(team for team, score in enumerate(self.scores) if score == best)

    @property
    def winners(self) -> tuple[int, ...]:
        """Once the match is over, the teams with the highest total: one (`winner`), or those
        that share it in a draw (`winner` None; at a table of three teams the third loses);
        empty while it goes on."""
        return self._leaders() if self.over else ()

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "deal": self.deal.view(seat),
            "deal_number": self.deal_number,
            "scores": list(self.scores),
            "history": [
                {key: entry[key] for key in ("number", "dealer", "result", "scores_after")}
                for entry in self.history
            ],
            "over": self.over,
            "winner": self.winner,
            "last_deal": self.last_deal,
        }

    # Finished deals' entries and `last_deal` are never changed once recorded, so the dict and
    # the match share them: a move costs the same at deal 1 and deal 20.
    def to_dict(self) -> dict[str, Any]:
        return {
            "v": FORMAT_VERSION,
            "rules": self.rules.to_options(),
            "first_dealer": self.first_dealer,
            "seed": self.seed,
            "deal_number": self.deal_number,
            "scores": list(self.scores),
            "history": list(self.history),
            "over": self.over,
            "winner": self.winner,
            "last_deal": self.last_deal,
            "deal": self.deal.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Match":
        if not isinstance(data, dict) or data.get("v") != FORMAT_VERSION:
            raise ValueError("not a match state of this engine version")
        match = cls.__new__(cls)
        match.rules = Rules.from_options(data["rules"])
        match.first_dealer = data["first_dealer"]
        match.seed = data["seed"]
        match.deal_number = data["deal_number"]
        match.scores = tuple(data["scores"])
        match.history = list(data["history"])
        match.over = data["over"]
        match.winner = data["winner"]
        match.last_deal = data["last_deal"]
        match.deal = Deal.from_dict(data["deal"])
        return match
