"""Forms of the pages around the table: they check the shape of the input; the services judge.

Choice labels are callables, so each request gets them in its own language.
"""

from django import forms

from moderation import policy
from moderation.models import Afterword, Report
from web.club_selectors import decision_name, reason_choices


def _decision_choices() -> list[tuple[str, str]]:
    return [(decision, decision_name(decision)) for decision in Report.Decision.values]


def _reason_filter_choices() -> list[tuple[str, str]]:
    return [("", ""), *reason_choices()]


class ReportForm(forms.Form):
    game = forms.IntegerField(min_value=1)
    reason = forms.ChoiceField(choices=reason_choices)
    text = forms.CharField(max_length=policy.REPORT_TEXT_MAX_LENGTH, required=False)
    afterword = forms.IntegerField(min_value=1, required=False)


class AfterwordForm(forms.Form):
    to = forms.ChoiceField(choices=Afterword.To.choices)
    text = forms.CharField(max_length=policy.AFTERWORD_MAX_LENGTH, strip=True)
    # Which partner, where a player had several (six players in two teams of three).
    partner = forms.IntegerField(min_value=1, required=False)


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
