"""Japanese Joker: 2 players, 36 cards, five table columns each (the headline game).

Rules: ``shared/rules/japanese_joker.md`` (cited JJ-n), shared conventions in
``shared/rules/README.md`` § 0. This module implements every numbered rule:

- JJ-1 the 36-card deck with two jokers (``DECK``); JJ-2 two seats, a declarer and an opponent.
- JJ-3 hand-1 declarer drawn from the match seed; JJ-4 the declarer alternates every hand.
- JJ-5 three first cards each, seen only by their owner; JJ-6 trump chosen from five options
  (four suits or bezi), public; JJ-7 the other 15 cards each: 5 to the hand, 10 as 5 columns.
- JJ-8 .. JJ-12 columns: playing a face-up card moves the face-down card to the hand (JJ-9),
  the last-two-columns rule (JJ-10), hand plays leave the columns alone (JJ-11), face-down cards
  are never playable nor shown (JJ-12).
- JJ-13, JJ-14 available cards (hand + own face-up), the first card of the hand from the hand.
- JJ-15, JJ-16 leading: the trick winner leads; a led joker calls a suit ("want").
- JJ-17 .. JJ-19 the follower's legal cards; JJ-20, JJ-21 the trick winner.
- JJ-22 hand scoring (the difference of tricks), JJ-23 the match target (table option
  ``points``), JJ-24 forfeit.

The state is a small immutable object of tuples: ``apply`` copies the top level and replaces only
what changed, so the server's hot path and the engine benchmark stay cheap. Nothing here imports
Django, reads a clock or draws randomness other than ``cards.deal_rng(seed, hand_number)``.

Undealt cards (trump phase) are kept in ``State.undealt`` in a fixed layout: per seat, 5 hand
cards then the 5 columns as (face-up, face-down) pairs; seat 0's 15 cards then seat 1's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import (
    PLAY_EXAMPLE,
    CardCode,
    IllegalAction,
    InvalidDeal,
    Option,
    Phase,
    RulesError,
    SuitCode,
    gettext_noop,
    require_keys,
)
from .base import parse_options as _parse_options
from .cards import JOKER_DECK, RANK_VALUE, SUITS, deal_rng, joker_deck, shuffled, sorted_cards
from .tricks import Play, completed_trick_public

NAME = "japanese_joker"
PLAYERS = 2
FIRST_CARDS = 3  # JJ-5
HAND_CARDS = 8  # JJ-7
COLUMNS = 5  # JJ-7
CARDS_PER_SEAT = 15  # JJ-7: dealt after the trump choice
DECK: tuple[str, ...] = tuple(joker_deck())  # JJ-1
DECK_SIZE = len(DECK)
TRUMP_CHOICES: tuple[str | None, ...] = (*SUITS, None)  # JJ-6: four suits or bezi
NO_COLUMNS: tuple[None, ...] = (None,) * COLUMNS

OPTION_SPECS: tuple[Option, ...] = (
    Option("points", "Points to play to", (11, 15, 21, 31), 21),  # JJ-23
)

_TRUMP_EXAMPLE = '{"type": "trump", "suit": "H"}'
_JOKER_LEAD_EXAMPLE = '{"type": "play", "card": "X1", "call": "want", "suit": "H"}'
_TRUMP_ACTIONS: tuple[tuple[str, str | None], ...] = tuple(("trump", s) for s in TRUMP_CHOICES)
_new = object.__new__


@dataclass(frozen=True)
class Options:
    """The table options that change play (JJ-23): only the points to play to."""

    points: int = 21

    @classmethod
    def parse(cls, given: dict[str, Any] | None) -> Options:
        return cls(**_parse_options(OPTION_SPECS, given))

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points}


def hand_points(tricks: tuple[int, int] | list[int]) -> tuple[int, int]:
    """JJ-22: the seat with more tricks scores the difference; 9-9 scores nothing."""
    diff = tricks[0] - tricks[1]
    return (diff, 0) if diff > 0 else (0, -diff)


def trick_winner(lead: Play, follow: Play, trump: str | None) -> int:
    """JJ-20, JJ-21: the seat that takes a two-card trick."""
    f = follow.card
    if f[0] == "X":  # JJ-20 / JJ-21: a joker beats a card; the second joker takes the trick
        return follow.seat
    led = lead.card
    if led[0] == "X":
        # JJ-21: only a trump cuts a joker that called a non-trump suit.
        if trump is not None and lead.suit != trump and f[1] == trump:
            return follow.seat
        return lead.seat
    if f[1] == led[1]:
        return follow.seat if RANK_VALUE[f[0]] > RANK_VALUE[led[0]] else lead.seat
    if trump is not None and f[1] == trump:
        return follow.seat
    return lead.seat


def follow_cards(available: list[str], lead: Play, trump: str | None) -> list[str]:
    """JJ-17 .. JJ-19: the follower's legal cards among its available cards (kept in order)."""
    if lead.card[0] == "X":
        called = lead.suit
        best = None
        for card in available:
            if card[1] == called and (best is None or RANK_VALUE[card[0]] > RANK_VALUE[best[0]]):
                best = card
        if best is not None:  # JJ-19a: the highest card of the called suit, or a joker
            return [c for c in available if c == best or c[0] == "X"]
    else:
        led = lead.card[1]
        if any(c[1] == led for c in available):  # JJ-18a: any card of the suit, or a joker
            return [c for c in available if c[1] == led or c[0] == "X"]
    if trump is not None and any(c[1] == trump for c in available):  # JJ-18b / JJ-19b
        return [c for c in available if c[1] == trump or c[0] == "X"]
    return list(available)  # JJ-18c / JJ-19c


