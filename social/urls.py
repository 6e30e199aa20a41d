from django.urls import path

from . import views

urlpatterns = [
    path("friends/block/", views.block, name="block"),
    path("friends/blocks/<int:player_id>/remove/", views.unblock, name="unblock"),
]
