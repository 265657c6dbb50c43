"""Tables, seats, the append-only move log and per-deal results.

The engine state of a running game lives in `Game.state` (Match.to_dict), so reading a game never
replays its history; the `Move` log is the audit trail and the replay source for the export.
"""

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Now

from games.engine import Rules
from games.engine.rules import TABLE_TEAMS

SEED_DIGITS = 39  # 2**128 - 1 has 39 decimal digits


class SeedField(models.Field):
    """A shuffle's seed of up to 128 bits, read and written as an int: numeric(39, 0) on
    PostgreSQL; text on SQLite, whose numbers hold 64 bits (a numeric column there turns a
    larger value into a float and loses the seed, and with it the export's replay)."""

    description = "A seed of up to 39 decimal digits"

    def db_type(self, connection: Any) -> str:
        if connection.vendor == "postgresql":
            return f"numeric({SEED_DIGITS}, 0)"
        return "text"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        return Decimal(int(value)) if connection.vendor == "postgresql" else str(int(value))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> int | None:
        # Decimal: a seed stored as a float by an earlier SQLite schema reads, wrongly, but reads.
        return None if value is None else int(Decimal(value))

    def to_python(self, value: Any) -> int | None:
        return None if value is None else int(value)


# The engine's largest table (six seats, up to three teams) bounds seats and teams.
LAST_SEAT = max(TABLE_TEAMS) - 1
LAST_TEAM = max(teams for choices in TABLE_TEAMS.values() for teams in choices) - 1


