"""What an action would do, before it is sent ("what would this do" on the table page).

Judged by the engine itself: the action is applied to a copy of the deal (`Deal.from_dict(
deal.to_dict())`), so the answer is exactly what `apply` would do, and nothing here restates a
rule. Uses only Deal's public API (CONTRACT.md §2).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .deal import Deal
from .errors import IllegalMove


@dataclass(frozen=True)
class MeldChange:
    rank: str | None  # None for a sequence (Samba, Bolivia)
    new: bool  # the action starts this meld (else the cards join the team's meld `index`)
    count: int  # cards in the meld afterwards (a canasta is seven)
    canasta: str | None  # "natural" | "mixed" | None (Samba: "samba", ...), afterwards
    index: int = 0  # the meld's place in the team's `melds` of the view
    kind: str = "group"  # "group" | "sequence"
    suit: str | None = None  # a sequence's suit


@dataclass(frozen=True)
class Preview:
    legal: bool
    refusal: IllegalMove | None = None  # why not, when not legal
    melds: tuple[MeldChange, ...] = ()
    # The team's opening: card points melded toward the minimum this turn, and whether the
    # team is open afterwards (when it was open before, `points` is not counted: minimum 0).
    opened: bool = False
    points: int = 0
    minimum: int = 0
    deal_over: bool = False

    @property
    def code(self) -> str | None:
        return self.refusal.code if self.refusal else None

    @property
    def rule(self) -> str:
        """The rule id the refusal enforces ("" when legal)."""
        return self.refusal.rule if self.refusal else ""


def preview(deal: Deal, seat: int, action: Any) -> Preview:
    """The outcome of `seat` playing `action` now; `deal` is untouched."""
    copy = Deal.from_dict(deal.to_dict())
    try:
        copy.apply(seat, action)
    except IllegalMove as exc:
        return Preview(legal=False, refusal=exc)
    team = deal.seating.team_of(seat)
    before_team = deal.view(seat)["teams"][team]
    # A team's melds keep their places; new ones come after them (CONTRACT §2 "meld": i).
    before = before_team["melds"]
    after_view = copy.view(seat)
    after = after_view["teams"][team]
    changes = tuple(
        MeldChange(
            rank=meld["rank"],
            new=index >= len(before),
            count=len(meld["cards"]),
            canasta=meld["canasta"],
            index=index,
            kind=meld.get("kind", "group"),
            suit=meld.get("suit"),
        )
        for index, meld in enumerate(after["melds"])
        if index >= len(before) or len(meld["cards"]) != len(before[index]["cards"])
    )
    return Preview(
        legal=True,
        melds=changes,
        opened=after["opened"],
        points=0 if before_team["opened"] else copy.to_dict()["points"],
        minimum=0 if before_team["opened"] else after["minimum"],
        deal_over=after_view["phase"] == "over",
    )


# The table's five moves, each judged without a selection in its plainest form (`refusals`).
MOVES = ("draw", "take_pile", "meld", "undo", "discard")
# Refusals that hold whatever cards a move names: the move cannot be made now at all.
_NOT_NOW = frozenset(("not_your_turn", "wrong_phase", "deal_over", "awaiting_partner"))


def _plainest(deal: Deal, seat: int, kind: str) -> dict[str, Any]:
    hand = deal.hand(seat)
    if kind == "take_pile":
        # With the hand's natural pair of the top card's rank, when it holds one: the take the
        # rules most often allow, so its refusal is the pile's own reason (frozen, blocked…).
        top = deal.pile[-1] if deal.pile else None
        pair = [card for card in hand if top is not None and card[0] == top[0]][:2]
        return {"type": "take_pile", "cards": pair if len(pair) == 2 else []}
    if kind == "meld":
        return {"type": "meld", "melds": [{"cards": hand[:1] or ["JK"]}]}
    if kind == "discard":
        return {"type": "discard", "card": hand[0] if hand else "JK"}
    return {"type": kind}


def refusals(deal: Deal, seat: int, kinds: Iterable[str] = MOVES) -> dict[str, IllegalMove]:
    """Why `seat` cannot make each of the moves `kinds` (of the table's five) now, in the
    engine's refusal: the IllegalMove of the move in its plainest form. A meld depends on the
    cards chosen, so it is named only when no cards would do (not this seat's turn, the wrong
    phase); so is a discard, unless every card is refused alike (below the opening minimum, a
    card must stay…)."""
    found: dict[str, IllegalMove] = {}
    for kind in kinds:
        try:
            deal.check(seat, _plainest(deal, seat, kind))
        except IllegalMove as exc:
            if kind == "meld" and exc.code not in _NOT_NOW:
                continue
            found[kind] = exc
    return found


@dataclass(frozen=True)
class Opening:
    """The turn's melds toward the team's opening minimum (R-OPEN-2), while below it."""

    points: int
    minimum: int


def opening_progress(deal: Deal, seat: int) -> Opening | None:
    """The points `seat` has melded this turn toward the minimum while its team has melded
    something but not yet enough to open; None otherwise."""
    team = deal.seating.team_of(seat)
    if deal.phase != "play" or deal.turn != seat or deal.opened[team] or not deal.base:
        return None
    return Opening(points=deal.points, minimum=deal.minimums[team])


@dataclass(frozen=True)
class Selection:
    """What the cards a player selected would do with each move that takes cards."""

    moves: dict[str, Preview]  # "take_pile" | "meld" | "discard" -> the engine's preview
    targets: tuple[str, ...] = ()  # ranks of the team's melds the one selected card may join


def preview_selection(
    deal: Deal, seat: int, cards: list[str], groups: list[list[str]]
) -> Selection:
    """The selected `cards` (and, for a pile take, the `groups` set aside as further melds)
    judged as the moves the table's buttons would send: in the draw phase a take of the pile,
    in the play phase a meld and, for one card, a discard and the melds it may join."""
    moves: dict[str, Preview] = {}
    targets: tuple[str, ...] = ()
    if deal.phase == "draw":
        take: dict[str, Any] = {"type": "take_pile", "cards": cards}
        if groups:
            take["melds"] = [{"cards": group} for group in groups]
        moves["take_pile"] = preview(deal, seat, take)
    elif cards:
        moves["meld"] = preview(deal, seat, {"type": "meld", "melds": [{"cards": cards}]})
        if len(cards) == 1:
            moves["discard"] = preview(deal, seat, {"type": "discard", "card": cards[0]})
            team = deal.seating.team_of(seat)
            targets = tuple(
                meld["rank"]
                for meld in deal.view(seat)["teams"][team]["melds"]
                if deal.is_legal(
                    seat, {"type": "meld", "melds": [{"rank": meld["rank"], "cards": cards}]}
                )
            )
    return Selection(moves=moves, targets=targets)
