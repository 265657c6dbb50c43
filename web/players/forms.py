"""«Пожаловаться» on a player's card: the shape of a report (moderation's service judges it).

Choice labels are callables, so each request gets them in its own language.
"""

from django import forms

from moderation import policy
from web.labels import reason_choices


class ReportForm(forms.Form):
    game = forms.IntegerField(min_value=1)
    reason = forms.ChoiceField(choices=reason_choices)
    text = forms.CharField(max_length=policy.REPORT_TEXT_MAX_LENGTH, required=False)
    afterword = forms.IntegerField(min_value=1, required=False)
