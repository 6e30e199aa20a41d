"""A match rebuilt from its seed and event log alone, and checked against what was stored.

Pure: no Django, no database, no clock. The event log (``games.services.matches``) holds ``act``,
``timeout`` and ``bot`` events with an engine action, ``forfeit`` events replayed with
``state.forfeit(seat)``, and a ``cancel`` (an admin's) or an ``abort`` (a seat forfeited before
every seat had moved) that ends the match without changing the cards. The
engine derives every deal from the seed (docs/rules/README.md § 0.4), so these events and the seed
rebuild every state of the match, deals included; tests, the admin, the match page and
``manage.py verify_match`` all go through :func:`replay`.

The export record (docs/match-export.md) is a JSON object; :func:`verify` checks one and says
exactly what differs, so the check works the same on a stored match and on a downloaded file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .entropy import entropy_problems
from .rules import RulesError, State, game_spec, get_game, is_game
from .rules.cards import deal_algorithm, sorted_cards

EXPORT_FORMAT = "joker-match"
EXPORT_VERSION = 1
MOVE_KINDS = ("act", "timeout", "bot")


class ReplayError(ValueError):
    """The log cannot be replayed: an unknown event, or one the rules refuse at that point."""


@dataclass(frozen=True)
class Event:
    """One entry of the log, as stored (``MatchEvent``) or exported."""

    version: int
    seat: int | None
    kind: str
    action: dict[str, Any]

    def public(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seat": self.seat,
            "kind": self.kind,
            "action": self.action,
        }


@dataclass(frozen=True)
class Step:
    """The match after the event of ``version`` (version 0: the first deal, no event yet)."""

    version: int
    event: Event | None
    state: State


def seed_hash(seed: str) -> str:
    """The commitment shown from the start: SHA-256 of the seed's UTF-8 bytes, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def replay(
    game: str, options: Mapping[str, Any], seed: str, events: Iterable[Event]
) -> Iterator[Step]:
    """Every state of the match in order: the first deal, then one per event.

    Raises :class:`ReplayError` at the first event that does not apply, and RulesError for an
    unknown game, options the game does not offer or a seed it cannot take."""
    state = get_game(game).new_match(options, seed)
    yield Step(0, None, state)
    for event in events:
        state = apply_event(state, event)
        yield Step(event.version, event, state)


def apply_event(state: State, event: Event) -> State:
    """The state after one logged event."""
    try:
        if event.kind in MOVE_KINDS:
            return state.apply(event.action)
        if event.kind == "forfeit":
            return state.forfeit(event.seat)  # type: ignore[arg-type]  # the engine checks it
    except RulesError as error:
        raise ReplayError(
            f"event {event.version} ({event.kind} by seat {event.seat}: {event.action}) "
            f"does not apply: {error}"
        ) from None
    if event.kind in ("cancel", "abort"):
        return state  # the match ends with no result; the cards stay where they were
    raise ReplayError(f"event {event.version} has an unknown kind {event.kind!r}")


# --- What the replay shows: every card face up --------------------------------------------------


def open_view(state: State) -> dict[str, Any]:
    """The spectator's view plus every card in its place, face-down ones too.

    Only for a match that is over (its seed is public then): ``hands`` is every seat's hand, and
    the game adds what else its spectators do not see (``GameSpec.open_cards``: a Japanese Joker
    column's or a Japanese Whist layout position's ``down`` card, the cards still to be dealt
    after the trump as ``pending``)."""
    view: dict[str, Any] = dict(state.view(None))
    stored = state.to_dict()
    view["hands"] = [sorted_cards(hand) for hand in stored["hands"]]
    view.update(game_spec(view["game"]).open_cards(stored))
    return view


def deal_cards(state: State) -> dict[str, Any]:
    """Where the deal put every card of the hand ``state`` starts (for the export's ``deals``)."""
    stored = state.to_dict()
    cards: dict[str, Any] = {"hands": stored["hands"]}
    for key in game_spec(stored["game"]).deal_keys:
        cards[key] = stored[key]
    return cards


def hand_starts(steps: Iterable[Step]) -> list[Step]:
    """The first step of every hand (deal): the state just after its cards were dealt."""
    starts: list[Step] = []
    for step in steps:
        new_hand = not starts or step.state.hand_number != starts[-1].state.hand_number
        if new_hand and not step.state.is_over:
            starts.append(step)
    return starts


# What every step would repeat and the replay does not draw: the match page shows the score
# sheet once, from the final state, and the options in its header.
REPEATED = ("sheet", "schedule", "options", "legal", "players", "seat", "game")


def replay_steps(steps: list[Step]) -> list[dict[str, Any]]:
    """The replay page's data: per step, its event, whether it completed a trick (the trick on
    the table was cleared) and the open view, without what every step would repeat."""
    shown: list[dict[str, Any]] = []
    on_table = 0
    for step in steps:
        view = open_view(step.state)
        for key in REPEATED:
            view.pop(key, None)
        shown.append(
            {
                "step": len(shown),
                "version": step.version,
                "event": None if step.event is None else step.event.public(),
                "hand": step.state.hand_number,
                "trick_done": on_table > 0 and not view["trick"],
                "view": view,
            }
        )
        on_table = len(view["trick"])
    return shown


# --- The result, and the check of an export record ------------------------------------------------


