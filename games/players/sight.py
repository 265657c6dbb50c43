"""What a seat knows of a deal, rebuilt from its view and the move log as it sees it.

Bots decide from this alone (fair by construction): the seat's hand, the table, which cards lie
in the pile (the discards are public), which cards another hand took with the pile and has not
shown since, what each seat threw away and which tops it let pass. Cards the seat cannot know
(the stock, the other hands, the pile's dealt cards) are dealt at random from the cards it has
not seen when a bot needs a whole deal to play on (`Sight.world`), seldom a natural pair of a
rank its holder let pass.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine import (
    CANASTA_OPENING_FROM,
    GOING_OUT_BONUS,
    MELD_GROUP,
    RED_THREES,
    VALUE,
    Deal,
    Rules,
    deck_counts,
)

LogEntry = dict[str, Any]
# How often a dealt natural pair of a rank its holder let pass is broken up (a pair takes an
# open pile; the club passes a pile of two cards or more only without one), by game: measured
# at the classic game; Samba's and Bolivia's worlds are dealt without it.
PASSED_PAIR_SPREAD = {"classic": 0.7, "samba": 0.0, "bolivia": 0.0}
# A total giving each minimum (R-OPEN-1, R-TABLE-6-OPEN, R-ART-7000, R-SAMBA-OPEN, R-BOL-OPEN):
# the view shows minimums.
_SCORE_FOR_MINIMUM = {15: -5, 50: 0, 70: 1500, 90: 1500, 120: 3000, 150: 7500, 160: 7000}


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
    # Ranks of the pile's top card each seat let pass (drew from the stock instead of taking).
    passed: list[Counter[str]] = field(default_factory=list)
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
        `rng` from the unseen ones, the hands made likely given the tops each seat let pass."""
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
        spread = PASSED_PAIR_SPREAD[self.rules.game]
        if spread:
            self._spread_passed_pairs(hands, pool, rng, spread)
        covered = pool[: self.pile_unknown]
        del pool[: self.pile_unknown]
        short = self.pile_unknown - len(covered)
        pile = covered + reds[:short] + self.pile
        del reds[:short]
        stock = pool + reds
        rng.shuffle(stock)
        stock = stock[: view["stock_count"]]
        teams = view["teams"]
        scores = [_SCORE_FOR_MINIMUM[team["minimum"]] for team in teams]
        if any(team.get("canasta_opening") for team in teams):  # R-HOUSE-7500
            scores = [
                CANASTA_OPENING_FROM if team.get("canasta_opening") else score
                for team, score in zip(teams, scores, strict=True)
            ]
        return Deal.from_hands(
            self.rules,
            dealer=view["dealer"],
            team_scores=scores,
            turn=view["turn"],
            phase=view["phase"],
            hands=hands,
            stock=stock,
            pile=pile,
            frozen=view["pile"]["frozen"],
            red=[team["red_threes"] for team in teams],
            melds=[
                {
                    key: meld["cards"]
                    for key, meld in zip(
                        self.rules.variant.view_keys(team["melds"]), team["melds"], strict=True
                    )
                }
                for team in teams
            ],
            opened=[team["opened"] for team in teams],
            melded=self.melded,
            drew=self.drew,
            base=self.base,
            points=self.points,
            undo_used=self.undo_used,
            opened_now=self._opened_now(),
            result=view["result"],
            house=self.house,
        )

    def _spread_passed_pairs(
        self, hands: list[list[str]], pool: list[str], rng: random.Random, spread: float
    ) -> None:
        """A seat that let a rank pass on the pile seldom held a natural pair of it: most
        dealt pairs of such a rank lose a card to the cards left for the stock."""
        for seat, ranks in enumerate(self.passed):
            if seat == self.seat or not ranks or not pool:
                continue
            hand = hands[seat]
            first = min(len(self.known.get(seat, ())), len(hand))  # known cards come first
            for rank in ranks:
                if rank == "3":
                    continue
                pair = [i for i in range(first, len(hand)) if MELD_GROUP[hand[i]] == rank]
                if len(pair) < 2 or rng.random() >= spread:
                    continue
                spare = next((j for j, card in enumerate(pool) if MELD_GROUP[card] != rank), None)
                if spare is not None:
                    hand[pair[0]], pool[spare] = pool[spare], hand[pair[0]]

    def _opened_now(self) -> bool:
        """The team reached its minimum in this turn: every meld it has was laid this turn."""
        team = self.view["teams"][self.rules.seating.team_of(self.seat)]
        if not team["opened"] or not self.base:
            return False
        keys = self.rules.variant.view_keys(team["melds"])
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
    passed = [Counter[str]() for _ in seats]
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
        if kind == "draw" and pile and len(turn) == 1:
            passed[seat][pile[-1][0]] += 1
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
                added[rules.variant.event_key(meld)] += len(meld["cards"])
                points += sum(VALUE[card] for card in meld["cards"])
    team = rules.seating.team_of(me)
    own = view["teams"][team]["melds"]
    keys = rules.variant.view_keys(own)
    team_melds = dict(zip(keys, (meld["cards"] for meld in own), strict=True))
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
        passed=passed,
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


def log_entry(seat: int, action: dict[str, Any], event: dict[str, Any], *, viewer: int) -> LogEntry:
    """A move as `viewer` sees it in the log: the service's move entry, as far as bots read it."""
    return {
        "seat": seat,
        "action": action,
        "public": event["public"],
        "private": event["private"] if viewer == seat else None,
    }
