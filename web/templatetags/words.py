"""Numbers, alone and with their nouns, in the page's language (club.i18n.grouped,
quantity, duration): `{% number n %}`, `{% quantity n "карта" "карты" "карт" "card" "cards" %}`,
`{{ deadline|time_left:now }}`, `{{ started|time_since:now }}`."""

from datetime import datetime

from django import template

from club.i18n import duration, grouped
from club.i18n import quantity as quantity_of
from web.templatetags.club import page_language

register = template.Library()


@register.simple_tag
def quantity(number: int, one: str, few: str, many: str, en_one: str, en_many: str) -> str:
    """ "1 карта", "3 карты", "11 карт" / "1 card", "11 cards"."""
    return quantity_of(int(number), (one, few, many), (en_one, en_many))


@register.simple_tag(takes_context=True)
def number(context: template.Context, value: int) -> str:
    """ "2,500" / "2500", "10,000" / "10 000": a score or a target as the page's language
    writes numbers (the language asked once a render)."""
    return grouped(int(value), page_language(context))


@register.filter
def time_left(moment: datetime | None, now: datetime) -> str:
    """From `now` (the club's clock, read once for the page) until `moment`, nominative:
    "3 часа 5 минут" (as after "в запасе")."""
    return duration((moment - now).total_seconds()) if moment else ""


@register.filter
def time_since(moment: datetime | None, now: datetime) -> str:
    """From `moment` until `now`, accusative: "1 минуту" (as after "уже")."""
    return duration((now - moment).total_seconds(), accusative=True) if moment else ""


@register.simple_tag
def noun(number: int, one: str, few: str, many: str, en_one: str, en_many: str) -> str:
    """The noun alone, for a number shown in its own element: `<span data-…>11</span> карт`."""
    return quantity_of(int(number), (one, few, many), (en_one, en_many)).split(" ", 1)[1]
