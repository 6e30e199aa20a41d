"""Toy Tricks: the rules engine of the suite's toy game (``RULES.md`` beside it, cited TT-n).

A small trick-taking game that proves a game needs nothing outside its own folder: it keeps the
engine contract (``games.rules.contract``) with the tools the built-in engines share, and the
site learns of it from its ``SPEC`` alone. Rules:

- TT-1 the 12-card deck (``DECK``); TT-2 two seats, three cards each from the seed, six unseen.
- TT-3 the first leader drawn from the seed, then alternating every hand (:func:`_deal`).
- TT-4 follow suit if able, else any card; TT-5 the highest card of the led suit takes the
  trick (:func:`trick_winner`) and the winner leads the next.
- TT-6 a trick is a point; the first seat to the target (option ``points``) wins at once.
- TT-7 forfeit: the match ends and the other seat wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules import storage
from games.rules.base import (
    PLAY_EXAMPLE,
    SUIT_SYMBOLS,
    CardCode,
    IllegalAction,
    InvalidDeal,
    Option,
    Phase,
    RulesError,
    SuitCode,
    TableOptions,
    evolver,
    gettext_noop,
    require_keys,
)
from games.rules.cards import deal_rng, rank_of, shuffled, sorted_cards
from games.rules.contract import Action, View
from games.rules.deals import check_cards, deal_list, deal_object, deal_scores, is_whole_number
from games.rules.tricks import (
    CompletedTrick,
    Play,
    completed_trick_from_public,
    completed_trick_public,
    hand_tricks_from_public,
    hand_tricks_public,
)

NAME = "toy_trick"
NUM_PLAYERS = 2
HAND_SIZE = 3  # TT-2
DECK: tuple[str, ...] = tuple(rank + suit for suit in "SH" for rank in "9TJQKA")  # TT-1
OPTION_SPECS: tuple[Option, ...] = (
    Option("points", gettext_noop("Tricks to win"), (3, 5), 5),  # TT-6
)
Pair = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Options(TableOptions):
    SPECS: ClassVar[tuple[Option, ...]] = OPTION_SPECS
    points: int = 5


class ToyView(View):
    target: int


def trick_winner(plays: Sequence[Play], trump: str | None) -> int:
    """TT-5: the highest card of the led suit (there are no trumps)."""
    led = plays[0].card[1]
    return max((p for p in plays if p.card[1] == led), key=lambda p: rank_of(p.card)).seat


@dataclass(frozen=True, slots=True, repr=False)
class State:
    """One moment of a match; :meth:`apply` returns a new one."""

    options: Options
    seed: str | int | None
    hand_number: int
    first: int  # who led the hand's first trick (TT-3)
    leader: int
    phase: Phase
    hands: Pair
    undealt: tuple[str, ...]
    trick: tuple[Play, ...]
    tricks: tuple[int, int]
    played: tuple[str, ...]  # the cards of this hand's completed tricks
    scores_: tuple[int, int]
    last_trick: CompletedTrick | None = None
    previous_hand: tuple[int, tuple[int, int]] | None = None  # (hand number, its tricks)
    hand_tricks: tuple[CompletedTrick, ...] = ()
    result_: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()

    def __repr__(self) -> str:  # no cards: a repr may end up in a log
        return f"<ToyTrick hand {self.hand_number} {self.phase.value}>"

    @property
    def to_act(self) -> int | None:
        if self.phase is not Phase.PLAY:
            return None
        return self.leader if not self.trick else 1 - self.leader

    @property
    def trump(self) -> str | None:
        return None

    @property
    def scores(self) -> list[int]:
        return list(self.scores_)

    @property
    def result(self) -> list[int] | None:
        return None if self.result_ is None else list(self.result_)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    def legal_actions(self) -> list[Action]:
        seat = self.to_act
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick:  # TT-4
            led = self.trick[0].card[1]
            hand = tuple(card for card in hand if card[1] == led) or hand
        return [{"type": "play", "card": card} for card in hand]

    def apply(self, action: object) -> State:
        if not isinstance(action, dict):
            raise IllegalAction(
                gettext_noop("An action must be an object such as {example}."),
                example=PLAY_EXAMPLE,
            )
        seat = self.to_act
        if seat is None:
            if self.is_over:
                raise IllegalAction(gettext_noop("The match is over: no more moves."))
            raise IllegalAction(gettext_noop("The hand is over: no more moves."))
        if action.get("type") != "play":
            raise IllegalAction(gettext_noop("Play a card: {example}."), example=PLAY_EXAMPLE)
        require_keys(action, ("type", "card"), PLAY_EXAMPLE)
        card = action["card"]
        if not isinstance(card, str) or card not in DECK:
            raise IllegalAction(gettext_noop("{card} is not a card of this deck."), card=repr(card))
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(gettext_noop("You do not hold {card}."), card=CardCode(card))
        if action not in self.legal_actions():  # TT-4
            led = self.trick[0].card[1]
            raise IllegalAction(
                gettext_noop("You must follow suit: play a {suit} ({symbol})."),
                suit=SuitCode(led),
                symbol=SUIT_SYMBOLS[led],
            )
        left = tuple(c for c in hand if c != card)
        hands = (left, self.hands[1]) if seat == 0 else (self.hands[0], left)
        trick = (*self.trick, Play(seat, card))
        if len(trick) < NUM_PLAYERS:
            return _evolve(self, hands=hands, trick=trick)
        winner = trick_winner(trick, None)
        tricks = (self.tricks[0] + (winner == 0), self.tricks[1] + (winner == 1))
        scores = (self.scores_[0] + (winner == 0), self.scores_[1] + (winner == 1))
        done = (trick, winner)
        state = _evolve(
            self,
            leader=winner,  # TT-5
            hands=hands,
            trick=(),
            tricks=tricks,
            played=(*self.played, *(play.card for play in trick)),
            scores_=scores,
            last_trick=done,
            hand_tricks=(*self.hand_tricks, done),
        )
        if scores[winner] >= self.options.points:  # TT-6
            return _evolve(state, phase=Phase.MATCH_OVER, result_=(winner,))
        if hands[0] or hands[1]:
            return state
        if self.seed is None:  # an explicit deal plays one hand
            return _evolve(state, phase=Phase.HAND_OVER, previous_hand=(self.hand_number, tricks))
        return _deal(
            self.options,
            self.seed,
            self.hand_number + 1,
            1 - self.first,  # TT-3
            scores,
            done,
            (self.hand_number, tricks),
        )

    def forfeit(self, seat: int) -> State:
        """TT-7: the match ends at once and the other seat wins it."""
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.is_over:
            raise IllegalAction(gettext_noop("The match is already over."))
        return _evolve(self, phase=Phase.MATCH_OVER, result_=(1 - seat,), forfeited=(seat,))

    def hidden_cards(self, seat: int | None) -> set[str]:
        hidden = set(self.undealt)
        for owner in (0, 1):
            if owner != seat:
                hidden.update(self.hands[owner])
        if self.last_trick is not None:  # still shown after the next deal: public
            hidden.difference_update(play.card for play in self.last_trick[0])
        return hidden

    def auto_trump_cards(self) -> list[str]:
        return [] if self.to_act is None else list(self.hands[self.to_act])

    def view(self, seat: int | None) -> ToyView:
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        view: ToyView = {
            "game": NAME,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "seat": seat,
            "players": NUM_PLAYERS,
            "hand_number": self.hand_number,
            "target": self.options.points,
            "tricks": list(self.tricks),
            "scores": list(self.scores_),
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader if self.phase is Phase.PLAY else None,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": _summary(self.previous_hand),
            "legal": self.legal_actions() if seat is not None and seat == self.to_act else [],
            "forfeited": list(self.forfeited),
            "hand_tricks": hand_tricks_public(self.hand_tricks),
            "trump": None,
            "result": self.result,
        }
        if seat is not None:
            view["hand"] = sorted_cards(self.hands[seat])
        return view

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "options": self.options.as_dict(),
            "seed": self.seed,
            "hand_number": self.hand_number,
            "first": self.first,
            "leader": self.leader,
            "phase": self.phase.value,
            "hands": [list(hand) for hand in self.hands],
            "undealt": list(self.undealt),
            "trick": [play.public() for play in self.trick],
            "tricks": list(self.tricks),
            "played": list(self.played),
            "scores": list(self.scores_),
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": None if self.previous_hand is None else list(self.previous_hand),
            "hand_tricks": hand_tricks_public(self.hand_tricks),
            "result": self.result,
            "forfeited": list(self.forfeited),
        }


_evolve = evolver(State)


def _summary(previous: tuple[int, tuple[int, int]] | None) -> dict[str, Any] | None:
    """The view's ``previous_hand``: a trick is a point (TT-6)."""
    if previous is None:
        return None
    number, tricks = previous
    return {"hand_number": number, "trump": None, "tricks": list(tricks), "points": list(tricks)}


