"""The engine contract, checked over whole random matches of every game.

docs/rules/README.md § 0.3, § 0.4, § 0.6 and each game's Information table: for every option set
that changes play, hypothesis draws match seeds, explicit deals and the ``random.Random`` that
picks the moves, and at every step (classic Joker: every tenth step in full, a sample between)
the same properties must hold for every game:

- the cards of the deal are all there, each once; storage round-trips, through JSON too;
- somebody is to act exactly when there are legal actions; the legal actions are distinct and
  all apply; the turn-clock move is one of them; anything else, however malformed, is refused
  with a readable IllegalAction and changes nothing (``apply`` is total: a hypothesis test feeds
  it arbitrary JSON);
- every view is JSON, has the keys every game shares (``contract.View``), names no card its
  seat may not know, and does not change when those cards are shuffled among the places the
  seat cannot see;
- a seed and its actions replay the same match, state for state; matches end as the rules say.

What only one game has (columns, layouts, the score sheet) is checked by its ``GameSpec``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, Phase, RulesError, View, get_game
from games.rules.automove import auto_action
from games.rules.cards import FULL_DECK, JOKER_DECK, full_deck, joker_deck
from games.rules.classic_joker import schedule

CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X[12])\b")  # a card code as a whole word
SEEDS = st.one_of(st.integers(min_value=0, max_value=2**64), st.text(max_size=12))
MOVES = st.integers(min_value=0, max_value=2**32)
SLOW = [HealthCheck.too_slow]


def canonical(action: Any) -> str:
    """Compare actions exactly: True, 1 and 1.0 are different actions on the wire."""
    if isinstance(action, dict):
        return repr(sorted(action.items()))
    return repr(action)


def seats_of(state: Any) -> tuple[int | None, ...]:
    """Every seat of the state's table, then a spectator (None)."""
    return (*range(state.view(None)["players"]), None)


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


# --------------------------------------------------------------------------- the games


def _jj_places(data: dict[str, Any]) -> list[str]:
    """Hands, columns, undealt, the trick and the played pile (``last_trick`` is history)."""
    cards = [c for hand in data["hands"] for c in hand]
    cards += [c for columns in data["columns"] for slot in columns if slot for c in slot]
    return cards + data["undealt"] + [play["card"] for play in data["trick"]] + data["played"]


def _jj_hidden_slots(data: dict[str, Any], seat: int | None, hidden: set[str]) -> list:
    slots: list[tuple[list[Any], int]] = []
    for owner in (0, 1):
        if owner != seat:
            known = set(data["known_in_hand"][owner])
            hand = data["hands"][owner]
            slots += [(hand, i) for i, card in enumerate(hand) if card not in known]
        slots += [(slot, 1) for slot in data["columns"][owner] if slot is not None]
    return slots + [(data["undealt"], i) for i in range(len(data["undealt"]))]


def _jj_more(state: Any, data: dict[str, Any]) -> None:
    for columns in data["columns"]:  # JJ-8: never a single column standing
        assert sum(slot is not None for slot in columns) in (0, 2, 3, 4, 5)


def _jj_deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    deck = draw(st.permutations(joker_deck()))
    points = draw(st.sampled_from((11, 15, 21, 31)))
    deal = {
        "declarer": draw(st.sampled_from((0, 1))),
        "hands": [deck[0:8], deck[8:16]],
        "columns": [
            [deck[16 + 10 * seat + 2 * i : 18 + 10 * seat + 2 * i] for i in range(5)]
            for seat in (0, 1)
        ],
        "scores": draw(st.lists(st.integers(0, points - 1), min_size=2, max_size=2)),
    }
    return deal, {"points": points}


def _jj_end(options: dict[str, Any], final: Any) -> None:
    if final.forfeited:
        return
    points = options.get("points", 21)
    assert final.result is not None and len(final.result) == 1
    winner = final.result[0]
    assert final.scores[winner] >= points > final.scores[1 - winner]  # JJ-23


def _jj_step(before: Any, after: Any) -> None:
    assert after.hand_number in (before.hand_number, before.hand_number + 1)


def _cj_places(data: dict[str, Any]) -> list[str]:
    """The places of the module docstring of classic_joker."""
    cards = [card for hand in data["hands"] for card in hand]
    if data["pending"] is not None:
        cards += [card for rest in data["pending"] for card in rest]
    cards += data["undealt"] + data["played"] + [play["card"] for play in data["trick"]]
    if data["trump_card"] is not None:
        cards.append(data["trump_card"])
    return cards


