"""The bench's yardstick: a benchmark opponent written from classic strategy (not a bot level).

It stands in for the outside tester of issue 20, a heuristic player written in about an hour
from Jacoby's and Pagat's advice, deciding from the seat's view and the move log alone and
choosing among `legal_actions`:

- hold cards: after melding keep three or four in hand unless going out or the deal is ending;
  meld to build canastas (finish them first, add to melds), new ranks only with cards to spare;
- take the pile whenever a natural pair does it and it holds two cards or more, with a wild
  only when it is large; open with the pile when it can;
- wilds are for canastas; one goes into the pile to freeze it when the opponents could take a
  big pile and no discard is safe;
- discard safely from public information: a rank the next side has melded is deadly into an
  open pile; safe are black threes, ranks the next player threw away or let pass, ranks most of
  whose cards are in sight; then odd cards before pairs, high ones while the pile is small;
- go out when the side is ahead (or the deal is ending); dump points when an opponent is about
  to go out.

Nothing of the levels is reused beyond the engine's reading of the log (`sight`), so the
yardstick measures the levels rather than itself.
"""

from collections import Counter
from typing import Any

from games.engine.cards import BLACK_THREES, VALUE, WILDS
from games.engine.rules import Rules
from games.players import Sight, sight

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
    me = _Seat(sight(view, log, rules=rules), rules)
    if "ask_to_go_out" in kinds and me.ahead():
        return {"type": "ask_to_go_out"}
    if view["phase"] == "draw":
        return _draw(me, actions)
    return _play(me, actions)


def _rank(card: str) -> str:
    return "*" if card in WILDS else card[0]


class _Seat:
    """What the yardstick reads from a view and the log."""

    def __init__(self, seen: Sight, rules: Rules) -> None:
        seating = rules.seating
        view = seen.view
        self.seen = seen
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
        # Cards of each rank in sight: the hand, the pile's known cards, every meld.
        shown = Counter(map(_rank, self.hand)) + Counter(map(_rank, seen.pile))
        for team in self.teams:
            for meld in team["melds"]:
                shown.update(map(_rank, meld["cards"]))
        self.out_of_sight = {rank: 4 * rules.packs - shown[rank] for rank in "AKQJT987654"}

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

    def open_pile(self) -> bool:
        """The next player may take the pile with one natural and a meld or a wild."""
        return not self.pile["frozen"] and self.teams[self.next_team]["opened"]

    def risk(self, rank: str) -> float:
        """How likely the next player takes the pile when a card of `rank` tops it."""
        if self.open_pile() and rank in self.theirs:
            return 1.0
        left = self.out_of_sight.get(rank, 0)
        risk = {0: 0.0, 1: 0.05}.get(left, min(0.15 * left, 0.7))
        if self.open_pile() and left:
            risk = max(risk, 0.25)  # one natural and a wild take an open pile
        if self.seen.passed[self.next][rank]:
            risk *= 0.2  # they let it pass
        elif self.seen.discarded[self.next][rank]:
            risk *= 0.4  # they threw one away
        if not self.teams[self.next_team]["opened"]:
            risk *= 0.6  # the take must also open
        return risk


def _draw(me: _Seat, actions: list[Action]) -> Action:
    takes = [action for action in actions if action["type"] == "take_pile"]
    draw = next((action for action in actions if action["type"] == "draw"), None)
    if not takes or draw is None:
        return takes[0] if takes else actions[0]

    def wilds(take: Action) -> int:
        return sum(1 for card in take["cards"] if card in WILDS)

    take = min(takes, key=lambda take: (wilds(take), len(take["cards"])))
    count = me.pile["count"]
    if "melds" in take or not take["cards"]:
        return take  # opening with the pile, or joining a meld for nothing
    if wilds(take):
        return take if count >= 6 else draw  # a wild is worth more than a small pile
    return take if count >= 2 else draw  # a lone top card is not worth a pair


