"""The trick: who played what, what a follower must play, and how a joker is declared.

docs/rules/README.md § 0.2 (a joker has no suit), § 0.3 (the play actions) and § 0.5 (the
winner leads). Each game decides the trick winner with its own rule; the play record, its public
form, the follow/trump requirement of the two Joker games (JJ-18, JJ-19, CJ-13 … CJ-15) and the
grammar of a play action (a led joker names a call and a suit; a joker after the lead may
carry a call) are shared here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple

from .base import CardCode, IllegalAction, SuitCode, gettext_noop
from .cards import RANK_VALUE, SUITS
from .contract import PublicPlay, PublicTrick


class Play(NamedTuple):
    """One card played to a trick. ``call``/``suit`` are the joker's declaration, else None."""

    seat: int
    card: str
    call: str | None = None
    suit: str | None = None

    def public(self) -> PublicPlay:
        """The play as every seat sees it: played cards and declarations are public."""
        shown: PublicPlay = {"seat": self.seat, "card": self.card}
        if self.call is not None:
            shown["call"] = self.call
        if self.suit is not None:
            shown["suit"] = self.suit
        return shown

    @classmethod
    def from_public(cls, data: Mapping[str, Any]) -> Play:
        return cls(data["seat"], data["card"], data.get("call"), data.get("suit"))


# A completed trick: its plays in order and the seat that took it.
CompletedTrick = tuple[tuple[Play, ...], int]


def completed_trick_public(trick: CompletedTrick | None) -> PublicTrick | None:
    """A completed trick as every seat sees it (and as it is stored), or None before the first."""
    if trick is None:
        return None
    plays, winner = trick
    return {"plays": [play.public() for play in plays], "winner": winner}


def completed_trick_from_public(data: Mapping[str, Any] | None) -> CompletedTrick | None:
    """The inverse of :func:`completed_trick_public`."""
    if data is None:
        return None
    return (tuple(Play.from_public(play) for play in data["plays"]), data["winner"])


def hand_tricks_public(tricks: tuple[CompletedTrick, ...]) -> list[PublicTrick]:
    """The hand's completed tricks as every seat saw them (the view's ``hand_tricks``)."""
    return [
        {"plays": [play.public() for play in plays], "winner": winner} for plays, winner in tricks
    ]


def hand_tricks_from_public(data: Mapping[str, Any]) -> tuple[CompletedTrick, ...]:
    """The stored ``hand_tricks``; a state stored before they were kept has none."""
    return tuple(
        (tuple(Play.from_public(play) for play in trick["plays"]), trick["winner"])
        for trick in data.get("hand_tricks", ())
    )


# --- the follow/trump requirement of the Joker games -------------------------------------------


# What a follower must play apart from a joker, which is always legal (JJ-17, CJ-12), as
# (kind, led suit, wanted): "suit" (any card of the wanted suit, the led one), "trump" (the led
# suit is void: any card of the wanted suit, the trump), "highest" (a led joker that wants:
# exactly the wanted card, the highest of the led suit) or "any". A plain tuple: one is built
# for every follower's legal list and play.
Requirement = tuple[str, str | None, str | None]
ANY: Requirement = ("any", None, None)


def follow_requirement(lead: Play, cards: Sequence[str], trump: str | None) -> Requirement:
    """JJ-18/19 and CJ-13 … 15 over the follower's ``cards`` (Japanese Joker: available ones).

    The led suit is the led card's, or the suit a led joker called; a joker that *wants* asks
    for the highest card of it. Without that suit the follower must trump if it can.
    """
    if lead.card[0] == "X":
        suit = lead.suit
        wants = lead.call == "want"
    else:
        suit = lead.card[1]
        wants = False
    best = None
    holds_trump = False
    for card in cards:  # a joker's "1"/"2" is never a suit
        card_suit = card[1]
        if card_suit == suit:
            if not wants:
                return ("suit", suit, suit)
            if best is None or RANK_VALUE[card[0]] > RANK_VALUE[best[0]]:
                best = card
        elif card_suit == trump:
            holds_trump = True
    if best is not None:
        return ("highest", suit, best)
    if holds_trump:
        return ("trump", suit, trump)
    return ANY


