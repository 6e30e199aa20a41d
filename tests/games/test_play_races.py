"""Races on PostgreSQL's real row locks: racing moves, and a forfeit claimed by two task runs
and the sweep at once (issue 6 acceptance). One thread per contender, released together."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection

from core.errors import ServiceError
from games.models import Match, MatchEvent, Seat
from games.services import matches, moves, presence
from tests.support.live import start_table
from tests.support.matches import every_seat_moves

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_threads(work: list) -> list[object]:
    """Run each callable in its own thread, all released at once; return results or errors."""
    results: list[object] = [None] * len(work)
    barrier = threading.Barrier(len(work))

    def runner(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work[index]()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_eight_racing_moves_on_one_turn_apply_exactly_once(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    state = matches.engine_state(match)
    player = alice if state.to_act == 0 else bob
    legal = state.legal_actions()

    def move(index: int):
        return lambda: moves.match_act(
            table_id=table.pk,
            player=player,
            version=0,
            action=legal[index % len(legal)],
            client_action_id=f"tab-{index}",
        )

    results = run_threads([move(i) for i in range(8)])
    outcomes = Counter(
        "applied" if isinstance(r, moves.Outcome) else getattr(r, "code", repr(r)) for r in results
    )
    assert outcomes == {"applied": 1, "stale": 7}
    match.refresh_from_db()
    assert match.version == 1
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_the_same_action_id_sent_from_racing_reconnects_applies_once(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    state = matches.engine_state(match)
    player = alice if state.to_act == 0 else bob
    action = state.legal_actions()[0]

    def resend():
        return moves.match_act(
            table_id=table.pk, player=player, version=0, action=action, client_action_id="same"
        )

    results = run_threads([resend] * 6)
    assert all(isinstance(r, moves.Outcome) for r in results), results
    assert sorted(r.duplicate for r in results) == [False] + [True] * 5
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_a_forfeit_claimed_by_two_task_runs_and_the_sweep_at_once_happens_once(alice, bob):
    table = start_table("japanese_joker", [alice, bob], stake=50)
    match = every_seat_moves(table)  # a forfeit from then on, not an abort (§ 0.6)
    to_act = matches.engine_state(match).to_act
    # The seat to act had one socket, and it closed.
    player = Seat.objects.get(table=table, position=to_act).player
    presence.socket_connect(
        table_id=table.pk, player=player, channel_name="c1", server_name="test-server"
    )
    presence.socket_disconnect(channel_name="c1")
    seat = Seat.objects.get(table=table, position=to_act)
    assert seat.bank_deadline is not None and not seat.connected
    late = seat.bank_deadline + timedelta(seconds=1)  # the grace has run out

    def task():
        return moves.forfeit_absent_seat(match_id=match.pk, seat=to_act, now=late)

    results = run_threads([task, task, lambda: presence.live_sweep(now=late)["forfeits"], task])
    assert sorted(int(r) for r in results) == [0, 0, 0, 1], results
    assert MatchEvent.objects.filter(match=match, kind="forfeit").count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == [1 - to_act]


def test_leave_racing_a_move_leaves_a_consistent_match(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    state = matches.engine_state(match)
    mover, leaver = (alice, bob) if state.to_act == 0 else (bob, alice)
    action = state.legal_actions()[0]
    results = run_threads(
        [
            lambda: moves.match_act(
                table_id=table.pk, player=mover, version=0, action=action, client_action_id="m"
            ),
            lambda: moves.match_leave(table_id=table.pk, player=leaver),
        ]
    )
    assert isinstance(results[1], moves.Outcome)
    assert isinstance(results[0], moves.Outcome | ServiceError)
    match.refresh_from_db()
    # In either order the leaver had made no move of their own: the match is aborted.
    assert match.status == Match.Status.ABORTED
    assert match.result["forfeited"] == [1 - state.to_act]
    assert match.version == MatchEvent.objects.filter(match=match).count()
