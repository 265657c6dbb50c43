"""Template helpers: both languages in one tag, and the cards' faces."""

import json
from functools import cache

from django import template
from django.template.base import FilterExpression
from django.templatetags.static import static
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from club.i18n import current_language
from games.engine.cards import WILDS

register = template.Library()

_SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}
_RANK_NAMES = {"T": "10"}


class _BothLanguages(template.Node):
    """Renders `{% t %}` as a simple tag would (escaped; `as name` stores the text unescaped),
    asking for the active language once a template render (`page_language`): a table shows some
    forty such texts, and each question costs more than choosing."""

    def __init__(self, ru: FilterExpression, en: FilterExpression, target_var: str | None) -> None:
        self.ru, self.en, self.target_var = ru, en, target_var

    def render(self, context: template.Context) -> str:
        chosen = (self.en if page_language(context) == "en" else self.ru).resolve(context)
        if self.target_var is not None:
            context[self.target_var] = chosen
            return ""
        return conditional_escape(chosen) if context.autoescape else chosen


_LANGUAGE = "club:language"


def page_language(context: template.Context) -> str:
    """club.i18n.current_language, asked once a template render."""
    scope = context.render_context
    language = scope.get(_LANGUAGE)
    if language is None:
        language = scope[_LANGUAGE] = current_language()
    return str(language)


@register.tag
def t(parser: template.base.Parser, token: template.base.Token) -> _BothLanguages:
    """{% t "Русский" "English" %} (or `... as name`): the page's language, as
    club.i18n.text chooses it."""
    bits = token.split_contents()
    target_var = None
    if len(bits) == 5 and bits[3] == "as":
        target_var = bits[4]
        bits = bits[:3]
    if len(bits) != 3:
        raise template.TemplateSyntaxError(f"{bits[0]} takes the Russian and the English text")
    return _BothLanguages(
        parser.compile_filter(bits[1]), parser.compile_filter(bits[2]), target_var
    )


# The joker's short face in text: letters, which every font has (an emoji may draw as a box).
_JOKER_FACES = {"ru": "Дж", "en": "Jkr"}


@register.filter
def card_face(code: str) -> str:
    """'TH' -> '10♥', 'JK' -> 'Дж' (Jkr): what a card shows in a line of text."""
    if code == "JK":
        return _JOKER_FACES[current_language()]
    # U+FE0E asks for the suit's text form, never an emoji.
    return _RANK_NAMES.get(code[0], code[0]) + _SUITS[code[1]][0] + "\ufe0e"


@register.filter
def card_colour(code: str) -> str:
    return "joker" if code == "JK" else _SUITS[code[1]][1]


_SUIT_NAMES = {
    "ru": {"S": "пик", "H": "червей", "D": "бубён", "C": "треф"},
    "en": {"S": "of spades", "H": "of hearts", "D": "of diamonds", "C": "of clubs"},
}
_JOKER_NAMES = {"ru": "джокер", "en": "joker"}


@register.filter
def card_name(code: str) -> str:
    """A screen reader's name of the card, in the page's language."""
    return _card_name(code, current_language())


def _card_name(code: str, language: str) -> str:
    if code == "JK":
        return _JOKER_NAMES[language]
    return f"{_RANK_NAMES.get(code[0], code[0])} {_SUIT_NAMES[language][code[1]]}"


@register.simple_tag(takes_context=True)
def card(context: template.Context, code: str) -> str:
    """A card's face: what it shows, and its name for screen readers (a tag rather than an
    included template: a table shows some sixty cards)."""
    return _card_html(code, page_language(context))


# A card's markup depends only on its code and the language: made once for each (a table page
# shows some sixty cards; the deck has 54 faces).
@cache
def _card_html(code: str, language: str) -> str:
    name = _card_name(code, language)
    face = _JOKER_FACES[language] if code == "JK" else card_face(code)
    return format_html(
        '<span class="card-face {}" title="{}"><span aria-hidden="true">{}</span>'
        '<span class="sr-only">{}</span></span>',
        card_colour(code),
        name,
        face,
        name,
    )


@register.simple_tag(takes_context=True)
def cards(context: template.Context, codes: list[str]) -> str:
    """The faces of a row of cards (a meld's, the red threes): one tag for the whole row."""
    language = page_language(context)
    # Each face is made by format_html (escaped); joined, they stay safe.
    return mark_safe("".join(_card_html(code, language) for code in codes))


# The vendored deck's file of each card (web/static/web/vendor/playing-cards-0.5.0/NOTICE.md).
CARD_IMAGES = "web/vendor/playing-cards-0.5.0/"


@register.simple_tag(takes_context=True)
def card_image(context: template.Context, code: str) -> str:
    """A card drawn as a real card (the vendored SVG deck), named for screen readers."""
    return _card_image_html(code, page_language(context))


@cache
def _card_image_html(code: str, language: str) -> str:
    # The static URL is fixed for the life of a process (the manifest is read at start-up).
    return format_html(
        '<img class="card-img" src="{}" alt="{}" width="60" height="84" draggable="false">',
        static(f"{CARD_IMAGES}{'2J' if code == 'JK' else code}.svg"),
        _card_name(code, language),
    )


@register.simple_tag(takes_context=True)
def meld_cards(context: template.Context, codes: list[str]) -> str:
    """A meld's cards drawn as cards, one `[data-card]` element each (CONTRACT §4), wild cards
    marked: the table fans them."""
    language = page_language(context)
    return mark_safe("".join(_meld_card_html(code, language) for code in codes))


_WILD_WORDS = {"ru": "дикая", "en": "wild"}


@cache
def _meld_card_html(code: str, language: str) -> str:
    if code not in WILDS:
        return format_html(
            '<span class="meld-card" data-card="{}">{}</span>',
            code,
            _card_image_html(code, language),
        )
    return format_html(
        '<span class="meld-card meld-card--wild" data-card="{}" data-wild>{}'
        '<span class="wild-mark" aria-hidden="true">W</span>'
        '<span class="sr-only">({})</span></span>',
        code,
        _card_image_html(code, language),
        _WILD_WORDS[language],
    )


@register.filter
def at(items: list[object], index: int) -> object:
    """`{{ names|at:forloop.counter0 }}`: the item at `index` (the score table's team names)."""
    return items[index]


@register.filter
def as_json(value: object) -> str:
    """An action as the page posts it (a `data-move` attribute; the template escapes it)."""
    return json.dumps(value, separators=(",", ":"))
