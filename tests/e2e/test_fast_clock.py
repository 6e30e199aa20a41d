"""A Fast table in two phones' browsers (issue 28 § 1): the speed and every seat's bank are in
sight; when the turn clock runs out the turn goes on to the bank, which both players see count
down; when the bank runs out too the automatic move is played and announced to both.

The clock is run out from this process as the sweep runs it (the services, at the deadline):
a browser test does not wait 42 real seconds."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Match, MatchEvent, Seat
from games.services import moves
from games.services.matches import engine_state

from .phone import PHONES, phone_people, table_id  # noqa: F401 (the fixture `phones`)
from .test_table_defects import NOTICE_JS, caught_up, on_the_server_layer
from .threads import on_a_thread

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = PHONES[0]


def _due(tid: int, *, moved: bool) -> Match:
    """The clock of the seat to act runs out now: the sweep's call, in a thread (the services
    publish through async_to_sync). ``moved``: whether it must be the automatic move."""
    done: dict = {}

    def run() -> None:
        try:
            match = Match.objects.get(table_id=tid)
            now = timezone.now()
            gone = now - timedelta(milliseconds=1)
            Match.objects.filter(pk=match.pk).update(turn_deadline=gone)
            if match.turn_on_bank:  # the bank runs out with the turn it is spent on
                Seat.objects.filter(table_id=tid, bank_deadline__isnull=False).update(
                    bank_deadline=gone
                )
            done["ok"] = moves.play_due_turn(match_id=match.pk, version=match.version, now=now)
            done["match"] = Match.objects.get(pk=match.pk)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=30)
    assert done.get("ok"), done
    match = done["match"]
    assert match.turn_on_bank is not moved
    return match


def _seat_text(person, seat: int, selector: str) -> str:
    return person.page.locator(f"{selector}[data-bank-seat='{seat}']").inner_text()


def test_a_fast_tables_clock_and_bank_are_seen_and_run_out_into_an_announced_move(phones, settings):
    on_the_server_layer(settings)
    alice, bob = phones(2, PHONE)
    alice.page.goto("/tables/new/japanese_joker/")
    alice.page.locator("input[name='speed'][value='fast']").check()
    alice.page.get_by_role("button", name="Open the table").click()
    alice.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    url = alice.page.url
    bob.join(url)
    tid = table_id(url)
    for person in (alice, bob):
        person.wait_version(0)
    version = alice.state["version"]
    by_seat = {person.state["seat"]: person for person in (alice, bob)}

    # The speed and each player's whole bank, in sight on a phone.
    for person in (alice, bob):
        speed = person.page.locator("#table-speed")
        behind_more = not speed.is_visible()  # on a phone the page around the table is
        if behind_more:
            person.page.locator("#tool-more").tap()
        assert speed.is_visible()
        assert "Fast" in speed.inner_text() and "30 s bank" in speed.inner_text()
        if behind_more:
            person.page.locator("#tool-more").tap()
        for seat in by_seat:
            bank = person.page.locator(f"[data-bank-seat='{seat}']")
            # (whole, or a few seconds short: a seat whose socket came after the start, as on
            # a loaded machine it may, drained its bank meanwhile, as it should)
            assert bank.is_visible() and re.fullmatch(r"bank 0:(2[5-9]|30)", bank.inner_text())
    to_act = alice.state["view"]["to_act"]
    thinker = by_seat[to_act]

    # The turn clock runs out: the turn goes on to the bank, and both see it count down.
    _due(tid, moved=False)
    for person in (alice, bob):
        caught_up(person, version)
        turn = person.page.locator("#turn-clock")
        person.page.wait_for_function(
            "() => /^bank 0:(2\\d|30)$/.test(document.querySelector('#turn-clock').textContent)"
        )
        assert turn.is_visible()
    # The bank runs out too: the automatic move, announced to both.
    _due(tid, moved=True)
    event = MatchEvent.objects.get(match__table_id=tid, version=version + 1)
    assert event.kind == "timeout" and event.seat == to_act
    for seat, person in by_seat.items():
        caught_up(person, version + 1)
        notice = person.page.wait_for_function(NOTICE_JS).json_value()
        assert notice["inside"], notice
        assert notice["text"].startswith(
            "Time ran out:" if seat == to_act else "Time ran out for"
        ), notice
    # What the bank had left is gone: the thinker's seat says so, the other's is whole.
    assert thinker.page.locator(f"[data-bank-seat='{to_act}']").inner_text() == "bank 0:00"


def _run_out(tid: int) -> None:
    """The seat to act lets its turn clock and its bank run out: the automatic move (or, the
    third in a row, the forfeit)."""
    start = Match.objects.get(table_id=tid).version
    while Match.objects.get(table_id=tid).version == start:
        match = Match.objects.get(table_id=tid)
        gone = timezone.now() - timedelta(milliseconds=1)
        Match.objects.filter(pk=match.pk).update(turn_deadline=gone)
        if match.turn_on_bank:
            Seat.objects.filter(table_id=tid, bank_deadline__isnull=False).update(
                bank_deadline=gone
            )
        on_a_thread(
            lambda match=match: moves.play_due_turn(match_id=match.pk, version=match.version)
        )


def _own_move(tid: int) -> None:
    match = Match.objects.get(table_id=tid)
    state = engine_state(match)
    seat = Seat.objects.select_related("player").get(table_id=tid, position=state.to_act)
    on_a_thread(
        lambda: moves.match_act(
            table_id=tid,
            player=seat.player,
            version=match.version,
            action=state.legal_actions()[0],
            client_action_id=f"own-{match.version}",
        )
    )


def _until_timeouts(tid: int, sleeper: int, count: int) -> None:
    """The ``sleeper`` never moves and the clock plays for them; the other moves for itself.
    Stops once the sleeper's automatic moves in a row reach ``count`` (or the match ends)."""
    while Match.objects.get(table_id=tid).status == Match.Status.PLAYING:
        if Seat.objects.get(table_id=tid, position=sleeper).timeouts_in_row >= count:
            return
        if engine_state(Match.objects.get(table_id=tid)).to_act == sleeper:
            _run_out(tid)
        else:
            _own_move(tid)


