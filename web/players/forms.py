"""«Пожаловаться» on a player's card: the shape of a report (moderation's service judges it).

The reasons are named by their labels (lazy), so each request gets them in its own language.
"""

from django import forms

from moderation import policy
from moderation.models import Report


class ReportForm(forms.Form):
    game = forms.IntegerField(min_value=1)
    reason = forms.ChoiceField(choices=Report.Reason.choices)
    text = forms.CharField(max_length=policy.REPORT_TEXT_MAX_LENGTH, required=False)
    afterword = forms.IntegerField(min_value=1, required=False)
