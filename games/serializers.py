"""Request validation and the documented shapes of the games API (bodies are built in selectors)."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.rules import DEALS_MAX, TABLE_TEAMS, TARGET_MAX_SEQUENCES, TARGET_MIN
from games.models import LAST_SEAT, Game, Invitation
from games.players import LEVEL_NAMES, LEVELS
from games.rating import RANGE_LIMITS
from games.time_off import AWAY_REASONS

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


class UserBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="A computer player (no kudos, no reports).")
    bot_level = serializers.CharField(help_text="beginner, club or expert; empty for a person.")


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    team = serializers.IntegerField(
        help_text="The partnership the seat plays for (the index into `scores` and "
        "`deal.teams`); at a table where each plays alone, every seat is its own team."
    )
    user = UserBriefSerializer()
    is_absent = serializers.BooleanField()
    away_until = serializers.DateTimeField(
        allow_null=True,
        help_text="Correspondence games: when this person is back from a vacation (an "
        "automatic vacation hour included) or a day off; null when not away (always for bots "
        "and live games). Their turn's clock does not run meanwhile.",
    )
    away_reason = serializers.ChoiceField(
        choices=list(AWAY_REASONS),
        allow_null=True,
        help_text="Why the person is away until `away_until`: `vacation` (an automatic "
        "vacation hour included) or `day_off` (one of their weekly days off, in their own time "
        "zone); null exactly when `away_until` is null.",
    )
    rating_change = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Only in a rated game over: how much the game moved this player's rating in "
        "the game's `pool`; null for a bot (one that took an abandoned seat).",
    )


class PauseSerializer(serializers.Serializer):
    asked_by = serializers.IntegerField(
        allow_null=True, help_text="The seat that asked the table for a pause; null: none asked."
    )
    days = serializers.IntegerField(allow_null=True, help_text="The pause asked, in days.")
    asked_until = serializers.DateTimeField(
        allow_null=True, help_text="The request lapses then unless every person accepts it."
    )
    votes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats that said yes: to the pause asked, or (while paused) to resume early.",
    )


class InvitedUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


class TableInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="`POST /api/invitations/{id}/accept/` etc.")
    seat = serializers.IntegerField(help_text="The seat kept for the player.")
    user = InvitedUserSerializer()
    expires_at = serializers.DateTimeField(help_text="It lapses then, and the seat opens.")


class GameTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The tournament (`GET /api/tournaments/{id}/`).")
    round = serializers.IntegerField(help_text="The round of the tournament, from 1.")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    length = serializers.ChoiceField(choices=Game.Length.choices)
    rules = RulesSerializer(help_text="Every option of the table, resolved.")
    status = GameStatusField()
    private = serializers.BooleanField()
    rated = serializers.BooleanField(
        help_text="The game moves its players' ratings in `pool`: opened rated and no bot "
        "seated at its start (a seat abandoned to a bot later keeps it rated, and the side "
        "that abandoned places last)."
    )
    pool = serializers.CharField(
        help_text='The rating pool of the table: `"{mode}.{game}.{seats}"`, e.g. `async.classic.4`.'
    )
    rating_range = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="`[min, max]`: the ratings in `pool` the table lets join; null: anyone.",
    )
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
    scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Team totals, one per team."
    )
    turn_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat the game waits for (`deal.to_act`): the seat on turn, or the "
        "partner a question waits for; `turn_deadline` is that seat's.",
    )
    your_turn = serializers.BooleanField()
    turn_started_at = serializers.DateTimeField(allow_null=True)
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the turn times out. In a correspondence game it already accounts for "
        "the player's vacation and days off and the game's pause (the clock stops for them).",
    )
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    winner_team = serializers.IntegerField(
        allow_null=True, help_text="The team that won; null: a draw or not over."
    )
    abandoned_by_seat = serializers.IntegerField(allow_null=True)
    invitations = TableInvitationSerializer(
        many=True,
        help_text="A waiting table's seats kept for invited players, pending (empty once the "
        "game started).",
    )
    paused_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A correspondence game paused by everyone's agreement: every clock stops "
        "until then; null when not paused.",
    )
    pause = PauseSerializer(help_text="A pause asked or running (correspondence games).")
    tournament = GameTournamentSerializer(
        allow_null=True,
        help_text="The tournament and round the club opened this game for; null for a table "
        "opened in the lobby.",
    )
    deal_break_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A live game between two deals: the next deal's clock starts then, or as soon "
        "as every person at the table has closed the finished deal's summary "
        "(`POST /api/games/{id}/continue/`, or a move); null otherwise.",
    )


class PauseRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        min_value=1,
        help_text="1 to CORRESPONDENCE_PAUSE_DAYS (14 by default); more: 400 `invalid`.",
    )


class TeamResultSerializer(serializers.Serializer):
    """One team's score of a finished deal (CONTRACT §2 "View": `result`)."""

    cards = serializers.IntegerField(help_text="Points of the cards melded.")
    canastas = serializers.IntegerField(help_text="Canasta bonuses.")
    red_threes = serializers.IntegerField(help_text="Red three bonuses (or penalty).")
    going_out = serializers.IntegerField(help_text="The going-out bonus.")
    hand = serializers.IntegerField(help_text="Cards left in hands (0 or less).")
    double_going_out = serializers.IntegerField(
        required=False,
        help_text="Only at a table with `rules.double_going_out`: the partners' lay-down bonus.",
    )
    total = serializers.IntegerField(help_text="The sum: this deal's score.")


class DealResultSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    result = TeamResultSerializer(many=True, help_text="Per team (a player's `team`).")
    scores_after = serializers.ListField(child=serializers.IntegerField())


# The documented shapes below describe dicts built by the engine and `selectors`; they are used
# only for the schema (CONTRACT §2 "View" and the engine's events).


class TableMeldSerializer(serializers.Serializer):
    rank = serializers.CharField(
        allow_null=True,
        help_text="The meld's rank, e.g. `K`; `3` for black threes; `null` for a sequence "
        "(Samba, Bolivia).",
    )
    kind = serializers.ChoiceField(
        choices=["group", "sequence"],
        required=False,
        help_text="Only in Samba and Bolivia: a `group` of one rank or a `sequence` of one suit.",
    )
    suit = serializers.CharField(
        required=False, help_text="Only for a sequence: its suit (`S H D C`)."
    )
    cards = serializers.ListField(child=CardField())
    canasta = serializers.ChoiceField(
        choices=["natural", "mixed", "samba", "escalera", "bolivia"],
        allow_null=True,
        help_text="`null`: not a canasta yet; `natural` or `mixed` (with wilds); in Samba a "
        "sequence's `samba`, in Bolivia a sequence's `escalera` and seven wilds' `bolivia`.",
    )


class TeamTableSerializer(serializers.Serializer):
    opened = serializers.BooleanField(help_text="The team has made its first meld.")
    minimum = serializers.IntegerField(help_text="Points the first meld needs (R-OPEN-1).")
    red_threes = serializers.ListField(child=CardField())
    melds = TableMeldSerializer(many=True)
    canasta_opening = serializers.BooleanField(
        required=False,
        help_text="Only with `rules.canasta_opening_from_5000`: this deal the team opens only "
        "with a whole canasta made with the pile's top card.",
    )


