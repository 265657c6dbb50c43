"""Samba and Bolivia's result and melds recomputed from the views alone (R-SAMBA-CAN/RED/OUT/
SCORE, R-SAMBA-GROUP/SEQ, R-BOL-WILD/ESC/OUT/RED/BLACK): an independent reading of the digest."""

from __future__ import annotations

from typing import Any

from games.engine import Deal
from tests.engine.decks import is_wild, value

BONUS = {None: 0, "natural": 500, "mixed": 300, "samba": 1500, "escalera": 1500, "bolivia": 2500}
SEQUENCE = "456789TJQKA"


def expected_canasta(meld: dict[str, Any], game: str) -> str | None:
    cards = meld["cards"]
    if len(cards) < 7 or meld["rank"] == "3":
        return None
    if meld["kind"] == "sequence":
        return "escalera" if game == "bolivia" else "samba"
    if meld["rank"] == "*":
        return "bolivia"
    return "mixed" if any(is_wild(card) for card in cards) else "natural"


def check_meld_shape(meld: dict[str, Any], game: str) -> None:
    cards = meld["cards"]
    wilds = [card for card in cards if is_wild(card)]
    if meld["kind"] == "sequence":
        places = [SEQUENCE.index(card[0]) for card in cards]
        assert not wilds and {card[1] for card in cards} == {meld["suit"]}
        assert places == list(range(places[0], places[0] + len(cards))), cards
        assert 3 <= len(cards) <= 7
    elif meld["rank"] == "*":
        assert game == "bolivia" and len(wilds) == len(cards) and 3 <= len(cards) <= 7
    elif meld["rank"] == "3":
        assert len(cards) >= 3 and all(card in ("3S", "3C") for card in cards)
    else:
        naturals = [card for card in cards if not is_wild(card)]
        assert {card[0] for card in naturals} == {meld["rank"]}
        assert len(naturals) >= 2 and len(wilds) <= 2 and len(cards) >= 3
    assert meld["canasta"] == expected_canasta(meld, game)


def check_sequence_result(deal: Deal) -> None:
    result = deal.result
    assert result is not None and deal.phase == "over"
    game = deal.rules.game
    spectator = deal.view(None)
    seating = deal.rules.seating
    hands = [deal.view(seat)["hand"] for seat in seating.seats]
    out_seats = [seat for seat in seating.seats if not hands[seat]]
    assert len(out_seats) <= 1
    for t, seats in enumerate(seating.teams):
        team, line = spectator["teams"][t], result[t]
        melds = team["melds"]
        for meld in melds:
            check_meld_shape(meld, game)
        canastas = [meld for meld in melds if meld["canasta"]]
        assert line["cards"] == sum(value(card) for meld in melds for card in meld["cards"])
        assert line["canastas"] == sum(BONUS[meld["canasta"]] for meld in melds)
        count = len(team["red_threes"])
        reds = 1000 if count == 6 else 100 * count
        assert line["red_threes"] == (reds if len(canastas) >= 2 else -reds)
        black_in_hand = 100 if game == "bolivia" else 5
        assert line["hand"] == -sum(
            black_in_hand if card in ("3S", "3C") else value(card)
            for seat in seats
            for card in hands[seat]
        )
        if out_seats and seating.team_of(out_seats[0]) == t:
            assert line["going_out"] == 200
            assert len(canastas) >= 2, "went out without two canastas"
            if game == "bolivia":
                assert any(meld["kind"] == "sequence" for meld in canastas), "no escalera"
        else:
            assert line["going_out"] == 0
        parts = ("cards", "canastas", "red_threes", "going_out", "hand")
        assert line["total"] == sum(line[key] for key in parts)
