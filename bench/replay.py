"""Replay benchmark: what a match page's replay costs, for one whole random match of each game.

Run ``python -m bench.replay``. For each game of the registry it plays one whole match (its
default options) with random legal actions (a fixed ``random.Random`` per game, so every run
plays the same match), then times, without Django, what ``/matches/<id>/replay/`` does with its
log: ``games.replay.replay`` (the seed and the events back to every state), ``replay_steps``
(every state's open view) and the JSON encoding, and what ``verify_match`` does
(``games.replay.verify`` of the export record). It prints the milliseconds of each, the number
of steps and the size of the JSON sent to the page.
"""

from __future__ import annotations

import json
import random
from time import perf_counter

from games import replay
from games.rules import game_specs, get_game

SEED = "0" * 63 + "1"


def whole_match(game: str, options: dict[str, object]) -> list[replay.Event]:
    state = get_game(game).new_match(options, SEED)
    rng = random.Random(game)
    events: list[replay.Event] = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        events.append(replay.Event(len(events) + 1, state.to_act, "act", action))
        state = state.apply(action)
    return events


def main() -> None:
    print(f"{'game':16} {'steps':>6} {'replay ms':>10} {'views ms':>9} {'json ms':>8} "
          f"{'json KiB':>9} {'verify ms':>10}")  # fmt: skip
    for game in (spec.id for spec in game_specs()):
        options: dict[str, object] = {}  # the defaults
        events = whole_match(game, options)
        start = perf_counter()
        steps = list(replay.replay(game, options, SEED, events))
        replayed = perf_counter()
        shown = replay.replay_steps(steps)
        viewed = perf_counter()
        body = json.dumps({"steps": shown})
        encoded = perf_counter()
        final = steps[-1].state
        record = {
            "format": replay.EXPORT_FORMAT,
            "format_version": replay.EXPORT_VERSION,
            "game": game,
            "options": options,
            "seed": SEED,
            "seed_hash": replay.seed_hash(SEED),
            "deals": [
                {"hand": s.state.hand_number, "cards": replay.deal_cards(s.state)}
                for s in replay.hand_starts(steps)
            ],
            "events": [e.public() for e in events],
            "status": "finished",
            "result": replay.derived_result(final, events)[1],
        }
        before = perf_counter()
        assert replay.verify(record) == []
        verified = perf_counter()
        print(
            f"{game:16} {len(steps):>6} {1000 * (replayed - start):>10.1f} "
            f"{1000 * (viewed - replayed):>9.1f} {1000 * (encoded - viewed):>8.1f} "
            f"{len(body) / 1024:>9.0f} {1000 * (verified - before):>10.1f}"
        )


if __name__ == "__main__":
    main()