class Game(models.Model):
    class Mode(models.TextChoices):
        ASYNC = "async", "async"
        LIVE = "live", "live"

    class Length(models.TextChoices):
        MATCH = "match", "match"
        DEAL = "deal", "deal"

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        ACTIVE = "active", "active"
        FINISHED = "finished", "finished"
        ABANDONED = "abandoned", "abandoned"

    # Played to the end or abandoned: what exports, player stats, afterwords and reports wait for.
    OVER_STATUSES = (Status.FINISHED, Status.ABANDONED)
    # What its creator chose in opening the table (open_table's arguments of the same names;
    # `rating_range` is the columns rating_min and rating_max), which a rematch copies; every
    # other column is the game's own course (tests/games/test_rematch.py holds the model's
    # fields to the two).
    TABLE_SETTINGS = ("mode", "length", "rules", "private", "rated", "rating_range")

    mode = models.CharField(max_length=5, choices=Mode.choices)
    length = models.CharField(max_length=5, choices=Length.choices)
    # Engine options (Rules.to_options), validated when the table is opened.
    rules = models.JSONField()
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.WAITING)
    private = models.BooleanField(default=False)
    # A rated game moves its players' ratings in its pool (ratings.pools: "{mode}.{game}.{seats}",
    # set when the table is opened): opened rated (the default) and no bot seated at the start.
    rated = models.BooleanField(default=True)
    pool = models.CharField(max_length=24)
    # A rated table may ask for players rated within [rating_min, rating_max] in its pool.
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    invite_code = models.CharField(max_length=32, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Number of accepted actions; clients send the version they saw with each move.
    version = models.PositiveIntegerField(default=0)
    # How many table phrases were said (TablePhrase rows; games.services.say_phrase counts them
    # under the game row's lock): a silent table, most of them, is known from its row alone, and
    # the table's ETag changes with a phrase. A move's write leaves it be (games.store).
    phrases_said = models.PositiveIntegerField(default=0)
    # Match.to_dict(): holds hands, the stock and seeds, so it never leaves the server unfiltered.
    state = models.JSONField(null=True, blank=True, editable=False)
    # 128 bits, so that no player can search the shuffle offline; beyond bigint: numeric.
    seed = SeedField(null=True, blank=True, editable=False)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    # Denormalised from the state for the lobby lists (which never load `state`).
    deal_number = models.PositiveIntegerField(default=0)
    scores = models.JSONField(default=list)
    # The seat whose action the game waits for (the engine's `to_act`: the seat on turn, or
    # the partner a question waits for); its clock is `turn_started_at`/`turn_deadline`.
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    abandoned_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Times in a row the deadline sweep failed on this game; it is not tried again before
    # `sweep_retry_at` (backing off), so one broken game is not replayed every second forever.
    sweep_failures = models.PositiveIntegerField(default=0)
    sweep_retry_at = models.DateTimeField(null=True, blank=True)
    # An agreed pause of a correspondence game (games.services.pauses): asked by a seat for
    # `pause_days`,
    # accepted by the seats in `pause_votes`; once every person accepted, every clock stops
    # from `paused_from` until `paused_until` (the votes then are those to resume early).
    pause_asked_by = models.PositiveSmallIntegerField(null=True, blank=True)
    pause_asked_at = models.DateTimeField(null=True, blank=True)
    pause_days = models.PositiveSmallIntegerField(null=True, blank=True)
    pause_votes = models.JSONField(default=list, blank=True)
    paused_from = models.DateTimeField(null=True, blank=True)
    paused_until = models.DateTimeField(null=True, blank=True)
    # The tournament and round that arranged this game (`{"id", "round"}`, the API's
    # `tournament`), fixed when the club opened it (games.services.open_arranged_games); null
    # for a table opened in the lobby. An arranged game never waits on an empty seat: a seat
    # its player abandons goes to the club's bot at once, so the event goes on.
    tournament = models.JSONField(null=True, blank=True, editable=False)
    # Its deals are being played at other tables too (a duplicate tournament's round): only its
    # players see it, and its export and replay wait, until the event unseals it.
    sealed = models.BooleanField(default=False)
    # A live game between two deals (games.services.breaks): no clock runs until this moment,
    # or until every person at the table has closed the finished deal's summary («Дальше»).
    deal_break_until = models.DateTimeField(null=True, blank=True)
    # The pace the table is asked to play the rest of the game at ("async" or "live"; empty:
    # none asked), and the seats of the people who agreed (games.services.pace): once every
    # person has, the game's `mode` changes.
    pace_wanted = models.CharField(max_length=5, blank=True, default="")
    pace_votes = models.JSONField(default=list, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "private", "-created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(turn_seat__isnull=True) | Q(turn_seat__lte=LAST_SEAT),
                name="game_turn_seat_in_table",
            ),
            models.CheckConstraint(
                condition=Q(winner_team__isnull=True) | Q(winner_team__lte=LAST_TEAM),
                name="game_winner_team_in_table",
            ),
            # A rating range: both ends, the lower first, on a rated table only.
            models.CheckConstraint(
                condition=Q(rating_min__isnull=True, rating_max__isnull=True)
                | Q(
                    rated=True,
                    rating_min__isnull=False,
                    rating_max__isnull=False,
                    rating_min__lte=F("rating_max"),
                ),
                name="game_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.mode}, {self.length}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in self.OVER_STATUSES

    @property
    def arranged(self) -> bool:
        """Opened and seated by the club for an event (a tournament), not in the lobby."""
        return self.tournament is not None

    @property
    def rating_range(self) -> tuple[int, int] | None:
        if self.rating_min is None or self.rating_max is None:
            return None
        return (self.rating_min, self.rating_max)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # Looked up by `seat_of_user` (its first column).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    # Teams and partners are the engine's (`Rules.seating`).
    seat = models.PositiveSmallIntegerField()
    # The seat's team in the engine's seating of the game's rules, written with the seat
    # (`at_table`) so that reads (a player's wins, a finished game's rows) never work it out.
    team = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # When the player's last open table page closed (live games): R-CLUB-2's 60-second wait
    # counts from here; any request of theirs clears it.
    left_table_at = models.DateTimeField(null=True, blank=True)
    is_absent = models.BooleanField(default=False)
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    # The last finished deal whose summary the player has closed («Дальше») or moved after:
    # the table shows the summary of a later one until they do.
    deal_seen = models.PositiveIntegerField(default=0)
    # The turns the club played for the player since their own last move (timeouts, absence),
    # each a list of its moves as the table's log tells them (games.services.timeouts); emptied by
    # their next move.
    autoplayed = models.JSONField(default=list, blank=True)
    # The player's turn has run out in a live game before (games.services.timeouts): only the first
    # such timeout offers the ways on (the rest by correspondence, a bot in the seat).
    timed_out_live = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        indexes = [
            # A player's seats with what their card counts (wins: the team), read from the
            # index alone: the card's stats and recent games, shared games for a report, the
            # header's games waiting.
            models.Index(fields=["user", "game", "seat", "team"], name="seat_of_user"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_per_game"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user_per_game"),
            models.CheckConstraint(condition=Q(seat__lte=LAST_SEAT), name="seat_in_table"),
            models.CheckConstraint(condition=Q(team__lte=LAST_TEAM), name="seat_team_in_table"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: user {self.user_id}"

    @classmethod
    def at_table(cls, *, game: Game, seat: int, **fields: Any) -> "Seat":
        """An unsaved seat of `game`, on the team the engine's seating of its rules gives `seat`
        (the one way a seat is made: the services, and the tests' and benches' bulk inserts)."""
        team = Rules.from_options(game.rules).seating.team_of(seat)
        return cls(game=game, seat=seat, team=team, **fields)


class Abandonment(models.Model):
    """A player who abandoned a game while other people played on: their seat was emptied for
    a bot (games.services.abandon_seat). Their record keeps it: played and abandoned, never won."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="abandonments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="abandonments"
    )
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="abandonment_once_per_game")
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: user {self.user_id} abandoned"


class Move(models.Model):
    """One accepted action; rows are only ever inserted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    # 1-based; equals the game's version right after this action.
    seq = models.PositiveIntegerField()
    deal_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    automatic = models.BooleanField(default=False)
    # The engine's event: `public` for every viewer, `private` for the acting seat only.
    public = models.JSONField(default=dict)
    private = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique")]

    def __str__(self) -> str:
        return f"Game {self.game_id} move {self.seq}"


class DealRecord(models.Model):
    """The result of one finished deal of a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_records")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    seed = SeedField()
    result = models.JSONField()
    scores_after = models.JSONField()
    finished_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_record_unique")
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} deal {self.number}"


class IdempotentResponse(models.Model):
    """The outcome of a move request carrying an Idempotency-Key, and the answer it got,
    replayed on retries (games.services.idempotency).

    Only requests that reached the engine are stored (a move made, or an illegal move
    refused); a stale version or a refusal before the engine leaves the key unused.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    # sha256 of the request (version + action): the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    # The engine refused the move (else it was made).
    refused = models.BooleanField()
    # The answer the API rendered for the outcome, given back unchanged to a retry.
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "key"], name="idempotency_key_unique")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]

    def __str__(self) -> str:
        return f"Game {self.game_id} user {self.user_id} key {self.key}"


class TurnReminder(models.Model):
    """The 80 % reminder of one turn; the unique (game, turn_deadline) sends it once per turn."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    turn_deadline = models.DateTimeField()
    sent_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "turn_deadline"], name="reminder_once_per_turn")
        ]

    def __str__(self) -> str:
        return f"Reminder for game {self.game_id} turn ending {self.turn_deadline}"


class Invitation(models.Model):
    """A seat of a waiting table kept for a player its creator invited (issue 37): nobody else
    takes it while the invitation is pending; it is accepted when the invitee sits down,
    declined, withdrawn by the creator, or lapses at `expires_at` (the table's turn limit),
    when the invitations' sweep opens the seat (games.services.invitations)."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        WITHDRAWN = "withdrawn", "withdrawn"
        LAPSED = "lapsed", "lapsed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    seat = models.PositiveSmallIntegerField()
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=Q(status="pending"),
                name="invitation_pending_seat_unique",
            ),
            models.UniqueConstraint(
                fields=["game", "invitee"],
                condition=Q(status="pending"),
                name="invitation_pending_invitee_unique",
            ),
            models.CheckConstraint(condition=Q(seat__lte=LAST_SEAT), name="invitation_seat"),
        ]
        indexes = [
            # The sweep's claim of lapsed invitations.
            models.Index(
                fields=["expires_at"], condition=Q(status="pending"), name="invitation_due"
            ),
            # A player's invitations waiting for an answer.
            models.Index(
                fields=["invitee"], condition=Q(status="pending"), name="invitation_of_invitee"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat} for user {self.invitee_id} ({self.status})"


class Rematch(models.Model):
    """The one rematch of a finished game: `of_game` is unique, so however many of its players
    press «Сыграть ещё» at once, one new table is opened (games.services.rematches). Deleted
    with the new table (everybody left it before the start), after which another may be made."""

    of_game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch_of")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(db_default=Now())

    def __str__(self) -> str:
        return f"Game {self.game_id} rematches game {self.of_game_id}"


class TablePhrase(models.Model):
    """One of the table's fixed phrases (games.table_phrases), said by a seat to the whole
    table: never free text, never to one player alone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phrases")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    phrase = models.CharField(max_length=20)
    # The game's version when it was said: the move log shows it after that move.
    version = models.PositiveIntegerField()
    said_at = models.DateTimeField()

    class Meta:
        indexes = [
            # A table's latest phrases.
            models.Index(fields=["game", "-id"], name="table_phrase_latest"),
            # A player's last phrase (one every few seconds).
            models.Index(fields=["user", "-said_at"], name="table_phrase_of_user"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.phrase}"
