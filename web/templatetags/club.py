"""Template helpers: both languages in one tag, and the cards' faces."""

from django import template

from canasta_club.i18n import text

register = template.Library()

_SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}
_RANK_NAMES = {"T": "10"}


@register.simple_tag
def t(ru: str, en: str) -> str:
    """{% t "Русский" "English" %}: the page's language (canasta_club.i18n.text)."""
    return text(ru, en)


@register.filter
def card_face(code: str) -> str:
    """'TH' -> '10♥', 'JK' -> '🃏': what a card shows."""
    if code == "JK":
        return "🃏"
    return _RANK_NAMES.get(code[0], code[0]) + _SUITS[code[1]][0]


@register.filter
def card_colour(code: str) -> str:
    return "joker" if code == "JK" else _SUITS[code[1]][1]


@register.filter
def card_name(code: str) -> str:
    """A screen reader's name of the card, in the page's language."""
    if code == "JK":
        return text("джокер", "joker")
    suits = {
        "S": text("пик", "of spades"),
        "H": text("червей", "of hearts"),
        "D": text("бубён", "of diamonds"),
        "C": text("треф", "of clubs"),
    }
    return f"{_RANK_NAMES.get(code[0], code[0])} {suits[code[1]]}"
