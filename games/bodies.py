"""The bodies the games API answers with, one typed source for both sides: `selectors` builds
them as these TypedDicts (so mypy checks every key), and `games.serializers.answer_serializer`
derives the schema's serializers from the same annotations (so the documentation cannot drift
from what is built). Each TypedDict's name is its schema component's.

An annotation says what DRF's field would: `NotRequired` is an absent key (`required=False`),
`| None` a null (`allow_null`), a nested TypedDict a nested object; `Annotated` adds the field's
`Doc` (its help text), a `Choices` list, or a `Shape` the plain type does not say (a card code,
a moment as ISO text, the table's rules)."""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from games.models import Game, Invitation
from games.selectors.time_off import AWAY_REASONS

ACTION_TYPES = [
    "draw",
    "take_pile",
    "meld",
    "undo",
    "discard",
    # House rules (`rules.ask_partner_to_go_out`, `rules.double_going_out`).
    "ask_to_go_out",
    "answer_go_out",
    "lay_down",
    "pass",
    # British «Acaba» (`rules.acaba`).
    "acaba",
    "ask_acaba",
]


@dataclass(frozen=True)
class Doc:
    """A field's help text in the schema."""

    text: str


@dataclass(frozen=True)
class Choices:
    """The values a string field takes (an enum in the schema)."""

    values: tuple[str, ...]


class Shape(Enum):
    """What a value is beyond its Python type; games.serializers maps each to its field."""

    CARD = "card"  # a card code (CardField)
    MOMENT = "moment"  # an ISO 8601 moment, as `selectors.iso` writes it
    GAME_STATUS = "game_status"  # a game's status, documented without an enum component
    RULES = "rules"  # the table's options (RulesSerializer)
    ACTION = "action"  # an action as sent (ActionSerializer)


Card = Annotated[str, Shape.CARD]
Moment = Annotated[str, Shape.MOMENT]
ActionType = Annotated[str, Choices(tuple(ACTION_TYPES))]
Action = Annotated[dict[str, Any], Shape.ACTION]
Rules = Annotated[dict[str, Any], Shape.RULES]


class UserBrief(TypedDict):
    id: int
    username: str
    display_name: str
    is_bot: Annotated[bool, Doc("A computer player (no kudos, no reports).")]
    bot_level: Annotated[str, Doc("beginner, club or expert; empty for a person.")]


class Player(TypedDict):
    seat: int
    team: Annotated[
        int,
        Doc(
            "The partnership the seat plays for (the index into `scores` and `deal.teams`); at a "
            "table where each plays alone, every seat is its own team."
        ),
    ]
    user: UserBrief
    is_absent: bool
    away_until: Annotated[
        Moment | None,
        Doc(
            "Correspondence games: when this person is back from a vacation (an automatic "
            "vacation hour included) or a day off; null when not away (always for bots and live "
            "games). Their turn's clock does not run meanwhile."
        ),
    ]
    away_reason: Annotated[
        str | None,
        Choices(AWAY_REASONS),
        Doc(
            "Why the person is away until `away_until`: `vacation` (an automatic vacation hour "
            "included) or `day_off` (one of their weekly days off, in their own time zone); null "
            "exactly when `away_until` is null."
        ),
    ]
    rating_change: NotRequired[
        Annotated[
            int | None,
            Doc(
                "Only in a rated game over: how much the game moved this player's rating in the "
                "game's `pool`; null for a bot (one that took an abandoned seat)."
            ),
        ]
    ]


class Pause(TypedDict):
    asked_by: Annotated[
        int | None, Doc("The seat that asked the table for a pause; null: none asked.")
    ]
    days: Annotated[int | None, Doc("The pause asked, in days.")]
    asked_until: Annotated[
        Moment | None, Doc("The request lapses then unless every person accepts it.")
    ]
    votes: Annotated[
        list[int],
        Doc("Seats that said yes: to the pause asked, or (while paused) to resume early."),
    ]


class InvitedUser(TypedDict):
    id: int
    username: str
    display_name: str


class TableInvitation(TypedDict):
    id: Annotated[int, Doc("`POST /api/invitations/{id}/accept/` etc.")]
    seat: Annotated[int, Doc("The seat kept for the player.")]
    user: InvitedUser
    expires_at: Annotated[Moment, Doc("It lapses then, and the seat opens.")]


class GameTournament(TypedDict):
    id: Annotated[int, Doc("The tournament (`GET /api/tournaments/{id}/`).")]
    round: Annotated[int, Doc("The round of the tournament, from 1.")]


