"""Four defects of the table page as its reporter met them (issue 26), in real Chromium.

1. "Suggest" shows only on your own turn at a table with a computer player; never at a table of
   people, on the other seat's turn, to a spectator, or after the match (a component's display
   value used to beat the `hidden` attribute).
2. A spectator who comes from the lobby's "Watch" sees every seat named, in the players' layout,
   on a desktop and on a phone (the bottom seat's box was squeezed to a strip, its stats spilling).
3. Classic Joker's deal summary fits a 375 px phone in English, Georgian and Russian: the Total
   column and the fourth player's column are on the screen (they were cut off).
4. A move the server makes when a turn clock runs out is said where the player looks, to that
   player and to the others; a bid says the bid made. The deal summary that such a move can bring
   blocks nothing: the next turn's clock, decision and hand stay in sight and in reach. An absent
   player's absence bank is counted beside whose turn it is.
"""

from __future__ import annotations

import copy
import os
import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Match, MatchEvent
from games.services import moves
from tests.support import match_states

from .people import DESKTOP, Person
from .phone import (  # noqa: F401 (phone_people: the fixture `phones`)
    PHONES,
    hand_ends,
    phone_people,
    play_a_card,
    reach,
    reopen,
    table_id,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = PHONES[1]  # 375×667

# Whether a node is drawn at all, as a person would see it: a box, not `display: none`.
SHOWN_JS = "n => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden'"


def suggest_shown(person: Person) -> bool:
    return person.page.locator(".suggest").evaluate(SHOWN_JS)


def add_computer(person: Person) -> None:
    person.page.locator("#add-computer button").click()
    person.page.wait_for_function(
        "() => window.jokerTable && window.jokerTable.client.state"
        " && window.jokerTable.client.state.status === 'playing'",
        timeout=30_000,
    )


def test_1_suggest_is_shown_only_on_your_turn_at_a_table_with_a_computer(people):
    alice, bob, carol, dan = people(4)
    # People only: on either seat's page, whoever is to act.
    url = alice.open_table("japanese_joker")
    bob.join(url)
    for person in (alice, bob):
        person.wait_version(0)
        person.page.locator("#turn-line").wait_for()
        assert not suggest_shown(person), f"{person.name}: Suggest at a table of people"

    # With a computer: shown on carol's own turn, casual of course.
    url = carol.open_table("japanese_joker")
    carol.page.locator('#live-status[data-connected="yes"]').wait_for(state="attached")
    add_computer(carol)
    carol.page.reload()
    state = carol.wait_version(0)
    me, tid = state["seat"], table_id(url)
    assert carol.page.locator("#table-rated").inner_text() == "Casual"
    version = match_states.play_until(tid, lambda s: s.to_act == me and s.view(None)["trick"])
    carol.page.reload()
    carol.wait_version(version)
    carol.page.locator("#match-area .mine button.card.legal").first.wait_for()
    assert suggest_shown(carol)
    assert carol.page.locator("#suggest").is_enabled()

    # The computer's turn (stored as it is: no task plays it meanwhile).
    version = match_states.play_until(tid, lambda s: s.to_act not in (None, me))
    carol.page.reload()
    assert carol.wait_version(version)["view"]["to_act"] != me
    assert not suggest_shown(carol), "Suggest on the computer's turn"

    # A spectator of that table, on the computer's turn and on carol's.
    dan.page.goto(url)
    assert dan.wait_version(version)["seat"] is None
    assert not suggest_shown(dan), "Suggest to a spectator"
    version = match_states.play_until(tid, lambda s: s.to_act == me)
    dan.page.reload()
    dan.wait_version(version)
    assert not suggest_shown(dan), "Suggest to a spectator on the player's turn"

    # After the match: its last move, by carol.
    version = reach(
        tid, lambda s: s.to_act == me and all(s.apply(a).result for a in match_states.legal(s))
    )
    carol.page.reload()
    carol.wait_version(version)
    play_a_card(carol)
    carol.page.locator("#dialog-result").wait_for()
    carol.close_dialogs()
    assert not suggest_shown(carol), "Suggest after the match"


SEATS_JS = """() => [...document.querySelectorAll('.seat-box')].map(box => {
  const b = box.getBoundingClientRect();
  const name = box.querySelector('.seat-name');
  const spill = [...box.querySelectorAll('*')].filter(n => n.getClientRects().length).filter(n => {
    const r = n.getBoundingClientRect();
    return r.left < b.left - 1 || r.right > b.right + 1
      || r.top < b.top - 1 || r.bottom > b.bottom + 1;
  }).map(n => n.className + ': ' + n.textContent);
  return {seat: box.id, width: Math.round(b.width), name: name ? name.textContent : '',
          nameShown: name ? Math.round(name.getBoundingClientRect().width) : 0,
          nameNeeds: name ? name.scrollWidth : 0, spill};
})"""


def test_2_a_spectator_from_the_lobby_sees_every_seat_named(people, browser, e2e_server, artifacts):
    alice, bob, watcher = people(3)
    url = alice.open_table("japanese_joker")
    bob.join(url)
    alice.wait_version(0)
    version = match_states.play_until(table_id(url), match_states.trick_half_played, seed=1)
    names = sorted(
        alice.page.locator(".seat-box .seat-name").all_inner_texts()  # alice's page, version 0
    )

    watcher.page.goto("/")
    watcher.page.locator(f'#being-played a[href="{url[url.index("/tables") :]}"]').click()
    assert watcher.wait_version(version)["seat"] is None
    phone = Person(browser, e2e_server, "phone-watcher", viewport=PHONE)
    phone.page.goto(url)
    phone.wait_version(version)
    try:
        for person, size in ((watcher, DESKTOP), (phone, PHONE)):
            person.resize(size)
            person.page.screenshot(
                scale="css", path=str(artifacts / f"spectator-{size['width']}.png")
            )
            seats = person.page.evaluate(SEATS_JS)
            assert sorted(s["name"] for s in seats) == names, seats
            for seat in seats:
                assert seat["nameShown"] >= min(seat["nameNeeds"], 60), (size, seat)
                assert not seat["spill"], (size, seat)
            # The same layout as a player's: the viewer's side at the bottom, named.
            bottom = person.page.locator(".seat-zone.pos-bottom .seat-box")
            assert bottom.evaluate(SHOWN_JS) and bottom.locator(".seat-name").inner_text()
    finally:
        assert not phone.errors, phone.errors
        phone.context.close()


CUT_JS = """() => {
  const d = document.querySelector('#dialog-summary');
  const box = d.getBoundingClientRect();
  // Only the cells on the screen: on a phone the summary's own table gives way to the sheet's
  // latest deal (issue 41), and a cell not drawn has no place to be cut from.
  const cut = [...d.querySelectorAll('th, td')].filter(c => c.getClientRects().length).filter(c => {
    const r = c.getBoundingClientRect();
    return r.left < box.left - .5 || r.right > box.right + .5 || r.right > innerWidth;
  }).map(c => c.textContent);
  const head = [...d.querySelectorAll('.summary-table thead th')];
  return {cut, scrolls: d.scrollWidth > d.clientWidth, total: head[head.length - 1].textContent,
          headsCut: head.filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.textContent),
          players: d.querySelectorAll('.sheet thead th').length - 1,
          width: Math.round(box.width)};
}"""


def test_3_the_classic_deal_summary_fits_a_phone_in_every_language(phones, artifacts):
    group = phones(4, PHONE)
    url = group[0].open_table("classic_joker", {"pulkas": "nines"})
    for person in group[1:]:
        person.join(url)
    group[0].wait_version(0)
    for person, language in zip(group, ["en", "ka", "ru", "en"], strict=True):
        person.speak(language)
    version = reach(table_id(url), hand_ends)
    by_seat = reopen(group, url, version)
    play_a_card(by_seat[group[0].state["view"]["to_act"]])
    for index, person in enumerate(group):
        person.page.locator("#dialog-summary").wait_for()
        for size in (PHONE, PHONES[0]) if index == 0 else (PHONE,):
            person.resize(size)
            language = person.page.evaluate("document.documentElement.lang")
            person.page.screenshot(
                scale="css",
                path=str(artifacts / f"summary-{language}-{size['width']}x{size['height']}.png"),
            )
            found = person.page.evaluate(CUT_JS)
            where = f"{language} at {size['width']}"
            assert not found["cut"] and not found["scrolls"], (where, found)
            assert not found["headsCut"], (where, found)
            assert found["players"] == 4, (where, found)


def on_the_server_layer(settings) -> None:
    """This process publishes on the e2e server's channel layer, as its sweep would (Redis)."""
    if settings.REDIS_URL:
        layers = copy.deepcopy(settings.CHANNEL_LAYERS)
        layers["default"]["CONFIG"]["prefix"] = f"e2e{os.getpid()}"
        settings.CHANNEL_LAYERS = layers


def time_runs_out(tid: int) -> dict:
    """The turn clock of the seat to act runs out, and then its bank: the server's automatic
    move, as the sweep makes it (in a thread: the services publish through async_to_sync).
    Returns its event."""
    done: dict = {}

    def run() -> None:
        try:
            match = Match.objects.get(table_id=tid)
            # Past the deadline (an earlier automatic move, made "later", set it later still);
            # a present player's turn goes on to their bank first, then the move comes.
            for _clock_then_bank in range(2):
                later = max(timezone.now(), match.turn_deadline) + timedelta(seconds=1)
                assert moves.play_due_turn(match_id=match.pk, version=match.version, now=later)
                if Match.objects.get(pk=match.pk).version != match.version:
                    break
                match = Match.objects.get(pk=match.pk)
            event = MatchEvent.objects.get(match=match, version=match.version + 1)
            done.update(kind=event.kind, seat=event.seat, action=event.action)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=30)
    assert done.get("kind") == "timeout", done
    return done