def follow_cards(lead: Play, cards: Sequence[str], trump: str | None) -> list[str]:
    """The follower's legal cards among ``cards``, in their order (jokers always)."""
    kind, _, wanted = follow_requirement(lead, cards, trump)
    if kind == "any":
        return list(cards)
    if kind == "highest":
        return [c for c in cards if c == wanted or c[0] == "X"]
    return [c for c in cards if c[1] == wanted or c[0] == "X"]


def allows(requirement: Requirement, card: str) -> bool:
    kind, _, wanted = requirement
    if kind == "any" or card[0] == "X":
        return True
    if kind == "highest":
        return card == wanted
    return card[1] == wanted


def follow_refusal(requirement: Requirement) -> IllegalAction:
    """Why a card that ``requirement`` does not allow is refused."""
    kind, led, wanted = requirement
    if kind == "suit":
        return IllegalAction(
            gettext_noop("You must follow suit: play a {suit} or a joker."),
            suit=SuitCode(str(wanted)),
        )
    if kind == "highest":
        return IllegalAction(
            gettext_noop("The joker wants your highest {suit} ({card}): play it or a joker."),
            suit=SuitCode(str(led)),
            card=CardCode(str(wanted)),
        )
    return IllegalAction(
        gettext_noop(
            "You have no {suit} to follow with, so you must play a trump ({trump}) or a joker."
        ),
        suit=SuitCode(str(led)),
        trump=SuitCode(str(wanted)),
    )


# --- the grammar of a play action ---------------------------------------------------------------


class JokerCalls(NamedTuple):
    """The declarations a game allows: a led joker's calls (each with a suit), a follower's."""

    led: tuple[str, ...]
    followed: tuple[str, ...]


class CallFault(Enum):
    """Why a play's declaration (or its absence) is refused; each game words the refusal."""

    LED_WITHOUT_CALL = "a led joker without a call or a suit"
    LED_EXTRA_KEYS = "a led joker with keys besides type, card, call and suit"
    LED_WRONG_CALL = "a led joker with a call the game does not have"
    LED_BAD_SUIT = "a led joker calling something that is not a suit"
    FOLLOWED_CALL = "a joker after the lead with a wrong, missing or unwanted call"
    PLAIN_CALL = "a card that is not a joker, with a call or a suit"
    EXTRA_KEYS = "a play with keys besides type, card (and a follower joker's call)"


def joker_call(
    action: Mapping[str, Any], joker: bool, leading: bool, calls: JokerCalls
) -> tuple[str | None, str | None] | CallFault:
    """The (call, suit) a well-formed play declares, or the fault that makes it malformed.

    ``action`` is a play whose card is already known to be a card of the deck.
    """
    keys = action.keys()
    has_call = "call" in keys
    has_suit = "suit" in keys
    if joker and leading:
        if not (has_call and has_suit):
            return CallFault.LED_WITHOUT_CALL
        if len(keys) != 4:
            return CallFault.LED_EXTRA_KEYS
        call = action["call"]
        if type(call) is not str or call not in calls.led:
            return CallFault.LED_WRONG_CALL
        suit = action["suit"]
        if type(suit) is not str or suit not in SUITS:
            return CallFault.LED_BAD_SUIT
        return call, suit
    if joker and calls.followed:
        if has_suit or not has_call:
            return CallFault.FOLLOWED_CALL
        call = action["call"]
        if type(call) is not str or call not in calls.followed:
            return CallFault.FOLLOWED_CALL
        if len(keys) != 3:
            return CallFault.EXTRA_KEYS
        return call, None
    if has_call or has_suit:
        return CallFault.FOLLOWED_CALL if joker else CallFault.PLAIN_CALL
    if len(keys) != 2:
        return CallFault.EXTRA_KEYS
    return None, None