class State:
    """One moment of a Japanese Joker match; never changed in place once handed out."""

    __slots__ = (
        "_result",
        "_scores",
        "columns",
        "declarer",
        "forfeited",
        "hand_number",
        "hands",
        "known",
        "last_trick",
        "leader",
        "options",
        "phase",
        "played",
        "previous_hand",
        "revealed",
        "seed",
        "to_act",
        "trick",
        "tricks",
        "trump",
        "trump_known",
        "undealt",
    )

    options: Options
    seed: str | int | None
    hand_number: int
    declarer: int
    phase: Phase
    to_act: int | None
    trump: str | None
    trump_known: bool
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    columns: tuple[tuple[tuple[str, str] | None, ...], ...]
    undealt: tuple[str, ...]
    trick: tuple[Play, ...]
    leader: int | None
    tricks: tuple[int, int]
    played: tuple[str, ...]
    _scores: tuple[int, int]
    _result: tuple[int, ...] | None
    last_trick: tuple[tuple[Play, ...], int] | None
    previous_hand: tuple[int, int, str | None, tuple[int, int], tuple[int, int]] | None
    known: tuple[tuple[str, ...], tuple[str, ...]]
    revealed: tuple[int, int]
    forfeited: int | None

    # -- the contract's read-only attributes -------------------------------------------------

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def result(self) -> list[int] | None:
        return None if self._result is None else list(self._result)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in State.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:  # no cards: a repr may end up in a log
        return f"<JapaneseJoker hand {self.hand_number} {self.phase.value} to_act={self.to_act}>"

    def _clone(self) -> State:
        new = _new(State)
        new.options = self.options
        new.seed = self.seed
        new.hand_number = self.hand_number
        new.declarer = self.declarer
        new.phase = self.phase
        new.to_act = self.to_act
        new.trump = self.trump
        new.trump_known = self.trump_known
        new.hands = self.hands
        new.columns = self.columns
        new.undealt = self.undealt
        new.trick = self.trick
        new.leader = self.leader
        new.tricks = self.tricks
        new.played = self.played
        new._scores = self._scores
        new._result = self._result
        new.last_trick = self.last_trick
        new.previous_hand = self.previous_hand
        new.known = self.known
        new.revealed = self.revealed
        new.forfeited = self.forfeited
        return new

    # -- legal actions -------------------------------------------------------------------------

    def _first_card(self) -> bool:
        """JJ-13: nothing has been played yet in this hand."""
        return not self.played and not self.trick

    def available(self, seat: int) -> list[str]:
        """JJ-13: hand + own face-up column cards (hand only for the first card of the hand)."""
        hand = list(self.hands[seat])
        if self._first_card():
            return hand
        return hand + [slot[0] for slot in self.columns[seat] if slot is not None]

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, in a fixed order (hand order, then columns)."""
        seat = self.to_act
        if seat is None:
            return []
        if self.phase is Phase.TRUMP:
            return [{"type": "trump", "suit": suit} for suit in TRUMP_CHOICES]
        trick = self.trick
        if trick:  # JJ-13: from the second card on, face-up cards are available too
            available = [*self.hands[seat], *(s[0] for s in self.columns[seat] if s is not None)]
            cards = follow_cards(available, trick[0], self.trump)
            return [{"type": "play", "card": card} for card in cards]  # JJ-17: no joker call
        available = self.available(seat)
        actions: list[dict[str, Any]] = []
        for card in available:
            if card[0] == "X":  # JJ-16: a led joker calls any of the four suits, always "want"
                actions.extend(
                    {"type": "play", "card": card, "call": "want", "suit": suit} for suit in SUITS
                )
            else:
                actions.append({"type": "play", "card": card})
        return actions

    # -- apply -----------------------------------------------------------------------------

    def apply(self, action: dict[str, Any]) -> State:
        """The state after ``action``; anything that is not a legal action raises IllegalAction."""
        if type(action) is not dict:
            raise IllegalAction(
                gettext_noop("An action must be an object such as {example}."),
                example=PLAY_EXAMPLE,
            )
        phase = self.phase
        if phase is Phase.PLAY:
            return self._apply_play(action)
        if phase is Phase.TRUMP:
            return self._apply_trump(action)
        if phase is Phase.MATCH_OVER:
            raise IllegalAction(gettext_noop("The match is over: no more moves."))
        raise IllegalAction(gettext_noop("The hand is over: no more moves."))

    def _apply_trump(self, action: dict[str, Any]) -> State:
        """JJ-6, JJ-7: the declarer names the trump (or bezi); the rest of the deal follows."""
        if action.get("type") != "trump":
            raise IllegalAction(
                gettext_noop(
                    "The declarer must choose trumps first: {example} (or null for bezi)."
                ),
                example=_TRUMP_EXAMPLE,
            )
        require_keys(action, ("type", "suit"), _TRUMP_EXAMPLE)
        suit = action["suit"]
        if not (suit is None or (type(suit) is str and suit in SUITS)):
            raise IllegalAction(
                gettext_noop("Choose a trump suit S, H, D or C, or null for bezi (no-trump).")
            )
        undealt = self.undealt
        hands = []
        columns = []
        for seat in range(PLAYERS):
            base = seat * CARDS_PER_SEAT
            hands.append(self.hands[seat] + undealt[base : base + HAND_CARDS - FIRST_CARDS])
            first_up = base + HAND_CARDS - FIRST_CARDS
            columns.append(
                tuple(
                    (undealt[first_up + 2 * i], undealt[first_up + 2 * i + 1])
                    for i in range(COLUMNS)
                )
            )
        new = self._clone()
        new.trump = suit
        new.trump_known = True
        new.phase = Phase.PLAY
        new.hands = (hands[0], hands[1])
        new.columns = (columns[0], columns[1])
        new.undealt = ()
        new.to_act = new.leader = self.declarer  # JJ-15: the declarer leads trick 1
        return new

    def _apply_play(self, action: dict[str, Any]) -> State:
        """JJ-9 .. JJ-21: check the card cheaply, move it, settle the trick and maybe the hand."""
        if action.get("type") != "play":
            if action.get("type") == "trump":
                raise IllegalAction(gettext_noop("Trumps are already chosen: play a card."))
            raise IllegalAction(gettext_noop("Play a card: {example}."), example=PLAY_EXAMPLE)
        card = action.get("card")
        if type(card) is not str or card not in JOKER_DECK:
            raise IllegalAction(gettext_noop("{card} is not a card of this deck."), card=repr(card))
        seat: int = self.to_act  # type: ignore[assignment]
        trick = self.trick
        leading = not trick
        joker = card[0] == "X"
        keys = action.keys()
        call_suit = None
        if joker and leading:  # JJ-16
            if "call" not in keys or "suit" not in keys:
                raise IllegalAction(
                    gettext_noop(
                        'A led joker must call a suit: add "call": "want" and a "suit" '
                        "(S, H, D or C)."
                    )
                )
            require_keys(action, ("type", "card", "call", "suit"), _JOKER_LEAD_EXAMPLE)
            if action["call"] != "want" or type(action["call"]) is not str:
                raise IllegalAction(
                    gettext_noop(
                        "In Japanese Joker a led joker is always played to win: "
                        '"call" must be "want".'
                    )
                )
            call_suit = action["suit"]
            if type(call_suit) is not str or call_suit not in SUITS:
                raise IllegalAction(
                    gettext_noop("A led joker calls one of the suits S, H, D or C (also in bezi).")
                )
        elif len(keys) != 2 or "card" not in keys:  # "type" is "play": exactly type and card
            if "call" in keys or "suit" in keys:
                if joker:
                    raise IllegalAction(
                        gettext_noop(
                            "A joker that is not led carries no call in Japanese Joker: "
                            "send only the card."
                        )
                    )
                raise IllegalAction(
                    gettext_noop("Only a led joker calls a suit: send only the card.")
                )
            require_keys(action, ("type", "card"), PLAY_EXAMPLE)

        hand = self.hands[seat]
        column = -1
        if card not in hand:
            for index, slot in enumerate(self.columns[seat]):
                if slot is not None and slot[0] == card:
                    column = index
                    break
            else:  # JJ-12: one message whatever the card is, so nothing hidden is given away
                raise IllegalAction(
                    gettext_noop(
                        "You cannot play {card}: it is not in your hand or face up on your columns."
                    ),
                    card=CardCode(card),
                )
            if leading and not self.played:  # JJ-13
                raise IllegalAction(
                    gettext_noop(
                        "The first card of the hand must come from your hand, not a column."
                    )
                )
        if not leading and not joker:  # JJ-17: a joker is always legal
            self._check_follow(seat, card, trick[0])

        new = self._clone()
        hands = list(self.hands)
        if column < 0:  # JJ-11: a card from the hand leaves the columns alone
            index = hand.index(card)
            hands[seat] = hand[:index] + hand[index + 1 :]
            new.revealed = (0, 0)
        else:
            new.revealed = self._play_from_column(new, hands, seat, column)
        new.hands = (hands[0], hands[1])
        known = self.known[seat]
        if card in known:
            known_list = list(self.known)
            known_list[seat] = tuple(c for c in known if c != card)
            new.known = (known_list[0], known_list[1])

        play = Play(seat, card, "want", call_suit) if call_suit is not None else Play(seat, card)
        if leading:
            new.trick = (play,)
            new.to_act = 1 - seat
            return new
        lead = trick[0]
        winner = trick_winner(lead, play, self.trump)
        new.trick = ()
        new.last_trick = ((lead, play), winner)
        new.played = (*self.played, lead.card, card)
        tricks = self.tricks
        if winner == 0:
            new.tricks = (tricks[0] + 1, tricks[1])
        else:
            new.tricks = (tricks[0], tricks[1] + 1)
        new.leader = new.to_act = winner  # JJ-15
        if len(new.played) == DECK_SIZE:
            return new._end_hand()
        return new

    def _play_from_column(
        self, new: State, hands: list[tuple[str, ...]], seat: int, column: int
    ) -> tuple[int, int]:
        """JJ-9, JJ-10: the column's face-down card (and maybe the last column) joins the hand."""
        columns = self.columns[seat]
        standing = COLUMNS - columns.count(None)
        down = columns[column][1]  # type: ignore[index]
        if standing >= 3:  # JJ-9
            hands[seat] = hands[seat] + (down,)
            remaining = (*columns[:column], None, *columns[column + 1 :])
            moved = 1
        else:  # JJ-10: never leave a single column standing
            other = next(s for i, s in enumerate(columns) if s is not None and i != column)
            hands[seat] = hands[seat] + (down, other[0], other[1])
            remaining = NO_COLUMNS
            known_list = list(self.known)
            known_list[seat] = known_list[seat] + (other[0],)  # it was face up: public
            new.known = (known_list[0], known_list[1])
            moved = 2
        all_columns = list(self.columns)
        all_columns[seat] = remaining
        new.columns = tuple(all_columns)
        return (moved, 0) if seat == 0 else (0, moved)

    def _check_follow(self, seat: int, card: str, lead: Play) -> None:
        """JJ-18, JJ-19 (over available cards, JJ-14) for one non-joker card, with the reason."""
        available = self.available(seat)
        trump = self.trump
        if lead.card[0] == "X":
            called = lead.suit
            best = None
            for c in available:
                if c[1] == called and (best is None or RANK_VALUE[c[0]] > RANK_VALUE[best[0]]):
                    best = c
            if best is not None:
                if card != best:
                    raise IllegalAction(
                        gettext_noop(
                            "The joker wants your highest {suit} ({card}): play it or a joker."
                        ),
                        suit=SuitCode(called),  # type: ignore[arg-type]
                        card=CardCode(best),
                    )
                return
            if trump is not None and card[1] != trump and any(c[1] == trump for c in available):
                raise _must_trump(called, trump)  # type: ignore[arg-type]
            return
        led = lead.card[1]
        if card[1] == led:
            return
        if any(c[1] == led for c in available):
            raise IllegalAction(
                gettext_noop("You must follow suit: play a {suit} or a joker."), suit=SuitCode(led)
            )
        if trump is not None and card[1] != trump and any(c[1] == trump for c in available):
            raise _must_trump(led, trump)

    def _end_hand(self) -> State:
        """JJ-22, JJ-23, JJ-4: score the hand, end the match or deal the next hand (fresh self)."""
        points = hand_points(self.tricks)
        scores = (self._scores[0] + points[0], self._scores[1] + points[1])
        self._scores = scores
        self.previous_hand = (self.hand_number, self.declarer, self.trump, self.tricks, points)
        self.to_act = None
        self.revealed = (0, 0)
        target = self.options.points
        if scores[0] >= target or scores[1] >= target:  # JJ-23: only one seat can score
            self.phase = Phase.MATCH_OVER
            self._result = (0,) if scores[0] >= target else (1,)
            self.leader = None
            return self
        if self.seed is None:  # an explicit deal plays one hand (README § 0.3)
            self.phase = Phase.HAND_OVER
            self.leader = None
            return self
        return _deal_hand(
            self.options,
            self.seed,
            self.hand_number + 1,
            1 - self.declarer,  # JJ-4: alternate, whatever the result (also after 9-9)
            scores,
            self.last_trick,
            self.previous_hand,
        )

    # -- forfeit -------------------------------------------------------------------------------

    def forfeit(self, seat: int) -> State:
        """JJ-24 (README § 0.6): the match ends at once and the other seat wins it."""
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.phase is Phase.MATCH_OVER:
            raise IllegalAction(gettext_noop("The match is already over."))
        new = self._clone()
        new.phase = Phase.MATCH_OVER
        new.to_act = None
        new._result = (1 - seat,)
        new.forfeited = seat
        return new

    # -- what each seat may see ----------------------------------------------------------------

    def _public_cards(self) -> set[str]:
        """Cards every seat may name now: played, face up, or moved to a hand face up (JJ-10)."""
        public = set(self.played)
        public.update(play.card for play in self.trick)
        for columns in self.columns:
            public.update(slot[0] for slot in columns if slot is not None)
        public.update(self.known[0])
        public.update(self.known[1])
        if self.last_trick is not None:  # shown to everyone, even after the next deal
            public.update(play.card for play in self.last_trick[0])
        return public

    def hidden_cards(self, seat: int | None) -> set[str]:
        """Every card code whose place ``seat`` may not know now (Information table)."""
        visible = self._public_cards()
        if seat is not None:
            visible.update(self.hands[seat])
        return set(JOKER_DECK) - visible

    def auto_trump_cards(self) -> list[str]:
        """README § 0.6: the actor's own visible cards (its first three in the trump phase)."""
        if self.to_act is None:
            return []
        return list(self.hands[self.to_act])

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, JSON-ready (the Information table)."""
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        phase = self.phase
        view: dict[str, Any] = {
            "game": NAME,
            "phase": phase.value,
            "to_act": self.to_act,
            "seat": seat,
            "players": PLAYERS,
            "hand_number": self.hand_number,
            "target": self.options.points,
            "declarer": self.declarer,
            "tricks": list(self.tricks),
            "scores": list(self._scores),
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader if phase is Phase.PLAY or phase is Phase.TRUMP else None,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": _previous_public(self.previous_hand),
            "columns": [
                [None if slot is None else {"up": slot[0]} for slot in columns]
                for columns in self.columns
            ],
            "known_in_hand": [sorted_cards(self.known[0]), sorted_cards(self.known[1])],
            "revealed": list(self.revealed),
            "forfeited": [] if self.forfeited is None else [self.forfeited],
            "legal": self.legal_actions() if seat is not None and seat == self.to_act else [],
        }
        if self.trump_known:
            view["trump"] = self.trump
        if seat is not None:
            view["hand"] = sorted_cards(self.hands[seat])
        if self._result is not None:
            view["result"] = list(self._result)
        return view

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, seed included, JSON-ready: for server storage only, never for a client."""
        return {
            "game": NAME,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "hand_number": self.hand_number,
            "declarer": self.declarer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "trump": self.trump,
            "trump_known": self.trump_known,
            "hands": [list(self.hands[0]), list(self.hands[1])],
            "columns": [
                [None if slot is None else list(slot) for slot in columns]
                for columns in self.columns
            ],
            "undealt": list(self.undealt),
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "tricks": list(self.tricks),
            "played": list(self.played),
            "scores": list(self._scores),
            "result": self.result,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": _previous_public(self.previous_hand),
            "known_in_hand": [list(self.known[0]), list(self.known[1])],
            "revealed": list(self.revealed),
            "forfeited": self.forfeited,
        }


