"""The hooks of ``games``: what the apps built on it (social, the ladder, a tournament app) add
to seats, matches, presence, pages and the table socket, each named in a setting by dotted path
so that games imports none of them (``core.hooks``; CONTRIBUTING.md § Hooks).

Each function below runs one hook and says when it fires and which lock is held then
(docs/concurrency.md). A hook that runs inside a transaction is part of it: what it writes
commits or rolls back with the change, and an exception it raises undoes the change.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import Player
from core.hooks import hooks, run

from .models import Match, Seat, Table

# --- Seats and who meets whom ---------------------------------------------------------------------


def join_checks(player: Player) -> None:
    """``GAMES_JOIN_CHECKS``, each ``check(player)``: on every way to a seat (opening a table,
    joining one, accepting a rematch), whether the player may sit now; a check refuses with a
    ``ServiceError`` (social: a quitter's cool-down). Inside the seat's transaction: under the
    table lock for a join, the match lock for a rematch, before the new table exists for a
    table being opened."""
    run("GAMES_JOIN_CHECKS", player)


def rematch_checks(table: Table) -> None:
    """``GAMES_REMATCH_CHECKS``, each ``check(table)``: whether the players of the table's
    finished match may play again at a table of their own; a check refuses with a
    ``ServiceError`` (tournaments: an event's table, whose players the event seats itself).
    Under the match lock, on every acceptance."""
    run("GAMES_REMATCH_CHECKS", table)


def players_avoiding(player: Player) -> list[QuerySet[Any, Any]]:
    """``GAMES_PLAYERS_AVOIDING``, each ``avoiding(player)``: the ids of the players who keep
    ``player`` away (social: who blocked them), as a query ``games.access`` nests in its own (a
    flat ``values_list``). A table made by, or seating, one of them is hidden from ``player``."""
    return [avoiding(player) for avoiding in hooks("GAMES_PLAYERS_AVOIDING")]


def players_avoided(player_ids: set[int]) -> set[int]:
    """``GAMES_PLAYERS_AVOIDED``, each ``avoided(player_ids)``: the ids of the players any of
    these keep away, the same relation read the other way (for whom a table's lobby events are
    not meant)."""
    return {found for avoided in hooks("GAMES_PLAYERS_AVOIDED") for found in avoided(player_ids)}


def players_apart(player_ids: set[int]) -> dict[int, set[int]]:
    """``GAMES_PLAYERS_APART``, each ``apart(player_ids)``: for quick play's pairing, which of
    these players must not be seated with which (both ways; social: a block), in one query for
    a whole pool. Players it does not name may meet anyone."""
    apart: dict[int, set[int]] = {}
    for hook in hooks("GAMES_PLAYERS_APART"):
        for player_id, others in hook(player_ids).items():
            apart.setdefault(player_id, set()).update(others)
    return apart


def player_ratings(game: str, player_ids: set[int]) -> dict[int, float]:
    """``GAMES_PLAYER_RATINGS``, each ``ratings(game, player_ids)``: the players' ratings in
    ``game`` for quick play's pairing (the ladder: the displayed rating, a newcomer's for one
    who has none). The last hook's word counts; with none, everyone is equal (0)."""
    ratings = dict.fromkeys(player_ids, 0.0)
    for hook in hooks("GAMES_PLAYER_RATINGS"):
        ratings.update(hook(game, player_ids))
    return ratings


# --- A match's life -------------------------------------------------------------------------------


def match_started(match: Match, seats: list[Seat]) -> None:
    """``GAMES_MATCH_STARTED``, each ``started(match, seats)``: once per match, in the start's
    transaction (the table's row locked, or made in it; the new match row seen by nobody else
    yet), once the clocks are armed and the first state is queued to go out after commit."""
    run("GAMES_MATCH_STARTED", match, seats)


def seat_forfeited(
    match: Match, seats: list[Seat], seat: Seat, *, reason: str, now: datetime
) -> None:
    """``GAMES_SEAT_FORFEITED``, each ``forfeited(match, seats, seat, reason=…, now=…)``: once
    per forfeit (``reason``: ``left``, ``abandoned``, ``absent`` or ``banned``), under the match
    lock, with ``seat`` already marked forfeited and before the match records the forfeit or is
    aborted by it (social: the forfeit row and the cool-down it may start)."""
    run("GAMES_SEAT_FORFEITED", match, seats, seat, reason=reason, now=now)


def match_ended(match: Match, seats: list[Seat]) -> None:
    """``GAMES_MATCH_ENDED``, each ``ended(match, seats)``: once per match, when it stops being
    played, under the match lock, its result written and its table freed. ``match.status`` says
    how: ``finished`` (played out, or decided by a forfeit) or ``aborted`` (a forfeit before
    every seat had moved, or an admin's cancel). The tasks of ``MATCH_FINISHED_TASKS`` are
    enqueued too, by name, after the commit of a finished match only."""
    run("GAMES_MATCH_ENDED", match, seats)


# --- Presence -------------------------------------------------------------------------------------


def socket_opened(*, table_id: int, player: Player | None) -> None:
    """``GAMES_SOCKET_OPENED``, each ``opened(table_id=…, player=…)``: a table socket registers
    (under the match lock once the table has a match; ``player`` None for an anonymous
    visitor). Social: an absence from now on is the player's own."""
    run("GAMES_SOCKET_OPENED", table_id=table_id, player=player)


def sockets_lost(lost: AbstractSet[tuple[int, int | None]], *, now: datetime) -> None:
    """``GAMES_SOCKETS_LOST``, each ``lost(pairs, now=…)``: the ``(table_id, player_id)`` of the
    sockets a server took with it, the sweep having claimed it dead, or a server stopping
    cleanly; no lock held. Social: those absences are the server's, not the players'."""
    run("GAMES_SOCKETS_LOST", lost, now=now)


# --- Pages and the lobby --------------------------------------------------------------------------


def low_completion(player_ids: Iterable[int]) -> set[int]:
    """``GAMES_LOW_COMPLETION``, each ``flagged(player_ids)``: which of these players the lobby
    and the table page badge for leaving many matches (social: reputation); one call for a
    whole lobby page."""
    ids = set(player_ids)
    return {found for flagged in hooks("GAMES_LOW_COMPLETION") for found in flagged(ids)}


def lobby_page_context(player: Player | None) -> dict[str, Any]:
    """``GAMES_LOBBY_PAGE_CONTEXT``, each ``context(player)``: what the lobby page adds to its
    template's context (social: ``cooldown_notice``)."""
    merged: dict[str, Any] = {}
    for context in hooks("GAMES_LOBBY_PAGE_CONTEXT"):
        merged.update(context(player))
    return merged


def table_page_context(player: Player | None, table: Table, seats: list[Seat]) -> dict[str, Any]:
    """``GAMES_TABLE_PAGE_CONTEXT``, each ``context(player, table, seats)``: what the table page
    adds to its template's context (social: the chat panel, blocks, badges, who may be
    reported)."""
    merged: dict[str, Any] = {}
    for context in hooks("GAMES_TABLE_PAGE_CONTEXT"):
        merged.update(context(player, table, seats))
    return merged


def match_page_panels(request: HttpRequest, match: Match, seats: list[Seat]) -> list[str]:
    """``MATCH_PAGE_PANELS``, each ``panel(request, match, seats)``: HTML for a finished match's
    page (the ladder's rating changes, the chat log)."""
    return [panel(request, match, seats) for panel in hooks("MATCH_PAGE_PANELS")]


# --- The table socket -----------------------------------------------------------------------------


class TableSocket(Protocol):
    """What a handler of ``GAMES_TABLE_SOCKET_HANDLERS`` may use of the socket it serves."""

    table_id: int
    player: Player | None
    player_id: int | None
    seat: int | None  # the socket's seat now; None while it watches

    async def send_frame(self, frame: dict[str, Any]) -> None:
        """Send one frame to this socket's client."""

    async def require_session(self) -> None:
        """Refuse (``ServiceError`` ``session``, then close with 4003) once the socket's session
        has ended; a guest's or a visitor's socket always passes."""


MessageHandler = Callable[[TableSocket, dict[str, Any]], Awaitable[None]]
SocketStep = Callable[[TableSocket], Awaitable[None]]


@dataclass(frozen=True, eq=False)
class TableSocketHandlers:
    """What one app serves on the table socket; ``GAMES_TABLE_SOCKET_HANDLERS`` names instances.

    ``messages`` maps a client message type to ``handler(socket, content)``, which decodes
    ``content`` before anything else (raising ``games.messages.BadMessage``: answered
    ``bad_message`` and counted), then may raise ``ServiceError`` (answered ``error`` with its
    code; an ``OperationalError`` is answered ``busy``). ``events`` maps a channel-layer message
    type the app publishes to the table's groups (``games.realtime``) to
    ``handler(socket, event)``. ``opened`` runs after the socket's first ``state``,
    ``match_over`` after it forwarded ``match_over``. All run on the socket's event loop, their
    database work in the pool (``core.pool.run_db``).
    """

    messages: Mapping[str, MessageHandler] = field(default_factory=dict)
    events: Mapping[str, MessageHandler] = field(default_factory=dict)
    opened: SocketStep | None = None
    match_over: SocketStep | None = None


def table_socket_handlers() -> tuple[TableSocketHandlers, ...]:
    """``GAMES_TABLE_SOCKET_HANDLERS``, in their order."""
    return hooks("GAMES_TABLE_SOCKET_HANDLERS")


def table_socket_messages() -> Mapping[str, MessageHandler]:
    """The client message types other apps serve, each with its handler."""
    return _served(table_socket_handlers())[0]


def table_socket_events() -> Mapping[str, MessageHandler]:
    """The channel-layer message types other apps send the table sockets, with their handlers."""
    return _served(table_socket_handlers())[1]


@cache
def _served(
    handlers: tuple[TableSocketHandlers, ...],
) -> tuple[dict[str, MessageHandler], dict[str, MessageHandler]]:
    """Merged once per list: every message and event of the table socket looks here."""
    messages: dict[str, MessageHandler] = {}
    events: dict[str, MessageHandler] = {}
    for handler in handlers:
        messages.update(handler.messages)
        events.update(handler.events)
    return messages, events
