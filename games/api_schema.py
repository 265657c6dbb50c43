"""The games API's OpenAPI text (CONTRACT.md §3): each operation's summary, description,
answers and examples, kept out of the views (games.views applies them by name)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)

from club.openapi import ERROR_400, ERROR_401, error_response
from games import services, table_phrases
from games.serializers import (
    ExportSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameSummarySerializer,
    InvitationAnswerSerializer,
    InviteRequestSerializer,
    JoinSerializer,
    LobbyQuerySerializer,
    MoveLogQuerySerializer,
    MoveLogSerializer,
    MoveRequestSerializer,
    MoveResultSerializer,
    MyInvitationSerializer,
    PauseRequestSerializer,
    PhraseSerializer,
    SayPhraseSerializer,
    SeatBotSerializer,
    SeatPresenceSerializer,
    TablePhraseSerializer,
)

ERROR_404 = error_response("No such game (`not_found`).")

ACTION_EXAMPLES = [
    OpenApiExample(
        "draw from the stock",
        value={"version": 0, "action": {"type": "draw"}},
        request_only=True,
    ),
    OpenApiExample(
        "take the discard pile",
        description="Meld the top card with two kings from the hand; `melds` (optional) lays "
        "more melds in the same action, e.g. to reach the opening minimum.",
        value={
            "version": 4,
            "action": {
                "type": "take_pile",
                "cards": ["KH", "KS"],
                "melds": [{"cards": ["5H", "5S", "2C"]}],
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "meld",
        description="A new meld of fives with a wild, and a lone wild added to the team's kings.",
        value={
            "version": 5,
            "action": {
                "type": "meld",
                "melds": [{"cards": ["5H", "5S", "2C"]}, {"rank": "K", "cards": ["2H"]}],
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "undo (Вернуть как было)",
        value={"version": 6, "action": {"type": "undo"}},
        request_only=True,
    ),
    OpenApiExample(
        "discard",
        value={"version": 7, "action": {"type": "discard", "card": "7H"}},
        request_only=True,
    ),
]

GAME_EXAMPLE = OpenApiExample(
    "your turn, after drawing",
    response_only=True,
    value={
        "id": 42,
        "mode": "async",
        "length": "match",
        "rules": {
            "wild_limit": "strict",
            "upcard_stops_on_black_three": False,
            "concealed_out_skips_minimum": False,
            "stock_out": "club",
            "tie": "draw",
            "target": 5000,
            "players": 4,
            "teams": 2,
            "canastas_to_go_out": 1,
            "ask_partner_to_go_out": False,
            "canasta_opening_from_5000": False,
            "double_going_out": False,
        },
        "status": "active",
        "private": False,
        "rated": True,
        "pool": "async.classic.4",
        "rating_range": None,
        "invite_code": None,
        "created_by": 7,
        "created_at": "2026-11-30T08:00:00Z",
        "with_bots": False,
        "players": [
            {
                "seat": seat,
                "team": team,
                "user": {
                    "id": 7 + seat,
                    "username": name,
                    "display_name": name.title(),
                    "is_bot": False,
                    "bot_level": "",
                },
                "is_absent": False,
                "away_until": "2026-12-12T00:00:00Z" if name == "vera" else None,
                "away_reason": "vacation" if name == "vera" else None,
            }
            for seat, (name, team) in enumerate(
                [("anna", 0), ("boris", 1), ("vera", 0), ("gleb", 1)]
            )
        ],
        "your_seat": 0,
        "version": 9,
        "deal_number": 1,
        "scores": [0, 0],
        "turn_seat": 0,
        "your_turn": True,
        "turn_started_at": "2026-11-30T08:03:00Z",
        "turn_deadline": "2026-12-01T08:03:00Z",
        "started_at": "2026-11-30T08:01:00Z",
        "finished_at": None,
        "winner_team": None,
        "abandoned_by_seat": None,
        "invitations": [],
        "paused_until": None,
        "pause": {"asked_by": None, "days": None, "asked_until": None, "votes": []},
        "tournament": None,
        "deal_break_until": None,
        "deals": [],
        "deal": {
            "seat": 0,
            "dealer": 3,
            "turn": 0,
            "phase": "play",
            "hand": ["KH", "KS", "KD", "7C", "7D", "2C", "9S", "9H", "5D", "QC", "JK", "4S"],
            "hand_counts": [12, 10, 10, 10],
            "stock_count": 58,
            "pile": {"top": "9D", "count": 4, "frozen": False},
            "teams": [
                {"opened": False, "minimum": 50, "red_threes": ["3H"], "melds": []},
                {"opened": False, "minimum": 50, "red_threes": [], "melds": []},
            ],
            "undo_available": False,
            "result": None,
        },
        "last_deal": None,
        "legal_actions": [
            {
                "type": "meld",
                "melds": [{"cards": ["KH", "KS", "KD"]}, {"cards": ["9S", "9H", "JK"]}],
            },
            {"type": "discard", "card": "7C"},
            {"type": "discard", "card": "4S"},
        ],
    },
)

INVITE_CODE_PARAMETER = OpenApiParameter(
    "invite_code",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="A private table is shown only to its creator and seated players, and while it "
    "waits for players to whoever sends its invite code here; to anybody else it is 404.",
)

PAUSE_CONFLICTS = (
    "`game_not_active`, `not_correspondence` (a live game), `already_paused`, "
    "`pause_already_asked`, `no_pause_asked` (none asked, or it lapsed), `not_paused`"
)
PAUSE_RESPONSES = {
    200: GameDetailSerializer,
    400: ERROR_400,
    401: ERROR_401,
    403: error_response("`not_seated` (spectators; bots are never asked)."),
    404: ERROR_404,
    409: error_response(PAUSE_CONFLICTS + "."),
}

INVITATION_404 = error_response("No such invitation of yours (`not_found`).")
NOT_PENDING = error_response(
    "`invitation_not_pending` (with its `status`: accepted, declined, withdrawn or lapsed)."
)

lobby = extend_schema(
    tags=["games"],
    summary="Lobby and own games",
    description="`?status=waiting`: open tables to join (public ones, and private ones you "
    "created or sit at). `?mine=1&status=active`: your unfinished games, with whose turn it "
    "is (`turn_seat`, `your_turn`) and `turn_deadline`.",
    parameters=[LobbyQuerySerializer],
    responses={200: GameSummarySerializer(many=True), 400: ERROR_400, 401: ERROR_401},
)

open_table = extend_schema(
    tags=["games"],
    summary="Open a table",
    description="You take `seat` (0 by default). `rules.players` sets the table (2, 3, 4 or "
    "6; `teams` at six: 3 pairs or 2 teams of three) and the house rules are options of "
    "`rules` too. The game starts when every seat is taken, with "
    f"a random first dealer. At most {services.MAX_WAITING_TABLES} of your tables may wait "
    "for players at a time. A table is rated (`rated`, the default) unless a bot sits at it "
    "when it starts; a rated table may ask for a `rating_range`. "
    "`invite` keeps seats for players you name (see the field). "
    "Errors: `invalid_rules` (400, with the reason), `invalid_rating_range` (400: upside "
    "down, or without your own rating), `rating_range_on_casual_table` (400), `suspended` "
    "(403), `too_many_open_tables` (409), `invalid` (also a `seat` the table does not "
    "have), and the invitations' refusals: `cannot_invite_yourself`, `duplicate_invitee`, "
    "`unknown_player`, `invitee_is_bot`, `too_many_invitees` (400), `blocked` (403); a "
    "refused request opens nothing.",
    request=GameCreateSerializer,
    responses={
        201: GameDetailSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response("`suspended`, `blocked`."),
        409: error_response("`too_many_open_tables`."),
    },
    examples=[
        OpenApiExample(
            "a public correspondence match to 5000",
            value={"mode": "async", "length": "match", "rules": {}, "private": False},
            request_only=True,
        ),
        OpenApiExample(
            "a rated correspondence table for players rated 1400 to 1700",
            value={
                "mode": "async",
                "length": "match",
                "rules": {},
                "rated": True,
                "rating_range": [1400, 1700],
            },
            request_only=True,
        ),
        OpenApiExample(
            "a table of six in two teams of three, to 10,000",
            value={
                "mode": "async",
                "length": "match",
                "rules": {"players": 6, "teams": 2},
            },
            request_only=True,
        ),
        OpenApiExample(
            "four-handed to 7500 with the house rules",
            value={
                "mode": "live",
                "length": "match",
                "rules": {
                    "target": 7500,
                    "canasta_opening_from_5000": True,
                    "ask_partner_to_go_out": True,
                    "canastas_to_go_out": 2,
                    "double_going_out": True,
                },
            },
            request_only=True,
        ),
        OpenApiExample(
            "a correspondence match with two friends invited",
            value={"mode": "async", "length": "match", "rules": {}, "invite": [12, 15]},
            request_only=True,
        ),
        OpenApiExample(
            "a private live match to 2500 with the half wild limit",
            value={
                "mode": "live",
                "length": "match",
                "rules": {"target": 2500, "wild_limit": "half"},
                "private": True,
                "seat": 0,
            },
            request_only=True,
        ),
    ],
)

game = extend_schema(
    tags=["games"],
    summary="A game as you may see it",
    description="`deal` is the current deal from your seat (spectators: no hand); "
    "`legal_actions` lists what you may send on your turn. Send `version` with your move.",
    parameters=[INVITE_CODE_PARAMETER],
    responses={200: GameDetailSerializer, 401: ERROR_401, 404: ERROR_404},
    examples=[GAME_EXAMPLE],
)

join = extend_schema(
    tags=["games"],
    summary="Take a seat",
    description="Seats are numbered in the order of play, partners never side by side "
    "(four players: 0+2 vs 1+3; each player's `team` says it). The player taking the last "
    "free seat starts the game. A seat kept for an invited player is theirs (taking it, or "
    "any free seat, accepts their invitation; a private table needs no code then). "
    "Errors: `invalid` (400: a seat the table does not have), "
    "`seat_taken`, `already_seated`, `game_not_waiting` (409), `bad_invite_code`, "
    "`rating_out_of_range` (your rating in the table's pool is outside its "
    "`rating_range`), `suspended`, `seat_reserved` (the seat is kept for an invited player), "
    "`blocked` (a player at the table, or invited to it, and you keep apart: a block either "
    "way) (403); a private table without its `invite_code` is `not_found` (404), as on every "
    "endpoint, to all but its creator, players and invited players.",
    request=JoinSerializer,
    responses={
        200: GameDetailSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response(
            "`suspended`, `bad_invite_code`, `rating_out_of_range`, `seat_reserved`, `blocked`."
        ),
        404: ERROR_404,
        409: error_response("`seat_taken`, `already_seated`, `game_not_waiting`."),
    },
    examples=[
        OpenApiExample("a public table", value={"seat": 2}, request_only=True),
        OpenApiExample(
            "a private table", value={"seat": 1, "invite_code": "Xy3_a9Qk"}, request_only=True
        ),
    ],
)

seat_bot = extend_schema(
    tags=["games"],
    summary="Give a free seat to a bot",
    description="The table's creator seats a bot of a level before the start; the last "
    "seat taken starts the game. In a running game, a seat its player abandoned (three "
    "timeouts in a row while other people play on) waits a turn for a bot: the creator, "
    "while still at the table, or once they have left it any person seated there, gives "
    "it to one, which takes over the seat's hand and turn. A bot plays through the same "
    "move service as people, from the worker, after a short pause (`BOT_PAUSE`: 2 s "
    "live, 1 s async); it decides from what its seat may see. Bots are shown as bots "
    "(`is_bot`, `bot_level`), get no kudos and cannot be reported; a game with bots "
    "(`with_bots`) moves nobody's Authority. Errors: `invalid_bot_level`, `invalid` (400: "
    "a seat the table does not have), `not_creator`, `seat_reserved` (403: kept for an "
    "invited player), `seat_taken`, `game_not_waiting` (409).",
    request=SeatBotSerializer,
    responses={
        200: GameDetailSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response("`not_creator`, `seat_reserved`."),
        404: ERROR_404,
        409: error_response("`seat_taken`, `game_not_waiting`."),
    },
    examples=[OpenApiExample("a club bot", value={"seat": 1, "level": "club"}, request_only=True)],
)

leave = extend_schema(
    tags=["games"],
    summary="Free your seat before the start",
    description="204 when you were the last one and the table is gone. Errors: `not_seated` "
    "(403), `game_started` (409).",
    request=None,
    responses={
        200: GameDetailSerializer,
        204: OpenApiResponse(description="The table was empty and is removed."),
        401: ERROR_401,
        403: error_response("`not_seated`."),
        404: ERROR_404,
        409: error_response("`game_started`."),
    },
)

move_log = extend_schema(
    tags=["games"],
    summary="The move log, as you may see it",
    description="Everyone sees each move's `action` and `public` event; `private` (e.g. the "
    "card drawn from the stock) only for your own moves. Pages of up to 500 moves.",
    parameters=[MoveLogQuerySerializer, INVITE_CODE_PARAMETER],
    responses={200: MoveLogSerializer, 400: ERROR_400, 401: ERROR_401, 404: ERROR_404},
)

make_move = extend_schema(
    tags=["games"],
    summary="Make a move",
    description="Send the game's `version` you saw and one action. On success: the new "
    "moves (as you see them) and the game. Errors: an illegal move is 400 with the engine's "
    "code (`not_your_turn`, `wrong_phase`, `card_not_in_hand`, `below_minimum`, "
    "`pile_frozen`, ... see CONTRACT.md) and a message in your language; `not_seated` (403); "
    "`stale_version` (409, with the current `version`), `game_not_active` (409). "
    "A move already applied, sent again without a key, is 409 `stale_version` (its version "
    "is gone). With an `Idempotency-Key` header a retry of the same request (same `version` "
    "and `action`) gets the first answer again instead of playing twice. Only answers of "
    "requests the engine judged are kept: a move made (200) or an illegal move (400 with "
    "the engine's code); after a 409, 403 or 5xx the key stays unused, so a retry with it "
    "is tried afresh. The same key with a different request is 422 "
    "`idempotency_key_reused`.",
    parameters=[
        OpenApiParameter(
            "Idempotency-Key",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            required=False,
            description="Any unique string per intended move (max 255 printable "
            "characters); reuse it only to retry that same request.",
        )
    ],
    request=MoveRequestSerializer,
    responses={
        200: MoveResultSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response("`not_seated`."),
        404: ERROR_404,
        409: error_response("`stale_version`, `game_not_active`."),
        422: error_response(
            "`idempotency_key_reused`: the key was used for another request.",
        ),
    },
    examples=ACTION_EXAMPLES,
)

heartbeat = extend_schema(
    tags=["games"],
    summary="I am at the table",
    description="Keeps a live seat from being marked absent (60 s without a request) and "
    "reclaims it when it was. Any request about the game counts too. "
    "Errors: `not_found`, `not_seated` (403).",
    request=None,
    responses={
        200: SeatPresenceSerializer,
        401: ERROR_401,
        403: error_response("`not_seated`."),
        404: ERROR_404,
    },
)

close_deal_summary = extend_schema(
    tags=["games"],
    summary="Close the finished deal's summary («Дальше»)",
    description="Between two deals the table shows each person the finished deal's score "
    "until they close it (or move). In a live game the next deal's clock starts once every "
    "person at the table has closed it (bots are never waited for), or at "
    "`deal_break_until` (30 s after the deal ended). Answers the game. Errors: "
    "`not_seated` (403).",
    request=None,
    responses={
        200: GameDetailSerializer,
        401: ERROR_401,
        403: error_response("`not_seated`."),
        404: ERROR_404,
    },
)

export = extend_schema(
    tags=["games"],
    summary="A finished game for replay",
    description="Rules, match seed, first dealer, every deal's seed and result, and every "
    "move with its private event: `Match.new(rules, first_dealer=..., seed=...)` then apply "
    "the moves in order. Before the end: 409 `game_not_finished`; a game of a duplicate "
    "tournament's round while the round's other tables still play its deals: 409 "
    "`game_sealed`.",
    responses={
        200: ExportSerializer,
        401: ERROR_401,
        404: ERROR_404,
        409: error_response("`game_not_finished`, `game_sealed`."),
    },
)

ask_pause = extend_schema(
    tags=["games"],
    summary="Ask the table for a pause (correspondence games)",
    description="Any person seated at an active correspondence game asks to pause it for "
    "`days` (1 to `CORRESPONDENCE_PAUSE_DAYS`, 14 by default); asking counts as accepting. "
    "When every person at the table has accepted (bots are not asked), every clock stops "
    "until `paused_until`: the running turn's `turn_deadline` moves by the pause. A request "
    "not accepted by all within `CORRESPONDENCE_PAUSE_ASK_HOURS` (24 by default) lapses "
    "(`pause.asked_until`). Answers the game. Errors: `invalid` (400: `days`), "
    f"`not_seated` (403), {PAUSE_CONFLICTS} (409).",
    request=PauseRequestSerializer,
    responses=PAUSE_RESPONSES,
    examples=[OpenApiExample("a week", value={"days": 7}, request_only=True)],
)

accept_pause = extend_schema(
    tags=["games"],
    summary="Accept the pause asked",
    description="The last person's yes starts the pause. Errors: `not_seated` (403), "
    f"{PAUSE_CONFLICTS} (409).",
    request=None,
    responses=PAUSE_RESPONSES,
)

resume_pause = extend_schema(
    tags=["games"],
    summary="Agree to end the pause early",
    description="The pause all agreed to ends early when all agree: each person's resume "
    "is a vote (`pause.votes`), and the last one ends it now; the running turn gets back "
    "the time it had left. Otherwise it ends at `paused_until` by itself. Errors: "
    f"`not_seated` (403), {PAUSE_CONFLICTS} (409).",
    request=None,
    responses=PAUSE_RESPONSES,
)

invite_players = extend_schema(
    tags=["games"],
    summary="Invite players to your waiting table",
    description="The table's creator, seated, keeps free seats for more players (as "
    "`invite` when opening). Errors: the invitations' refusals (`cannot_invite_yourself`, "
    "`duplicate_invitee`, `unknown_player`, `invitee_is_bot`, `too_many_invitees` 400; "
    "`blocked` 403), `not_creator` (403), `already_seated`, `already_invited`, "
    "`game_not_waiting` (409).",
    request=InviteRequestSerializer,
    responses={
        200: GameDetailSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response("`not_creator`, `blocked`, `suspended`."),
        404: ERROR_404,
        409: error_response("`already_seated`, `already_invited`, `game_not_waiting`."),
    },
)

my_invitations = extend_schema(
    tags=["games"],
    summary="Your invitations waiting for an answer",
    description="Soonest to lapse first. Accept one (`POST /api/invitations/{id}/accept/`, "
    "or take its seat: `POST /api/games/{game}/join/`) or decline it.",
    responses={200: MyInvitationSerializer(many=True), 401: ERROR_401},
)

accept_invitation = extend_schema(
    tags=["games"],
    summary="Accept an invitation: sit at the seat kept for you",
    description="The same as joining that seat; the last seat taken starts the game. "
    "Errors: as `join` (e.g. `blocked`, `suspended` 403), and "
    "`invitation_not_pending` (409).",
    request=None,
    responses={
        200: GameDetailSerializer,
        401: ERROR_401,
        403: error_response("`blocked`, `suspended`."),
        404: INVITATION_404,
        409: NOT_PENDING,
    },
)

decline_invitation = extend_schema(
    tags=["games"],
    summary="Decline an invitation",
    description="The seat kept for you opens for anybody. Errors: `invitation_not_pending` (409).",
    request=None,
    responses={
        200: InvitationAnswerSerializer,
        401: ERROR_401,
        404: INVITATION_404,
        409: NOT_PENDING,
    },
)

withdraw_invitation = extend_schema(
    tags=["games"],
    summary="Withdraw an invitation you sent",
    description="The seat you kept opens for anybody. Errors: `invitation_not_pending` (409).",
    request=None,
    responses={204: None, 401: ERROR_401, 404: INVITATION_404, 409: NOT_PENDING},
)

rematch = extend_schema(
    tags=["games"],
    summary="Play again: the rematch of a game that is over",
    description="The same people, mode and rules (every setting of the table) at a new "
    "table. Everyone keeps their seat (partners stay partners): you sit at yours, the old "
    "table's bots at theirs, and the other people are invited to theirs (an `invitation` "
    "notification; their seats wait a turn limit) — but one who keeps apart from you (a "
    "block either way), whose seat stays open. 201 with the new game. One rematch per "
    "game: a later call by any player of the old game, or two at once, answers that same "
    "game (200), and seats the caller at the seat kept for them (or their old seat, if "
    "free). Errors: `not_seated` (403: not a player of that game), `game_not_over` (409: "
    "still running), and opening's (`too_many_open_tables` 409, `suspended` 403).",
    request=None,
    responses={
        200: GameDetailSerializer,
        201: GameDetailSerializer,
        401: ERROR_401,
        403: error_response("`not_seated`, `suspended`, `blocked`."),
        404: ERROR_404,
        409: error_response("`game_not_over`, `too_many_open_tables`."),
    },
)

phrases = extend_schema(
    tags=["games"],
    summary="The table's phrases",
    description="The fixed list a player may say to the whole table "
    "(`POST /api/games/{id}/phrases/`), each `{key, text}`, the text in the request's "
    "language (`Accept-Language`).",
    responses={200: PhraseSerializer(many=True), 401: ERROR_401},
)

say_phrase = extend_schema(
    tags=["games"],
    summary="Say a phrase to the whole table",
    description="One of the fixed phrases, from your seat to everyone at the table (never "
    "free text, never to one player alone: a body with any field but `phrase` is 400 "
    "`invalid`). It shows by your seat for a while, in the move log and in the game's "
    f"`phrases`. One every {table_phrases.PHRASE_INTERVAL.seconds} s at most. Errors: "
    "`unknown_phrase`, `invalid` (400), `not_seated`, `muted` (403), `phrase_too_soon` "
    "(429, with `retry_after` in seconds).",
    request=SayPhraseSerializer,
    responses={
        201: TablePhraseSerializer,
        400: ERROR_400,
        401: ERROR_401,
        403: error_response("`not_seated`, `muted`."),
        404: ERROR_404,
        429: error_response("`phrase_too_soon` (with `retry_after`, seconds)."),
    },
    examples=[OpenApiExample("good luck", value={"phrase": "good_luck"}, request_only=True)],
)
