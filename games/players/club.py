"""The club level (клуб): a heuristic player from classic strategy (Jacoby; Pagat), reading only
its seat's hand, the table, and what the seat has seen (`Notes`, from `sight.Sight`).

- Hand management: melds to build canastas, not to spread; keeps cards to take the pile with
  and to go on after melding (new ranks go down only with cards to spare, never bare); holds
  new melds back while a big pile can be taken with the pairs in hand.
- Discard safety from public information: how likely the next player holds the pair (or, on an
  open pile, a meld) that takes the card, from the cards out of play, what that player took
  with the pile, threw away and let pass; black threes kept as safe discards for a big pile;
  a wild into the pile to freeze it when no safe discard is left and the opponents threaten it.
- Goes out when its side is ahead (or the deal is about to end), holds on when behind.

Used for every timed-out turn, so it stays fast (one pass over the legal actions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine import (
    BLACK_THREES,
    MELD_GROUP,
    NATURAL_RANKS,
    VALUE,
    WILDS,
    Action,
    Deal,
    canasta_opening,
    legal_actions,
    plan_to_go_out,
)

from .sight import Sight
from .strategy import (
    cards_in,
    reaches_minimum,
    rival_seats,
    rival_teams,
    settled,
    table_points,
)


@dataclass(frozen=True)
class Style:
    """The club's judgement in numbers (the bench tunes them; `CLUB` is the level)."""

    open_keep: int = 3  # cards an opening leaves in hand, unless the deal is late
    add_keep: int = 4  # cards adding to a meld leaves, unless it makes a canasta or is late
    new_keep: int = 6  # cards a new meld leaves
    big_pile: int = 8  # a pile that keeps new melds back (the pairs take it)
    wild_take: int = 3  # a pile worth a wild
    out_margin: int = 0  # the lead that makes going out pay
    prize: float = 30.0  # what the next player's take is worth: prize + per_card * cards
    per_card: float = 50.0  # each card fed costs the side about twice (they gain, we lose)
    freeze_pile: int = 8  # a pile worth a wild to freeze, when no discard is safe
    freeze_risk: float = 40.0
    three_pile: int = 4  # a pile worth a black three
    ready_keep: int = 3  # cards a meld leaves once the side has its canastas (racing to go out)


CLUB = Style()


@dataclass(frozen=True)
class Notes:
    """What the seat has seen beyond the table, for discard safety."""

    discarded: list[Counter[str]]  # ranks each seat threw away
    passed: list[Counter[str]]  # ranks of the top card each seat let pass
    unseen: Counter[str]  # by rank: the cards of that rank the seat has not seen
    hidden: int  # how many cards the seat has not seen
    known: dict[int, Counter[str]]  # by seat: ranks the seat saw it take with the pile


def notes_of(seen: Sight) -> Notes:
    unseen = seen.unseen()
    return Notes(
        discarded=seen.discarded,
        passed=seen.passed,
        unseen=Counter(map(MELD_GROUP.__getitem__, unseen)),
        hidden=len(unseen),
        known={
            seat: Counter(map(MELD_GROUP.__getitem__, cards)) for seat, cards in seen.known.items()
        },
    )


@dataclass(frozen=True)
class Memory:
    """What every seat has seen of the others (the expert's rollouts carry it from the real
    deal, so the seats they play discard as warily as at the table)."""

    discarded: list[Counter[str]]  # ranks each seat threw away
    passed: list[Counter[str]]  # ranks of the top card each seat let pass
    taken: dict[int, Counter[str]]  # by seat: ranks it took with the pile and has not shown


def memory_of(seen: Sight) -> Memory:
    return Memory(
        discarded=seen.discarded,
        passed=seen.passed,
        taken={
            seat: Counter(map(MELD_GROUP.__getitem__, cards)) for seat, cards in seen.known.items()
        },
    )


