"""The browsable API's session log-in (/api-auth/login/): Django's view with the club's form.

The failed log-in limits hold in authenticate() (accounts.login_limits); a refused attempt is
answered 429 here, as the API's throttles answer.
"""

from django.contrib.auth import views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse

from accounts.forms import LoginForm


class SessionLoginView(views.LoginView):
    template_name = "rest_framework/login.html"
    authentication_form = LoginForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