def test_the_clock_warns_before_its_last_automatic_move_and_the_result_says_why(
    phones, settings, artifacts
):
    """Issue 41: after two automatic moves the third forfeited the match with no warning, and
    the result said "The match ended by forfeit" with a "left" badge for a player who never
    left. Now the automatic move that leaves one more says so, the turn line keeps saying it
    while it holds, and the result says why, with a badge that is not "left"."""
    on_the_server_layer(settings)
    alice, bob = phones(2, PHONE)
    alice.page.goto("/tables/new/japanese_joker/")
    alice.page.locator("input[name='speed'][value='fast']").check()
    alice.page.get_by_role("button", name="Open the table").click()
    alice.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    url = alice.page.url
    bob.join(url)
    tid = table_id(url)
    for person in (alice, bob):
        person.wait_version(0)
    sleeper = alice.state["seat"]
    # Both play a move of their own first: the match is begun, and a forfeit ends it (before
    # that it would be aborted, docs/rules/README.md § 0.6).
    while (
        MatchEvent.objects.filter(match__table_id=tid, kind="act").values("seat").distinct().count()
        < 2
    ):
        _own_move(tid)

    _until_timeouts(tid, sleeper, 2)
    version = Match.objects.get(table_id=tid).version
    caught_up(alice, version)
    alice.page.wait_for_function(
        "() => (document.querySelector('#auto-move') || {}).textContent"
        "?.includes('One more and the match is forfeited')"
    )
    # The other seat plays until it is the sleeper's turn: a trick it wins, it leads again.
    while engine_state(Match.objects.get(table_id=tid)).to_act != sleeper:
        _own_move(tid)
    caught_up(alice, Match.objects.get(table_id=tid).version)
    warning = alice.page.locator("#turn-warning")
    expect(warning).to_be_visible()
    assert "One more timeout forfeits the match." in warning.inner_text()
    assert not bob.page.locator("#turn-warning").count()  # said to its player only
    for size in ({"width": 375, "height": 667}, {"width": 844, "height": 390}):
        alice.page.set_viewport_size(size)
        expect(warning).to_be_in_viewport()
        alice.page.screenshot(
            scale="css", path=str(artifacts / f"clock-warning-{size['width']}.png")
        )

    _until_timeouts(tid, sleeper, 3)
    match = Match.objects.get(table_id=tid)
    assert match.status == Match.Status.FINISHED
    assert match.result["forfeit_reasons"] == {str(sleeper): "abandoned"}
    for person, why in (
        (alice, "You forfeited: 3 turns in a row were played by the clock."),
        (bob, "forfeited: 3 turns in a row were played by the clock."),
    ):
        caught_up(person, match.version)
        said = person.page.locator(f"#forfeit-why-{sleeper}")
        expect(said).to_be_visible()
        assert why in said.inner_text()
        badges = person.page.locator(".score-list .badge.gone")
        assert badges.all_inner_texts() == ["timed out"]
    for size in ({"width": 375, "height": 667}, {"width": 844, "height": 390}):
        alice.page.set_viewport_size(size)
        expect(alice.page.locator(f"#forfeit-why-{sleeper}")).to_be_in_viewport()
        alice.page.screenshot(
            scale="css", path=str(artifacts / f"clock-forfeit-result-{size['width']}.png")
        )
    # In Georgian, every word of it (the page reopened in the player's language).
    alice.speak("ka")
    alice.page.set_viewport_size({"width": 375, "height": 667})
    alice.page.reload()
    said = alice.page.locator(f"#forfeit-why-{sleeper}")
    expect(said).to_have_text("პარტია წაგებულად ჩაგეთვალათ: ზედიზედ 3 სვლა საათმა გააკეთა.")
    expect(alice.page.locator(".score-list .badge.gone")).to_have_text("დრო ამოეწურა")
    alice.page.screenshot(scale="css", path=str(artifacts / "clock-forfeit-result-375-ka.png"))
