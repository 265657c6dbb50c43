"""One deal of Canasta: the state machine behind CONTRACT §2.

Every action is validated completely before anything changes, so a refused action leaves
the deal exactly as it was (no copies on the hot path). `commit=False` runs the same checks
without the change; the move generator uses it.
"""

import random
from collections import Counter
from typing import Any

from .actions import Entry, parse_action
from .cards import (
    FULL_DECK_COUNTS,
    RED_THREES,
    SORT_KEY,
    VALUE,
    WILDS,
    full_deck,
    split_codes,
)
from .errors import IllegalMove
from .rules import Rules
from .scoring import CONCEALED_GOING_OUT_BONUS, GOING_OUT_BONUS, canasta_kind, score_team
from .search import opening_plan
from .seating import Seating

Event = dict[str, Any]
# A meld being checked: [naturals, wilds, length] after the cards of this action.
_MeldState = list[int]

FORMAT_VERSION = 1
HAND_SIZE = 11


def _seat_or_error(seat: object, seating: Seating) -> int:
    if type(seat) is not int or seat not in seating.seats:
        last = seating.seats[-1]
        raise IllegalMove(
            "bad_action", f"Место — число от 0 до {last}.", f"A seat is a number from 0 to {last}."
        )
    return seat


class Deal:
    """A deal: hands, stock, pile, the teams' melds and red threes, and whose turn it is.

    Public read-only attributes: rules, dealer, team_scores, minimums, turn, phase
    ("draw" | "play" | "over") and result (CONTRACT `result` once over, else None).
    """

    __slots__ = (
        "base",
        "dealer",
        "drew",
        "frozen",
        "hands",
        "melded",
        "melds",
        "minimums",
        "opened",
        "opened_now",
        "phase",
        "pile",
        "points",
        "red",
        "result",
        "rules",
        "seating",
        "stock",
        "team_scores",
        "turn",
        "undo_used",
    )

    def __init__(self, rules: Rules, dealer: int, team_scores: tuple[int, ...]) -> None:
        self.rules = rules
        self.seating = seating = rules.seating
        self.dealer = dealer
        self.team_scores = team_scores
        self.minimums = [Rules.opening_minimum(score) for score in team_scores]
        self.hands: list[list[str]] = [[] for _ in seating.seats]
        self.stock: list[str] = []  # top card last
        self.pile: list[str] = []  # top card last
        self.frozen = False  # R-FRZ-1 (R-FRZ-2 follows from `opened`)
        self.red: list[list[str]] = [[] for _ in seating.teams]
        self.melds: list[dict[str, list[str]]] = [{} for _ in seating.teams]
        self.opened = [False for _ in seating.teams]
        self.melded = [False for _ in seating.seats]  # the seat melded in an earlier turn (R-OUT-3)
        self.turn = seating.next_seat(dealer)
        self.phase = "draw"
        self.result: list[dict[str, int]] | None = None
        # Turn-local state.
        self.drew: str | None = None  # "stock" | "pile"
        self.base: dict[str, int] = {}  # rank -> length of that meld before this turn
        self.points = 0  # card values melded this turn toward the minimum (R-OPEN-2)
        self.undo_used = False
        self.opened_now = False  # the team reached its minimum in this turn

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
        """Shuffles by `seed`, or uses the stacked `deck` (108 codes, top first)."""
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
        if deck is None:
            codes = full_deck()
            random.Random(seed).shuffle(codes)
        else:
            codes = list(deck)
            if len(codes) != 108 or Counter(codes) != FULL_DECK_COUNTS:
                raise ValueError("deck must hold the 108 cards of CONTRACT §1")
        deal = cls(rules, dealer, tuple(int(score) for score in scores))
        deal._deal(codes)
        return deal

    def _deal(self, codes: list[str]) -> None:
        order = self.seating.round_from(self.turn)
        position = 0
        for _ in range(HAND_SIZE):  # R-DEAL-2, one card at a time from dealer+1
            for seat in order:
                self.hands[seat].append(codes[position])
                position += 1
        pile = [codes[position]]
        position += 1
        stop_on_black = self.rules.upcard_stops_on_black_three
        while _covers_upcard(pile[-1], stop_on_black):  # R-DEAL-3
            pile.append(codes[position])
            position += 1
        self.pile = pile
        self.frozen = any(card in WILDS or card in RED_THREES for card in pile[:-1])  # R-DEAL-4
        self.stock = codes[position:][::-1]
        for seat in order:  # R-DEAL-5
            hand = self.hands[seat]
            i = 0
            while i < len(hand):
                if hand[i] in RED_THREES:
                    self.red[self.seating.team_of(seat)].append(hand.pop(i))
                    hand.append(self.stock.pop())
                else:
                    i += 1

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
        kind, payload = parse_action(action)
        seat = _seat_or_error(seat, self.seating)
        if self.phase == "over":
            raise IllegalMove("deal_over")
        if seat != self.turn:
            raise IllegalMove("not_your_turn")
        if kind == "draw":
            return self._draw(seat, commit)
        if kind == "take_pile":
            cards, entries = payload
            return self._take_pile(seat, cards, entries, commit)
        if kind == "meld":
            return self._meld(seat, payload, commit)
        if kind == "undo":
            return self._undo(seat, commit)
        return self._discard(seat, payload, commit)

    def _draw(self, seat: int, commit: bool) -> Event:
        if self.phase != "draw":
            raise IllegalMove(
                "wrong_phase", "В этот ход вы уже взяли карты.", "You have already drawn this turn."
            )
        if not self.stock:  # R-END-2
            if self.rules.stock_out == "classic" and self._must_take_pile(seat):
                raise IllegalMove(
                    "wrong_phase",
                    "Колода пуста, а верхняя карта стопки подходит к вашей комбинации: "
                    "стопку нужно взять.",
                    "The stock is empty and the top card fits your team's meld: take the pile.",
                )
            if not commit:
                return {}
            self._finish(None)
            return {
                "public": {
                    "type": "draw",
                    "seat": seat,
                    "red_threes": [],
                    "stock_count": 0,
                    "deal_over": True,
                },
                "private": {"cards": []},
            }
        if not commit:
            return {}
        team = self.seating.team_of(seat)
        hand = self.hands[seat]
        stock = self.stock
        drawn: list[str] = []
        reds: list[str] = []
        ended = False
        primary = True
        while True:
            card = stock.pop()
            if card in RED_THREES:  # R-TURN-2
                reds.append(card)
                self.red[team].append(card)
                if not stock:  # a red three as the last card still counts (R-END-1)
                    ended = True
                    break
                primary = False
                continue
            hand.append(card)
            drawn.append(card)
            # R-END-1: drawing the last card ends the deal; a last card taken as a red three's
            # replacement does not (R-END-2). Variant "classic" plays on with the pile.
            ended = primary and not stock and self.rules.stock_out == "club"
            break
        if ended:
            self._finish(None)
        else:
            self.phase = "play"
            self.drew = "stock"
        return {
            "public": {
                "type": "draw",
                "seat": seat,
                "red_threes": reds,
                "stock_count": len(stock),
                "deal_over": ended,
            },
            "private": {"cards": drawn},
        }

    def _must_take_pile(self, seat: int) -> bool:
        """Variant stock_out="classic": the top card fits the team's meld, pile not frozen."""
        team = self.seating.team_of(seat)
        if not self.pile or self.frozen or self.pile[-1][0] not in self.melds[team]:
            return False
        try:
            self._take_pile(seat, [], [], False)
        except IllegalMove:
            return False
        return True

    def _take_pile(self, seat: int, cards: list[str], entries: list[Entry], commit: bool) -> Event:
        if self.phase != "draw":
            raise IllegalMove(
                "wrong_phase", "В этот ход вы уже взяли карты.", "You have already drawn this turn."
            )
        pile = self.pile
        if not pile:
            raise IllegalMove("cannot_take_pile", "Стопка пуста.", "The pile is empty.")
        top = pile[-1]
        if top in WILDS or top[0] == "3":  # R-PILE-1, R-PILE-5
            raise IllegalMove("pile_blocked")
        team = self.seating.team_of(seat)
        rank = top[0]
        wild_count = 0
        for card in cards:
            if card in WILDS:
                wild_count += 1
            elif card[0] == "3":
                raise IllegalMove("threes_not_allowed")
            elif card[0] != rank:
                raise IllegalMove(
                    "mixed_ranks",
                    "С верхней картой выкладывают карты того же достоинства.",
                    "The top card is melded with cards of its own rank.",
                )
        natural_count = len(cards) - wild_count
        opened = self.opened[team]
        if self.frozen or not opened:  # R-FRZ-1..3
            if wild_count or natural_count < 2:
                if opened:
                    ru, en = "Стопка заморожена", "The pile is frozen"
                else:
                    ru = "Пока команда ничего не выложила, стопка для неё заморожена"
                    en = "Until your team has opened, the pile is frozen for it"
                raise IllegalMove(
                    "pile_frozen",
                    f"{ru}: взять её можно только парой своих обычных карт того же достоинства.",
                    f"{en}: take it only with a natural pair of the top card's rank.",
                )
        elif rank not in self.melds[team] and (natural_count < 1 or len(cards) < 2):  # R-PILE-4
            raise IllegalMove(
                "cannot_take_pile",
                "Нужны две свои карты того же достоинства, или одна такая и дикая, "
                "или своя комбинация этого достоинства.",
                "You need two cards of that rank, or one and a wild card, or your team's meld "
                "of that rank.",
            )
        hand = self.hands[seat]
        used = cards + [card for _, meld_cards in entries for card in meld_cards]
        _require_in_hand(hand, used)
        sim: dict[str, _MeldState] = {}
        resolved, points, black = self._check_entries(team, [(rank, [top, *cards]), *entries], sim)
        rest = pile[:-1]
        reds = [card for card in rest if card in RED_THREES]  # R-PILE-6
        left = len(hand) - len(used) + len(rest) - len(reds)
        canasta = self._has_canasta(team, sim)
        if black:
            _check_black_threes(left, canasta)
        if len(hand) == 1 and len(pile) == 1:  # R-PILE-3 first sentence, canasta or not
            raise IllegalMove(
                "cannot_take_pile",
                "С одной картой в руке стопку из одной карты не берут.",
                "Holding one card, you may not take a pile of one card.",
            )
        if not canasta and left < 2:  # R-PILE-3: with a canasta, no card left is going out
            raise IllegalMove(
                "cannot_take_pile",
                "Без канасты в команде стопку не взять, если после выкладки и сброса у вас не "
                "останется карт.",
                "Without a team canasta you cannot take the pile when you would hold no card "
                "after melding and discarding.",
            )
        if not opened and points < self.minimums[team]:  # R-OPEN-4, R-FRZ-4
            raise _below_minimum(points, self.minimums[team])
        if not commit:
            return {}
        for card in used:
            hand.remove(card)
        self._lay(team, resolved)
        hand.extend(card for card in rest if card not in RED_THREES)
        self.red[team].extend(reds)
        pile.clear()
        self.frozen = False
        self.points = points
        if not opened:
            self.opened[team] = True
            self.opened_now = True
        self.phase = "play"
        self.drew = "pile"
        if left == 0:
            self._finish(seat)
        return {
            "public": {
                "type": "take_pile",
                "seat": seat,
                "top": top,
                "count": len(rest) + 1,
                "melds": _meld_events(resolved),
                "red_threes": reds,
                "deal_over": self.phase == "over",
            },
            "private": {"cards": [card for card in rest if card not in RED_THREES]},
        }

    def _meld(self, seat: int, entries: list[Entry], commit: bool) -> Event:
        if self.phase != "play":
            raise IllegalMove("wrong_phase", "Сначала возьмите карту.", "Draw before you meld.")
        team = self.seating.team_of(seat)
        hand = self.hands[seat]
        used = [card for _, meld_cards in entries for card in meld_cards]
        _require_in_hand(hand, used)
        sim: dict[str, _MeldState] = {}
        resolved, points, black = self._check_entries(team, entries, sim)
        left = len(hand) - len(used)
        canasta = self._has_canasta(team, sim)
        if black:
            _check_black_threes(left, canasta)
        if not canasta and left < 2:  # R-OUT-2
            raise IllegalMove("must_keep_card")
        opened = self.opened[team]
        total = self.points + points
        minimum = self.minimums[team]
        if not opened and total < minimum:
            exempt = self._exempt_from_minimum(canasta)
            if left == 0 and not exempt:
                raise _below_minimum(total, minimum)
            if self.undo_used and left > 0:  # R-UNDO-3
                after_hand = list(hand)
                for card in used:
                    after_hand.remove(card)
                after_melds = {rank: list(cards) for rank, cards in self.melds[team].items()}
                for rank, cards in resolved:
                    after_melds.setdefault(rank, []).extend(cards)
                plan = opening_plan(
                    after_hand,
                    after_melds,
                    strict=self.rules.strict_wilds,
                    target=minimum - total,
                    exempt_out=self.rules.concealed_out_skips_minimum and self.drew == "stock",
                )
                if plan is None:
                    raise IllegalMove("minimum_unreachable")
        if not commit:
            return {}
        for card in used:
            hand.remove(card)
        self._lay(team, resolved)
        self.points = total
        if not opened and total >= minimum:
            self.opened[team] = True
            self.opened_now = True
        if left == 0:  # R-OUT-1: melded the whole hand
            self._finish(seat)
        return {
            "public": {
                "type": "meld",
                "seat": seat,
                "melds": _meld_events(resolved),
                "opened": self.opened[team],
                "deal_over": self.phase == "over",
            },
            "private": {},
        }

    def _undo(self, seat: int, commit: bool) -> Event:
        if self.phase != "play" or not self.base:
            raise IllegalMove(
                "undo_not_allowed",
                "«Вернуть как было»: в этот ход вы ещё ничего не выложили.",
                "Undo: you have melded nothing this turn.",
            )
        if self.drew == "pile":  # R-UNDO-2
            raise IllegalMove(
                "undo_not_allowed",
                "Взятую стопку не возвращают: «Вернуть как было» нельзя.",
                "A taken pile cannot be undone.",
            )
        if self.undo_used:
            raise IllegalMove(
                "undo_not_allowed",
                "«Вернуть как было» можно только один раз за ход.",
                "Undo may be used only once per turn.",
            )
        if not commit:
            return {}
        team = self.seating.team_of(seat)
        melds = self.melds[team]
        hand = self.hands[seat]
        returned: list[str] = []
        for rank, length in self.base.items():  # R-UNDO-1
            meld = melds[rank]
            returned.extend(meld[length:])
            if length:
                del meld[length:]
            else:
                del melds[rank]
        hand.extend(returned)
        if self.opened_now:
            self.opened[team] = False
            self.opened_now = False
        self.base = {}
        self.points = 0
        self.undo_used = True
        return {"public": {"type": "undo", "seat": seat, "cards": returned}, "private": {}}

    def _discard(self, seat: int, card: str, commit: bool) -> Event:
        if self.phase != "play":
            raise IllegalMove("wrong_phase", "Сначала возьмите карту.", "Draw before you discard.")
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalMove("card_not_in_hand")
        team = self.seating.team_of(seat)
        left = len(hand) - 1
        if left == 0:  # going out (R-OUT-1), with the R-OPEN-5 variant's exemption
            canasta = self._has_canasta(team, {})
            if not self.opened[team] and self.base and not self._exempt_from_minimum(canasta):
                raise _below_minimum(self.points, self.minimums[team])
            if not canasta:
                raise IllegalMove("no_canasta")
        elif not self.opened[team] and self.base:  # R-OPEN-3
            raise _below_minimum(self.points, self.minimums[team])
        if not commit:
            return {}
        hand.remove(card)
        self.pile.append(card)
        if card in WILDS:  # R-FRZ-1
            self.frozen = True
        if left == 0:
            self._finish(seat)
        else:
            self._end_turn()
        return {
            "public": {
                "type": "discard",
                "seat": seat,
                "card": card,
                "deal_over": self.phase == "over",
            },
            "private": {},
        }

    # ----------------------------------------------------------------- helpers

    def _check_entries(
        self, team: int, entries: list[Entry], sim: dict[str, _MeldState]
    ) -> tuple[list[tuple[str, list[str]]], int, bool]:
        """Checks meld entries in order against the team's melds (R-MELD-1..4).

        Records the resulting meld shapes in `sim`; returns the entries with their ranks,
        the card points they add and whether black threes are among them.
        """
        strict = self.rules.strict_wilds
        melds = self.melds[team]
        resolved: list[tuple[str, list[str]]] = []
        points = 0
        black = False
        for hint, cards in entries:
            natural_rank: str | None = None
            naturals = wilds = blacks = 0
            for card in cards:
                if card in WILDS:
                    wilds += 1
                elif card[0] == "3":
                    if card in RED_THREES:
                        raise IllegalMove(
                            "threes_not_allowed",
                            "Красные тройки не выкладывают в комбинации.",
                            "Red threes never go into melds.",
                        )
                    blacks += 1
                else:
                    if natural_rank is None:
                        natural_rank = card[0]
                    elif card[0] != natural_rank:
                        raise IllegalMove("mixed_ranks")
                    naturals += 1
            if blacks:  # R-MELD-4
                if naturals or wilds or hint not in (None, "3"):
                    raise IllegalMove(
                        "threes_not_allowed",
                        "Чёрные тройки выкладывают только отдельно, без диких карт.",
                        "Black threes are melded only on their own, with no wild cards.",
                    )
                if "3" in melds or "3" in sim:
                    raise IllegalMove("threes_not_allowed")
                if blacks < 3:
                    raise IllegalMove("meld_too_small")
                sim["3"] = [blacks, 0, blacks]
                black = True
                rank = "3"
            else:
                if natural_rank is None:
                    if hint == "3":
                        raise IllegalMove("threes_not_allowed")
                    if hint is None:
                        raise IllegalMove(
                            "wild_only",
                            "Укажите достоинство комбинации, к которой докладываете дикую карту.",
                            "Name the rank of the meld the wild card joins.",
                        )
                    rank = hint
                    if rank not in sim and rank not in melds:  # R-MELD-3
                        raise IllegalMove("wild_only")
                else:
                    if hint is not None and hint != natural_rank:
                        raise IllegalMove("mixed_ranks")
                    rank = natural_rank
                state = sim.get(rank)
                if state is None and rank in melds:
                    existing = melds[rank]
                    on_wilds = sum(1 for card in existing if card in WILDS)
                    state = [len(existing) - on_wilds, on_wilds, len(existing)]
                if state is None:
                    if len(cards) < 3:
                        raise IllegalMove("meld_too_small")
                    state = [0, 0, 0]
                naturals += state[0]
                wilds += state[1]
                if wilds > 3 or (wilds >= naturals if strict else wilds > naturals):  # R-MELD-2
                    raise IllegalMove("too_many_wilds")
                sim[rank] = [naturals, wilds, state[2] + len(cards)]
            points += sum(VALUE[card] for card in cards)
            resolved.append((rank, cards))
        return resolved, points, black

    def _has_canasta(self, team: int, sim: dict[str, _MeldState]) -> bool:
        return any(len(meld) >= 7 for meld in self.melds[team].values()) or any(
            state[2] >= 7 for state in sim.values()
        )

    def _exempt_from_minimum(self, canasta: bool) -> bool:
        """Variant concealed_out_skips_minimum (R-OPEN-5): going out after a stock draw with a
        canasta. Only an unopened team asks, so every meld of the team was laid this turn."""
        return self.rules.concealed_out_skips_minimum and self.drew == "stock" and canasta

    def _lay(self, team: int, resolved: list[tuple[str, list[str]]]) -> None:
        melds = self.melds[team]
        for rank, cards in resolved:
            meld = melds.get(rank)
            if meld is None:
                melds[rank] = meld = []
            self.base.setdefault(rank, len(meld))
            meld.extend(cards)

    def _end_turn(self) -> None:
        if self.base:
            self.melded[self.turn] = True
        self.drew = None
        self.base = {}
        self.points = 0
        self.undo_used = False
        self.opened_now = False
        self.turn = self.seating.next_seat(self.turn)
        self.phase = "draw"

    def _finish(self, out_seat: int | None) -> None:
        """R-OUT-4 / R-END: the deal is over; score it (R-SCORE-1)."""
        seating = self.seating
        going_out = [0 for _ in seating.teams]
        if out_seat is not None:
            team = seating.team_of(out_seat)
            concealed = (
                not self.melded[out_seat]
                and all(length == 0 for length in self.base.values())
                and any(len(self.melds[team][rank]) >= 7 for rank in self.base)
            )  # R-OUT-3
            going_out[team] = CONCEALED_GOING_OUT_BONUS if concealed else GOING_OUT_BONUS
        self.result = [
            score_team(
                list(self.melds[team].values()),
                len(self.red[team]),
                [self.hands[seat] for seat in seats],
                going_out[team],
            )
            for team, seats in enumerate(seating.teams)
        ]
        self.phase = "over"

    # ----------------------------------------------------------------- reading

    def hand(self, seat: int) -> list[str]:
        return list(self.hands[seat])

    def undo_available(self, seat: int | None) -> bool:
        return (
            seat == self.turn
            and self.phase == "play"
            and self.drew == "stock"
            and not self.undo_used
            and bool(self.base)
        )

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
        view["teams"] = [
            {
                "opened": self.opened[team],
                "minimum": self.minimums[team],
                "red_threes": list(self.red[team]),
                "melds": [
                    {"rank": rank, "cards": list(cards), "canasta": canasta_kind(cards)}
                    for rank, cards in self.melds[team].items()
                ],
            }
            for team in range(len(self.seating.teams))
        ]
        view["undo_available"] = self.undo_available(seat)
        view["result"] = [dict(line) for line in self.result] if self.result else None
        return view

    # ----------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """The full state, JSON-safe and compact (cards packed into strings)."""
        return {
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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Deal":
        if not isinstance(data, dict) or data.get("v") != FORMAT_VERSION:
            raise ValueError("not a deal state of this engine version")
        scores = data["scores"]
        deal = cls(Rules.from_options(data["rules"]), data["dealer"], tuple(scores))
        deal.turn = data["turn"]
        deal.phase = data["phase"]
        deal.hands = [split_codes(hand) for hand in data["hands"]]
        deal.stock = split_codes(data["stock"])
        deal.pile = split_codes(data["pile"])
        deal.frozen = data["frozen"]
        deal.red = [split_codes(reds) for reds in data["red"]]
        deal.melds = [
            {rank: split_codes(cards) for rank, cards in melds} for melds in data["melds"]
        ]
        deal.opened = list(data["opened"])
        deal.melded = list(data["melded"])
        deal.drew = data["drew"]
        deal.base = {rank: length for rank, length in data["base"]}
        deal.points = data["points"]
        deal.undo_used = data["undo_used"]
        deal.opened_now = data["opened_now"]
        deal.result = [dict(line) for line in data["result"]] if data["result"] else None
        return deal


def _covers_upcard(card: str, stop_on_black_three: bool) -> bool:
    """R-DEAL-3: a wild or a three turned up is covered by the next stock card."""
    if card in WILDS or card in RED_THREES:
        return True
    return card[0] == "3" and not stop_on_black_three


def _require_in_hand(hand: list[str], cards: list[str]) -> None:
    if not cards:
        return
    have = Counter(hand)
    for card, count in Counter(cards).items():
        if have[card] < count:
            raise IllegalMove(
                "card_not_in_hand",
                f"Карты {card} у вас в руке нет (или их меньше).",
                f"You do not hold {card} (or not that many).",
            )


def _check_black_threes(left: int, canasta: bool) -> None:
    """R-MELD-4 DECIDED: black threes only while going out, with a team canasta."""
    if left > 1:
        raise IllegalMove(
            "threes_not_allowed",
            "Чёрные тройки выкладывают только при выходе: после них в руке остаётся не больше "
            "одной карты.",
            "Black threes are melded only when going out: at most one card may stay in hand.",
        )
    if not canasta:
        raise IllegalMove("no_canasta")


def _below_minimum(points: int, minimum: int) -> IllegalMove:
    return IllegalMove(
        "below_minimum",
        f"Первая выкладка набирает {points} очков, а нужно не меньше {minimum}.",
        f"The first meld is worth {points} points; it needs at least {minimum}.",
    )


def _meld_events(resolved: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
    return [{"rank": rank, "cards": list(cards)} for rank, cards in resolved]
