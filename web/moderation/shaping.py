"""What the pages around the table show, put together from the apps' own selectors.

No page reads the database its own way: each function here only calls accounts, games,
moderation and notifications selectors and shapes their answers for a template.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache

from accounts import selectors as account_selectors
from accounts.models import User
from canasta_club import clock
from canasta_club.i18n import current_language, quantity, text
from games import selectors as game_selectors
from games.models import Game
from games.store import Table
from moderation import policy
from moderation import selectors as moderation_selectors
from moderation.models import Afterword, AuthorityChange, Report
from moderation.phrases import kudos_forecast, kudos_outcome
from moderation.selectors import AuthorityChangeShown, ReportTargets
from notifications import selectors as notification_selectors
from notifications import texts as notification_texts

RECENT_GAMES_ON_CARD = 10
AUTHORITY_CHANGES_ON_CARD = 10
REPORTABLE_GAMES = 20
NOTIFICATIONS_PAGE = 50
QUEUE_PAGE = 50


# Names in both languages, (ru, en): only the one shown is looked up in the page's language.
_KUDOS_NOT_COUNTED: dict[str, tuple[str, str]] = {
    AuthorityChange.Reason.GIVER_TOO_NEW: (
        "не засчитано: у автора слишком новый аккаунт",
        "did not count: the giver is too new",
    ),
    AuthorityChange.Reason.GIVER_FEW_GAMES: (
        "не засчитано: автор сыграл слишком мало партий",
        "did not count: the giver has played too few games",
    ),
    AuthorityChange.Reason.PAIR_LIMIT: (
        "не засчитано: эта пара уже набрала предел за месяц",
        "did not count: this pair reached its monthly limit",
    ),
}
_DECISION_NAMES: dict[str, tuple[str, str]] = {
    Report.Decision.DISMISS: ("отклонена", "dismissed"),
    Report.Decision.WARN: ("предупреждение", "a warning"),
    Report.Decision.MUTE: ("запрет писать", "a mute"),
    Report.Decision.SUSPEND: ("отстранение от игры", "a suspension"),
}
_REASON_NAMES: dict[str, tuple[str, str]] = {
    Report.Reason.RUDENESS: ("грубость", "rudeness"),
    Report.Reason.MOCKERY: ("насмешки", "mockery"),
    Report.Reason.CHEATING: ("нечестная игра", "cheating"),
    Report.Reason.OTHER: ("другое", "something else"),
}


def explain_authority_change(change: AuthorityChangeShown) -> str:
    """Why a player's Authority moved, as the card says it (never who reported them)."""
    if change.kind == AuthorityChange.Kind.REPORT_UPHELD:
        decision = decision_name(change.decision)
        return text(
            f"жалоба подтверждена модератором ({decision})",
            f"a report was upheld by a moderator ({decision})",
        )
    base = text("тёплые слова от партнёра", "kudos from a partner")
    not_counted = _KUDOS_NOT_COUNTED.get(change.reason)
    return f"{base} — {text(*not_counted)}" if not_counted else base


def decision_name(decision: str) -> str:
    name = _DECISION_NAMES.get(decision)
    return text(*name) if name else ""


def reason_name(reason: str) -> str:
    return text(*_REASON_NAMES[reason])


def reason_choices() -> list[tuple[str, str]]:
    return [(reason, reason_name(reason)) for reason in Report.Reason.values]


@dataclass(frozen=True)
class PlayerCard:
    player: User
    stats: dict[str, int]
    authority_changes: list[dict[str, Any]]
    recent_games: list[dict[str, Any]]
    # «Пожаловаться»: the finished games the viewer shared with this player, and the player's
    # afterwords in them the viewer could read (what a report may cite). No games: no form.
    report_targets: ReportTargets


def player_card(*, player_id: int, viewer: User) -> PlayerCard | None:
    player = account_selectors.active_user(user_id=player_id)
    if player is None:
        return None
    targets = ReportTargets(games=[], afterwords=[])
    # Bots are not reported (moderation refuses it), so their card has no form.
    if viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot:
        targets = moderation_selectors.report_targets(
            reporter=viewer, accused=player, limit=REPORTABLE_GAMES
        )
    record = game_selectors.player_record(user=player, recent_games=RECENT_GAMES_ON_CARD)
    return PlayerCard(
        player=player,
        stats=record.stats,
        authority_changes=[
            {
                "amount": change.amount,
                "why": explain_authority_change(change),
                "at": change.created_at,
            }
            for change in moderation_selectors.authority_changes_of(
                user=player, limit=AUTHORITY_CHANGES_ON_CARD
            )
        ],
        recent_games=[_from_side(game) for game in record.recent_games],
        report_targets=targets,
    )


def _from_side(game: dict[str, Any]) -> dict[str, Any]:
    """A finished game as the card's player saw it: their team's score first, then the others'
    in team order ("5100 : 1200" on the winner's card)."""
    scores = list(game["scores"])
    ours = scores.pop(game["team"])
    return {**game, "scores_from_side": [ours, *scores]}


