"""The one way the club writes a user-facing string: both languages side by side where it is
used, `text("Русский", "English")` in Python, `{% t "Русский" "English" %}` in templates
(web/templatetags/club.py), `text_lazy` for what is defined at import time (the labels of
model choices people see). No gettext, no .po/.mo files: a string and its translation are read
and changed together, and nothing needs a compile step to run.

The language is Django's active one, so it is decided where it always was: the API by
Accept-Language (LocaleMiddleware), the pages by the page's language (web.middleware), an email
or a push by its recipient's (`translation.override(user.language)` around the texts).
Django's own messages and those of third-party apps (password validators, DRF's errors) keep
their gettext catalogues; the club adds none.
"""

from django.utils.functional import lazy
from django.utils.translation import get_language


def current_language() -> str:
    """'en' when the active language is English, else 'ru' (the club default, also when no
    language is active, as in management commands)."""
    return "en" if (get_language() or "ru").startswith("en") else "ru"


def text(ru: str, en: str) -> str:
    return en if current_language() == "en" else ru


# text() evaluated when used, for labels defined at import time (TextChoices): `.label` and
# get_FOO_display() answer in the active language. Migrations hold the Russian label, as
# makemigrations and migrate run with no language active.
text_lazy = lazy(text, str)


def grouped(number: int, language: str | None = None) -> str:
    """A number as the language writes it, the one way every page does: "2,500", "10,000" in
    English; "2500", "10 000" in Russian (a no-break space groups five digits and more, as
    Russian typesetting does); below zero with a minus sign: "−195"."""
    if (language or current_language()) == "en":
        shown = f"{abs(number):,}"
    elif abs(number) < 10_000:
        shown = str(abs(number))
    else:
        shown = f"{abs(number):,}".replace(",", "\u00a0")
    # A minus sign, not a hyphen.
    return f"\u2212{shown}" if number < 0 else shown


def russian_form(number: int, one: str, few: str, many: str) -> str:
    """The noun's form after `number` in Russian: 1, 21 минута; 2-4, 22 минуты; 5-20, 11-14
    минут (the one rule for every place a number meets a noun)."""
    number = abs(number)
    if number % 10 == 1 and number % 100 != 11:
        return one
    if 2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14:
        return few
    return many


def quantity(number: int, ru: tuple[str, str, str], en: tuple[str, str]) -> str:
    """ "1 карта", "5 карт" / "1 card", "5 cards": a number with its noun in the page's language.

    `ru` holds the noun after 1, after 2 and after 5; `en` the singular and the plural."""
    if current_language() == "en":
        return f"{number} {en[0] if number == 1 else en[1]}"
    return f"{number} {russian_form(number, *ru)}"


# A span of time's units, largest first: (seconds, nominative forms, accusative forms, English).
_UNITS: tuple[tuple[int, tuple[str, str, str], tuple[str, str, str], tuple[str, str]], ...] = (
    (86400, ("день", "дня", "дней"), ("день", "дня", "дней"), ("day", "days")),
    (3600, ("час", "часа", "часов"), ("час", "часа", "часов"), ("hour", "hours")),
    (60, ("минута", "минуты", "минут"), ("минуту", "минуты", "минут"), ("minute", "minutes")),
)


def duration(seconds: float, *, accusative: bool = False) -> str:
    """A span of time in words, its two largest units: "1 день 3 часа", "5 минут" (under a
    minute: "меньше минуты").

    Russian needs the noun's case of the sentence: nominative ("в запасе 1 минута"), or
    accusative after "уже" ("уже 1 минуту")."""
    left = max(0, int(seconds))
    if left < 60:
        return text("меньше минуты", "under a minute")
    counts = []
    for size, *_forms in _UNITS:
        count, left = divmod(left, size)
        counts.append(count)
    first = next((index for index, count in enumerate(counts) if count), len(_UNITS) - 1)
    parts = []
    for index in range(first, min(first + 2, len(_UNITS))):
        if index > first and not counts[index]:
            break
        _size, nominative, accusative_forms, english = _UNITS[index]
        parts.append(
            quantity(counts[index], accusative_forms if accusative else nominative, english)
        )
    return " ".join(parts)