class GameSummary(TypedDict):
    id: int
    mode: Annotated[str, Choices(tuple(Game.Mode.values))]
    length: Annotated[str, Choices(tuple(Game.Length.values))]
    rules: Annotated[Rules, Doc("Every option of the table, resolved.")]
    status: Annotated[str, Shape.GAME_STATUS]
    private: bool
    rated: Annotated[
        bool,
        Doc(
            "The game moves its players' ratings in `pool`: opened rated and no bot seated at its "
            "start (a seat abandoned to a bot later keeps it rated, and the side that abandoned "
            "places last)."
        ),
    ]
    pool: Annotated[
        str,
        Doc('The rating pool of the table: `"{mode}.{game}.{seats}"`, e.g. `async.classic.4`.'),
    ]
    rating_range: Annotated[
        list[int] | None,
        Doc("`[min, max]`: the ratings in `pool` the table lets join; null: anyone."),
    ]
    invite_code: Annotated[str | None, Doc("Shown only to the creator and seated players.")]
    created_by: int
    created_at: Moment
    players: list[Player]
    with_bots: Annotated[bool, Doc("Bots sit at this table: its result moves nobody's Authority.")]
    your_seat: int | None
    version: Annotated[int, Doc("Send it back with your next move.")]
    deal_number: int
    scores: Annotated[list[int], Doc("Team totals, one per team.")]
    turn_seat: Annotated[
        int | None,
        Doc(
            "The seat the game waits for (`deal.to_act`): the seat on turn, or the partner a "
            "question waits for; `turn_deadline` is that seat's."
        ),
    ]
    your_turn: bool
    turn_started_at: Moment | None
    turn_deadline: Annotated[
        Moment | None,
        Doc(
            "When the turn times out. In a correspondence game it already accounts for the "
            "player's vacation and days off and the game's pause (the clock stops for them)."
        ),
    ]
    started_at: Moment | None
    finished_at: Moment | None
    winner_team: Annotated[int | None, Doc("The team that won; null: a draw or not over.")]
    abandoned_by_seat: int | None
    invitations: Annotated[
        list[TableInvitation],
        Doc(
            "A waiting table's seats kept for invited players, pending (empty once the game "
            "started)."
        ),
    ]
    paused_until: Annotated[
        Moment | None,
        Doc(
            "A correspondence game paused by everyone's agreement: every clock stops until then; "
            "null when not paused."
        ),
    ]
    pause: Annotated[Pause, Doc("A pause asked or running (correspondence games).")]
    tournament: Annotated[
        GameTournament | None,
        Doc(
            "The tournament and round the club opened this game for; null for a table opened in "
            "the lobby."
        ),
    ]
    deal_break_until: Annotated[
        Moment | None,
        Doc(
            "A live game between two deals: the next deal's clock starts then, or as soon as "
            "every person at the table has closed the finished deal's summary "
            "(`POST /api/games/{id}/continue/`, or a move); null otherwise."
        ),
    ]


class TeamResult(TypedDict):
    """One team's score of a finished deal (CONTRACT §2 "View": `result`)."""

    cards: Annotated[int, Doc("Points of the cards melded.")]
    canastas: Annotated[int, Doc("Canasta bonuses.")]
    red_threes: Annotated[int, Doc("Red three bonuses (or penalty).")]
    going_out: Annotated[int, Doc("The going-out bonus.")]
    hand: Annotated[int, Doc("Cards left in hands (0 or less).")]
    double_going_out: NotRequired[
        Annotated[
            int,
            Doc("Only at a table with `rules.double_going_out`: the partners' lay-down bonus."),
        ]
    ]
    total: Annotated[int, Doc("The sum: this deal's score.")]


class DealResult(TypedDict):
    number: int
    dealer: int
    result: Annotated[list[TeamResult], Doc("Per team (a player's `team`).")]
    scores_after: list[int]


# The engine's view of a deal (CONTRACT §2 "View") and its events.


class TableMeld(TypedDict):
    rank: Annotated[
        str | None,
        Doc(
            "The meld's rank, e.g. `K`; `3` for black threes; `null` for a sequence (Samba, "
            "Bolivia)."
        ),
    ]
    kind: NotRequired[
        Annotated[
            Literal["group", "sequence"],
            Doc("Only in Samba and Bolivia: a `group` of one rank or a `sequence` of one suit."),
        ]
    ]
    suit: NotRequired[Annotated[str, Doc("Only for a sequence: its suit (`S H D C`).")]]
    cards: list[Card]
    canasta: Annotated[
        Literal["natural", "mixed", "samba", "escalera", "bolivia"] | None,
        Doc(
            "`null`: not a canasta yet; `natural` or `mixed` (with wilds); in Samba a sequence's "
            "`samba`, in Bolivia a sequence's `escalera` and seven wilds' `bolivia`."
        ),
    ]


