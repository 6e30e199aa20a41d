"""The auto-move played when a turn clock runs out (docs/rules/README.md § 0.6).

It depends only on the engine contract (``contract.State``), so it serves every game and the
simple bot alike.
"""

from __future__ import annotations

from collections import Counter

from .cards import SUITS, is_joker, rank_of, suit_of
from .contract import Action, State

TIE_ORDER = {suit: index for index, suit in enumerate(SUITS)}


def auto_action(state: State) -> Action:
    """The move § 0.6 prescribes for the seat ``state.to_act``."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("Nobody is to act in this state.")
    kind = legal[0]["type"]
    if kind == "trump":
        counts = Counter(suit_of(card) for card in state.auto_trump_cards() if not is_joker(card))
        best = max(SUITS, key=lambda suit: (counts[suit], -TIE_ORDER[suit]))
        return {"type": "trump", "suit": best}
    if kind == "bid":
        return min(legal, key=lambda action: action["tricks"])
    if kind == "declare":
        return {"type": "declare", "contract": "spel"}
    return _auto_play(legal, state.trump)


def _auto_play(legal: list[Action], trump: str | None) -> Action:
    plain = [action for action in legal if not is_joker(action["card"])]
    if plain:
        return min(
            plain,
            key=lambda action: (suit_of(action["card"]) == trump, rank_of(action["card"])),
        )
    called = trump or "S"
    preferred = (
        {"call": "want", "suit": called},  # a led joker
        {"call": "high"},  # classic Joker, not led
    )
    for wanted in preferred:
        for action in legal:
            if all(action.get(key) == value for key, value in wanted.items()):
                return action
    return legal[0]  # Japanese Joker, not led: the joker carries no call
