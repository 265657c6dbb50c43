"""Seats, teams and partners at a table (R-DEAL-1): the one place that knows who plays with whom.

Seats are numbered round the table in the order of play; a team's seats are every
`len(teams)`-th seat, so partners never sit side by side (four players: 0+2 against 1+3).
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where; a table starts when all `players` seats are taken."""

    players: int
    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    _team_of: tuple[int, ...]
    _partners_of: tuple[tuple[int, ...], ...]

    @classmethod
    def round_table(cls, *, players: int, teams: int) -> "Seating":
        """`players` seats in `teams` teams, seated alternately round the table."""
        if players < 2 or teams < 2 or players % teams:
            raise ValueError(f"{players} players do not sit in {teams} equal teams")
        seats = tuple(range(players))
        members = tuple(seats[team::teams] for team in range(teams))
        team_of = tuple(seat % teams for seat in seats)
        partners = tuple(
            tuple(other for other in members[team_of[seat]] if other != seat) for seat in seats
        )
        return cls(players, seats, members, team_of, partners)

    def team_of(self, seat: int) -> int:
        return self._team_of[seat]

    def partners_of(self, seat: int) -> tuple[int, ...]:
        """The seat's partners; empty for a player who plays alone."""
        return self._partners_of[seat]

    def next_seat(self, seat: int) -> int:
        """The seat on the left: the next to play, and the next to deal (R-DEAL-1)."""
        return seat + 1 if seat + 1 < self.players else 0

    def round_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, in the order of play, `seat` first (dealing, R-DEAL-2/5)."""
        return self.seats[seat:] + self.seats[:seat]


# The club's classic game (RULES.md R-DEAL-1): four players, partners opposite.
FOUR_HANDED = Seating.round_table(players=4, teams=2)
