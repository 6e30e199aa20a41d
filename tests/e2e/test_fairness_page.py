"""The deals check in the browser (issue 31 § 3): the JavaScript derivation agrees with the
engines' Python on docs/fairness.md's vectors and on a thousand seeds of every game; the page
/fairness/ checks a real finished match, and rejects a record with one card swapped, naming the
deal. Screenshots land in ``tests/e2e/artifacts/``."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest

from games import replay
from games.entropy import match_seed
from games.models import Match
from games.rules import game_specs, get_game
from games.rules.cards import SHA256_SEED_PREFIX
from tests.games.test_deal_derivation import codes, vector

from .people import PHONE, TOUCH_PHONE, Person
from .test_match_replay import play_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEEDS = 1000

# Each game with options that change its deals (classic Joker's seats and formats).
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("japanese_joker", {}),
    ("japanese_whist", {}),
    ("classic_joker", {}),
    ("classic_joker", {"seats": 3, "pulkas": "short"}),
    ("classic_joker", {"seats": 2, "pulkas": "nines"}),
]

# In the page: each vector's deal by the game's module (GameSpec.deal_check), in order.
DERIVE_JS = """async vectors => {
  const checkers = JSON.parse(document.getElementById("fc-checkers").textContent);
  const modules = {};
  for (const [game, checker] of Object.entries(checkers))
    modules[game] = await import(checker.module);
  const out = [];
  for (const [game, options, seed, hand] of vectors)
    out.push(await modules[game].dealCards(seed, options, hand));
  return out;
}"""

DOC_VECTORS_JS = """async ([seed]) => {
  const page = document.querySelector("script[src*='verify/page']").src;
  const derive = await import(page.replace("page.js", "derive.js"));
  const words = new derive.DealStream(seed, 1);
  const firstWords = [await words.word(), await words.word(), await words.word()];
  const hand1 = new derive.DealStream(seed, 1);
  const draw = await hand1.draw(2);
  const joker = await hand1.shuffle(derive.jokerDeck());
  const label0 = new derive.DealStream(seed, 0);
  const seating = [await label0.draw(4), await label0.draw(3)];
  const full = await new derive.DealStream(seed, 2).shuffle(derive.fullDeck());
  return {digest: derive.hex(await derive.sha256(seed + ":1:0")), firstWords, draw,
          joker: joker.join(" "), seating, full: full.join(" "),
          algorithm: derive.dealAlgorithm(seed)};
}"""


def seed_of(index: int) -> str:
    return (
        SHA256_SEED_PREFIX + hashlib.sha256(f"cross-language vector {index}".encode()).hexdigest()
    )


def first_deals() -> list[tuple[list[Any], dict[str, Any]]]:
    """Every game's first deal for each of SEEDS seeds: ([game, options, seed, 1], cards)."""
    vectors = []
    for index in range(SEEDS):
        seed = seed_of(index)
        for game, options in VARIANTS:
            state = get_game(game).new_match(options, seed)
            vectors.append(([game, options, seed, 1], replay.deal_cards(state)))
    return vectors


def whole_match_deals(matches: int) -> list[tuple[list[Any], dict[str, Any]]]:
    """Every deal of random matches of each variant (hands 2, 3, … come from their own labels)."""
    vectors = []
    rng = random.Random(31)
    for index in range(matches):
        for game, options in VARIANTS:
            seed = seed_of(SEEDS + index)
            state = get_game(game).new_match(options, seed)
            events = []
            for version in range(1, 2000):
                if state.is_over:
                    break
                action = rng.choice(state.legal_actions())
                events.append(replay.Event(version, state.to_act, "act", action))
                state = state.apply(action)
            for start in replay.hand_starts(list(replay.replay(game, options, seed, events))):
                hand = start.state.hand_number
                vectors.append(([game, options, seed, hand], replay.deal_cards(start.state)))
    return vectors


