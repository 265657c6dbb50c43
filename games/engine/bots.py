"""Bots: players that decide from what their seat may see, at three levels.

Fair by construction: `decide(view, log, rules=..., level=..., seed=...)` takes the seat's view
(`Deal.view(seat)`) and the deal's move log as that seat sees it (every entry's `seat`, `action`
and `public` event, and `private` only for the seat's own moves), never a `Deal`. From those it
rebuilds what the seat knows (`Sight`): its hand, the table, which cards lie in the pile (the
discards are public) and which cards another hand took with the pile and has not shown since.
Cards it cannot know (the stock, the other hands, the pile's dealt cards) are dealt at random
from the cards it has not seen, by `seed`, when a level needs a whole deal to play on.

- *beginner* (новичок): legal, simple moves: takes the pile when it can, opens when it can,
  melds naturals, discards its least useful card.
- *club* (клуб): a heuristic player: takes the pile when it pays, holds wilds for canastas,
  freezes a big pile against opponents who could take it, does not discard what the opponents'
  melds take, melds down when an opponent is about to go out, goes out when its team is ahead.
- *expert* (мастер): determinized Monte-Carlo: for each of its strongest candidate moves it
  deals the hidden cards several times consistently with what it has seen, plays every seat on
  with the club heuristic for a few turns, and picks the move with the best mean outcome.

`play_turn(deal, seat, ...)` drives a bot through a whole turn on a copy of the deal (the table
the bot sits at), giving it only the view and the log; the service's timeout autoplay uses the
club level through it. `autoplay` is the former timeout player, kept as the beginner's moves.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import BLACK_THREES, RED_THREES, VALUE, WILDS, deck_counts, red_three_points
from .deal import FORMAT_VERSION, Deal
from .errors import IllegalMove
from .house import CANASTA_OPENING_FROM, canasta_opening
from .moves import ASK, Action, legal_actions
from .rules import Rules
from .scoring import GOING_OUT_BONUS, canasta_kind
from .search import going_out_plan
from .seating import Seating
from .sequences import view_key

LEVELS = ("beginner", "club", "expert")
# The names players see (canasta_club.i18n order: Russian, English).
LEVEL_NAMES = {
    "beginner": ("новичок", "beginner"),
    "club": ("клуб", "club"),
    "expert": ("мастер", "expert"),
}

LogEntry = dict[str, Any]
# A representative team score for each opening minimum (R-OPEN-1, R-TABLE-6-OPEN): the view
# shows minimums.
# A total giving each minimum (R-OPEN-1, R-TABLE-6-OPEN, R-ART-7000, R-SAMBA-OPEN, R-BOL-OPEN).
_SCORE_FOR_MINIMUM = {15: -5, 50: 0, 70: 1500, 90: 1500, 120: 3000, 150: 7500, 160: 7000}


def _meld_keys(rules: Rules, melds: list[dict[str, Any]]) -> list[str]:
    """The keys of a team's melds in a deal rebuilt from a view: the rank, or in Samba and
    Bolivia a key per meld (sequences.view_key), so that `"meld": i` names the same meld."""
    if rules.sequences:
        return [view_key(meld, index) for index, meld in enumerate(melds)]
    return [meld["rank"] for meld in melds]


def _event_key(meld: dict[str, Any]) -> str:
    """The key of an event's meld (Samba and Bolivia events name it by index)."""
    if "meld" in meld:
        return view_key({"kind": "sequence" if "suit" in meld else "group", **meld}, meld["meld"])
    rank: str = meld["rank"]
    return rank


def _rival_teams(seating: Seating, team: int) -> list[int]:
    """The opponents: every other team (one at four, two or more at the other tables)."""
    return [other for other in range(len(seating.teams)) if other != team]


def _rival_seats(seating: Seating, team: int) -> list[int]:
    return [seat for seat in seating.seats if seating.team_of(seat) != team]


# ----------------------------------------------------------------------------- what a seat knows


