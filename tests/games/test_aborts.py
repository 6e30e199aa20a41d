"""A match nobody has begun is aborted, not lost (issue 26, defect 5; docs/rules/README.md § 0.6).

Until every seat has made a move of its own, a seat that leaves, empties its absence bank or
lets the turn clock run out three times aborts the match: no winner, no rating change, every
stake back through the ledger, and the forfeit counts against the quitter's reputation alone.
The report's case: leaving a rematch one second after it started.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import CoinAccount, CoinTransaction, Player
from accounts.selectors import coin_audit
from games import history
from games.models import Match, MatchEvent, Seat, Table
from games.services import moves, presence, rematch, tables
from games.services.matches import engine_state
from ladder import services as ladder_services
from ladder.models import Rating, RatingChange
from social.models import Cooldown, Forfeit
from social.selectors import reputation
from tests.support.ladder import committed
from tests.support.live import Sock, cookie_headers, start_table
from tests.support.matches import every_seat_moves

pytestmark = pytest.mark.django_db

STAKE = 25


def _balance(player: Player) -> int:
    return CoinAccount.objects.get(player=player).balance


def _seat(table: Table, player: Player) -> int:
    return Seat.objects.get(table=table, player=player).position


def _rated_table(creator: Player, other: Player) -> Table:
    table = committed(
        tables.table_create,
        creator=creator,
        game="japanese_joker",
        options={"points": 11},
        stake=STAKE,
        visibility="public",
        rated=True,
    )
    committed(tables.table_join, player=other, table_id=table.pk)
    return table


def _the_rematch(alice: Player, bob: Player) -> Table:
    """A rated match for coins that alice forfeits once both have moved (bob wins it, and it is
    rated), then its rematch, started: the report's situation."""
    first = _rated_table(alice, bob)
    every_seat_moves(first)
    committed(moves.match_leave, table_id=first.pk, player=alice)
    assert Match.objects.get(table=first).result["reason"] == "forfeit"
    assert RatingChange.objects.filter(match__table=first).count() == 2
    for player in (alice, bob):
        committed(rematch.rematch_accept, table_id=first.pk, player=player)
    new = Table.objects.get(rematch_of=first)
    assert new.status == Table.Status.PLAYING
    return new


def _aborted(table: Table, quitter_seat: int) -> Match:
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.ABORTED
    reasons = match.result.pop("forfeit_reasons")  # why the quitter forfeited, by seat
    assert list(reasons) == [str(quitter_seat)]
    assert reasons[str(quitter_seat)] in {"left", "absent", "abandoned"}
    assert match.result == {
        "reason": "aborted",
        "winners": [],
        "forfeited": [quitter_seat],
        "scores": [],
        "coins": [0, 0],
    }
    assert not RatingChange.objects.filter(match=match).exists()
    assert CoinTransaction.objects.filter(
        match_id=match.pk, kind=CoinTransaction.Kind.REFUND
    ).exists()
    assert coin_audit().ok
    return match


def test_leaving_a_rematch_before_anyone_moved_aborts_it_and_only_the_quitter_pays(alice, bob):
    new = _the_rematch(alice, bob)
    assert (_balance(alice), _balance(bob)) == (950, 1000)  # both rematch stakes in the pot
    ratings = dict(Rating.objects.values_list("player__name", "display"))
    before = {player.name: reputation(player) for player in (alice, bob)}

    committed(moves.match_leave, table_id=new.pk, player=bob)

    match = _aborted(new, _seat(new, bob))
    # Neither the rating task nor the ladder's sweep ever rates it.
    assert ladder_services.match_rate(match_id=match.pk) == []
    later = timezone.now() + timedelta(hours=1)
    assert ladder_services.matches_rate_unrated(now=later) == 0
    assert (_balance(alice), _balance(bob)) == (975, 1025)  # what the first match left them
    assert dict(Rating.objects.values_list("player__name", "display")) == ratings
    assert Rating.objects.filter(matches=1).count() == 2  # the rematch was not rated
    assert Forfeit.objects.get(match=match).player == bob
    bob_now, alice_now = reputation(bob), reputation(alice)
    assert (bob_now.started, bob_now.completed) == (
        before["bob"].started + 1,
        before["bob"].completed,
    )
    assert bob_now.recent_forfeits == before["bob"].recent_forfeits + 1
    assert alice_now == before["alice"]
    # What a person reads on the match's page.
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "Aborted" in page
    assert (
        "The match was aborted: bob forfeited before every player had made a move, so no rating"
        " changed and every stake was refunded." in page
    )


