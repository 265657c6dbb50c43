"""The tournaments' forms: opening one (short: the rest folded away), entering with a partner."""

from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from club.i18n import text
from games.engine.rules import DEALS_MAX
from tournaments.models import Tournament
from tournaments.services import MAX_ENTRIES, MAX_ROUNDS, TournamentSpec

# The tables a tournament may be played at, as the form names them: the table's engine options.
TABLES: dict[str, dict[str, Any]] = {
    "classic": {},
    "samba": {"game": "samba"},
    "bolivia": {"game": "bolivia"},
    "two": {"players": 2},
}
TABLE_NAMES = {
    "classic": ("Канаста вчетвером, парами", "Canasta, four in two pairs"),
    "samba": ("Самба вчетвером", "Samba, four"),
    "bolivia": ("Боливия вчетвером", "Bolivia, four"),
    "two": ("Канаста вдвоём", "Canasta for two"),
}


class OpenTournamentForm(forms.Form):
    name = forms.CharField(max_length=80)
    mode = forms.ChoiceField(choices=[("async", "async"), ("live", "live")])
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False)
    table = forms.ChoiceField(choices=[(key, key) for key in TABLES])
    partners = forms.ChoiceField(choices=Tournament.Partners.choices, required=False)
    deals = forms.IntegerField(min_value=1, max_value=DEALS_MAX, initial=1)
    duplicate = forms.BooleanField(required=False)
    max_entries = forms.IntegerField(min_value=2, max_value=MAX_ENTRIES, initial=16)
    casual = forms.BooleanField(required=False)
    # A moment in the player's own time zone (the page's datetime-local field).
    starts_at = forms.DateTimeField(required=False, input_formats=["%Y-%m-%dT%H:%M"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("format") == Tournament.Format.SWISS and not cleaned.get("rounds"):
            self.add_error(
                "rounds",
                text("Сколько туров играть по швейцарской системе?", "How many Swiss rounds?"),
            )
        return cleaned

    def spec(self, *, time_zone: str) -> TournamentSpec:
        """The tournament asked for; the start is a moment on the creator's own clock."""
        data = self.cleaned_data
        starts_at = data["starts_at"]
        if starts_at is not None:
            starts_at = starts_at.replace(tzinfo=ZoneInfo(time_zone))
        return TournamentSpec(
            name=data["name"],
            mode=data["mode"],
            format=data["format"],
            partners=data["partners"] or None,
            rounds=data["rounds"],
            deals=data["deals"],
            duplicate=data["duplicate"],
            max_entries=data["max_entries"],
            starts_at=starts_at,
            rated=not data["casual"],
            rules=TABLES[data["table"]],
        )


class EnterForm(forms.Form):
    # Fixed pairs: the partner's username.
    partner = forms.CharField(max_length=150, required=False)
