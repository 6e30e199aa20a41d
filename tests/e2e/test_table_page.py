"""The table page in real Chromium (issue 7): guests open and join tables and play by clicking.

- Japanese Joker: two guests play a whole hand (the trump choice, 18 tricks, jokers through their
  dialog), a reload in the middle resumes the same hand, an illegal card shows the server's
  reason, a card is played with the keyboard, screen readers hear the plays; then one leaves
  (forfeit), both see the result and a rematch takes both to a new table.
- Classic Joker: four guests bid (the dealer's forbidden bid is disabled) and play deal 1, see
  the score sheet, and reach a trick of deal 2; a nines-only table starts with the trump chosen
  on three cards.
- Japanese Whist: the forehand names the trump, trick 1 comes from the layout and unlocks the
  hands; a visitor watches; four colours stick; the spel-or-pass variant asks for the contract.
- Connection: an absent opponent's forfeit countdown, "reconnecting…" while the server is down
  and play going on after it is back, and a move whose ack was lost resent once.
- Screenshots of each game at 1280 and 375 px go to tests/e2e/artifacts/; at 375 px the page
  never scrolls sideways.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from .people import DESKTOP, Person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def seated(people: list[Person], url: str) -> dict[int, Person]:
    """Open the table with the first person, seat the others; every page shows the match."""
    for person in people[1:]:
        person.join(url)
    by_seat: dict[int, Person] = {}
    for person in people:
        state = person.wait_version(0)
        assert state["status"] == "playing"
        by_seat[state["seat"]] = person
    assert sorted(by_seat) == list(range(len(people)))
    return by_seat


def sync_all(by_seat: dict[int, Person], version: int) -> dict[str, Any]:
    state = None
    for person in by_seat.values():
        state = person.wait_version(version)
    return state


def move(person: Person, rng: random.Random, *, choose_bid=None, prefer_joker=False) -> bool:
    """Make one legal move through the page, the way a person would; True if it went through
    the joker dialog."""
    page = person.page
    person.close_dialogs()
    state = person.state
    phase = state["view"]["phase"]
    if phase in ("trump", "bid", "declare"):
        choices = page.locator("#action-panel .choices button:not([disabled])")
        choices.first.wait_for()
        count = choices.count()
        index = choose_bid(choices) if choose_bid else rng.randrange(count)
        choices.nth(index).click()
        return False
    legal = state["view"]["legal"]
    cards = page.locator("#match-area .mine button.card.legal")
    cards.first.wait_for()
    jokers = [a["card"] for a in legal if a["card"][0] == "X" and "suit" in a]
    others = [a["card"] for a in legal if a["card"][0] != "X"]
    if prefer_joker and jokers:  # lead a joker: its dialog asks for the called suit
        card = page.locator(f'#match-area .mine button.card.legal[data-card="{jokers[0]}"]')
    elif prefer_joker and others:  # keep the jokers for a lead
        pick = rng.choice(others)
        card = page.locator(f'#match-area .mine button.card.legal[data-card="{pick}"]')
    else:
        card = cards.nth(rng.randrange(cards.count()))
    code = card.get_attribute("data-card")
    card.click(position={"x": 6, "y": 12})
    options = [a for a in legal if a["card"] == code]
    if len(options) == 1:
        return False
    panel = page.locator("#action-panel .choices button:not([disabled])")
    panel.first.wait_for()
    assert panel.count() == len(options)
    panel.nth(rng.randrange(panel.count())).click()
    return True


def test_japanese_joker_a_whole_hand_by_clicking_with_reload_result_and_rematch(people, artifacts):
    rng = random.Random(7)
    alice, bob = people(2)
    url = alice.open_table("japanese_joker", {"points": "31"})  # no match ends in two hands
    by_seat = seated([alice, bob], url)
    state = alice.state
    assert state["view"]["phase"] == "trump"

    # The declarer chooses from the five options, bezi included.
    declarer = by_seat[state["view"]["to_act"]]
    panel = declarer.page.locator("#action-panel")
    panel.get_by_role("button", name="No trump (bezi)").wait_for()
    assert panel.locator(".choices button").count() == 5
    panel.get_by_role("button", name="Hearts").click()
    state = sync_all(by_seat, 1)
    assert state["view"]["trump"] == "H"
    for person in by_seat.values():
        assert "hearts" in person.page.locator("#trump-badge").inner_text().lower()
        assert person.page.locator(".columns .column .card.on-top").count() == 10

    version = 1
    reloaded = illegal_seen = keyboard_used = shot = joker_led = heard = summary_seen = False
    while True:
        state = sync_all(by_seat, version)
        view = state["view"]
        if view["hand_number"] == 2 and not summary_seen:
            assert version == 37  # the trump and 36 cards
            # The end-of-hand summary; hand 2 has the other declarer.
            for person in by_seat.values():
                summary = person.page.locator("#dialog-summary")
                summary.wait_for()
                assert "Hand 1 is over" in summary.inner_text()
                summary.get_by_role("button", name="Continue").click()
            hand = view["previous_hand"]
            assert hand["tricks"][0] + hand["tricks"][1] == 18
            assert view["declarer"] != hand["declarer"]
            summary_seen = True
        # A joker led goes through its dialog; the deal decides when that happens, so hand 2
        # goes on until one has been led (it nearly always was in hand 1).
        if summary_seen and (joker_led or view["hand_number"] == 3):
            break
        actor = by_seat[view["to_act"]]
        trick_no = sum(view["tricks"]) + 1
        if not reloaded and trick_no == 6:
            # A reload in the middle: the same hand comes back.
            other = by_seat[1 - view["to_act"]]
            before = other.hand()
            columns = other.page.locator(".columns.mine .card").count()
            other.page.reload()
            other.wait_version(version)
            other.page.locator("#my-hand [data-card]").first.wait_for()
            assert other.hand() == before
            assert other.page.locator(".columns.mine .card").count() == columns
            reloaded = True
        not_legal = actor.page.locator("#my-hand button.card.not-legal")
        if not illegal_seen and view["trick"] and not_legal.count():
            # An illegal card: the server's reason is shown and nothing changes.
            not_legal.first.click(position={"x": 6, "y": 12}, force=True)
            error = actor.page.locator("#play-error")
            error.wait_for()
            assert error.inner_text().strip()
            assert actor.state["version"] == version
            illegal_seen = True
        if not shot and trick_no >= 3 and view["trick"]:
            actor.screenshot(artifacts, "japanese_joker")
            shot = True
        legal = actor.page.locator("#match-area .mine button.card.legal:not(.joker)")
        if not keyboard_used and view["phase"] == "play" and legal.count() >= 2:
            # Keyboard: arrows move between the cards, Enter plays the focused one.
            legal.first.focus()
            actor.page.keyboard.press("ArrowRight")
            focused = actor.page.evaluate("document.activeElement.dataset.card")
            assert focused and focused != legal.first.get_attribute("data-card")
            legal.first.focus()
            actor.page.keyboard.press("Enter")
            keyboard_used = True
        else:
            joker_led = move(actor, rng, prefer_joker=not joker_led) or joker_led
        version += 1
        if not heard and view["phase"] == "play" and not view["trick"]:
            # Screen readers hear the card just led by the other seat.
            other = by_seat[1 - view["to_act"]]
            other.page.wait_for_function(
                "() => document.querySelector('#announcer').textContent.includes('played the')"
            )
            heard = True
    assert reloaded and illegal_seen and keyboard_used and shot and joker_led and heard

    # Leaving forfeits: the confirmation, then the result on both pages, then a rematch.
    alice.page.locator("#tool-leave").click()
    confirm = alice.page.locator("#dialog-leave")
    assert "Leave and forfeit?" in confirm.inner_text()
    confirm.get_by_role("button", name="Leave and forfeit").click()
    for person, title in ((alice, "You lost"), (bob, "You won!")):
        result = person.page.locator("#dialog-result")
        result.wait_for()
        assert title in result.inner_text()
        assert "forfeit" in result.inner_text()
    bob.snap(artifacts, "japanese_joker-result")
    old = alice.page.url
    for person in (alice, bob):
        person.page.locator("#rematch-button").click()
    for person in (alice, bob):
        person.page.wait_for_url(lambda u, old=old: u != old and "/tables/" in u)
        assert person.wait_version(0)["status"] == "playing"

    # The finished table still shows its result.
    alice.page.goto(old)
    assert alice.wait_version(0)["status"] == "finished"
    assert "You lost" in alice.page.locator("#dialog-result").inner_text()


def test_classic_joker_bidding_and_the_first_tricks_with_four_guests(people, artifacts):
    rng = random.Random(11)
    group = people(4)
    url = group[0].open_table("classic_joker")
    by_seat = seated(group, url)
    state = group[0].state
    view = state["view"]
    assert (view["phase"], view["cards"], view["deal_number"]) == ("bid", 1, 1)
    dealer = view["dealer"]

    # Deal 1: everybody before the dealer bids 0, so the dealer may not bid 1.
    version = 0
    for _ in range(4):
        state = sync_all(by_seat, version)
        seat = state["view"]["to_act"]
        page = by_seat[seat].page
        buttons = page.locator("#action-panel .choices button")
        buttons.first.wait_for()
        assert buttons.count() == 2  # 0 and 1
        if seat == dealer:
            assert page.locator('#action-panel button[data-bid="1"]').is_disabled()
            assert "As the dealer" in page.locator("#action-panel").inner_text()
        page.locator('#action-panel button[data-bid="0"]').click()
        version += 1
    state = sync_all(by_seat, version)
    assert state["view"]["bids"] == [0, 0, 0, 0]
    for person in by_seat.values():
        bids = person.page.locator(".seat-box .stat.bid")
        assert bids.count() == 4
        assert all(text.strip() == "bid 0" for text in bids.all_inner_texts())

    for _ in range(4):  # the one trick of deal 1
        state = sync_all(by_seat, version)
        move(by_seat[state["view"]["to_act"]], rng)
        version += 1
    state = sync_all(by_seat, version)
    assert state["view"]["deal_number"] == 2
    assert len(state["view"]["last_trick"]["plays"]) == 4
    for seat, person in by_seat.items():
        summary = person.page.locator("#dialog-summary")
        summary.wait_for()
        assert "Deal 1 is over" in summary.inner_text()
        if seat == 0:
            person.snap(artifacts, "classic_joker-summary")
        assert summary.locator("table.sheet tbody tr").count() >= 2  # deal 1 and the pulka line
        summary.get_by_role("button", name="Continue").click()
    person = by_seat[0]
    person.page.locator("#tool-last-trick").click()
    assert person.page.locator("#dialog-last-trick .last-trick li").count() == 4
    person.close_dialogs()

    # Deal 2: free bids, then the first two cards of the trick.
    for _ in range(6):
        state = sync_all(by_seat, version)
        move(by_seat[state["view"]["to_act"]], rng)
        version += 1
    state = sync_all(by_seat, version)
    assert len(state["view"]["trick"]) == 2
    by_seat[state["view"]["to_act"]].screenshot(artifacts, "classic_joker")


def test_japanese_whist_trump_by_the_forehand_and_trick_one_from_the_layout(
    people, artifacts, browser, e2e_server
):
    rng = random.Random(5)
    alice, bob = people(2)
    url = alice.open_table("japanese_whist")
    by_seat = seated([alice, bob], url)
    view = alice.state["view"]
    forehand = by_seat[view["forehand"]]
    assert view["phase"] == "trump"
    for person in by_seat.values():
        # Hands are locked: backs only, and a note says why.
        assert person.page.locator("#my-hand .card.back").count() == 6
        assert person.page.locator("#my-hand [data-card]").count() == 0
        assert person.page.locator(".layout .card.on-top").count() == 20
    panel = forehand.page.locator("#action-panel")
    panel.get_by_role("button", name="Spades").wait_for()
    assert panel.locator(".choices button").count() == 4  # no bezi in Japanese Whist
    panel.get_by_role("button", name="Spades").click()

    version = 1
    for _ in range(2):  # trick 1: both cards from the layout
        state = sync_all(by_seat, version)
        actor = by_seat[state["view"]["to_act"]]
        assert actor.page.locator("#my-hand button.card").count() == 0
        move(actor, rng)
        version += 1
    state = sync_all(by_seat, version)
    assert sum(state["view"]["tricks"]) == 1
    for person in by_seat.values():
        person.page.locator("#my-hand [data-card]").nth(5).wait_for()
        assert len(person.hand()) == 6
    state = sync_all(by_seat, version)
    actor = by_seat[state["view"]["to_act"]]
    move(actor, rng)
    version += 1
    state = sync_all(by_seat, version)
    by_seat[state["view"]["to_act"]].screenshot(artifacts, "japanese_whist")

    # A visitor who is not seated watches: both layouts, no hand, no actions.
    visitor = Person(browser, e2e_server, "visitor")
    try:
        visitor.page.goto(url)
        watched = visitor.wait_version(version)
        assert watched["seat"] is None
        assert visitor.page.locator(".layout .card.on-top").count() >= 17
        assert visitor.page.locator("#match-area button.card").count() == 0
        assert visitor.page.locator("#tool-leave").is_hidden()
        assert not visitor.errors
    finally:
        visitor.context.close()

    # Four colours: diamonds turn blue, and the choice survives a reload.
    person = by_seat[0]
    person.page.locator("#tool-colours").click()
    assert person.page.locator("#tool-colours").get_attribute("aria-pressed") == "true"
    person.page.reload()
    person.wait_version(version)
    assert "four-colour" in person.page.locator("html").get_attribute("class")
    diamonds = person.page.locator(".card.suit-D")
    if diamonds.count():
        colour = diamonds.first.evaluate("node => getComputedStyle(node).color")
        assert colour == "rgb(17, 85, 204)", colour
    person.snap(artifacts, "japanese_whist-four-colours", DESKTOP)
    person.page.locator("#tool-sound").click()
    assert person.page.locator("#tool-sound").get_attribute("aria-pressed") == "true"


def test_japanese_whist_spel_or_pass_asks_the_forehand_for_the_contract(people):
    alice, bob = people(2)
    url = alice.open_table("japanese_whist", {"variant": "spel_pass"})
    by_seat = seated([alice, bob], url)
    view = alice.state["view"]
    assert view["phase"] == "declare"
    assert view["variant"] == "spel_pass" and view["trump"] is None
    forehand = by_seat[view["forehand"]]
    forehand.page.locator("#action-panel").get_by_role("button", name="Pass").click()
    state = sync_all(by_seat, 1)
    assert state["view"]["contract"] == "pass"
    for person in by_seat.values():
        assert "Pass" in person.page.locator("#play-facts").inner_text()
        # The variant is played without a trump: "No trump", not Joker's bezi (issue 13 § 3).
        assert person.page.locator("#trump-badge").inner_text().strip() == "No trump"
        assert person.page.locator(".trick-trump").get_attribute("aria-label") == "No trump"


def test_absence_countdown_reconnecting_after_a_restart_and_a_move_resent_once(people, e2e_server):
    rng = random.Random(3)
    alice, bob = people(2)
    url = alice.open_table("japanese_joker")
    by_seat = seated([alice, bob], url)
    move(by_seat[alice.state["view"]["to_act"]], rng)  # the trump
    state = sync_all(by_seat, 1)

    # The opponent's absence on their turn shows a forfeit countdown.
    waiting = by_seat[state["view"]["to_act"]]
    watcher = by_seat[1 - state["view"]["to_act"]]
    waiting.page.goto("about:blank")
    away = watcher.page.locator(".seat-absence:not(:empty)")
    away.wait_for()
    assert "disconnected — forfeits in" in away.inner_text()
    # The turn clock keeps counting while they are away (an absence does not stall the table).
    assert re.search(
        r"\d+:\d\d", watcher.page.locator(".seat-box.to-act [data-clock-seat]").inner_text()
    )
    waiting.page.goto(url)
    waiting.wait_version(1)
    away.wait_for(state="detached")

    # The server goes away: every page says so, and nothing can be played meanwhile.
    assert by_seat[state["view"]["to_act"]].page.locator(".mine .card.legal").count() > 0
    e2e_server.stop()
    for person in by_seat.values():
        status = person.page.locator("#conn-status")
        status.wait_for()
        assert "reconnecting…" in status.inner_text()
        assert "offline" in person.page.locator("#match-area").get_attribute("class")
        assert person.page.locator(".mine .card.legal").count() == 0
    e2e_server.start()
    for person in by_seat.values():
        person.page.locator("#conn-status").wait_for(state="hidden", timeout=30_000)
    actor = by_seat[state["view"]["to_act"]]
    move(actor, rng)
    state = sync_all(by_seat, 2)

    # A move whose ack is lost with the connection goes again with the same id, once.
    actor = by_seat[state["view"]["to_act"]]
    sent = actor.page.evaluate(
        """() => {
          const c = window.jokerTable.client;
          c.act(c.state.view.legal[0]);
          const id = c.pending.id;
          c.socket.reconnect();
          return id;
        }"""
    )
    assert sent
    state = sync_all(by_seat, 3)
    actor.page.wait_for_function("() => window.jokerTable.client.pending === null")
    assert actor.state["version"] == 3
    assert sum(state["view"]["tricks"]) == 1  # the resent card completed trick 1, once


def test_classic_joker_nine_card_deals_start_with_the_trump_on_three_cards(people):
    group = people(4)
    url = group[0].open_table("classic_joker", {"pulkas": "nines"})
    by_seat = seated(group, url)
    view = group[0].state["view"]
    assert (view["phase"], view["cards"]) == ("trump", 9)
    chooser = by_seat[view["to_act"]]
    assert len(chooser.hand()) == 3
    panel = chooser.page.locator("#action-panel")
    panel.get_by_role("button", name="No trump (bezi)").wait_for()
    assert panel.locator(".choices button").count() == 5
    for person in by_seat.values():
        assert len(person.hand()) == 3  # every seat sees its first three cards
    panel.get_by_role("button", name="Clubs").click()
    state = sync_all(by_seat, 1)
    assert (state["view"]["phase"], state["view"]["trump"]) == ("bid", "C")
    bidder = by_seat[state["view"]["to_act"]]
    bidder.page.locator('#action-panel button[data-bid="9"]').wait_for()
    assert bidder.page.locator("#action-panel .choices button").count() == 10
    assert len(bidder.hand()) == 9