class TeamTable(TypedDict):
    opened: Annotated[bool, Doc("The team has made its first meld.")]
    minimum: Annotated[int, Doc("Points the first meld needs (R-OPEN-1).")]
    red_threes: list[Card]
    melds: list[TableMeld]
    canasta_opening: NotRequired[
        Annotated[
            bool,
            Doc(
                "Only with `rules.canasta_opening_from_5000`: this deal the team opens only with "
                "a whole canasta made with the pile's top card."
            ),
        ]
    ]


class Question(TypedDict):
    """R-HOUSE-ASK: «можно выходить?» of the current turn."""

    asker: Annotated[int, Doc("The seat on turn that asked.")]
    partner: Annotated[int, Doc("The partner who answers.")]
    answer: Annotated[bool | None, Doc("`null` while it waits (the game waits for `partner`).")]


class PileView(TypedDict):
    top: Annotated[Card | None, Doc("The top card; `null` for an empty pile.")]
    count: int
    frozen: Annotated[bool, Doc("Frozen by a wild or a dealt red three inside (R-FRZ-1).")]


class DealView(TypedDict):
    """`deal.view(seat)`: the deal as one seat (or a spectator) may see it."""

    seat: Annotated[int | None, Doc("Your seat; `null`: a spectator.")]
    dealer: int
    turn: Annotated[int, Doc("The seat to play.")]
    phase: Annotated[
        Literal["draw", "play", "partner_out", "over"],
        Doc(
            "`draw`: the turn starts with a draw or a pile take; `play`: meld, undo or discard; "
            "`partner_out` (`rules.double_going_out`): a player went out and the partner "
            "(`to_act`) lays down or passes; `over`: the deal is scored (`result`)."
        ),
    ]
    to_act: NotRequired[
        Annotated[
            int,
            Doc(
                "Only at a table with a partner house rule: the seat the deal waits for (`turn`, "
                "or the partner while a question waits)."
            ),
        ]
    ]
    question: NotRequired[
        Annotated[
            Question | None,
            Doc("Only with `rules.ask_partner_to_go_out`: the current turn's question, or `null`."),
        ]
    ]
    hand: NotRequired[Annotated[list[Card], Doc("Your cards, sorted; absent for a spectator.")]]
    hand_counts: Annotated[list[int], Doc("Cards in each seat's hand, by seat.")]
    stock_count: int
    pile: PileView
    teams: Annotated[list[TeamTable], Doc("Per team (a player's `team`).")]
    undo_available: Annotated[bool, Doc("You may send `undo` now.")]
    result: Annotated[
        list[TeamResult] | None, Doc("Once `phase` is `over`: per team; else `null`.")
    ]


class TablePhrase(TypedDict):
    seat: Annotated[int, Doc("The speaker's seat.")]
    phrase: Annotated[str, Doc("The phrase's key (`GET /api/phrases/`).")]
    text: Annotated[str, Doc("The phrase in the request's language.")]
    at: Annotated[Moment, Doc("When it was said.")]


class GameDetail(GameSummary):
    deals: Annotated[list[DealResult], Doc("Finished deals.")]
    deal: Annotated[
        DealView | None,
        Doc("The current deal as your seat sees it (`deal.view(seat)`); `null` before the start."),
    ]
    last_deal: Annotated[
        DealView | None,
        Doc(
            "The previous deal's final table as a spectator sees it (no hands); its result is in "
            "`deals`."
        ),
    ]
    legal_actions: Annotated[
        list[Action],
        Doc(
            "On your turn: actions you may send (draws, pile takes, useful melds, every discard, "
            "undo); `[]` otherwise."
        ),
    ]
    phrases: NotRequired[
        Annotated[
            list[TablePhrase],
            Doc(
                "Only in `GET /api/games/{id}/`: the table's latest phrases (20 at most), oldest "
                "first; if you muted phrases (`phrases_muted` in `/api/me/`), your own only. "
                "Phrases are said without a move, so `version` does not change with them: read "
                "the game again to see new ones (a move's answer leaves them out)."
            ),
        ]
    ]


class EventMeld(TypedDict):
    rank: NotRequired[
        Annotated[str, Doc("The meld's rank; absent for a sequence (Samba, Bolivia).")]
    ]
    suit: NotRequired[Annotated[str, Doc("Samba, Bolivia: a sequence's suit (`S H D C`).")]]
    meld: NotRequired[
        Annotated[
            int,
            Doc(
                "Samba, Bolivia: the index of the team's meld (in the view's `melds`) the cards "
                "went to."
            ),
        ]
    ]
    new: NotRequired[
        Annotated[bool, Doc("The classic game: the cards started a meld of their rank.")]
    ]
    cards: Annotated[list[Card], Doc("The cards laid on this meld.")]


