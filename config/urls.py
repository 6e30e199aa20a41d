from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from core import pwa
from games import views as game_views

urlpatterns = [
    path("", game_views.lobby_page, name="home"),
    path("admin/", admin.site.urls),
    # The installable app (core/pwa.py): at the root, where browsers look for them.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("social.urls")),
    path("", include("games.urls")),
    path("help/", include("games.help_urls")),
    path("ladder/", include("ladder.urls")),
    path("players/", include("ladder.profile_urls")),
    path("tournaments/", include("tournaments.urls")),
]
