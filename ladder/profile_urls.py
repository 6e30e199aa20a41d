"""A player's profile, served by the ladder at ``players/`` (it shows ratings and history)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<str:name>/", views.profile, name="profile"),
]
