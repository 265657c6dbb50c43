"""Stacked decks (108 cards, 162 at six) and small play helpers for the engine acceptance tests.

Everything here drives the engine only through the public contract (CONTRACT.md §2 and the
agreed `legal_actions`/`Match` names; the players' `autoplay`): `Deal.new(..., deck=codes)`,
`apply`, `view`, `to_dict`/`from_dict` and `IllegalMove.code`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from games.engine import Deal, IllegalMove, Rules
from games.illegal_moves import words

RANKS = "AKQJT98765432"
SUITS = "SHDC"
FULL_DECK: tuple[str, ...] = tuple([r + s for r in RANKS for s in SUITS] * 2 + ["JK"] * 4)
# Three packs: the six-handed game's 162 cards (R-TABLE-6).
SIX_HANDED_DECK: tuple[str, ...] = tuple([r + s for r in RANKS for s in SUITS] * 3 + ["JK"] * 6)
CARD_SET = frozenset(FULL_DECK)
RED_THREES = ("3H", "3D")
NATURAL_RANKS = "AKQJT987654"
# Seat 0 moves first (dealer 3). A hand that can open with 50: three kings and three aces.
OPENER = ["KS", "KH", "KD", "AS", "AH", "AD", "9S", "8H", "7D", "6C", "5S"]


def value(card: str) -> int:
    """R-CARD-2 point value of one card code."""
    if card == "JK":
        return 50
    rank, suit = card[0], card[1]
    if rank in "A2":
        return 20
    if rank in "KQJT98":
        return 10
    if rank == "3":
        return 100 if suit in "HD" else 5
    return 5


def is_wild(card: str) -> bool:
    return card == "JK" or card[0] == "2"


def is_natural(card: str) -> bool:
    return not is_wild(card) and card[0] != "3"


def _filler_order(remaining: Counter[str]) -> list[str]:
    """Remaining cards in a "quiet" order: naturals round-robin over ranks (few pairs in a
    filled hand), then black threes, then wilds, red threes last (so fillers never trigger
    R-DEAL-5/R-TURN-2 or freeze a pile unless a test asks for it)."""
    pool = Counter(remaining)
    ordered: list[str] = []
    for _round in range(12):  # eight copies of a natural rank in two packs, twelve in three
        for rank in "KQJT98765A4":
            for suit in SUITS:
                card = rank + suit
                if pool[card] > 0:
                    pool[card] -= 1
                    ordered.append(card)
                    break
    for group in (("3S", "3C"), ("2S", "2H", "2D", "2C", "JK"), RED_THREES):
        progress = True
        while progress:
            progress = False
            for card in group:
                if pool[card] > 0:
                    pool[card] -= 1
                    ordered.append(card)
                    progress = True
    for card in sorted(pool.elements()):  # naturals beyond 12 rounds cannot exist; for safety
        ordered.append(card)
    return ordered


def deal_index(dealer: int, seat: int, k: int, players: int = 4) -> int:
    """Index in the stacked deck of the k-th card dealt to `seat` (dealing starts at dealer+1,
    R-TABLE-DEAL)."""
    return players * k + (seat - dealer - 1) % players


def build_deck(
    *,
    dealer: int = 3,
    hands: Mapping[int, Sequence[str]] | None = None,
    upcards: Sequence[str] | None = None,
    stock: Sequence[str] = (),
    stock_end: Sequence[str] = (),
    rules: Rules | None = None,
) -> list[str]:
    """A stacked deck (top first) for `Deal.new(..., deck=...)` at the table of `rules`.

    `hands[seat]`: up to `hand_size` (11 at four) cards that seat is dealt (the rest filled);
    `upcards`: the cards turned for the pile after the hands (the last one is the pile's top
    after R-DEAL-3); `stock`: the first stock cards (drawn first, also used for R-DEAL-5
    replacements); `stock_end`: the last cards of the stock. Everything else is filled from the
    remaining cards of the exact multiset (108 cards, 162 at six).
    """
    rules = rules or Rules()
    players, hand_size = rules.players, rules.hand_size
    full = SIX_HANDED_DECK if rules.packs == 3 else FULL_DECK
    hands = dict(hands or {})
    remaining = Counter(full)

    def take(cards: Iterable[str]) -> None:
        for card in cards:
            if card not in CARD_SET:
                raise ValueError(f"not a card code: {card!r}")
            if remaining[card] <= 0:
                raise ValueError(f"too many copies of {card} in the stacked deck")
            remaining[card] -= 1

    for seat, cards in hands.items():
        if len(cards) > hand_size:
            raise ValueError(f"seat {seat} is dealt more than {hand_size} cards")
        take(cards)
    take(upcards or ())
    take(stock)
    take(stock_end)
    if upcards is None:
        upcards = [next(card for card in _filler_order(remaining) if is_natural(card))]
        take(upcards)
    filler = iter(_filler_order(remaining))

    codes: list[str | None] = [None] * (players * hand_size)
    for seat in range(players):
        cards = list(hands.get(seat, ()))
        for k in range(hand_size):
            index = deal_index(dealer, seat, k, players)
            codes[index] = cards[k] if k < len(cards) else next(filler)
    middle = list(filler)
    deck = (
        [c for c in codes if c is not None] + list(upcards) + list(stock) + middle + list(stock_end)
    )
    assert Counter(deck) == Counter(full), f"stacked deck is not the {len(full)} cards"
    return deck


def dealt_hand(deck: Sequence[str], *, dealer: int, seat: int) -> list[str]:
    return [deck[deal_index(dealer, seat, k)] for k in range(11)]


def new_deal(
    *,
    rules: Rules | None = None,
    dealer: int = 3,
    team_scores: tuple[int, ...] = (0, 0),
    hands: Mapping[int, Sequence[str]] | None = None,
    upcards: Sequence[str] | None = None,
    stock: Sequence[str] = (),
    stock_end: Sequence[str] = (),
) -> Deal:
    rules = rules or Rules()
    deck = build_deck(
        dealer=dealer, hands=hands, upcards=upcards, stock=stock, stock_end=stock_end, rules=rules
    )
    return Deal.new(rules, dealer=dealer, team_scores=team_scores, deck=deck)


# --- observing ---------------------------------------------------------------------------------


def state(deal: Deal) -> str:
    """The full state, serialised byte for byte (key order included)."""
    return json.dumps(deal.to_dict())


def all_cards(deal: Deal) -> Counter[str]:
    """Every card in the full state (hands, stock, pile, red threes, melds)."""
    data = deal.to_dict()
    packed = "".join([*data["hands"], data["stock"], data["pile"], *data["red"]])
    packed += "".join(cards for team in data["melds"] for _, cards in team)
    return Counter(packed[i : i + 2] for i in range(0, len(packed), 2))


def hand(deal: Deal, seat: int) -> Counter[str]:
    return Counter(deal.view(seat)["hand"])


def team_view(deal: Deal, team: int) -> dict[str, Any]:
    teams: list[dict[str, Any]] = deal.view(None)["teams"]
    return teams[team]


def melds_by_rank(deal: Deal, team: int) -> dict[str, dict[str, Any]]:
    melds: list[dict[str, Any]] = team_view(deal, team)["melds"]
    by_rank: dict[str, dict[str, Any]] = {}
    for meld in melds:
        assert meld["rank"] not in by_rank, f"team {team} has two melds of rank {meld['rank']}"
        by_rank[meld["rank"]] = meld
    return by_rank


def pile(deal: Deal) -> dict[str, Any]:
    return dict(deal.view(None)["pile"])


def cards_on_table(view: Mapping[str, Any]) -> int:
    """sum(hand_counts) + stock + pile + melded + red threes: must always be 108 (R-CARD-1),
    or 162 at six (R-TABLE-6)."""
    melded = sum(len(m["cards"]) for t in view["teams"] for m in t["melds"])
    reds = sum(len(t["red_threes"]) for t in view["teams"])
    return int(
        sum(view["hand_counts"]) + view["stock_count"] + view["pile"]["count"] + melded + reds
    )


# --- acting ------------------------------------------------------------------------------------


def refuse(deal: Deal, seat: int | Any, action: Any, code: str | Collection[str]) -> IllegalMove:
    """The action is refused with `code` (or one of the codes), a message in both languages,
    and the deal is left byte for byte unchanged."""
    before = state(deal)
    viewers = [*deal.rules.seating.seats, None]
    before_views = [json.dumps(deal.view(s)) for s in viewers]
    with pytest.raises(IllegalMove) as info:
        deal.apply(seat, action)
    codes = {code} if isinstance(code, str) else set(code)
    assert info.value.code in codes, (
        f"expected {sorted(codes)}, got {info.value.code!r}: {info.value}"
    )
    # Every refusal has the contract's gloss and the catalogue's words in both languages.
    assert str(info.value) and all(words(info.value))
    assert state(deal) == before, "a refused action changed the deal"
    assert [json.dumps(deal.view(s)) for s in viewers] == before_views
    return info.value


def draw(deal: Deal, seat: int) -> list[str]:
    """Draws from the stock; returns the cards that arrived in hand (replacements included)."""
    before = hand(deal, seat)
    deal.apply(seat, {"type": "draw"})
    return list((hand(deal, seat) - before).elements())


def meld(deal: Deal, seat: int, *melds: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    """`meld(deal, 0, ["KH", "KS", "KD"], {"rank": "K", "cards": ["2C"]})`."""
    entries = [dict(m) if isinstance(m, Mapping) else {"cards": list(m)} for m in melds]
    event: dict[str, Any] = deal.apply(seat, {"type": "meld", "melds": entries})
    return event


def discard(deal: Deal, seat: int, card: str) -> dict[str, Any]:
    event: dict[str, Any] = deal.apply(seat, {"type": "discard", "card": card})
    return event


def take_pile(
    deal: Deal,
    seat: int,
    cards: Sequence[str],
    *melds: Sequence[str] | Mapping[str, Any],
) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "take_pile", "cards": list(cards)}
    if melds:
        action["melds"] = [dict(m) if isinstance(m, Mapping) else {"cards": list(m)} for m in melds]
    event: dict[str, Any] = deal.apply(seat, action)
    return event


def quiet_card(cards: Iterable[str], prefer: Sequence[str] = ()) -> str:
    """A card to throw away without side effects: preferably one of `prefer`, never a wild or a
    three (which would freeze or block the pile)."""
    cards = list(cards)
    for card in list(prefer) + cards:
        if card in cards and is_natural(card):
            return card
    raise AssertionError(f"no quiet discard in {cards}")


def pass_turn(deal: Deal, seat: int, discard_card: str | None = None) -> list[str]:
    """Draw, then discard `discard_card` (default: a quiet card, the drawn one if it is quiet)."""
    drawn = draw(deal, seat)
    if deal.phase == "over":
        return drawn
    card = discard_card or quiet_card(deal.view(seat)["hand"], prefer=drawn)
    discard(deal, seat, card)
    return drawn


def iter_card_codes(node: Any, *, skip_key: str | None = None) -> Iterator[str]:
    """Every string in a JSON-like value that is a card code (optionally skipping one dict key)."""
    if isinstance(node, str):
        if node in CARD_SET:
            yield node
    elif isinstance(node, Mapping):
        for key, child in node.items():
            if key != skip_key:
                yield from iter_card_codes(child, skip_key=skip_key)
    elif isinstance(node, list | tuple):
        for child in node:
            yield from iter_card_codes(child, skip_key=skip_key)


# --- hidden information ------------------------------------------------------------------------

VIEW_KEYS = {
    "seat",
    "dealer",
    "turn",
    "phase",
    "hand",
    "hand_counts",
    "stock_count",
    "pile",
    "teams",
    "undo_available",
    "result",
}
TEAM_KEYS = {"opened", "minimum", "red_threes", "melds"}
MELD_KEYS = {"rank", "cards", "canasta"}
SECRET_KEYS = {"hands", "stock", "deck", "seed", "shuffle"}


def all_keys(node: Any) -> set[str]:
    keys: set[str] = set()
    if isinstance(node, Mapping):
        for key, child in node.items():
            keys.add(key)
            keys |= all_keys(child)
    elif isinstance(node, list):
        for child in node:
            keys |= all_keys(child)
    return keys


def public_cards(view: Mapping[str, Any]) -> Counter[str]:
    """Cards anyone may see: the pile's top, melds, red threes."""
    seen: Counter[str] = Counter()
    if view["pile"]["top"]:
        seen[view["pile"]["top"]] += 1
    for team in view["teams"]:
        seen.update(team["red_threes"])
        for meld_view in team["melds"]:
            seen.update(meld_view["cards"])
    return seen


def assert_view_hides_others(deal: Deal) -> None:
    seats = deal.rules.seating.seats
    hands = {seat: Counter(deal.view(seat)["hand"]) for seat in seats}
    rules = deal.rules
    expected = set(VIEW_KEYS)
    if rules.ask_partner_to_go_out or rules.double_going_out or rules.acaba:  # house.py
        expected.add("to_act")
    if rules.ask_partner_to_go_out or rules.acaba:
        expected.add("question")
    for viewer in (*seats, None):
        view = deal.view(viewer)
        text = json.dumps(view)
        assert not (all_keys(view) & SECRET_KEYS), all_keys(view) & SECRET_KEYS
        assert set(view) == (expected if viewer is not None else expected - {"hand"})
        assert view["seat"] == viewer
        outside_hand = Counter(iter_card_codes(view, skip_key="hand"))
        assert outside_hand <= public_cards(view), f"seat {viewer} sees hidden cards"
        if viewer is not None:
            assert Counter(view["hand"]) == hands[viewer]
            assert len(view["hand"]) == view["hand_counts"][viewer]
        assert json.loads(text) == view
