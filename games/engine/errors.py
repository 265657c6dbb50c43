"""IllegalMove: a refused action, with a code for programs and a message for players."""

MESSAGES: dict[str, tuple[str, str]] = {
    "not_your_turn": ("Сейчас не ваш ход.", "It is not your turn."),
    "wrong_phase": ("Сейчас этот ход сделать нельзя.", "That move is not possible now."),
    "unknown_card": ("Такой карты нет.", "There is no such card."),
    "card_not_in_hand": ("Этой карты нет у вас в руке.", "That card is not in your hand."),
    "meld_too_small": (
        "В комбинации должно быть не меньше трёх карт.",
        "A meld needs at least three cards.",
    ),
    "mixed_ranks": (
        "В комбинации все обычные карты должны быть одного достоинства.",
        "All natural cards of a meld must be of one rank.",
    ),
    "too_many_wilds": (
        "Слишком много диких карт: обычных должно быть больше, а диких — не больше трёх.",
        "Too many wild cards: naturals must outnumber wilds, and a meld holds at most three.",
    ),
    "wild_only": (
        "Начать комбинацию одними дикими картами нельзя.",
        "A meld cannot be started with wild cards alone.",
    ),
    "threes_not_allowed": (
        "Тройки в обычные комбинации не идут; чёрные тройки выкладывают только при выходе.",
        "Threes never go into ordinary melds; black threes are melded only when going out.",
    ),
    "below_minimum": (
        "Первая выкладка не набирает минимум очков.",
        "The first meld does not reach the opening minimum.",
    ),
    "minimum_unreachable": (
        "После этой выкладки минимум уже не набрать, а «Вернуть как было» уже использовано.",
        "After this meld the minimum can no longer be reached, and undo has been used.",
    ),
    "pile_blocked": (
        "Стопку сейчас не взять: сверху дикая карта или тройка.",
        "The pile cannot be taken: a wild card or a three is on top.",
    ),
    "pile_frozen": (
        "Стопка заморожена: взять её можно только парой своих обычных карт того же достоинства.",
        "The pile is frozen: it can be taken only with a natural pair of the top card's rank.",
    ),
    "cannot_take_pile": ("Стопку сейчас взять нельзя.", "You cannot take the pile now."),
    "undo_not_allowed": (
        "«Вернуть как было» сейчас нельзя.",
        "Undo is not allowed now.",
    ),
    "must_keep_card": (
        "Без канасты в команде нельзя остаться без карт: оставьте в руке хотя бы две.",
        "Without a team canasta you must keep cards: leave at least two in your hand.",
    ),
    "no_canasta": (
        "Выйти можно, только когда у команды есть канаста.",
        "You may go out only when your team has a canasta.",
    ),
    "awaiting_partner": (
        "Вы спросили партнёра, можно ли выходить: дождитесь ответа.",
        "You asked your partner whether to go out: wait for the answer.",
    ),
    "must_go_out": (
        "Партнёр ответил «да»: в этот ход вы должны выйти.",
        "Your partner said yes: you must go out this turn.",
    ),
    "may_not_go_out": (
        "Партнёр ответил «нет»: в этот ход выходить нельзя.",
        "Your partner said no: you may not go out this turn.",
    ),
    "meld_closed": (
        "Эта комбинация закрыта на семи картах.",
        "That meld is closed at seven cards.",
    ),
    "deal_over": ("Раздача уже закончилась.", "The deal is over."),
    "bad_action": ("Непонятный ход.", "That is not a valid action."),
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

    `code` is one of CONTRACT §2's words; str(exc) is the Russian message; `rule` the rule id
    it enforces ("" for input errors).
    """

    def __init__(
        self, code: str, ru: str | None = None, en: str | None = None, *, rule: str = ""
    ) -> None:
        default_ru, default_en = MESSAGES[code]
        self.code = code
        self.rule = rule or RULE_OF_CODE.get(code, "")
        self.ru = ru or default_ru
        self.en = en or default_en
        super().__init__(self.ru)

    def message(self, lang: str = "ru") -> str:
        return self.en if lang.lower().startswith("en") else self.ru

    def __str__(self) -> str:
        return self.ru

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.en!r})"