def my_reports(*, user: User) -> list[dict[str, Any]]:
    """The reports the user filed, with the answers (they name the accused: the reporter knows)."""
    return [
        {
            "report": report,
            "reason": reason_name(report.reason),
            "decision": decision_name(report.decision),
        }
        for report in moderation_selectors.reports_filed_by(user=user).select_related("accused")
    ]


def notifications_page(*, user: User, language: str) -> list[dict[str, Any]]:
    return [
        {
            "notification": notification,
            "title": notification_texts.title(
                kind=notification.kind, game_id=notification.game_id, language=language
            ),
            "body": notification_texts.push_payload(
                kind=notification.kind,
                game_id=notification.game_id,
                payload=notification.payload,
                language=language,
                tag="",
            )["body"],
        }
        for notification in notification_selectors.notifications_for(user=user)[:NOTIFICATIONS_PAGE]
    ]


@dataclass(frozen=True)
class QueueRow:
    report: Report
    reason: str
    seconds_left: int
    # The queue marks reports due within the hour the SLA alerts warn about, and overdue ones.
    due_soon: bool
    overdue: bool


def moderation_queue(
    *,
    moderator: User,
    status_filter: str,
    reason: str | None,
    overdue: bool,
    offset: int,
) -> tuple[list[QueueRow], bool]:
    """One page of the queue and whether there is a next one."""
    now = clock.now()
    reports = list(
        moderation_selectors.report_queue(
            moderator=moderator,
            status_filter=status_filter,
            reason=reason,
            now=now,
            overdue=overdue,
        )[offset : offset + QUEUE_PAGE + 1]
    )
    return [_queue_row(report, now) for report in reports[:QUEUE_PAGE]], len(reports) > QUEUE_PAGE


def _queue_row(report: Report, now: datetime) -> QueueRow:
    left = int((report.due_at - now).total_seconds())
    is_open = report.status == Report.Status.OPEN
    return QueueRow(
        report=report,
        reason=reason_name(report.reason),
        seconds_left=left,
        due_soon=is_open and 0 < left <= policy.REPORT_DUE_SOON.total_seconds(),
        overdue=is_open and left <= 0,
    )


@dataclass(frozen=True)
class ReportDesk:
    row: QueueRow
    claimed_by_me: bool
    claim_live: bool
    move_log: dict[str, Any]
    history: dict[str, Any]
    table_messages: list[Afterword]


# The desk's figures scan the last 30 days of reports; they move slowly, so a page shows them
# up to this old (per moderator: each one's figures leave out the reports they may not handle).
DESK_FIGURES_SECONDS = 30


def desk_figures(*, moderator: User) -> dict[str, Any]:
    key = f"web:desk_figures:{moderator.pk}"
    figures: dict[str, Any] | None = cache.get(key)
    if figures is None:
        figures = moderation_selectors.moderation_stats(moderator=moderator)
        cache.set(key, figures, DESK_FIGURES_SECONDS)
    return figures


def report_desk(*, report_id: int, moderator: User) -> ReportDesk:
    """A report with its evidence; raises NotFound for one the moderator may not handle."""
    report = moderation_selectors.report_for_moderator(report_id=report_id, moderator=moderator)
    return ReportDesk(
        row=_queue_row(report, clock.now()),
        claimed_by_me=report.claimed_by_id == moderator.pk,
        claim_live=report.claim_is_live,  # type: ignore[attr-defined]  # annotated by the selector
        move_log=moderation_selectors.move_log_summary(game=report.game),
        history=moderation_selectors.accused_history(
            user_id=report.accused_id, excluding_report_id=report.pk
        ),
        table_messages=list(moderation_selectors.table_messages(game_id=report.game_id)),
    )


@dataclass(frozen=True)
class AfterwordsPanel:
    """A finished game's afterwords as one of its players may see them, and what they may
    still write (the service decides the rest, e.g. a mute, when they send it)."""

    messages: list[dict[str, Any]]
    phrases: list[str]
    # The viewer's partners who can receive warm words (people: bots receive none); none at a
    # table where each played alone.
    partners: list[User]
    # A partner was a bot: the form says so instead of offering "to your partner".
    bot_partner: bool
    # Said before sending: why warm words to a partner would not move their Authority
    # (moderation's kudos_weight, the reason the service will record), one line per partner.
    kudos_notes: list[str]
    may_write_partner: bool
    may_write_table: bool