class QuestionSerializer(serializers.Serializer):
    """R-HOUSE-ASK: «можно выходить?» of the current turn."""

    asker = serializers.IntegerField(help_text="The seat on turn that asked.")
    partner = serializers.IntegerField(help_text="The partner who answers.")
    answer = serializers.BooleanField(
        allow_null=True, help_text="`null` while it waits (the game waits for `partner`)."
    )


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
        choices=["draw", "play", "partner_out", "over"],
        help_text="`draw`: the turn starts with a draw or a pile take; `play`: meld, undo or "
        "discard; `partner_out` (`rules.double_going_out`): a player went out and the partner "
        "(`to_act`) lays down or passes; `over`: the deal is scored (`result`).",
    )
    to_act = serializers.IntegerField(
        required=False,
        help_text="Only at a table with a partner house rule: the seat the deal waits for "
        "(`turn`, or the partner while a question waits).",
    )
    question = QuestionSerializer(
        required=False,
        allow_null=True,
        help_text="Only with `rules.ask_partner_to_go_out`: the current turn's question, or "
        "`null`.",
    )
    hand = serializers.ListField(
        child=CardField(), required=False, help_text="Your cards, sorted; absent for a spectator."
    )
    hand_counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Cards in each seat's hand, by seat."
    )
    stock_count = serializers.IntegerField()
    pile = PileViewSerializer()
    teams = TeamTableSerializer(many=True, help_text="Per team (a player's `team`).")
    undo_available = serializers.BooleanField(help_text="You may send `undo` now.")
    result = TeamResultSerializer(
        many=True, allow_null=True, help_text="Once `phase` is `over`: per team; else `null`."
    )


class TablePhraseSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The speaker's seat.")
    phrase = serializers.CharField(help_text="The phrase's key (`GET /api/phrases/`).")
    text = serializers.CharField(help_text="The phrase in the request's language.")
    at = serializers.DateTimeField(help_text="When it was said.")


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
    phrases = TablePhraseSerializer(
        many=True,
        required=False,
        help_text="Only in `GET /api/games/{id}/`: the table's latest phrases (20 at most), "
        "oldest first; if you muted phrases (`phrases_muted` in `/api/me/`), your own only. "
        "Phrases are said without a move, so `version` does not change with them: read the "
        "game again to see new ones (a move's answer leaves them out).",
    )


class EventMeldSerializer(serializers.Serializer):
    rank = serializers.CharField(
        required=False, help_text="The meld's rank; absent for a sequence (Samba, Bolivia)."
    )
    suit = serializers.CharField(
        required=False, help_text="Samba, Bolivia: a sequence's suit (`S H D C`)."
    )
    meld = serializers.IntegerField(
        required=False,
        help_text="Samba, Bolivia: the index of the team's meld (in the view's `melds`) the "
        "cards went to.",
    )
    new = serializers.BooleanField(
        required=False, help_text="The classic game: the cards started a meld of their rank."
    )
    cards = serializers.ListField(child=CardField(), help_text="The cards laid on this meld.")


class PublicEventSerializer(serializers.Serializer):
    """What every viewer saw happen; the fields present depend on `type`."""

    type = serializers.ChoiceField(choices=ACTION_TYPES)
    seat = serializers.IntegerField()
    deal_over = serializers.BooleanField(
        required=False,
        help_text="This move ended the deal; absent from `undo` and the questions and answers "
        "(`ask_to_go_out`, `answer_go_out`, `ask_acaba`), which never do.",
    )
    went_out = serializers.BooleanField(
        required=False,
        help_text="`take_pile`, `discard`, and `meld` in the classic game: the player went out "
        "with this move.",
    )
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
    partner = serializers.IntegerField(
        required=False, help_text="`ask_to_go_out`: the partner who answers."
    )
    yes = serializers.BooleanField(required=False, help_text="`answer_go_out`: the answer.")
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
    rules = RulesSerializer()
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


class InvitationAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # A plain string: an enum named `status` would clash with the other apps' in the schema.
    status = serializers.CharField(
        help_text="One of: " + ", ".join(f"`{value}`" for value in Invitation.Status.values)
    )


class MyInvitationSerializer(serializers.Serializer):
    """One of your invitations waiting for an answer."""

    id = serializers.IntegerField()
    game = serializers.IntegerField(source="game_id")
    seat = serializers.IntegerField(help_text="The seat kept for you.")
    mode = serializers.CharField(source="game.mode")
    length = serializers.CharField(source="game.length")
    invited_by = InvitedUserSerializer()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="It lapses then, and the seat opens.")


class PhraseSerializer(serializers.Serializer):
    key = serializers.CharField()
    text = serializers.CharField(help_text="In the request's language.")


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
