"""The account's forms: sign-up, the profile with its vacation and days off, the password reset
request. Field names are CONTRACT.md §4's; the services do the checking."""

from django import forms
from django.conf import settings

from accounts.serializers import PASSWORD_MAX_LENGTH


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150)
    email = forms.EmailField()
    password = forms.CharField(
        max_length=PASSWORD_MAX_LENGTH, strip=False, widget=forms.PasswordInput
    )
    display_name = forms.CharField(max_length=40, required=False)


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=40)
    email = forms.EmailField()
    language = forms.ChoiceField(choices=settings.LANGUAGES)
    confirm_discard = forms.BooleanField(required=False)
    phrases_muted = forms.BooleanField(required=False)
    # Needed only to move the email (it is the way back into the account).
    password = forms.CharField(
        max_length=PASSWORD_MAX_LENGTH, strip=False, required=False, widget=forms.PasswordInput
    )


class PasswordResetRequestForm(forms.Form):
    email = forms.EmailField()


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
