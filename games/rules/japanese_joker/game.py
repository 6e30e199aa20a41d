"""Japanese Joker: 2 players, 36 cards, five table columns each (the headline game).

Rules: ``docs/rules/japanese_joker.md`` (cited JJ-n), shared conventions in
``docs/rules/README.md`` § 0. This module implements every numbered rule:

- JJ-1 the 36-card deck with two jokers (``DECK``); JJ-2 two seats, a declarer and an opponent.
- JJ-3 hand-1 declarer drawn from the match seed; JJ-4 the declarer alternates every hand.
- JJ-5 three first cards each, seen only by their owner; JJ-6 trump chosen from five options
  (four suits or bezi), public; JJ-7 the other 15 cards each: 5 to the hand, 10 as 5 columns.
- JJ-8 .. JJ-12 columns: playing a face-up card moves the face-down card to the hand (JJ-9),
  the last-two-columns rule (JJ-10), hand plays leave the columns alone (JJ-11), face-down cards
  are never playable nor shown (JJ-12).
- JJ-13, JJ-14 available cards (hand + own face-up), the first card of the hand from the hand.
- JJ-15, JJ-16 leading: the trick winner leads; a led joker calls a suit ("want").
- JJ-17 .. JJ-19 the follower's legal cards (``tricks.follow_cards`` over the available cards);
  JJ-20, JJ-21 the trick winner (:func:`trick_winner`).
- JJ-22 hand scoring (the difference of tricks), JJ-23 the match target (table option
  ``points``), JJ-24 forfeit.

A state is a frozen slots dataclass of small tuples: a move builds the next state from the
fields it changes, so the server's hot path and the engine benchmark stay cheap, and no move can
leave a half-changed state behind. Nothing here imports Django, reads a clock or draws randomness
other than ``cards.deal_rng(seed, hand_number)``.

Undealt cards (trump phase) are kept in ``State.undealt`` in a fixed layout: per seat, 5 hand
cards then the 5 columns as (face-up, face-down) pairs; seat 0's 15 cards then seat 1's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .. import storage
from ..base import (
    PLAY_EXAMPLE,
    CardCode,
    IllegalAction,
    InvalidDeal,
    Option,
    Phase,
    RulesError,
    TableOptions,
    evolver,
    gettext_noop,
    require_keys,
)
from ..cards import JOKER_DECK, RANK_VALUE, SUITS, deal_rng, joker_deck, shuffled, sorted_cards
from ..contract import Action, View
from ..deals import check_cards, deal_list, deal_object, deal_scores, is_whole_number
from ..tricks import (
    CallFault,
    CompletedTrick,
    JokerCalls,
    Play,
    allows,
    completed_trick_from_public,
    completed_trick_public,
    follow_cards,
    follow_refusal,
    follow_requirement,
    hand_tricks_from_public,
    hand_tricks_public,
    joker_call,
)

NAME = "japanese_joker"
NUM_PLAYERS = 2
FIRST_CARDS = 3  # JJ-5
HAND_CARDS = 8  # JJ-7
COLUMNS = 5  # JJ-7
CARDS_PER_SEAT = 15  # JJ-7: dealt after the trump choice
DECK: tuple[str, ...] = tuple(joker_deck())  # JJ-1
DECK_SIZE = len(DECK)
TRUMP_CHOICES: tuple[str | None, ...] = (*SUITS, None)  # JJ-6: four suits or bezi
CALLS = JokerCalls(led=("want",), followed=())  # JJ-16: always "want"; JJ-17: no call after

OPTION_SPECS: tuple[Option, ...] = (
    Option("points", gettext_noop("Points to play to"), (11, 15, 21, 31), 21),  # JJ-23
)

_TRUMP_EXAMPLE = '{"type": "trump", "suit": "H"}'
_JOKER_LEAD_EXAMPLE = '{"type": "play", "card": "X1", "call": "want", "suit": "H"}'

# A column: (face_up, face_down), or None once it is gone (JJ-8).
Column = tuple[str, str] | None
Columns = tuple[Column, ...]
NO_COLUMNS: Columns = (None,) * COLUMNS
Pair = tuple[tuple[str, ...], tuple[str, ...]]  # one tuple of cards per seat


@dataclass(frozen=True, slots=True)
class Options(TableOptions):
    """The table options that change play (JJ-23): only the points to play to."""

    SPECS: ClassVar[tuple[Option, ...]] = OPTION_SPECS
    points: int = 21


class HandSummary(NamedTuple):
    """What is left of a finished hand for everybody to see (the view's ``previous_hand``)."""

    hand_number: int
    declarer: int
    trump: str | None
    tricks: tuple[int, int]
    points: tuple[int, int]

    def public(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "declarer": self.declarer,
            "trump": self.trump,
            "tricks": list(self.tricks),
            "points": list(self.points),
        }

    @classmethod
    def from_public(cls, data: Mapping[str, Any]) -> HandSummary:
        return cls(
            data["hand_number"],
            data["declarer"],
            data["trump"],
            storage.pair(data["tricks"]),
            storage.pair(data["points"]),
        )


class JapaneseJokerView(View):
    """A Japanese Joker view: the contract's keys and the columns (the Information table)."""

    target: int
    declarer: int
    columns: list[list[dict[str, str] | None]]
    known_in_hand: list[list[str]]
    revealed: list[int]


def hand_points(tricks: Sequence[int]) -> tuple[int, int]:
    """JJ-22: the seat with more tricks scores the difference; 9-9 scores nothing."""
    diff = tricks[0] - tricks[1]
    return (diff, 0) if diff > 0 else (0, -diff)


def trick_winner(plays: Sequence[Play], trump: str | None) -> int:
    """JJ-20, JJ-21: the seat that takes a two-card trick (leader's play, then follower's)."""
    lead, follow = plays
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


@dataclass(frozen=True, slots=True, repr=False)
class State:
    """One moment of a Japanese Joker match. Never changed: :meth:`apply` returns a new state."""

    options: Options
    seed: str | int | None
    hand_number: int
    declarer: int
    phase: Phase
    to_act: int | None
    trump: str | None
    trump_known: bool
    hands: Pair
    columns: tuple[Columns, Columns]
    undealt: tuple[str, ...]
    trick: tuple[Play, ...]
    leader: int | None
    tricks: tuple[int, int]
    played: tuple[str, ...]  # the cards of this hand's completed tricks
    scores_: tuple[int, int]
    result_: tuple[int, ...] | None = None
    last_trick: CompletedTrick | None = None
    previous_hand: HandSummary | None = None
    known: Pair = ((), ())  # face-up cards moved to a hand by JJ-10: public
    revealed: tuple[int, int] = (0, 0)  # face-down cards the last play moved to each hand
    forfeited: tuple[int, ...] = ()
    hand_tricks: tuple[CompletedTrick, ...] = ()  # this hand's completed tricks: public

    # -- the contract's read-only attributes -------------------------------------------------

    @property
    def scores(self) -> list[int]:
        return list(self.scores_)

    @property
    def result(self) -> list[int] | None:
        return None if self.result_ is None else list(self.result_)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    def __repr__(self) -> str:  # no cards: a repr may end up in a log
        return f"<JapaneseJoker hand {self.hand_number} {self.phase.value} to_act={self.to_act}>"

    # -- legal actions -------------------------------------------------------------------------

    def available(self, seat: int) -> list[str]:
        """JJ-13: hand + own face-up column cards (hand only for the first card of the hand)."""
        hand = list(self.hands[seat])
        if not self.played and not self.trick:
            return hand
        return hand + [column[0] for column in self.columns[seat] if column is not None]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order (hand order, then columns)."""
        seat = self.to_act
        if seat is None:
            return []
        if self.phase is Phase.TRUMP:
            return [{"type": "trump", "suit": suit} for suit in TRUMP_CHOICES]
        trick = self.trick
        if trick:  # JJ-13: from the second card on, face-up cards are available too
            available = [*self.hands[seat], *(c[0] for c in self.columns[seat] if c is not None)]
            cards = follow_cards(trick[0], available, self.trump)
            return [{"type": "play", "card": card} for card in cards]  # JJ-17: no joker call
        actions: list[Action] = []
        for card in self.available(seat):
            if card[0] == "X":  # JJ-16: a led joker calls any of the four suits, always "want"
                actions.extend(
                    {"type": "play", "card": card, "call": "want", "suit": suit} for suit in SUITS
                )
            else:
                actions.append({"type": "play", "card": card})
        return actions

    # -- apply -----------------------------------------------------------------------------

    def apply(self, action: object) -> State:
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
        for seat in range(NUM_PLAYERS):
            base = seat * CARDS_PER_SEAT
            hands.append(self.hands[seat] + undealt[base : base + HAND_CARDS - FIRST_CARDS])
            first_up = base + HAND_CARDS - FIRST_CARDS
            columns.append(
                tuple(
                    (undealt[first_up + 2 * i], undealt[first_up + 2 * i + 1])
                    for i in range(COLUMNS)
                )
            )
        return _evolve(
            self,
            trump=suit,
            trump_known=True,
            phase=Phase.PLAY,
            hands=(hands[0], hands[1]),
            columns=(columns[0], columns[1]),
            undealt=(),
            to_act=self.declarer,  # JJ-15: the declarer leads trick 1
            leader=self.declarer,
        )

    def _apply_play(self, action: dict[str, Any]) -> State:
        """JJ-9 .. JJ-21: check the card cheaply, move it, settle the trick and maybe the hand."""
        if action.get("type") != "play":
            if action.get("type") == "trump":
                raise IllegalAction(gettext_noop("Trumps are already chosen: play a card."))
            raise IllegalAction(gettext_noop("Play a card: {example}."), example=PLAY_EXAMPLE)
        card = action.get("card")
        if type(card) is not str or card not in JOKER_DECK:
            raise IllegalAction(gettext_noop("{card} is not a card of this deck."), card=repr(card))
        seat = self.to_act
        assert seat is not None  # the play phase always awaits a seat
        trick = self.trick
        leading = not trick
        joker = card[0] == "X"
        call_suit = None
        if (joker and leading) or len(action) != 2:
            declared = joker_call(action, joker, leading, CALLS)
            if isinstance(declared, CallFault):
                raise _call_refusal(declared)
            call_suit = declared[1]

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
        if not leading and not joker:  # JJ-17: a joker is always legal; JJ-14: available cards
            available = [*hand, *(c[0] for c in self.columns[seat] if c is not None)]
            requirement = follow_requirement(trick[0], available, self.trump)
            if not allows(requirement, card):
                raise follow_refusal(requirement)

        columns = self.columns
        known = self.known
        if column < 0:  # JJ-11: a card from the hand leaves the columns alone
            index = hand.index(card)
            new_hand = hand[:index] + hand[index + 1 :]
            revealed = (0, 0)
        else:
            new_hand, new_columns, moved_up = _play_from_column(hand, columns[seat], column)
            columns = (new_columns, columns[1]) if seat == 0 else (columns[0], new_columns)
            moved = 1 if moved_up is None else 2
            revealed = (moved, 0) if seat == 0 else (0, moved)
            if moved_up is not None:  # it was face up: public (JJ-10)
                seat_known = (*known[seat], moved_up)
                known = (seat_known, known[1]) if seat == 0 else (known[0], seat_known)
        if card in known[seat]:
            seat_known = tuple(c for c in known[seat] if c != card)
            known = (seat_known, known[1]) if seat == 0 else (known[0], seat_known)
        hands = (new_hand, self.hands[1]) if seat == 0 else (self.hands[0], new_hand)

        play = Play(seat, card, "want", call_suit) if call_suit is not None else Play(seat, card)
        if leading:
            return _play(
                self, 1 - seat, self.leader, hands, columns, (play,), self.tricks, self.played,
                self.last_trick, known, revealed, self.hand_tricks,
            )  # fmt: skip
        lead = trick[0]
        plays = (lead, play)
        winner = trick_winner(plays, self.trump)
        tricks = self.tricks
        tricks = (tricks[0] + 1, tricks[1]) if winner == 0 else (tricks[0], tricks[1] + 1)
        played = (*self.played, lead.card, card)
        done = (plays, winner)
        state = _play(  # JJ-15: the winner leads
            self, winner, winner, hands, columns, (), tricks, played, done, known, revealed,
            (*self.hand_tricks, done),
        )  # fmt: skip
        if len(played) == DECK_SIZE:
            return state._end_hand()
        return state

    def _end_hand(self) -> State:
        """JJ-22, JJ-23, JJ-4: score the hand, end the match or deal the next hand."""
        points = hand_points(self.tricks)
        scores = (self.scores_[0] + points[0], self.scores_[1] + points[1])
        summary = HandSummary(self.hand_number, self.declarer, self.trump, self.tricks, points)
        target = self.options.points
        if scores[0] >= target or scores[1] >= target:  # JJ-23: only one seat can score
            return _evolve(
                self,
                phase=Phase.MATCH_OVER,
                to_act=None,
                leader=None,
                scores_=scores,
                result_=(0,) if scores[0] >= target else (1,),
                previous_hand=summary,
                revealed=(0, 0),
            )
        if self.seed is None:  # an explicit deal plays one hand (docs/rules/README.md § 0.3)
            return _evolve(
                self,
                phase=Phase.HAND_OVER,
                to_act=None,
                leader=None,
                scores_=scores,
                previous_hand=summary,
                revealed=(0, 0),
            )
        return _deal_hand(
            self.options,
            self.seed,
            self.hand_number + 1,
            1 - self.declarer,  # JJ-4: alternate, whatever the result (also after 9-9)
            scores,
            self.last_trick,
            summary,
        )

    # -- forfeit -------------------------------------------------------------------------------

    def forfeit(self, seat: int) -> State:
        """JJ-24 (docs/rules/README.md § 0.6): the match ends at once and the other seat wins it."""
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.phase is Phase.MATCH_OVER:
            raise IllegalAction(gettext_noop("The match is already over."))
        return _evolve(
            self, phase=Phase.MATCH_OVER, to_act=None, result_=(1 - seat,), forfeited=(seat,)
        )

    # -- what each seat may see ----------------------------------------------------------------

    def _public_cards(self) -> set[str]:
        """Cards every seat may name now: played, face up, or moved to a hand face up (JJ-10)."""
        public = set(self.played)
        public.update(play.card for play in self.trick)
        for columns in self.columns:
            public.update(column[0] for column in columns if column is not None)
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
        """docs/rules/README.md § 0.6: the actor's own cards (in the trump phase its first 3)."""
        if self.to_act is None:
            return []
        return list(self.hands[self.to_act])

    def view(self, seat: int | None) -> JapaneseJokerView:
        """What ``seat`` (None: a spectator) may see, JSON-ready (the Information table)."""
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        phase = self.phase
        view: JapaneseJokerView = {
            "game": NAME,
            "phase": phase.value,
            "to_act": self.to_act,
            "seat": seat,
            "players": NUM_PLAYERS,
            "hand_number": self.hand_number,
            "target": self.options.points,
            "declarer": self.declarer,
            "tricks": list(self.tricks),
            "scores": list(self.scores_),
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader if phase is Phase.PLAY or phase is Phase.TRUMP else None,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": None if self.previous_hand is None else self.previous_hand.public(),
            "columns": [
                [None if column is None else {"up": column[0]} for column in columns]
                for columns in self.columns
            ],
            "known_in_hand": [sorted_cards(self.known[0]), sorted_cards(self.known[1])],
            "revealed": list(self.revealed),
            "forfeited": list(self.forfeited),
            "legal": self.legal_actions() if seat is not None and seat == self.to_act else [],
            "hand_tricks": hand_tricks_public(self.hand_tricks),
        }
        if self.trump_known:
            view["trump"] = self.trump
        if seat is not None:
            view["hand"] = sorted_cards(self.hands[seat])
        if self.result_ is not None:
            view["result"] = list(self.result_)
        return view

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, seed included, JSON-ready: for server storage only, never for a client."""
        return {
            "game": NAME,
            "options": self.options.as_dict(),
            "seed": self.seed,
            "hand_number": self.hand_number,
            "declarer": self.declarer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "trump": self.trump,
            "trump_known": self.trump_known,
            "hands": [list(self.hands[0]), list(self.hands[1])],
            "columns": [
                [None if column is None else list(column) for column in columns]
                for columns in self.columns
            ],
            "undealt": list(self.undealt),
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "tricks": list(self.tricks),
            "played": list(self.played),
            "scores": list(self.scores_),
            "result": self.result,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": None if self.previous_hand is None else self.previous_hand.public(),
            "known_in_hand": [list(self.known[0]), list(self.known[1])],
            "revealed": list(self.revealed),
            "forfeited": self.forfeited[0] if self.forfeited else None,
            "hand_tricks": hand_tricks_public(self.hand_tricks),
        }


# A play changes these fields (a move's hot path); any other move, any fields.
_play = evolver(
    State, "to_act", "leader", "hands", "columns", "trick", "tricks", "played", "last_trick",
    "known", "revealed", "hand_tricks",
)  # fmt: skip
_evolve = evolver(State)


def _call_refusal(fault: CallFault) -> IllegalAction:
    """JJ-16, JJ-17 in words: what is wrong with a play's joker call (or a call that is not one)."""
    if fault is CallFault.LED_WITHOUT_CALL:
        return IllegalAction(
            gettext_noop(
                'A led joker must call a suit: add "call": "want" and a "suit" (S, H, D or C).'
            )
        )
    if fault is CallFault.LED_EXTRA_KEYS:
        return IllegalAction(
            gettext_noop("This action takes exactly the keys {keys}: {example}."),
            keys="type, card, call, suit",
            example=_JOKER_LEAD_EXAMPLE,
        )
    if fault is CallFault.LED_WRONG_CALL:
        return IllegalAction(
            gettext_noop(
                'In Japanese Joker a led joker is always played to win: "call" must be "want".'
            )
        )
    if fault is CallFault.LED_BAD_SUIT:
        return IllegalAction(
            gettext_noop("A led joker calls one of the suits S, H, D or C (also in bezi).")
        )
    if fault is CallFault.FOLLOWED_CALL:
        return IllegalAction(
            gettext_noop(
                "A joker that is not led carries no call in Japanese Joker: send only the card."
            )
        )
    if fault is CallFault.PLAIN_CALL:
        return IllegalAction(gettext_noop("Only a led joker calls a suit: send only the card."))
    return IllegalAction(
        gettext_noop("This action takes exactly the keys {keys}: {example}."),
        keys="type, card",
        example=PLAY_EXAMPLE,
    )


def _play_from_column(
    hand: tuple[str, ...], columns: Columns, column: int
) -> tuple[tuple[str, ...], Columns, str | None]:
    """JJ-9, JJ-10: the column's face-down card (and maybe the last column) joins the hand.

    Returns the new hand, the new columns and the face-up card JJ-10 moved to the hand, if any.
    """
    down = columns[column][1]  # type: ignore[index]
    if COLUMNS - columns.count(None) >= 3:  # JJ-9
        return (*hand, down), (*columns[:column], None, *columns[column + 1 :]), None
    # JJ-10: never leave a single column standing
    other = next(c for i, c in enumerate(columns) if c is not None and i != column)
    return (*hand, down, other[0], other[1]), NO_COLUMNS, other[0]


def _trump_phase(
    options: Options,
    seed: str | int | None,
    hand_number: int,
    declarer: int,
    first: Pair,
    undealt: tuple[str, ...],
    scores: tuple[int, int],
    last_trick: CompletedTrick | None,
    previous_hand: HandSummary | None,
) -> State:
    """JJ-5: the state just after the first three cards each, the declarer to name trumps."""
    return State(
        options=options,
        seed=seed,
        hand_number=hand_number,
        declarer=declarer,
        phase=Phase.TRUMP,
        to_act=declarer,
        trump=None,
        trump_known=False,
        hands=first,
        columns=(NO_COLUMNS, NO_COLUMNS),
        undealt=undealt,
        trick=(),
        leader=declarer,
        tricks=(0, 0),
        played=(),
        scores_=scores,
        last_trick=last_trick,
        previous_hand=previous_hand,
    )


def _deal_hand(
    options: Options,
    seed: str | int,
    hand_number: int,
    declarer: int | None,
    scores: tuple[int, int],
    last_trick: CompletedTrick | None,
    previous_hand: HandSummary | None,
) -> State:
    """Deal hand ``hand_number`` from the seed; hand 1 also draws its declarer there (JJ-3)."""
    rng = deal_rng(seed, hand_number)
    if declarer is None:
        declarer = rng.randrange(NUM_PLAYERS)  # JJ-3
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


def _parse_deal(given: object, options: Options) -> State:
    """The explicit deal of docs/rules/japanese_joker.md; anything malformed is InvalidDeal."""
    deal = deal_object(given, "declarer, hands and columns")
    missing = sorted({"declarer", "hands", "columns"} - deal.keys())
    if missing:
        raise InvalidDeal("The deal is missing: {fields}.", fields=", ".join(missing))
    extra = sorted(str(key) for key in deal.keys() - {"declarer", "hands", "columns", "scores"})
    if extra:
        raise InvalidDeal("The deal has unknown fields: {fields}.", fields=", ".join(extra))
    declarer = deal["declarer"]
    if not is_whole_number(declarer) or declarer not in (0, 1):
        raise InvalidDeal("declarer must be seat 0 or 1.")
    hands = deal_list(deal["hands"], NUM_PLAYERS, "hands")
    hands = [deal_list(h, HAND_CARDS, f"hands[{seat}]") for seat, h in enumerate(hands)]
    columns = deal_list(deal["columns"], NUM_PLAYERS, "columns")
    columns = [deal_list(c, COLUMNS, f"columns[{seat}]") for seat, c in enumerate(columns)]
    pairs = [
        [
            deal_list(pair, 2, f"columns[{seat}][{i}] ([face_up, face_down])")
            for i, pair in enumerate(c)
        ]
        for seat, c in enumerate(columns)
    ]
    scores = deal_scores(deal.get("scores", [0, 0]), NUM_PLAYERS, target=options.points)
    # The shapes fix the count at 36 and no card comes twice, so every deck card is there.
    check_cards(
        [c for h in hands for c in h] + [c for c in pairs for p in c for c in p],
        JOKER_DECK,
        "Japanese Joker",
    )
    undealt: list[str] = []
    for seat in range(NUM_PLAYERS):
        undealt.extend(hands[seat][FIRST_CARDS:])
        for up, down in pairs[seat]:
            undealt += (up, down)
    first = (tuple(hands[0][:FIRST_CARDS]), tuple(hands[1][:FIRST_CARDS]))
    return _trump_phase(
        options, None, 1, declarer, first, tuple(undealt), storage.pair(scores), None, None
    )


def _read_stored(data: Mapping[str, Any]) -> State:
    """The state :meth:`State.to_dict` wrote."""
    previous = data["previous_hand"]
    forfeited = data["forfeited"]
    return State(
        options=Options.parse(data["options"]),
        seed=data["seed"],
        hand_number=int(data["hand_number"]),
        declarer=int(data["declarer"]),
        phase=Phase(data["phase"]),
        to_act=data["to_act"],
        trump=data["trump"],
        trump_known=bool(data["trump_known"]),
        hands=storage.pair(storage.card_tuples(data["hands"])),
        columns=storage.pair(
            tuple(
                tuple(None if column is None else (column[0], column[1]) for column in columns)
                for columns in data["columns"]
            )
        ),
        undealt=tuple(data["undealt"]),
        trick=tuple(Play.from_public(play) for play in data["trick"]),
        leader=data["leader"],
        tricks=storage.pair(data["tricks"]),
        played=tuple(data["played"]),
        scores_=storage.pair(data["scores"]),
        result_=None if data["result"] is None else tuple(data["result"]),
        last_trick=completed_trick_from_public(data["last_trick"]),
        previous_hand=None if previous is None else HandSummary.from_public(previous),
        known=storage.pair(storage.card_tuples(data["known_in_hand"])),
        revealed=storage.pair(data["revealed"]),
        forfeited=() if forfeited is None else (forfeited,),
        hand_tricks=hand_tricks_from_public(data),
    )


class JapaneseJoker:
    """The game object the server gets from ``get_game("japanese_joker")``."""

    name = NAME
    num_players = NUM_PLAYERS
    option_specs = OPTION_SPECS

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """Always two: the options do not change it."""
        self.parse_options(options)
        return NUM_PLAYERS

    def parse_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown option or value raises InvalidOptions."""
        return Options.parse(options).as_dict()

    def new_match(self, options: Mapping[str, Any] | None, seed: str | int) -> State:
        """A match whose every deal (and hand-1 declarer, JJ-3) comes from ``seed``."""
        if type(seed) not in (str, int):
            raise RulesError("A match seed must be a string or an integer.")
        return _deal_hand(Options.parse(options), seed, 1, None, (0, 0), None, None)

    def from_deal(self, deal: object, options: Mapping[str, Any] | None = None) -> State:
        """One hand from an explicit deal (docs/rules/japanese_joker.md § Explicit deal)."""
        return _parse_deal(deal, Options.parse(options))

    def from_dict(self, data: object) -> State:
        """The state ``to_dict`` stored; a malformed record is a RulesError."""
        return storage.load(NAME, data, _read_stored)


GAME = JapaneseJoker()
