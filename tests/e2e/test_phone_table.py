"""The table on a phone: one screen, nothing to scroll (issue 26).

Every player is a guest on an emulated phone (touch, 3× pixels). For each game and each of its
phases (Japanese Joker: the trump choice, play with the columns, the joker's call, the end of a
hand, the result; Japanese Whist: the trump choice, spel or pass, play with the layout's rows,
the end of a hand, the result; classic Joker: the trump choice, the bids, play, the joker's
call, the deal summary, the score sheet, the result; and an opponent gone on their turn, with
the countdown to their forfeit), the page of the seat to act (of a seat waiting, for the
absence) is measured at 360×640, 375×667, 390×844 and 430×932 and on its side at 844×390, then
again in Georgian and in Russian (longer words) at one size each: the page does not scroll
either way, nothing lies outside the screen, the others, the trick, whose turn it is with the
clock, the decision and every card of the hand are on the screen and not covered, and each
playable card leaves a tap target at least 44 px wide. The situations come from
tests/support/match_states.py (the pages open the table again); the end of a hand is reached by
clicking its last card, so the summary comes live. Screenshots:
tests/e2e/artifacts/phone-<game>-<phase>-<width>x<height>[-<lang>].png; the tap widths:
artifacts/phone-taps-<game>.json.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support import match_states

from .people import FITTED_JS, Person
from .phone import (
    LANDSCAPE,
    PHONES,
    TABLE_PARTS,
    hand_ends,
    measure,
    phone_people,  # noqa: F401 (the fixture `phones`)
    play_a_card,
    problems,
    reach,
    record,
    reopen,
    reopen_to_act,
    table_id,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [*PHONES, LANDSCAPE]
# Georgian's words are the longest (its seat boxes take two lines): a common phone's size.
LANGUAGES = {"ka": PHONES[2], "ru": PHONES[1]}
RESULT_PARTS = ["dialog[open] .modal-title", "dialog[open] .modal-actions .button"]
SHEET_PARTS = ["dialog[open] .modal-title"]
# The end of a hand lies over the felt and leaves the rest in sight and in reach.
SUMMARY_PARTS = [
    "#dialog-summary .modal-actions .button",
    "#turn-line",
    "#action-panel:not([hidden]) button:not([disabled])",
    "#my-hand .card",
]


class Phones:
    """One table's phones, its measurements, and what did not fit (asserted at the end)."""

    def __init__(self, game: str, artifacts: Path) -> None:
        self.game = game
        self.artifacts = artifacts
        self.rows: list[dict[str, Any]] = []
        self.failures: list[str] = []

    def look(
        self,
        person: Person,
        phase: str,
        sizes: list[dict[str, int]],
        *,
        parts: list[str] = TABLE_PARTS,
        language: str = "en",
    ) -> None:
        for size in sizes:
            person.resize(size)
            found = measure(person, parts)
            suffix = "" if language == "en" else f"-{language}"
            name = f"phone-{self.game}-{phase}-{size['width']}x{size['height']}{suffix}"
            person.page.screenshot(scale="css", path=str(self.artifacts / f"{name}.png"))
            turn = person.state["status"] == "playing"
            self.failures += [f"{name}: {p}" for p in problems(found, turn=turn)]
            self.rows.append(
                {"phase": phase, "size": name, "taps": sorted(t["width"] for t in found["taps"])}
            )

    def everywhere(
        self,
        person: Person,
        phase: str,
        url: str,
        version: int,
        *,
        ready: Callable[[Person], None],
        parts: list[str] = TABLE_PARTS,
    ) -> None:
        """At every size in English, then in each other language at its size (reloaded)."""
        ready(person)
        self.look(person, phase, SIZES, parts=parts)
        for language, size in LANGUAGES.items():
            person.speak(language)
            person.page.set_viewport_size(size)
            person.page.goto(url)
            person.wait_version(version)
            ready(person)
            self.look(person, phase, [size], parts=parts, language=language)
        person.speak("en")

    def done(self) -> None:
        record(self.artifacts, f"phone-taps-{self.game}", self.rows)
        assert not self.failures, "\n".join(self.failures)


