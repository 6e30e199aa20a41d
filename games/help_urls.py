"""The help pages: /help/ and /help/<slug>/ (included from config/urls.py at "help/")."""

from django.urls import path

from . import help as help_views

urlpatterns = [
    path("", help_views.help_index, name="help_index"),
    path("<slug:slug>/", help_views.help_page, name="help_page"),
]
