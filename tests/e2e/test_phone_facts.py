"""The facts at the top of the table on a phone, whole (issue 41 § 2).

The bar over the felt says the trump, the turned card, which deal or hand of how many and the
trick; on a phone it was one line that cut the round's words short ("Deal 8 o…", "Hand 1 · to
21 poi…", the same in Russian). Each fact must show its every word, on the screen and not
covered, while the table still fits the screen: at 360×640, 375×667 and on its side at 844×390
in English, in Russian at 375×667 and in Georgian at 390×844. Classic Joker is looked at in
play (four facts: the trump, the turned card, the deal, the trick), Japanese Joker at its trump
choice. Screenshots: tests/e2e/artifacts/phone-facts-<game>-<width>x<height>[-<lang>].png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import match_states

from .people import Person
from .phone import (
    LANDSCAPE,
    PHONES,
    TABLE_PARTS,
    measure,
    phone_people,  # noqa: F401 (the fixture `phones`)
    problems,
    reopen_to_act,
    table_id,
)
from .test_phone_table import start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [PHONES[0], PHONES[1], LANDSCAPE]
LANGUAGES = {"ru": PHONES[1], "ka": PHONES[2]}

# Each fact: its words, whether they are cut (its content wider or taller than its box), and
# whether it lies inside the screen with a tap at its middle landing on it.
FACTS_JS = """() => [...document.querySelectorAll("#play-facts > .fact")].map(n => {
  const r = n.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {text: n.textContent, cut: n.scrollWidth > n.clientWidth + 1
            || n.scrollHeight > n.clientHeight + 1,
          inside: r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
            && r.bottom <= innerHeight + 0.5,
          reached: Boolean(hit && n.contains(hit))};
})"""


def look(person: Person, artifacts, game: str, sizes, language: str = "en") -> list[str]:
    said = []
    for size in sizes:
        person.resize(size)
        suffix = "" if language == "en" else f"-{language}"
        name = f"phone-facts-{game}-{size['width']}x{size['height']}{suffix}"
        person.page.screenshot(scale="css", path=str(artifacts / f"{name}.png"))
        facts: list[dict[str, Any]] = person.page.evaluate(FACTS_JS)
        assert len(facts) >= 2, facts
        said += [f"{name}: {fact}" for fact in facts if fact["cut"] or not fact["inside"]]
        said += [f"{name}: covered {fact}" for fact in facts if not fact["reached"]]
        said += [f"{name}: {p}" for p in problems(measure(person, TABLE_PARTS))]
    return said


def everywhere(person: Person, artifacts, game: str, url: str, version: int) -> list[str]:
    said = look(person, artifacts, game, SIZES)
    for language, size in LANGUAGES.items():
        person.speak(language)
        person.page.set_viewport_size(size)
        person.page.goto(url)
        person.wait_version(version)
        person.page.locator("#play-facts > .fact").first.wait_for()
        said += look(person, artifacts, game, [size], language)
    person.speak("en")
    return said


def test_classic_jokers_facts_in_play_are_whole_on_a_phone(phones, artifacts):
    group, url = start(phones, "classic_joker", {"pulkas": "nines", "seats": "4"}, 4)
    version = match_states.play_until(table_id(url), match_states.trick_half_played, seed=1)
    person = reopen_to_act(group, url, version)
    person.page.locator("#match-area .mine button.card.legal").first.wait_for()
    failures = everywhere(person, artifacts, "classic_joker", url, version)
    assert not failures, "\n".join(failures)


def test_japanese_jokers_facts_are_whole_on_a_phone(phones, artifacts):
    group, url = start(phones, "japanese_joker", {"points": "21"}, 2)
    person = reopen_to_act(group, url, 0)
    person.page.locator("#action-panel .choices button:not([disabled])").first.wait_for()
    failures = everywhere(person, artifacts, "japanese_joker", url, 0)
    assert not failures, "\n".join(failures)
