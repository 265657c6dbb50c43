"""Strict parsing of the contract's action forms (CONTRACT §2, "Actions")."""

from typing import Any

from .cards import ALL_CODES, MELD_RANKS
from .errors import IllegalMove

Action = dict[str, Any]

# Actions that need no building; shared, so callers must not change an action they are given.
DRAW: Action = {"type": "draw"}
UNDO: Action = {"type": "undo"}
DISCARDS: dict[str, Action] = {code: {"type": "discard", "card": code} for code in ALL_CODES}

# A meld entry after parsing: (the rank named by the client, or the index of the team's meld it
# names with "meld" (CONTRACT §2, issue 24), or None; cards).
Entry = tuple[str | int | None, list[str]]

_MAX_CARDS = 108


def _bad(what: str, what_en: str) -> IllegalMove:
    return IllegalMove("bad_action", f"Непонятный ход: {what}.", f"Not a valid action: {what_en}.")


def parse_card(value: object) -> str:
    if not isinstance(value, str):
        raise _bad("карта должна быть строкой вроде «KH»", 'a card is a string like "KH"')
    if value not in ALL_CODES:
        raise IllegalMove(
            "unknown_card",
            f"Такой карты нет: {value[:8]!r}.",
            f"There is no such card: {value[:8]!r}.",
        )
    return value


def parse_cards(value: object, *, allow_empty: bool) -> list[str]:
    if not isinstance(value, list) or len(value) > _MAX_CARDS:
        raise _bad("«cards» должен быть списком карт", '"cards" must be a list of cards')
    if not value and not allow_empty:
        raise _bad("список карт пуст", "the list of cards is empty")
    try:
        if ALL_CODES.issuperset(value):  # every item a card code: nothing to say of any one
            return list(value)
    except TypeError:  # an unhashable item: parse_card says what is wrong
        pass
    return [parse_card(card) for card in value]


def parse_melds(value: object, *, allow_empty: bool) -> list[Entry]:
    if not isinstance(value, list) or len(value) > _MAX_CARDS:
        raise _bad("«melds» должен быть списком комбинаций", '"melds" must be a list of melds')
    if not value and not allow_empty:
        raise _bad("нет ни одной комбинации", "no meld given")
    entries: list[Entry] = []
    for item in value:
        if not isinstance(item, dict) or "cards" not in item or not set(item) <= _ENTRY_KEYS:
            raise _bad(
                'комбинация — это {"cards": [...], "rank": ...}',
                'a meld is {"cards": [...], "rank": ...}',
            )
        rank = item.get("rank")
        if rank is not None and (not isinstance(rank, str) or rank not in MELD_RANKS):
            raise _bad("«rank» — достоинство вроде «K»", '"rank" is a rank like "K"')
        hint: str | int | None = rank
        if "meld" in item:
            if rank is not None:
                raise _bad("«rank» или «meld», не оба", '"rank" or "meld", not both')
            hint = parse_meld_index(item["meld"])
        entries.append((hint, parse_cards(item["cards"], allow_empty=False)))
    return entries


_ENTRY_KEYS = frozenset(("cards", "rank", "meld"))


def parse_meld_index(value: object) -> int:
    """`"meld": i`: the index of one of the team's melds in the view (CONTRACT §2)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _MAX_CARDS:
        raise _bad("«meld» — номер комбинации команды", '"meld" is the number of a team meld')
    return value


# Actions that are their type alone.
_BARE = ("draw", "undo", "ask_to_go_out", "pass", "acaba", "ask_acaba")


def parse_action(action: Any) -> tuple[str, Any]:
    """Returns (type, payload) or raises IllegalMove("bad_action" | "unknown_card")."""
    if not isinstance(action, dict):
        raise _bad("ход — это объект с полем «type»", 'an action is an object with a "type"')
    kind = action.get("type")
    size = len(action)
    if kind == "discard" and size == 2 and "card" in action:
        return kind, parse_card(action["card"])
    if kind in _BARE and size == 1:
        return kind, None
    if kind == "meld" and size == 2 and "melds" in action:
        return kind, parse_melds(action["melds"], allow_empty=False)
    if (
        kind == "take_pile"
        and "cards" in action
        and size - 2 == ("melds" in action) + ("meld" in action)
    ):
        cards = parse_cards(action["cards"], allow_empty=True)
        melds = parse_melds(action.get("melds", []), allow_empty=True)
        target = parse_meld_index(action["meld"]) if "meld" in action else None
        return kind, (cards, melds, target)
    if kind == "answer_go_out" and size == 2 and isinstance(action.get("yes"), bool):
        return kind, action["yes"]
    if kind == "lay_down" and size == 2 and "melds" in action:
        return kind, parse_melds(action["melds"], allow_empty=False)
    raise _bad(
        "ожидается draw, take_pile, meld, undo или discard в форме из описания API",
        "expected draw, take_pile, meld, undo or discard in the documented form",
    )
