"""A move through the service, measured in statements and in what it publishes after commit."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.errors import ServiceError
from games import realtime
from games.models import Match, Seat
from games.services import matches, moves
from tests.support.live import published, start_table

pytestmark = [pytest.mark.django_db]


def _ready(table, *, watched: bool):
    """Both players at the table, and someone watching or not: no presence change on the move."""
    Seat.objects.filter(table=table).update(connected=True, bank_deadline=None)
    Match.objects.filter(table=table).update(watched=watched)
    match = Match.objects.get(table=table)
    state = matches.engine_state(match)
    mover = Seat.objects.get(table=table, position=state.to_act).player
    return match, state, mover


def _session_of(player) -> str:
    client = Client()
    client.force_login(player.user)
    return client.session.session_key


def _play_first_legal(table, action_id: str, *, logged_in: bool = False) -> None:
    """The seat to act plays its first legal action at the match's current version (with a
    session of its own when ``logged_in``)."""
    match = Match.objects.get(table=table)
    state = matches.engine_state(match)
    player = Seat.objects.get(table=table, position=state.to_act).player
    moves.match_act(
        table_id=table.pk,
        player=player,
        version=match.version,
        action=state.legal_actions()[0],
        client_action_id=action_id,
        session_key=_session_of(player) if logged_in else None,
    )


def test_a_move_is_two_statements_and_publishes_one_frame_per_seat(
    alice, bob, django_capture_on_commit_callbacks
):
    table = start_table("japanese_joker", [alice, bob])
    _, state, mover = _ready(table, watched=False)
    session_key = _session_of(mover)
    with (
        django_capture_on_commit_callbacks() as callbacks,
        CaptureQueriesContext(connection) as queries,
    ):
        outcome = moves.match_act(
            table_id=table.pk,
            player=mover,
            version=0,
            action=state.legal_actions()[0],
            client_action_id="m1",
            session_key=session_key,
        )
    assert outcome.version == 1 and not outcome.duplicate
    # The match lock with the seats and the session, then the event with the match: one
    # statement on PostgreSQL, two elsewhere (the test's own outer transaction turns BEGIN and
    # COMMIT into savepoints, which a real move does not make).
    sent = [
        query["sql"]
        for query in queries.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    writes = ["WITH"] if connection.vendor == "postgresql" else ["INSERT", "UPDATE"]
    assert [sql.split()[0] for sql in sent] == ["SELECT", *writes], queries.captured_queries
    assert "INSERT INTO" in sent[1] and "UPDATE" in sent[-1] and "matchevent" in sent[1]
    assert "FOR UPDATE" in queries.captured_queries[1]["sql"] or connection.vendor == "sqlite"
    assert "django_session" in queries.captured_queries[1]["sql"]
    messages = published(callbacks)
    groups = [group for group, _ in messages]
    assert groups == [
        realtime.table_player_group(table.pk, alice.pk),
        realtime.table_player_group(table.pk, bob.pk),
    ]  # nobody watches: no spectators' frame is built
    for group, message in messages:
        frame = json.loads(message["text"])
        assert message["kind"] == "state" and message["seat"] == frame["seat"]
        assert frame["version"] == message["version"] == 1
        seat = 0 if group.endswith(f".{alice.pk}") else 1
        assert frame["seat"] == seat and frame["view"]["seat"] == seat


@pytest.mark.postgres
def test_on_postgresql_a_moves_statements_are_prepared_once_and_reused(alice, bob):
    """Parsed and planned once per connection (core.rows.prepared_cursor), not on every move."""
    table = start_table("japanese_joker", [alice, bob])
    _ready(table, watched=False)

    def prepared(*words: str) -> list[int]:
        """How often each prepared statement containing all of ``words`` ran."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
            )
            return [runs for sql, runs in cursor.fetchall() if all(w in sql for w in words)]

    for move in range(2):
        _play_first_legal(table, f"p{move}", logged_in=True)
    # The lock's read and the write of the event with the match: each prepared once, run twice
    # (the start's own statements are prepared on this connection too, and left out here); the
    # seat whose bank the clocks changed (nobody is connected here) is saved prepared too.
    assert prepared("SELECT", "FOR UPDATE OF m") == [2]
    assert prepared("INSERT INTO", "games_matchevent") == [2]
    assert prepared('UPDATE "games_seat" SET "bank_deadline"') == [1]


