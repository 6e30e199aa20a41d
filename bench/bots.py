"""How well and how fast the computer players play: ``make bench-bots`` (issue 15).

Whole matches in process, no Django: per game and pairing, the share of matches the first kind
wins (a two-player game, Japanese Joker and Whist; seats alternate so the first hand's advantage
cancels out), or in a game of more seats (classic Joker) one bot of a kind against the others
of another, its mean placement (1 = first, by the final scores) and its share of first places
(its seat rotates). Then the strong bot's decision time at the
default budget, mean and p99, over real decisions of every game; then what the review of a
player's play marks and costs (``bench/review.py``).

The win-rate runs give the strong bot a fixed number of sampled worlds per decision (``--worlds``)
instead of its 300 ms clock, so that they finish in minutes and give the same figures on any
machine; the timing runs use the default budget.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bench import review
from games import bots
from games.bots import strong
from games.rules import game_spec, game_specs, get_game

Bot = Callable[[Mapping[str, Any], random.Random], dict[str, Any]]
Options = dict[str, Any]


def play_match(game: str, options: Options, seats: list[Bot], seed: int) -> Any:
    """One whole match of ``game`` with ``seats[i]`` playing seat i; the final state."""
    state = get_game(game).new_match(options, seed)
    rng = random.Random(f"bench:{seed}")
    while not state.is_over:
        seat = state.to_act
        assert seat is not None  # a match that is not over awaits a seat
        state = state.apply(seats[seat](state.view(seat), rng))
    return state


def margin(share: float, count: int) -> float:
    """Half the width of the 95% normal interval of a share, in percent."""
    return 196 * math.sqrt(share * (1 - share) / count)


def two_player(game: str, options: Options, first: Bot, second: Bot, count: int) -> float:
    """The share of ``count`` matches ``first`` wins, seats alternating."""
    wins = 0
    for index in range(count):
        me = index % 2
        seats = [first, second] if me == 0 else [second, first]
        wins += me in play_match(game, options, seats, index).result
    return wins / count


def one_against_all(
    game: str, options: Options, one: Bot, others: Bot, count: int
) -> tuple[float, float]:
    """``one`` against the ``others`` at every other seat: (mean placement, share of firsts).

    A place is one more than the seats that scored more (1, 1, 3, 4), as the final ranking of
    a match nobody left."""
    places = []
    firsts = 0
    seats_total = game_spec(game).seat_count(options)
    for index in range(count):
        me = index % seats_total
        seats = [one if seat == me else others for seat in range(seats_total)]
        scores = play_match(game, options, seats, index).scores
        place = 1 + sum(1 for score in scores if score > scores[me])
        places.append(place)
        firsts += place == 1
    return statistics.fmean(places), firsts / count


def variants(games: list[str]) -> list[tuple[str, str, Options]]:
    """(label, game, options): each game at its default options, and at each other number of
    seats its ``seats`` option offers (classic Joker at three and two, issue 30)."""
    found: list[tuple[str, str, Options]] = []
    for game in games:
        found.append((game, game, {}))
        for option in game_spec(game).options:
            if option.name == "seats":
                found += [
                    (f"{game} at {n} seats", game, {"seats": n})
                    for n in option.choices
                    if n != option.default
                ]
    return found


def decision_times(
    games: list[str], count: int, budget: float
) -> dict[str, tuple[list[float], list[float]]]:
    """Seconds the strong bot takes per decision with a choice, ``count`` per game: on the wall
    clock (what a player waits, with whatever else the machine runs) and on the CPU (one core's
    work, whatever else runs)."""
    times: dict[str, tuple[list[float], list[float]]] = {}
    rng = random.Random("timing")
    for game in games:
        wall: list[float] = []
        cpu: list[float] = []
        times[game] = (wall, cpu)
        seed = 0
        while len(wall) < count:
            state = get_game(game).new_match(None, f"timing:{seed}")
            seed += 1
            while not state.is_over and len(wall) < count:
                view = state.view(state.to_act)
                if len(view["legal"]) > 1:
                    began, began_cpu = time.perf_counter(), time.process_time()
                    action = strong.choose(view, rng, budget=budget)
                    wall.append(time.perf_counter() - began)
                    cpu.append(time.process_time() - began_cpu)
                else:
                    action = view["legal"][0]
                state = state.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400, help="easy vs random, per game")
    parser.add_argument(
        "--strong-matches", type=int, default=200, help="each pairing with the strong bot"
    )
    parser.add_argument("--worlds", type=int, default=4, help="strong's worlds per decision")
    parser.add_argument(
        "--games", default=",".join(spec.id for spec in game_specs()), help="default: every game"
    )
    parser.add_argument(
        "--pairings", default="easy:random,strong:random,strong:easy", help="first:second,…"
    )
    parser.add_argument("--decisions", type=int, default=100, help="timed decisions per game")
    parser.add_argument("--review-matches", type=int, default=50, help="reviewed, per kind")
    parser.add_argument("--review-worlds", type=int, default=24, help="the site's REVIEW_WORLDS")
    parser.add_argument("--review-cost-matches", type=int, default=2, help="to 21, both seats")
    args = parser.parse_args()

    kinds: dict[str, Bot] = {
        "random": bots.random_choice,
        "easy": bots.BOTS["easy"],
        "strong": partial(strong.choose, budget=None, max_worlds=args.worlds),
    }
    games = args.games.split(",")
    pairings = [tuple(pair.split(":")) for pair in args.pairings.split(",")]
    print(f"(win rates: strong plays {args.worlds} sampled worlds per decision)")
    for label, game, options in variants(games):
        seats_total = game_spec(game).seat_count(options)
        for first, second in pairings:
            count = args.matches if first == "easy" else args.strong_matches
            if not count:
                continue
            if seats_total == 2:
                share = two_player(game, options, kinds[first], kinds[second], count)
                print(
                    f"{label} {first} vs {second}: {100 * share:.1f}% "
                    f"±{margin(share, count):.1f} of {count} matches",
                    flush=True,
                )
                continue
            place, share = one_against_all(game, options, kinds[first], kinds[second], count)
            print(
                f"{label} {first} vs {seats_total - 1} {second}: mean placement {place:.2f}, "
                f"first {100 * share:.1f}% ±{margin(share, count):.1f} of {count} matches",
                flush=True,
            )
    budget = strong.DEFAULT_BUDGET
    timed = decision_times(games, args.decisions, budget) if args.decisions else {}
    for game, (wall, cpu) in timed.items():
        print(
            f"{game} strong decision time at {1000 * budget:.0f} ms budget: "
            f"wall mean {1000 * statistics.fmean(wall):.0f} ms, p99 {1000 * p99(wall):.0f} ms; "
            f"cpu mean {1000 * statistics.fmean(cpu):.0f} ms, p99 {1000 * p99(cpu):.0f} ms "
            f"over {len(wall)} decisions",
            flush=True,
        )
    if args.review_matches or args.review_cost_matches:
        review.report(
            args.review_matches, args.review_worlds, args.worlds, args.review_cost_matches
        )


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


if __name__ == "__main__":
    main()
