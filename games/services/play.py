"""Live play: one move is one service call (DESIGN.md § Matches)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from ..models import Match
from ..rules import get_game


def match_started(match: Match) -> None:
    """Arm the turn clock for the first seat to act (README § 0.6)."""
    state = get_game(match.game).from_dict(match.state)
    if state.to_act is not None:
        match.turn_deadline = timezone.now() + timedelta(seconds=settings.TURN_SECONDS)
        match.save(update_fields=["turn_deadline"])