def test_a_watched_table_also_gets_the_spectators_frame(
    alice, bob, django_capture_on_commit_callbacks
):
    table = start_table("japanese_joker", [alice, bob])
    _, state, mover = _ready(table, watched=True)
    with django_capture_on_commit_callbacks() as callbacks:
        moves.match_act(
            table_id=table.pk,
            player=mover,
            version=0,
            action=state.legal_actions()[0],
            client_action_id="m1",
        )
    messages = published(callbacks)
    spectators = [m for g, m in messages if g == realtime.table_spectator_group(table.pk)]
    assert len(spectators) == 1 and spectators[0]["seat"] is None
    assert "hand" not in json.loads(spectators[0]["text"])["view"]


def test_a_refused_move_publishes_nothing(alice, bob, django_capture_on_commit_callbacks):
    table = start_table("japanese_joker", [alice, bob])
    match, _, mover = _ready(table, watched=True)
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ServiceError):
        moves.match_act(
            table_id=table.pk,
            player=mover,
            version=0,
            action={"type": "play", "card": "XX"},
            client_action_id="bad",
        )
    assert callbacks == []
    assert Match.objects.get(pk=match.pk).version == 0


def test_a_resend_of_an_applied_move_is_a_duplicate_found_without_a_second_event(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match, state, mover = _ready(table, watched=False)
    action = state.legal_actions()[0]
    first = moves.match_act(
        table_id=table.pk, player=mover, version=0, action=action, client_action_id="same"
    )
    again = moves.match_act(
        table_id=table.pk, player=mover, version=0, action=action, client_action_id="same"
    )
    assert (first.version, first.duplicate) == (1, False)
    assert (again.version, again.duplicate) == (1, True)
    assert match.events.count() == 1


def test_a_move_on_an_ended_session_is_refused_and_changes_nothing(alice, bob):
    """The session is checked in the move's locked read: a move whose session was deleted (a
    logout the socket has not heard of yet) gets ``session`` and records nothing."""
    from django.contrib.sessions.models import Session

    table = start_table("japanese_joker", [alice, bob])
    _, state, mover = _ready(table, watched=False)
    session_key = _session_of(mover)
    Session.objects.filter(session_key=session_key).delete()
    with pytest.raises(ServiceError) as refused:
        moves.match_act(
            table_id=table.pk,
            player=mover,
            version=0,
            action=state.legal_actions()[0],
            client_action_id="m1",
            session_key=session_key,
        )
    assert refused.value.code == "session"
    assert Match.objects.get(table=table).version == 0


def test_the_moves_locked_read_builds_what_the_orm_builds(alice, bob, carol, dave):
    """The hand-written statement of the move path gives the seats, players, table and match
    field for field as the ORM loads them (JSON, dates and booleans through their converters)."""
    from games.services.move_rows import locked_match_and_seats

    table = start_table("classic_joker", [alice, bob, carol, dave])
    Seat.objects.filter(table=table, position=2).update(bank_used_ms=1234, forfeited=True)
    at_table = locked_match_and_seats(table.pk, session_key=_session_of(alice))
    assert at_table.session_alive
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    match = Match.objects.select_related("table").get(table=table)

    def fields(instance):
        return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}

    assert [fields(s) for s in at_table.seats] == [fields(s) for s in seats]
    assert [fields(s.player) for s in at_table.seats] == [fields(s.player) for s in seats]
    assert fields(at_table.match) == fields(match)
    assert fields(at_table.match.table) == fields(match.table)
    assert isinstance(at_table.match.state, dict)
    assert all(seat.table is at_table.match.table for seat in at_table.seats)
    assert "match" not in at_table.match.table._state.fields_cache  # no match <-> table cycle
    assert all(seat.table is at_table.match.table for seat in at_table.seats)
    assert not locked_match_and_seats(table.pk, session_key="no-such-session").session_alive


def test_the_moves_written_rows_read_back_as_the_orm_wrote_them(alice, bob):
    """``core.rows`` writes the event and the match as ``save`` would: JSON, the creation time
    and a deadline read back unchanged, and only the named fields change."""
    from datetime import timedelta

    from django.db import connection as default
    from django.utils import timezone

    from core import rows
    from games.models import MatchEvent

    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    before = timezone.now()
    written = MatchEvent(
        match=match, version=1, seat=0, kind="act", action={"type": "trump", "suit": "H"}
    )
    rows.insert(written, default)
    event = MatchEvent.objects.get(match=match, version=1)
    assert written.pk == event.pk and not written._state.adding  # the new row's key, as save
    assert event.action == {"type": "trump", "suit": "H"} and event.seat == 0
    assert event.client_action_id == "" and event.created_at >= before
    deadline = timezone.now() + timedelta(seconds=45)
    match.state = {**match.state, "marker": ["é", 1]}
    match.turn_deadline = deadline
    match.status = "aborted"  # not among the written fields: must not reach the row
    rows.update(match, ("state", "turn_deadline"), default)
    stored = Match.objects.get(pk=match.pk)
    assert stored.state["marker"] == ["é", 1] and stored.turn_deadline == deadline
    assert stored.status == Match.Status.PLAYING