def afterwords_panel(*, game: Game, viewer: User) -> AfterwordsPanel | None:
    if not viewer.is_authenticated or not game.is_over:
        return None
    partners = game_selectors.partners_at(game=game, user=viewer)
    if partners is None:
        return None  # afterwords are for the game's players
    afterwords = list(
        moderation_selectors.afterwords_visible_to(game_id=game.pk, viewer=viewer).select_related(
            "authority_change"
        )
    )
    written = {afterword.to for afterword in afterwords if afterword.author_id == viewer.pk}
    people = [partner for partner in partners if not partner.is_bot]
    may_write_partner = bool(people) and Afterword.To.PARTNER not in written
    kudos_notes = []
    if may_write_partner:
        reasons = moderation_selectors.kudos_forecast(
            game=game, giver=viewer, partner_ids=[partner.pk for partner in people]
        )
        # The giver's own reasons (a new account, a game with bots) are the same for each
        # partner: said once; a pair's limit names its partner.
        named = len(set(reasons.values())) > 1
        for partner in people:
            note = kudos_forecast(reasons[partner.pk])
            if note and note not in kudos_notes:
                kudos_notes.append(f"{partner}: {note}" if named else note)
    return AfterwordsPanel(
        messages=[
            {
                "afterword": afterword,
                # The giver sees whether their kudos counted, and why not (as the API says).
                "kudos": (
                    kudos_outcome(afterword.authority_change.reason)
                    if afterword.to == Afterword.To.PARTNER
                    and afterword.author_id == viewer.pk
                    and hasattr(afterword, "authority_change")
                    else ""
                ),
            }
            for afterword in afterwords
        ],
        phrases=[
            phrase["en"] if current_language() == "en" else phrase["ru"]
            for phrase in moderation_selectors.warm_phrases()
        ],
        partners=people,
        bot_partner=len(people) < len(partners),
        kudos_notes=kudos_notes,
        may_write_partner=may_write_partner,
        may_write_table=Afterword.To.TABLE not in written,
    )


def _action_name(action: dict[str, Any]) -> str:
    return {
        "draw": text("берёт из колоды", "draws from the stock"),
        "take_pile": text("берёт стопку", "takes the pile"),
        "meld": text("выкладывает", "melds"),
        "undo": text("возвращает как было", "undoes the turn"),
        "discard": text("сбрасывает", "discards"),
        "ask_to_go_out": text("спрашивает партнёра: можно выходить?", "asks: may I go out?"),
        "answer_go_out": text("отвечает: да", "answers: yes")
        if action.get("yes")
        else text("отвечает: нет", "answers: no"),
        "lay_down": text("выкладывает все карты", "lays down every card"),
        "pass": text("не выкладывается", "passes"),
    }.get(str(action.get("type")), str(action.get("type")))


def _cards_of(action: dict[str, Any]) -> list[str]:
    """The cards a move shows: the discard, or every card laid down or taken with the pile."""
    if action.get("type") == "discard":
        return [action["card"]]
    cards = list(action.get("cards", []))
    for meld in action.get("melds", []):
        cards.extend(meld["cards"])
    return cards


def replay_page(*, table: Table, step: int) -> dict[str, Any]:
    """A replay frame laid out for the page: each seat with its player and whole hand, and the
    teams named by their players as the table names them."""
    frame = game_selectors.replay_at(table=table, step=step)
    players = {player["seat"]: player for player in frame["players"]}
    teams = {player["seat"]: player["team"] for player in frame["players"]}
    team_names = [
        ", ".join(
            _player_name(player) for seat, player in sorted(players.items()) if teams[seat] == team
        )
        for team in range(len(frame["table"]["teams"]))
    ]
    move = frame["move"]
    return {
        **frame,
        "seats": [
            {
                "seat": seat,
                "player": players.get(seat),
                "team": teams.get(seat),
                # Named only where the team is more than this player.
                "team_name": team_names[teams[seat]]
                if list(teams.values()).count(teams.get(seat)) > 1
                else "",
                "hand": hand,
                "turn": seat == frame["table"]["turn"],
            }
            for seat, hand in enumerate(frame["hands"])
        ],
        "team_names": team_names,
        "team_players": [
            [player for seat, player in sorted(players.items()) if teams[seat] == team]
            for team in range(len(team_names))
        ],
        "move_player": players.get(move["seat"]) if move else None,
        "move_text": _action_name(move["action"]) if move else "",
        "move_cards": _cards_of(move["action"]) if move else [],
        "previous": max(0, frame["step"] - 1),
        "next": min(frame["total"], frame["step"] + 1),
    }


def _player_name(player: dict[str, Any]) -> str:
    return str(player["user"]["display_name"] or player["user"]["username"])


def replay_step_note(*, asked: str, shown: int, total: int) -> str:
    """What the replay shows when ?step= named no move of the game ("" when it did)."""
    try:
        number = int(asked)
    except ValueError:
        return text(
            f"«{asked}» — не номер хода: показано начало партии.",
            f"“{asked}” is not a move number: this is the start of the game.",
        )
    if number == shown:
        return ""
    if number < 0:
        return text(
            "Ходы считаются с 0: показано начало партии.",
            "Moves count from 0: this is the start of the game.",
        )
    moves = quantity(total, ("ход", "хода", "ходов"), ("move", "moves"))
    return text(
        f"Хода {number} нет, в партии {moves}: показан последний.",
        f"There is no move {number}, the game has {moves}: this is the last one.",
    )
