"""Whole random matches of Japanese Joker, for every points option (JJ-23), checked at every step.

The properties are the engine contract (rules/README.md § 0.3, § 0.4 and the Information table
of shared/rules/japanese_joker.md): matches end, cards are conserved, exactly the listed actions
apply, nothing a seat may not see reaches its view, storage round-trips and seeds replay.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, Phase
from games.rules.automove import auto_action
from games.rules.japanese_joker import DECK, GAME, State

POINTS = (11, 15, 21, 31)
MAX_HANDS = 150  # a hand is 37 actions; 9-9 draws score nothing, so allow plenty
MAX_STEPS = MAX_HANDS * 37
FULL_EXAMPLES = 15  # whole matches checked at every step, per points option
CARD_TOKEN = re.compile(r'"([6-9TJQKA][SHDC]|X[12])"')

seeds = st.one_of(st.integers(min_value=0, max_value=2**63), st.text(max_size=12))
move_seeds = st.integers(min_value=0, max_value=2**32)

MALFORMED: list[Any] = [
    None,
    "QH",
    7,
    ["play", "QH"],
    {},
    {"type": "play"},
    {"type": "play", "card": 5},
    {"type": "play", "card": ["QH"]},
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "6S"},
    {"type": "play", "card": "QH", "extra": 1},
    {"type": "play", "card": "QH", "seat": 0},
    {"type": "play", "card": "QH", "call": "want", "suit": "H"},
    {"type": "play", "card": "X1", "call": "take", "suit": "H"},
    {"type": "play", "card": "X2", "call": "high"},
    {"type": "play", "card": "X1", "call": "want", "suit": None},
    {"type": "play", "card": "X2", "call": "want", "suit": ["H"]},
    {"type": "play", "card": "X1", "call": "want", "suit": "H", "x": 1},
    {"type": "trump", "suit": "X"},
    {"type": "trump", "suit": ["H"]},
    {"type": "trump", "suit": "H", "card": "QH"},
    {"type": "trump"},
    {"type": "bid", "tricks": 2},
    {"type": None},
    {"type": ["play"], "card": "QH"},
    {"card": "QH"},
]


def candidate_actions() -> list[Any]:
    """Every play and trump action there could be, plus malformed ones."""
    actions: list[Any] = [{"type": "play", "card": card} for card in DECK]
    actions += [
        {"type": "play", "card": joker, "call": "want", "suit": suit}
        for joker in ("X1", "X2")
        for suit in "SHDC"
    ]
    actions += [{"type": "trump", "suit": suit} for suit in ("S", "H", "D", "C", None)]
    return actions + MALFORMED


CANDIDATES = candidate_actions()


def deck_places(data: dict[str, Any]) -> list[str]:
    """The cards where the deal puts them: hands, columns, undealt, the trick and the played pile.

    ``last_trick`` and ``previous_hand`` are history (they may name cards of the previous deal).
    """
    cards = [c for hand in data["hands"] for c in hand]
    cards += [c for columns in data["columns"] for slot in columns if slot for c in slot]
    cards += data["undealt"] + [play["card"] for play in data["trick"]] + data["played"]
    return cards


def permute_hidden(data: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """Shuffle the cards among every place ``seat`` cannot see; the seed is left alone."""
    data = copy.deepcopy(data)
    places: list[tuple[list[Any], int]] = []
    for owner in (0, 1):
        if owner != seat:
            known = set(data["known_in_hand"][owner])
            hand = data["hands"][owner]
            places += [(hand, i) for i, card in enumerate(hand) if card not in known]
        places += [(slot, 1) for slot in data["columns"][owner] if slot is not None]
    places += [(data["undealt"], i) for i in range(len(data["undealt"]))]
    cards = [where[i] for where, i in places]
    rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    return data


def assert_json_ready(value: Any) -> None:
    """Only str, int, bool, None, list and dict (string keys) may leave the engine."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str
            assert_json_ready(item)
    elif isinstance(value, list):
        for item in value:
            assert_json_ready(item)
    else:
        assert value is None or type(value) in (str, int, bool), repr(value)