def test_the_browser_derives_what_the_engines_deal(browser, e2e_server):
    assert {spec.id for spec in game_specs() if spec.deal_check} == {g for g, _ in VARIANTS}
    person = Person(browser, e2e_server, "vectors")
    try:
        person.page.goto("/fairness/")
        [seed] = codes(vector("seed"))
        got = person.page.evaluate(DOC_VECTORS_JS, [seed])
        assert got["digest"] == codes(vector("SHA-256 of `<seed>:1:0`"))[0]
        assert got["firstWords"] == [
            int(w) for w in vector("hand 1's first three words").split(", ")
        ]
        draw, deck = vector("hand 1: `draw(2)`, then the 36-card deck shuffled").split("; ")
        assert (got["draw"], got["joker"]) == (int(draw), codes(deck)[0])
        assert got["seating"] == [
            int(n) for n in vector("label 0: `draw(4)`, then `draw(3)`").split(", ")
        ]
        assert got["full"] == codes(vector("hand 2: the 52-card deck shuffled"))[0]
        assert got["algorithm"] == "sha256-fisher-yates"

        vectors = first_deals() + whole_match_deals(20)
        assert len(vectors) > SEEDS * len(VARIANTS)
        derived = person.page.evaluate(DERIVE_JS, [list(v) for v, _ in vectors])
        wrong = [
            (v, want, have)
            for (v, want), have in zip(vectors, derived, strict=True)
            if want != have
        ]
        assert not wrong, wrong[:3]
        assert not person.errors, person.errors
    finally:
        person.context.close()


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("japanese_joker", 2, {"points": 11}), ("classic_joker", 3, {"seats": 3, "pulkas": "short"})],
)
def test_the_page_checks_a_real_match_and_names_a_tampered_deal(
    browser, e2e_server, artifacts, game, seats, options
):
    match_id = play_match(e2e_server, game, seats, options, f"fc{seats}", 3)
    person = Person(browser, e2e_server, "checker", viewport=PHONE, device=TOUCH_PHONE)
    page = person.page
    try:
        page.goto(f"/matches/{match_id}/")
        # Issue 41: people's seats were described as "(a computer, or no value in time)".
        seats_told = page.locator("#entropy-seats").text_content() or ""
        assert "their browser gave none" in seats_told and "computer" not in seats_told
        page.locator("#check-deals").click()  # the match page's button: the page fetches it
        page.wait_for_url(re.compile(rf"/fairness/\?match={match_id}$"))
        result = page.locator("#fc-result:not([hidden])")
        result.wait_for()
        assert result.get_attribute("data-verdict") == "holds", page.locator(
            "#fc-checks"
        ).inner_text()
        verdict = page.locator("#fc-verdict").inner_text()
        assert f"Match #{match_id}" in verdict and "checks out" in verdict
        checks = page.locator("#fc-checks").inner_text()
        assert "the commitment it showed" not in checks  # (the words of a failed secret)
        assert "HMAC of every seat's value" in checks and "the server's value" in checks
        assert "their browser gave none" in checks and "a computer" not in checks
        intro = page.locator("main h1 + p").inner_text()
        assert "It checks the deals only: not the moves played, the clocks or the result." in intro
        deals = page.locator(".fc-deal")
        assert deals.count() >= 2 and page.locator(".fc-deal[data-ok=no]").count() == 0
        deals.first.locator("summary").click()
        rows = deals.first.locator("tbody tr")
        assert rows.count() >= seats and deals.first.locator("tr.differs").count() == 0
        width, inner = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width <= inner, (width, inner)
        page.screenshot(
            scale="css", path=str(artifacts / f"fairness-holds-{game}-{seats}.png"), full_page=True
        )

        record = json.loads(
            page.evaluate(f"() => fetch('/matches/{match_id}/export/').then(r => r.text())")
        )
        hands = record["deals"][1]["cards"]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # one card swapped between two seats
        page.fill("#fc-match", "")
        page.fill("#fc-text", json.dumps(record))
        page.locator("#fc-go").click()
        page.wait_for_function(
            "() => document.getElementById('fc-result').dataset.verdict === 'fails'"
        )
        hand = record["deals"][1]["hand"]
        verdict = page.locator("#fc-verdict").inner_text()
        assert f"The deal of hand {hand} differs from what the seed gives (hands)" in verdict, (
            verdict
        )
        bad = page.locator(f".fc-deal[data-ok=no][data-hand='{hand}']")
        assert bad.count() == 1 and page.locator(".fc-deal[data-ok=no]").count() == 1
        assert bad.locator("tr.differs").count() == 2  # the two seats whose hands changed
        assert bad.locator("tr.differs").first.is_visible()  # opened, in view of the reader
        page.screenshot(
            scale="css",
            path=str(artifacts / f"fairness-tampered-{game}-{seats}.png"),
            full_page=True,
        )

        seed = json.loads(json.dumps(record))
        seed["deals"][1]["cards"]["hands"] = hands  # (still swapped) and a changed seed too
        seed["seed"] = seed["seed"][:-1] + ("0" if seed["seed"][-1] != "0" else "1")
        page.fill("#fc-text", json.dumps(seed))
        page.locator("#fc-go").click()
        page.wait_for_function(
            "() => document.getElementById('fc-checks').innerText"
            ".includes('but the record commits to')"
        )

        page.fill("#fc-text", "{not json")
        page.locator("#fc-go").click()
        page.locator("#fc-error:not([hidden])").wait_for()
        assert "not JSON" in page.locator("#fc-error").inner_text()
        page.fill("#fc-text", '{"format": "a shopping list"}')
        page.locator("#fc-go").click()
        page.wait_for_function(
            "() => document.getElementById('fc-error').innerText.includes('Download the match')"
        )
        said = page.locator("#fc-error").inner_text()  # no repository path a player cannot open
        assert "This is not a match record" in said and ".md" not in said, said
        assert not person.errors, person.errors
    finally:
        person.context.close()


def test_two_browsers_values_make_the_seed(browser, e2e_server, django_db_blocker):
    """Alice opens a table and Bob takes the other seat through the pages: each browser commits
    as it sits and reveals when the table is full (Bob's page, loaded after the table asked,
    reveals as its socket opens), and the match's seed comes from both values."""
    people = [Person(browser, e2e_server, name).sign_up(name) for name in ("ent_a", "ent_b")]
    try:
        alice, bob = people
        url = alice.open_table("japanese_joker")
        bob.join(url)
        for person in people:
            person.page.wait_for_function(
                "() => window.jokerTable && window.jokerTable.client.state"
                " && window.jokerTable.client.state.status === 'playing'",
                timeout=15_000,
            )
        table_id = int(re.search(r"/tables/(\d+)/", url).group(1))
        with django_db_blocker.unblock():
            match = Match.objects.get(table_id=table_id)
        seats = match.entropy["seats"]
        assert [seat["source"] for seat in seats] == ["player", "player"], seats
        assert all(
            hashlib.sha256(seat["revealed"].encode()).hexdigest() == seat["commitment"]
            for seat in seats
        )
        assert match.seed == match_seed(match.entropy["server_secret"], [s["value"] for s in seats])
        for person in people:
            assert not person.errors, person.errors
    finally:
        for person in people:
            person.context.close()