def decision_shown(person: Person) -> None:
    person.page.locator("#action-panel .choices button:not([disabled])").first.wait_for()


def card_playable(person: Person) -> None:
    person.page.locator("#match-area .mine button.card.legal").first.wait_for()


def joker_called(person: Person) -> None:
    person.page.locator("#match-area .mine button.card.legal.joker").first.click(
        position={"x": 8, "y": 12}
    )
    person.page.locator("#action-panel .joker-decision").wait_for()


def result_shown(person: Person) -> None:
    person.page.locator("#dialog-result .modal-actions").wait_for()


def last_move(state: Any) -> bool:
    """One more move ends the match, whatever it is."""
    if state.result or state.to_act is None:
        return False
    return all(state.apply(a).result for a in match_states.legal(state))


def start(phones, game: str, options: dict[str, str], seats: int) -> tuple[list[Person], str]:
    group = phones(seats)
    url = group[0].open_table(game, options)
    for person in group[1:]:
        person.join(url)
    for person in group:
        person.wait_version(0)
    return group, url


def to_act(by_seat: dict[int, Person]) -> Person:
    return by_seat[next(iter(by_seat.values())).state["view"]["to_act"]]


def end_of_hand(
    table: Phones, group: list[Person], url: str, languages: list[str], watcher: Person | None
) -> dict[int, Person]:
    """The last card of a hand, clicked: the summary comes live to every page, each in its own
    language (a watcher too); each is measured with it, the next seat to act first."""
    for person, language in zip(group, languages, strict=True):
        person.speak(language)
    pages = [*group, *([watcher] if watcher else [])]
    version = reach(table_id(url), hand_ends)
    by_seat = reopen(pages, url, version)
    play_a_card(to_act(by_seat))
    for person in pages:
        person.wait_version(version + 1)
        person.page.locator("#dialog-summary").wait_for()
    nxt = to_act(by_seat)
    for person in pages:
        language = person.page.evaluate("document.documentElement.lang")
        if person is nxt:  # its decision is in reach, the summary open or not
            decision_shown(person)
        sizes = SIZES if language == "en" else [LANGUAGES[language]]
        parts = SUMMARY_PARTS if person.state["seat"] is not None else SUMMARY_PARTS[:2]
        table.look(person, "summary", sizes, parts=parts, language=language)
    for person in pages:
        person.speak("en")
    return by_seat


def test_japanese_joker_on_phones(phones, artifacts):
    table = Phones("japanese_joker", artifacts)
    group, url = start(phones, "japanese_joker", {"points": "11"}, 2)
    tid = table_id(url)
    actor = reopen_to_act(group, url, 0)
    table.everywhere(actor, "trump", url, 0, ready=decision_shown)

    version = match_states.play_until(tid, match_states.trick_half_played, seed=1)
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "play", url, version, ready=card_playable)

    version = match_states.play_until(tid, match_states.joker_lead, seed=2)
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "joker-call", url, version, ready=joker_called)

    (watcher,) = phones(1)
    watcher.speak("ru")
    end_of_hand(table, group, url, ["en", "ka"], watcher)

    version = reach(tid, last_move)
    by_seat = reopen(group, url, version)
    play_a_card(to_act(by_seat))
    table.everywhere(group[0], "result", url, version + 1, ready=result_shown, parts=RESULT_PARTS)
    table.done()


def test_japanese_whist_on_phones(phones, artifacts):
    table = Phones("japanese_whist", artifacts)
    group, url = start(phones, "japanese_whist", {"points": "5"}, 2)
    actor = reopen_to_act(group, url, 0)
    table.everywhere(actor, "trump", url, 0, ready=decision_shown)

    group, url = start(phones, "japanese_whist", {"points": "5", "variant": "spel_pass"}, 2)
    tid = table_id(url)
    actor = reopen_to_act(group, url, 0)
    table.everywhere(actor, "spel-or-pass", url, 0, ready=decision_shown)

    # Trick 1 comes from the layout while the hands lie face down.
    version = match_states.play_until(tid, lambda s: s.view(None)["phase"] == "play")
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "layout-lead", url, version, ready=card_playable)

    version = match_states.play_until(tid, match_states.trick_half_played, seed=1)
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "play", url, version, ready=card_playable)

    (watcher,) = phones(1)
    watcher.speak("ru")
    end_of_hand(table, group, url, ["en", "ka"], watcher)

    version = reach(tid, last_move)
    by_seat = reopen(group, url, version)
    play_a_card(to_act(by_seat))
    table.everywhere(group[0], "result", url, version + 1, ready=result_shown, parts=RESULT_PARTS)
    table.done()


