"""Computer players choose from the seat's view only, play only legal actions and finish matches.

The swapped-deal test is the proof that a bot reads nothing hidden: every card the seat may not
place is moved to another hidden place, the seat's view stays byte for byte the same, and the
bot plays the same move. The property runs play whole matches of each game and option set.
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import bots
from games.bots import easy, strong, worlds
from games.rules import get_game

GAMES = ("japanese_joker", "classic_joker", "japanese_whist")
# Each game at its default options, and classic Joker at two and three seats (CJ-29: the cards
# nobody was dealt are hidden from the bots too).
MOMENTS = [
    *((game, None) for game in GAMES),
    ("classic_joker", {"seats": 2}),
    ("classic_joker", {"seats": 3, "pulkas": "short"}),
]
# Few worlds and no clock: the same seed gives the same choice, and runs stay short.
STRONG = partial(strong.choose, budget=None, max_worlds=3)
KINDS = {"random": bots.random_choice, "easy": easy.choose, "strong": STRONG}


def advance(state: Any, moves: int, rng: random.Random) -> Any:
    """``state`` after up to ``moves`` easy moves (never past the end of the match)."""
    for _ in range(moves):
        if state.to_act is None:
            break
        state = state.apply(easy.choose(state.view(state.to_act)))
    return state


def swap_hidden(state: Any, seat: int, rng: random.Random) -> Any:
    """The same moment with every card ``seat`` cannot place moved to another hidden place."""
    hidden = sorted(state.hidden_cards(seat))
    moved = hidden[:]
    while len(hidden) > 1 and moved == hidden:
        rng.shuffle(moved)
    mapping = dict(zip(hidden, moved, strict=True))

    def remap(value: Any) -> Any:
        if isinstance(value, str):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [remap(item) for item in value]
        if isinstance(value, dict):
            return {key: remap(item) for key, item in value.items()}
        return value

    record = state.to_dict()
    return get_game(record["game"]).from_dict(remap(record))


@pytest.mark.parametrize(("game", "options"), MOMENTS)
@pytest.mark.parametrize("kind", ["easy", "strong"])
def test_a_bot_plays_the_same_move_when_every_hidden_card_is_dealt_differently(
    game: str, options: dict[str, Any] | None, kind: str
) -> None:
    rng = random.Random(f"swap:{game}")
    checked = 0
    for seed in range(4):
        state = get_game(game).new_match(options, seed)
        for moves in (0, 3, 11, 20):
            moment = advance(state, moves, rng)
            seat = moment.to_act
            if seat is None or len(moment.legal_actions()) < 2:
                continue
            other = swap_hidden(moment, seat, rng)
            assert other.to_dict() != moment.to_dict()  # the hidden cards really moved
            assert other.hidden_cards(seat) == moment.hidden_cards(seat)
            view = moment.view(seat)
            assert json.dumps(other.view(seat)) == json.dumps(view)
            first = KINDS[kind](view, random.Random(7))
            second = KINDS[kind](other.view(seat), random.Random(7))
            assert first == second
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize(("game", "options"), MOMENTS)
def test_a_sampled_world_shows_the_seat_exactly_its_view(
    game: str, options: dict[str, Any] | None
) -> None:
    rng = random.Random(game)
    for seed in range(3):
        state = get_game(game).new_match(options, seed)
        while not state.is_over and state.hand_number < 3:
            seat = state.to_act
            view = state.view(seat)
            world = worlds.sample(view, rng)
            shown = world.view(seat)
            for key in ("hand", "trick", "tricks", "hand_counts", "hand_tricks", "phase", "trump"):
                assert shown.get(key) == view.get(key), key
            assert sorted(map(json.dumps, shown["legal"])) == sorted(map(json.dumps, view["legal"]))
            state = state.apply(easy.choose(view))


def test_a_sampled_world_respects_a_shown_void() -> None:
    """A classic Joker seat that did not follow hearts gets no heart in any sampled world."""
    game = get_game("classic_joker")
    rng = random.Random(3)
    for seed in range(40):
        state = game.new_match({"pulkas": "nines"}, seed)
        while not state.is_over and state.hand_number == 1:
            view = state.view(state.to_act)
            voids = worlds.shown_voids(
                [t["plays"] for t in view["hand_tricks"]] + [view["trick"]],
                view.get("trump"),
                must_trump=True,
            )
            others = {s: v for s, v in voids.items() if s != view["seat"]}
            if others:
                for _ in range(5):
                    world = worlds.sample(view, rng)
                    for seat, suits in others.items():
                        held = {c[1] for c in world.hands[seat] if c[0] != "X"}
                        assert not held & suits
                return
            state = state.apply(easy.choose(view))
    pytest.fail("no void was shown in 40 deals")


def test_the_strong_bot_is_deterministic_for_a_seed() -> None:
    state = advance(get_game("japanese_joker").new_match(None, 11), 5, random.Random(0))
    view = state.view(state.to_act)
    choices = {json.dumps(STRONG(view, random.Random(42))) for _ in range(3)}
    assert len(choices) == 1


OPTIONS = {
    "japanese_joker": st.fixed_dictionaries({"points": st.sampled_from([11, 15, 21, 31])}),
    "japanese_whist": st.fixed_dictionaries(
        {"variant": st.sampled_from(["trumps", "spel_pass"]), "points": st.sampled_from([5, 7])}
    ),
    "classic_joker": st.fixed_dictionaries(
        {
            "seats": st.sampled_from([2, 3, 4]),
            "pulkas": st.sampled_from(["standard", "nines", "short"]),
            "khishti": st.sampled_from([-200, -500, -900, 0]),
            "premia": st.booleans(),
            "moshla": st.booleans(),
            "strict_joker": st.booleans(),
        }
    ),
}


def play_whole_match(game: str, options: dict[str, Any], kinds: list[str], seed: int) -> Any:
    state = get_game(game).new_match(options, seed)
    rng = random.Random(seed)
    while not state.is_over:
        view = state.view(state.to_act)
        action = KINDS[kinds[state.to_act]](view, rng)
        assert action in view["legal"]
        state = state.apply(action)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_bot_plays_only_legal_actions_to_the_end_of_a_match(game: str, data: Any) -> None:
    options = data.draw(OPTIONS[game])
    players = get_game(game).seat_count(options)
    kinds = data.draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=players, max_size=players))
    final = play_whole_match(game, options, kinds, data.draw(st.integers(0, 10**6)))
    assert final.result
