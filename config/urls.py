from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", game_views.lobby_page, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("ladder/", include("ladder.urls")),
]
