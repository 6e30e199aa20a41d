from typing import Any

from django.http import HttpRequest


def current_player(request: HttpRequest) -> dict[str, Any]:
    player = getattr(request, "player", None)
    # A SimpleLazyObject around None is truthy; unwrap so templates can test {% if player %}.
    return {"player": player if player else None}