def notes_on_table(world: Deal, seat: int, memory: Memory | None = None) -> Notes:
    """Notes from the table (the expert's rollouts): every card off the table and out of the
    seat's hand is unseen, but for what `memory` tells of the other hands and still holds."""
    group = MELD_GROUP.__getitem__
    seen = Counter(map(group, world.hands[seat]))
    seen.update(map(group, world.pile))
    shown = len(world.hands[seat]) + len(world.pile)
    for melds in world.melds:
        for cards in melds.values():
            seen.update(map(group, cards))
            shown += len(cards)
    known: dict[int, Counter[str]] = {}
    if memory is None:
        empty = [Counter[str]() for _ in world.seating.seats]
        discarded = passed = empty
    else:
        discarded, passed = memory.discarded, memory.passed
        for other, ranks in memory.taken.items():
            held = ranks & Counter(map(group, world.hands[other])) if other != seat else None
            if held:  # what the seat took and has neither melded nor thrown since
                known[other] = held
                seen.update(held)
                shown += held.total()
    packs = world.rules.packs
    return Notes(
        discarded=discarded,
        passed=passed,
        unseen=Counter({rank: 4 * packs - seen[rank] for rank in NATURAL_RANKS}),
        hidden=54 * packs - shown,
        known=known,
    )


def club_action(
    world: Deal,
    seat: int,
    notes: Notes | None = None,
    actions: list[Action] | None = None,
    style: Style = CLUB,
    memory: Memory | None = None,
) -> Action:
    """The club's choice among `actions` (default: the seat's legal actions in `world`); without
    `notes`, what the seat knows comes from the table and `memory`."""
    if actions is None:
        actions = legal_actions(world, seat)
    decided = settled(world, seat, actions)
    if decided is not None:
        return decided
    if world.phase == "draw":
        return _draw(world, seat, actions, style)
    return _play(world, seat, actions, notes, memory, style)


def danger(world: Deal, seat: int) -> bool:
    """The deal may end any moment: an opponent is nearly out or the stock nearly gone."""
    rivals = rival_seats(world.seating, world.seating.team_of(seat))
    return min(len(world.hands[other]) for other in rivals) <= 3 or len(world.stock) < 8


def _draw(world: Deal, seat: int, actions: list[Action], style: Style) -> Action:
    takes = [action for action in actions if action["type"] == "take_pile"]
    draws = [action for action in actions if action["type"] == "draw"]
    if not takes or not draws:
        return takes[0] if takes else actions[0]
    team = world.seating.team_of(seat)
    if not world.opened[team] and canasta_opening(world, team):
        return takes[0]  # R-HOUSE-7500: the only way this team opens

    def cost(take: Action) -> tuple[int, int]:
        return sum(1 for card in take["cards"] if card in WILDS), len(take["cards"])

    take = min(takes, key=cost)
    wilds, used = cost(take)
    count = len(world.pile)
    if not used:
        return take  # joining a meld for nothing
    if "melds" in take:  # opening with the pile: not when it leaves the hand bare
        left = len(world.hands[seat]) - cards_in(take) - used + count - 1
        late = danger(world, seat) or len(world.stock) < 30
        return take if left >= style.open_keep or count >= 3 or late else draws[0]
    if wilds:  # a wild is worth more than a small pile
        spare = sum(1 for card in world.hands[seat] if card in WILDS)
        return take if count >= style.wild_take or (count >= 3 and spare >= 2) else draws[0]
    # A natural pair: worth it for two cards or more; a lone top card only with a third.
    rank = world.pile[-1][0]
    held = sum(1 for card in world.hands[seat] if card[0] == rank and card not in WILDS)
    return take if count >= 2 or held >= 3 else draws[0]


def _play(
    world: Deal,
    seat: int,
    actions: list[Action],
    notes: Notes | None,
    memory: Memory | None,
    style: Style,
) -> Action:
    team = world.seating.team_of(seat)
    hand = world.hands[seat]
    melds = [action for action in actions if action["type"] == "meld"]
    late = danger(world, seat)
    if not world.opened[team]:
        natural = _natural_opening(world, seat, style)
        if natural is not None:
            return natural
        opening = [action for action in melds if reaches_minimum(world, seat, action)]
        if opening:
            left = len(hand) - cards_in(opening[0])
            if (
                left >= style.open_keep
                or late
                or world.points
                or world.drew == "pile"
                or len(world.stock) < 50
            ):
                return opening[0]
        elif any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    else:
        meld = _club_meld(world, seat, melds, late, style)
        if meld is not None:
            return meld
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    # Notes from the table only when a discard is chosen (most rollout steps meld or draw).
    costs = discard_costs(world, seat, notes or notes_on_table(world, seat, memory), style)
    return min(discards, key=lambda action: costs[action["card"]])


