"""The review of one seat's play in a finished match (docs/review.md): for each decision the
seat made itself, the strong computer's search from that seat's view only (the information the
player had, never the hidden cards), the value of the action taken beside the best one found.

Values are the strong bot's: the hand's points of the seat minus its opponents' mean, averaged
over the same sampled worlds for every candidate (``bots.strong.evaluate``), with a fixed number
of worlds and a generator seeded from the match's seed and the decision's version, so a review is
the same whenever it is made. A decision whose loss reaches the game's ``mistake_points`` is a
mistake, three times that a blunder. Pure: no Django.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .bots.strong import distinct_candidates, evaluate, margin
from .replay import Event, replay
from .rules import game_spec

MISTAKE = "mistake"
BLUNDER = "blunder"
BLUNDER_TIMES = 3  # a blunder loses this many times a mistake's points


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the replay step it was made at (the state before the action)."""

    step: int
    version: int
    hand: int
    standing: float  # the seat's score less its opponents' mean before the decision
    taken: dict[str, Any]
    best: dict[str, Any]
    taken_value: float
    best_value: float
    mark: str  # "", MISTAKE or BLUNDER

    @property
    def loss(self) -> float:
        return self.best_value - self.taken_value


def decision_rng(seed: str, version: int) -> random.Random:
    """The worlds of one decision: fixed by the match and the decision."""
    return random.Random(f"review:{seed}:{version}")


def review_seat(
    game: str,
    options: Mapping[str, Any],
    seed: str,
    events: Sequence[Event],
    seat: int,
    *,
    worlds: int,
) -> list[Decision]:
    """Every decision ``seat`` made itself (``act`` events with a real choice), judged."""
    mistake = game_spec(game).mistake_points
    steps = list(replay(game, options, seed, events))
    decisions = []
    for index, event in enumerate(events):
        if event.seat != seat or event.kind != "act":
            continue
        state = steps[index].state
        view = state.view(seat)
        candidates = distinct_candidates(view)
        if event.action not in candidates:
            candidates.append(dict(event.action))  # a card no different from one searched
        if len(candidates) < 2:
            continue
        values = evaluate(
            view, decision_rng(seed, event.version), candidates, budget=None, max_worlds=worlds
        )
        best, best_value = max(values, key=lambda pair: pair[1])
        taken_value = next(value for action, value in values if action == event.action)
        loss = best_value - taken_value
        mark = BLUNDER if loss >= BLUNDER_TIMES * mistake else MISTAKE if loss >= mistake else ""
        decisions.append(
            Decision(
                index,
                event.version,
                state.hand_number,
                margin(state.scores, seat),
                dict(event.action),
                best,
                taken_value,
                best_value,
                mark,
            )
        )
    return decisions


def summary(decisions: Iterable[Decision], mistake_points: float) -> dict[str, Any]:
    """Counts and accuracy: 100 × (1 − the mean loss, each capped at a blunder's points, over a
    blunder's points); 100 when every decision was the best found."""
    listed = list(decisions)
    cap = BLUNDER_TIMES * mistake_points
    lost = sum(min(max(d.loss, 0.0), cap) for d in listed)
    accuracy = 100.0 if not listed else 100.0 * (1 - lost / (cap * len(listed)))
    return {
        "decisions": len(listed),
        "mistakes": sum(d.mark == MISTAKE for d in listed),
        "blunders": sum(d.mark == BLUNDER for d in listed),
        "accuracy": round(accuracy, 1),
    }


def as_record(decisions: Iterable[Decision]) -> list[dict[str, Any]]:
    """The decisions as stored (``MatchReview.decisions``)."""
    return [{**asdict(d), "loss": d.loss} for d in decisions]


def judge(
    game: str,
    options: Mapping[str, Any],
    seed: str,
    events: Sequence[Event],
    seat: int,
    worlds: int,
) -> tuple[list[dict[str, Any]], dict[str, Any], float]:
    """The whole review in a process of its own (``services.reviews``), at a lower CPU priority:
    the decisions as stored, the summary and the CPU seconds they took."""
    os.nice(10)
    began = time.process_time()
    decisions = review_seat(game, options, seed, events, seat, worlds=worlds)
    judged = summary(decisions, game_spec(game).mistake_points)
    return as_record(decisions), judged, time.process_time() - began