def _play(me: _Seat, actions: list[Action]) -> Action:
    melds = [action for action in actions if action["type"] == "meld"]
    hand = me.hand
    if not me.teams[me.team]["opened"]:
        opening = [m for m in melds if _points(m) >= me.teams[me.team]["minimum"] - me.seen.points]
        if opening:
            best = min(opening, key=lambda m: (_wilds(m), _cards(m)))
            if len(hand) - _cards(best) >= 3 or me.danger() or me.seen.drew == "pile":
                return best
        elif any(action["type"] == "undo" for action in actions):
            return {"type": "undo"}
    else:
        meld = _meld(me, melds)
        if meld is not None:
            return meld
    discards = [action for action in actions if action["type"] == "discard"]
    if not discards:
        return melds[0] if melds else actions[0]
    keep = _keep_scores(me)
    return min(discards, key=lambda action: keep[action["card"]])


def _meld(me: _Seat, melds: list[Action]) -> Action | None:
    hand = me.hand
    may_go_out = me.ahead() or me.danger()
    going_out = [m for m in melds if _cards(m) >= len(hand) - 1]
    if going_out and may_go_out:
        return max(going_out, key=_cards)
    best: tuple[int, Action] | None = None
    held_wilds = sum(1 for card in hand if card in WILDS)
    for action in melds:
        if action in going_out:
            continue
        entry = action["melds"][0]
        cards = entry["cards"]
        rank = entry.get("rank") or next(_rank(card) for card in cards if card not in WILDS)
        wild = _wilds(action)
        before = len(me.ours.get(rank, ()))
        after = before + len(cards)
        left = len(hand) - len(cards)
        finishing = before < 7 <= after
        enough = me.canastas >= me.need or finishing
        if left <= 1 and not (enough and may_go_out):
            continue  # going out behind, or bare
        if finishing:
            score = 100
        elif me.danger():
            score = 10 + len(cards)  # the deal may end: points on the table
        elif wild:
            # A wild goes down when the hand's wilds finish the canasta.
            if before < 4 or after + held_wilds - wild < 7 or left < 3:
                continue
            score = 30
        elif before:
            if left < 3:
                continue
            score = 50 + after
        else:
            if left < 4:
                continue  # a new meld only with cards to spare
            score = 40 + len(cards)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1] if best else None


def _keep_scores(me: _Seat) -> dict[str, float]:
    """How much the yardstick wants to keep each card: the least wanted is thrown."""
    pile = me.pile["count"] + 1  # what the next player would take
    prize = 20.0 + 15.0 * pile
    naturals = Counter(card[0] for card in me.hand if card not in WILDS)
    risks = {
        card: me.risk(card[0]) * prize
        for card in me.hand
        if card not in WILDS and card not in BLACK_THREES
    }
    safest = min(risks.values(), default=prize)
    keep: dict[str, float] = {}
    for card in me.hand:
        if card in WILDS:
            freeze = me.open_pile() and pile >= 6 and safest >= 0.5 * prize
            keep[card] = 30.0 + VALUE[card] / 5 if freeze else 300.0 + VALUE[card]
            continue
        if card in BLACK_THREES:
            keep[card] = -30.0 if pile >= 3 or safest > 20 or me.danger() else 15.0
            continue
        rank = card[0]
        held = naturals[rank]
        score = {1: 0.0, 2: 30.0}.get(held, 50.0)
        if rank in me.ours:
            score += 15.0
        score += -VALUE[card] if me.danger() else VALUE[card] / 4
        keep[card] = score + risks[card]
    return keep


def _cards(action: Action) -> int:
    return sum(len(meld["cards"]) for meld in action["melds"])


def _wilds(action: Action) -> int:
    return sum(1 for meld in action["melds"] for card in meld["cards"] if card in WILDS)


def _points(action: Action) -> int:
    return sum(VALUE[card] for meld in action["melds"] for card in meld["cards"])
