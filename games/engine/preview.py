"""What an action would do, before it is sent ("what would this do" on the table page).

Judged by the engine itself: the action is applied to a copy of the deal (`Deal.from_dict(
deal.to_dict())`), so the answer is exactly what `apply` would do, and nothing here restates a
rule. Uses only Deal's public API (CONTRACT.md §2).
"""

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
    code: str | None = None  # IllegalMove.code when not legal
    reason_ru: str = ""
    reason_en: str = ""
    melds: tuple[MeldChange, ...] = ()
    # The team's opening: card points melded toward the minimum this turn, and whether the
    # team is open afterwards (when it was open before, `points` is not counted: minimum 0).
    opened: bool = False
    points: int = 0
    minimum: int = 0
    deal_over: bool = False

    def reason(self, lang: str) -> str:
        return self.reason_en if lang.startswith("en") else self.reason_ru


def preview(deal: Deal, seat: int, action: Any) -> Preview:
    """The outcome of `seat` playing `action` now; `deal` is untouched."""
    copy = Deal.from_dict(deal.to_dict())
    try:
        copy.apply(seat, action)
    except IllegalMove as exc:
        return Preview(legal=False, code=exc.code, reason_ru=exc.ru, reason_en=exc.en)
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
