"""Moderation reads: afterwords a player may see, the club's mood, the queue, evidence, stats."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median
from typing import Any

from django.core.cache import cache
from django.db.models import (
    BooleanField,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    FilteredRelation,
    Min,
    Q,
    QuerySet,
)
from django.db.models.expressions import Combinable

from accounts.models import User
from club import clock
from games import errors as game_errors
from games import selectors as game_selectors
from games.models import Game, Move, Seat
from moderation import errors, policy
from moderation.models import Afterword, AuthorityChange, ModeratorShift, Report, Sanction
from moderation.phrases import WARM_PHRASES, WarmPhrase
from social import selectors as social_selectors

MOOD_CACHE_KEY = "moderation:club_mood"
MOOD_CACHE_SECONDS = 60
RECENT_MOVES_IN_EVIDENCE = 10
HISTORY_REPORTS = 20


def afterwords_visible_to(*, game_id: int, viewer: User) -> QuerySet[Afterword]:
    """Table messages, and partner afterwords the viewer wrote or received; players only. The
    words of a player the viewer keeps apart from (a block either way) are not shown."""
    table = game_selectors.game_with_seats(game_id=game_id)
    if table is None:
        raise game_errors.game_not_found()
    if table.seat_of(viewer) is None:
        raise errors.not_a_player_of(table, viewer)
    return (
        Afterword.objects.filter(game_id=game_id)
        .filter(readable_by(viewer) | Q(author=viewer))
        .exclude(author_id__in=social_selectors.blocked_either_way(user_id=viewer.pk))
        .select_related("author")
    )


def bots_among(*, user_ids: Iterable[int]) -> set[int]:
    """The ids of the bots among these users (bots get no kudos, cannot be reported, move no
    Authority)."""
    return set(
        User.objects.filter(pk__in=list(user_ids))
        .exclude(bot_level="")
        .values_list("pk", flat=True)
    )


def kudos_weight(
    *, giver: User, recipient_id: int, game_has_bots: bool, now: datetime
) -> tuple[int, str]:
    """How much a warm word from `giver` to a partner counts right now, and why (an
    AuthorityChange.Reason): what create_afterword records, and what the afterwords form says
    before it is sent."""
    if game_has_bots:  # a game with bots moves nobody's Authority
        return 0, AuthorityChange.Reason.GAME_WITH_BOTS
    if giver.date_joined > now - policy.KUDOS_GIVER_MIN_ACCOUNT_AGE:
        return 0, AuthorityChange.Reason.GIVER_TOO_NEW
    finished_games = Seat.objects.filter(user=giver, game__status=Game.Status.FINISHED).count()
    if finished_games < policy.KUDOS_GIVER_MIN_FINISHED_GAMES:
        return 0, AuthorityChange.Reason.GIVER_FEW_GAMES
    pair_kudos = AuthorityChange.objects.filter(
        Q(giver=giver, user_id=recipient_id) | Q(giver_id=recipient_id, user=giver),
        kind=AuthorityChange.Kind.KUDOS,
        amount__gt=0,
        created_at__gte=now - policy.KUDOS_PAIR_PERIOD,
    ).count()
    if pair_kudos >= policy.KUDOS_PAIR_LIMIT:
        return 0, AuthorityChange.Reason.PAIR_LIMIT
    return policy.KUDOS_POINTS, AuthorityChange.Reason.COUNTED


def kudos_forecast(*, game: Game, giver: User, partner_ids: Iterable[int]) -> dict[int, str]:
    """Before an afterword is written: the reason (kudos_weight's) a warm word from `giver` to
    each of these partners at this finished game would carry if sent now."""
    seated = Seat.objects.filter(game=game).values_list("user_id", flat=True)
    game_has_bots = bool(bots_among(user_ids=seated))
    now = clock.now()
    return {
        partner_id: kudos_weight(
            giver=giver, recipient_id=partner_id, game_has_bots=game_has_bots, now=now
        )[1]
        for partner_id in partner_ids
    }


def warm_phrases() -> tuple[WarmPhrase, ...]:
    return WARM_PHRASES


def club_mood() -> dict[str, Any]:
    """Warm words to partners per finished game over the last 7 days (public, cached briefly)."""

    def compute() -> dict[str, Any]:
        since = clock.now() - policy.MOOD_PERIOD
        warm_words = Afterword.objects.filter(
            to=Afterword.To.PARTNER, created_at__gte=since
        ).count()
        finished_games = Game.objects.filter(
            status=Game.Status.FINISHED, finished_at__gte=since
        ).count()
        return {
            "days": policy.MOOD_PERIOD.days,
            "warm_words": warm_words,
            "finished_games": finished_games,
            "warm_words_per_game": round(warm_words / finished_games, 2) if finished_games else 0.0,
        }

    mood: dict[str, Any] | None = cache.get(MOOD_CACHE_KEY)
    if mood is None:
        mood = compute()
        cache.set(MOOD_CACHE_KEY, mood, MOOD_CACHE_SECONDS)
    return mood


def readable_by(reader: User, *, through: str = "") -> Q:
    """Afterwords a player could read: table messages, and those to them (`through`: the
    afterwords of a relation of that name, as a join's condition)."""
    prefix = f"{through}__" if through else ""
    return Q(**{f"{prefix}to": Afterword.To.TABLE}) | Q(**{f"{prefix}recipient": reader})


@dataclass(frozen=True)
class ReportableGame:
    pk: int
    finished_at: datetime | None


@dataclass(frozen=True)
class CitableAfterword:
    pk: int
    game_id: int
    text: str


@dataclass(frozen=True)
class ReportTargets:
    """What a report by `reporter` about `accused` may be about: the finished games both played,
    newest first, and the accused's afterwords in them the reporter could read."""

    games: list[ReportableGame]
    afterwords: list[CitableAfterword]


def report_targets(*, reporter: User, accused: User, limit: int) -> ReportTargets:
    """The latest `limit` finished games the two shared, with the citable afterwords, in one
    query: each game joined to the accused's afterwords in it the reporter could read (to the
    table, or to the reporter), one row per afterword or one without."""
    citable = FilteredRelation(
        "afterwords",
        condition=Q(afterwords__author=accused) & readable_by(reporter, through="afterwords"),
    )
    rows = (
        Game.objects.filter(status__in=Game.OVER_STATUSES, seats__user=reporter)
        .filter(seats__user=accused)
        .alias(citable=citable)
        .order_by("-finished_at", "-pk", "citable__pk")
        .values_list("pk", "finished_at", "citable__pk", "citable__text")
    )
    games: dict[int, ReportableGame] = {}
    afterwords: list[CitableAfterword] = []
    # An author writes at most one afterword each way (to the partner, to the table) per game,
    # so the first `limit` games fill at most this many rows.
    for game_id, finished_at, afterword_id, text in rows[: limit * len(Afterword.To)]:
        if game_id not in games:
            if len(games) == limit:
                break
            games[game_id] = ReportableGame(pk=game_id, finished_at=finished_at)
        if afterword_id is not None:
            afterwords.append(CitableAfterword(pk=afterword_id, game_id=game_id, text=text))
    return ReportTargets(games=list(games.values()), afterwords=afterwords)


def table_messages(*, game_id: int) -> QuerySet[Afterword]:
    """A game's afterwords to the whole table, oldest first (the moderator's evidence)."""
    return Afterword.objects.filter(game_id=game_id, to=Afterword.To.TABLE).select_related("author")


@dataclass(frozen=True)
class AuthorityChangeShown:
    """A change of a player's Authority as their card explains it: its kind and reason, and an
    upheld report's decision ("" for others); never who gave kudos or reported them."""

    amount: int
    kind: str
    reason: str
    decision: str
    created_at: datetime


def authority_changes_of(*, user: User, limit: int) -> list[AuthorityChangeShown]:
    """The player's latest Authority changes, newest first."""
    changes = (
        AuthorityChange.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("amount", "kind", "reason", "report__decision", "created_at")[:limit]
    )
    return [
        AuthorityChangeShown(
            amount=amount,
            kind=kind,
            reason=reason,
            decision=decision or "",
            created_at=created_at,
        )
        for amount, kind, reason, decision, created_at in changes
    ]


def reports_filed_by(*, user: User) -> QuerySet[Report]:
    return Report.objects.filter(reporter=user).order_by("-created_at", "-pk")


def sanctions_of(*, user: User) -> QuerySet[Sanction]:
    """The sanctions a player received (never who reported them)."""
    return Sanction.objects.filter(user=user).select_related("report")


def _conflict_of_interest(moderator: User) -> Q:
    """Reports about the moderator, filed by them, or about a game they played in."""
    # A moderator's own games are few: one hashed subplan, not a subquery per report row.
    played = Seat.objects.filter(user_id=moderator.pk).values("game_id")
    return Q(accused_id=moderator.pk) | Q(reporter_id=moderator.pk) | Q(game_id__in=played)


def reports_moderator_may_handle(*, moderator: User) -> QuerySet[Report]:
    """Every report but those with a conflict of interest, which the moderator never sees.

    Superusers included: hidden rather than refused, so that nothing reveals such a report exists.
    """
    return Report.objects.exclude(_conflict_of_interest(moderator))


def conflicted_users(*, report_ids: Iterable[int]) -> dict[int, set[int]]:
    """report id -> the users who must not handle it (its players, reporter and accused among them).

    The same rule as reports_moderator_may_handle, for many reports at once (the SLA alerts).
    """
    conflicted: dict[int, set[int]] = {}
    reports_by_game: dict[int, list[int]] = {}
    for report_id, game_id, reporter_id, accused_id in Report.objects.filter(
        pk__in=list(report_ids)
    ).values_list("pk", "game_id", "reporter_id", "accused_id"):
        conflicted[report_id] = {reporter_id, accused_id}
        reports_by_game.setdefault(game_id, []).append(report_id)
    for game_id, user_id in Seat.objects.filter(game_id__in=reports_by_game).values_list(
        "game_id", "user_id"
    ):
        for report_id in reports_by_game[game_id]:
            conflicted[report_id].add(user_id)
    return conflicted


def report_queue(
    *,
    moderator: User,
    status_filter: str,
    reason: str | None,
    now: datetime,
    overdue: bool = False,
) -> QuerySet[Report]:
    """The moderators' queue, soonest due first; answered reports, latest answer first.

    `status_filter`: "open" (unanswered, claimed or not), "unclaimed", "claimed", "resolved".
    `overdue`: only open reports past their due time. Each report carries `claim_is_live`.
    """
    reports = (
        reports_moderator_may_handle(moderator=moderator)
        .select_related("accused", "claimed_by", "afterword")
        .annotate(claim_is_live=claim_is_live(now))
    )
    if reason:
        reports = reports.filter(reason=reason)
    if status_filter == "resolved":
        return reports.filter(status=Report.Status.RESOLVED).order_by("-resolved_at", "-pk")
    reports = reports.filter(status=Report.Status.OPEN)
    if overdue:
        reports = reports.filter(due_at__lte=now)
    if status_filter == "claimed":
        reports = reports.filter(live_claim(now))
    elif status_filter == "unclaimed":
        reports = reports.exclude(live_claim(now))
    return reports.order_by("due_at", "pk")


def live_claim(now: datetime | Combinable) -> Q:
    """Reports a moderator holds: claimed, and the claim has not lapsed (CLAIM_IDLE_TIMEOUT)."""
    return Q(claimed_by__isnull=False, claim_expires_at__gt=now)


def claim_is_live(now: datetime | Combinable) -> ExpressionWrapper:
    """live_claim as a column: whether the report's claim holds at `now`."""
    return ExpressionWrapper(live_claim(now), output_field=BooleanField())


def report_for_moderator(*, report_id: int, moderator: User) -> Report:
    """A report the moderator may handle (with `claim_is_live`); any other answers "not found"
    (see above)."""
    report = (
        reports_moderator_may_handle(moderator=moderator)
        .select_related("accused", "claimed_by", "resolved_by", "afterword", "game")
        .annotate(claim_is_live=claim_is_live(clock.now_expression()))
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        raise errors.report_not_found()
    return report


def move_log_summary(*, game: Game) -> dict[str, Any]:
    """What a moderator needs from the move log: who moved how often, automatically or not."""
    moves = Move.objects.filter(game=game)
    counts = {
        row["seat"]: row
        for row in moves.values("seat").annotate(
            moves=Count("pk"), automatic=Count("pk", filter=Q(automatic=True))
        )
    }
    seats = [
        {
            "seat": seat.seat,
            "user_id": seat.user_id,
            "username": seat.user.username,
            "moves": counts.get(seat.seat, {}).get("moves", 0),
            "automatic_moves": counts.get(seat.seat, {}).get("automatic", 0),
        }
        for seat in Seat.objects.filter(game=game).select_related("user").order_by("seat")
    ]
    recent = [
        {
            "seq": move.seq,
            "seat": move.seat,
            "type": move.action.get("type") if isinstance(move.action, dict) else None,
            "automatic": move.automatic,
            "created_at": move.created_at,
        }
        for move in moves.order_by("-seq")[:RECENT_MOVES_IN_EVIDENCE]
    ]
    return {
        "status": game.status,
        "mode": game.mode,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "winner_team": game.winner_team,
        "abandoned_by_seat": game.abandoned_by_seat,
        "total_moves": sum(row["moves"] for row in counts.values()),
        "seats": seats,
        "recent_moves": recent,
    }


def accused_history(*, user_id: int, excluding_report_id: int) -> dict[str, Any]:
    """The accused's earlier reports (never their reporters) and sanctions."""
    earlier = Report.objects.filter(accused_id=user_id).exclude(pk=excluding_report_id)
    by_decision = {
        row["decision"] or "pending": row["n"]
        for row in earlier.values("decision").annotate(n=Count("pk")).order_by()
    }
    return {
        "reports_total": sum(by_decision.values()),
        "reports_by_decision": by_decision,
        "recent_reports": list(
            earlier.order_by("-created_at", "-pk").values(
                "id", "game_id", "reason", "status", "decision", "created_at"
            )[:HISTORY_REPORTS]
        ),
        "sanctions": list(
            Sanction.objects.filter(user_id=user_id).values(
                "kind", "ends_at", "created_at", "report_id"
            )
        ),
    }


def is_on_duty(*, moderator: User) -> bool:
    return ModeratorShift.objects.filter(moderator=moderator, on_duty=True).exists()


def _sla_share(reports: QuerySet[Report], *, since: datetime, now: datetime) -> float | None:
    """Of the reports that fell due in the period, the share answered by their due time."""
    fell_due = reports.filter(due_at__gt=since, due_at__lte=now)
    counts = fell_due.aggregate(
        total=Count("pk"),
        in_time=Count("pk", filter=Q(resolved_at__isnull=False, resolved_at__lte=F("due_at"))),
    )
    return round(counts["in_time"] / counts["total"], 4) if counts["total"] else None


def moderation_stats(*, moderator: User) -> dict[str, Any]:
    """Queue figures over the reports this moderator may handle: counting the others would
    tell them that a report about them, or about a game they played, exists."""
    now = clock.now()
    reports = reports_moderator_may_handle(moderator=moderator)
    open_reports = reports.filter(status=Report.Status.OPEN)
    oldest = open_reports.aggregate(oldest=Min("created_at"))["oldest"]
    longest = max(policy.STATS_PERIODS_DAYS)
    took = ExpressionWrapper(F("resolved_at") - F("created_at"), output_field=DurationField())
    answer_times = [
        duration.total_seconds()
        for duration in reports.filter(resolved_at__gt=now - timedelta(days=longest))
        .annotate(took=took)
        .values_list("took", flat=True)
    ]
    return {
        "open_reports": open_reports.count(),
        "oldest_open_age_seconds": int((now - oldest).total_seconds()) if oldest else None,
        **{
            f"answered_within_sla_{days}d": _sla_share(
                reports, since=now - timedelta(days=days), now=now
            )
            for days in policy.STATS_PERIODS_DAYS
        },
        f"median_answer_seconds_{longest}d": int(median(answer_times)) if answer_times else None,
    }
