from django.urls import path

from profiles import views

app_name = "profiles"

urlpatterns = [
    path("auth/register/", views.RegisterView.as_view(), name="register"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/vacation/", views.VacationView.as_view(), name="me-vacation"),
    path("me/following/", views.FollowingView.as_view(), name="me-following"),
    path("users/<int:pk>/", views.UserDetailView.as_view(), name="user-detail"),
]
