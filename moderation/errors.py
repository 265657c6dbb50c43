"""Refusals shared by moderation's services and selectors (both languages: canasta_club.i18n)."""

from rest_framework import status

from canasta_club import i18n
from canasta_club.errors import ApiError


def game_not_found() -> ApiError:
    return ApiError(
        "not_found", i18n.text("Игра не найдена.", "Game not found."), status.HTTP_404_NOT_FOUND
    )


def report_not_found() -> ApiError:
    return ApiError(
        "not_found", i18n.text("Жалоба не найдена.", "Report not found."), status.HTTP_404_NOT_FOUND
    )


def not_a_player() -> ApiError:
    return ApiError(
        "not_a_player",
        i18n.text("Вы не играли за этим столом.", "You did not play at this table."),
        status.HTTP_403_FORBIDDEN,
    )
