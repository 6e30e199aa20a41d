"""Reads of played matches: the history lists, a match's record (its export) and its replay.

Who may see a match is who may see its table (``games.access``: ``may_see`` for one,
``visible_to`` for a list). Nothing here reads a running match's seed or hidden
cards: the record, the replay and the scores by hand exist only once a match is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import Player

from . import access, replay
from .models import Match, MatchEvent, Seat, Table
from .rules import RulesError
from .rules.cards import deal_algorithm

OVER = (Match.Status.FINISHED, Match.Status.ABORTED)
RESULTS = ("won", "lost", "aborted")
MAX_SEATS = 4


def is_over(match: Match) -> bool:
    return match.status in OVER


def may_see_match(player: Player | None, match: Match) -> bool:
    """A match is shown to whoever may see its table, friends-only tables included."""
    return access.may_see(player, match.table)


def match_events(match: Match) -> list[replay.Event]:
    rows = MatchEvent.objects.filter(match=match).order_by("version")
    return [
        replay.Event(row.version, row.seat, row.kind, row.action)
        for row in rows.only("version", "seat", "kind", "action")
    ]


def match_seats(match: Match) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=match.table_id).select_related("player").order_by("position")
    )


def match_steps(match: Match, events: list[replay.Event]) -> list[replay.Step]:
    """Every state of an ended match, rebuilt from its seed and ``events``."""
    assert is_over(match), "a running match is never replayed for a page"
    return list(replay.replay(match.game, match.options, match.seed, events))


def match_record(
    match: Match, seats: list[Seat], events: list[replay.Event], steps: list[replay.Step]
) -> dict[str, Any]:
    """The export of an ended match (docs/match-export.md): enough to check it offline.

    ``deals`` are those of ``steps``, the replay of ``events``."""
    assert is_over(match), "a running match's seed is secret"
    table = match.table
    return {
        "format": replay.EXPORT_FORMAT,
        "format_version": replay.EXPORT_VERSION,
        "match": match.pk,
        "table": table.pk,
        "game": match.game,
        "options": match.options,
        "stake": table.stake,
        "rated": table.is_rated(seats),
        "visibility": table.visibility,
        "status": match.status,
        "started_at": match.started_at.isoformat(),
        "ended_at": None if match.ended_at is None else match.ended_at.isoformat(),
        "players": [
            {
                "seat": seat.position,
                "name": seat.player.name,
                "guest": seat.player.is_guest,
                "bot": seat.is_bot,
                "forfeited": seat.forfeited,
            }
            for seat in seats
        ],
        "seed": match.seed,
        "seed_hash": match.seed_hash,
        "deal_algorithm": deal_algorithm(match.seed),
        "entropy": match.entropy,
        "deals": [
            {"hand": step.state.hand_number, "cards": replay.deal_cards(step.state)}
            for step in replay.hand_starts(steps)
        ],
        "events": [event.public() for event in events],
        "result": match.result,
    }


def verify_stored(match: Match) -> tuple[dict[str, Any], list[str]]:
    """An ended match's record built from its rows as they are, and what does not hold in it
    (``replay.verify`` against the stored state too), so a tampered row shows up. A log that
    does not replay leaves ``deals`` empty, and verify says where the replay stopped."""
    events = match_events(match)
    try:
        steps = match_steps(match, events)
    except (replay.ReplayError, RulesError):
        steps = []
    record = match_record(match, match_seats(match), events, steps)
    return record, replay.verify(record, match.state)


# --- Scores by hand ------------------------------------------------------------------------------


def hand_summaries(steps: list[replay.Step]) -> list[dict[str, Any]]:
    """Each finished hand's public summary (the views' ``previous_hand``), in order."""
    summaries: list[dict[str, Any]] = []
    # A hand's summary appears when the next one is dealt, or in the final state.
    for step in [*replay.hand_starts(steps), steps[-1]]:
        summary = step.state.view(None).get("previous_hand")
        if summary and (not summaries or summaries[-1] != summary):
            summaries.append(summary)
    return summaries


def hand_rows(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scores-by-hand table of a two-seat game: per hand its trump and (tricks, points)."""
    return [
        {
            "number": summary.get("hand_number"),
            "trump": summary.get("trump"),
            "contract": summary.get("contract"),
            "cells": list(zip(summary["tricks"], summary["points"], strict=True)),
        }
        for summary in summaries
    ]


def sheet_pulkas(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Classic Joker's score sheet (CJ-25) grouped by pulka, each cell with its mark."""
    pulkas = []
    for pulka in sheet["pulkas"]:
        rows = [
            {
                "deal": row["deal"],
                "cards": row["cards"],
                "cells": [
                    {"bid": bid, "taken": taken, "points": points, "mark": mark}
                    for bid, taken, points, mark in zip(
                        row["bids"], row["taken"], row["points"], row["marks"], strict=True
                    )
                ],
            }
            for row in sheet["rows"]
            if row["pulka"] == pulka["pulka"]
        ]
        pulkas.append(
            {
                "pulka": pulka["pulka"],
                "number": pulka["pulka"] + 1,
                "complete": pulka["complete"],
                "rows": rows,
                "totals": [
                    {"total": total, "premia": seat in pulka["premia"]}
                    for seat, total in enumerate(pulka["totals"])
                ],
            }
        )
    return pulkas


# --- The lists ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchFilter:
    game: str | None = None
    player: Player | None = None
    result: str | None = None  # "won", "lost" or "aborted", of ``player`` when one is given


def visible_matches(viewer: Player | None, chosen: MatchFilter) -> QuerySet[Match]:
    """Ended matches the viewer may see, newest first, narrowed by ``chosen``."""
    matches = Match.objects.filter(
        status__in=OVER, table__in=Table.objects.filter(access.visible_to(viewer))
    )
    if chosen.game:
        matches = matches.filter(game=chosen.game)
    if chosen.player is not None:
        seats = Seat.objects.filter(player=chosen.player)
        if chosen.result == "won":
            seats = seats.filter(_won())
        elif chosen.result == "lost":
            # Not ``exclude(_won())``: SQL's NULL for a missing index would exclude every row.
            won = seats.filter(_won()).values("pk")
            seats = seats.filter(table__match__status=Match.Status.FINISHED).exclude(pk__in=won)
        matches = matches.filter(table_id__in=seats.values("table_id"))
    if chosen.result == "aborted":
        matches = matches.filter(status=Match.Status.ABORTED)
    return matches.select_related("table").order_by("-ended_at", "-pk")


def _won() -> Q:
    """The seat is among its match's winners: ``result["winners"]`` holds its position.

    Spelled as index lookups, which SQLite and PostgreSQL both run (JSON containment is
    PostgreSQL's only)."""
    return reduce(
        or_,
        (
            Q(position=seat, **{f"table__match__result__winners__{index}": seat})
            for seat in range(MAX_SEATS)
            for index in range(MAX_SEATS)
        ),
    )


def seats_by_table(matches: list[Match]) -> dict[int, list[Seat]]:
    """The seats of a page of matches, in one query."""
    seats: dict[int, list[Seat]] = {}
    rows = Seat.objects.filter(table_id__in=[m.table_id for m in matches]).select_related("player")
    for seat in rows.order_by("table_id", "position"):
        seats.setdefault(seat.table_id, []).append(seat)
    return seats
