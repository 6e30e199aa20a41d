"""Classic Georgian Joker: properties of whole matches and single hands, under random play.

For every option set that changes play, hypothesis draws seeds and random legal moves, and at
every step checks the engine contract (rules/README.md § 0.3, § 0.4): the match ends, cards are
conserved, the legal list is complete and applies, anything else is refused without a change,
no view leaks a card its seat may not know (and no view changes when those cards are shuffled
among the places the seat cannot see), storage round-trips, a seed and its actions replay the
same match, and the turn-clock move is legal.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, Phase
from games.rules.automove import auto_action
from games.rules.cards import joker_deck
from games.rules.classic_joker import GAME, schedule

DECK = joker_deck()
SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)

OPTION_SETS = [
    pytest.param({}, id="defaults"),
    pytest.param({"pulkas": "nines"}, id="nines"),
    pytest.param({"khishti": -500, "moshla": False}, id="khishti-500-no-moshla"),
    pytest.param({"khishti": -900, "premia": False}, id="khishti-900-no-premia"),
    pytest.param({"strict_joker": True}, id="strict-joker"),
    pytest.param(
        {"pulkas": "nines", "strict_joker": True, "khishti": -900, "moshla": False},
        id="nines-strict-900-no-moshla",
    ),
]
MATCH_STEPS = 2000  # a whole match is about 700 actions; more means it does not end
SEED = st.one_of(st.integers(min_value=0, max_value=2**64), st.text(max_size=12))


# --------------------------------------------------------------------------- the checks


def canonical(action: Any) -> str:
    """Compare actions exactly: True, 1 and 1.0 are different actions on the wire."""
    return json.dumps(action, sort_keys=True)


def places(data: dict[str, Any]) -> list[str]:
    """Every card in the places of the stored state (module docstring of classic_joker)."""
    cards = [card for hand in data["hands"] for card in hand]
    if data["pending"] is not None:
        cards += [card for rest in data["pending"] for card in rest]
    cards += data["undealt"] + data["played"] + [play["card"] for play in data["trick"]]
    if data["trump_card"] is not None:
        cards.append(data["trump_card"])
    return cards


def illegal_candidates(state, rng: random.Random) -> list[Any]:
    """Actions that look plausible but are not in the legal list (filtered by the caller)."""
    n = state.cards
    some_cards = rng.sample(DECK, 6)
    candidates: list[Any] = [
        None,
        "play",
        ["play", "7D"],
        3,
        {},
        {"type": "play"},
        {"type": "pass"},
        {"type": None},
        {"type": "play", "card": "6S"},
        {"type": "play", "card": ["7D"]},
        {"type": "bid", "tricks": -1},
        {"type": "bid", "tricks": n + 1},
        {"type": "bid", "tricks": "1"},
        {"type": "bid", "tricks": True},
        {"type": "bid", "tricks": 1.0},
        {"type": "bid"},
        {"type": "trump", "suit": "X"},
        {"type": "trump", "suit": "h"},
        {"type": "trump", "suit": 1},
        {"type": "trump"},
    ]
    candidates += [{"type": "bid", "tricks": bid} for bid in range(n + 1)]
    candidates += [{"type": "play", "card": card} for card in some_cards]
    candidates += [{"type": "play", "card": card.lower()} for card in some_cards[:2]]
    for joker in ("X1", "X2"):
        candidates += [
            {"type": "play", "card": joker},
            {"type": "play", "card": joker, "call": "high"},
            {"type": "play", "card": joker, "call": "low"},
            {"type": "play", "card": joker, "call": "want", "suit": rng.choice("SHDC")},
            {"type": "play", "card": joker, "call": "take", "suit": rng.choice("SHDC")},
            {"type": "play", "card": joker, "call": "high", "suit": "H"},
            {"type": "play", "card": joker, "call": "want", "suit": None},
        ]
    legal = state.legal_actions()
    if legal:
        extra = dict(rng.choice(legal))
        extra["seat"] = state.to_act
        candidates.append(extra)
    return candidates


CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X[12])\b")  # a card code as a whole word


def refused(state, action: Any) -> str:
    """The message of the IllegalAction that ``action`` must raise."""
    try:
        state.apply(action)
    except IllegalAction as error:
        return str(error)
    raise AssertionError(f"{action!r} was accepted but is not in the legal list")


def permute_hidden(state, seat: int | None, rng: random.Random):
    """The same state with the cards hidden from ``seat`` shuffled among their places."""
    data = state.to_dict()
    hidden = state.hidden_cards(seat)
    slots: list[tuple[list[str], int]] = []
    containers = [hand for other, hand in enumerate(data["hands"]) if other != seat]
    containers += data["pending"] or []
    containers.append(data["undealt"])
    for container in containers:
        slots += [(container, i) for i, card in enumerate(container) if card in hidden]
    assert {container[i] for container, i in slots} == hidden  # every hidden card has a place
    cards = [container[i] for container, i in slots]
    rng.shuffle(cards)
    for (container, i), card in zip(slots, cards, strict=True):
        container[i] = card
    return GAME.from_dict(data)


def check_state(state, rng: random.Random, *, full: bool = True) -> None:
    """The contract at one moment of play.

    ``full``: every legal action is applied, every candidate illegal action is tried, and every
    seat's view is scanned and checked against shuffled hidden cards; otherwise a sample of each
    (one viewer, a few illegal actions), which keeps whole-match runs affordable.
    """
    data = state.to_dict()
    dumped = json.dumps(data)
    assert GAME.from_dict(json.loads(dumped)) == state
    assert sorted(places(data)) == sorted(DECK)

    legal = state.legal_actions()
    assert bool(legal) == (state.to_act is not None)
    assert (state.to_act is None) == (state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER))
    assert state.is_over == (state.result is not None)
    legal_keys = {canonical(action) for action in legal}
    assert len(legal_keys) == len(legal)
    if legal:
        auto = auto_action(state)
        assert canonical(auto) in legal_keys
        for action in legal if full else [auto, rng.choice(legal)]:
            state.apply(action)
    candidates = illegal_candidates(state, rng)
    for action in candidates if full else rng.sample(candidates, 8):
        if canonical(action) not in legal_keys:
            assert refused(state, action)
    assert state.to_dict() == data  # refused actions (and applied ones) changed nothing

    for seat in SEATS if full else [rng.choice(SEATS)]:
        view = state.view(seat)
        text = json.dumps(view)
        hidden = state.hidden_cards(seat)
        leaked = hidden.intersection(CARD_TOKEN.findall(text))
        assert not leaked, f"seat {seat} sees {leaked}"
        assert ("hand" in view) == (seat is not None)
        assert view["legal"] == (legal if seat is not None and seat == state.to_act else [])
        if state.phase is Phase.TRUMP:
            assert "trump" not in view  # not known yet (README § 0.3)
        assert "seed" not in view and "undealt" not in view
        if full:
            assert permute_hidden(state, seat, rng).view(seat) == view


def run(state, rng: random.Random, *, full_every: int, max_steps: int, forfeits: bool = False):
    """Random legal play until nobody is to act; returns (final state, action log)."""
    log: list[tuple[str, Any]] = []
    for step in range(max_steps):
        check_state(state, rng, full=step % full_every == 0)
        if state.to_act is None:
            return state, log
        if forfeits and rng.random() < 0.002:
            seat = rng.randrange(4)
            log.append(("forfeit", seat))
            state = state.forfeit(seat)
            continue
        action = rng.choice(state.legal_actions())
        log.append(("act", action))
        state = state.apply(action)
    raise AssertionError(f"no end after {max_steps} actions")


def replay(options: dict[str, Any], seed: Any, log: list[tuple[str, Any]]):
    state = GAME.new_match(options, seed)
    for kind, value in log:
        state = state.forfeit(value) if kind == "forfeit" else state.apply(value)
    return state


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("options", OPTION_SETS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEED, moves=st.integers())
def test_whole_matches_keep_the_contract(options: dict[str, Any], seed: Any, moves: int) -> None:
    rng = random.Random(moves)
    start = GAME.new_match(options, seed)
    final, log = run(start, rng, full_every=10, max_steps=MATCH_STEPS, forfeits=True)
    assert final.is_over and final.phase is Phase.MATCH_OVER
    assert replay(options, seed, log) == final
    assert GAME.new_match(options, seed) == start
    if len(final.forfeited) < 4:
        assert len(final.history) == len(schedule(options))
        assert [row[1] for row in final.history] == [n for n, _ in schedule(options)]
    view = final.view(None)
    assert view["result"] == final.result and len(view["ranking"]) == 4
    stayed = [s for s in range(4) if s not in final.forfeited] or list(range(4))
    best = max(final.scores[s] for s in stayed)
    assert sorted(final.result) == [s for s in stayed if final.scores[s] == best]


# --------------------------------------------------------------------------- single hands


@st.composite
def explicit_deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random legal ``from_deal`` input for a random option set and deal number."""
    options = draw(st.sampled_from([param.values[0] for param in OPTION_SETS]))
    sched = schedule(options)
    number = draw(st.integers(min_value=1, max_value=len(sched)))
    n = sched[number - 1][0]
    deck = draw(st.permutations(DECK))
    deal: dict[str, Any] = {
        "dealer": draw(st.integers(min_value=0, max_value=3)),
        "deal": number,
        "hands": [list(deck[seat * n : (seat + 1) * n]) for seat in range(4)],
        "scores": draw(st.lists(st.integers(-3000, 3000), min_size=4, max_size=4)),
    }
    if n < 9:
        deal["trump_card"] = deck[4 * n]
    return deal, options


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=explicit_deals(), moves=st.integers())
def test_explicit_hands_keep_the_contract_at_every_step(case: tuple, moves: int) -> None:
    deal, options = case
    rng = random.Random(moves)
    state = GAME.from_deal(deal, options)
    final, _ = run(state, rng, full_every=1, max_steps=200)
    last = len(schedule(options)) == deal["deal"]
    assert final.phase is (Phase.MATCH_OVER if last else Phase.HAND_OVER)
    assert sum(final.tricks) == len(deal["hands"][0])
    assert sorted(final.played) == sorted(card for hand in deal["hands"] for card in hand)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEED, moves=st.integers())
def test_the_first_deals_of_a_match_keep_the_contract_at_every_step(seed: Any, moves: int) -> None:
    rng = random.Random(moves)
    state = GAME.new_match({"pulkas": "nines"} if moves % 2 else {}, seed)
    steps = 0
    while state.deal_number <= 3 and steps < 400:
        check_state(state, rng, full=True)
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert state.deal_number == 4
