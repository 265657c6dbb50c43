"""The tournaments API's requests and answers (CONTRACT §7), for validation and the schema."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.rules import DEALS_MAX
from games.models import Game
from games.serializers import RulesSerializer, UserBriefSerializer
from tournaments.models import Tournament
from tournaments.services import MAX_ENTRIES, MAX_ROUNDS

ROUND_MINUTES_HELP = (
    "A round's time in minutes (10 to 86400): its games not over by then are played out by the "
    "club's bots (never a disqualification). Default: 7 days a deal by correspondence, 30 "
    "minutes a deal live."
)


@extend_schema_field(
    {
        "type": "string",
        "description": "One of: " + ", ".join(f"`{v}`" for v in Tournament.Status.values),
    }
)
class TournamentStatusField(serializers.ChoiceField):
    """Documented without an enum component: other apps' `status` enums would clash with it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Tournament.Status.choices, **kwargs)


@extend_schema_field({"type": "string", "enum": Tournament.Status.values})
class TournamentStatusQueryField(TournamentStatusField):
    """A query parameter: an inline enum here clashes with nothing (no component)."""


@extend_schema_field(RulesSerializer)
class TableRulesField(serializers.DictField):
    """The table's engine options; the engine validates them."""


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, help_text="1 to 80 printable characters.")
    mode = serializers.ChoiceField(
        choices=Game.Mode.choices, help_text="`async`: 24 h a turn; `live`: 30 s a turn."
    )
    format = serializers.ChoiceField(
        choices=Tournament.Format.choices,
        help_text="`swiss`: entries of equal points meet each round, no rematch while another "
        "pairing exists, an odd entry out has a bye worth a win; `round_robin`: every entry "
        "meets every other (with rotating partners: partners every other) once.",
    )
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="Swiss: required. Round robin: at most a whole cycle (the default).",
    )
    deals = serializers.IntegerField(
        required=False,
        default=1,
        min_value=1,
        max_value=DEALS_MAX,
        help_text="Deals a game: the game is scored by its points after them (no target).",
    )
    duplicate = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Every table of a round plays the same shuffles (deal k of each deals the "
        "same cards to the same seats, from the same dealer); a side scores match points "
        "against the others who held the same cards. Needs two tables' worth of entries.",
    )
    partners = serializers.ChoiceField(
        choices=Tournament.Partners.choices,
        required=False,
        help_text="`fixed`: an entry is a pair who play every game together (tables of four; "
        "the default there); `rotating`: an entry is one player, partners change each round, "
        "nobody has the same partner twice while avoidable (at a table of two: single "
        "players, the only choice).",
    )
    max_entries = serializers.IntegerField(
        required=False,
        default=16,
        min_value=2,
        max_value=MAX_ENTRIES,
        help_text="Entries (pairs or players) it takes: at least a table's worth (two in "
        "duplicate).",
    )
    starts_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="It starts by itself then (within a year); with too few entries it is "
        "cancelled. Without it, its creator starts it.",
    )
    rated = serializers.BooleanField(
        required=False, default=True, help_text="`false`: a casual tournament, no game rated."
    )
    rules = TableRulesField(
        required=False,
        default=dict,
        help_text="The tables' engine options (`players`, `teams`, `game`, variants, house "
        "rules); not `target` or `deals`. Tables of two sides only: 2 players, or 4 in pairs "
        "(the default; classic, Samba or Bolivia).",
    )
    round_minutes = serializers.IntegerField(
        required=False, allow_null=True, help_text=ROUND_MINUTES_HELP
    )


class TournamentQuerySerializer(serializers.Serializer):
    status = TournamentStatusQueryField(
        required=False,
        help_text="`open` (taking entries), `running`, `finished`, or `cancelled` (started "
        "with too few entries).",
    )


class JoinTournamentSerializer(serializers.Serializer):
    partner = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Fixed pairs: your partner's user id (required); they enter with you as one "
        "entry. Otherwise leave it out.",
    )


class TournamentSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = TournamentStatusField()
    mode = serializers.ChoiceField(choices=Game.Mode.choices)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    duplicate = serializers.BooleanField()
    partners = serializers.ChoiceField(choices=Tournament.Partners.choices)
    rated = serializers.BooleanField()
    rules = RulesSerializer(help_text="Every table's options, resolved (`deals`, no target).")
    deals = serializers.IntegerField()
    round_count = serializers.IntegerField(
        allow_null=True,
        help_text="Rounds to play (the request's `rounds`); a round robin's is set at its start.",
    )
    current_round = serializers.IntegerField(help_text="The round under way; 0 before the start.")
    max_entries = serializers.IntegerField()
    entry_count = serializers.IntegerField()
    round_minutes = serializers.IntegerField(help_text=ROUND_MINUTES_HELP)
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    created_by = UserBriefSerializer()
    created_at = serializers.DateTimeField()


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="In the order of entering, from 1.")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="User ids.")
    members = UserBriefSerializer(many=True, help_text="The same players, with their names.")


class RoundTableSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.CharField(help_text="The game's status.")
    sides = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Each team's entries (the engine's team index: seats 0+2 are team 0 at four).",
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    games = serializers.ListField(child=serializers.IntegerField(), help_text="Game ids.")
    started_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(
        help_text="Games not over by then are played out by the club's bots."
    )
    ended_at = serializers.DateTimeField(allow_null=True)
    tables = RoundTableSerializer(many=True)
    byes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entries sitting out: a bye is worth a win."
    )


class StandingSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    points = serializers.FloatField(
        help_text="Game points: a win 1, a draw 1/2, a bye 1; in duplicate, each game's mean "
        "match points over its boards (0 to 1)."
    )
    rank = serializers.IntegerField(help_text="Entries level on every tie-break share a rank.")
    tiebreak = serializers.FloatField(
        help_text="Swiss: Buchholz (the opponents' points); round robin: Sonneborn–Berger."
    )
    difference = serializers.FloatField(help_text="The score difference, the last tie-break.")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    byes = serializers.IntegerField()


class TournamentDetailSerializer(TournamentSummarySerializer):
    your_entry = serializers.IntegerField(allow_null=True)
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True, help_text="Paired so far, first first.")
    standings = StandingSerializer(many=True, help_text="Best first.")
