"""Request validation and the documented shapes of the games API (bodies are built in selectors)."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.bots import LEVEL_NAMES, LEVELS
from games.models import Game

ACTION_TYPES = ["draw", "take_pile", "meld", "undo", "discard"]
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


class GameCreateSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(
        choices=Game.Mode.choices, help_text="`live`: 30 s a turn; `async`: 24 h a turn."
    )
    length = serializers.ChoiceField(
        choices=Game.Length.choices,
        help_text="`match`: deals until a team reaches `rules.target` (5000 by default); "
        "`deal`: a single deal.",
    )
    rules = serializers.DictField(
        required=False,
        default=dict,
        help_text="Engine options, all optional: `wild_limit` (`strict`|`half`), "
        "`upcard_stops_on_black_three` (bool), `concealed_out_skips_minimum` (bool), "
        "`stock_out` (`club`|`classic`), `tie` (`draw`|`extra_deal`), `target` (int, e.g. 5000 "
        "or 2500). Bad options: 400 `invalid_rules`.",
    )
    private = serializers.BooleanField(
        required=False, default=False, help_text="Private tables are joined with an invite code."
    )
    seat = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        default=0,
        help_text="The creator's seat (0-3); partners sit opposite: 0+2 vs 1+3.",
    )


class SeatBotSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0, max_value=3, help_text="0-3; partners sit opposite: 0+2 vs 1+3."
    )
    level = serializers.ChoiceField(
        choices=[(level, f"{level} ({LEVEL_NAMES[level][0]})") for level in LEVELS],
        help_text="beginner (новичок): simple legal moves; club (клуб): a heuristic player; "
        "expert (мастер): searches the hidden cards.",
    )


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0, max_value=3, help_text="0-3; partners sit opposite: 0+2 vs 1+3."
    )
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


class ActionSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ACTION_TYPES)
    card = CardField(required=False)
    cards = serializers.ListField(
        child=CardField(),
        required=False,
        max_length=30,
        help_text="`take_pile`: the hand cards melded with the top card (`[]`: the top card "
        "joins the team's meld of its rank).",
    )
    melds = serializers.ListField(child=MeldSerializer(), required=False, max_length=20)


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
        '`{"type": "discard", "card": "7H"}`.'
    )


class UserBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="A computer player (no kudos, no reports).")
    bot_level = serializers.CharField(help_text="beginner, club or expert; empty for a person.")


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    team = serializers.IntegerField(help_text="The partnership the seat plays for (0 or 1).")
    user = UserBriefSerializer()
    is_absent = serializers.BooleanField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    length = serializers.ChoiceField(choices=Game.Length.choices)
    rules = serializers.DictField()
    status = GameStatusField()
    private = serializers.BooleanField()
    invite_code = serializers.CharField(
        allow_null=True, help_text="Shown only to the creator and seated players."
    )
    created_by = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    players = PlayerSerializer(many=True)
    with_bots = serializers.BooleanField(
        help_text="Bots sit at this table: its result moves nobody's Authority."
    )
    your_seat = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(help_text="Send it back with your next move.")
    deal_number = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Team totals.")
    turn_seat = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    turn_started_at = serializers.DateTimeField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    winner_team = serializers.IntegerField(allow_null=True, help_text="null: a draw or not over.")
    abandoned_by_seat = serializers.IntegerField(allow_null=True)


class TeamResultSerializer(serializers.Serializer):
    """One team's score of a finished deal (CONTRACT §2 "View": `result`)."""

    cards = serializers.IntegerField(help_text="Points of the cards melded.")
    canastas = serializers.IntegerField(help_text="Canasta bonuses.")
    red_threes = serializers.IntegerField(help_text="Red three bonuses (or penalty).")
    going_out = serializers.IntegerField(help_text="The going-out bonus.")
    hand = serializers.IntegerField(help_text="Cards left in hands (0 or less).")
    total = serializers.IntegerField(help_text="The sum: this deal's score.")


class DealResultSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    result = TeamResultSerializer(many=True, help_text="Per team (0: seats 0+2, 1: seats 1+3).")
    scores_after = serializers.ListField(child=serializers.IntegerField())


# The documented shapes below describe dicts built by the engine and `selectors`; they are used
# only for the schema (CONTRACT §2 "View" and the engine's events).


class TableMeldSerializer(serializers.Serializer):
    rank = serializers.CharField(help_text="The meld's rank, e.g. `K`; `3` for black threes.")
    cards = serializers.ListField(child=CardField())
    canasta = serializers.ChoiceField(
        choices=["natural", "mixed"],
        allow_null=True,
        help_text="`null`: not a canasta yet; `natural` or `mixed` (with wilds).",
    )


class TeamTableSerializer(serializers.Serializer):
    opened = serializers.BooleanField(help_text="The team has made its first meld.")
    minimum = serializers.IntegerField(help_text="Points the first meld needs (R-OPEN-1).")
    red_threes = serializers.ListField(child=CardField())
    melds = TableMeldSerializer(many=True)


class PileViewSerializer(serializers.Serializer):
    top = CardField(allow_null=True, help_text="The top card; `null` for an empty pile.")
    count = serializers.IntegerField()
    frozen = serializers.BooleanField(
        help_text="Frozen by a wild or a dealt red three inside (R-FRZ-1)."
    )