@dataclass
class Sight:
    """What one seat knows of a deal: its view, plus what the log tells it."""

    view: dict[str, Any]
    rules: Rules
    pile: list[str]  # the pile's known cards, bottom first, above `pile_unknown` unseen ones
    pile_unknown: int
    known: dict[int, list[str]]  # cards another seat took with the pile and has not shown
    drew: str | None  # this turn: "stock" | "pile" | None
    base: dict[str, int]  # this turn: rank -> length of the team's meld before it
    points: int  # this turn: card values melded toward the minimum (R-OPEN-2)
    undo_used: bool
    melded: list[bool]  # each seat melded in an earlier turn (R-OUT-3)
    discarded: list[Counter[str]] = field(default_factory=list)  # ranks each seat discarded
    house: dict[str, Any] | None = None  # the house rules' state (Deal.to_dict()["house"])

    @property
    def seat(self) -> int:
        seat: int = self.view["seat"]
        return seat

    def unseen(self) -> list[str]:
        """The cards this seat has not seen, sorted: the stock, the other hands' hidden cards,
        the pile's unseen ones."""
        view = self.view
        seen: Counter[str] = Counter(view["hand"]) + Counter(self.pile)
        for team in view["teams"]:
            seen.update(team["red_threes"])
            for meld in team["melds"]:
                seen.update(meld["cards"])
        for cards in self.known.values():
            seen.update(cards)
        return sorted((deck_counts(self.rules.packs) - seen).elements())

    def world(self, rng: random.Random) -> Deal:
        """A whole deal consistent with everything this seat knows; the hidden cards dealt by
        `rng` from the unseen ones."""
        view = self.view
        unseen = self.unseen()
        rng.shuffle(unseen)
        # Red threes never stay in a hand (R-DEAL-5, R-TURN-2): unseen ones are in the stock,
        # or covered in the pile at the deal (R-DEAL-3) when the stock cannot hold them all.
        pool = [card for card in unseen if card not in RED_THREES]
        reds = [card for card in unseen if card in RED_THREES]
        hands: list[list[str]] = []
        for seat, count in enumerate(view["hand_counts"]):
            if seat == self.seat:
                hands.append(list(view["hand"]))
                continue
            known = self.known.get(seat, [])[:count]
            hidden = count - len(known)
            hands.append(known + pool[:hidden])
            del pool[:hidden]
        covered = pool[: self.pile_unknown]
        del pool[: self.pile_unknown]
        short = self.pile_unknown - len(covered)
        pile = covered + reds[:short] + self.pile
        del reds[:short]
        stock = pool + reds
        rng.shuffle(stock)
        stock = stock[: view["stock_count"]]
        teams = view["teams"]
        data = {
            "v": FORMAT_VERSION,
            "rules": self.rules.to_options(),
            "dealer": view["dealer"],
            "scores": [_SCORE_FOR_MINIMUM[team["minimum"]] for team in teams],
            "turn": view["turn"],
            "phase": view["phase"],
            "hands": ["".join(hand) for hand in hands],
            "stock": "".join(stock),
            "pile": "".join(pile),
            "frozen": view["pile"]["frozen"],
            "red": ["".join(team["red_threes"]) for team in teams],
            "melds": [
                [
                    [key, "".join(meld["cards"])]
                    for key, meld in zip(
                        _meld_keys(self.rules, team["melds"]), team["melds"], strict=True
                    )
                ]
                for team in teams
            ],
            "opened": [team["opened"] for team in teams],
            "melded": list(self.melded),
            "drew": self.drew,
            "base": [[rank, length] for rank, length in self.base.items()],
            "points": self.points,
            "undo_used": self.undo_used,
            "opened_now": self._opened_now(),
            "result": view["result"],
        }
        if self.house is not None:
            data["house"] = self.house
        if any(team.get("canasta_opening") for team in teams):  # R-HOUSE-7500
            data["scores"] = [
                CANASTA_OPENING_FROM if team.get("canasta_opening") else score
                for team, score in zip(teams, data["scores"], strict=True)
            ]
        return Deal.from_dict(data)

    def _opened_now(self) -> bool:
        """The team reached its minimum in this turn: every meld it has was laid this turn."""
        team = self.view["teams"][self.rules.seating.team_of(self.seat)]
        if not team["opened"] or not self.base:
            return False
        keys = _meld_keys(self.rules, team["melds"])
        return all(self.base.get(key) == 0 for key in keys)