def absence_shown(person: Person) -> None:
    person.page.locator("#turn-absence:not(:empty)").wait_for()


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("japanese_joker", {"points": "11"}, 2),
        ("japanese_whist", {"points": "5"}, 2),
        ("classic_joker", {"pulkas": "nines"}, 4),
    ],
)
def test_an_opponent_gone_on_their_turn_fits_a_phone(phones, artifacts, game, options, seats):
    """The seat to act closed its page: the others' turn line says it forfeits in so long, in
    two more lines (three in Russian) that come with a presence frame, and the felt makes room
    for them (a CI run once caught its cards over the turn line). On a phone the seat box keeps
    its "offline" badge and leaves the countdown to the turn line."""
    table = Phones(f"{game}-absent", artifacts)
    group, url = start(phones, game, options, seats)
    by_seat = reopen(group, url, 0)
    gone = to_act(by_seat)
    gone.page.goto("about:blank")
    watcher = next(person for person in group if person is not gone)
    table.everywhere(watcher, "trump", url, 0, ready=absence_shown)
    table.done()


def scores_open(person: Person) -> None:
    person.close_dialogs()
    person.page.locator("#tool-scores").click()
    person.page.locator("#dialog-sheet").wait_for()


@pytest.mark.parametrize("seats", [4, 3, 2])
def test_classic_joker_on_phones(phones, artifacts, seats):
    """At four seats, and at three and two (issue 30: the others at the sides, or across)."""
    table = Phones("classic_joker" if seats == 4 else f"classic_joker-{seats}", artifacts)
    group, url = start(phones, "classic_joker", {"pulkas": "nines", "seats": str(seats)}, seats)
    tid = table_id(url)
    actor = reopen_to_act(group, url, 0)
    table.everywhere(actor, "trump", url, 0, ready=decision_shown)

    version = match_states.play_until(
        tid, lambda s: s.view(None)["phase"] == "bid" and s.view(None)["bids"].count(None) == 1
    )
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "bid", url, version, ready=decision_shown)

    version = match_states.play_until(tid, match_states.trick_half_played, seed=1)
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "play", url, version, ready=card_playable)

    version = match_states.play_until(tid, match_states.joker_lead, seed=2)
    actor = reopen_to_act(group, url, version)
    table.everywhere(actor, "joker-call", url, version, ready=joker_called)

    end_of_hand(table, group, url, ["en", "ka", "ru", "en"][:seats], None)
    version = group[0].state["version"]
    table.everywhere(group[0], "score-sheet", url, version, ready=scores_open, parts=SHEET_PARTS)

    version = reach(tid, last_move)
    by_seat = reopen(group, url, version)
    play_a_card(to_act(by_seat))
    table.everywhere(group[0], "result", url, version + 1, ready=result_shown, parts=RESULT_PARTS)
    table.done()


def test_the_table_fits_again_when_the_phone_narrows_its_window_back(phones):
    """Something wider than the screen widens a phone's window; once it is gone the window narrows
    back with no resize event, and the hand and the felt must follow (a result dialog did that)."""
    group, _url = start(phones, "japanese_joker", {"points": "21"}, 2)
    page = group[0].page
    screen = page.evaluate("innerWidth")
    page.evaluate(
        "() => { const wide = document.createElement('div'); wide.id = 'too-wide';"
        " wide.style.width = '700px'; wide.style.height = '10px'; document.body.append(wide); }"
    )
    page.wait_for_function(f"() => innerWidth > {screen}")
    page.wait_for_function(FITTED_JS)
    page.evaluate("() => document.getElementById('too-wide').remove()")
    page.wait_for_function(f"() => innerWidth === {screen}")
    page.wait_for_function(FITTED_JS)
    assert page.evaluate("document.getElementById('my-hand').dataset.fit") == str(screen)
