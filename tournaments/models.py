"""Tournaments: their entries, rounds, tables and who sat where (issue 38, CONTRACT §7).

A tournament pairs entries (a fixed pair, or a single player) round after round; each round's
games are ordinary games the club arranges (games.services.open_arranged_games), each linked
here to its round by a `RoundTable`, each entry's part in a round recorded by a `Placement`
(a side of a table, or a bye). Results and standings are read from the games themselves
(tournaments.selectors), never stored twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now

from games.models import Game, SeedField


class Tournament(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        # Its start came with too few entries: nothing was played.
        CANCELLED = "cancelled", "cancelled"

    class Format(models.TextChoices):
        SWISS = "swiss", "swiss"
        ROUND_ROBIN = "round_robin", "round_robin"

    class Partners(models.TextChoices):
        # An entry is a pair who play every game together.
        FIXED = "fixed", "fixed"
        # An entry is one player; partners change each round.
        ROTATING = "rotating", "rotating"

    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    created_at = models.DateTimeField(db_default=Now())
    mode = models.CharField(max_length=5, choices=Game.Mode.choices)
    format = models.CharField(max_length=11, choices=Format.choices)
    partners = models.CharField(max_length=8, choices=Partners.choices)
    duplicate = models.BooleanField(default=False)
    # Its games are rated (issue 36) unless the tournament is casual.
    rated = models.BooleanField(default=True)
    # The engine's options of every table (Rules.to_options): the table, the game, its
    # variants; no target, and `deals` deals a game.
    rules = models.JSONField()
    # Rounds to play: a Swiss tournament's, chosen; a round robin's, set at the start to a
    # whole cycle unless fewer were chosen.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    max_entries = models.PositiveSmallIntegerField()
    # Each round's time: its games not over by then are played out by the club's bots.
    round_limit = models.DurationField()
    starts_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The round under way (0 before the first).
    current_round = models.PositiveSmallIntegerField(default=0)
    # When the sweep next has work for it by the clock: its start, or its round's deadline
    # (the end of a round's last game is found by the sweep's query, not by a column).
    due_at = models.DateTimeField(null=True, blank=True)
    # Moves with every change its page shows (tournaments.services.live): its fragment's ETag.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="tournament_by_status"),
            models.Index(
                fields=["due_at"],
                condition=Q(status__in=["open", "running"]),
                name="tournament_due",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_entries__gte=2), name="tournament_room_for_two_entries"
            )
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk} {self.name!r} ({self.status})"

    @property
    def deals(self) -> int:
        return int(self.rules.get("deals") or 1)


class Entry(models.Model):
    """One entrant of a tournament: a fixed pair, or a single player."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    # In the order of entering, from 1: the pairing's and the standings' last tie-break.
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique")
        ]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} entry {self.number}"


class EntryPlayer(models.Model):
    """A player of an entry; a player is in one entry of a tournament at most."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="players")
    # The entry's, repeated so that the database refuses anybody entering twice.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    # 0, then 1 for the partner: the order they sit on their side.
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["entry", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="entry_player_once_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"Entry {self.entry_id}: user {self.user_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    # A duplicate round's shuffle, the same at every table (with its first dealer): deal k of
    # each of its games deals the same cards to the same seats. Null otherwise.
    seed = SeedField(null=True, blank=True, editable=False)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField()
    # Its games not over by then are played out by the club's bots.
    deadline = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            # A round is paired once, however many workers try (and die trying).
            models.UniqueConstraint(fields=["tournament", "number"], name="round_paired_once")
        ]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} round {self.number}"


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique")
        ]

    def __str__(self) -> str:
        return f"Round {self.round_id} table {self.number}: game {self.game_id}"


class Placement(models.Model):
    """An entry's part in a round: a side (the engine's team) of one of its tables, or a bye."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="placements")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="placements")
    table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, null=True, blank=True, related_name="placements"
    )
    team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            # An entry plays once a round.
            models.UniqueConstraint(fields=["round", "entry"], name="placement_once_per_round"),
            models.CheckConstraint(
                condition=Q(table__isnull=True, team__isnull=True)
                | Q(table__isnull=False, team__isnull=False),
                name="placement_a_side_or_a_bye",
            ),
        ]

    def __str__(self) -> str:
        where = f"table {self.table_id} team {self.team}" if self.table_id else "bye"
        return f"Round {self.round_id} entry {self.entry_id}: {where}"

    @property
    def is_bye(self) -> bool:
        return self.table_id is None