def sight(view: dict[str, Any], log: list[LogEntry], *, rules: Rules) -> Sight:
    """Rebuilds what the seat of `view` knows from its view and the deal's log as it sees it."""
    me = view["seat"]
    seats = rules.seating.seats
    pile: list[str] = []
    taken = False
    known: dict[int, list[str]] = {seat: [] for seat in seats if seat != me}
    melded = [False for _ in seats]
    discarded = [Counter[str]() for _ in seats]
    asked = [False for _ in seats]
    out: dict[str, Any] | None = None
    turn: list[LogEntry] = []  # the current turn's entries
    for entry in log:
        seat = entry["seat"]
        kind = entry["action"]["type"]
        public = entry["public"]
        if kind == "answer_go_out":  # the partner's answer does not break the asker's turn
            continue
        if kind in ("lay_down", "pass"):  # R-HOUSE-DOUBLE, after the going out
            if out is None:
                out = {"seat": turn[-1]["seat"], "bonus": GOING_OUT_BONUS, "laid_down": []}
            if kind == "lay_down":
                out["laid_down"].append(seat)
                if seat != me:
                    _forget(known[seat], [c for meld in public["melds"] for c in meld["cards"]])
            continue
        if kind == "ask_to_go_out":
            asked[seat] = True
        if turn and turn[-1]["seat"] != seat:
            _mark_melded(melded, turn)
            turn = []
        turn.append(entry)
        if kind == "take_pile":
            if seat != me:
                _forget(known[seat], [card for meld in public["melds"] for card in meld["cards"]])
                shown = [card for card in pile if card not in RED_THREES]
                _forget(shown, [public["top"]])  # melded at once
                known[seat].extend(shown)
            pile = []
            taken = True
        elif kind == "meld" and seat != me:
            _forget(known[seat], [card for meld in public["melds"] for card in meld["cards"]])
        elif kind == "undo" and seat != me:
            known[seat].extend(public["cards"])
        elif kind == "discard":
            card = public["card"]
            pile.append(card)
            discarded[seat][card[0]] += 1
            if seat != me:
                _forget(known[seat], [card])
    if view["phase"] == "partner_out" and out is None:  # nobody has laid down or passed yet
        out = {"seat": turn[-1]["seat"], "bonus": GOING_OUT_BONUS, "laid_down": []}
    mine = turn if turn and turn[0]["seat"] == me and view["turn"] == me else []
    if view["phase"] != "play":
        mine = []
    if not mine:
        _mark_melded(melded, turn)
    unknown = view["pile"]["count"] - len(pile)
    if taken or unknown < 0:
        unknown = 0
    if unknown and not pile:  # the dealt pile: its top card shows
        pile = [view["pile"]["top"]]
        unknown -= 1
    drew: str | None = None
    undo_used = False
    added: Counter[str] = Counter()
    points = 0
    for entry in mine:
        kind = entry["action"]["type"]
        if kind == "draw":
            drew = "stock"
        elif kind == "undo":
            undo_used = True
            added.clear()
            points = 0
        elif kind in ("meld", "take_pile"):
            if kind == "take_pile":
                drew = "pile"
            for meld in entry["public"]["melds"]:
                added[_event_key(meld)] += len(meld["cards"])
                points += sum(VALUE[card] for card in meld["cards"])
    team = rules.seating.team_of(me)
    own = view["teams"][team]["melds"]
    team_melds = dict(zip(_meld_keys(rules, own), (meld["cards"] for meld in own), strict=True))
    base = {rank: len(team_melds.get(rank, [])) - count for rank, count in added.items()}
    return Sight(
        view=view,
        rules=rules,
        pile=pile,
        pile_unknown=unknown,
        known=known,
        drew=drew,
        base=base,
        points=points,
        undo_used=undo_used,
        melded=melded,
        discarded=discarded,
        house={"asked": asked, "question": view.get("question"), "out": out}
        if "to_act" in view
        else None,
    )


