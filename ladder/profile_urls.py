"""A player's profile, served by the ladder at ``players/`` (it shows ratings and history)."""

from django.urls import path

from . import views

urlpatterns = [
    # Any stored name, "/" included: names made before the name rule must keep a profile.
    path("<path:name>/", views.profile, name="profile"),
]
