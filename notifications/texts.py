"""Notification texts in both languages, (ru, en) as text() takes them, in the recipient's
language (the caller names it: a task or a drain has no request, and a message may go to
someone whose language is not the active one)."""

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import translation

from club.i18n import text

TITLES: dict[str, tuple[str, str]] = {
    "game_started": ("Игра №{game} началась", "Game #{game} has started"),
    "your_turn": ("Ваш ход в игре №{game}", "Your turn in game #{game}"),
    "partner_asks": (
        "Партнёр спрашивает в игре №{game}: можно выходить?",
        "Your partner asks in game #{game}: may I go out?",
    ),
    "turn_reminder": (
        "Время хода в игре №{game} скоро истечёт",
        "Your turn in game #{game} is running out",
    ),
    "autoplayed": (
        "Клуб сходил за вас в игре №{game}",
        "The club played your turn in game #{game}",
    ),
    "auto_vacation": (
        "Время хода в игре №{game} истекло: клуб тратит ваши дни отпуска",
        "Your turn in game #{game} ran out: the club is spending your vacation days",
    ),
    "pause_asked": ("В игре №{game} просят паузу", "A pause is asked in game #{game}"),
    "game_finished": ("Игра №{game} окончена", "Game #{game} is over"),
    "invitation": ("Вас приглашают за стол №{game}", "You are invited to table #{game}"),
    "tournament_round": (
        "Начался тур турнира: ваша игра №{game}",
        "A tournament round has begun: your game #{game}",
    ),
    "tournament_bye": (
        "Вы пропускаете тур турнира: он засчитан как победа",
        "You sit this tournament round out: it counts as a win",
    ),
    "kudos_received": ("Вам сказали тёплые слова", "You received warm words"),
    "report_answered": ("На вашу жалобу ответили", "Your report was answered"),
    "report_due_soon": (
        "Жалоба ждёт ответа: срок скоро истечёт",
        "A report is waiting: its deadline is near",
    ),
    "report_breached": ("Срок ответа на жалобу истёк", "A report's answer deadline has passed"),
    "sanction": ("Модератор наложил ограничение", "A moderator applied a sanction"),
}

SCORE_LINE = ("Счёт: {scores}", "Score: {scores}")
INVITED_BY_LINE = (
    "Приглашает {name}. Место ждёт вас до {until} UTC.",
    "{name} invites you. The seat waits for you until {until} UTC.",
)
DIGEST_SUBJECT = (
    "Canasta Club: что произошло за день ({count})",
    "Canasta Club: what you missed today ({count})",
)
LINK_LINE = ("Открыть игру: {url}", "Open the game: {url}")
TOURNAMENT_LINK_LINE = ("Страница турнира: {url}", "The tournament's page: {url}")


def pick_language(language: str | None) -> str:
    return language if language in ("ru", "en") else settings.LANGUAGE_CODE


def in_language(language: str, ru: str, en: str) -> str:
    """text(ru, en) in the given language (one of the club's)."""
    with translation.override(language):
        return text(ru, en)


def page_path(*, game_id: int | None, payload: dict[str, Any]) -> str | None:
    """The page a notification opens: its game's table, else its tournament's page (a bye has
    no game), else none."""
    if game_id is not None:
        return f"/games/{game_id}/"
    if payload.get("tournament"):
        return f"/tournaments/{int(payload['tournament'])}/"
    return None


def title(*, kind: str, game_id: int | None, language: str) -> str:
    return in_language(pick_language(language), *TITLES[kind]).format(game=game_id or "")


def _details(payload: dict[str, Any], language: str) -> list[str]:
    """The score of a finished game, who invites and until when, and a message's text, when
    the payload has them."""
    lines = []
    if "inviter_name" in payload:
        until = datetime.fromisoformat(payload["expires_at"]).strftime("%Y-%m-%d %H:%M")
        lines.append(
            in_language(language, *INVITED_BY_LINE).format(
                name=payload["inviter_name"], until=until
            )
        )
    if "scores" in payload:
        scores = " : ".join(str(score) for score in payload["scores"])
        lines.append(in_language(language, *SCORE_LINE).format(scores=scores))
    if payload.get("text"):
        lines.append(str(payload["text"]))
    return lines


def body(*, kind: str, game_id: int | None, payload: dict[str, Any], language: str) -> str:
    """The title plus the score (finished games) and a link to the game (or the tournament)."""
    language = pick_language(language)
    lines = [title(kind=kind, game_id=game_id, language=language), *_details(payload, language)]
    if game_id is not None:
        link = f"{settings.SITE_URL}/api/games/{game_id}/"
        lines.append(in_language(language, *LINK_LINE).format(url=link))
    elif (path := page_path(game_id=None, payload=payload)) is not None:
        link = f"{settings.SITE_URL}{path}"
        lines.append(in_language(language, *TOURNAMENT_LINK_LINE).format(url=link))
    return "\n".join(lines)


def push_payload(
    *, kind: str, game_id: int | None, payload: dict[str, Any], language: str, tag: str
) -> dict[str, Any]:
    """What the service worker shows: title, body, the page a click opens, and a tag that makes
    a repeated push replace the notification instead of adding a second one."""
    language = pick_language(language)
    return {
        "title": title(kind=kind, game_id=game_id, language=language),
        "body": "\n".join(_details(payload, language)),
        "url": page_path(game_id=game_id, payload=payload) or "/notifications/",
        "tag": tag,
    }
