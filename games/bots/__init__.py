"""Computer players: they choose an action through the rules API only (DESIGN.md § Apps).

A bot sees what its seat may see and nothing more: it asks the state for the seat's legal
actions, never for another seat's cards. ``choose(state)`` is the one entry point the live-play
services call when a bot seat is to act.
"""

from __future__ import annotations

from typing import Any

from .simple import SimpleBot

__all__ = ["SimpleBot", "choose"]

DEFAULT_BOT = SimpleBot()


def choose(state: Any) -> dict[str, Any]:
    """The action the site's bot plays for ``state.to_act``."""
    return DEFAULT_BOT.choose(state)