def derived_result(state: State, events: list[Event]) -> tuple[str, dict[str, Any] | None]:
    """The status and result the services store for a match ending in ``state`` after
    ``events`` (``matches._finish`` and ``matches._abort``)."""
    if events and events[-1].kind == "cancel":
        return "aborted", {"reason": "cancelled", "winners": [], "forfeited": [], "scores": []}
    if events and events[-1].kind == "abort":
        forfeited = [] if events[-1].seat is None else [events[-1].seat]
        return "aborted", {"reason": "aborted", "winners": [], "forfeited": forfeited, "scores": []}
    if not state.is_over:
        return "playing", None
    forfeited = sorted({e.seat for e in events if e.kind == "forfeit" and e.seat is not None})
    reason = "forfeit" if events and events[-1].kind == "forfeit" else "finished"
    return "finished", {
        "reason": reason,
        "winners": list(state.result or []),
        "forfeited": forfeited,
        "scores": list(state.scores),
    }


def events_from(raw: object) -> list[Event]:
    """The events of a record; a malformed entry is a ReplayError naming it."""
    if not isinstance(raw, list):
        raise ReplayError("events must be a list")
    events = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict) or set(entry) != {"version", "seat", "kind", "action"}:
            raise ReplayError(f"events[{index}] must have exactly version, seat, kind, action")
        if entry["version"] != index + 1:
            raise ReplayError(f"events[{index}] has version {entry['version']}, not {index + 1}")
        if not isinstance(entry["action"], dict):
            raise ReplayError(f"events[{index}].action must be an object")
        events.append(Event(entry["version"], entry["seat"], entry["kind"], entry["action"]))
    return events


def verify(record: Mapping[str, Any], stored_state: Mapping[str, Any] | None = None) -> list[str]:
    """Everything that does not hold in an export record, in words; [] when all of it holds.

    Checks that the seed hashes to ``seed_hash``, that every event applies in order from the
    deal the seed gives, that each hand's deal in ``deals`` is the one the seed gives, and that
    ``status`` and ``result`` are what the replay ends in; with ``stored_state`` (the database's
    row), that the replay ends in exactly that state."""
    problems: list[str] = []
    if record.get("format") != EXPORT_FORMAT or record.get("format_version") != EXPORT_VERSION:
        return [f"not a {EXPORT_FORMAT} record of format_version {EXPORT_VERSION}"]
    seed = record.get("seed")
    if not isinstance(seed, str) or not seed:
        return ["the record has no seed (a match still being played keeps it secret)"]
    if seed_hash(seed) != record.get("seed_hash"):
        problems.append(
            f"seed_hash: SHA-256 of the seed is {seed_hash(seed)}, "
            f"but the record commits to {record.get('seed_hash')}"
        )
    algorithm = record.get("deal_algorithm", deal_algorithm(seed))  # (not in older records)
    if algorithm != deal_algorithm(seed):
        problems.append(
            f"deal_algorithm: the seed deals with {deal_algorithm(seed)}, "
            f"the record says {algorithm}"
        )
    if record.get("entropy"):  # (not in the records of the matches before player entropy)
        problems += entropy_problems(record["entropy"], seed)
    game = record.get("game")
    if not is_game(game):
        return [*problems, f"game: {game!r} is not a game of this site"]
    options = record.get("options")
    if not isinstance(options, dict):
        return [*problems, "options must be an object"]
    try:
        events = events_from(record.get("events"))
        steps = list(replay(game, options, seed, events))
    except (ReplayError, RulesError) as error:
        return [*problems, f"replay: {error}"]
    problems += _deal_problems(hand_starts(steps), record.get("deals"))
    final = steps[-1].state
    status, result = derived_result(final, events)
    if record.get("status") != status:
        problems.append(f"status: the replay ends {status}, the record says {record.get('status')}")
    stated = record.get("result")
    for key in ("reason", "winners", "forfeited", "scores"):
        want = None if result is None else result[key]
        got = stated.get(key) if isinstance(stated, dict) else None
        if want != got:
            problems.append(f"result.{key}: the replay gives {want}, the record says {got}")
    if stored_state is not None and final.to_dict() != stored_state:
        differing = sorted(
            key
            for key in set(stored_state) | set(final.to_dict())
            if stored_state.get(key) != final.to_dict().get(key)
        )
        problems.append(f"stored state: differs from the replay in {', '.join(differing)}")
    return problems


def _deal_problems(starts: list[Step], stated: object) -> list[str]:
    if not isinstance(stated, list):
        return ["deals must be a list"]
    if len(stated) != len(starts):
        return [f"deals: the seed and events give {len(starts)}, the record lists {len(stated)}"]
    problems = []
    for step, entry in zip(starts, stated, strict=True):
        number = step.state.hand_number
        derived = deal_cards(step.state)
        if not isinstance(entry, dict) or entry.get("hand") != number:
            problems.append(f"deals: expected hand {number} next")
        elif not isinstance(entry.get("cards"), dict):
            problems.append(f"deal of hand {number}: cards must be an object")
        elif entry["cards"] != derived:
            keys = sorted(k for k in derived if entry["cards"].get(k) != derived[k])
            problems.append(
                f"deal of hand {number}: {', '.join(keys) or 'its fields'} differ from what the "
                "seed gives"
            )
    return problems
