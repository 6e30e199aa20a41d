"""What the review of a player's play finds and costs (issue 31 § 1), printed by
``make bench-bots``.

Marks: for each of ``--review-matches`` seeds, three Japanese Joker matches to 11 in which seat 0
is played by random legal cards, by the easy computer, or by the strong computer at the win-rate
runs' worlds, always against the easy computer; seat 0's review at ``--review-worlds`` (the
site's ``REVIEW_WORLDS``). A match's deals follow from its seed alone, so the three face the same
cards hand by hand; but random play loses a match in fewer hands, so the counts are taken over
the hands all three played of each seed (the same deals for every kind). Honest numbers mean
random play is marked more than the easy computer, and the easy computer more than the strong.

Cost: a whole match to 21 between two easy computers, both seats reviewed at the site's worlds;
the CPU seconds of one core per seat (issue 31's ceiling: 60 s).

The reviews run in a pool of processes, one per core; CPU time is each review's own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from multiprocessing import Pool
from typing import Any

from games import bots, replay
from games.bots import strong
from games.review import BLUNDER, MISTAKE, review_seat, summary
from games.rules import game_spec, get_game

GAME = "japanese_joker"
Bot = Callable[[Mapping[str, Any], random.Random], dict[str, Any]]


@dataclass(frozen=True)
class Reviewed:
    kind: str
    hands: int
    decisions: int
    mistakes: int
    blunders: int
    loss: float
    accuracy: float
    cpu: float


def kinds(strong_worlds: int) -> dict[str, Bot]:
    return {
        "random": bots.random_choice,
        "easy": bots.BOTS["easy"],
        "strong": partial(strong.choose, budget=None, max_worlds=strong_worlds),
    }


def played(
    options: dict[str, Any], seats: list[Bot], seed: str
) -> tuple[list[replay.Event], list[int]]:
    """A whole match's events, ``seats[i]`` playing seat i, and the hand each was made in."""
    state = get_game(GAME).new_match(options, seed)
    rng = random.Random(f"bench:{seed}")
    events: list[replay.Event] = []
    hands: list[int] = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None  # a match that is not over awaits a seat
        action = seats[seat](state.view(seat), rng)
        events.append(replay.Event(len(events) + 1, seat, "act", action))
        hands.append(state.hand_number)
        state = state.apply(action)
    return events, hands


@dataclass(frozen=True)
class Job:
    """One match to play and one of its seats to review: ``kind`` at seat 0 (the seat reviewed
    here, or both seats ``opponent``'s when ``seat`` is 1)."""

    kind: str
    opponent: str
    number: int
    points: int
    seat: int
    worlds: int
    strong_worlds: int

    @property
    def seed(self) -> str:
        return f"review-bench:{self.number}"

    def match(self) -> tuple[list[replay.Event], list[int]]:
        players = kinds(self.strong_worlds)
        first = players[self.kind if self.seat == 0 else self.opponent]
        return played({"points": self.points}, [first, players[self.opponent]], self.seed)


def hands_played(job: Job) -> int:
    """The hands of a job's match (in a pool's process): the last one's number."""
    return job.match()[1][-1]


def reviewed(job: Job, last_hand: int | None = None) -> Reviewed:
    """One match played and one seat of it reviewed, up to ``last_hand`` (in a pool's process)."""
    events, hands = job.match()
    if last_hand is not None:
        events = [event for event, hand in zip(events, hands, strict=True) if hand <= last_hand]
    began = time.process_time()
    options = {"points": job.points}
    decisions = review_seat(GAME, options, job.seed, events, job.seat, worlds=job.worlds)
    cpu = time.process_time() - began
    judged = summary(decisions, game_spec(GAME).mistake_points)
    return Reviewed(
        job.kind,
        len({hand for event, hand in zip(events, hands, strict=False) if event.seat == job.seat}),
        len(decisions),
        sum(d.mark == MISTAKE for d in decisions),
        sum(d.mark == BLUNDER for d in decisions),
        sum(max(d.loss, 0.0) for d in decisions),
        judged["accuracy"],
        cpu,
    )


def _reviewed(pair: tuple[Job, int | None]) -> Reviewed:
    return reviewed(*pair)


def report(matches: int, worlds: int, strong_worlds: int, cost_matches: int) -> None:
    """Print the marks of each kind and the cost of a review of a match to 21."""
    compared = ("random", "easy", "strong")
    jobs: list[Job] = [
        Job(kind, "easy", number, 11, 0, worlds, strong_worlds)
        for number in range(matches)
        for kind in compared
    ]
    cost_jobs: list[Job] = [
        Job("easy", "easy", 1000 + number, 21, seat, worlds, strong_worlds)
        for number in range(cost_matches)
        for seat in (0, 1)
    ]
    with Pool() as pool:
        lengths = pool.map(hands_played, jobs, chunksize=1)
        common = [min(lengths[i : i + len(compared)]) for i in range(0, len(jobs), len(compared))]
        pairs: list[tuple[Job, int | None]] = [
            (job, common[index // len(compared)]) for index, job in enumerate(jobs)
        ]
        rows = pool.map(_reviewed, pairs + [(job, None) for job in cost_jobs], chunksize=1)
    print(
        f"(review: {GAME} to 11, seat 0 against the easy computer on {matches} seeds, "
        f"{sum(common)} hands every kind played; {worlds} worlds per decision; "
        f"strong plays {strong_worlds})"
    )
    for kind in compared:
        mine = [row for row in rows[: len(jobs)] if row.kind == kind]
        if not mine:
            continue
        hands = sum(row.hands for row in mine)
        decisions = sum(row.decisions for row in mine)
        marked = sum(row.mistakes + row.blunders for row in mine)
        print(
            f"review of {kind}: {marked} marks ({sum(row.mistakes for row in mine)} mistakes, "
            f"{sum(row.blunders for row in mine)} blunders) in {hands} hands, "
            f"{marked / max(hands, 1):.2f} a hand, {marked / max(decisions, 1):.3f} a decision "
            f"of {decisions}; {sum(row.loss for row in mine) / max(hands, 1):.1f} points lost "
            f"a hand; mean accuracy {sum(row.accuracy for row in mine) / len(mine):.1f} %",
            flush=True,
        )
    costs = sorted(row.cpu for row in rows[len(jobs) :])
    if costs:
        print(
            f"review cost, {GAME} to 21 at {worlds} worlds: {len(costs)} seats, "
            f"CPU per seat mean {sum(costs) / len(costs):.1f} s, most {costs[-1]:.1f} s "
            f"(ceiling 60 s)",
            flush=True,
        )