class DealViewSerializer(serializers.Serializer):
    """`deal.view(seat)`: the deal as one seat (or a spectator) may see it."""

    seat = serializers.IntegerField(allow_null=True, help_text="Your seat; `null`: a spectator.")
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField(help_text="The seat to play.")
    phase = serializers.ChoiceField(
        choices=["draw", "play", "over"],
        help_text="`draw`: the turn starts with a draw or a pile take; `play`: meld, undo or "
        "discard; `over`: the deal is scored (`result`).",
    )
    hand = serializers.ListField(
        child=CardField(), required=False, help_text="Your cards, sorted; absent for a spectator."
    )
    hand_counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Cards in each seat's hand, by seat."
    )
    stock_count = serializers.IntegerField()
    pile = PileViewSerializer()
    teams = TeamTableSerializer(many=True, help_text="Team 0: seats 0+2; team 1: seats 1+3.")
    undo_available = serializers.BooleanField(help_text="You may send `undo` now.")
    result = TeamResultSerializer(
        many=True, allow_null=True, help_text="Once `phase` is `over`: per team; else `null`."
    )


class GameDetailSerializer(GameSummarySerializer):
    deals = DealResultSerializer(many=True, help_text="Finished deals.")
    deal = DealViewSerializer(
        allow_null=True,
        help_text="The current deal as your seat sees it (`deal.view(seat)`); `null` before "
        "the start.",
    )
    last_deal = DealViewSerializer(
        allow_null=True,
        help_text="The previous deal's final table as a spectator sees it (no hands); its "
        "result is in `deals`.",
    )
    legal_actions = ActionSerializer(
        many=True,
        help_text="On your turn: actions you may send (draws, pile takes, useful melds, every "
        "discard, undo); `[]` otherwise.",
    )


class EventMeldSerializer(serializers.Serializer):
    rank = serializers.CharField()
    cards = serializers.ListField(child=CardField(), help_text="The cards laid on this meld.")


class PublicEventSerializer(serializers.Serializer):
    """What every viewer saw happen; the fields present depend on `type`."""

    type = serializers.ChoiceField(choices=ACTION_TYPES)
    seat = serializers.IntegerField()
    deal_over = serializers.BooleanField(help_text="This move ended the deal.")
    red_threes = serializers.ListField(
        child=CardField(),
        required=False,
        help_text="`draw`, `take_pile`: red threes laid down (and replaced).",
    )
    stock_count = serializers.IntegerField(required=False, help_text="`draw`: left after it.")
    top = CardField(required=False, help_text="`take_pile`: the card taken from the top.")
    count = serializers.IntegerField(required=False, help_text="`take_pile`: cards taken.")
    melds = EventMeldSerializer(many=True, required=False, help_text="`take_pile`, `meld`.")
    opened = serializers.BooleanField(required=False, help_text="`meld`: the team opened now.")
    cards = serializers.ListField(
        child=CardField(), required=False, help_text="`undo`: cards back to the hand."
    )
    card = CardField(required=False, help_text="`discard`: the card discarded.")
    result = TeamResultSerializer(
        many=True, required=False, help_text="With `deal_over`: the deal's score per team."
    )


class PrivateEventSerializer(serializers.Serializer):
    """What only the acting seat saw."""

    cards = serializers.ListField(
        child=CardField(),
        required=False,
        help_text="`draw`: the cards drawn; `take_pile`: the pile's other cards taken.",
    )


class MoveEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="1-based; the game's version after this move.")
    deal_number = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = ActionSerializer(help_text="The action as sent (or played on a timeout).")
    automatic = serializers.BooleanField(help_text="Played by the club on a timeout.")
    public = PublicEventSerializer(help_text="What everybody saw happen.")
    private = PrivateEventSerializer(
        allow_null=True, help_text="Only for the acting seat (e.g. the card drawn); else `null`."
    )
    created_at = serializers.DateTimeField()


class MoveLogSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    moves = MoveEntrySerializer(many=True)
    has_more = serializers.BooleanField(help_text="Ask again with `after` = the last seq.")


class MoveResultSerializer(serializers.Serializer):
    moves = MoveEntrySerializer(many=True)
    game = GameDetailSerializer()


class ExportMoveSerializer(MoveEntrySerializer):
    private = PrivateEventSerializer()


SEED_HELP = (
    "A 128-bit integer as a decimal string (JavaScript numbers would lose digits): "
    "`int(seed)` in Python, `BigInt(seed)` in JavaScript."
)


class ExportDealSerializer(DealResultSerializer):
    seed = serializers.CharField(help_text="The deal's shuffle: " + SEED_HELP)


class ExportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    length = serializers.CharField()
    rules = serializers.DictField()
    status = serializers.CharField()
    seed = serializers.CharField(
        help_text="`Match.new(rules, first_dealer=..., seed=int(seed))`. " + SEED_HELP
    )
    first_dealer = serializers.IntegerField()
    players = PlayerSerializer(many=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    winner_team = serializers.IntegerField(allow_null=True)
    abandoned_by_seat = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    deals = ExportDealSerializer(many=True)
    moves = ExportMoveSerializer(many=True)


class SeatPresenceSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    is_absent = serializers.BooleanField()
    last_seen_at = serializers.DateTimeField()
