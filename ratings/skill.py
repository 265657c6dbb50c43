"""The rating model: openskill's Weng-Lin Plackett-Luce (teams, and several sides at once),
with the library's own parameters, and how the club shows it.

A player's skill in a pool is a belief (`mu`, `sigma`) in the library's units; the club shows it
on the familiar scale where a newcomer is 1500 ± 350 (`shown_rating`, `shown_deviation`). A team's
strength is the sum of its players', and each player's move is their own uncertainty's share of
the team's surprise: partners move the same way, and a strong partner's rating never passes to
a weak one (winning beside a strong partner was expected, so it earns less).

While a player does not play in a pool their deviation grows (`grown_sigma`), as Glicko's does
between rating periods, up to a newcomer's; a rating is provisional while its deviation is above
PROVISIONAL_DEVIATION, so a long pause makes it provisional again.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
NEWCOMER_RATING = 1500
NEWCOMER_DEVIATION = 350
# Shown points per unit of the library's scale (350 / (25/3) = 42).
SCALE = NEWCOMER_DEVIATION / MODEL.sigma
# Provisional above this shown deviation. The library's deviations fall slowly (a partner's share
# of each result is the partner's own): a newcomer drops below it after about 9 games at two,
# 15 at four and 20 at six (a simulation of players of spread skills, the median).
PROVISIONAL_DEVIATION = 280
# The shown deviation's square grows by this much a day without a game in the pool: a steady 100
# becomes provisional after about two years away, one just below the line within a month, and
# a deviation never grows past a newcomer's.
DEVIATION_GROWTH_PER_DAY = 110
_GROWTH_PER_DAY = DEVIATION_GROWTH_PER_DAY / SCALE**2  # in the library's units (sigma squared)
_PROVISIONAL_SIGMA = PROVISIONAL_DEVIATION / SCALE


@dataclass(frozen=True)
class Skill:
    """A belief about a player's skill, in the library's units."""

    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return shown_rating(self.mu)

    @property
    def deviation(self) -> int:
        return shown_deviation(self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > _PROVISIONAL_SIGMA


NEWCOMER = Skill(mu=MODEL.mu, sigma=MODEL.sigma)


def shown_rating(mu: float) -> int:
    return round(NEWCOMER_RATING + (mu - MODEL.mu) * SCALE)


def shown_deviation(sigma: float) -> int:
    return round(sigma * SCALE)


def grown(skill: Skill, *, since: datetime, now: datetime) -> Skill:
    """The belief at `now` of a player whose last game in the pool ended at `since`."""
    days = max((now - since).total_seconds(), 0.0) / 86400
    sigma = min(math.sqrt(skill.sigma**2 + _GROWTH_PER_DAY * days), NEWCOMER.sigma)
    return Skill(mu=skill.mu, sigma=max(sigma, skill.sigma))


def steady_until(skill: Skill, *, since: datetime) -> datetime | None:
    """When the deviation of a player who last played at `since` grows past the provisional
    line (the leaderboard leaves them out from then on); None: provisional already."""
    if skill.provisional:
        return None
    days = (_PROVISIONAL_SIGMA**2 - skill.sigma**2) / _GROWTH_PER_DAY
    return since + timedelta(days=days)


def rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """Every player's belief after a game: `sides` of players (a side of one where each plays
    alone), each side's `places` (0 the best; equal places are a tie)."""
    teams = [[MODEL.create_rating([skill.mu, skill.sigma]) for skill in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [[Skill(mu=player.mu, sigma=player.sigma) for player in side] for side in rated]
