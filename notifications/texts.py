"""Notification texts in both languages (no .po compile step; the caller picks the language)."""

from typing import Any

from django.conf import settings

TITLES: dict[str, dict[str, str]] = {
    "game_started": {"ru": "Игра №{game} началась", "en": "Game #{game} has started"},
    "your_turn": {"ru": "Ваш ход в игре №{game}", "en": "Your turn in game #{game}"},
    "partner_asks": {
        "ru": "Партнёр спрашивает в игре №{game}: можно выходить?",
        "en": "Your partner asks in game #{game}: may I go out?",
    },
    "turn_reminder": {
        "ru": "Время хода в игре №{game} скоро истечёт",
        "en": "Your turn in game #{game} is running out",
    },
    "autoplayed": {
        "ru": "Клуб сходил за вас в игре №{game}",
        "en": "The club played your turn in game #{game}",
    },
    "auto_vacation": {
        "ru": "Время хода в игре №{game} истекло: клуб тратит ваши дни отпуска",
        "en": "Your turn in game #{game} ran out: the club is spending your vacation days",
    },
    "pause_asked": {
        "ru": "В игре №{game} просят паузу",
        "en": "A pause is asked in game #{game}",
    },
    "game_finished": {"ru": "Игра №{game} окончена", "en": "Game #{game} is over"},
    "kudos_received": {"ru": "Вам сказали тёплые слова", "en": "You received warm words"},
    "report_answered": {"ru": "На вашу жалобу ответили", "en": "Your report was answered"},
    "report_due_soon": {
        "ru": "Жалоба ждёт ответа: срок скоро истечёт",
        "en": "A report is waiting: its deadline is near",
    },
    "report_breached": {
        "ru": "Срок ответа на жалобу истёк",
        "en": "A report's answer deadline has passed",
    },
    "sanction": {"ru": "Модератор наложил ограничение", "en": "A moderator applied a sanction"},
}

SCORE_LINE = {"ru": "Счёт: {scores}", "en": "Score: {scores}"}
DIGEST_SUBJECT = {
    "ru": "Canasta Club: что произошло за день ({count})",
    "en": "Canasta Club: what you missed today ({count})",
}
LINK_LINE = {"ru": "Открыть игру: {url}", "en": "Open the game: {url}"}


def pick_language(language: str | None) -> str:
    return language if language in ("ru", "en") else settings.LANGUAGE_CODE


def title(*, kind: str, game_id: int | None, language: str) -> str:
    return TITLES[kind][pick_language(language)].format(game=game_id or "")


def _details(payload: dict[str, Any], language: str) -> list[str]:
    """The score of a finished game and a message's text, when the payload has them."""
    lines = []
    if "scores" in payload:
        scores = " : ".join(str(score) for score in payload["scores"])
        lines.append(SCORE_LINE[language].format(scores=scores))
    if payload.get("text"):
        lines.append(str(payload["text"]))
    return lines


def body(*, kind: str, game_id: int | None, payload: dict[str, Any], language: str) -> str:
    """The title plus the score (finished games) and a link to the game."""
    language = pick_language(language)
    lines = [title(kind=kind, game_id=game_id, language=language), *_details(payload, language)]
    if game_id is not None:
        lines.append(LINK_LINE[language].format(url=f"{settings.SITE_URL}/api/games/{game_id}/"))
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
        "url": f"/games/{game_id}/" if game_id is not None else "/notifications/",
        "tag": tag,
    }
