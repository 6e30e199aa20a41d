"""The database side of the load bench (run in one thread: Django's ORM is synchronous): the
players and their sessions, the tables, ``ANALYZE``, the leftovers of a run, the coin audit and
the hidden-card scan. Django is imported inside each function, once it has been set up."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bench.load.server import SERVER_APP_NAME

GAME = "japanese_joker"


@dataclass
class Identity:
    player_id: int
    cookie: str


def _session_rows(datas: list[dict[str, Any]]) -> list[str]:
    """Session rows written directly, as the login or guest view would leave them."""
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expire = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    keys = [get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789") for _ in datas]
    Session.objects.bulk_create(
        [
            Session(session_key=key, session_data=store.encode(data), expire_date=expire)
            for key, data in zip(keys, datas, strict=True)
        ],
        batch_size=1000,
    )
    return [f"{settings.SESSION_COOKIE_NAME}={key}" for key in keys]


def make_guests(count: int, tag: str) -> list[Identity]:
    """Guests with a session each (what "Play as guest" makes)."""
    from accounts.models import Player
    from accounts.services import SESSION_GUEST_KEY

    players = Player.objects.bulk_create(
        [Player(name=f"Guest-{tag}{index:05d}") for index in range(count)], batch_size=1000
    )
    cookies = _session_rows([{SESSION_GUEST_KEY: player.pk} for player in players])
    return [Identity(p.pk, c) for p, c in zip(players, cookies, strict=True)]


def make_users(count: int, tag: str) -> list[Identity]:
    """Registered players with their wallet (the sign-up grant) and a logged-in session each."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password

    from accounts.models import Player
    from accounts.services import wallet_open

    user_model = get_user_model()
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        [
            user_model(
                username=f"b{tag}{index:04d}",
                email=f"b{tag}{index:04d}@bench.invalid",
                password=unusable,
            )
            for index in range(count)
        ]
    )
    players = Player.objects.bulk_create([Player(user=u, name=u.username) for u in users])
    for player in players:
        wallet_open(player=player)
    cookies = _session_rows(
        [
            {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            for user in users
        ]
    )
    return [Identity(p.pk, c) for p, c in zip(players, cookies, strict=True)]


def start_tables(
    pairs: list[tuple[Identity, Identity]], *, stake: int, speed: str = "normal"
) -> list[int]:
    """Open a table per pair with both seated and start each match (the table service's start:
    the deal, the stakes, the clocks), all in one transaction."""
    from django.db import transaction

    from games.models import Seat, Table
    from games.rules import get_game
    from games.services.tables import table_start

    options = get_game(GAME).parse_options({})
    with transaction.atomic():
        tables = Table.objects.bulk_create(
            [
                Table(
                    game=GAME,
                    options=options,
                    stake=stake,
                    creator_id=first.player_id,
                    seats_total=2,
                    visibility=Table.Visibility.PUBLIC,
                    rated=False,
                    speed=speed,
                )
                for first, _second in pairs
            ]
        )
        Seat.objects.bulk_create(
            [
                Seat(table=table, player_id=who.player_id, position=position)
                for table, pair in zip(tables, pairs, strict=True)
                for position, who in enumerate(pair)
            ]
        )
        for table in tables:
            if table_start(table) is None:
                raise RuntimeError(f"table {table.pk} could not start its match")
    return [table.pk for table in tables]


def waiting_tables(creators: list[Identity]) -> list[int]:
    """An open table for each creator, seated alone: a waiting room nobody joins."""
    from games.models import Seat, Table
    from games.rules import get_game

    options = get_game(GAME).parse_options({})
    tables = Table.objects.bulk_create(
        [
            Table(
                game=GAME,
                options=options,
                creator_id=who.player_id,
                seats_total=2,
                visibility=Table.Visibility.PUBLIC,
                rated=False,
            )
            for who in creators
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, player_id=who.player_id, position=0)
            for table, who in zip(tables, creators, strict=True)
        ]
    )
    return [table.pk for table in tables]


