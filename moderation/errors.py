"""Refusals shared by moderation's services and selectors (both languages: canasta_club.i18n)."""

from canasta_club import i18n
from canasta_club.errors import Forbidden, NotFound


def report_not_found() -> NotFound:
    return NotFound("not_found", i18n.text("Жалоба не найдена.", "Report not found."))


def not_a_player() -> Forbidden:
    return Forbidden(
        "not_a_player",
        i18n.text("Вы не играли за этим столом.", "You did not play at this table."),
    )
