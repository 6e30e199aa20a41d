from django.urls import path

from . import views

urlpatterns = [
    path("tables/new/<str:game>/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="table_join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("tables/<int:table_id>/cancel/", views.table_cancel, name="table_cancel"),
    path("tables/<int:table_id>/invite/", views.table_invite, name="table_invite"),
    path("practice/<str:game>/", views.practice_start, name="practice_start"),
    path("tables/<int:table_id>/computer/", views.computer_add, name="computer_add"),
    path("tables/<int:table_id>/computer/remove/", views.computer_remove, name="computer_remove"),
]