def caught_up(person: Person, version: int) -> None:
    # Without Redis the page learns of the move from its next ping: send it now ("online").
    person.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    person.wait_version(version)


NOTICE_JS = """() => {
  const n = document.querySelector('#auto-move');
  if (!n || !n.getClientRects().length) return null;
  const r = n.getBoundingClientRect();
  return {text: n.textContent, inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
          && r.right <= innerWidth};
}"""

REACH_JS = """selectors => selectors.flatMap(s => [...document.querySelectorAll(s)]).map(n => {
  const r = n.getBoundingClientRect();
  const y = n.matches('.card') ? r.top + r.height * .3 : (r.top + r.bottom) / 2;
  const x = n.matches('.card') ? r.left + 6 : (r.left + r.right) / 2;
  const hit = document.elementFromPoint(x, y);
  return {node: n.id || n.className, inside: r.top >= 0 && r.bottom <= innerHeight,
          reached: Boolean(hit && (n.contains(hit) || hit.contains(n)))};
})"""


def card_words(code: str) -> str:
    rank = {"T": "10"}.get(code[0], code[0])
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[1]]


def test_4_an_automatic_move_is_said_and_the_summary_blocks_nothing(phones, settings, artifacts):
    on_the_server_layer(settings)
    group = phones(4, PHONE)
    url = group[0].open_table("classic_joker", {"pulkas": "nines"})
    for person in group[1:]:
        person.join(url)
    group[0].wait_version(0)
    tid = table_id(url)

    # A bid: its player's clock runs out.
    version = match_states.play_until(tid, lambda s: s.view(None)["phase"] == "bid")
    by_seat = reopen(group, url, version)
    event = time_runs_out(tid)
    seat, bid = event["seat"], event["action"]["tricks"]
    name = by_seat[seat].state["seats"][seat]["name"]
    for other, person in by_seat.items():
        caught_up(person, version + 1)
        notice = person.page.wait_for_function(NOTICE_JS).json_value()
        expected = (
            f"Time ran out: you bid {bid}."
            if other == seat
            else f"Time ran out for {name}: bid {bid}."
        )
        assert notice == {"text": expected, "inside": True}, (other, notice)
    by_seat[seat].page.screenshot(scale="css", path=str(artifacts / "timeout-bid-375.png"))

    # The deal's last card: played by the server, it ends the deal; the summary comes, and the
    # next deal's first turn keeps its clock, decision and hand in sight and in reach.
    version = reach(tid, hand_ends)
    by_seat = reopen(group, url, version)
    event = time_runs_out(tid)
    seat, card = event["seat"], event["action"]["card"]
    name = by_seat[seat].state["seats"][seat]["name"]
    for other, person in by_seat.items():
        caught_up(person, version + 1)
        person.page.locator("#dialog-summary").wait_for()
        text = person.page.wait_for_function(NOTICE_JS).json_value()["text"]
        if card[0] == "X":
            assert "joker" in text, text
        else:
            words = card_words(card)
            assert text == (
                f"Time ran out: {words} was played for you."
                if other == seat
                else f"Time ran out for {name}: {words} was played."
            ), text
    nxt = by_seat[group[0].state["view"]["to_act"]]
    nxt.page.locator("#action-panel .choices button:not([disabled])").first.wait_for()
    nxt.page.screenshot(scale="css", path=str(artifacts / "timeout-summary-next-turn-375.png"))
    reached = nxt.page.evaluate(
        REACH_JS,
        ["#turn-line", "#turn-clock", "#action-panel button:not([disabled])", "#my-hand .card"],
    )
    assert reached and all(r["inside"] and r["reached"] for r in reached), reached
    assert re.fullmatch(r"\d+:\d\d", nxt.page.locator("#turn-clock").inner_text())
    # And the decision can be made with the summary still open.
    nxt.page.locator("#action-panel .choices button:not([disabled])").first.click()
    nxt.wait_version(version + 2)
    assert nxt.page.locator("#dialog-summary").count() == 1

    # The next seat to act leaves: the others count its absence bank beside its turn.
    state = nxt.state
    gone = by_seat[state["view"]["to_act"]]
    gone.page.goto("/")
    watcher = next(p for s, p in by_seat.items() if s != state["view"]["to_act"])
    away = watcher.page.locator("#turn-absence")
    watcher.page.wait_for_function(
        "() => /forfeits in \\d+:\\d\\d/.test(document.querySelector('#turn-absence').textContent)",
        timeout=45_000,
    )
    box = away.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