def _mark_melded(melded: list[bool], turn: list[LogEntry]) -> None:
    """A finished turn counts as melding (R-OUT-3) when a meld or take outlived its undo."""
    for entry in reversed(turn):
        kind = entry["action"]["type"]
        if kind == "undo":
            return
        if kind in ("meld", "take_pile"):
            melded[entry["seat"]] = True
            return


def _forget(known: list[str], shown: list[str]) -> None:
    for card in shown:
        if card in known:
            known.remove(card)


def log_entry(seat: int, action: Action, event: dict[str, Any], *, viewer: int) -> LogEntry:
    """A move as `viewer` sees it in the log: the service's move entry, as far as bots read it."""
    return {
        "seat": seat,
        "action": action,
        "public": event["public"],
        "private": event["private"] if viewer == seat else None,
    }


# ----------------------------------------------------------------------------- deciding


def decide(
    view: dict[str, Any], log: list[LogEntry], *, rules: Rules, level: str, seed: int
) -> Action:
    """The next action of the seat whose view this is (it must be its turn).

    Depends on nothing but its arguments: the same view, log, rules, level and seed give the
    same action, whatever the cards the seat cannot see.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    seen = sight(view, log, rules=rules)
    rng = random.Random(seed)
    world = seen.world(rng)
    seat = seen.seat
    if level == "beginner":
        return beginner_action(world, seat)
    if level == "club":
        return club_action(world, seat, seen.discarded)
    return expert_action(seen, world, rng)


def play_turn(
    deal: Deal, seat: int, *, level: str, log: list[LogEntry], seed: int, rules: Rules | None = None
) -> list[Action]:
    """Actions that finish `seat`'s turn as a bot of `level` plays it; `deal` is untouched.

    `log` is the deal's log as `seat` sees it so far. The bot sits at a copy of the deal, which
    only answers its moves (a drawn card arrives in its view, as at the real table).
    """
    table = Deal.from_dict(deal.to_dict())
    rules = rules or deal.rules
    seen_log = list(log)
    actions: list[Action] = []
    step = 0
    while table.phase != "over" and table.to_act == seat:
        action = decide(table.view(seat), seen_log, rules=rules, level=level, seed=seed + step)
        try:
            event = table.apply(seat, action)
        except IllegalMove:
            # A pile card the seat could not see (a red three, R-PILE-6) made its take illegal:
            # it plays simply among the actions the table offers it (as the API does).
            action = beginner_action(table, seat)
            event = table.apply(seat, action)
        actions.append(action)
        seen_log.append(log_entry(seat, action, event, viewer=seat))
        step += 1
    return actions


# ----------------------------------------------------------------------------- house rules


def house_action(world: Deal, seat: int, actions: list[Action]) -> Action | None:
    """The house rules' decisions, the same at every level (None: the level decides).

    The partner says yes when going out now costs the team little; a partner who went out is
    followed by laying down whenever the cards allow; a player asks when going out is possible
    and its team is ahead, and after yes goes out at once (the plan comes first).
    """
    if seat != world.turn:  # R-HOUSE-ASK: answering
        question = world.question
        if question is not None and "about" in question:  # R-ACABA-ASK: a bot never gives up
            return {"type": "answer_go_out", "yes": False}
        return {"type": "answer_go_out", "yes": _partner_says_yes(world, seat)}
    if world.phase == "partner_out":  # R-HOUSE-DOUBLE
        return actions[0]  # laying down when offered comes before passing
    question = world.question
    if question is not None and question["answer"]:
        return actions[0]
    if ASK in actions and _ahead(world, world.seating.team_of(seat)):
        return ASK
    return None


def _partner_says_yes(world: Deal, seat: int) -> bool:
    """Yes when the partner's own hand costs little, can be laid down (R-HOUSE-DOUBLE), or the
    opponents are about to go out or the stock to run out; no while it holds points to meld."""
    seating = world.seating
    team = seating.team_of(seat)
    hand = world.hands[seat]
    if sum(VALUE[card] for card in hand) <= 60:
        return True
    rivals = [other for other in seating.seats if seating.team_of(other) != team]
    if min(len(world.hands[other]) for other in rivals) <= 3 or len(world.stock) < 10:
        return True
    return world.rules.double_going_out and (
        going_out_plan(
            hand,
            world.melds[team],
            strict=world.rules.strict_wilds,
            canastas=0,
            points=0,
            discard=False,
        )
        is not None
    )


# ----------------------------------------------------------------------------- beginner


def beginner_action(world: Deal, seat: int) -> Action:
    """Takes the pile when it can, opens and melds naturals when it can, discards the least
    useful card."""
    actions = legal_actions(world, seat)
    house = house_action(world, seat, actions)
    if house is not None:
        return house
    if world.phase == "draw":
        takes = [action for action in actions if action["type"] == "take_pile"]
        return takes[0] if takes else actions[0]
    melds = [action for action in actions if action["type"] == "meld"]
    team = world.seating.team_of(seat)
    plain = [action for action in melds if not _uses_wild(action)]
    if not world.opened[team]:
        opening = [action for action in melds if _reaches_minimum(world, seat, action)]
        if opening:
            return opening[0]
        if any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    elif plain:
        return plain[0]
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    counts = Counter(card[0] for card in world.hands[seat])
    opponents = {rank for other in _rival_teams(world.seating, team) for rank in world.melds[other]}

    def keep(card: str) -> int:
        if card in WILDS:
            return 1000 + VALUE[card]
        if card in BLACK_THREES:
            return -100
        return counts[card[0]] * 40 + VALUE[card] + (60 if card[0] in opponents else 0)

    return min(discards, key=lambda action: keep(action["card"]))


def _reaches_minimum(world: Deal, seat: int, action: Action) -> bool:
    return world.points + _meld_points(action) >= world.minimums[world.seating.team_of(seat)]


def _uses_wild(action: Action) -> bool:
    return any(card in WILDS for meld in action["melds"] for card in meld["cards"])


# ----------------------------------------------------------------------------- club


def club_action(world: Deal, seat: int, discarded: list[Counter[str]]) -> Action:
    """The club heuristic, reading only `seat`'s hand and what the table shows in `world`."""
    actions = legal_actions(world, seat)
    if len(actions) == 1:
        return actions[0]
    house = house_action(world, seat, actions)
    if house is not None:
        return house
    if world.phase == "draw":
        return _club_draw(world, seat, actions)
    return _club_play(world, seat, actions, discarded)