def _natural_opening(world: Deal, seat: int, style: Style) -> Action | None:
    """The opening from whole ranks of naturals that keeps the most cards (and every wild),
    when it leaves enough in hand; None when there is none."""
    hand = world.hands[seat]
    team = world.seating.team_of(seat)
    target = world.minimums[team] - world.points
    groups: dict[str, list[str]] = {}
    for card in hand:
        if card not in WILDS and card[0] != "3":
            groups.setdefault(card[0], []).append(card)
    ranks = [cards for cards in groups.values() if len(cards) >= 3]
    best: tuple[int, list[list[str]]] | None = None
    for mask in range(1, 1 << len(ranks)):
        chosen = [cards for i, cards in enumerate(ranks) if mask >> i & 1]
        used = sum(len(cards) for cards in chosen)
        if len(hand) - used < style.open_keep:
            continue
        if sum(VALUE[card] for cards in chosen for card in cards) < target:
            continue
        if best is None or used < best[0]:
            best = (used, chosen)
    if best is None:
        return None
    action = {"type": "meld", "melds": [{"cards": cards} for cards in best[1]]}
    return action if world.is_legal(seat, action) else None


def _club_meld(
    world: Deal, seat: int, melds: list[Action], late: bool, style: Style
) -> Action | None:
    """The meld to lay now, or None: go out when it pays, finish canastas, add to melds with
    cards to spare, start new ranks only with plenty left."""
    team = world.seating.team_of(seat)
    hand = world.hands[seat]
    ours = world.melds[team]
    going_out = [action for action in melds if cards_in(action) >= len(hand) - 1]
    if late or _margin(world, seat) >= style.out_margin:
        if going_out:
            return max(going_out, key=cards_in)
        plan = plan_to_go_out(world, seat)  # several melds at once, then the discard
        if plan is not None and plan[0]:
            out: Action = {"type": "meld", "melds": plan[0]}
            if world.is_legal(seat, out):
                return out
    big_pile = len(world.pile) >= style.big_pile
    held_wilds = sum(1 for card in hand if card in WILDS)
    ready = sum(1 for cards in ours.values() if len(cards) >= 7) >= world.rules.canastas_to_go_out
    add_keep = min(style.add_keep, style.ready_keep) if ready else style.add_keep
    new_keep = min(style.new_keep, style.ready_keep) if ready else style.new_keep
    best: tuple[int, Action] | None = None
    for action in melds:
        if action in going_out:
            continue
        entry = action["melds"][0]
        cards = entry["cards"]
        rank = _entry_meld(ours, entry)
        wilds = sum(1 for card in cards if card in WILDS)
        before = len(ours.get(rank, ()))
        after = before + len(cards)
        left = len(hand) - len(cards)
        if before < 7 <= after:
            score = 100  # a canasta
        elif wilds:
            # Wilds are for canastas: one goes down when the hand's wilds finish this one.
            if not late and (before < 4 or after + held_wilds - wilds < 7 or left < 3):
                continue
            score = 20
        elif before:
            if left < add_keep and not late and after < 6:
                continue
            score = 40 + after
        else:
            if not late and (left < new_keep or big_pile) and not (len(cards) >= 4 and left >= 3):
                continue  # never meld bare; keep pairs for a big pile
            score = 30 + len(cards)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1] if best else None


def _margin(world: Deal, seat: int) -> int:
    """The side's lead over the strongest opponent if `seat` went out now: the table, the
    going-out bonus, the cards the others hold (about 8 points each)."""
    seating = world.seating
    team = seating.team_of(seat)
    mine = table_points(world, team) + 100
    mine -= sum(8 * len(world.hands[other]) for other in seating.partners_of(seat))
    theirs = max(
        table_points(world, rival)
        - sum(8 * len(world.hands[seat]) for seat in seating.teams[rival])
        for rival in rival_teams(seating, team)
    )
    return mine - theirs


