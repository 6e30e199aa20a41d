from django.urls import path

from . import views

urlpatterns = [
    path("", views.ladder, name="ladder"),
    path("matches/<int:match_id>/ratings/", views.match_ratings, name="ladder_match_ratings"),
    path("<str:game>/", views.leaderboard, name="leaderboard"),
    path("<str:game>/season/<int:number>/", views.season, name="ladder_season"),
]