def test_an_absence_bank_running_out_before_anyone_moved_aborts_the_rematch(alice, bob):
    new = _the_rematch(alice, bob)
    match = Match.objects.get(table=new)
    # Nobody has the new table open: the seat to act is absent and its bank drains.
    first = Seat.objects.select_related("player").get(
        table=new, position=engine_state(match).to_act
    )
    other = alice if first.player == bob else bob
    assert first.bank_deadline is not None
    before = {player.name: reputation(player) for player in (first.player, other)}
    presence.live_sweep(now=first.bank_deadline + timedelta(seconds=1))

    match = _aborted(new, first.position)
    assert Forfeit.objects.get(match=match).reason == "absent"
    assert (_balance(alice), _balance(bob)) == (975, 1025)
    assert Rating.objects.filter(matches=1).count() == 2
    quitter = reputation(first.player)
    assert quitter.started == before[first.player.name].started + 1
    assert quitter.completed == before[first.player.name].completed
    assert reputation(other) == before[other.name]


def test_three_timeouts_before_a_move_of_ones_own_abort_the_match(alice, bob, settings):
    settings.BANK_SECONDS = 86_400  # only the turn clocks act here
    table = _rated_table(alice, bob)
    now = timezone.now()
    for _ in range(10):
        now += timedelta(hours=1)
        presence.live_sweep(now=now)
        if Match.objects.get(table=table).status != Match.Status.PLAYING:
            break
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.ABORTED
    assert Forfeit.objects.get(match=match).reason == "abandoned"
    seat = match.result["forfeited"][0]
    assert match.result["forfeit_reasons"] == {str(seat): "abandoned"}
    assert MatchEvent.objects.filter(match=match, kind="timeout").exists()
    assert (_balance(alice), _balance(bob)) == (1000, 1000)
    assert coin_audit().ok


def test_once_every_seat_has_moved_leaving_is_a_rated_forfeit(alice, bob):
    table = _rated_table(alice, bob)
    match = every_seat_moves(table)
    assert match.status == Match.Status.PLAYING
    committed(moves.match_leave, table_id=table.pk, player=bob)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "forfeit"
    assert match.result["winners"] == [_seat(table, alice)]
    assert RatingChange.objects.filter(match=match).count() == 2
    assert (_balance(alice), _balance(bob)) == (1025, 975)


def test_one_seat_having_moved_is_not_enough_the_other_may_still_abort(alice, bob):
    table = _rated_table(alice, bob)
    match = Match.objects.get(table=table)
    state = engine_state(match)
    mover = Seat.objects.select_related("player").get(table=table, position=state.to_act)
    moves.match_act(
        table_id=table.pk,
        player=mover.player,
        version=0,
        action=random.Random(1).choice(state.legal_actions()),
        client_action_id="trump",
    )
    committed(moves.match_leave, table_id=table.pk, player=mover.player)
    _aborted(table, mover.position)


def test_in_classic_joker_leaving_during_the_first_bids_aborts_for_all_four(
    alice, bob, carol, dave
):
    table = start_table("classic_joker", [alice, bob, carol, dave])
    committed(moves.match_leave, table_id=table.pk, player=carol)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.ABORTED
    assert match.result["forfeited"] == [_seat(table, carol)]
    assert not Seat.objects.filter(table=table, is_bot=True).exists()  # no computer took over
    assert Table.objects.get(pk=table.pk).status == Table.Status.CANCELLED


def test_aborts_count_toward_a_cool_down_like_forfeits(alice, bob):
    for _ in range(3):
        table = _rated_table(alice, bob)
        committed(moves.match_leave, table_id=table.pk, player=bob)
        assert Match.objects.get(table=table).status == Match.Status.ABORTED
    assert Cooldown.objects.get(player=bob).quits == 3
    assert not Cooldown.objects.filter(player=alice).exists()
    assert (_balance(alice), _balance(bob)) == (1000, 1000)


def test_the_aborted_match_replays_and_its_export_verifies(alice, bob):
    table = _rated_table(alice, bob)
    committed(moves.match_leave, table_id=table.pk, player=alice)
    match = Match.objects.get(table=table)
    record, problems = history.verify_stored(match)
    assert problems == []
    assert record["status"] == "aborted" and record["result"]["reason"] == "aborted"
    assert record["events"][-1]["kind"] == "abort"
    assert record["events"][-1]["action"] == {"reason": "left"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fast_clients")
async def test_the_table_hears_match_over_with_reason_aborted_and_no_rating(alice, bob):
    table = await sync_to_async(start_table)(
        "japanese_joker", [alice, bob], options={"points": 11}, stake=STAKE
    )
    socks = {}
    for player in (alice, bob):
        sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        socks[sock.seat] = sock
    await socks[0].send({"type": "leave"})
    for sock in socks.values():
        over = await sock.until(lambda f: f["type"] == "match_over")
        assert over["result"]["reason"] == "aborted"
        assert over["result"]["winners"] == [] and over["result"]["winner_names"] == []
        assert over["result"]["forfeited"] == [0]
        assert over["result"]["coins"] == [0, 0]
        if sock.state["status"] != "aborted":
            await sock.until(lambda f: f["type"] == "state" and f["status"] == "aborted")
    assert not any(f["type"] == "rating" for sock in socks.values() for f in sock.frames)
    for sock in socks.values():
        await sock.close()