def cancel_waiting_rooms(table_ids: list[int] | None = None) -> int:
    """Open tables cancelled by their creators, as the waiting room's Cancel button does: those
    of ``table_ids``, or every open table (what an interrupted run left). A full first page of
    open tables makes every lobby snapshot several times dearer, so one phase's waiting rooms
    must not stay open into the next phases, or into the next run."""
    from games.models import Table
    from games.services.tables import table_cancel

    rooms = Table.objects.filter(status=Table.Status.OPEN).select_related("creator")
    if table_ids is not None:
        rooms = rooms.filter(pk__in=table_ids)
    cancelled = 0
    for table in rooms:
        table_cancel(player=table.creator, table_id=table.pk)
        cancelled += 1
    return cancelled


def analyze() -> None:
    """What autovacuum would do on a production server after the bench's bulk inserts: fresh
    planner statistics. (This machine's PostgreSQL runs with autovacuum off; without them the
    planner guesses from table sizes alone, and the bench measured its guesses.)"""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def database_backends() -> list[int]:
    """The PostgreSQL backends serving the site's processes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = %s",
            [SERVER_APP_NAME],
        )
        return [row[0] for row in cursor.fetchall()]


def connections_per_server(table_ids: list[int]) -> dict[str, int]:
    from django.db.models import Count

    from games.models import TableConnection

    rows = (
        TableConnection.objects.filter(table_id__in=table_ids)
        .values("server__name")
        .annotate(n=Count("pk"))
    )
    return {row["server__name"]: row["n"] for row in rows}


def first_new_table() -> int:
    """Every table this run opens (rematches included) has an id from this one on."""
    from django.db.models import Max

    from games.models import Table

    return (Table.objects.aggregate(last=Max("pk"))["last"] or 0) + 1


def end_leftovers(first_table: int = 0) -> dict[str, int]:
    """Every match still playing (at tables from ``first_table`` on) ended through the match
    service: cancelled, stakes refunded. Before the run it ends what an interrupted run left;
    after it, what no client ended (a rematch opened as the run stopped). Returns how the
    run's matches ended."""
    from games.models import Match
    from games.services.matches import match_cancel

    matches = Match.objects.filter(table_id__gte=first_table)
    playing = list(matches.filter(status=Match.Status.PLAYING).values_list("pk", flat=True))
    cancelled = sum(match_cancel(match_id=pk, reason="load bench ended") for pk in playing)
    ended = Counter(matches.values_list("status", flat=True))
    return {"cancelled_by_bench": cancelled, **dict(ended)}


def audit_coins() -> dict[str, Any]:
    """``manage.py audit_coins``, as an operator runs it."""
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out, err = StringIO(), StringIO()
    try:
        call_command("audit_coins", stdout=out, stderr=err)
        ok = True
    except CommandError as error:
        err.write(str(error))
        ok = False
    return {"ok": ok, "output": out.getvalue().strip(), "errors": err.getvalue().strip()}


def hidden_card_scan(frames: dict[int, list[tuple[int, int | None, frozenset[str]]]]) -> dict:
    """Replay every match from its seed and events; no frame may hold a card its seat could not
    see at that version (each engine's ``hidden_cards``)."""
    from games.models import Match, MatchEvent
    from games.rules import get_game

    leaks: list[str] = []
    scanned = 0
    matches = Match.objects.filter(pk__in=list(frames)).only("pk", "game", "options", "seed")
    events: dict[int, list[Any]] = {}
    for event in MatchEvent.objects.filter(match_id__in=list(frames)).order_by("match", "version"):
        events.setdefault(event.match_id, []).append(event)
    for match in matches:
        state = get_game(match.game).new_match(match.options, match.seed)
        states = {0: state}
        for event in events.get(match.pk, []):
            if event.kind in ("act", "timeout", "bot"):
                state = state.apply(event.action)
            elif event.kind == "forfeit":
                state = state.forfeit(event.seat)
            states[event.version] = state  # a cancel changes no card
        for version, seat, codes in frames[match.pk]:
            scanned += 1
            at = states.get(version)
            if at is None:
                leaks.append(f"match {match.pk} v{version}: no such version")
                continue
            leaked = codes & at.hidden_cards(seat)
            if leaked:
                leaks.append(f"match {match.pk} v{version} seat {seat}: {sorted(leaked)}")
    return {
        "frames_scanned": scanned,
        "matches": len(frames),
        "leaks": leaks[:20],
        "leak_count": len(leaks),
    }