def _club_draw(world: Deal, seat: int, actions: list[Action]) -> Action:
    takes = [action for action in actions if action["type"] == "take_pile"]
    if not takes:
        return actions[0]
    count = len(world.pile)

    def cost(take: Action) -> tuple[int, int]:
        wilds = sum(1 for card in take["cards"] if card in WILDS)
        return wilds, len(take["cards"])

    take = min(takes, key=cost)
    wilds, _ = cost(take)
    team = world.seating.team_of(seat)
    if not world.opened[team] and canasta_opening(world, team):
        return take  # R-HOUSE-7500: the only way this team opens
    # A pile of one or two cards is not worth a wild, nor breaking a pair while more can come.
    if count >= 3 or (wilds == 0 and (count >= 2 or not take["cards"])) or "melds" in take:
        return take
    return next(action for action in actions if action["type"] == "draw")


def _club_play(
    world: Deal, seat: int, actions: list[Action], discarded: list[Counter[str]]
) -> Action:
    seating = world.seating
    team = seating.team_of(seat)
    hand = world.hands[seat]
    melds = [action for action in actions if action["type"] == "meld"]
    opponents = _rival_seats(seating, team)
    danger = min(len(world.hands[other]) for other in opponents) <= 3 or len(world.stock) < 8
    if not world.opened[team]:
        opening = [action for action in melds if _reaches_minimum(world, seat, action)]
        if opening:
            return opening[0]
        if any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    else:
        goes_out = [action for action in melds if _cards_in(action) >= len(hand) - 1]
        if goes_out and _ahead(world, team):
            return max(goes_out, key=_cards_in)
        our = world.melds[team]
        for action in sorted(melds, key=_meld_points, reverse=True):
            entry = action["melds"][0]
            rank = _entry_meld(our, entry)
            wilds = sum(1 for card in entry["cards"] if card in WILDS)
            length = len(our.get(rank, ())) + len(entry["cards"])
            left = len(hand) - len(entry["cards"])
            if left < 2 and not _ahead(world, team):
                continue  # keep cards rather than go out behind
            if not wilds:
                return action
            # Wilds go down to complete a canasta, or when the deal may end any moment.
            if (length >= 7 and len(our.get(rank, ())) < 7) or danger:
                return action
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    keeps = _club_keeps(world, seat, discarded)
    return min(discards, key=lambda action: keeps[action["card"]])