def _must_trump(suit: str, trump: str) -> IllegalAction:
    """JJ-18, JJ-19: no card of the suit to follow, and a trump among the available cards."""
    return IllegalAction(
        gettext_noop(
            "You have no {suit} to follow with, so you must play a trump ({trump}) or a joker."
        ),
        suit=SuitCode(suit),
        trump=SuitCode(trump),
    )


def _previous_public(
    previous: tuple[int, int, str | None, tuple[int, int], tuple[int, int]] | None,
) -> dict[str, Any] | None:
    if previous is None:
        return None
    hand_number, declarer, trump, tricks, points = previous
    return {
        "hand_number": hand_number,
        "declarer": declarer,
        "trump": trump,
        "tricks": list(tricks),
        "points": list(points),
    }


def _trump_phase(
    options: Options,
    seed: str | int | None,
    hand_number: int,
    declarer: int,
    first: tuple[tuple[str, ...], tuple[str, ...]],
    undealt: tuple[str, ...],
    scores: tuple[int, int],
    last_trick: tuple[tuple[Play, ...], int] | None,
    previous_hand: tuple[int, int, str | None, tuple[int, int], tuple[int, int]] | None,
) -> State:
    """JJ-5: the state just after the first three cards each, the declarer to name trumps."""
    state = _new(State)
    state.options = options
    state.seed = seed
    state.hand_number = hand_number
    state.declarer = declarer
    state.phase = Phase.TRUMP
    state.to_act = declarer
    state.trump = None
    state.trump_known = False
    state.hands = first
    state.columns = (NO_COLUMNS, NO_COLUMNS)
    state.undealt = undealt
    state.trick = ()
    state.leader = declarer
    state.tricks = (0, 0)
    state.played = ()
    state._scores = scores
    state._result = None
    state.last_trick = last_trick
    state.previous_hand = previous_hand
    state.known = ((), ())
    state.revealed = (0, 0)
    state.forfeited = None
    return state


