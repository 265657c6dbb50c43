"""IllegalMove: a refused action, as a code and its data; the engine words nothing.

Players read a refusal in their language from the club's catalogue (games/illegal_moves.py);
`str(exc)` is the contract's plain gloss of the code, for programs and logs.
"""

# CONTRACT §2's error codes (and those the house rules and Samba add), each with its gloss.
CODES: dict[str, str] = {
    "not_your_turn": "it is not this seat's turn",
    "wrong_phase": "not at this point of the turn (e.g. meld before drawing, draw twice)",
    "unknown_card": "no such card code",
    "card_not_in_hand": "the cards are not in the hand",
    "meld_too_small": "a meld needs three cards or more",
    "mixed_ranks": "the cards do not make one meld (R-MELD-1)",
    "too_many_wilds": "too many wild cards for the meld (R-MELD-2)",
    "wild_only": "wild cards alone start no meld (R-MELD-3)",
    "threes_not_allowed": "threes in an ordinary meld (R-MELD-4)",
    "below_minimum": "the first meld is below the opening minimum (R-OPEN)",
    "minimum_unreachable": "the opening minimum could no longer be reached (R-UNDO-3)",
    "pile_blocked": "a wild card or a three tops the pile (R-PILE-1/5)",
    "pile_frozen": "the pile is frozen (R-FRZ-3)",
    "cannot_take_pile": "the pile cannot be taken (R-PILE)",
    "undo_not_allowed": "undo is not allowed now",
    "must_keep_card": "without the canastas to go out a card must stay in hand (R-OUT-2)",
    "no_canasta": "going out without the canastas it needs (R-OUT-1)",
    "awaiting_partner": "the partner has not answered yet (R-HOUSE-ASK)",
    "must_go_out": "the partner said yes: the player must go out (R-HOUSE-ASK)",
    "may_not_go_out": "the partner said no: the player may not go out (R-HOUSE-ASK)",
    "meld_closed": "the meld is closed at seven cards",
    "deal_over": "the deal is over",
    "bad_action": "not one of the contract's action forms",
}

# The rule (RULES.md's id; README.md's for the tables and house rules) each refusal enforces, so
# a page can link the refusal to the rule's paragraph. A raise that enforces a narrower rule
# than its code's names it (`IllegalMove(..., rule=...)`); input errors name none.
RULE_OF_CODE: dict[str, str] = {
    "not_your_turn": "R-DEAL-1",
    "wrong_phase": "R-TURN-1",
    "meld_too_small": "R-MELD-1",
    "mixed_ranks": "R-MELD-1",
    "too_many_wilds": "R-MELD-2",
    "wild_only": "R-MELD-3",
    "threes_not_allowed": "R-MELD-4",
    "below_minimum": "R-OPEN-1",
    "minimum_unreachable": "R-UNDO-3",
    "pile_blocked": "R-PILE-1",
    "pile_frozen": "R-FRZ-3",
    "cannot_take_pile": "R-PILE-1",
    "undo_not_allowed": "R-UNDO-2",
    "must_keep_card": "R-OUT-2",
    "no_canasta": "R-OUT-1",
    "awaiting_partner": "R-HOUSE-ASK",
    "must_go_out": "R-HOUSE-ASK",
    "may_not_go_out": "R-HOUSE-ASK",
    "deal_over": "R-OUT-4",
}


class IllegalMove(Exception):
    """An action that breaks a rule; the deal is left unchanged.

    `code` is one of CONTRACT §2's words; `why` which refusal of that code it is ("" for the
    code's own) and `data` what it names (a card, points, a meld's number); `rule` the rule id
    it enforces ("" for input errors). str(exc) is the code's gloss with the data.
    """

    def __init__(self, code: str, why: str = "", *, rule: str = "", **data: int | str) -> None:
        self.code = code
        self.why = why
        self.rule = rule or RULE_OF_CODE.get(code, "")
        self.data = data
        super().__init__(code, why)

    def __str__(self) -> str:
        details = [self.why] if self.why else []
        details += [f"{name}={value!r}" for name, value in self.data.items()]
        more = f" [{', '.join(details)}]" if details else ""
        return f"{self.code}: {CODES[self.code]}{more}"

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.why!r})"
