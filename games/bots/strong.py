"""The strong computer player: perfect-information Monte Carlo over sampled worlds (issue 15).

For each decision it deals the unseen cards many times consistently with what its seat has seen
(``worlds.sample``), plays every candidate action out to the end of the hand in each world with
the easy policy for all seats, and takes the candidate with the best average result: its hand
points minus the opponents' (in classic Joker, minus their mean).

Search stops after ``max_worlds`` sampled worlds or when the time ``budget`` (seconds,
default 0.3) would be overrun by one more, whichever comes first; a world the clock cuts short
counts for the candidates it reached (each is judged by its average). With the same ``rng``
seed the choice is the same whenever the world count, not the clock, ends the search (always
with ``budget=None``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import GameSpec, State, game_spec
from ..rules.cards import RANK_VALUE, is_joker
from ..rules.contract import Action
from . import easy, worlds

DEFAULT_BUDGET = 0.3
DEFAULT_WORLDS = 400


def choose(
    view: Mapping[str, Any],
    rng: random.Random,
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_worlds: int = DEFAULT_WORLDS,
) -> Action:
    """The strong bot's action for the seat whose ``view`` this is."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    candidates = distinct_candidates(view)
    if len(candidates) == 1:
        return candidates[0]
    values = evaluate(view, rng, candidates, budget=budget, max_worlds=max_worlds)
    return max(values, key=lambda pair: pair[1])[0]


def evaluate(
    view: Mapping[str, Any],
    rng: random.Random,
    candidates: list[Action],
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_worlds: int = DEFAULT_WORLDS,
) -> list[tuple[Action, float]]:
    """Each candidate reached and its mean result over the same sampled worlds (the hand's
    points minus the opponents' mean), in the order tried: the easy bot's choice first, so the
    first of equals is the one ``choose`` takes."""
    start = time.perf_counter()
    deadline = None if budget is None else start + budget
    # The easy bot's choice first: if the clock runs out within the first world, the search
    # still answers with something sensible among what it had time to try.
    first = easy.choose(view)
    candidates = sorted(candidates, key=lambda action: action != first)
    seat = view["seat"]
    spec = game_spec(view["game"])
    totals = [0.0] * len(candidates)
    tried = [0] * len(candidates)
    round_cost = 0.0
    for done in range(max_worlds):
        if deadline is not None and done and time.perf_counter() + round_cost > deadline:
            break  # one more world would overrun the budget
        began = time.perf_counter()
        world = worlds.sample(view, rng)
        for index, action in enumerate(candidates):
            if deadline is not None and (done or index) and time.perf_counter() > deadline:
                break
            totals[index] += playout(spec, world.apply(action), seat, world)
            tried[index] += 1
        round_cost = max(round_cost, time.perf_counter() - began)
    return [
        (action, totals[index] / tried[index])
        for index, action in enumerate(candidates)
        if tried[index]
    ]


def playout(spec: GameSpec, state: State, seat: int, start: State) -> float:
    """Play the hand out with the easy policy; the seat's points minus its opponents'."""
    hand = start.hand_number
    seen = spec.seen_in_world
    while state.to_act is not None and state.hand_number == hand:
        state = state.apply(easy.decide(seen(state)))
    return margin(spec.playout_points(start, state), seat)


def margin(points: Sequence[float], seat: int) -> float:
    """The seat's points less its opponents' mean: what the search values."""
    others = [value for other, value in enumerate(points) if other != seat]
    return points[seat] - sum(others) / len(others)


def distinct_candidates(view: Mapping[str, Any]) -> list[Action]:
    """The legal actions, less plays no better than another: of touching cards of a suit in
    the seat's hand (every rank between them already played) only the lowest, and of two
    jokers in the hand one. A column or layout card is never the same as a hand card: playing
    it uncovers the card beneath."""
    legal = view["legal"]
    if legal[0]["type"] != "play":
        return list(legal)
    # Only cards of completed tricks: a card in the trick in progress still decides it.
    out = {play["card"] for trick in view["hand_tricks"] for play in trick["plays"]}
    hand = set(view.get("hand", ()))
    plain = sorted(
        {a["card"] for a in legal if not is_joker(a["card"]) and a["card"] in hand},
        key=lambda card: (card[1], RANK_VALUE[card[0]]),
    )
    redundant: set[str] = set()
    for low, high in itertools.pairwise(plain):
        if low[1] != high[1]:
            continue
        between = range(RANK_VALUE[low[0]] + 1, RANK_VALUE[high[0]])
        if all(_code(rank, low[1]) in out for rank in between):
            redundant.add(high)
    if "X1" in hand and "X2" in hand:  # the jokers are equal in power: one of them will do
        redundant.add("X2")
    return [a for a in legal if a["card"] not in redundant]


def _code(rank: int, suit: str) -> str:
    return "23456789TJQKA"[rank - 2] + suit
