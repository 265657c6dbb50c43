"""Request validation and the documented shapes of the games API: the answers' serializers are
derived from the bodies `selectors` builds (games.bodies), never written a second time."""

import functools
import types
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import bodies
from games.bodies import ACTION_TYPES, Choices, Doc, Shape
from games.engine.rules import DEALS_MAX, TABLE_TEAMS, TARGET_MAX_SEQUENCES, TARGET_MIN
from games.models import LAST_SEAT, Game
from games.players import LEVEL_NAMES, LEVELS
from games.services.rating import RANGE_LIMITS

BIGINT_MAX = 2**63 - 1
CARD_HELP = "Card code: rank `A K Q J T 9 8 7 6 5 4 3 2` + suit `S H D C`, or `JK` (joker)."


class CardField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", CARD_HELP)
        super().__init__(min_length=2, max_length=2, **kwargs)


@extend_schema_field(
    {"type": "string", "description": "One of: " + ", ".join(f"`{v}`" for v in Game.Status.values)}
)
class GameStatusField(serializers.ChoiceField):
    """Documented without an enum component: other apps' `status` enums would clash with it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Game.Status.choices, **kwargs)


SEAT_HELP = (
    "A seat of the table: 0-1 at two, 0-2 at three, 0-3 at four, 0-5 at six (`rules.players`); "
    "seats are numbered in the order of play and partners never sit side by side (a player's "
    "`team` says who plays with whom). A seat the table does not have: 400 `invalid` "
    "(`errors.seat`)."
)


class RulesSerializer(serializers.Serializer):
    """The engine's options of a table (`Rules.to_options()`); every one optional when opening."""

    wild_limit = serializers.ChoiceField(
        choices=["strict", "half"], help_text="`half`: a meld may hold as many wilds as naturals."
    )
    upcard_stops_on_black_three = serializers.BooleanField()
    concealed_out_skips_minimum = serializers.BooleanField()
    stock_out = serializers.ChoiceField(
        choices=["club", "classic"], help_text="`classic`: play on while the pile is taken."
    )
    tie = serializers.ChoiceField(
        choices=["draw", "extra_deal"], help_text="`extra_deal`: equal totals play another deal."
    )
    target = serializers.IntegerField(
        allow_null=True,
        min_value=TARGET_MIN,
        max_value=TARGET_MAX_SEQUENCES,
        help_text="The match's target; `null` for a single deal. Default 5000; at six 7500 with "
        "three teams, 10000 with two; Samba 10000, Bolivia 15000 (up to 10000 in the classic "
        "game, 15000 in Samba and Bolivia).",
    )
    players = serializers.ChoiceField(
        choices=sorted(TABLE_TEAMS),
        help_text="The table: 2, 3 or 6 players, or 4 (the club's game, the default). The game "
        "starts when every seat is taken.",
    )
    teams = serializers.IntegerField(
        help_text="Partnerships: 2 at four; 2 (each for themselves) at two, 3 at three; at six 3 "
        "(three pairs, the default) or 2 (two teams of three). A table where each plays alone "
        "has no partners.",
    )
    canastas_to_go_out = serializers.ChoiceField(
        choices=[1, 2],
        help_text="Canastas a side needs to go out: 1 at four, 2 at the other tables; 2 at four "
        "is the house rule «две канасты».",
    )
    ask_partner_to_go_out = serializers.BooleanField(
        help_text="House rule: a player may ask «можно выходить?» once a deal (`ask_to_go_out`); "
        "the partner's answer (`answer_go_out`) binds. Needs partners."
    )
    canasta_opening_from_5000 = serializers.BooleanField(
        help_text="House rule «до 7500»: from 5000 a side's first meld must be a whole canasta "
        "made by one player with the pile's top card (use with `target` 7500)."
    )
    double_going_out = serializers.BooleanField(
        help_text="House rule «двойное окончание»: when a player goes out the partner may lay "
        "down too (phase `partner_out`: `lay_down` or `pass`). Needs partners."
    )
    game = serializers.ChoiceField(
        required=False,
        choices=["classic", "samba", "bolivia"],
        help_text="The game: `classic` (the club's Canasta, the default; absent from answers "
        "then), `samba` or `bolivia` (three packs, 15 cards, draw two, sequences; four players "
        "in two partnerships, no variants or house rules). In those games each meld of the view "
        "has `kind` (`group` | `sequence`, a sequence also `suit`) and a meld entry or a pile "
        'take names a meld of the team by its index: `{"meld": 2, "cards": ["8H"]}`.',
    )
    acaba = serializers.BooleanField(
        required=False,
        help_text="House rule British «Acaba» (classic game): on their turn a player may end the "
        "deal (`acaba`), the other side scoring 1500; `ask_acaba` asks the partner first. "
        "Absent when off.",
    )
    hand_of_twelve = serializers.BooleanField(
        required=False, help_text="The classic article: 12 cards each at four. Absent when off."
    )
    canasta_in_hand_opens = serializers.BooleanField(
        required=False,
        help_text="The classic article: a first meld holding a canasta from the hand opens "
        "whatever the minimum. Absent when off.",
    )
    minimums_7000 = serializers.BooleanField(
        required=False,
        help_text="The classic article's minimums playing to 7000 (50/70/90/120); needs "
        "`target` 7000. Absent when off.",
    )
    red_threes = serializers.ChoiceField(
        required=False,
        choices=["club", "going_out"],
        help_text="`going_out` (the classic article): red threes count for the side that went "
        "out and against the other. Absent when `club`.",
    )
    deals = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=DEALS_MAX,
        help_text="A tournament's game of this many deals, scored by points (`target` null). "
        "Only the club opens such games; absent otherwise.",
    )


