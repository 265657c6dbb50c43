from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from canasta_club.health import HealthView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api-auth/", include("rest_framework.urls")),
    path("api/health/", HealthView.as_view(), name="health"),
    path("api/", include("accounts.urls")),
    path("api/", include("games.urls")),
    path("api/", include("notifications.urls")),
    path("api/", include("moderation.urls")),
]

handler404 = "canasta_club.errors.json_not_found"
handler500 = "canasta_club.errors.json_server_error"
