"""Session log-ins: the pages' /login/ and the browsable API's /api-auth/login/, both Django's
view with the club's form.

The failed log-in limits hold in authenticate() (accounts.login_limits); a refused attempt is
answered 429 here, as the API's throttles answer. A signed-in browser gets the form too (no
redirect: a browser carrying a session somebody planted must be able to log in as its owner),
and every log-in starts a new session under a new key, even the same user's again.
"""

from django.contrib.auth import views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse
from django.utils.decorators import method_decorator

from accounts.forms import LoginForm
from club.content_security import inline_styles


class FreshSessionLoginView(views.LoginView):
    authentication_form = LoginForm
    redirect_authenticated_user = False

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        # Nothing of the session before (whoever's it was) survives; login() then gives the
        # new one a new key (Django rotates it only when the user changes).
        self.request.session.flush()
        return super().form_valid(form)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


@method_decorator(inline_styles, name="dispatch")  # DRF's template (content_security)
class SessionLoginView(FreshSessionLoginView):
    template_name = "rest_framework/login.html"
