"""The profile's vacation and days-off forms and the table's pause form (web.time_off_views)."""

from django import forms
from django.conf import settings

from canasta_club.i18n import text


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=366)
    # A day in the player's own zone; empty: from now.
    start = forms.DateField(required=False)


class TimeOffForm(forms.Form):
    auto = forms.BooleanField(required=False)
    weekend_days = forms.MultipleChoiceField(
        choices=[(str(day), str(day)) for day in range(7)], required=False
    )
    time_zone = forms.CharField(max_length=64)


class PauseForm(forms.Form):
    days = forms.IntegerField(min_value=1)

    def clean_days(self) -> int:
        days = int(self.cleaned_data["days"])
        if days > settings.CORRESPONDENCE_PAUSE_DAYS:
            raise forms.ValidationError(
                text(
                    f"Пауза — не больше {settings.CORRESPONDENCE_PAUSE_DAYS} дней.",
                    f"A pause lasts {settings.CORRESPONDENCE_PAUSE_DAYS} days at most.",
                )
            )
        return days
