"""Japanese Whist over whole random matches: invariants that must hold after every move.

Rules: shared/rules/japanese_whist.md. Hypothesis draws the seeds (match seed, the order of an
explicit deal, and the ``random.Random`` that picks the moves); every match runs to its end under
both option sets that change play (``game`` = trumps / spel_pass, ``points`` drawn).
"""

from __future__ import annotations

import json
import random
import re
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, Phase
from games.rules.automove import auto_action
from games.rules.cards import FULL_DECK, full_deck
from games.rules.japanese_whist import GAME

GAMES = ("trumps", "spel_pass")
MAX_HANDS = 40  # a match to 21 takes about a dozen hands; this only bounds a runaway loop
MAX_STEPS = MAX_HANDS * 53  # one opening choice and 52 plays per hand
SEATS = (0, 1, None)

seeds = st.one_of(st.integers(min_value=0, max_value=2**63), st.text(max_size=12))
points = st.sampled_from((5, 7, 13, 21))
move_seeds = st.integers(min_value=0, max_value=2**32)


# --- helpers ----------------------------------------------------------------------------------


def deck_places(data: dict[str, Any]) -> list[str]:
    """Every card where the stored state keeps the current deal: layout, hands, trick, piles."""
    cards = [card for layout in data["layout"] for pos in layout for card in pos if card]
    cards += [card for hand in data["hands"] for card in hand]
    cards += [play["card"] for play in data["trick"]]
    cards += [card for pile in data["won"] for card in pile]
    return cards


def codes_pattern(cards: set[str]) -> re.Pattern[str]:
    """Card codes as JSON string tokens: ``"TH"`` matches, ``"THE"`` or ``TH`` alone do not."""
    return re.compile('"(?:' + "|".join(sorted(cards)) + ')"')


def permute_hidden(state: Any, seat: int | None, rng: random.Random) -> Any:
    """The state with the cards hidden from ``seat`` shuffled among the places it cannot see.

    The seed is left alone: future deals are not what the view is about.
    """
    data = state.to_dict()
    hidden = state.hidden_cards(seat)
    slots: list[tuple[list[Any], int]] = []
    for owner in (0, 1):
        for position in data["layout"][owner]:
            slots.extend((position, k) for k in (0, 1) if position[k] in hidden)
        hand = data["hands"][owner]
        slots.extend((hand, i) for i, card in enumerate(hand) if card in hidden)
    # A hidden card lives only in a face-down slot or a hand: never in a trick or a pile.
    assert len(slots) == len(hidden)
    cards = [holder[index] for holder, index in slots]
    rng.shuffle(cards)
    for (holder, index), card in zip(slots, cards, strict=True):
        holder[index] = card
    return GAME.from_dict(data)


def illegal_actions(state: Any, legal: list[dict[str, Any]], rng: random.Random) -> list[Any]:
    """Malformed actions, wrong types, and cards that are not playable now (the opponent's too)."""
    some_card = rng.choice(sorted(FULL_DECK))
    candidates: list[Any] = [
        None,
        "AS",
        5,
        ["play", "AS"],
        {},
        {"type": "play"},
        {"card": some_card},
        {"type": "play", "card": some_card, "seat": 0},
        {"type": "play", "card": 5},
        {"type": "play", "card": None},
        {"type": "play", "card": [some_card]},
        {"type": "play", "card": some_card.lower()},
        {"type": "play", "card": "X1"},
        {"type": "play", "card": "1S"},
        {"type": 7, "card": some_card},
        {"type": ["play"], "card": some_card},
        {"type": "bid", "tricks": 3},
        {"type": "trump", "suit": None},
        {"type": "trump", "suit": "h"},
        {"type": "trump", "suit": True},
        {"type": "trump", "suit": "H", "card": some_card},
        {"type": "declare", "contract": "Spel"},
        {"type": "declare", "contract": None},
        {"type": "declare", "contract": "spel", "suit": "H"},
        {"type": "trump", "suit": rng.choice("SHDC")},
        {"type": "declare", "contract": rng.choice(("spel", "pass"))},
    ]
    not_legal = sorted(FULL_DECK - {action["card"] for action in legal if "card" in action})
    candidates += [{"type": "play", "card": card} for card in rng.sample(not_legal, 6)]
    if state.to_act is not None:
        opponent = 1 - state.to_act
        theirs = [up for up, _ in state.layouts[opponent] if up] + list(state.hands[opponent])
        if theirs:
            candidates.append({"type": "play", "card": rng.choice(theirs)})
    if legal:
        candidates.append({**legal[0], "extra": True})
    return [action for action in candidates if action not in legal]


