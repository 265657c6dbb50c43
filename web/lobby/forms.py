"""The lobby's form to open a table: every variant the engine offers; the service checks."""

import re
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from django import forms

from accounts import selectors as account_selectors
from club.i18n import text
from games import services as game_services
from games.engine import Rules
from games.engine.rules import TABLE_TEAMS, TARGET_MAX_SEQUENCES, TARGET_MIN
from games.models import LAST_SEAT, Game
from games.services.rating import RANGE_LIMITS
from web.lobby.shaping import TABLE_NAMES, table_name

# The match lengths offered besides the table's own (R-GAME-1/2, seed 001).
TARGETS = (2500, 5000, 7500, 10_000)


def _table_choices() -> list[tuple[str, str]]:
    """Every table the engine seats, as "{players}x{teams}", named in the page's language."""
    tables = [(players, teams) for players, choices in TABLE_TEAMS.items() for teams in choices]
    tables.sort(key=list(TABLE_NAMES).index)
    return [(f"{players}x{teams}", table_name(players, teams)) for players, teams in tables]


class OpenTableForm(forms.Form):
    """Every variant the engine offers (Rules); the service validates the combination."""

    mode = forms.ChoiceField(choices=Game.Mode.choices)
    length = forms.ChoiceField(choices=Game.Length.choices)
    # Empty: the table's own length (5000; at six 7500 with three teams, 10,000 with two).
    target = forms.IntegerField(
        min_value=TARGET_MIN, max_value=TARGET_MAX_SEQUENCES, required=False
    )
    # Empty: the club's Canasta; "samba" or "bolivia" (issue 24): four players, no variants.
    game = forms.ChoiceField(
        choices=[("classic", "classic"), ("samba", "samba"), ("bolivia", "bolivia")],
        required=False,
    )
    acaba = forms.BooleanField(required=False)
    # "{players}x{teams}"; empty: the club's four-handed game.
    table = forms.ChoiceField(choices=_table_choices, required=False)
    wild_limit = forms.ChoiceField(choices=[("strict", "strict"), ("half", "half")])
    stock_out = forms.ChoiceField(choices=[("club", "club"), ("classic", "classic")])
    tie = forms.ChoiceField(choices=[("draw", "draw"), ("extra_deal", "extra_deal")])
    upcard_stops_on_black_three = forms.BooleanField(required=False)
    concealed_out_skips_minimum = forms.BooleanField(required=False)
    # House rules (seed 001).
    two_canastas = forms.BooleanField(required=False)
    ask_partner_to_go_out = forms.BooleanField(required=False)
    to_7500 = forms.BooleanField(required=False)
    double_going_out = forms.BooleanField(required=False)
    private = forms.BooleanField(required=False)
    # A rated table (the default) or a casual one; a rated one may ask for a rating range.
    rated = forms.ChoiceField(choices=[("true", "true"), ("false", "false")], required=False)
    rating_min = forms.IntegerField(
        min_value=RANGE_LIMITS[0], max_value=RANGE_LIMITS[1], required=False
    )
    rating_max = forms.IntegerField(
        min_value=RANGE_LIMITS[0], max_value=RANGE_LIMITS[1], required=False
    )
    seat = forms.TypedChoiceField(
        choices=[(n, n) for n in range(LAST_SEAT + 1)], coerce=int, initial=0
    )
    # Invitations (issue 37): players one follows, ticked, and others by their log-in names.
    invite = forms.TypedMultipleChoiceField(coerce=int, required=False)
    invite_names = forms.CharField(max_length=500, required=False)

    def __init__(self, *args: Any, followed: Sequence[tuple[int, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        invite = self.fields["invite"]
        assert isinstance(invite, forms.TypedMultipleChoiceField)
        invite.choices = list(followed)

    def clean_invite_names(self) -> list[int]:
        """The players named (log-in names, by commas or spaces), as ids; an unknown name is
        the field's error."""
        ids = []
        for name in re.split(r"[\s,;]+", self.cleaned_data["invite_names"].strip()):
            if not name:
                continue
            player = account_selectors.active_user_by_username(username=name)
            if player is None:
                raise forms.ValidationError(
                    text(f"Нет игрока с именем «{name}».", f"There is no player “{name}”.")
                )
            ids.append(player.pk)
        return ids

    def invitee_ids(self) -> list[int]:
        """The players to invite, each once: those ticked, then those named."""
        return list(
            dict.fromkeys([*self.cleaned_data["invite"], *self.cleaned_data["invite_names"]])
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("rating_min") is None) != (data.get("rating_max") is None):
            raise forms.ValidationError(
                text(
                    "Диапазон рейтинга — это оба числа: от и до.",
                    "A rating range needs both numbers: from and to.",
                )
            )
        return data

    def is_rated(self) -> bool:
        return self.cleaned_data["rated"] != "false"

    def rating_range(self) -> tuple[int, int] | None:
        """The range asked for (the service checks it), or None."""
        low, high = self.cleaned_data["rating_min"], self.cleaned_data["rating_max"]
        return None if low is None or high is None else (low, high)

    def rules_options(self) -> dict[str, object]:
        """The engine's options; what the form leaves open takes the table's default."""
        data = self.cleaned_data
        options: dict[str, object] = {
            name: data[name]
            for name in (
                "wild_limit",
                "stock_out",
                "tie",
                "upcard_stops_on_black_three",
                "concealed_out_skips_minimum",
                "ask_partner_to_go_out",
                "double_going_out",
            )
        }
        if data["game"] in ("samba", "bolivia"):
            # Their own games: the classic variants the form always sends are left out.
            options = {"game": data["game"]}
            if data["target"] is not None:
                options["target"] = data["target"]
            return options
        if data["acaba"]:
            options["acaba"] = True
        if data["table"]:
            options["players"], options["teams"] = (int(part) for part in data["table"].split("x"))
        if data["target"] is not None:
            options["target"] = data["target"]
        if data["two_canastas"]:
            options["canastas_to_go_out"] = 2
        if data["to_7500"]:
            # «До 7500» (seed 001): the game to 7,500, and from 5,000 a canasta opens.
            options["target"] = 7500
            options["canasta_opening_from_5000"] = True
        # The names are the engine's (a rename fails here first); the service judges the values.
        assert set(options) <= {field.name for field in fields(Rules)}, sorted(options)
        return options


class PlayWithBotsForm(forms.Form):
    """«Играть с ботами»: empty fields take a live game and club-level bots."""

    mode = forms.ChoiceField(choices=Game.Mode.choices, required=False)
    level = forms.ChoiceField(
        choices=[(level, level) for level in game_services.BOT_LEVELS], required=False
    )
