"""One deal of Canasta: the state machine behind CONTRACT §2.

Every action is validated completely before anything changes, so a refused action leaves
the deal exactly as it was (no copies on the hot path). `commit=False` runs the same checks
without the change; the move generator uses it. The rules themselves live in the modules of
their area (dealing, turns, melds, opening, pile, going_out, scoring), as functions over the
deal's state that ask the game's `Variant` what differs (variants/); `Deal` is that state with
the contract's methods.
"""

import random
from collections import Counter
from typing import Any

from .actions import parse_action
from .cards import SORT_KEY, deck_counts, full_deck, split_codes
from .dealing import deal_cards
from .errors import IllegalMove
from .going_out import discard
from .house import (
    answer_go_out,
    ask_acaba,
    ask_to_go_out,
    asked_about_acaba,
    canasta_opening,
    check_acaba_answer,
    house_state,
    load_house_state,
    not_to_act,
    pass_out,
    plays_partner_rules,
    require_rule,
    say_acaba,
    to_act,
)
from .melds import lay_down, meld
from .opening import can_undo, undo
from .pile import take_pile
from .rules import Rules
from .seating import Seating
from .state import DealState, Event
from .turns import draw

__all__ = ["Deal", "Event"]

FORMAT_VERSION = 1


def _bad_seat(seating: Seating) -> IllegalMove:
    return IllegalMove("bad_action", "seat", last=seating.seats[-1])


# The house rules' actions (house.py), refused as `bad_action` at a table without their rule.
_HOUSE_ACTIONS = frozenset(
    ("ask_to_go_out", "answer_go_out", "lay_down", "pass", "acaba", "ask_acaba")
)