def _start(
    options: Options,
    seed: str | int | None,
    hand_number: int,
    first: int,
    hands: Pair,
    undealt: tuple[str, ...],
    scores: tuple[int, int],
    last_trick: CompletedTrick | None = None,
    previous_hand: tuple[int, tuple[int, int]] | None = None,
) -> State:
    return State(
        options=options,
        seed=seed,
        hand_number=hand_number,
        first=first,
        leader=first,
        phase=Phase.PLAY,
        hands=hands,
        undealt=undealt,
        trick=(),
        tricks=(0, 0),
        played=(),
        scores_=scores,
        last_trick=last_trick,
        previous_hand=previous_hand,
    )


def _deal(
    options: Options,
    seed: str | int,
    hand_number: int,
    first: int,
    scores: tuple[int, int],
    last_trick: CompletedTrick | None = None,
    previous_hand: tuple[int, tuple[int, int]] | None = None,
) -> State:
    """TT-2, TT-3: three cards each from the seed; the rest stay unseen."""
    deck = shuffled(DECK, deal_rng(seed, hand_number))
    hands = (tuple(deck[:HAND_SIZE]), tuple(deck[HAND_SIZE : 2 * HAND_SIZE]))
    undealt = tuple(deck[2 * HAND_SIZE :])
    return _start(
        options, seed, hand_number, first, hands, undealt, scores, last_trick, previous_hand
    )


