"""Rules: the club's rules (RULES.md) with the seed variants as options."""

from dataclasses import asdict, dataclass, fields
from typing import Any

_CHOICES: dict[str, tuple[object, ...]] = {
    "wild_limit": ("strict", "half"),
    "stock_out": ("club", "classic"),
    "tie": ("draw", "extra_deal"),
}
_FLAGS = ("upcard_stops_on_black_three", "concealed_out_skips_minimum")


@dataclass(frozen=True)
class Rules:
    """Defaults are the club rules; every option is a variant from the seeds (RULES.md)."""

    wild_limit: str = "strict"  # R-MELD-2; "half": wilds may equal naturals
    upcard_stops_on_black_three: bool = False  # R-DEAL-3
    concealed_out_skips_minimum: bool = False  # R-OPEN-5
    stock_out: str = "club"  # R-END-2; "classic": play on while the pile is taken
    tie: str = "draw"  # R-GAME-1; "extra_deal": equal totals play another deal
    target: int | None = 5000  # R-GAME-1/2; None: a single deal

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed or not isinstance(value, str):
                raise ValueError(
                    f"{name} must be one of {', '.join(map(str, allowed))}, not {value!r}"
                )
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        target = self.target
        if target is not None and (
            not isinstance(target, int) or isinstance(target, bool) or target <= 0
        ):
            raise ValueError(f"target must be a positive number of points or null, not {target!r}")

    @classmethod
    def from_options(cls, options: Any) -> "Rules":
        """Validates a JSON dict of options; unknown keys and bad values raise ValueError."""
        if not isinstance(options, dict):
            raise ValueError("rules options must be an object")
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(key) for key in options if key not in known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(**options)

    def to_options(self) -> dict[str, Any]:
        return asdict(self)

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
