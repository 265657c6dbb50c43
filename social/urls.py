from django.urls import path

from social import views

app_name = "social"

urlpatterns = [
    path("users/<int:pk>/follow/", views.FollowView.as_view(), name="follow"),
    path("users/<int:pk>/block/", views.BlockView.as_view(), name="block"),
    path("me/blocked/", views.BlockedView.as_view(), name="blocked"),
]