def test_the_moves_write_gives_the_new_event_its_key(alice, bob):
    """``core.rows.insert_and_update`` (one statement on PostgreSQL) sets the inserted row's key
    on the instance, as ``save`` would."""
    from django.db import connection as default

    from core import rows
    from games.models import MatchEvent

    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    event = MatchEvent(match=match, version=1, seat=0, kind="act", action={"type": "x"})
    match.version = 1
    rows.insert_and_update(event, match, ("version",), default)
    assert event.pk == MatchEvent.objects.get(match=match, version=1).pk
    assert Match.objects.get(pk=match.pk).version == 1


def test_the_hand_written_writes_refuse_a_model_with_save_signals_or_its_own_save(
    alice, bob, monkeypatch
):
    """``core.rows`` sends no signal and calls no model ``save``: a model with a receiver for
    ``pre_save``/``post_save`` or a ``save`` of its own is refused, not silently skipped."""
    from django.db import connection as default
    from django.db.models.signals import post_save

    from core import rows
    from games.models import MatchEvent

    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    event = MatchEvent(match=match, version=1, seat=0, kind="act", action={})

    def heard(**kwargs):
        raise AssertionError("never sent")

    post_save.connect(heard, sender=MatchEvent, weak=False)
    try:
        with pytest.raises(TypeError, match="save signal receivers"):
            rows.insert(event, default)
        with pytest.raises(TypeError, match="save signal receivers"):
            rows.insert_and_update(event, match, ("version",), default)
    finally:
        post_save.disconnect(heard, sender=MatchEvent)
    assert not MatchEvent.objects.filter(match=match).exists()

    def own_save(self, *args, **kwargs):
        raise AssertionError("never called")

    monkeypatch.setattr(Match, "save", own_save)
    with pytest.raises(TypeError, match="own save"):
        rows.update(match, ("version",), default)


@pytest.mark.postgres
def test_the_moves_locked_read_finds_the_players_by_key_without_statistics(alice, bob):
    """A site whose tables grew faster than autovacuum analyses them (or with autovacuum off)
    has no statistics; the move's statement must still read each seat's player by its key, not
    scan the players table on every move (make bench: 8.7 ms instead of 0.3 ms at 29,000)."""
    from accounts.models import Player
    from games.models import Table
    from games.services.move_rows import _statement

    table = start_table("japanese_joker", [alice, bob])
    players = Player.objects.bulk_create(
        [Player(name=f"Crowd{index:05d}") for index in range(12000)], batch_size=2000
    )
    tables = Table.objects.bulk_create(
        [
            Table(
                game="japanese_joker", options=table.options, creator=players[index], seats_total=2
            )
            for index in range(0, len(players), 2)
        ],
        batch_size=2000,
    )
    Seat.objects.bulk_create(
        [
            Seat(table=other, player=players[2 * index + position], position=position)
            for index, other in enumerate(tables)
            for position in (0, 1)
        ],
        batch_size=2000,
    )
    sql, _parts = _statement(connection)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, [None, None, table.pk])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Seq Scan on accounts_player" not in plan, plan
    assert "Index Scan using accounts_player_pkey" in plan, plan


def test_a_move_leaves_nothing_for_the_cyclic_garbage_collector(alice, bob):
    """What a move reads and writes is freed as soon as the move returns, by reference counting:
    a reference cycle (the match and its table pointing at each other) left the match, the table
    and the whole game state, ~50 objects a move, for the cyclic collector, whose full passes
    stalled every socket of a server process (make bench)."""
    import gc

    table = start_table("japanese_joker", [alice, bob])
    _ready(table, watched=False)
    played = 0
    gc.collect()
    gc.disable()
    try:
        for _ in range(10):
            _play_first_legal(table, f"g{played}")
            played += 1
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 2 * played, f"{left} objects in reference cycles after {played} moves"
