"""User-facing messages that carry both languages (no .po compile step is available)."""

from django.utils.translation import get_language


def current_language() -> str:
    """'en' when the request asked for English (Accept-Language), else 'ru' (the club default)."""
    return "en" if (get_language() or "ru").startswith("en") else "ru"


def text(ru: str, en: str) -> str:
    return en if current_language() == "en" else ru


def ru_plural(count: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after `count`: 1 карта, 2 карты, 5 карт, 21 карта, 11 карт."""
    tens, units = count % 100, count % 10
    if units == 1 and tens != 11:
        return one
    if 2 <= units <= 4 and not 12 <= tens <= 14:
        return few
    return many
