"""The table's forms: the agreed pause and a finished game's afterword (the services judge)."""

from django import forms
from django.conf import settings

from club.i18n import text
from moderation import policy
from moderation.models import Afterword


class AfterwordForm(forms.Form):
    to = forms.ChoiceField(choices=Afterword.To.choices)
    text = forms.CharField(max_length=policy.AFTERWORD_MAX_LENGTH, strip=True)
    # Which partner, where a player had several (six players in two teams of three).
    partner = forms.IntegerField(min_value=1, required=False)


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
