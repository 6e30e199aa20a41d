"""What the table socket says, built in one place (docs/protocol.md § Server → client).

Every frame that names a card is built for one audience, a seat or the spectators, from the
engine's ``view(seat)``; the rest (presence, the end, the rematch offer) names no card and is the
same for everyone at the table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from .models import Match, Seat, Table
from .services.clock import Limits, SeatClock, bank_left_ms, speed_limits


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def seats_public(seats: list[Seat], limits: Limits, now: datetime) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.position,
            "name": seat.player.name,
            "connected": seat.connected,
            # Kept from before banks: when an absent seat forfeits.
            "absence_deadline": None if seat.connected else iso(seat.bank_deadline),
            "bank_deadline": iso(seat.bank_deadline),
            "bank_ms": bank_left_ms(
                SeatClock(
                    connected=seat.connected,
                    computer=seat.is_bot,
                    bank_deadline=seat.bank_deadline,
                    bank_used_ms=seat.bank_used_ms,
                ),
                now,
                limits,
            ),
            "forfeited": seat.forfeited,
            "bot": seat.is_bot,
            "bot_strength": seat.bot_strength or None,
            "timeouts": seat.timeouts_in_row,
        }
        for seat in seats
    ]


def clocks(speed: str, match: Match | None, state: Any, now: datetime) -> dict[str, Any]:
    playing = match is not None and match.status == Match.Status.PLAYING
    limits = speed_limits(speed)
    return {
        "server_time": now.isoformat(),
        "speed": speed,
        "turn_seat": state.to_act if playing else None,
        "turn_deadline": iso(match.turn_deadline) if match is not None and playing else None,
        "turn_on_bank": bool(match is not None and playing and match.turn_on_bank),
        "turn_seconds": limits.turn_seconds,
        "bank_seconds": limits.bank_seconds,
        "grace_seconds": limits.bank_seconds,  # the bank's name before speeds
        # A seat whose `timeouts` reach this forfeits (abandoned): the page warns one before.
        "timeouts_to_forfeit": settings.LIVE_TIMEOUTS_TO_ABANDON,
    }


def result_public(match: Match, seats: list[Seat]) -> dict[str, Any] | None:
    if match.status == Match.Status.PLAYING or match.result is None:
        return None
    names = {seat.position: seat.player.name for seat in seats}
    return {
        **match.result,
        "winner_names": [names[seat] for seat in match.result.get("winners", [])],
        # Provably fair: the seed is revealed once the match is over (docs/rules/README.md § 0.4).
        "seed": match.seed,
        "seed_hash": match.seed_hash,
    }


def rematch_public(match: Match, seats: list[Seat], new_table_id: int | None) -> dict[str, Any]:
    return {
        "accepted": [seat.position for seat in seats if seat.wants_rematch],
        "needed": [seat.position for seat in seats if not seat.is_bot],
        "table": new_table_id,
        "url": None if new_table_id is None else f"/tables/{new_table_id}/",
    }


def state_frame(
    table: Table,
    match: Match | None,
    state: Any,
    seats: list[Seat],
    seat: int | None,
    now: datetime,
    *,
    rematch_table_id: int | None = None,
) -> dict[str, Any]:
    """The ``state`` message for one audience: a seat, or the spectators (``seat`` None)."""
    if match is None:
        return {
            "type": "state",
            "table": table.pk,
            "match": None,
            "game": table.game,
            "status": "open" if table.status == Table.Status.OPEN else table.status,
            "stake": table.stake,
            "version": 0,
            "presence_version": 0,
            "seat": seat,
            "view": None,
            "seats": seats_public(seats, speed_limits(table.speed), now),
            "clocks": clocks(table.speed, None, None, now),
            "result": None,
            "rematch": None,
            "seed_hash": None,
        }
    view = state.view(seat)  # the engine decides what this audience may see
    if seat is not None and any(s.position == seat and s.forfeited for s in seats):
        view["legal"] = []  # a computer plays this seat now; its old player only watches
    over = match.status != Match.Status.PLAYING
    return {
        "type": "state",
        "table": table.pk,
        "match": match.pk,
        "game": match.game,
        "status": match.status,
        "stake": table.stake,
        "version": match.version,
        "presence_version": match.presence_version,
        "seat": seat,
        "view": view,
        "seats": seats_public(seats, speed_limits(match.speed), now),
        "clocks": clocks(match.speed, match, state, now),
        "result": result_public(match, seats),
        "rematch": rematch_public(match, seats, rematch_table_id) if over else None,
        # Provably fair: the commitment to the seed, from the first frame (the seed comes at
        # the end, in ``result``).
        "seed_hash": match.seed_hash,
    }


def presence_frame(match: Match, state: Any, seats: list[Seat], now: datetime) -> dict[str, Any]:
    return {
        "type": "presence",
        "version": match.version,
        "presence_version": match.presence_version,
        "seats": seats_public(seats, speed_limits(match.speed), now),
        "clocks": clocks(match.speed, match, state, now),
    }


def match_over_frame(match: Match, seats: list[Seat]) -> dict[str, Any]:
    return {"type": "match_over", "version": match.version, "result": result_public(match, seats)}
