"""The pages' forms: field names are CONTRACT.md §4's; the services do the checking."""

from django import forms
from django.conf import settings

from accounts.serializers import PASSWORD_MAX_LENGTH
from games.engine import Rules
from games.engine.rules import TARGET_MAX, TARGET_MIN
from games.models import Game


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
    # Needed only to move the email (it is the way back into the account).
    password = forms.CharField(
        max_length=PASSWORD_MAX_LENGTH, strip=False, required=False, widget=forms.PasswordInput
    )


class PasswordResetRequestForm(forms.Form):
    email = forms.EmailField()


class OpenTableForm(forms.Form):
    """Every variant the engine offers (Rules); the service validates the combination."""

    mode = forms.ChoiceField(choices=Game.Mode.choices)
    length = forms.ChoiceField(choices=Game.Length.choices)
    target = forms.IntegerField(min_value=TARGET_MIN, max_value=TARGET_MAX, initial=5000)
    wild_limit = forms.ChoiceField(choices=[("strict", "strict"), ("half", "half")])
    stock_out = forms.ChoiceField(choices=[("club", "club"), ("classic", "classic")])
    tie = forms.ChoiceField(choices=[("draw", "draw"), ("extra_deal", "extra_deal")])
    upcard_stops_on_black_three = forms.BooleanField(required=False)
    concealed_out_skips_minimum = forms.BooleanField(required=False)
    private = forms.BooleanField(required=False)
    seat = forms.TypedChoiceField(
        choices=[(n, n) for n in Rules().seating.seats], coerce=int, initial=0
    )

    def rules_options(self) -> dict[str, object]:
        data = self.cleaned_data
        options: dict[str, object] = {
            name: data[name]
            for name in (
                "wild_limit",
                "stock_out",
                "tie",
                "upcard_stops_on_black_three",
                "concealed_out_skips_minimum",
            )
        }
        options["target"] = data["target"]
        Rules.from_options(options)  # the names are the engine's; a rename fails here first
        return options
