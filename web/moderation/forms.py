"""The moderators' desk's forms: they check the shape of the input; the services judge.

Reasons and decisions are named by their labels (lazy), so each request gets them in its own
language.
"""

from django import forms

from moderation import policy
from moderation.models import Report


class ResolveForm(forms.Form):
    decision = forms.ChoiceField(choices=Report.Decision.choices)
    days = forms.IntegerField(min_value=1, max_value=policy.MAX_SANCTION_DAYS, required=False)
    message = forms.CharField(max_length=policy.MODERATOR_MESSAGE_MAX_LENGTH)


class QueueFilterForm(forms.Form):
    status = forms.ChoiceField(
        choices=[(name, name) for name in ("open", "unclaimed", "claimed", "resolved")],
        required=False,
    )
    reason = forms.ChoiceField(choices=[("", ""), *Report.Reason.choices], required=False)
    overdue = forms.BooleanField(required=False)
    offset = forms.IntegerField(min_value=0, required=False)
