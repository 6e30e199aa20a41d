"""A recorder for the games hooks, named in the settings by a test the way a tournament app
would name its own (``tests.support.hooks.started`` …): each call is noted in ``CALLS``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.errors import ServiceError
from games.models import Match, Seat

CALLS: list[tuple[Any, ...]] = []


def started(match: Match, seats: list[Seat]) -> None:
    CALLS.append(("started", match.pk, len(seats)))


def forfeited(match: Match, seats: list[Seat], seat: Seat, *, reason: str, now: datetime) -> None:
    CALLS.append(("forfeited", match.pk, seat.position, reason))


def ended(match: Match, seats: list[Seat]) -> None:
    CALLS.append(("ended", match.pk, match.status))


def closed_for_a_tournament(player: Any) -> None:
    """A join check that refuses every seat."""
    raise ServiceError("The tables are closed for the tournament.", code="closed")