def _read_stored(data: Mapping[str, Any]) -> State:
    previous = data["previous_hand"]
    return State(
        options=Options.parse(data["options"]),
        seed=data["seed"],
        hand_number=data["hand_number"],
        first=data["first"],
        leader=data["leader"],
        phase=Phase(data["phase"]),
        hands=storage.pair(storage.card_tuples(data["hands"])),
        undealt=tuple(data["undealt"]),
        trick=tuple(Play.from_public(play) for play in data["trick"]),
        tricks=storage.pair(data["tricks"]),
        played=tuple(data["played"]),
        scores_=storage.pair(data["scores"]),
        last_trick=completed_trick_from_public(data["last_trick"]),
        previous_hand=None if previous is None else (previous[0], storage.pair(previous[1])),
        hand_tricks=hand_tricks_from_public(data),
        result_=None if data["result"] is None else tuple(data["result"]),
        forfeited=tuple(data["forfeited"]),
    )


class ToyTrick:
    """The game object of the engine contract."""

    name = NAME
    num_players = NUM_PLAYERS
    option_specs = OPTION_SPECS

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """Always two: the options do not change it."""
        self.parse_options(options)
        return NUM_PLAYERS

    def parse_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return Options.parse(options).as_dict()

    def new_match(self, options: Mapping[str, Any] | None, seed: str | int) -> State:
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise RulesError("The seed must be a string or an integer.")
        first = deal_rng(seed, 0).randrange(NUM_PLAYERS)  # TT-3
        return _deal(Options.parse(options), seed, 1, first, (0, 0))

    def from_deal(self, deal: object, options: Mapping[str, Any] | None = None) -> State:
        """One hand from ``{"leader": 0, "hands": [[3 cards], [3 cards]], "scores": [0, 0]}``;
        the six cards nobody holds are the deck's others."""
        parsed = Options.parse(options)
        given = deal_object(deal, "leader, hands and scores")
        if set(given) != {"leader", "hands", "scores"}:
            raise InvalidDeal("A deal has exactly leader, hands and scores.")
        leader = given["leader"]
        if not is_whole_number(leader) or leader not in (0, 1):
            raise InvalidDeal("leader must be seat 0 or 1.")
        hands = [
            deal_list(h, HAND_SIZE, f"hands[{s}]")
            for s, h in enumerate(deal_list(given["hands"], NUM_PLAYERS, "hands"))
        ]
        dealt = check_cards([c for hand in hands for c in hand], DECK, "Toy Tricks")
        scores = storage.pair(deal_scores(given["scores"], NUM_PLAYERS, target=parsed.points))
        undealt = tuple(card for card in DECK if card not in dealt)
        return _start(parsed, None, 1, leader, (tuple(hands[0]), tuple(hands[1])), undealt, scores)

    def from_dict(self, data: object) -> State:
        return storage.load(NAME, data, _read_stored)


GAME = ToyTrick()
