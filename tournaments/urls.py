"""The tournament pages, at ``tournaments/`` (config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/<str:game>/", views.tournament_new, name="tournament_new"),
    path("<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("<int:tournament_id>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("<int:tournament_id>/join/", views.tournament_join, name="tournament_join"),
    path("<int:tournament_id>/leave/", views.tournament_leave, name="tournament_leave"),
    path("<int:tournament_id>/pause/", views.tournament_pause, name="tournament_pause"),
    path("<int:tournament_id>/resume/", views.tournament_resume, name="tournament_resume"),
]
