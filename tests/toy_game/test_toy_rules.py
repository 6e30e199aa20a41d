"""Toy Tricks' rules (RULES.md beside this file), and the engine contract of every game.

The contract suite of the built-in games (tests/games/rules/test_contract.py) is reused as it is:
the toy game is one more ``GameSpec`` of that suite, kept here, in its own folder.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, InvalidDeal, Phase, game_spec, get_game
from games.rules.tricks import Play
from tests.games.rules.test_contract import SEEDS, SLOW, assert_replays, play_out
from tests.games.rules.test_contract import GameSpec as ContractSpec

from .engine import DECK, GAME, NAME, trick_winner


def _places(data: dict[str, Any]) -> list[str]:
    cards = [card for hand in data["hands"] for card in hand] + data["undealt"]
    return cards + [play["card"] for play in data["trick"]] + data["played"]


def _hidden_slots(data: dict[str, Any], seat: int | None, hidden: set[str]) -> list:
    containers = [hand for owner, hand in enumerate(data["hands"]) if owner != seat]
    containers.append(data["undealt"])
    return [(c, i) for c in containers for i, card in enumerate(c) if card in hidden]


def _deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    deck = draw(st.permutations(DECK))
    points = draw(st.sampled_from((3, 5)))
    scores = draw(st.lists(st.integers(0, points - 1), min_size=2, max_size=2))
    deal = {"leader": draw(st.sampled_from((0, 1))), "hands": [deck[0:3], deck[3:6]]}
    return {**deal, "scores": scores}, {"points": points}


def _match_end(options: dict[str, Any], final: Any) -> None:
    if final.forfeited:
        return
    [winner] = final.result
    assert final.scores[winner] == options.get("points", 5) > final.scores[1 - winner]  # TT-6


def _hand_end(deal: dict[str, Any], options: dict[str, Any], final: Any) -> None:
    reached = max(final.scores) >= options["points"]
    assert final.phase is (Phase.MATCH_OVER if reached else Phase.HAND_OVER)


SPEC = ContractSpec(
    NAME,
    frozenset(DECK),
    [{}, {"points": 3}],
    _places,
    _hidden_slots,
    _deals,
    _match_end,
    _hand_end,
    forfeit_rate=0.01,
    max_steps=200,
)


# --- the rules ----------------------------------------------------------------------------------


def test_tt_1_tt_2_three_cards_each_from_a_twelve_card_deck_six_unseen():
    state = GAME.new_match(None, "deal")
    data = state.to_dict()
    assert sorted(DECK) == sorted(data["hands"][0] + data["hands"][1] + data["undealt"])
    assert [len(hand) for hand in data["hands"]] == [3, 3] and len(set(DECK)) == 12
    assert state.hidden_cards(0) == set(data["hands"][1]) | set(data["undealt"])


def test_tt_3_the_first_lead_alternates_from_hand_to_hand():
    state = GAME.new_match({"points": 5}, 7)
    first = state.to_act
    rng = random.Random(1)
    while state.hand_number == 1 and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    if not state.is_over:
        assert state.to_act == 1 - first


DEAL = {"leader": 0, "hands": [["AS", "9H", "QS"], ["KH", "TS", "JH"]], "scores": [0, 0]}


def test_tt_4_the_follower_follows_suit_if_able():
    state = GAME.from_deal(DEAL)
    state = state.apply({"type": "play", "card": "QS"})
    assert state.legal_actions() == [{"type": "play", "card": "TS"}]
    with pytest.raises(IllegalAction, match="You must follow suit"):
        state.apply({"type": "play", "card": "KH"})


def test_tt_5_the_highest_card_of_the_led_suit_takes_the_trick_and_leads():
    state = GAME.from_deal(DEAL)
    state = state.apply({"type": "play", "card": "9H"}).apply({"type": "play", "card": "JH"})
    assert state.tricks == (0, 1) and state.to_act == 1
    assert trick_winner([Play(1, "TS"), Play(0, "AH")], None) == 1  # no trumps


def test_tt_6_the_first_seat_to_the_target_wins_at_once():
    state = GAME.from_deal(
        {"leader": 0, "hands": [["AS", "AH", "QS"], ["KH", "TS", "JH"]], "scores": [2, 0]},
        {"points": 3},
    )
    state = state.apply({"type": "play", "card": "AS"}).apply({"type": "play", "card": "TS"})
    assert state.is_over and state.result == [0] and state.scores == [3, 0]


def test_tt_7_a_forfeit_ends_the_match_for_the_other_seat():
    state = GAME.new_match(None, 3).forfeit(1)
    assert state.is_over and state.result == [0] and state.view(None)["forfeited"] == [1]


def test_a_malformed_deal_is_refused():
    with pytest.raises(InvalidDeal, match="more than once"):
        GAME.from_deal({**DEAL, "hands": [["AS", "AS", "QS"], ["KH", "TS", "JH"]]})


def test_the_spec_is_the_registrys_and_names_the_engine():
    spec = game_spec(NAME)
    assert spec.engine is GAME and get_game(NAME) is GAME and spec.seats == 2
    assert [option.name for option in spec.options] == ["points"]


# --- the contract, as every game keeps it -------------------------------------------------------


@settings(max_examples=20, deadline=None, suppress_health_check=SLOW)
@given(seed=SEEDS, moves=st.integers(0, 2**32))
def test_whole_matches_keep_the_contract(seed: Any, moves: int) -> None:
    options = SPEC.option_sets[moves % 2]
    start = GAME.new_match(options, seed)
    states, log = play_out(SPEC, start, random.Random(moves), forfeits=True)
    assert states[-1].is_over
    SPEC.match_end(options, states[-1])
    assert_replays(start, log, states)


@settings(max_examples=20, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), moves=st.integers(0, 2**32))
def test_explicit_hands_keep_the_contract(data: st.DataObject, moves: int) -> None:
    deal, options = data.draw(st.composite(_deals)())
    states, log = play_out(SPEC, GAME.from_deal(deal, options), random.Random(moves))
    SPEC.hand_end(deal, options, states[-1])
    assert_replays(GAME.from_deal(deal, options), log, states)
