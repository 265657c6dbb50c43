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


def parse_card(value: object) -> str:
    if not isinstance(value, str):
        raise IllegalMove("bad_action", "card_form")
    if value not in ALL_CODES:
        raise IllegalMove("unknown_card", "card", card=value[:8])
    return value


def parse_cards(value: object, *, allow_empty: bool) -> list[str]:
    if not isinstance(value, list) or len(value) > _MAX_CARDS:
        raise IllegalMove("bad_action", "cards_form")
    if not value and not allow_empty:
        raise IllegalMove("bad_action", "no_cards")
    try:
        if ALL_CODES.issuperset(value):  # every item a card code: nothing to say of any one
            return list(value)
    except TypeError:  # an unhashable item: parse_card says what is wrong
        pass
    return [parse_card(card) for card in value]


def parse_melds(value: object, *, allow_empty: bool) -> list[Entry]:
    if not isinstance(value, list) or len(value) > _MAX_CARDS:
        raise IllegalMove("bad_action", "melds_form")
    if not value and not allow_empty:
        raise IllegalMove("bad_action", "no_melds")
    entries: list[Entry] = []
    for item in value:
        if not isinstance(item, dict) or "cards" not in item or not set(item) <= _ENTRY_KEYS:
            raise IllegalMove("bad_action", "meld_form")
        rank = item.get("rank")
        if rank is not None and (not isinstance(rank, str) or rank not in MELD_RANKS):
            raise IllegalMove("bad_action", "rank_form")
        hint: str | int | None = rank
        if "meld" in item:
            if rank is not None:
                raise IllegalMove("bad_action", "rank_or_meld")
            hint = parse_meld_index(item["meld"])
        entries.append((hint, parse_cards(item["cards"], allow_empty=False)))
    return entries


_ENTRY_KEYS = frozenset(("cards", "rank", "meld"))


def parse_meld_index(value: object) -> int:
    """`"meld": i`: the index of one of the team's melds in the view (CONTRACT §2)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _MAX_CARDS:
        raise IllegalMove("bad_action", "meld_index")
    return value


# Actions that are their type alone.
_BARE = ("draw", "undo", "ask_to_go_out", "pass", "acaba", "ask_acaba")


def parse_action(action: Any) -> tuple[str, Any]:
    """Returns (type, payload) or raises IllegalMove("bad_action" | "unknown_card")."""
    if not isinstance(action, dict):
        raise IllegalMove("bad_action", "action_form")
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
    raise IllegalMove("bad_action", "unknown_action")