def check_step(state: State, rng: random.Random) -> None:
    """Every contract property at one moment of a match."""
    data = state.to_dict()
    # Cards are conserved: the deck, each card exactly once.
    assert sorted(deck_places(data)) == sorted(DECK)
    # JJ-8: never a single column standing.
    for columns in data["columns"]:
        assert sum(slot is not None for slot in columns) in (0, 2, 3, 4, 5)
    # Storage round-trips, through JSON too.
    assert GAME.from_dict(data) == state
    assert GAME.from_dict(json.loads(json.dumps(data))) == state

    legal = state.legal_actions()
    assert bool(legal) == (state.to_act is not None)
    assert (state.to_act is None) == (state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER))
    for action in legal:
        assert isinstance(state.apply(action), State)
    if legal:
        assert auto_action(state) in legal
    for action in CANDIDATES:
        if action not in legal:
            try:
                state.apply(action)
            except IllegalAction as error:
                assert str(error)
            else:
                raise AssertionError(f"{action!r} was accepted but is not legal")
    assert state.to_dict() == data  # nothing above changed the state

    for seat in (0, 1, None):
        view = state.view(seat)
        assert_json_ready(view)
        text = json.dumps(view)
        hidden = state.hidden_cards(seat)
        leaked = set(CARD_TOKEN.findall(text)) & hidden
        assert not leaked, (seat, leaked)
        assert ("hand" in view) == (seat is not None)
        assert view["legal"] == (legal if seat is not None and seat == state.to_act else [])
        assert view["hand_counts"] == [len(hand) for hand in data["hands"]]
        permuted = GAME.from_dict(permute_hidden(data, seat, rng))
        assert permuted.view(seat) == view
        assert permuted.hidden_cards(seat) == hidden


def random_match(points: int, seed: Any, move_seed: int, check: bool) -> tuple[State, list]:
    """Play a match with random legal actions; return the end state and the actions."""
    rng = random.Random(move_seed)
    state = GAME.new_match({"points": points}, seed)
    actions: list[dict[str, Any]] = []
    for _ in range(MAX_STEPS):
        if check:
            check_step(state, rng)
        if state.is_over:
            return state, actions
        hand_number = state.hand_number
        action = rng.choice(state.legal_actions())
        after = state.apply(action)
        actions.append(action)
        if not check:
            data = after.to_dict()
            assert sorted(deck_places(data)) == sorted(DECK)
            assert GAME.from_dict(data) == after
            if after.to_act is not None:
                assert auto_action(after) in after.legal_actions()
        assert after.hand_number in (hand_number, hand_number + 1)
        state = after
    raise AssertionError(f"the match did not end within {MAX_STEPS} actions")


def assert_replays(points: int, seed: Any, actions: list[dict[str, Any]], end: State) -> None:
    """README § 0.4: the seed and the actions rebuild the match exactly."""
    state = GAME.new_match({"points": points}, seed)
    for action in actions:
        state = state.apply(action)
    assert state == end
    assert end.is_over and end.result is not None and len(end.result) == 1
    winner = end.result[0]
    assert end.scores[winner] >= points > end.scores[1 - winner]  # JJ-23


def _full_checks_for(points: int) -> None:
    @settings(max_examples=FULL_EXAMPLES, deadline=None)
    @given(seed=seeds, move_seed=move_seeds)
    def run(seed: Any, move_seed: int) -> None:
        end, actions = random_match(points, seed, move_seed, check=True)
        assert_replays(points, seed, actions, end)

    run()


def test_full_checks_points_11() -> None:
    _full_checks_for(11)


def test_full_checks_points_15() -> None:
    _full_checks_for(15)


def test_full_checks_points_21() -> None:
    _full_checks_for(21)


def test_full_checks_points_31() -> None:
    _full_checks_for(31)


@settings(max_examples=150, deadline=None)
@given(points=st.sampled_from(POINTS), seed=seeds, move_seed=move_seeds)
def test_many_random_matches_end_conserve_cards_and_replay(
    points: int, seed: Any, move_seed: int
) -> None:
    """The cheaper properties over many more matches."""
    end, actions = random_match(points, seed, move_seed, check=False)
    assert_replays(points, seed, actions, end)


@settings(max_examples=100, deadline=None)
@given(
    points=st.sampled_from(POINTS),
    seed=seeds,
    move_seed=move_seeds,
    steps=st.integers(min_value=0, max_value=200),
    leaver=st.sampled_from((0, 1)),
)
def test_forfeit_at_any_moment_ends_the_match_for_the_other_seat(
    points: int, seed: Any, move_seed: int, steps: int, leaver: int
) -> None:
    """JJ-24: whenever a seat forfeits, the match is over and the other seat has won."""
    rng = random.Random(move_seed)
    state = GAME.new_match({"points": points}, seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    over = state.forfeit(leaver)
    assert over.phase is Phase.MATCH_OVER and over.to_act is None
    assert over.result == [1 - leaver] and over.legal_actions() == []
    assert over.scores == state.scores
    check_step(over, rng)
    for seat in (0, 1, None):
        assert over.view(seat)["forfeited"] == [leaver]