def _entry_meld(melds: dict[str, list[str]], entry: dict[str, Any]) -> str:
    """The key of the team's meld an entry goes to (its rank for a new one; "*" for a wild meld,
    Bolivia)."""
    if "meld" in entry:
        return list(melds)[entry["meld"]]
    rank: str = entry.get("rank") or next((c[0] for c in entry["cards"] if c not in WILDS), "*")
    return rank


def _cards_in(action: Action) -> int:
    return sum(len(meld["cards"]) for meld in action["melds"])


def _meld_points(action: Action) -> int:
    return sum(VALUE[card] for meld in action["melds"] for card in meld["cards"])


def _table_points(world: Deal, team: int) -> int:
    """What a team has on the table now, canasta bonuses and red threes included."""
    points = 0
    for cards in world.melds[team].values():
        points += sum(VALUE[card] for card in cards)
        kind = canasta_kind(cards)
        points += 500 if kind == "natural" else 300 if kind == "mixed" else 0
    reds = len(world.red[team])
    points += red_three_points(reds, packs=world.rules.packs) if world.melds[team] else -100 * reds
    return points


def _ahead(world: Deal, team: int) -> bool:
    """Going out now pays: the team leads every opponent on the table (its partners' cards
    count against it, the opponents' cards against them), or the deal may end soon anyway."""
    seating = world.seating
    held = [len(hand) * 8 for hand in world.hands]

    def standing(side: int) -> int:
        return _table_points(world, side) - sum(held[seat] for seat in seating.teams[side])

    theirs = max(standing(rival) for rival in _rival_teams(seating, team))
    return standing(team) + 100 >= theirs or len(world.stock) < 10


def _club_keeps(world: Deal, seat: int, discarded: list[Counter[str]]) -> dict[str, float]:
    """How much the seat wants to keep each card of its hand; the least wanted is discarded."""
    seating = world.seating
    team = seating.team_of(seat)
    hand = world.hands[seat]
    nxt = seating.next_seat(seat)
    rivals = seating.team_of(nxt)
    opponents_melds = world.melds[rivals]
    our_melds = world.melds[team]
    pile = len(world.pile)
    frozen = world.frozen or not world.opened[rivals]
    near_out = min(len(world.hands[other]) for other in seating.teams[rivals]) <= 3
    # Freeze a big pile the next player could take; otherwise wilds are for canastas.
    freezes = pile >= 7 and not frozen and world.opened[rivals]
    naturals = Counter(card[0] for card in hand if card not in WILDS)
    thrown = discarded[nxt]
    keeps: dict[str, float] = {}
    for card in hand:
        if card in keeps:
            continue
        if card in WILDS:
            keeps[card] = 40.0 if freezes else 1000.0 + VALUE[card]
            continue
        if card in BLACK_THREES:
            keeps[card] = -50.0  # blocks the next player's take (R-PILE-5)
            continue
        rank = card[0]
        keep = 30.0 * min(naturals[rank], 3) + (VALUE[card] if not near_out else -VALUE[card])
        if rank in our_melds:
            keep += 25.0
        if not frozen and rank in opponents_melds:
            keep += 60.0 + 4 * pile  # the next player would take the pile with it
        # A rank the next player threw away is one they are not collecting.
        keep -= 15.0 * min(thrown[rank], 2)
        if not frozen and pile >= 3:
            keep += 2.0 * pile
        keeps[card] = keep
    return keeps


# ----------------------------------------------------------------------------- expert

EXPERT_WORLDS = 24  # determinizations per candidate
EXPERT_CANDIDATES = 4
EXPERT_HORIZON = 8  # turns played on in each world before it is judged


