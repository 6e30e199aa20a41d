from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.catalog import GAME_TITLES


@require_GET
def ladder(request: HttpRequest) -> HttpResponse:
    return render(request, "ladder/ladder.html", {"games": GAME_TITLES.items()})
