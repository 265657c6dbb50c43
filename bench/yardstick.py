"""The bench's yardstick: a benchmark opponent written from classic strategy (not a bot level).

It stands in for the outside tester of issue 20, a heuristic player written in about an hour
from Jacoby's and Pagat's advice, deciding from the seat's view and the move log alone and
choosing among `legal_actions`:

- keep cards in hand: meld new ranks only with cards to spare, never meld yourself bare;
- take the pile whenever it is cheap, never spend a wild on a small pile;
- open as soon as the minimum allows (the pile is frozen for a side that has not opened);
- wilds are for canastas; one goes into the pile to freeze it when the opponents could take a
  big pile;
- discard safely from public information: black threes, ranks the next opponent threw away or
  cannot take (no meld of theirs, dead ranks), odd high cards before pairs;
- go out when the side is ahead; meld down when an opponent is about to go out.

Nothing of the levels is reused beyond the engine's reading of the log (`sight`), so the
yardstick measures the levels rather than itself.
"""

from collections import Counter
from typing import Any

from games.engine.cards import BLACK_THREES, VALUE, WILDS
from games.engine.rules import Rules
from games.engine.sight import sight

Action = dict[str, Any]


def yardstick_action(
    view: dict[str, Any], log: list[dict[str, Any]], actions: list[Action], rules: Rules
) -> Action:
    """The yardstick's choice among the seat's legal `actions`."""
    if len(actions) == 1:
        return actions[0]
    kinds = {action["type"] for action in actions}
    if "answer_go_out" in kinds:
        yes = sum(VALUE[card] for card in view["hand"]) <= 60
        return {"type": "answer_go_out", "yes": yes}
    if view["phase"] == "partner_out":
        return actions[0]
    question = view.get("question")
    if question is not None and question["answer"]:
        return actions[0]
    me = _Seat(view, rules)
    if "ask_to_go_out" in kinds and me.ahead():
        return {"type": "ask_to_go_out"}
    if view["phase"] == "draw":
        return _draw(me, actions)
    return _play(me, actions, sight(view, log, rules=rules).discarded)


class _Seat:
    """What the yardstick reads from a view."""

    def __init__(self, view: dict[str, Any], rules: Rules) -> None:
        seating = rules.seating
        self.view = view
        self.seat: int = view["seat"]
        self.team = seating.team_of(self.seat)
        self.hand: list[str] = view["hand"]
        self.teams = view["teams"]
        self.ours = {meld["rank"]: meld["cards"] for meld in self.teams[self.team]["melds"]}
        self.next = seating.next_seat(self.seat)
        self.next_team = seating.team_of(self.next)
        self.theirs = {meld["rank"] for meld in self.teams[self.next_team]["melds"]}
        counts = view["hand_counts"]
        self.rival_cards = min(counts[s] for s in seating.seats if seating.team_of(s) != self.team)
        self.stock = view["stock_count"]
        self.pile = view["pile"]
        self.canastas = sum(1 for meld in self.teams[self.team]["melds"] if meld["canasta"])
        self.need = rules.canastas_to_go_out
        self.rules = rules

    def danger(self) -> bool:
        return self.rival_cards <= 3 or self.stock < 8

    def table(self, team: int) -> int:
        total = 100 * len(self.teams[team]["red_threes"])
        for meld in self.teams[team]["melds"]:
            total += sum(VALUE[card] for card in meld["cards"])
            total += {"natural": 500, "mixed": 300}.get(meld["canasta"] or "", 0)
        return total

    def ahead(self) -> bool:
        others = [self.table(t) for t in range(len(self.teams)) if t != self.team]
        return self.table(self.team) + 100 >= max(others) or self.stock < 10


def _draw(me: _Seat, actions: list[Action]) -> Action:
    takes = [action for action in actions if action["type"] == "take_pile"]
    draw = next((action for action in actions if action["type"] == "draw"), None)
    if not takes:
        return actions[0]

    def wilds(take: Action) -> int:
        return sum(1 for card in take["cards"] if card in WILDS)

    take = min(takes, key=lambda take: (wilds(take), len(take["cards"])))
    if draw is None or "melds" in take:
        return take  # opening with the pile, or the only way on
    if wilds(take) and me.pile["count"] < 5:
        return draw  # a wild is worth more than a small pile
    return take


def _play(me: _Seat, actions: list[Action], discarded: list[Counter[str]]) -> Action:
    melds = [action for action in actions if action["type"] == "meld"]
    hand = me.hand
    opened = me.teams[me.team]["opened"]
    if not opened:
        opening = [m for m in melds if _points(m) >= me.teams[me.team]["minimum"]]
        if opening:
            return opening[0]
        if any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    else:
        going_out = [m for m in melds if _cards(m) >= len(hand) - 1]
        if going_out:
            return max(going_out, key=_cards)
        best = None
        for action in melds:
            entry = action["melds"][0]
            cards = entry["cards"]
            rank = entry.get("rank") or next(card[0] for card in cards if card not in WILDS)
            wild = sum(1 for card in cards if card in WILDS)
            on_table = len(me.ours.get(rank, ()))
            left = len(hand) - len(cards)
            if left < 2 and not (me.canastas >= me.need and me.ahead()):
                continue
            if wild:
                # Wilds go down to finish a canasta, or when the deal may end any moment.
                if not ((on_table < 7 <= on_table + len(cards)) or me.danger()):
                    continue
            elif not on_table and left < 5 and not me.danger():
                continue  # a new meld only with cards to spare: never meld bare
            elif on_table and left < 3 and not me.danger():
                continue
            if best is None or _cards(action) > _cards(best):
                best = action
        if best is not None:
            return best
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    keep = _keep_scores(me, discarded)
    return min(discards, key=lambda action: keep[action["card"]])


def _keep_scores(me: _Seat, discarded: list[Counter[str]]) -> dict[str, float]:
    """How much the yardstick wants to keep each card: the least wanted is thrown."""
    pile = me.pile
    opponents_open = me.teams[me.next_team]["opened"]
    frozen = pile["frozen"] or not opponents_open
    freeze = not frozen and pile["count"] >= 8 and len(me.theirs) >= 2
    naturals = Counter(card[0] for card in me.hand if card not in WILDS)
    thrown = discarded[me.next]
    keep: dict[str, float] = {}
    for card in me.hand:
        if card in WILDS:
            keep[card] = 20.0 if freeze else 500.0 + VALUE[card]
            continue
        if card in BLACK_THREES:
            keep[card] = -40.0 if pile["count"] >= 2 or me.danger() else 5.0
            continue
        rank = card[0]
        score = 25.0 * min(naturals[rank], 3)
        score += -VALUE[card] if me.danger() else VALUE[card] / 2
        if rank in me.ours:
            score += 15.0
        if not frozen and rank in me.theirs:
            score += 80.0 + 3 * pile["count"]
        elif not frozen and naturals[rank] == 1:
            score += pile["count"]  # a lone card may pair the next player's
        score -= 12.0 * min(thrown[rank], 2)
        keep[card] = score
    return keep


def _cards(action: Action) -> int:
    return sum(len(meld["cards"]) for meld in action["melds"])


def _points(action: Action) -> int:
    return sum(VALUE[card] for meld in action["melds"] for card in meld["cards"])
