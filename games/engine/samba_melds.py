"""Melding in Samba and Bolivia (R-SAMBA-GROUP/SEQ/ENTRY/UNDO/OUT, R-BOL-WILD): checking entries
against the side's melds, addressed by index, and laying them."""

from typing import Any

from .actions import Entry
from .cards import RED_THREES, SUITS, VALUE, WILDS
from .errors import IllegalMove
from .house import go_out
from .melds import check_black_threes, lay, missing_canastas, require_in_hand
from .opening import below_minimum
from .sequences import (
    BLACK_THREES_MELD,
    CLOSED_AT,
    GROUP_WILDS,
    WILD_MELD,
    enough_to_go_out,
    new_key,
    run_of,
)
from .state import DealState, Event

# A checked entry: (the key of the meld it goes to, its cards).
Resolved = list[tuple[str, list[str]]]


def _closed() -> IllegalMove:
    return IllegalMove("meld_closed", "samba_or_bolivia")


def _not_a_run() -> IllegalMove:
    return IllegalMove("mixed_ranks", "not_a_run")


def _wild_in_sequence() -> IllegalMove:
    return IllegalMove("too_many_wilds", "wild_in_sequence")


def _group_wilds() -> IllegalMove:
    return IllegalMove("too_many_wilds", "group_wilds")


def check_sequence_entries(
    state: DealState, team: int, entries: list[Entry], sim: dict[str, list[str]]
) -> tuple[Resolved, int, bool]:
    """Checks entries in order against the side's melds; `sim` gets each touched meld's cards
    afterwards. Returns the entries with their melds' keys, the card points they add and
    whether black threes are among them."""
    melds = state.melds[team]
    keys: list[str] | None = None  # listed when an entry names a meld by its index
    place = len(melds)  # where the next new meld will stand
    bolivia = state.rules.game == "bolivia"
    resolved: Resolved = []
    points = 0
    black = False
    for hint, cards in entries:
        wilds = blacks = 0
        naturals: list[str] = []
        for card in cards:
            if card in WILDS:
                wilds += 1
            elif card[0] == "3":
                if card in RED_THREES:
                    raise IllegalMove("threes_not_allowed", "red_three")
                blacks += 1
            else:
                naturals.append(card)
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
            key = _new_meld(hint, cards, naturals, wilds, blacks, bolivia)
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
            raise _wild_in_sequence()
        if len(current) >= CLOSED_AT:
            raise _closed()
        if run_of(after) is None:
            raise _not_a_run()
        if len(after) > CLOSED_AT:
            raise _closed()
        return after
    if first == WILD_MELD:
        if naturals:
            raise _not_a_run()
        if len(after) > CLOSED_AT:
            raise _closed()
        return after
    if any(card[0] != first for card in naturals):
        raise IllegalMove("mixed_ranks")
    if wilds and (len(current) >= CLOSED_AT or _wild_count(after) > GROUP_WILDS):
        raise _group_wilds()
    return after


def _new_meld(
    hint: str | None, cards: list[str], naturals: list[str], wilds: int, blacks: int, bolivia: bool
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
        if hint is not None or not bolivia:  # R-MELD-3; R-BOL-WILD
            raise IllegalMove("wild_only", "name_meld")
        if len(cards) < 3:
            raise IllegalMove("meld_too_small")
        if len(cards) > CLOSED_AT:
            raise _closed()
        return WILD_MELD
    if len(cards) < 3:
        raise IllegalMove("meld_too_small")
    rank = naturals[0][0]
    if all(card[0] == rank for card in naturals):  # a group
        if hint is not None and hint != rank:
            raise IllegalMove("mixed_ranks")
        if wilds > GROUP_WILDS or len(naturals) < 2:
            raise _group_wilds()
        return rank
    if hint is not None:
        raise _not_a_run()
    if wilds:
        raise _wild_in_sequence()
    if run_of(cards) is None:
        raise _not_a_run()
    if len(cards) > CLOSED_AT:
        raise _closed()
    return cards[0][1]


def _wild_count(cards: list[str]) -> int:
    return sum(1 for card in cards if card in WILDS)


def missing_sequence_canastas(state: DealState, code: str) -> IllegalMove:
    """R-SAMBA-OUT / R-BOL-OUT: a refusal for want of the canastas going out needs."""
    if state.rules.game != "bolivia":
        return missing_canastas(state, code)
    return IllegalMove(code, "escalera")


def sequence_meld(state: DealState, seat: int, entries: list[Entry], commit: bool) -> Event:
    """`meld` in Samba and Bolivia (R-SAMBA-ENTRY; R-OPEN-2/3, R-OUT-1/2 as the club's)."""
    if state.phase != "play":
        raise IllegalMove("wrong_phase", "meld_before_draw")
    team = state.seating.team_of(seat)
    hand = state.hands[seat]
    used = entries[0][1] if len(entries) == 1 else [c for _, cards in entries for c in cards]
    require_in_hand(hand, used)
    sim: dict[str, list[str]] = {}
    resolved, points, black = check_sequence_entries(state, team, entries, sim)
    left = len(hand) - len(used)
    # The canastas matter only going out, or close to it (R-OUT-2, R-MELD-4).
    canasta = (black or left < 2) and enough_to_go_out(state, team, sim)
    if black:
        if left > 1:
            check_black_threes(state, left, canasta)
        elif not canasta:
            raise missing_sequence_canastas(state, "no_canasta")
    if not canasta and left < 2:  # R-OUT-2
        raise missing_sequence_canastas(state, "must_keep_card")
    opened = state.opened[team]
    total = state.points + points
    minimum = state.minimums[team]
    if not opened and total < minimum:
        if left == 0:
            raise below_minimum(total, minimum)
        if state.undo_used:  # R-SAMBA-UNDO
            raise IllegalMove("minimum_unreachable", "after_undo", points=total, minimum=minimum)
    if not commit:
        return {}
    for card in used:
        hand.remove(card)
    lay(state, team, resolved)
    state.points = total
    if not opened and total >= minimum:
        state.opened[team] = True
        state.opened_now = True
    if left == 0:  # R-OUT-1: melded the whole hand
        go_out(state, seat)
    return {
        "public": {
            "type": "meld",
            "seat": seat,
            "melds": sequence_meld_events(state, team, resolved),
            "opened": state.opened[team],
            "deal_over": state.phase == "over",
        },
        "private": {},
    }


def sequence_meld_events(state: DealState, team: int, resolved: Resolved) -> list[dict[str, Any]]:
    """The melds of an event: each entry's meld by its index in the view, with its rank (a
    sequence: its suit)."""
    keys = list(state.melds[team])
    events: list[dict[str, Any]] = []
    for key, cards in resolved:
        named = {"suit": key[0]} if key[0] in SUITS else {"rank": key[0]}
        events.append({"meld": keys.index(key), **named, "cards": list(cards)})
    return events