class Deal(DealState):
    """A deal: hands, stock, pile, the teams' melds and red threes, and whose turn it is.

    Public read-only attributes: rules, seating, dealer, team_scores, minimums, turn, phase
    ("draw" | "play" | "partner_out" | "over"), to_act and result (CONTRACT `result` once
    over, else None). A deal a bot imagines from its seat's view (`from_hands`,
    games/players/sight.py) it reads whole: also hands, stock and pile (top last), frozen, red,
    melds (per team, the game's key -> the cards, variant.py), opened, the turn so far (drew,
    base, points, undo_used) and question.
    """

    __slots__ = ()

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        dealer: int,
        team_scores: tuple[int, ...] | list[int] = (0, 0),
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> "Deal":
        """Shuffles by `seed`, or uses the stacked `deck` (top first): the table's `rules.packs`
        packs, 108 codes, or 162 at six."""
        if not isinstance(rules, Rules):
            raise ValueError("rules must be a Rules")
        seating = rules.seating
        if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in seating.seats:
            raise ValueError(f"dealer must be a seat 0-{seating.seats[-1]}")
        scores = tuple(team_scores)
        if len(scores) != len(seating.teams) or not all(isinstance(s, int) for s in scores):
            raise ValueError("team_scores must be one integer per team")
        if (seed is None) == (deck is None):
            raise ValueError("give exactly one of seed and deck")
        packs = rules.packs
        if deck is None:
            codes = full_deck(packs)
            random.Random(seed).shuffle(codes)
        else:
            codes = list(deck)
            expected = deck_counts(packs)
            if len(codes) != expected.total() or Counter(codes) != expected:
                raise ValueError(
                    f"deck must hold the {expected.total()} cards of {packs} packs (CONTRACT §1)"
                )
        deal = cls(rules, dealer, tuple(int(score) for score in scores))
        deal_cards(deal, codes)
        return deal

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Any) -> Event:
        """Applies `action` for `seat`; returns {"public": {...}, "private": {...}}.

        Raises IllegalMove (and changes nothing) when the action breaks a rule.
        """
        return self._run(seat, action, commit=True)

    def check(self, seat: int, action: Any) -> None:
        """Raises IllegalMove exactly when apply would; never changes the deal."""
        self._run(seat, action, commit=False)

    def is_legal(self, seat: int, action: Any) -> bool:
        try:
            self._run(seat, action, commit=False)
        except IllegalMove:
            return False
        return True

    def _run(self, seat: Any, action: Any, *, commit: bool) -> Event:
        try:
            return self._play(seat, action, commit=commit)
        except IllegalMove as refusal:  # the rule it enforces in this game
            refusal.rule = self.variant.rule_ids.get(refusal.code, refusal.rule)
            raise

    def _play(self, seat: Any, action: Any, *, commit: bool) -> Event:
        kind, payload = parse_action(action)
        if type(seat) is not int or seat not in self.seating.seats:
            raise _bad_seat(self.seating)
        if self.phase == "over":
            raise IllegalMove("deal_over")
        house = kind in _HOUSE_ACTIONS
        if house:
            require_rule(self, kind)
        if seat != self.turn or self.question is not None:  # (one comparison on the hot path)
            if seat != self.to_act:
                raise not_to_act(self, seat)
            if seat != self.turn:  # R-HOUSE-ASK: the partner answers the question
                if kind != "answer_go_out":
                    raise IllegalMove("wrong_phase", "answer_only")
                return answer_go_out(self, seat, payload, commit)
            if asked_about_acaba(self):  # R-ACABA-ASK: the answer binds
                check_acaba_answer(self, kind)
        if house or self.phase == "partner_out":
            return self._run_house(seat, kind, payload, commit)
        if kind == "draw":
            return draw(self, seat, commit)
        if kind == "take_pile":
            cards, entries, target = payload
            return take_pile(self, seat, cards, entries, target, commit)
        if kind == "meld":
            return meld(self, seat, payload, commit)
        if kind == "undo":
            return undo(self, seat, commit)
        return discard(self, seat, payload, commit)

    def _run_house(self, seat: int, kind: str, payload: Any, commit: bool) -> Event:
        """A house-rule action, or any action while the partner lays down (kept off the path
        of the four-handed club game's actions)."""
        if kind == "answer_go_out":
            raise IllegalMove("wrong_phase", "no_question")
        if self.phase == "partner_out":  # R-HOUSE-DOUBLE: the partner lays down or passes
            if kind == "lay_down":
                return lay_down(self, seat, payload, commit)
            if kind == "pass":
                return pass_out(self, seat, commit)
            raise IllegalMove("wrong_phase", "partner_out")
        if kind in ("lay_down", "pass"):
            raise IllegalMove("wrong_phase", "lay_down")
        if kind == "acaba":
            return say_acaba(self, seat, commit)
        if kind == "ask_acaba":
            return ask_acaba(self, seat, commit)
        return ask_to_go_out(self, seat, commit)

    # ----------------------------------------------------------------- reading

    @property
    def to_act(self) -> int:
        """The seat whose action the deal waits for: `turn`, or the partner while a question
        waits (R-HOUSE-ASK). Clocks, notifications and bots follow it."""
        return to_act(self)

    def hand(self, seat: int) -> list[str]:
        return list(self.hands[seat])

    def undo_available(self, seat: int | None) -> bool:
        return can_undo(self, seat)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (CONTRACT §2 "View"); None: a spectator, without "hand"."""
        seats = self.seating.seats
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats
        ):
            raise ValueError(f"seat must be 0-{seats[-1]} or None")
        view: dict[str, Any] = {
            "seat": seat,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
        }
        if seat is not None:
            view["hand"] = sorted(self.hands[seat], key=SORT_KEY.__getitem__)
        pile = self.pile
        view["hand_counts"] = [len(hand) for hand in self.hands]
        view["stock_count"] = len(self.stock)
        view["pile"] = {
            "top": pile[-1] if pile else None,
            "count": len(pile),
            "frozen": self.frozen,
        }
        rules = self.rules
        meld_view = self.variant.meld_view
        view["teams"] = [
            {
                "opened": self.opened[team],
                "minimum": self.minimums[team],
                "red_threes": list(self.red[team]),
                "melds": [meld_view(key, cards) for key, cards in self.melds[team].items()],
            }
            for team in range(len(self.seating.teams))
        ]
        if rules.canasta_opening_from_5000:
            for team, team_view in enumerate(view["teams"]):
                team_view["canasta_opening"] = canasta_opening(self, team)
        view["undo_available"] = can_undo(self, seat)
        if plays_partner_rules(self):
            view["to_act"] = self.to_act
        if rules.ask_partner_to_go_out or rules.acaba:
            view["question"] = dict(self.question) if self.question else None
        view["result"] = [dict(line) for line in self.result] if self.result else None
        return view

    # ----------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """The full state, JSON-safe and compact (cards packed into strings)."""
        data = {
            "v": FORMAT_VERSION,
            "rules": self.rules.to_options(),
            "dealer": self.dealer,
            "scores": list(self.team_scores),
            "turn": self.turn,
            "phase": self.phase,
            "hands": ["".join(hand) for hand in self.hands],
            "stock": "".join(self.stock),
            "pile": "".join(self.pile),
            "frozen": self.frozen,
            "red": ["".join(reds) for reds in self.red],
            "melds": [
                [[rank, "".join(cards)] for rank, cards in melds.items()] for melds in self.melds
            ],
            "opened": list(self.opened),
            "melded": list(self.melded),
            "drew": self.drew,
            "base": [[rank, length] for rank, length in self.base.items()],
            "points": self.points,
            "undo_used": self.undo_used,
            "opened_now": self.opened_now,
            "result": [dict(line) for line in self.result] if self.result else None,
        }
        if plays_partner_rules(self):
            data["house"] = house_state(self)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Deal":
        if not isinstance(data, dict) or data.get("v") != FORMAT_VERSION:
            raise ValueError("not a deal state of this engine version")
        return cls.from_hands(
            Rules.from_options(data["rules"]),
            dealer=data["dealer"],
            team_scores=data["scores"],
            turn=data["turn"],
            phase=data["phase"],
            hands=[split_codes(hand) for hand in data["hands"]],
            stock=split_codes(data["stock"]),
            pile=split_codes(data["pile"]),
            frozen=data["frozen"],
            red=[split_codes(reds) for reds in data["red"]],
            melds=[{rank: split_codes(cards) for rank, cards in melds} for melds in data["melds"]],
            opened=data["opened"],
            melded=data["melded"],
            drew=data["drew"],
            base={rank: length for rank, length in data["base"]},
            points=data["points"],
            undo_used=data["undo_used"],
            opened_now=data["opened_now"],
            result=data["result"],
            house=data.get("house"),
        )

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        *,
        dealer: int,
        team_scores: list[int] | tuple[int, ...],
        turn: int,
        phase: str,
        hands: list[list[str]],
        stock: list[str],
        pile: list[str],
        frozen: bool,
        red: list[list[str]],
        melds: list[dict[str, list[str]]],
        opened: list[bool],
        melded: list[bool],
        drew: str | None,
        base: dict[str, int],
        points: int,
        undo_used: bool,
        opened_now: bool,
        result: list[dict[str, int]] | None,
        house: dict[str, Any] | None = None,
    ) -> "Deal":
        """A deal in the position given: the state's fields as `to_dict` names them, with
        cards as lists (stock and pile top last) and melds per team as key -> cards. For a
        stored state (from_dict) and a bot's guess at the hidden cards (games.players.sight)."""
        deal = cls.__new__(cls)  # not __init__: every field is given
        deal.set_table(rules, dealer, tuple(team_scores))
        deal.turn = turn
        deal.phase = phase
        deal.hands = [list(hand) for hand in hands]
        deal.stock = list(stock)
        deal.pile = list(pile)
        deal.frozen = frozen
        deal.red = [list(reds) for reds in red]
        deal.melds = [{key: list(cards) for key, cards in team.items()} for team in melds]
        deal.opened = list(opened)
        deal.melded = list(melded)
        deal.drew = drew
        deal.base = dict(base)
        deal.points = points
        deal.undo_used = undo_used
        deal.opened_now = opened_now
        deal.result = [dict(line) for line in result] if result else None
        load_house_state(deal, house)
        return deal