def _deal_hand(
    options: Options,
    seed: str | int,
    hand_number: int,
    declarer: int | None,
    scores: tuple[int, int],
    last_trick: tuple[tuple[Play, ...], int] | None,
    previous_hand: tuple[int, int, str | None, tuple[int, int], tuple[int, int]] | None,
) -> State:
    """Deal hand ``hand_number`` from the seed; hand 1 also draws its declarer there (JJ-3)."""
    rng = deal_rng(seed, hand_number)
    if declarer is None:
        declarer = rng.randrange(PLAYERS)  # JJ-3
    deck = shuffled(DECK, rng)
    first = (tuple(deck[0:FIRST_CARDS]), tuple(deck[FIRST_CARDS : 2 * FIRST_CARDS]))
    return _trump_phase(
        options,
        seed,
        hand_number,
        declarer,
        first,
        tuple(deck[2 * FIRST_CARDS :]),
        scores,
        last_trick,
        previous_hand,
    )


def _is_int(value: Any) -> bool:
    return type(value) is int


def _deal_list(value: Any, length: int, what: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise InvalidDeal("{what} must be a list.", what=what)
    if len(value) != length:
        raise InvalidDeal(
            "{what} must have {length} entries, not {count}.",
            what=what,
            length=length,
            count=len(value),
        )
    return list(value)


def _parse_deal(deal: Any, options: Options) -> State:
    """The explicit-deal format of the rules file; anything malformed raises InvalidDeal."""
    if not isinstance(deal, dict):
        raise InvalidDeal("A deal must be an object with declarer, hands and columns.")
    missing = sorted({"declarer", "hands", "columns"} - deal.keys())
    if missing:
        raise InvalidDeal("The deal is missing: {fields}.", fields=", ".join(missing))
    extra = sorted(str(key) for key in deal.keys() - {"declarer", "hands", "columns", "scores"})
    if extra:
        raise InvalidDeal("The deal has unknown fields: {fields}.", fields=", ".join(extra))
    declarer = deal["declarer"]
    if not _is_int(declarer) or declarer not in (0, 1):
        raise InvalidDeal("declarer must be seat 0 or 1.")
    hands = _deal_list(deal["hands"], PLAYERS, "hands")
    hands = [_deal_list(h, HAND_CARDS, f"hands[{seat}]") for seat, h in enumerate(hands)]
    columns = _deal_list(deal["columns"], PLAYERS, "columns")
    columns = [_deal_list(c, COLUMNS, f"columns[{seat}]") for seat, c in enumerate(columns)]
    pairs = [
        [
            _deal_list(pair, 2, f"columns[{seat}][{i}] ([face_up, face_down])")
            for i, pair in enumerate(c)
        ]
        for seat, c in enumerate(columns)
    ]
    scores = deal.get("scores", [0, 0])
    scores = _deal_list(scores, PLAYERS, "scores")
    if not all(_is_int(s) and s >= 0 for s in scores):
        raise InvalidDeal("scores must be two whole numbers, 0 or more.")
    if max(scores) >= options.points:
        raise InvalidDeal("scores already reach the target of {points}.", points=options.points)
    cards = [c for h in hands for c in h] + [c for c in pairs for p in c for c in p]
    seen: set[str] = set()
    for card in cards:
        if type(card) is not str or card not in JOKER_DECK:
            raise InvalidDeal("{card} is not a card of the Japanese Joker deck.", card=repr(card))
        if card in seen:
            raise InvalidDeal("{card} appears more than once in the deal.", card=card)
        seen.add(card)
    # Shapes fix the count at 36 and duplicates are refused, so every deck card is there.
    undealt: list[str] = []
    for seat in range(PLAYERS):
        undealt.extend(hands[seat][FIRST_CARDS:])
        for up, down in pairs[seat]:
            undealt += (up, down)
    first = (tuple(hands[0][:FIRST_CARDS]), tuple(hands[1][:FIRST_CARDS]))
    return _trump_phase(
        options, None, 1, declarer, first, tuple(undealt), (scores[0], scores[1]), None, None
    )


def _state_from_dict(data: dict[str, Any]) -> State:
    """Rebuild a stored state; a malformed record is a RulesError, not a half-built state."""
    try:
        if data["game"] != NAME:
            raise RulesError("This is not a stored {game} state.", game=NAME)
        state = _new(State)
        state.options = Options.parse(data["options"])
        state.seed = data["seed"]
        state.hand_number = int(data["hand_number"])
        state.declarer = int(data["declarer"])
        state.phase = Phase(data["phase"])
        state.to_act = data["to_act"]
        state.trump = data["trump"]
        state.trump_known = bool(data["trump_known"])
        state.hands = (tuple(data["hands"][0]), tuple(data["hands"][1]))
        state.columns = tuple(
            tuple(None if slot is None else (slot[0], slot[1]) for slot in columns)
            for columns in data["columns"]
        )
        state.undealt = tuple(data["undealt"])
        state.trick = tuple(Play.from_public(play) for play in data["trick"])
        state.leader = data["leader"]
        state.tricks = (data["tricks"][0], data["tricks"][1])
        state.played = tuple(data["played"])
        state._scores = (data["scores"][0], data["scores"][1])
        state._result = None if data["result"] is None else tuple(data["result"])
        last = data["last_trick"]
        state.last_trick = (
            None
            if last is None
            else (tuple(Play.from_public(play) for play in last["plays"]), last["winner"])
        )
        prev = data["previous_hand"]
        state.previous_hand = (
            None
            if prev is None
            else (
                prev["hand_number"],
                prev["declarer"],
                prev["trump"],
                (prev["tricks"][0], prev["tricks"][1]),
                (prev["points"][0], prev["points"][1]),
            )
        )
        state.known = (tuple(data["known_in_hand"][0]), tuple(data["known_in_hand"][1]))
        state.revealed = (data["revealed"][0], data["revealed"][1])
        state.forfeited = data["forfeited"]
    except (KeyError, IndexError, TypeError, ValueError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(
            "A stored {game} state is malformed ({error}).", game=NAME, error=repr(error)
        ) from None
    return state


class JapaneseJoker:
    """The game object the server gets from ``get_game("japanese_joker")``."""

    name = NAME
    num_players = PLAYERS
    option_specs = OPTION_SPECS

    def parse_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown option or value raises InvalidOptions."""
        return _parse_options(OPTION_SPECS, options)

    def new_match(self, options: dict[str, Any] | None, seed: str | int) -> State:
        """A match whose every deal (and hand-1 declarer, JJ-3) comes from ``seed``."""
        if type(seed) not in (str, int):
            raise RulesError("A match seed must be a string or an integer.")
        return _deal_hand(Options.parse(options), seed, 1, None, (0, 0), None, None)

    def from_deal(self, deal: dict[str, Any], options: dict[str, Any] | None) -> State:
        """One hand from an explicit deal (rules file § Explicit deal); it ends in hand_over."""
        return _parse_deal(deal, Options.parse(options))

    def from_dict(self, data: dict[str, Any]) -> State:
        """The state ``to_dict`` stored."""
        return _state_from_dict(data)


GAME = JapaneseJoker()
