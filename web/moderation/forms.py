"""The moderators' desk's forms: they check the shape of the input; the services judge.

Choice labels are callables, so each request gets them in its own language.
"""

from django import forms

from moderation import policy
from moderation.models import Report
from web.labels import decision_name, reason_choices


def _decision_choices() -> list[tuple[str, str]]:
    return [(decision, decision_name(decision)) for decision in Report.Decision.values]


def _reason_filter_choices() -> list[tuple[str, str]]:
    return [("", ""), *reason_choices()]


class ResolveForm(forms.Form):
    decision = forms.ChoiceField(choices=_decision_choices)
    days = forms.IntegerField(min_value=1, max_value=policy.MAX_SANCTION_DAYS, required=False)
    message = forms.CharField(max_length=policy.MODERATOR_MESSAGE_MAX_LENGTH)


class QueueFilterForm(forms.Form):
    status = forms.ChoiceField(
        choices=[(name, name) for name in ("open", "unclaimed", "claimed", "resolved")],
        required=False,
    )
    reason = forms.ChoiceField(choices=_reason_filter_choices, required=False)
    overdue = forms.BooleanField(required=False)
    offset = forms.IntegerField(min_value=0, required=False)
