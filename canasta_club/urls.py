from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.forms import AdminLoginForm
from accounts.session_login import SessionLoginView
from canasta_club.health import HealthView
from club.content_security import inline_styles
from web import urls as web_urls

# The browsable API's log-in and log-out, named as DRF's templates expect (rest_framework.urls,
# with the log-in throttled).
session_urls = (
    [
        path("login/", SessionLoginView.as_view(), name="login"),
        path("logout/", LogoutView.as_view(), name="logout"),
    ],
    "rest_framework",
)

# The admin's pages say whose they are.
admin.site.site_header = admin.site.site_title = "Canasta Club"
# Staff log in under the same failed log-in limits as everybody (accounts.login_limits).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's script from its own URL (the split view: no inline script); its page's
    # inline <style> taken (club.content_security).
    path(
        "api/docs/",
        inline_styles(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="docs",
    ),
    path("api-auth/", include(session_urls)),
    path("password-reset/", include(web_urls.reset_link_urlpatterns)),
    # The API before the pages: no page's path starts with api/, and a program's request is
    # resolved without trying the pages' forty patterns first. The games' first of the API's:
    # a program's every read and move is theirs (no two apps' API paths overlap).
    path("api/", include("games.urls")),
    path("api/health/", HealthView.as_view(), name="health"),
    path("api/", include("accounts.urls")),
    path("api/", include("profiles.urls")),
    path("api/", include("social.urls")),
    path("api/", include("notifications.urls")),
    path("api/", include("moderation.urls")),
    path("api/", include("tournaments.urls")),
    path("api/", include("ratings.urls")),
    path("", include("web.urls")),
]

handler400 = "web.errors.bad_request"
handler403 = "web.errors.forbidden"
handler404 = "web.errors.not_found"
handler500 = "web.errors.server_error"
