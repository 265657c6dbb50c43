"""Melds in Samba and Bolivia (R-SAMBA-GROUP/SEQ/ENTRY, R-BOL-WILD): checking entries against
the side's melds, addressed by index, and the melds of an event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import Entry
from ...cards import SUITS, VALUE, WILDS
from ...errors import IllegalMove
from ...melds import split_entry
from ...state import DealState
from ...variant import Resolved
from .sequences import BLACK_THREES_MELD, CLOSED_AT, GROUP_WILDS, WILD_MELD, new_key, run_of

if TYPE_CHECKING:
    from . import Samba


def check_sequence_entries(
    game: Samba, state: DealState, team: int, entries: list[Entry], sim: dict[str, list[str]]
) -> tuple[Resolved, int, bool]:
    """`game.check_entries`: checks entries in order against the side's melds; `sim` gets each
    touched meld's cards afterwards. Returns the entries with their melds' keys, the card
    points they add and whether black threes are among them."""
    melds = state.melds[team]
    keys: list[str] | None = None  # listed when an entry names a meld by its index
    place = len(melds)  # where the next new meld will stand
    resolved: Resolved = []
    points = 0
    black = False
    for hint, cards in entries:
        naturals, wilds, blacks = split_entry(cards)
        if isinstance(hint, int):
            if keys is None:
                keys = list(melds)
            if hint >= len(keys):
                raise IllegalMove("bad_action", "no_meld", number=hint)
            key = keys[hint]
            current = sim.get(key) or melds[key]
            if blacks or key[0] == BLACK_THREES_MELD:
                raise IllegalMove("threes_not_allowed")
            sim[key] = _added(key, current, cards, naturals, wilds)
        else:
            key = _new_meld(hint, cards, naturals, wilds, blacks, game.wild_melds)
            if key == BLACK_THREES_MELD:
                if any(other[0] == BLACK_THREES_MELD for other in (*melds, *sim)):
                    raise IllegalMove("threes_not_allowed")
                black = True
            key = new_key(key, place)
            place += 1
            sim[key] = list(cards)
        points += sum(map(VALUE.__getitem__, cards))
        resolved.append((key, cards))
    return resolved, points, black


def _added(
    key: str, current: list[str], cards: list[str], naturals: list[str], wilds: int
) -> list[str]:
    """The meld `key` after `cards` join it (R-SAMBA-GROUP/SEQ, R-BOL-WILD)."""
    first = key[0]
    after = [*current, *cards]
    if first in SUITS:
        if wilds:
            raise IllegalMove("too_many_wilds", "wild_in_sequence")
        if len(current) >= CLOSED_AT:
            raise IllegalMove("meld_closed", "samba_or_bolivia")
        if run_of(after) is None:
            raise IllegalMove("mixed_ranks", "not_a_run")
        if len(after) > CLOSED_AT:
            raise IllegalMove("meld_closed", "samba_or_bolivia")
        return after
    if first == WILD_MELD:
        if naturals:
            raise IllegalMove("mixed_ranks", "not_a_run")
        if len(after) > CLOSED_AT:
            raise IllegalMove("meld_closed", "samba_or_bolivia")
        return after
    if any(card[0] != first for card in naturals):
        raise IllegalMove("mixed_ranks")
    if wilds and (len(current) >= CLOSED_AT or _wild_count(after) > GROUP_WILDS):
        raise IllegalMove("too_many_wilds", "group_wilds")
    return after


def _new_meld(
    hint: str | None,
    cards: list[str],
    naturals: list[str],
    wilds: int,
    blacks: int,
    wild_melds: bool,
) -> str:
    """What a new meld of `cards` is (the first character of its key), or why it is none."""
    if blacks:  # R-MELD-4: three or more black threes, alone, while going out
        if naturals or wilds or hint not in (None, "3"):
            raise IllegalMove("threes_not_allowed", "black_threes_alone")
        if blacks < 3:
            raise IllegalMove("meld_too_small")
        return BLACK_THREES_MELD
    if hint == "3":
        raise IllegalMove("threes_not_allowed")
    if not naturals:
        if hint is not None or not wild_melds:  # R-MELD-3; R-BOL-WILD
            raise IllegalMove("wild_only", "name_meld")
        if len(cards) < 3:
            raise IllegalMove("meld_too_small")
        if len(cards) > CLOSED_AT:
            raise IllegalMove("meld_closed", "samba_or_bolivia")
        return WILD_MELD
    if len(cards) < 3:
        raise IllegalMove("meld_too_small")
    rank = naturals[0][0]
    if all(card[0] == rank for card in naturals):  # a group
        if hint is not None and hint != rank:
            raise IllegalMove("mixed_ranks")
        if wilds > GROUP_WILDS or len(naturals) < 2:
            raise IllegalMove("too_many_wilds", "group_wilds")
        return rank
    if hint is not None:
        raise IllegalMove("mixed_ranks", "not_a_run")
    if wilds:
        raise IllegalMove("too_many_wilds", "wild_in_sequence")
    if run_of(cards) is None:
        raise IllegalMove("mixed_ranks", "not_a_run")
    if len(cards) > CLOSED_AT:
        raise IllegalMove("meld_closed", "samba_or_bolivia")
    return cards[0][1]


def _wild_count(cards: list[str]) -> int:
    return sum(1 for card in cards if card in WILDS)


def sequence_meld_events(state: DealState, team: int, resolved: Resolved) -> list[dict[str, Any]]:
    """The melds of an event: each entry's meld by its index in the view, with its rank (a
    sequence: its suit)."""
    keys = list(state.melds[team])
    events: list[dict[str, Any]] = []
    for key, cards in resolved:
        named = {"suit": key[0]} if key[0] in SUITS else {"rank": key[0]}
        events.append({"meld": keys.index(key), **named, "cards": list(cards)})
    return events
