"""User-facing messages that carry both languages (no .po compile step is available)."""

from django.utils.translation import get_language


def current_language() -> str:
    """'en' when the request asked for English (Accept-Language), else 'ru' (the club default)."""
    return "en" if (get_language() or "ru").startswith("en") else "ru"


def text(ru: str, en: str) -> str:
    return en if current_language() == "en" else ru
