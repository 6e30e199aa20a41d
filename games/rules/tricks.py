"""The trick: who played what, in order (rules/README.md § 0.5).

Each game decides the winner with its own rule; the play record and its public form are shared.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Play(NamedTuple):
    """One card played to a trick. ``call``/``suit`` are the joker's declaration, else None."""

    seat: int
    card: str
    call: str | None = None
    suit: str | None = None

    def public(self) -> dict[str, Any]:
        """The play as every seat sees it: played cards and declarations are public."""
        shown: dict[str, Any] = {"seat": self.seat, "card": self.card}
        if self.call is not None:
            shown["call"] = self.call
        if self.suit is not None:
            shown["suit"] = self.suit
        return shown

    @classmethod
    def from_public(cls, data: dict[str, Any]) -> Play:
        return cls(data["seat"], data["card"], data.get("call"), data.get("suit"))


def led_suit(plays: tuple[Play, ...] | list[Play]) -> str | None:
    """The suit followers must follow: the led card's suit, or the suit a led joker called."""
    if not plays:
        return None
    lead = plays[0]
    return lead.suit if lead.card[0] == "X" else lead.card[1]


def completed_trick_public(trick: tuple[tuple[Play, ...], int] | None) -> dict[str, Any] | None:
    """A completed trick (plays, winner) as every seat sees it, or None before the first one."""
    if trick is None:
        return None
    plays, winner = trick
    return {"plays": [play.public() for play in plays], "winner": winner}
