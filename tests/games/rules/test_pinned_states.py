"""Stored states and views stay what running matches and browsers already have.

``data/<game>.json`` was written by the engines of main at a53d573, before their rewrite into
one shape: seeded matches (and explicit deals) played with seeded random legal moves, with the
stored state (``to_dict``), every seat's and the spectator's view, the hidden cards and the
auto-trump cards at a few moments of each. A match that is running in the database was stored
by that code, and the browser reads exactly those view keys, so both must still hold:

- replaying the same actions gives the same stored dict and the same views, byte for byte
  (``json.dumps`` keeps key order, so a reordered or renamed key fails too);
- ``from_dict`` reads every stored dict of that code into a state with the same views, and
  writes it back unchanged (but for keys added since, with their defaults).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.rules import get_game

DATA = Path(__file__).with_name("data")
# Keys added since the pin, at the end of views and stored states: the completed tricks of the
# hand (public, for the computer players' memory). A state stored before them reads as none.
ADDED_KEYS = ("hand_tricks",)
# Table options added since the pin, with a default that is what the pinned matches played
# (classic Joker's ``seats``: 4). A record without them reads as the default.
ADDED_OPTIONS = ("seats",)
GAMES = ("japanese_joker", "classic_joker", "japanese_whist")


def matches(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["matches"]


CASES = [
    pytest.param(name, index, id=f"{name}-{index}")
    for name in GAMES
    for index in range(len(matches(name)))
]


def seat_of(key: str) -> int | None:
    return None if key == "spectator" else int(key)


def pinned_keys(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without the keys added since the pin, the others in their order."""
    kept = {key: value for key, value in record.items() if key not in ADDED_KEYS}
    if isinstance(kept.get("options"), dict):
        options = kept["options"]
        kept["options"] = {key: value for key, value in options.items() if key not in ADDED_OPTIONS}
    return kept


def assert_same_moment(state: Any, pinned: dict[str, Any]) -> None:
    for key, view in pinned["views"].items():
        assert json.dumps(pinned_keys(state.view(seat_of(key)))) == json.dumps(view), key
    for key, hidden in pinned["hidden"].items():
        assert sorted(state.hidden_cards(seat_of(key))) == hidden, key
    assert state.auto_trump_cards() == pinned["auto_trump_cards"]


@pytest.mark.parametrize(("name", "index"), CASES)
def test_replayed_matches_store_and_show_what_they_did_before(name: str, index: int) -> None:
    game = get_game(name)
    match = matches(name)[index]
    if "deal" in match:
        state = game.from_deal(match["deal"], match["options"])
    else:
        state = game.new_match(match["options"], match["seed"])
    checkpoints = match["checkpoints"]
    for step in range(len(match["log"]) + 1):
        if str(step) in checkpoints:
            pinned = checkpoints[str(step)]
            assert json.dumps(pinned_keys(state.to_dict())) == json.dumps(pinned["stored"]), step
            assert_same_moment(state, pinned)
        if step < len(match["log"]):
            entry = match["log"][step]
            state = (
                state.forfeit(entry["forfeit"]) if "forfeit" in entry else state.apply(entry["act"])
            )


@pytest.mark.parametrize(("name", "index"), CASES)
def test_states_stored_by_the_old_engines_load_and_store_back_unchanged(
    name: str, index: int
) -> None:
    game = get_game(name)
    for step, pinned in matches(name)[index]["checkpoints"].items():
        state = game.from_dict(pinned["stored"])
        assert pinned_keys(state.to_dict()) == pinned["stored"], step
        assert state.to_dict()["options"].get("seats", 4) == 4  # CJ-2: four by default
        assert_same_moment(state, pinned)
