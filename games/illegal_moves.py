"""The engine's refusals in words: Russian and English for every IllegalMove, the one catalogue.

The engine (games/engine) raises codes with their data only (`IllegalMove.code`, `.why`,
`.data`); this module words them. It is pure Python: the club chooses the language, with
`text(*words(refusal))` (club/i18n.py) where the active language decides, or
`message(refusal, language)`.
"""

from games.engine import IllegalMove

_NATURAL_PAIR = (
    "Стопку берут парой своих обычных карт того же достоинства.",
    "The pile is taken with a natural pair of the top card's rank.",
)
_ONE_CARD_PILE = (
    "С одной картой в руке стопку из одной карты не берут.",
    "Holding one card, you may not take a pile of one card.",
)

# code -> why -> (Russian, English): each code's own words under "", then each refusal of it;
# `{name}` takes the refusal's data (str.format).
MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    "not_your_turn": {
        "": ("Сейчас не ваш ход.", "It is not your turn."),
    },
    "wrong_phase": {
        "": ("Сейчас этот ход сделать нельзя.", "That move is not possible now."),
        "meld_before_draw": ("Сначала возьмите карту.", "Draw before you meld."),
        "discard_before_draw": ("Сначала возьмите карту.", "Draw before you discard."),
        "already_drew": ("В этот ход вы уже взяли карты.", "You have already drawn this turn."),
        "must_take_pile": (
            "Колода пуста, а верхняя карта стопки подходит к вашей комбинации: стопку нужно взять.",
            "The stock is empty and the top card fits your team's meld: take the pile.",
        ),
        "answer_only": (
            "Сейчас можно только ответить, выходить ли партнёру.",
            "Now you may only answer whether your partner goes out.",
        ),
        "no_question": ("Вас ни о чём не спрашивали.", "Nobody asked you anything."),
        "partner_out": (
            "Партнёр вышел: выложите всю руку или пропустите.",
            "Your partner went out: lay down your whole hand or pass.",
        ),
        "lay_down": (
            "Выкладывают всю руку или пропускают, только когда партнёр вышел.",
            "You lay down your hand or pass only when your partner has gone out.",
        ),
        "ask_before_draw": (
            "Спросить партнёра можно после того, как вы взяли карты.",
            "You may ask your partner after you have drawn.",
        ),
        "asked_once": (
            "Партнёра спрашивают один раз за раздачу.",
            "You may ask your partner once per deal.",
        ),
        "ask_unopened": (
            "Спрашивают партнёра, когда у стороны уже есть выкладка.",
            "You may ask your partner once your side has opened.",
        ),
        "ask_one_card": (
            "С одной картой в руке остаётся только выйти: спрашивать партнёра поздно.",
            "Holding one card, going out is your only move: it is too late to ask.",
        ),
        "nothing_to_ask": (
            "В этот ход вам не выйти: спрашивать партнёра не о чем.",
            "You cannot go out this turn: there is nothing to ask.",
        ),
        "acaba_asked_once": (
            "Про «Акаба» партнёра спрашивают один раз за раздачу.",
            "You may ask your partner about «Acaba» once per deal.",
        ),
    },
    "unknown_card": {
        "": ("Такой карты нет.", "There is no such card."),
        "card": ("Такой карты нет: {card!r}.", "There is no such card: {card!r}."),
    },
    "card_not_in_hand": {
        "": ("Этой карты нет у вас в руке.", "That card is not in your hand."),
        "card": (
            "Карты {card} у вас в руке нет (или их меньше).",
            "You do not hold {card} (or not that many).",
        ),
    },
    "meld_too_small": {
        "": ("В комбинации должно быть не меньше трёх карт.", "A meld needs at least three cards."),
    },
    "mixed_ranks": {
        "": (
            "В комбинации все обычные карты должны быть одного достоинства.",
            "All natural cards of a meld must be of one rank.",
        ),
        "not_a_run": (
            "Комбинация — карты одного достоинства или одной масти подряд (от 4 до туза), каждая "
            "по разу.",
            "A meld is cards of one rank, or of one suit in unbroken order (4 to ace), each once.",
        ),
        "top_rank": (
            "С верхней картой выкладывают карты того же достоинства.",
            "The top card is melded with cards of its own rank.",
        ),
    },
    "too_many_wilds": {
        "": (
            "Слишком много диких карт: обычных должно быть больше, а диких — не больше трёх.",
            "Too many wild cards: naturals must outnumber wilds, and a meld holds at most three.",
        ),
        "wild_in_sequence": (
            "В последовательность дикие карты не кладут.",
            "Wild cards never go into a sequence.",
        ),
        "group_wilds": (
            "В комбинации одного достоинства не больше двух диких карт, обычных — не меньше двух, "
            "а к канасте дикие карты не добавляют.",
            "A group holds at most two wild cards and at least two naturals, and no wild card "
            "joins a canasta.",
        ),
    },
    "wild_only": {
        "": (
            "Начать комбинацию одними дикими картами нельзя.",
            "A meld cannot be started with wild cards alone.",
        ),
        "name_rank": (
            "Укажите достоинство комбинации, к которой докладываете дикую карту.",
            "Name the rank of the meld the wild card joins.",
        ),
        "name_meld": (
            "Дикую карту докладывают в комбинацию, указав её номер («meld»).",
            'A wild card joins a meld named by its number ("meld").',
        ),
    },
    "threes_not_allowed": {
        "": (
            "Тройки в обычные комбинации не идут; чёрные тройки выкладывают только при выходе.",
            "Threes never go into ordinary melds; black threes are melded only when going out.",
        ),
        "red_three": (
            "Красные тройки не выкладывают в комбинации.",
            "Red threes never go into melds.",
        ),
        "black_threes_alone": (
            "Чёрные тройки выкладывают только отдельно, без диких карт.",
            "Black threes are melded only on their own, with no wild cards.",
        ),
        "black_threes_going_out": (
            "Чёрные тройки выкладывают только при выходе: после них в руке остаётся не больше "
            "одной карты.",
            "Black threes are melded only when going out: at most one card may stay in hand.",
        ),
    },
    "below_minimum": {
        "": (
            "Первая выкладка не набирает минимум очков.",
            "The first meld does not reach the opening minimum.",
        ),
        "points": (
            "Первая выкладка набирает {points} очков, а нужно не меньше {minimum}.",
            "The first meld is worth {points} points; it needs at least {minimum}.",
        ),
        "canasta_opening": (
            "С 5000 очков сторона открывается только целой канастой, собранной одним игроком с "
            "верхней картой стопки.",
            "From 5,000 points a side opens only with a whole canasta that one player makes with "
            "the pile's top card.",
        ),
    },
    "minimum_unreachable": {
        "": (
            "После этой выкладки минимум уже не набрать, а «Вернуть как было» уже использовано.",
            "After this meld the minimum can no longer be reached, and undo has been used.",
        ),
        "after_undo": (
            "После «Вернуть как было» первая выкладка одним ходом набирает минимум: {points} из "
            "{minimum}.",
            "After an undo the first meld reaches the minimum in one go: {points} of {minimum}.",
        ),
    },
    "pile_blocked": {
        "": (
            "Стопку сейчас не взять: сверху дикая карта или тройка.",
            "The pile cannot be taken: a wild card or a three is on top.",
        ),
    },
    "pile_frozen": {
        "": (
            "Стопка заморожена: взять её можно только парой своих обычных карт того же "
            "достоинства.",
            "The pile is frozen: it can be taken only with a natural pair of the top card's rank.",
        ),
        "frozen": (
            "Стопка заморожена: взять её можно только парой своих обычных карт того же "
            "достоинства.",
            "The pile is frozen: take it only with a natural pair of the top card's rank.",
        ),
        "unopened": (
            "Пока команда ничего не выложила, стопка для неё заморожена: взять её можно только "
            "парой своих обычных карт того же достоинства.",
            "Until your team has opened, the pile is frozen for it: take it only with a natural "
            "pair of the top card's rank.",
        ),
        "natural_pair": _NATURAL_PAIR,
    },
    "cannot_take_pile": {
        "": ("Стопку сейчас взять нельзя.", "You cannot take the pile now."),
        "empty": ("Стопка пуста.", "The pile is empty."),
        "pair_or_meld": (
            "Нужны две свои карты того же достоинства, или одна такая и дикая, или своя "
            "комбинация этого достоинства.",
            "You need two cards of that rank, or one and a wild card, or your team's meld of that "
            "rank.",
        ),
        "one_card_pile": _ONE_CARD_PILE,
        "no_card_left": (
            "Без канасты в команде стопку не взять, если после выкладки и сброса у вас не "
            "останется карт.",
            "Without a team canasta you cannot take the pile when you would hold no card after "
            "melding and discarding.",
        ),
        "top_joins_its_rank": (
            "Верхняя карта стопки идёт только в комбинацию своего достоинства.",
            "The top card joins only your team's meld of its rank.",
        ),
        "natural_pair": _NATURAL_PAIR,
        "name_meld": (
            "Укажите комбинацию («meld»), к которой идёт верхняя карта стопки.",
            'Name the meld ("meld") the top card joins.',
        ),
        "top_joins": (
            "Верхняя карта одна идёт только в свою комбинацию, ещё не канасту: того же "
            "достоинства или последовательность, которую она продолжает.",
            "The top card alone joins only a meld of your side that is not yet a canasta: a group "
            "of its rank, or a sequence it extends.",
        ),
        "two_canastas": (
            "Пока нет двух канаст, стопку не взять, если после выкладки и сброса у вас не "
            "останется карт.",
            "Until you have two canastas you cannot take the pile when you would hold no card "
            "after melding and discarding.",
        ),
        "escalera": (
            "Пока нет двух канаст, одна из них эскалера, стопку не взять, если после выкладки и "
            "сброса у вас не останется карт.",
            "Until you have two canastas, one an escalera, you cannot take the pile when you "
            "would hold no card after melding and discarding.",
        ),
    },
    "undo_not_allowed": {
        "": ("«Вернуть как было» сейчас нельзя.", "Undo is not allowed now."),
        "nothing_melded": (
            "«Вернуть как было»: в этот ход вы ещё ничего не выложили.",
            "Undo: you have melded nothing this turn.",
        ),
        "pile_taken": (
            "Взятую стопку не возвращают: «Вернуть как было» нельзя.",
            "A taken pile cannot be undone.",
        ),
        "once_a_turn": (
            "«Вернуть как было» можно только один раз за ход.",
            "Undo may be used only once per turn.",
        ),
        "partner_asked": (
            "После вопроса партнёру выложенное не возвращают.",
            "Once you have asked your partner, the melds stay.",
        ),
    },
    "must_keep_card": {
        "": (
            "Без канасты в команде нельзя остаться без карт: оставьте в руке хотя бы две.",
            "Without a team canasta you must keep cards: leave at least two in your hand.",
        ),
        "two_canastas": (
            "Пока нет двух канаст, без карт оставаться нельзя: оставьте в руке хотя бы две.",
            "Until you have two canastas you must keep cards: leave at least two in your hand.",
        ),
        "escalera": (
            "Пока нет двух канаст, одна из них эскалера, без карт оставаться нельзя: оставьте в "
            "руке хотя бы две.",
            "Until you have two canastas, one an escalera, you must keep cards: leave at least "
            "two.",
        ),
    },
    "no_canasta": {
        "": (
            "Выйти можно, только когда у команды есть канаста.",
            "You may go out only when your team has a canasta.",
        ),
        "two_canastas": (
            "Выйти можно, только когда есть две канасты.",
            "You may go out only with two canastas.",
        ),
        "escalera": (
            "Выйти можно, только когда есть две канасты, одна из них эскалера.",
            "You may go out only with two canastas, one of them an escalera.",
        ),
    },
    "awaiting_partner": {
        "": (
            "Вы спросили партнёра, можно ли выходить: дождитесь ответа.",
            "You asked your partner whether to go out: wait for the answer.",
        ),
    },
    "must_go_out": {
        "": (
            "Партнёр ответил «да»: в этот ход вы должны выйти.",
            "Your partner said yes: you must go out this turn.",
        ),
        "meld_stops_going_out": (
            "Партнёр ответил «да», а после этой выкладки вам уже не выйти.",
            "Your partner said yes, and after this meld you could no longer go out.",
        ),
        "say_acaba": (
            "Партнёр ответил «да»: скажите «Акаба».",
            "Your partner said yes: say «Acaba».",
        ),
    },
    "may_not_go_out": {
        "": (
            "Партнёр ответил «нет»: в этот ход выходить нельзя.",
            "Your partner said no: you may not go out this turn.",
        ),
        "no_acaba": (
            "Партнёр ответил «нет»: в этот ход «Акаба» не говорят.",
            "Your partner said no: no «Acaba» this turn.",
        ),
    },
    "meld_closed": {
        "": ("Эта комбинация закрыта на семи картах.", "That meld is closed at seven cards."),
        "samba_or_bolivia": (
            "Самба и боливия закрыты на семи картах: к ним ничего не добавляют.",
            "A samba or a bolivia is closed at seven cards: nothing joins it.",
        ),
    },
    "deal_over": {
        "": ("Раздача уже закончилась.", "The deal is over."),
    },
    "bad_action": {
        "": ("Непонятный ход.", "That is not a valid action."),
        "card_form": (
            "Непонятный ход: карта должна быть строкой вроде «KH».",
            'Not a valid action: a card is a string like "KH".',
        ),
        "cards_form": (
            "Непонятный ход: «cards» должен быть списком карт.",
            'Not a valid action: "cards" must be a list of cards.',
        ),
        "no_cards": (
            "Непонятный ход: список карт пуст.",
            "Not a valid action: the list of cards is empty.",
        ),
        "melds_form": (
            "Непонятный ход: «melds» должен быть списком комбинаций.",
            'Not a valid action: "melds" must be a list of melds.',
        ),
        "no_melds": (
            "Непонятный ход: нет ни одной комбинации.",
            "Not a valid action: no meld given.",
        ),
        "meld_form": (
            'Непонятный ход: комбинация — это {{"cards": [...], "rank": ...}}.',
            'Not a valid action: a meld is {{"cards": [...], "rank": ...}}.',
        ),
        "rank_form": (
            "Непонятный ход: «rank» — достоинство вроде «K».",
            'Not a valid action: "rank" is a rank like "K".',
        ),
        "rank_or_meld": (
            "Непонятный ход: «rank» или «meld», не оба.",
            'Not a valid action: "rank" or "meld", not both.',
        ),
        "meld_index": (
            "Непонятный ход: «meld» — номер комбинации команды.",
            'Not a valid action: "meld" is the number of a team meld.',
        ),
        "action_form": (
            "Непонятный ход: ход — это объект с полем «type».",
            'Not a valid action: an action is an object with a "type".',
        ),
        "unknown_action": (
            "Непонятный ход: ожидается draw, take_pile, meld, undo или discard в форме из "
            "описания API.",
            "Not a valid action: expected draw, take_pile, meld, undo or discard in the "
            "documented form.",
        ),
        "seat": ("Место — число от 0 до {last}.", "A seat is a number from 0 to {last}."),
        "no_meld": (
            "У команды нет комбинации номер {number}.",
            "Your team has no meld number {number}.",
        ),
        "lay_down_whole_hand": (
            "Выкладывают всю руку: в комбинациях должны быть все ваши карты.",
            "Lay down your whole hand: the melds must hold every card you have.",
        ),
        "pair_starts_meld": (
            "С парой из руки верхняя карта начинает новую комбинацию: «meld» не нужен.",
            'With a pair from the hand the top card starts a new meld: no "meld".',
        ),
        "no_house_rule": (
            "За этим столом такого правила нет.",
            "This table does not play that house rule.",
        ),
    },
}


def words(refusal: IllegalMove) -> tuple[str, str]:
    """The refusal in Russian and in English."""
    ru, en = MESSAGES[refusal.code][refusal.why]
    return ru.format(**refusal.data), en.format(**refusal.data)


def message(refusal: IllegalMove, language: str) -> str:
    """The refusal in `language` ("en…": English, else Russian)."""
    ru, en = words(refusal)
    return en if language.lower().startswith("en") else ru
