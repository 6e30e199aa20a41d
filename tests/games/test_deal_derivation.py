"""docs/fairness.md § The derivation: the test vectors it prints are what the engines' generator
gives; a new match deals with it and says so in its record; a match of the older derivation
still verifies; a record that names the wrong derivation is refused in words."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from games import history, replay
from games.models import Match
from games.rules import get_game
from games.rules.cards import (
    MT_DEAL,
    SHA256_DEAL,
    Sha256Deal,
    deal_algorithm,
    deal_rng,
    full_deck,
    joker_deck,
)
from tests.support.matches import play_out, start

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()


def vector(what: str) -> str:
    """The value column of the vectors table's row ``what``."""
    row = re.search(rf"^\| {re.escape(what)} \| (.+) \|$", DOC, re.M)
    assert row, what
    return row[1]


def codes(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_the_documented_vectors_are_what_the_generator_gives():
    [seed] = codes(vector("seed"))
    assert deal_algorithm(seed) == SHA256_DEAL and deal_algorithm(seed[7:]) == MT_DEAL
    [digest] = codes(vector("SHA-256 of `<seed>:1:0`"))
    assert hashlib.sha256(f"{seed}:1:0".encode()).hexdigest() == digest
    words = [int(w) for w in vector("hand 1's first three words").split(", ")]
    generator = Sha256Deal(seed, 1)
    assert [generator._u32() for _ in words] == words
    draw, deck = vector("hand 1: `draw(2)`, then the 36-card deck shuffled").split("; ")
    generator = deal_rng(seed, 1)
    assert generator.randrange(2) == int(draw)
    cards = joker_deck()
    generator.shuffle(cards)
    assert " ".join(cards) == codes(deck)[0]
    first, second = vector("label 0: `draw(4)`, then `draw(3)`").split(", ")
    generator = deal_rng(seed, 0)
    assert (generator.randrange(4), generator.randrange(3)) == (int(first), int(second))
    cards = full_deck()
    deal_rng(seed, 2).shuffle(cards)
    assert " ".join(cards) == codes(vector("hand 2: the 52-card deck shuffled"))[0]


def test_a_draw_is_uniform_and_refuses_an_impossible_range():
    generator = Sha256Deal("sha256:" + "0" * 64, 1)
    counts = [0] * 6
    for _ in range(6000):
        counts[generator.randrange(6)] += 1
    assert all(850 < count < 1150 for count in counts), counts
    for bad in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError):
            generator.randrange(bad)
    assert generator.randrange(1) == 0 and 0 <= generator.randrange(2**32) < 2**32


@pytest.mark.django_db
def test_a_new_match_deals_with_sha256_and_its_record_says_so(alice, bob):
    match = play_out(
        start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(4)
    )
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", match.seed)
    record, problems = history.verify_stored(match)
    assert problems == []
    assert record["deal_algorithm"] == SHA256_DEAL
    wrong = {**record, "deal_algorithm": MT_DEAL}
    assert replay.verify(wrong) == [
        f"deal_algorithm: the seed deals with {SHA256_DEAL}, the record says {MT_DEAL}"
    ]
    older = json.loads(json.dumps(record))
    del older["deal_algorithm"]  # a record written before the key: the seed says it
    assert replay.verify(older) == []


@pytest.mark.django_db
def test_a_match_of_the_older_derivation_still_verifies(alice, bob):
    table = start("japanese_whist", [alice, bob], options={"points": 5})
    match = Match.objects.get(table=table)
    seed = match.seed.removeprefix("sha256:")  # as a match before the new derivation was made
    Match.objects.filter(pk=match.pk).update(
        seed=seed,
        seed_hash=replay.seed_hash(seed),
        entropy={},  # (the matches before player entropy have none)
        state=get_game("japanese_whist").new_match(match.options, seed).to_dict(),
    )
    match = play_out(table, random.Random(8))
    record, problems = history.verify_stored(match)
    assert problems == []
    assert record["deal_algorithm"] == MT_DEAL
