"""The club level at Samba and Bolivia (issue 24): the classic club's judgement (`club.py`:
openings, pile takes, hand management, discard safety, going out when ahead) with what
sequences ask (Jacoby; Bicycle; Pagat):

- builds sambas (escaleras) first: a sequence is worth 1,500 at seven cards, so a new sequence
  goes down and cards that extend one join it at once;
- takes the pile when its top card alone makes a meld a canasta, or extends one of the side's
  sequences and other cards come with it;
- never breaks a run of the hand (three of a suit in order) for a group;
- keeps sequence material out of the discards (cards that extend the side's sequences or stand
  in a run of the hand) and does not feed an opponent's open sequence;
- in Bolivia grows the wild meld only to make a bolivia (2,500) or when the deal may end.

It chooses among the actions offered, so every choice is legal where they are.
"""

from __future__ import annotations

from games.engine import (
    CLOSED_AT,
    SEQUENCE_ORDER,
    SEQUENCE_RANKS,
    SUITS,
    WILD_MELD,
    WILDS,
    Action,
    Deal,
    legal_actions,
)

from .club import CLUB, Memory, Notes, club_action, danger, discard_costs, notes_on_table
from .strategy import cards_in

# A canasta's bonus (R-SAMBA-CAN, R-BOL-WILD), a fifth of it counted toward making it now.
SAMBA_BONUS = 1500
BOLIVIA_BONUS = 2500


def sequence_club_action(
    world: Deal,
    seat: int,
    notes: Notes | None = None,
    actions: list[Action] | None = None,
    memory: Memory | None = None,
) -> Action:
    """The club at Samba and Bolivia (`notes`, `actions`: from `world` and `memory`)."""
    if actions is None:
        actions = legal_actions(world, seat)
    return samba_club_action(world, seat, notes or notes_on_table(world, seat, memory), actions)


def samba_club_action(world: Deal, seat: int, notes: Notes, actions: list[Action]) -> Action:
    """The club's choice at a Samba or Bolivia table among `actions`."""
    if len(actions) == 1:
        return actions[0]
    team = world.seating.team_of(seat)
    if world.phase == "draw":
        take = _sequence_take(world, team, actions)
        return take if take is not None else club_action(world, seat, notes, actions, CLUB)
    if world.opened[team]:
        building = [
            (worth, action)
            for action in actions
            if action["type"] == "meld"
            for worth in [_sequence_worth(world, seat, action)]
            if worth > 0
        ]
        if building:
            return max(building, key=lambda pair: pair[0])[1]
        in_runs = _runs_in_hand(world.hands[seat])
        actions = [action for action in actions if not _breaks_a_run(world, action, in_runs)]
    choice = club_action(world, seat, notes, actions, CLUB)
    if choice["type"] != "discard":
        return choice
    costs = _discard_costs(world, seat, notes)
    discards = [action for action in actions if action["type"] == "discard"]
    return min(discards, key=lambda action: costs.get(action["card"], 0.0))


def _sequence_take(world: Deal, team: int, actions: list[Action]) -> Action | None:
    """The top card alone onto one of the side's sequences, or onto a meld it makes a canasta
    (the longest such meld); a lone top card only when it makes the canasta (a stock draw
    brings two cards)."""
    melds = list(world.melds[team].items())
    lone = len(world.pile) == 1
    best: tuple[int, Action] | None = None
    for action in actions:
        if action["type"] != "take_pile" or "meld" not in action:
            continue
        key, cards = melds[action["meld"]]
        makes = len(cards) + 1 == CLOSED_AT
        if makes or (key[0] in SUITS and not lone):
            worth = len(cards) + (10 if makes else 0)
            if best is None or worth > best[0]:
                best = (worth, action)
    return best[1] if best else None


def _sequence_worth(world: Deal, seat: int, action: Action) -> float:
    """What a meld building a sequence (or Bolivia's wild meld) is worth now; 0: not such a
    meld, or better kept in hand."""
    team = world.seating.team_of(seat)
    melds = world.melds[team]
    keys = list(melds)
    left = len(world.hands[seat]) - cards_in(action)
    if left < 2:
        return 0.0  # going out is the classic club's to judge
    worth = 0.0
    for entry in action["melds"]:
        cards = entry["cards"]
        if "meld" in entry:
            key = keys[entry["meld"]]
            after = len(melds[key]) + len(cards)
            if key[0] in SUITS:
                worth += 60.0 + 20.0 * len(cards)
                worth += SAMBA_BONUS / 5 if after == CLOSED_AT else 0.0
            elif key[0] == WILD_MELD and (after == CLOSED_AT or danger(world, seat)):
                worth += BOLIVIA_BONUS / 5
        elif cards[0] not in WILDS and cards[0][0] != cards[1][0] and left >= 3:
            worth += 70.0 + 15.0 * len(cards)  # a new sequence
    return worth


def _runs_in_hand(hand: list[str]) -> set[str]:
    """The hand's naturals that stand in a run of three or more of their suit."""
    places: dict[str, set[int]] = {}
    for card in hand:
        if card not in WILDS and card[0] in SEQUENCE_ORDER:
            places.setdefault(card[1], set()).add(SEQUENCE_ORDER[card[0]])
    cards: set[str] = set()
    for suit, held in places.items():
        for place in held:
            if (
                {place - 1, place + 1} <= held
                or {place + 1, place + 2} <= held
                or {place - 2, place - 1} <= held
            ):
                cards.add(SEQUENCE_RANKS[place] + suit)
    return cards


def _breaks_a_run(world: Deal, action: Action, in_runs: set[str]) -> bool:
    """A meld putting a card of a run of the hand into a group (new, or joining one)."""
    if action["type"] != "meld":
        return False
    keys = list(world.melds[world.seating.team_of(world.turn)])
    for entry in action["melds"]:
        naturals = [card for card in entry["cards"] if card not in WILDS]
        if "meld" in entry:
            if keys[entry["meld"]][0] in SUITS:
                continue
        elif len(naturals) >= 3 and len({card[0] for card in naturals}) > 1:
            continue  # a new sequence
        if any(card in in_runs for card in naturals):
            return True
    return False


def _discard_costs(world: Deal, seat: int, notes: Notes) -> dict[str, float]:
    """The club's discard costs, and what sequences add: a card that extends one of the side's
    sequences or stands in a run of the hand is kept; one that extends the next side's open
    sequence would feed it."""
    costs = discard_costs(world, seat, notes, CLUB)
    team = world.seating.team_of(seat)
    in_runs = _runs_in_hand(world.hands[seat])
    ours = _ends(world.melds[team])
    following = world.seating.team_of(world.seating.next_seat(seat))
    theirs = _ends(world.melds[following]) if following != team and not world.frozen else set()
    for card in costs:
        if card in ours:
            costs[card] += 60.0
        if card in in_runs:
            costs[card] += 35.0
        if card in theirs:
            costs[card] += 50.0
    return costs


def _ends(melds: dict[str, list[str]]) -> set[str]:
    """The cards that extend a sequence of `melds` short of seven."""
    ends: set[str] = set()
    for key, cards in melds.items():
        if key[0] not in SUITS or len(cards) >= CLOSED_AT:
            continue
        places = [SEQUENCE_ORDER[card[0]] for card in cards]
        low, high = min(places), max(places)
        if low > 0:
            ends.add(SEQUENCE_RANKS[low - 1] + key[0])
        if high < len(SEQUENCE_RANKS) - 1:
            ends.add(SEQUENCE_RANKS[high + 1] + key[0])
    return ends