def _cj_hidden_slots(data: dict[str, Any], seat: int | None, hidden: set[str]) -> list:
    containers = [hand for other, hand in enumerate(data["hands"]) if other != seat]
    containers += data["pending"] or []
    containers.append(data["undealt"])
    return [(c, i) for c in containers for i, card in enumerate(c) if card in hidden]


def _cj_more(state: Any, data: dict[str, Any]) -> None:
    seats = state.options.seats
    dealt = seats * state.cards + (state.trump_card is not None)
    assert len(data["undealt"]) == len(JOKER_DECK) - dealt  # CJ-29: the rest stays down
    for seat in seats_of(state):
        view = state.view(seat)
        if state.phase is Phase.TRUMP:
            assert "trump" not in view  # not known yet (docs/rules/README.md § 0.3)
        assert "undealt" not in view
        assert len(view["bids"]) == len(view["scores"]) == len(view["hand_counts"]) == seats


def _cj_deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random legal ``from_deal`` input for a random option set and deal number."""
    options = draw(st.sampled_from(CJ_OPTION_SETS))
    sched = schedule(options)
    number = draw(st.integers(min_value=1, max_value=len(sched)))
    n = sched[number - 1][0]
    seats = options.get("seats", 4)
    deck = draw(st.permutations(joker_deck()))
    deal: dict[str, Any] = {
        "dealer": draw(st.integers(min_value=0, max_value=seats - 1)),
        "deal": number,
        "hands": [list(deck[seat * n : (seat + 1) * n]) for seat in range(seats)],
        "scores": draw(st.lists(st.integers(-3000, 3000), min_size=seats, max_size=seats)),
    }
    if n < 9:
        deal["trump_card"] = deck[seats * n]
    return deal, options


def _cj_end(options: dict[str, Any], final: Any) -> None:
    seats = options.get("seats", 4)
    if len(final.forfeited) < seats:
        assert len(final.history) == len(schedule(options))
        assert [row[1] for row in final.history] == [n for n, _ in schedule(options)]
    view = final.view(None)
    assert view["result"] == final.result and len(view["ranking"]) == seats
    stayed = [s for s in range(seats) if s not in final.forfeited] or list(range(seats))
    best = max(final.scores[s] for s in stayed)
    assert sorted(final.result) == [s for s in stayed if final.scores[s] == best]  # CJ-26


def _cj_hand_end(deal: dict[str, Any], options: dict[str, Any], final: Any) -> None:
    last = len(schedule(options)) == deal["deal"]
    assert final.phase is (Phase.MATCH_OVER if last else Phase.HAND_OVER)
    assert sum(final.tricks) == len(deal["hands"][0])
    assert sorted(final.played) == sorted(card for hand in deal["hands"] for card in hand)


def _jw_places(data: dict[str, Any]) -> list[str]:
    """Layout, hands, the trick and the won piles: every card of the deal."""
    cards = [card for layout in data["layout"] for pos in layout for card in pos if card]
    cards += [card for hand in data["hands"] for card in hand]
    cards += [play["card"] for play in data["trick"]]
    return cards + [card for pile in data["won"] for card in pile]


def _jw_hidden_slots(data: dict[str, Any], seat: int | None, hidden: set[str]) -> list:
    slots: list[tuple[list[Any], int]] = []
    for owner in (0, 1):
        for position in data["layout"][owner]:
            slots.extend((position, k) for k in (0, 1) if position[k] in hidden)
        hand = data["hands"][owner]
        slots.extend((hand, i) for i, card in enumerate(hand) if card in hidden)
    return slots


def _jw_more(state: Any, data: dict[str, Any]) -> None:
    spectator_hidden = state.hidden_cards(None)
    public = {up for layout in state.layouts for up, _ in layout if up}
    public |= {play.card for play in state.trick} | set(state.won[0]) | set(state.won[1])
    assert not spectator_hidden & public  # every seat's hidden cards are among these
    shown = set() if state.last_trick is None else {play.card for play in state.last_trick[0]}
    if state.hand_locked:  # JW-4; the last trick of the deal before may show the same codes
        for seat in (0, 1):
            assert set(state.hands[seat]) - shown <= state.hidden_cards(seat)


def _jw_deals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    order = draw(st.permutations(full_deck()))
    target = draw(st.sampled_from((5, 7, 13, 21)))
    scores = draw(st.tuples(st.integers(0, 20), st.integers(0, 20)))
    deal = {
        "dealer": draw(st.sampled_from((0, 1))),
        "layout": [
            [[order[20 + 10 * seat + i], order[10 * seat + i]] for i in range(10)]
            for seat in (0, 1)
        ],
        "hands": [order[40:46], order[46:52]],
        "scores": [min(score, target - 1) for score in scores],
    }
    return deal, {"variant": draw(st.sampled_from(("trumps", "spel_pass"))), "points": target}


def _jw_end(options: dict[str, Any], final: Any) -> None:
    if final.forfeited:
        return
    assert max(final.scores) >= options.get("points", 13)  # JW-14
    assert final.result == [final.scores.index(max(final.scores))]


def _jw_step(before: Any, after: Any) -> None:
    if after.hand_number != before.hand_number:  # JW-2: the deal alternates
        assert after.hand_number == before.hand_number + 1
        assert after.dealer == 1 - before.dealer and after.to_act == before.dealer


def _two_player_hand_end(tricks: int) -> Callable[[dict[str, Any], dict[str, Any], Any], None]:
    """An explicit hand of a two-player game: every trick played, then hand or match over."""

    def check(deal: dict[str, Any], options: dict[str, Any], final: Any) -> None:
        assert sum(final.tricks) == tricks
        target = options["points"]
        expected = Phase.MATCH_OVER if max(final.scores) >= target else Phase.HAND_OVER
        assert final.phase is expected

    return check


CJ_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"pulkas": "nines"},
    {"pulkas": "short", "khishti": 0},
    {"khishti": -500, "moshla": False},
    {"khishti": -900, "premia": False},
    {"strict_joker": True},
    {"pulkas": "nines", "strict_joker": True, "khishti": -900, "moshla": False},
    # CJ-29 / CJ-30: two and three seats, in every format.
    {"seats": 3},
    {"seats": 3, "pulkas": "nines", "khishti": 0},
    {"seats": 3, "pulkas": "short", "strict_joker": True},
    {"seats": 2},
    {"seats": 2, "pulkas": "nines", "moshla": False},
    {"seats": 2, "pulkas": "short", "khishti": -500},
]


@dataclass(frozen=True)
class GameSpec:
    """What the contract checks need to know of one game (its storage, its deck, its rules)."""

    name: str
    deck: frozenset[str]
    option_sets: list[dict[str, Any]]
    places: Callable[[dict[str, Any]], list[str]]
    hidden_slots: Callable[[dict[str, Any], int | None, set[str]], list]
    deals: Callable[[st.DrawFn], tuple[dict[str, Any], dict[str, Any]]]
    match_end: Callable[[dict[str, Any], Any], None]
    hand_end: Callable[[dict[str, Any], dict[str, Any], Any], None]
    more: Callable[[Any, dict[str, Any]], None] = lambda state, data: None
    step: Callable[[Any, Any], None] = lambda before, after: None
    full_every: int = 1  # check every step in full, or every n-th (and a sample between)
    forfeit_rate: float = 0.0  # chance per step of a forfeit during whole matches
    max_steps: int = 6000


SPECS = {
    "japanese_joker": GameSpec(
        "japanese_joker",
        JOKER_DECK,
        [{"points": points} for points in (11, 15, 21, 31)],
        _jj_places,
        _jj_hidden_slots,
        _jj_deals,
        _jj_end,
        _two_player_hand_end(18),
        more=_jj_more,
        step=_jj_step,
        max_steps=150 * 37,
    ),
    "classic_joker": GameSpec(
        "classic_joker",
        JOKER_DECK,
        CJ_OPTION_SETS,
        _cj_places,
        _cj_hidden_slots,
        _cj_deals,
        _cj_end,
        _cj_hand_end,
        more=_cj_more,
        full_every=10,
        forfeit_rate=0.002,
        max_steps=2000,
    ),
    "japanese_whist": GameSpec(
        "japanese_whist",
        FULL_DECK,
        [  # explicit hands draw every target (5, 7, 13, 21); whole matches to 21 are slow
            {"variant": "trumps", "points": 5},
            {"variant": "trumps", "points": 13},
            {"variant": "spel_pass", "points": 7},
            {"variant": "spel_pass", "points": 13},
        ],
        _jw_places,
        _jw_hidden_slots,
        _jw_deals,
        _jw_end,
        _two_player_hand_end(26),
        more=_jw_more,
        step=_jw_step,
        max_steps=40 * 53,
    ),
}
MATCH_CASES = [
    pytest.param(name, options, id=f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}")
    for name, spec in SPECS.items()
    for options in spec.option_sets
]


# --------------------------------------------------------------------------- one moment


# JSON values no action has, put in place of each value of a legal action in turn.
ODD_VALUES: tuple[Any, ...] = (None, True, 1.5, float("nan"), "", "zz", -1, 10**20, [], {}, ["QH"])


def malformed_and_illegal(spec: GameSpec, state: Any, rng: random.Random) -> list[Any]:
    """Actions a client could send that are not in the legal list (filtered by the caller)."""
    some = rng.sample(sorted(spec.deck), 6)
    candidates: list[Any] = [
        None,
        "QH",
        7,
        ["play", "QH"],
        {},
        {"type": "play"},
        {"type": "pass"},
        {"type": None},
        {"type": 7, "card": some[0]},
        {"type": ["play"], "card": some[0]},
        {"card": some[0]},
        {"type": "play", "card": 5},
        {"type": "play", "card": None},
        {"type": "play", "card": [some[0]]},
        {"type": "play", "card": "ZZ"},
        {"type": "play", "card": "1S"},
        {"type": "play", "card": "6S"},
        {"type": "play", "card": "X1"},
        {"type": "play", "card": some[0], "seat": 0},
        {"type": "play", "card": some[0], "extra": 1},
        {"type": "play", "card": some[0], "call": "want", "suit": "H"},
        {"type": "bid"},
        {"type": "bid", "tricks": -1},
        {"type": "bid", "tricks": 10},
        {"type": "bid", "tricks": "1"},
        {"type": "bid", "tricks": True},
        {"type": "bid", "tricks": 1.0},
        {"type": "trump"},
        {"type": "trump", "suit": "X"},
        {"type": "trump", "suit": "h"},
        {"type": "trump", "suit": 1},
        {"type": "trump", "suit": True},
        {"type": "trump", "suit": ["H"]},
        {"type": "trump", "suit": "H", "card": some[0]},
        {"type": "declare", "contract": "Spel"},
        {"type": "declare", "contract": None},
        {"type": "declare", "contract": "spel", "suit": "H"},
    ]
    candidates += [{"type": "play", "card": card} for card in sorted(spec.deck)]
    candidates += [{"type": "play", "card": card.lower()} for card in some[:2]]
    candidates += [{"type": "trump", "suit": suit} for suit in ("S", "H", "D", "C", None)]
    candidates += [{"type": "bid", "tricks": tricks} for tricks in range(10)]
    candidates += [{"type": "declare", "contract": contract} for contract in ("spel", "pass")]
    for joker in ("X1", "X2"):
        candidates += [
            {"type": "play", "card": joker, "call": "high"},
            {"type": "play", "card": joker, "call": "low"},
            {"type": "play", "card": joker, "call": "want", "suit": rng.choice("SHDC")},
            {"type": "play", "card": joker, "call": "take", "suit": rng.choice("SHDC")},
            {"type": "play", "card": joker, "call": "high", "suit": "H"},
            {"type": "play", "card": joker, "call": "want", "suit": None},
            {"type": "play", "card": joker, "call": "want", "suit": ["H"]},
            {"type": "play", "card": joker, "call": "want", "suit": "H", "x": 1},
        ]
    legal = state.legal_actions()
    if legal:
        action = rng.choice(legal)
        candidates.append({**action, "seat": state.to_act})
        candidates += [{**action, key: odd} for key in action for odd in ODD_VALUES]
    return candidates


def refused(state: Any, action: Any) -> str:
    """The message of the IllegalAction that ``action`` must raise."""
    try:
        state.apply(action)
    except IllegalAction as error:
        return str(error)
    raise AssertionError(f"{action!r} was accepted but is not in the legal list")


def permute_hidden(spec: GameSpec, state: Any, seat: int | None, rng: random.Random) -> Any:
    """The same state with the cards hidden from ``seat`` shuffled among their places.

    The seed is left alone: future deals are not what the view is about.
    """
    data = state.to_dict()  # fresh lists: shuffling them leaves the state alone
    hidden = state.hidden_cards(seat)
    slots = spec.hidden_slots(data, seat, hidden)
    cards = [holder[index] for holder, index in slots]
    assert set(cards) >= hidden  # every hidden card has a place that can be shuffled
    rng.shuffle(cards)
    for (holder, index), card in zip(slots, cards, strict=True):
        holder[index] = card
    return get_game(spec.name).from_dict(data)


def check_state(spec: GameSpec, state: Any, rng: random.Random, *, full: bool = True) -> None:
    """The contract at one moment of play.

    ``full``: every legal action is applied, every candidate illegal action is tried, and every
    seat's view is checked; otherwise a sample of each, which keeps whole-match runs affordable.
    """
    game = get_game(spec.name)
    data = state.to_dict()
    assert game.from_dict(data) == state
    assert game.from_dict(json.loads(json.dumps(data))) == state
    assert sorted(spec.places(data)) == sorted(spec.deck)  # each card of the deal exactly once

    legal = state.legal_actions()
    assert bool(legal) == (state.to_act is not None)
    assert (state.to_act is None) == (state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER))
    assert state.is_over == (state.phase is Phase.MATCH_OVER) == (state.result is not None)
    legal_keys = {canonical(action) for action in legal}
    assert len(legal_keys) == len(legal)
    if legal:
        auto = auto_action(state)
        assert canonical(auto) in legal_keys
        for action in legal if full else [auto, rng.choice(legal)]:
            assert type(state.apply(action)) is type(state)
    candidates = malformed_and_illegal(spec, state, rng)
    for action in candidates if full else rng.sample(candidates, 8):
        if action not in legal or canonical(action) not in legal_keys:  # == is not exact
            assert refused(state, action)
    assert state.to_dict() == data  # refused actions (and applied ones) changed nothing

    spectator_hidden = state.hidden_cards(None)
    for seat in seats_of(state) if full else [rng.choice(seats_of(state))]:
        view = state.view(seat)
        assert_json_ready(view)
        dumped = json.dumps(view)
        assert json.loads(dumped) == view
        assert View.__required_keys__ <= view.keys()
        hidden = state.hidden_cards(seat)
        assert hidden <= spectator_hidden
        leaked = hidden.intersection(CARD_TOKEN.findall(dumped))
        assert not leaked, f"seat {seat} sees {leaked}"
        assert '"seed"' not in dumped
        assert ("hand" in view) == (seat is not None)
        assert view["legal"] == (legal if seat is not None and seat == state.to_act else [])
        assert view["hand_counts"] == [len(hand) for hand in data["hands"]]
        if full:
            permuted = permute_hidden(spec, state, seat, rng)
            assert permuted.view(seat) == view
            assert permuted.hidden_cards(seat) == hidden
    if full:
        spec.more(state, data)


def play_out(
    spec: GameSpec, state: Any, rng: random.Random, *, forfeits: bool = False
) -> tuple[list[Any], list[tuple[str, Any]]]:
    """Random legal moves until nobody is to act, checking every state on the way.

    Returns every state passed through and the log of actions and forfeits between them.
    """
    states, log = [state], []
    for step in range(spec.max_steps):
        check_state(spec, state, rng, full=step % spec.full_every == 0)
        if state.to_act is None:
            return states, log
        if forfeits and rng.random() < spec.forfeit_rate:
            seat = rng.randrange(len(seats_of(state)) - 1)
            log.append(("forfeit", seat))
            after = state.forfeit(seat)
        else:
            action = rng.choice(state.legal_actions())
            log.append(("act", action))
            after = state.apply(action)
        spec.step(state, after)
        state = after
        states.append(state)
    raise AssertionError(f"no end after {spec.max_steps} actions")


def assert_replays(start: Any, log: list[tuple[str, Any]], states: list[Any]) -> None:
    """docs/rules/README.md § 0.4: the same start and actions rebuild every state on the way."""
    replayed = start
    assert replayed == states[0]
    for (kind, value), expected in zip(log, states[1:], strict=True):
        replayed = replayed.forfeit(value) if kind == "forfeit" else replayed.apply(value)
        assert replayed == expected


# --------------------------------------------------------------------------- whole matches


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), MATCH_CASES)
@settings(max_examples=10, deadline=None, suppress_health_check=SLOW)
@given(seed=SEEDS, moves=MOVES)
def test_whole_matches_keep_the_contract(name: str, options: dict, seed: Any, moves: int) -> None:
    spec = SPECS[name]
    game = get_game(name)
    start = game.new_match(options, seed)
    states, log = play_out(spec, start, random.Random(moves), forfeits=True)
    final = states[-1]
    assert final.is_over and final.phase is Phase.MATCH_OVER
    spec.match_end(options, final)
    assert game.new_match(options, seed) == start
    assert_replays(start, log, states)


@pytest.mark.slow
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=50, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), seed=SEEDS, moves=MOVES)
def test_many_random_matches_end_conserve_cards_and_replay(
    name: str, data: st.DataObject, seed: Any, moves: int
) -> None:
    """The cheaper properties, after every action of many more matches."""
    spec = SPECS[name]
    game = get_game(name)
    options = data.draw(st.sampled_from(spec.option_sets))
    rng = random.Random(moves)
    start = state = game.new_match(options, seed)
    actions = []
    for _ in range(spec.max_steps):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        after = state.apply(action)
        actions.append(action)
        stored = after.to_dict()
        assert sorted(spec.places(stored)) == sorted(spec.deck)
        assert game.from_dict(stored) == after
        if after.to_act is not None:
            assert auto_action(after) in after.legal_actions()
        spec.step(state, after)
        state = after
    assert state.is_over, f"the match did not end within {spec.max_steps} actions"
    spec.match_end(options, state)
    for action in actions:
        start = start.apply(action)
    assert start == state


@pytest.mark.slow
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=40, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), moves=MOVES)
def test_explicit_hands_keep_the_contract_at_every_step(
    name: str, data: st.DataObject, moves: int
) -> None:
    spec = SPECS[name]
    deal, options = data.draw(st.composite(spec.deals)())
    game = get_game(name)
    every_step = replace(spec, full_every=1, max_steps=200)
    states, log = play_out(every_step, game.from_deal(deal, options), random.Random(moves))
    spec.hand_end(deal, options, states[-1])
    assert_replays(game.from_deal(deal, options), log, states)


@pytest.mark.slow
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=10, deadline=None, suppress_health_check=SLOW)
@given(seed=SEEDS, moves=MOVES)
def test_the_first_hands_of_a_match_keep_the_contract_at_every_step(
    name: str, seed: Any, moves: int
) -> None:
    spec = SPECS[name]
    rng = random.Random(moves)
    state = get_game(name).new_match(spec.option_sets[moves % len(spec.option_sets)], seed)
    steps = 0
    while state.hand_number <= 3 and not state.is_over and steps < 400:
        check_state(spec, state, rng, full=True)
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert state.hand_number == 4 or state.is_over


# --------------------------------------------------------------------------- absence


@pytest.mark.parametrize("name", ["japanese_joker", "japanese_whist"])
@settings(max_examples=50, deadline=None, suppress_health_check=SLOW)
@given(seed=SEEDS, moves=MOVES, steps=st.integers(0, 200), leaver=st.sampled_from((0, 1)))
def test_a_two_player_forfeit_at_any_moment_ends_the_match_for_the_other_seat(
    name: str, seed: Any, moves: int, steps: int, leaver: int
) -> None:
    """JJ-24, docs/rules/README.md § 0.6: the match is over at once, and the other seat won."""
    spec = SPECS[name]
    rng = random.Random(moves)
    state = get_game(name).new_match(spec.option_sets[moves % len(spec.option_sets)], seed)
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
    for seat in seats_of(over):
        assert over.view(seat)["forfeited"] == [leaver]
        assert over.hidden_cards(seat) == state.hidden_cards(seat)  # nothing is revealed
    check_state(spec, over, rng)
    with pytest.raises(IllegalAction):
        over.forfeit(1 - leaver)


@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(seed=SEEDS, moves=MOVES, steps=st.integers(0, 200), leaver=st.integers(0, 3))
def test_a_classic_joker_forfeit_leaves_the_seat_to_a_bot(
    seed: Any, moves: int, steps: int, leaver: int
) -> None:
    """docs/rules/README.md § 0.6: the match goes on, a bot playing the seat that left."""
    spec = SPECS["classic_joker"]
    rng = random.Random(moves)
    state = get_game("classic_joker").new_match({}, seed)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    after = state.forfeit(leaver)
    assert after.phase is state.phase and after.to_act == state.to_act
    assert after.legal_actions() == state.legal_actions()
    for seat in seats_of(after):
        assert after.view(seat)["forfeited"] == [leaver]
    assert after.forfeit(leaver) == after  # forfeiting twice changes nothing
    check_state(spec, after, rng)


# --------------------------------------------------------------------------- apply is total

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(sorted(FULL_DECK | JOKER_DECK)),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(("type", "card", "call", "suit", "tricks", "contract", "seat", "x"))
VALUES = (
    st.sampled_from(
        ("play", "bid", "trump", "declare", "want", "take", "high", "low", "spel", "pass")
    )
    | st.sampled_from(sorted(FULL_DECK | JOKER_DECK))
    | st.sampled_from(("S", "H", "D", "C", "X", "h"))
    | st.integers(-2, 12)
    | st.sampled_from((None, True, False, 1.0, float("nan"), "", [], {}))
    | st.lists(st.sampled_from(sorted(FULL_DECK | JOKER_DECK)), min_size=1, max_size=2)
    | st.dictionaries(st.text(max_size=2), st.integers(), min_size=1, max_size=1)
    | JSON
)
ACTION_LIKE = st.dictionaries(KEYS, VALUES, max_size=5)


@st.composite
def moments(draw: st.DrawFn) -> Any:
    """A state of any game somewhere in a match: random legal play from a seed or a deal."""
    name = draw(st.sampled_from(sorted(SPECS)))
    spec = SPECS[name]
    game = get_game(name)
    if draw(st.booleans()):
        deal, options = draw(st.composite(spec.deals)())
        state = game.from_deal(deal, options)
        steps = draw(st.integers(0, 40))  # mostly inside the hand: it ends after 18 to 53
    else:
        state = game.new_match(draw(st.sampled_from(spec.option_sets)), draw(SEEDS))
        steps = draw(st.integers(0, 150))
    rng = random.Random(draw(MOVES))
    for _ in range(steps):
        if state.to_act is None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if not state.is_over and draw(st.integers(0, 19)) == 0:
        state = state.forfeit(0)
    return state


TEMPLATES: list[dict[str, Any]] = [
    {"type": "play", "card": "QH"},
    {"type": "play", "card": "X1", "call": "want", "suit": "H"},
    {"type": "play", "card": "X2", "call": "high"},
    {"type": "bid", "tricks": 1},
    {"type": "trump", "suit": "H"},
    {"type": "declare", "contract": "spel"},
]


@st.composite
def near_misses(draw: st.DrawFn, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal action (or a well-formed one of any type) with one value, key or more changed."""
    action = dict(draw(st.sampled_from(legal + TEMPLATES)))
    for _ in range(draw(st.integers(1, 2))):
        change = draw(st.sampled_from(("value", "value", "value", "add", "drop")))
        if change == "value" or not action:
            action[draw(st.sampled_from(sorted(action) or ["type"]))] = draw(VALUES)
        elif change == "add":
            action[draw(KEYS)] = draw(VALUES)
        else:
            del action[draw(st.sampled_from(sorted(action)))]
    return action


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=SLOW)
@given(state=moments(), data=st.data())
def test_apply_accepts_exactly_the_legal_actions_and_refuses_any_other_json(
    state: Any, data: st.DataObject
) -> None:
    """Whatever JSON a client sends, apply returns a state or raises a readable IllegalAction."""
    legal_actions = state.legal_actions()
    near = near_misses(legal_actions)
    action = data.draw(st.one_of(near, near, JSON, ACTION_LIKE))
    before = state.to_dict()
    legal = {canonical(a) for a in legal_actions}
    try:
        after = state.apply(action)
    except IllegalAction as error:
        assert str(error) and canonical(action) not in legal
    else:
        assert canonical(action) in legal and type(after) is type(state)
    assert state.to_dict() == before


@pytest.mark.parametrize("name", SPECS)
def test_a_malformed_stored_state_is_a_rules_error(name: str) -> None:
    """from_dict never hands back half a state nor a bare KeyError (storage codec)."""
    game = get_game(name)
    data = game.new_match(None, "stored").to_dict()
    other = "classic_joker" if name != "classic_joker" else "japanese_joker"
    for broken in (
        None,
        [],
        {},
        {**data, "game": other},
        {key: value for key, value in data.items() if key != "trick"},
        {**data, "hands": None},
        {**data, "trick": [{"card": "QH"}]},
        {**data, "phase": "dancing"},
        {**data, "options": {"points": 3, "pulkas": "x"}},
    ):
        with pytest.raises(RulesError):
            game.from_dict(broken)