@extend_schema_field(RulesSerializer)
class RulesField(serializers.DictField):
    """Any JSON object: the engine validates the options (400 `invalid_rules` with the reason)."""


class InviteField(serializers.ListField):
    """User ids; at most as many as a table has seats besides yours."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.IntegerField(min_value=1, max_value=BIGINT_MAX),
            max_length=LAST_SEAT,
            **kwargs,
        )


class GameCreateSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(
        choices=Game.Mode.choices, help_text="`live`: 30 s a turn; `async`: 24 h a turn."
    )
    length = serializers.ChoiceField(
        choices=Game.Length.choices,
        help_text="`match`: deals until a team reaches `rules.target` (5000 by default); "
        "`deal`: a single deal.",
    )
    rules = RulesField(
        required=False,
        default=dict,
        help_text="Engine options, all optional (see the fields): the table (`players`, "
        "`teams`), the variants and the house rules; what is left out takes the table's "
        "default. Bad options or a combination the engine refuses (a partner rule at a table "
        "of individuals): 400 `invalid_rules` with the reason.",
    )
    private = serializers.BooleanField(
        required=False, default=False, help_text="Private tables are joined with an invite code."
    )
    rated = serializers.BooleanField(
        required=False,
        default=True,
        help_text="A rated game (the default) moves its players' ratings in the table's `pool`; "
        "a bot seated before the start makes the table casual (`rated` false).",
    )
    rating_range = serializers.ListField(
        child=serializers.IntegerField(min_value=RANGE_LIMITS[0], max_value=RANGE_LIMITS[1]),
        min_length=2,
        max_length=2,
        required=False,
        allow_null=True,
        default=None,
        help_text="`[min, max]`: only players rated within it in the table's pool may join "
        "(others: 403 `rating_out_of_range`); it must hold your own rating. Upside down: 400 "
        "`invalid_rating_range`; on a casual table: 400 `rating_range_on_casual_table`.",
    )
    seat = serializers.IntegerField(
        min_value=0,
        max_value=LAST_SEAT,
        required=False,
        default=0,
        help_text="The creator's seat (0 by default). " + SEAT_HELP,
    )
    invite = InviteField(
        required=False,
        default=list,
        help_text="Players (user ids) for whom seats are kept: your partners' seats first, then "
        "the others in the order of play. Each gets an `invitation` notification and may "
        "accept (sit down) or decline; others get 403 `seat_reserved` on those seats; an "
        "invitation nobody answers lapses after the table's turn limit (24 h by "
        "correspondence, 30 s live) and the seat opens. Refused, with nothing opened: "
        "`cannot_invite_yourself`, `duplicate_invitee`, `unknown_player` (with `player`), "
        "`invitee_is_bot`, `too_many_invitees` (400), `blocked` (403: a block either way "
        "between you and one of them).",
    )


class InviteRequestSerializer(serializers.Serializer):
    invite = InviteField(min_length=1, help_text="Players (user ids) to keep free seats for.")


class SeatBotSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=LAST_SEAT, help_text=SEAT_HELP)
    level = serializers.ChoiceField(
        choices=[(level, f"{level} ({LEVEL_NAMES[level][0]})") for level in LEVELS],
        help_text="beginner (новичок): simple legal moves; club (клуб): a heuristic player; "
        "expert (мастер): searches the hidden cards.",
    )


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=LAST_SEAT, help_text=SEAT_HELP)
    invite_code = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text="Required for a private table.",
    )


@extend_schema_field({"type": "string", "enum": Game.Status.values})
class GameStatusQueryField(GameStatusField):
    """A query parameter: an inline enum here clashes with nothing (no component)."""


class LobbyQuerySerializer(serializers.Serializer):
    status = GameStatusQueryField(
        required=False, help_text="Filter by status; an empty `?status=` is the same as none."
    )
    mine = serializers.BooleanField(
        required=False, default=False, help_text="`1`: only games where I have a seat."
    )
    for_my_rating = serializers.BooleanField(
        required=False,
        default=False,
        help_text="`1`: only tables without a `rating_range`, or whose range holds your rating "
        "in the table's pool.",
    )


class MoveLogQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        default=0,
        help_text="Only moves with `seq` greater than this (the last seq you have).",
    )


class MeldSerializer(serializers.Serializer):
    cards = serializers.ListField(child=CardField(), min_length=1, max_length=30)
    rank = serializers.CharField(
        required=False,
        min_length=1,
        max_length=1,
        help_text="Only when the cards hold no natural (a lone wild added to a meld).",
    )
    meld = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="The index of the team's meld (in the view's `melds`) the cards join; without "
        "it the cards start a new meld (Samba, Bolivia; accepted in the classic game too).",
    )


class ActionSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ACTION_TYPES)
    card = CardField(required=False)
    cards = serializers.ListField(
        child=CardField(),
        required=False,
        max_length=30,
        help_text="`take_pile`: the hand cards melded with the top card (`[]`: the top card "
        "joins the team's meld of its rank; in Samba and Bolivia the meld named by `meld`).",
    )
    meld = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="`take_pile` with `cards: []` in Samba and Bolivia: the index of the team's "
        "meld the top card joins.",
    )
    melds = serializers.ListField(
        child=MeldSerializer(),
        required=False,
        max_length=20,
        help_text="`meld`, `take_pile`; `lay_down`: every card of the hand, in one action.",
    )
    yes = serializers.BooleanField(
        required=False,
        help_text="`answer_go_out` (the asked partner's only action): `true` lets the asker go "
        "out this turn, and binds them to; `false` forbids it this turn.",
    )


@extend_schema_field(ActionSerializer)
class ActionField(serializers.DictField):
    """Any JSON object: the engine checks the action's form (400 `bad_action` with the reason)."""


class MoveRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The game's `version` you saw; a stale one gets 409 `stale_version`.",
    )
    action = ActionField(
        help_text='One of: `{"type": "draw"}`, `{"type": "take_pile", "cards": [...], '
        '"melds": [...]}`, `{"type": "meld", "melds": [...]}`, `{"type": "undo"}`, '
        '`{"type": "discard", "card": "7H"}`; with the house rules `{"type": "ask_to_go_out"}` '
        '(on your turn, after drawing), `{"type": "answer_go_out", "yes": true}` (the asked '
        'partner), and in phase `partner_out` `{"type": "lay_down", "melds": [...]}` or '
        '`{"type": "pass"}`. Send them when `deal.to_act` is your seat.'
    )


class PauseRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        min_value=1,
        help_text="1 to CORRESPONDENCE_PAUSE_DAYS (14 by default); more: 400 `invalid`.",
    )


class SayPhraseSerializer(serializers.Serializer):
    phrase = serializers.CharField(
        max_length=40, help_text="A key of `GET /api/phrases/` (else 400 `unknown_phrase`)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A phrase goes to the whole table: a field naming whom it is for is refused, not
        # ignored.
        extra = sorted(set(self.initial_data) - {"phrase"})
        if extra:
            raise serializers.ValidationError(
                {name: "A phrase is said to the whole table: only `phrase`." for name in extra}
            )
        return attrs


# The fields of what a value is beyond its Python type (games.bodies.Shape).
SHAPE_FIELDS: dict[Shape, type[serializers.Field]] = {
    Shape.CARD: CardField,
    Shape.MOMENT: serializers.DateTimeField,
    Shape.GAME_STATUS: GameStatusField,
    Shape.RULES: RulesSerializer,
    Shape.ACTION: ActionSerializer,
}


PLAIN_FIELDS: dict[Any, type[serializers.Field]] = {
    int: serializers.IntegerField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
}


@functools.cache
def answer_serializer(body: type) -> type[serializers.Serializer]:
    """The serializer documenting the TypedDict `body` (games.bodies), named after it so its
    schema component is; one class per body, so the bodies nested in several share theirs."""
    required = body.__required_keys__  # type: ignore[attr-defined]
    fields = {
        key: _field(hint, required=key in required)
        for key, hint in get_type_hints(body, include_extras=True).items()
    }
    namespace = {"__module__": __name__, "__doc__": body.__doc__, **fields}
    return type(f"{body.__name__}Serializer", (serializers.Serializer,), namespace)


def _field(hint: Any, *, required: bool = True) -> serializers.Field:
    """The DRF field an annotation of games.bodies says: `NotRequired` is `required=False`,
    `| None` `allow_null`; `Annotated` adds the `Doc`, `Choices` or `Shape` (the outer `Doc`
    wins); a TypedDict is its derived serializer, a list of one `many=True`."""
    options: dict[str, Any] = {} if required else {"required": False}
    shape: Shape | None = None
    choices: tuple[str, ...] | None = None
    while True:
        origin = get_origin(hint)
        if origin is NotRequired:
            hint = get_args(hint)[0]
        elif origin is Annotated:
            hint, *metadata = get_args(hint)
            for item in metadata:
                if isinstance(item, Doc):
                    options.setdefault("help_text", item.text)
                elif isinstance(item, Choices):
                    choices = item.values
                elif isinstance(item, Shape):
                    shape = item
        elif origin in (Union, types.UnionType) and type(None) in get_args(hint):
            options["allow_null"] = True
            (hint,) = (arg for arg in get_args(hint) if arg is not type(None))
        else:
            break
    if shape is not None:
        return SHAPE_FIELDS[shape](**options)
    if choices is not None or origin is Literal:
        return serializers.ChoiceField(choices=list(choices or get_args(hint)), **options)
    if is_typeddict(hint):
        return answer_serializer(hint)(**options)
    if origin is list:
        (item,) = get_args(hint)
        element = _field(item)
        if isinstance(element, serializers.BaseSerializer):
            return type(element)(many=True, **options)
        return serializers.ListField(child=element, **options)
    return PLAIN_FIELDS[hint](**options)


# The answers (games.bodies), documented. Tournaments document their members with the brief.
UserBriefSerializer = answer_serializer(bodies.UserBrief)
GameSummarySerializer = answer_serializer(bodies.GameSummary)
GameDetailSerializer = answer_serializer(bodies.GameDetail)
TablePhraseSerializer = answer_serializer(bodies.TablePhrase)
MoveLogSerializer = answer_serializer(bodies.MoveLog)
MoveResultSerializer = answer_serializer(bodies.MoveResult)
ExportSerializer = answer_serializer(bodies.Export)
SeatPresenceSerializer = answer_serializer(bodies.SeatPresence)
InvitationAnswerSerializer = answer_serializer(bodies.InvitationAnswer)
MyInvitationSerializer = answer_serializer(bodies.MyInvitation)
PhraseSerializer = answer_serializer(bodies.Phrase)
