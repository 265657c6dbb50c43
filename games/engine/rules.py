"""Rules: the club's rules (RULES.md) with the seed variants as options."""

from dataclasses import dataclass, fields
from typing import Any

from .seating import FOUR_HANDED, Seating

_CHOICES: dict[str, tuple[object, ...]] = {
    "wild_limit": ("strict", "half"),
    "stock_out": ("club", "classic"),
    "tie": ("draw", "extra_deal"),
}
_FLAGS = ("upcard_stops_on_black_three", "concealed_out_skips_minimum")
# R-GAME-1/2: the club plays to 5000 or 2500; the bounds keep a match finite and every score
# exact in JSON clients.
TARGET_MIN = 500
TARGET_MAX = 10_000


@dataclass(frozen=True, init=False)
class Rules:
    """Defaults are the club rules; every option is a variant from the seeds (RULES.md).

    Options are keyword-only; an unknown option or a bad value raises ValueError.
    """

    wild_limit: str  # R-MELD-2; "half": wilds may equal naturals
    upcard_stops_on_black_three: bool  # R-DEAL-3
    concealed_out_skips_minimum: bool  # R-OPEN-5
    stock_out: str  # R-END-2; "classic": play on while the pile is taken
    tie: str  # R-GAME-1; "extra_deal": equal totals play another deal
    target: int | None  # R-GAME-1/2; None: a single deal

    def __init__(
        self,
        *,
        wild_limit: str = "strict",
        upcard_stops_on_black_three: bool = False,
        concealed_out_skips_minimum: bool = False,
        stock_out: str = "club",
        tie: str = "draw",
        target: int | None = 5000,
        **unknown: object,
    ) -> None:
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        values = {
            "wild_limit": wild_limit,
            "upcard_stops_on_black_three": upcard_stops_on_black_three,
            "concealed_out_skips_minimum": concealed_out_skips_minimum,
            "stock_out": stock_out,
            "tie": tie,
            "target": target,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self._validate()

    def _validate(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                choices = ", ".join(map(str, allowed))
                raise ValueError(f"{name} must be one of {choices}, not {value!r}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        target = self.target
        if target is not None and (
            not isinstance(target, int)
            or isinstance(target, bool)
            or not TARGET_MIN <= target <= TARGET_MAX
        ):
            raise ValueError(
                f"target must be a whole number of points from {TARGET_MIN} to {TARGET_MAX} "
                f"(the club plays to 5000 or 2500) or null for a single deal, not {target!r}"
            )

    @classmethod
    def from_options(cls, options: Any) -> "Rules":
        """Validates a JSON dict of options; unknown keys and bad values raise ValueError."""
        if not isinstance(options, dict):
            raise ValueError("rules options must be an object")
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(key) for key in options if key not in known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(**{str(key): value for key, value in options.items()})

    def to_options(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @property
    def seating(self) -> Seating:
        """Seats, teams and partners; every table seats four, partners opposite (R-DEAL-1)."""
        return FOUR_HANDED

    @property
    def strict_wilds(self) -> bool:
        return self.wild_limit == "strict"

    @staticmethod
    def opening_minimum(team_score: int) -> int:
        """R-OPEN-1: the minimum of a team's first meld from its total at the start of the deal."""
        if team_score < 0:
            return 15
        if team_score < 1500:
            return 50
        if team_score < 3000:
            return 90
        return 120
