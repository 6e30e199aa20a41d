"""The simple legal-move bot: it plays the turn-clock auto-move (docs/rules/README.md § 0.6).

Good enough to finish a classic Joker match for a seat that forfeited: it always plays a legal
move (the lowest legal card, the lowest bid, the trump its own cards favour), and it only reads
what the seat to act may know (its legal actions and its own visible cards).
"""

from __future__ import annotations

from typing import Any

from ..rules.automove import auto_action


class SimpleBot:
    name = "simple"

    def choose(self, state: Any) -> dict[str, Any]:
        return auto_action(state)
