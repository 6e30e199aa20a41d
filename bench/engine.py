"""Engine benchmark: random full hands of every game on one core, without Django.

Run ``python -m bench.engine`` (``--seconds`` per game, default 2). For each game of the registry
(or each one named) it plays whole hands with uniformly random legal actions
(``state.legal_actions()`` + ``apply``, one ``random.Random`` per run), a hand lasting from its
first action until ``state.hand_number`` changes or the match ends, in batches of a fixed number
of hands until the time is up. Beside the figures it prints a baseline measured in the same run:
``random.choice`` alone over a pre-built list, as many times as there were actions, so a slow
machine can be told apart from a slow engine.

The floor is 1,000 random Japanese Joker hands/s (the server applies moves on a hot path); the
exit status is 1 when a game with a floor falls below it.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from time import perf_counter

from games.rules import RulesError, game_specs, get_game

FLOORS: dict[str, float] = {"japanese_joker": 1_000.0}  # hands per second
BATCH_HANDS = 50  # hands timed between two looks at the clock
RUN_SEED = 20_240_601  # one random.Random per run: the same moves on every run of one engine


@dataclass
class Result:
    name: str
    hands: int
    actions: int
    seconds: float
    baseline: float  # seconds for as many random.choice calls as there were actions

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def us_per_action(self) -> float:
        return self.seconds / self.actions * 1e6

    @property
    def baseline_us(self) -> float:
        return self.baseline / self.actions * 1e6


def baseline_seconds(actions: int, rng: random.Random) -> float:
    """The cost of ``random.choice`` alone over a pre-built list, ``actions`` times."""
    options = list(range(10))
    choice = rng.choice
    start = perf_counter()
    for _ in range(actions):
        choice(options)
    return perf_counter() - start


def run_game(name: str, seconds: float) -> Result:
    """Play random hands of ``name`` for at least ``seconds`` (whole batches of hands)."""
    game = get_game(name)
    options = game.parse_options(None)
    rng = random.Random(RUN_SEED)
    match = 0
    state = game.new_match(options, f"bench-{match}")
    hands = actions = 0
    start = perf_counter()
    while True:
        for _ in range(BATCH_HANDS):
            hand = state.hand_number
            while True:
                state = state.apply(rng.choice(state.legal_actions()))
                actions += 1
                if state.is_over or state.hand_number != hand:
                    break
            hands += 1
            if state.is_over:
                match += 1
                state = game.new_match(options, f"bench-{match}")
        elapsed = perf_counter() - start
        if elapsed >= seconds:
            break
    return Result(name, hands, actions, elapsed, baseline_seconds(actions, rng))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="minimum time per game (default 2)"
    )
    parser.add_argument(
        "games", nargs="*", default=[spec.id for spec in game_specs()], help="default: every game"
    )
    args = parser.parse_args(argv)
    status = 0
    print(f"Engine benchmark: random legal hands, one core, >= {args.seconds:g} s per game")
    for name in args.games:
        try:
            result = run_game(name, args.seconds)
        except RulesError as error:
            print(f"{name:15} not available ({error})")
            continue
        line = (
            f"{name:15} {result.hands_per_second:>9,.0f} hands/s  "
            f"{result.us_per_action:7.2f} µs/action  "
            f"({result.hands:,} hands, {result.actions:,} actions in {result.seconds:.2f} s)  "
            f"baseline random.choice {result.baseline_us:.3f} µs/action, "
            f"ratio {result.us_per_action / result.baseline_us:,.0f}x"
        )
        floor = FLOORS.get(name)
        if floor is not None:
            ok = result.hands_per_second >= floor
            line += f"  [floor {floor:,.0f} hands/s: {'ok' if ok else 'BELOW'}]"
            status |= 0 if ok else 1
        print(line, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