def check_state(state: Any, rng: random.Random) -> None:
    """Every invariant of the engine contract, for one state."""
    data = state.to_dict()
    text = json.dumps(data)
    assert sorted(deck_places(data)) == sorted(FULL_DECK)  # each card of the deal exactly once
    assert GAME.from_dict(json.loads(text)) == state

    legal = state.legal_actions()
    assert bool(legal) == (state.to_act is not None)
    assert (state.phase is Phase.MATCH_OVER) == state.is_over == (state.result is not None)
    if state.to_act is None:
        assert state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    for action in legal:
        state.apply(action)
    for action in illegal_actions(state, legal, rng):
        with pytest.raises(IllegalAction) as refused:
            state.apply(action)
        assert str(refused.value)
        assert state.to_dict() == data
    if legal:
        assert auto_action(state) in legal

    spectator_hidden = state.hidden_cards(None)
    public = {up for layout in state.layouts for up, _ in layout if up}
    public |= {play.card for play in state.trick} | set(state.won[0]) | set(state.won[1])
    for seat in SEATS:
        view = state.view(seat)
        dumped = json.dumps(view)
        assert json.loads(dumped) == view  # only JSON types: no tuples, sets or enums
        hidden = state.hidden_cards(seat)
        assert hidden <= spectator_hidden and not hidden & public
        if hidden:
            leak = codes_pattern(hidden).search(dumped)
            assert leak is None, f"seat {seat} sees {leak.group()}"
        assert '"seed"' not in dumped
        assert view["legal"] == (legal if seat is not None and seat == state.to_act else [])
        assert ("hand" in view) == (seat is not None)
        assert permute_hidden(state, seat, rng).view(seat) == view
    shown = set() if state.last_trick is None else {play.card for play in state.last_trick[0]}
    if state.hand_locked:  # JW-4; the last trick of the deal before may show the same codes
        for seat in (0, 1):
            assert set(state.hands[seat]) - shown <= state.hidden_cards(seat)


def play_match(state: Any, rng: random.Random) -> tuple[list[Any], list[dict[str, Any]]]:
    """Random legal moves until nobody is to act, checking every state.

    Returns every state passed through and the actions between them.
    """
    states, log = [state], []
    check_state(state, rng)
    for _ in range(MAX_STEPS):
        if state.to_act is None:
            return states, log
        action = rng.choice(state.legal_actions())
        log.append(action)
        state = state.apply(action)
        states.append(state)
        check_state(state, rng)
    raise AssertionError("the match did not end")


def assert_replays(start: Any, log: list[dict[str, Any]], states: list[Any]) -> None:
    """The same start and the same actions rebuild an equal state at every step."""
    replayed = start
    assert replayed == states[0]
    for action, expected in zip(log, states[1:], strict=True):
        replayed = replayed.apply(action)
        assert replayed == expected


# --- the properties -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=20, deadline=None)
@given(seed=seeds, target=points, moves=move_seeds)
def test_jw_random_matches_keep_every_invariant(
    game: str, seed: str | int, target: int, moves: int
) -> None:
    options = {"game": game, "points": target}
    states, log = play_match(GAME.new_match(options, seed), random.Random(moves))
    final = states[-1]
    assert final.is_over and max(final.scores) >= target  # JW-14
    assert final.result == [final.scores.index(max(final.scores))]
    for before, after in pairwise(states):  # JW-2: the deal alternates
        if after.hand_number != before.hand_number:
            assert after.hand_number == before.hand_number + 1
            assert after.dealer == 1 - before.dealer and after.to_act == before.dealer
    assert_replays(GAME.new_match(options, seed), log, states)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(
    order=st.permutations(full_deck()),
    dealer=st.sampled_from((0, 1)),
    target=points,
    scores=st.tuples(st.integers(0, 20), st.integers(0, 20)),
    moves=move_seeds,
)
def test_jw_explicit_deals_play_out_to_hand_over_or_match_over(
    game: str,
    order: list[str],
    dealer: int,
    target: int,
    scores: tuple[int, int],
    moves: int,
) -> None:
    deal = {
        "dealer": dealer,
        "layout": [
            [[order[20 + 10 * seat + i], order[10 * seat + i]] for i in range(10)]
            for seat in (0, 1)
        ],
        "hands": [order[40:46], order[46:52]],
        "scores": [min(score, target - 1) for score in scores],
    }
    options = {"game": game, "points": target}
    states, log = play_match(GAME.from_deal(deal, options), random.Random(moves))
    final = states[-1]
    assert sum(final.tricks) == 26
    expected = Phase.MATCH_OVER if max(final.scores) >= target else Phase.HAND_OVER
    assert final.phase is expected
    assert_replays(GAME.from_deal(deal, options), log, states)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=30, deadline=None)
@given(seed=seeds, steps=st.integers(0, 120), loser=st.sampled_from((0, 1)), moves=move_seeds)
def test_jw_forfeit_at_any_moment_ends_the_match_for_the_opponent(
    game: str, seed: str | int, steps: int, loser: int, moves: int
) -> None:
    rng = random.Random(moves)
    state = GAME.new_match({"game": game, "points": 5}, seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    over = state.forfeit(loser)
    assert over.phase is Phase.MATCH_OVER and over.result == [1 - loser]
    assert over.to_act is None and over.legal_actions() == []
    for seat in SEATS:
        assert over.view(seat)["forfeited"] == [loser]
        assert over.hidden_cards(seat) == state.hidden_cards(seat)
    check_state(over, rng)
    with pytest.raises(IllegalAction):
        over.forfeit(1 - loser)
