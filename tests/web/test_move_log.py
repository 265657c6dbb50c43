"""The table's move log (issue 19, point 5): a turn is one entry, each card is said to join a
named meld or start one, and going out is named; the engine's events carry what it needs."""

from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import Deal, Rules
from tests.engine.decks import new_deal
from web.table.move_log import LoggedTurn, logged_turns

# Seat 0 (first to play) draws the joker and goes out at once: seven kings, the queen pair with
# 2C, the joker on the kings, 4D discarded (tests/engine/test_rules_house.py's GOER).
GOER = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "2C", "4D"]
PLAYERS = {
    seat: {"seat": seat, "user": {"id": 10 + seat, "display_name": name, "username": name}}
    for seat, name in enumerate(["Анна", "Бот", "Вера", "Глеб"])
}


def going_out_turn() -> tuple[Deal, list[dict[str, Any]]]:
    deal = new_deal(rules=Rules(), hands={0: GOER}, stock=["JK"])
    moves = []
    actions = [
        {"type": "draw"},
        {"type": "meld", "melds": [{"cards": GOER[:7]}]},
        {"type": "meld", "melds": [{"cards": ["QS", "QH", "2C"]}, {"rank": "K", "cards": ["JK"]}]},
        {"type": "discard", "card": "4D"},
    ]
    for seq, action in enumerate(actions, start=1):
        event = deal.apply(0, action)
        moves.append(
            {
                "seq": seq,
                "deal_number": 1,
                "seat": 0,
                "action": action,
                "automatic": False,
                "public": event["public"],
            }
        )
    return deal, moves


def test_the_engine_says_which_entries_start_a_meld_and_who_went_out() -> None:
    deal, moves = going_out_turn()
    melded, more, out = (move["public"] for move in moves[1:])
    assert melded["melds"] == [{"rank": "K", "cards": GOER[:7], "new": True}]
    assert more["melds"] == [
        {"rank": "Q", "cards": ["QS", "QH", "2C"], "new": True},
        {"rank": "K", "cards": ["JK"], "new": False},
    ]
    assert (melded["went_out"], more["went_out"], out["went_out"]) == (False, False, True)
    assert deal.phase == "over"


def the_other_seat_discards(seq: int) -> dict[str, Any]:
    return {
        "seq": seq,
        "deal_number": 1,
        "seat": 1,
        "action": {"type": "discard", "card": "9C"},
        "automatic": True,
        "public": {"type": "discard", "seat": 1, "card": "9C", "went_out": False},
    }


def log_of(moves: list[dict[str, Any]], language: str) -> tuple[list[LoggedTurn], str]:
    with translation.override(language):
        turns = logged_turns(moves, PLAYERS, Rules().seating, cut=False)
        html = render_to_string(
            "web/_move_log.html", {"page": SimpleNamespace(turns=turns, seat=None)}
        )
    return turns, " ".join(html.split())


@pytest.mark.parametrize(
    ("language", "new_meld", "joined", "out"),
    [
        ("ru", "новая комбинация «короли»:", "к королям", "вышел(а)!"),
        ("en", "a new meld of kings:", "to the kings", "went out!"),
    ],
)
def test_a_turn_is_one_entry_naming_each_meld_and_the_going_out(
    language: str, new_meld: str, joined: str, out: str
) -> None:
    _deal, moves = going_out_turn()
    turns, html = log_of([the_other_seat_discards(0), *moves], language)
    latest, earlier = turns
    assert (latest.seat, latest.first_seq, latest.last_seq) == (0, 1, 4)
    assert latest.went_out and not earlier.went_out
    assert latest.meld_keys == "0:K 0:Q" and latest.pile == "discarded"
    assert earlier.meld_keys == "" and earlier.automatic
    what = [phrase.what for phrase in latest.phrases]
    assert what[1] == new_meld
    assert what[3] == joined and latest.phrases[3].cards == ["JK"]
    assert latest.phrases[3].cards_first
    # Rendered: the newest turn first, one list item a turn, the going out said in words.
    assert html.count('class="move-turn') == 2
    assert html.index('data-turn-to="4"') < html.index('data-turn-to="0"')
    assert out in html and "/users/10/" in html
    assert 'data-turn-melds="0:K 0:Q"' in html and 'data-turn-pile="discarded"' in html


def test_taking_the_pile_counts_its_cards_in_russian_plural_forms() -> None:
    def taken(count: int) -> str:
        move = {
            "seq": 1,
            "deal_number": 1,
            "seat": 2,
            "action": {"type": "take_pile", "cards": ["7S", "7C"]},
            "automatic": False,
            "public": {"type": "take_pile", "seat": 2, "top": "7H", "count": count, "melds": []},
        }
        with translation.override("ru"):
            [turn] = logged_turns([move], PLAYERS, Rules().seating, cut=False)
        return turn.phrases[0].what

    assert taken(1) == "взял(а) стопку (1 карта) с"
    assert taken(3) == "взял(а) стопку (3 карты) с"
    assert taken(11) == "взял(а) стопку (11 карт) с"
    assert taken(21) == "взял(а) стопку (21 карта) с"


def test_a_window_that_begins_mid_turn_leaves_that_turn_out() -> None:
    _deal, moves = going_out_turn()
    later = [the_other_seat_discards(5)]
    with translation.override("ru"):
        turns = logged_turns(moves[2:] + later, PLAYERS, Rules().seating, cut=True)
    assert [turn.seat for turn in turns] == [1]