def expert_action(seen: Sight, world: Deal, rng: random.Random) -> Action:
    """Determinized Monte-Carlo over the club's strongest candidates."""
    seat = seen.seat
    actions = legal_actions(world, seat)
    if len(actions) == 1:
        return actions[0]
    house = house_action(world, seat, actions)
    if house is not None:
        return house
    club = club_action(world, seat, seen.discarded)
    candidates = _expert_candidates(world, seat, actions, club, seen.discarded)
    if len(candidates) == 1:
        return candidates[0]
    team = world.seating.team_of(seat)
    totals = [0.0] * len(candidates)
    for _ in range(EXPERT_WORLDS):
        state = seen.world(rng).to_dict()  # the same hidden cards for every candidate
        for index, action in enumerate(candidates):
            sim = Deal.from_dict(state)
            sim.apply(seat, action)
            totals[index] += _rollout(sim, team, seen.discarded)
    best = max(range(len(candidates)), key=lambda i: (totals[i], i == 0))
    return candidates[best]


def _expert_candidates(
    world: Deal,
    seat: int,
    actions: list[Action],
    club: Action,
    discarded: list[Counter[str]],
) -> list[Action]:
    """The club's choice first, then the likeliest alternatives of the same decision.

    Searched: whether and how to take the pile, which card to discard, and whether to go out
    now (the club's judgement of being ahead). Other melds and undo follow the club (a partner
    adds to the team's melds).
    """
    if world.phase == "draw":
        others = [action for action in actions if action != club]
        return [club, *others[: EXPERT_CANDIDATES - 1]]
    if club["type"] == "undo":
        return [club]
    hand_size = len(world.hands[seat])
    going_out = [
        action
        for action in actions
        if action["type"] == "meld" and action != club and _cards_in(action) >= hand_size - 1
    ]
    keeps = _club_keeps(world, seat, discarded)
    discards = sorted(
        (action for action in actions if action["type"] == "discard" and action != club),
        key=lambda action: keeps[action["card"]],
    )
    if club["type"] != "discard":  # a meld: the partner lays it (adding to the team's melds)
        return [club, *going_out[:1]]
    return [club, *[*going_out[:1], *discards][: EXPERT_CANDIDATES - 1]]


def _rollout(sim: Deal, team: int, discarded: list[Counter[str]]) -> float:
    """Plays every seat on with the club heuristic for a few turns; the team's margin."""
    turns = 0
    last = sim.turn
    steps = 0
    while sim.phase != "over" and turns < EXPERT_HORIZON and steps < 200:
        seat = sim.to_act
        sim.apply(seat, club_action(sim, seat, discarded))
        steps += 1
        if sim.turn != last:
            turns += 1
            last = sim.turn
    # The margin over the strongest opponent.
    rivals = _rival_teams(sim.seating, team)
    if sim.result is not None:
        result = sim.result
        return float(result[team]["total"] - max(result[rival]["total"] for rival in rivals))
    return _standing(sim, team) - max(_standing(sim, rival) for rival in rivals)


def _standing(world: Deal, team: int) -> float:
    """A team's expected deal score from here: the table, partial canastas, cards held."""
    points = float(_table_points(world, team))
    for cards in world.melds[team].values():
        if 4 <= len(cards) < 7:
            points += 40.0 * (len(cards) - 3)  # a canasta in the making
    for seat in world.seating.teams[team]:
        points -= sum(VALUE[card] for card in world.hands[seat])
    return points


# ----------------------------------------------------------------------------- autoplay


def autoplay(deal: Deal, seat: int) -> list[Action]:
    """The beginner's turn for `seat` (actions applied in order finish it); `deal` is untouched.

    Plays on a copy, where a drawn card arrives as at the table.
    """
    if deal.phase == "over" or seat != deal.to_act:
        return []
    sim = Deal.from_dict(deal.to_dict())
    actions: list[Action] = []
    while sim.phase != "over" and sim.to_act == seat:
        action = beginner_action(sim, seat)
        sim.apply(seat, action)
        actions.append(action)
    return actions
