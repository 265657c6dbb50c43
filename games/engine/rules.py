"""Rules: the club's rules (RULES.md) with the seed variants as options."""

from dataclasses import dataclass, fields
from functools import cache, cached_property, lru_cache
from typing import Any

from .seating import Seating
from .variant import Variant
from .variants import VARIANTS

# The games a table plays (`Rules.game`), one variant each, the club's own first.
GAMES = tuple(VARIANTS)
_CHOICES: dict[str, tuple[object, ...]] = {
    "wild_limit": ("strict", "half"),
    "stock_out": ("club", "classic"),
    "tie": ("draw", "extra_deal"),
    "game": GAMES,
    "red_threes": ("club", "going_out"),
}
_FLAGS = (
    "upcard_stops_on_black_three",
    "concealed_out_skips_minimum",
    "ask_partner_to_go_out",
    "canasta_opening_from_5000",
    "double_going_out",
    "acaba",
    "hand_of_twelve",
    "canasta_in_hand_opens",
    "minimums_7000",
)
# House rules that need a partner (seed 001); a table of individuals refuses them.
_PARTNER_RULES = ("ask_partner_to_go_out", "double_going_out")
# Issue 24's options: left out of `to_options()` at their defaults, so that the classic game's
# stored states and rules are byte for byte what they were.
_QUIET_DEFAULTS: dict[str, object] = {
    "game": "classic",
    "acaba": False,
    "hand_of_twelve": False,
    "canasta_in_hand_opens": False,
    "minimums_7000": False,
    "red_threes": "club",
    "deals": None,
}
# Tables (seed 001): players -> the partnerships they may sit in, the usual one first.
TABLE_TEAMS: dict[int, tuple[int, ...]] = {2: (2,), 3: (3,), 4: (2,), 6: (3, 2)}
# A default that depends on the table (players, teams): resolved in Rules.__init__.
_TABLE_DEFAULT: Any = object()
# R-GAME-1/2: the club plays to 5000 or 2500; the bounds keep a match finite and every score
# exact in JSON clients. Each game has its longest (`Variant.target_max`).
TARGET_MIN = 500
# The longest of every game's (Bolivia's, R-BOL-GAME): the bound of the API's and lobby's field.
TARGET_MAX_SEQUENCES = max(variant.target_max for variant in VARIANTS.values())
# R-GAME-DEALS: a game of a fixed number of deals (tournaments) plays at most this many.
DEALS_MAX = 12


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
    target: int | None  # R-GAME-1/2; None: a single deal (or `deals` deals)
    players: int  # 2, 3, 4 (the club's game) or 6 (seed 001)
    teams: int  # partnerships: 2 at four, each for themselves at 2 and 3, 3 or 2 at six
    canastas_to_go_out: int  # 1 at four; 2 at the other tables, and the four-handed house rule
    ask_partner_to_go_out: bool  # house rule (seed 001): «можно выходить?» binds
    canasta_opening_from_5000: bool  # house rule "to 7,500" (seed 001)
    double_going_out: bool  # house rule (seed 001): the partner lays down too
    game: str  # "classic" (RULES.md), "samba" or "bolivia" (issue 24)
    acaba: bool  # British «Acaba» (R-ACABA)
    hand_of_twelve: bool  # R-ART-12: 12 cards each at four
    canasta_in_hand_opens: bool  # R-ART-CANASTA
    minimums_7000: bool  # R-ART-7000: the article's minimums when playing to 7,000
    red_threes: str  # R-ART-RED: "going_out" counts them by who went out
    deals: int | None  # R-GAME-DEALS: with no target, the game is this many deals (None: one)

    def __init__(
        self,
        *,
        wild_limit: str = "strict",
        upcard_stops_on_black_three: bool = False,
        concealed_out_skips_minimum: bool = False,
        stock_out: str = "club",
        tie: str = "draw",
        target: int | None = _TABLE_DEFAULT,
        players: int = 4,
        teams: int = _TABLE_DEFAULT,
        canastas_to_go_out: int = _TABLE_DEFAULT,
        ask_partner_to_go_out: bool = False,
        canasta_opening_from_5000: bool = False,
        double_going_out: bool = False,
        game: str = "classic",
        acaba: bool = False,
        hand_of_twelve: bool = False,
        canasta_in_hand_opens: bool = False,
        minimums_7000: bool = False,
        red_threes: str = "club",
        deals: int | None = None,
        **unknown: object,
    ) -> None:
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        if not _is_int(players) or players not in TABLE_TEAMS:
            raise ValueError(f"players must be 2, 3, 4 or 6, not {players!r}")
        # An unknown game is refused by _validate; the club's game gives the defaults meanwhile.
        variant = VARIANTS.get(game, VARIANTS["classic"])
        if teams is _TABLE_DEFAULT:
            teams = TABLE_TEAMS[players][0]
        if not _is_int(teams) or teams not in TABLE_TEAMS[players]:
            allowed = " or ".join(map(str, TABLE_TEAMS[players]))
            raise ValueError(f"{players} players sit in {allowed} teams, not {teams!r}")
        values = {
            "wild_limit": wild_limit,
            "upcard_stops_on_black_three": upcard_stops_on_black_three,
            "concealed_out_skips_minimum": concealed_out_skips_minimum,
            "stock_out": stock_out,
            "tie": tie,
            "target": variant.default_target(players, teams)
            if target is _TABLE_DEFAULT
            else target,
            "players": players,
            "teams": teams,
            "canastas_to_go_out": variant.default_canastas_to_go_out(players)
            if canastas_to_go_out is _TABLE_DEFAULT
            else canastas_to_go_out,
            "ask_partner_to_go_out": ask_partner_to_go_out,
            "canasta_opening_from_5000": canasta_opening_from_5000,
            "double_going_out": double_going_out,
            "game": game,
            "acaba": acaba,
            "hand_of_twelve": hand_of_twelve,
            "canasta_in_hand_opens": canasta_in_hand_opens,
            "minimums_7000": minimums_7000,
            "red_threes": red_threes,
            "deals": deals,
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
        most = self.variant.target_max
        if target is not None and (
            not isinstance(target, int)
            or isinstance(target, bool)
            or not TARGET_MIN <= target <= most
        ):
            raise ValueError(
                f"target must be a whole number of points from {TARGET_MIN} to {most} "
                f"(the club plays to 5000 or 2500) or null for a single deal, not {target!r}"
            )
        if self.deals is not None:
            self._validate_deals()
        if self.canastas_to_go_out not in (1, 2) or not _is_int(self.canastas_to_go_out):
            raise ValueError(f"canastas_to_go_out must be 1 or 2, not {self.canastas_to_go_out!r}")
        self.variant.validate(self)
        if self.minimums_7000 and self.target != 7000:
            raise ValueError("minimums_7000 is the game to 7000: it needs target 7000")
        if self.players == self.teams:
            for name in _PARTNER_RULES:
                if getattr(self, name):
                    raise ValueError(f"{name} needs partners; at this table each plays alone")

    def _validate_deals(self) -> None:
        """R-GAME-DEALS: a fixed number of deals replaces the target."""
        deals = self.deals
        if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= DEALS_MAX:
            raise ValueError(
                f"deals must be a whole number of deals from 1 to {DEALS_MAX}, not {self.deals!r}"
            )
        if self.target is not None:
            raise ValueError("a game of a fixed number of deals has no target (target: null)")

    @classmethod
    def from_options(cls, options: Any) -> "Rules":
        """Validates a JSON dict of options; unknown keys and bad values raise ValueError.

        Rules never change once made, so the same options give the same Rules, parsed once per
        process (every game read and move parses its game's): keyed by each option's name, type
        and value (1 and true are not the same option)."""
        if not isinstance(options, dict):
            raise ValueError("rules options must be an object")
        key = tuple((name, type(value), value) for name, value in options.items())
        try:
            hash(key)
        except TypeError:  # a list or an object as a value: refused by the parse, not kept
            return cls._parse(options)
        return _parsed(key)

    @classmethod
    def _parse(cls, options: dict[Any, Any]) -> "Rules":
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(key) for key in options if key not in known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(**{str(key): value for key, value in options.items()})

    def to_options(self) -> dict[str, Any]:
        options = {field.name: getattr(self, field.name) for field in fields(self)}
        for name, default in _QUIET_DEFAULTS.items():
            if options[name] == default:
                del options[name]
        return options

    @cached_property
    def variant(self) -> Variant:
        """The game played (variants/): what differs between the games."""
        return VARIANTS[self.game]

    @cached_property
    def seating(self) -> Seating:
        """Seats, teams and partners: partners never side by side (R-DEAL-1)."""
        return _seating(self.players, self.teams)

    @property
    def packs(self) -> int:
        """Full packs with their jokers: two (108 cards), or three (162)."""
        return self.variant.packs(self)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return self.variant.hand_size(self)

    @cached_property
    def cards_drawn(self) -> int:
        """Cards a stock draw takes."""
        return self.variant.cards_drawn(self)

    @cached_property
    def strict_wilds(self) -> bool:
        return self.wild_limit == "strict"

    def opening_minimum(self, team_score: int) -> int:
        """R-OPEN-1 and the game's: the minimum of a team's first meld from its total at the
        start of the deal."""
        return self.variant.opening_minimum(self, team_score)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _seating(players: int, teams: int) -> Seating:
    return Seating.round_table(players=players, teams=teams)


@lru_cache(maxsize=256)
def _parsed(key: tuple[tuple[Any, type, Any], ...]) -> Rules:
    """Rules.from_options' own: the Rules of options given as (name, type, value) triples."""
    return Rules._parse({name: value for name, _, value in key})
