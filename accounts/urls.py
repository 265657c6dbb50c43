from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="token"),
    path("auth/logout/", views.LogoutView.as_view(), name="logout"),
    path("auth/tokens/", views.TokensView.as_view(), name="tokens"),
    path("auth/tokens/<int:pk>/", views.TokenDetailView.as_view(), name="token-detail"),
    path("auth/password/change/", views.PasswordChangeView.as_view(), name="password-change"),
    path("auth/password/reset/", views.PasswordResetView.as_view(), name="password-reset"),
    path(
        "auth/password/reset/confirm/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
]
