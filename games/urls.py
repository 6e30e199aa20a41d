from django.urls import path

from . import views, views_matches

urlpatterns = [
    path("tables/new/<str:game>/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="table_join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("tables/<int:table_id>/cancel/", views.table_cancel, name="table_cancel"),
    path("tables/<int:table_id>/invite/", views.table_invite, name="table_invite"),
    path("matches/", views_matches.match_list, name="match_list"),
    path("matches/<int:match_id>/", views_matches.match_page, name="match"),
    path("matches/<int:match_id>/replay/", views_matches.match_replay, name="match_replay"),
    path("matches/<int:match_id>/export/", views_matches.match_export, name="match_export"),
    path("matches/<int:match_id>/review/", views_matches.match_review, name="match_review"),
    path("fairness/", views_matches.fairness_page, name="fairness"),
    path("practice/<str:game>/", views.practice_start, name="practice_start"),
    path("tables/<int:table_id>/computer/", views.computer_add, name="computer_add"),
    path("tables/<int:table_id>/computer/remove/", views.computer_remove, name="computer_remove"),
]
