"""games/review.py: a seat that played the strong computer's own choices, at the review's worlds
and seed, has no mistake; a seat that played at random loses points the review finds; the
review judges only the seat's own choices, from its own view."""

from __future__ import annotations

import random
import re

import pytest

from games import replay
from games.bots import random_choice
from games.bots.strong import choose as strong_choose
from games.review import BLUNDER, MISTAKE, decision_rng, review_seat, summary
from games.rules import game_spec, get_game

WORLDS = 6
SEED = "sha256:" + "5" * 64


def strong_against_random(game: str, options: dict) -> list[replay.Event]:
    """Seat 0 plays what the review would call best; seat 1 plays at random."""
    state = get_game(game).new_match(options, SEED)
    events: list[replay.Event] = []
    chance = random.Random(3)
    while not state.is_over and len(events) < 400:
        seat = state.to_act
        version = len(events) + 1
        view = state.view(seat)
        if seat == 0:
            action = strong_choose(
                view, decision_rng(SEED, version), budget=None, max_worlds=WORLDS
            )
        else:
            action = random_choice(view, chance)
        events.append(replay.Event(version, seat, "act", action))
        state = state.apply(action)
    return events


@pytest.mark.slow
def test_the_strong_players_own_choices_are_no_mistake_and_random_play_loses_points():
    options = {"points": 11}
    events = strong_against_random("japanese_joker", options)
    ours = review_seat("japanese_joker", options, SEED, events, 0, worlds=WORLDS)
    assert len(ours) >= 10 and all(d.loss == 0 for d in ours)
    points = game_spec("japanese_joker").mistake_points
    assert summary(ours, points) == {
        "decisions": len(ours),
        "mistakes": 0,
        "blunders": 0,
        "accuracy": 100.0,
    }
    theirs = review_seat("japanese_joker", options, SEED, events, 1, worlds=WORLDS)
    assert theirs and all(d.step < len(events) and events[d.step].seat == 1 for d in theirs)
    assert sum(d.loss for d in theirs) > 0 and any(d.mark in (MISTAKE, BLUNDER) for d in theirs)
    judged = summary(theirs, points)
    assert judged["accuracy"] < 100 and judged["mistakes"] + judged["blunders"] > 0


def test_the_standing_before_each_decision_is_the_score_so_far():
    """Kept for the chart: the seat's score less its opponent's, the same for every decision of
    a hand, nothing before the first hand's result, and at two seats each seat's the other's
    negated."""
    options = {"points": 11}
    events = strong_against_random("japanese_joker", options)
    ours = review_seat("japanese_joker", options, SEED, events, 0, worlds=2)
    theirs = review_seat("japanese_joker", options, SEED, events, 1, worlds=2)
    by_hand: dict[int, set[float]] = {}
    for decision in ours:
        by_hand.setdefault(decision.hand, set()).add(decision.standing)
    assert len(by_hand) >= 2 and all(len(values) == 1 for values in by_hand.values())
    first = min(by_hand)
    assert by_hand[first] == {0.0} and any(v != {0.0} for v in by_hand.values())
    for decision in theirs:
        if decision.hand in by_hand:
            assert by_hand[decision.hand] == {-decision.standing}


@pytest.mark.parametrize("language", ["en", "ka", "ru"])
def test_the_review_names_moves_in_the_replays_words_in_the_readers_language(language):
    """Issue 41: marks read "TC → better X1 take C" and "no trump → better H", with English
    "take/want/low" inside Georgian and Russian sentences."""
    from django.utils import translation

    from games.rules_text import action_text

    moves = [
        {"type": "play", "card": "TC"},
        {"type": "play", "card": "X1", "call": "take", "suit": "C"},
        {"type": "play", "card": "X2", "call": "low"},
        {"type": "bid", "tricks": 3},
        {"type": "trump", "suit": None},
        {"type": "trump", "suit": "H"},
        {"type": "declare", "contract": "spel"},
    ]
    with translation.override(language):
        said = [action_text(move) for move in moves]
    assert said[0] == "10♣" and said[5].endswith("♥")
    for words in said:
        assert not re.search(r"\b([2-9TJQKA][SHDC]|X[12])\b", words), words
        if language != "en":  # no English word left inside another language's sentence
            assert not re.search(
                r"\b(take|takes|want|wants|low|high|bid|trumps|no trump)\b", words
            ), words