class PublicEvent(TypedDict):
    """What every viewer saw happen; the fields present depend on `type`."""

    type: ActionType
    seat: int
    deal_over: NotRequired[
        Annotated[
            bool,
            Doc(
                "This move ended the deal; absent from `undo` and the questions and answers "
                "(`ask_to_go_out`, `answer_go_out`, `ask_acaba`), which never do."
            ),
        ]
    ]
    went_out: NotRequired[
        Annotated[
            bool,
            Doc(
                "`take_pile`, `discard`, and `meld` in the classic game: the player went out with "
                "this move."
            ),
        ]
    ]
    red_threes: NotRequired[
        Annotated[list[Card], Doc("`draw`, `take_pile`: red threes laid down (and replaced).")]
    ]
    stock_count: NotRequired[Annotated[int, Doc("`draw`: left after it.")]]
    top: NotRequired[Annotated[Card, Doc("`take_pile`: the card taken from the top.")]]
    count: NotRequired[Annotated[int, Doc("`take_pile`: cards taken.")]]
    melds: NotRequired[Annotated[list[EventMeld], Doc("`take_pile`, `meld`.")]]
    opened: NotRequired[Annotated[bool, Doc("`meld`: the team opened now.")]]
    cards: NotRequired[Annotated[list[Card], Doc("`undo`: cards back to the hand.")]]
    card: NotRequired[Annotated[Card, Doc("`discard`: the card discarded.")]]
    partner: NotRequired[Annotated[int, Doc("`ask_to_go_out`: the partner who answers.")]]
    yes: NotRequired[Annotated[bool, Doc("`answer_go_out`: the answer.")]]
    result: NotRequired[
        Annotated[list[TeamResult], Doc("With `deal_over`: the deal's score per team.")]
    ]


class PrivateEvent(TypedDict):
    """What only the acting seat saw."""

    cards: NotRequired[
        Annotated[
            list[Card],
            Doc("`draw`: the cards drawn; `take_pile`: the pile's other cards taken."),
        ]
    ]


class _MoveFields(TypedDict):
    seq: Annotated[int, Doc("1-based; the game's version after this move.")]
    deal_number: int
    seat: int
    action: Annotated[Action, Doc("The action as sent (or played on a timeout).")]
    automatic: Annotated[bool, Doc("Played by the club on a timeout.")]
    public: Annotated[PublicEvent, Doc("What everybody saw happen.")]


class MoveEntry(_MoveFields):
    private: Annotated[
        PrivateEvent | None,
        Doc("Only for the acting seat (e.g. the card drawn); else `null`."),
    ]
    created_at: Moment


class MoveLog(TypedDict):
    version: int
    moves: list[MoveEntry]
    has_more: Annotated[bool, Doc("Ask again with `after` = the last seq.")]


class MoveResult(TypedDict):
    moves: list[MoveEntry]
    game: GameDetail


class ExportMove(_MoveFields):
    private: PrivateEvent
    created_at: Moment


SEED_HELP = (
    "A 128-bit integer as a decimal string (JavaScript numbers would lose digits): "
    "`int(seed)` in Python, `BigInt(seed)` in JavaScript."
)


class ExportDeal(DealResult):
    seed: Annotated[str, Doc("The deal's shuffle: " + SEED_HELP)]


class Export(TypedDict):
    id: int
    mode: str
    length: str
    rules: Rules
    status: str
    seed: Annotated[str, Doc("`Match.new(rules, first_dealer=..., seed=int(seed))`. " + SEED_HELP)]
    first_dealer: int
    players: list[Player]
    scores: list[int]
    winner_team: int | None
    abandoned_by_seat: int | None
    started_at: Moment
    finished_at: Moment
    deals: list[ExportDeal]
    moves: list[ExportMove]


class SeatPresence(TypedDict):
    seat: int
    is_absent: bool
    last_seen_at: Moment


class InvitationAnswer(TypedDict):
    id: int
    # A plain string: an enum named `status` would clash with the other apps' in the schema.
    status: Annotated[
        str, Doc("One of: " + ", ".join(f"`{value}`" for value in Invitation.Status.values))
    ]


class MyInvitation(TypedDict):
    """One of your invitations waiting for an answer."""

    id: int
    game: int
    seat: Annotated[int, Doc("The seat kept for you.")]
    mode: str
    length: str
    invited_by: InvitedUser
    created_at: Moment
    expires_at: Annotated[Moment, Doc("It lapses then, and the seat opens.")]


class Phrase(TypedDict):
    key: str
    text: Annotated[str, Doc("In the request's language.")]