def take_chance(world: Deal, seat: int, rank: str, notes: Notes) -> float:
    """How likely the next player takes the pile when `rank` tops it: their side's meld of the
    rank on an open pile, else the natural pair (or a natural and a wild) they may hold."""
    nxt = world.seating.next_seat(seat)
    side = world.seating.team_of(nxt)
    frozen = world.frozen or not world.opened[side]
    if not frozen and rank in world.melds[side]:
        return 1.0
    known = notes.known.get(nxt, Counter())
    held = known[rank]
    size = len(world.hands[nxt])
    slots = max(0, size - known.total())
    unseen = notes.unseen[rank]
    q = min(1.0, slots / notes.hidden) if notes.hidden else 0.0
    none = (1 - q) ** unseen
    one = unseen * q * (1 - q) ** (unseen - 1) if unseen else 0.0
    if held >= 2:
        pair = 1.0
    elif held == 1:
        pair = 1 - none
    else:
        pair = 1 - none - one
    if not frozen:  # one natural and a wild also take an open pile
        single = (none if held == 1 else one) if held < 2 else 0.0
        pair += single * 0.5
    if not world.opened[side]:
        pair *= 0.6  # the pair must also open (R-FRZ-4)
    if notes.passed[nxt][rank]:
        pair *= 0.3  # they let this rank pass
    elif notes.discarded[nxt][rank]:
        pair *= 0.6  # they threw one away
    return min(pair, 1.0)


def discard_costs(world: Deal, seat: int, notes: Notes, style: Style = CLUB) -> dict[str, float]:
    """What throwing each card of the hand costs: what the card is worth keeping, plus the
    pile the next player may take with it."""
    team = world.seating.team_of(seat)
    hand = world.hands[seat]
    ours = world.melds[team]
    count = len(world.pile) + 1  # the pile the next player would take
    prize = style.prize + style.per_card * count
    late = danger(world, seat)
    naturals = Counter(card[0] for card in hand if card not in WILDS)
    costs: dict[str, float] = {}
    risks: dict[str, float] = {}
    for card in hand:
        if card in costs or card in WILDS or card in BLACK_THREES:
            continue
        rank = card[0]
        held = naturals[rank]
        keep = {1: 0.0, 2: 35.0}.get(held, 55.0)
        if rank in ours:
            keep += 15.0 + (10.0 if len(ours[rank]) >= 5 else 0.0)
        elif held == 1 and notes.unseen[rank] <= 1:
            keep -= 10.0  # a dead rank: no pair will come
        keep += -1.5 * VALUE[card] if late else 0.3 * VALUE[card]
        risk = take_chance(world, seat, rank, notes) * prize
        risks[card] = risk
        costs[card] = keep + risk
    safest = min(risks.values(), default=prize)
    nxt_side = world.seating.team_of(world.seating.next_seat(seat))
    open_pile = not world.frozen and world.opened[nxt_side]
    for card in hand:
        if card in BLACK_THREES:
            # A safe discard kept for when the pile is worth guarding (R-PILE-5).
            costs[card] = -40.0 if count >= style.three_pile or safest > 25 or late else 20.0
        elif card in WILDS:
            keep = 110.0 + VALUE[card]
            if open_pile and count >= style.freeze_pile and safest > style.freeze_risk:
                keep = 40.0 + VALUE[card] / 5  # freeze the pile rather than feed it
            costs[card] = keep
    return costs


def _entry_meld(melds: dict[str, list[str]], entry: dict[str, Any]) -> str:
    """The key of the team's meld an entry goes to (its rank for a new one; "*" for a wild meld,
    Bolivia; Samba and Bolivia name an existing meld by its place)."""
    if "meld" in entry:
        return list(melds)[entry["meld"]]
    rank: str = entry.get("rank") or next((c[0] for c in entry["cards"] if c not in WILDS), "*")
    return rank
