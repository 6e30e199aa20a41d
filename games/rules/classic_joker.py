"""Classic Georgian Joker (ჯოკერი), 4 players: the rules of ``shared/rules/classic_joker.md``.

Implemented rules (each cited where it is enforced):

- CJ-1 the 36-card joker deck (``cards.joker_deck``); CJ-2 four seats clockwise, first dealer
  drawn from the seed, the deal passing left (seat + 1) after every deal.
- CJ-3 / CJ-4 the schedule of pulkas (:func:`schedule`, option ``pulkas``).
- CJ-5 trump from the turned card in deals of fewer than 9 cards (a joker: no-trump);
  CJ-6 the chooser's trump announcement after three cards in 9-card deals.
- CJ-7 one bid each from the dealer's left; CJ-8 the dealer restriction.
- CJ-9 left of the dealer leads trick 1; CJ-10 a led joker calls WANT or TAKE a suit;
  CJ-11 strict joker (option ``strict_joker``).
- CJ-12 a joker is always legal and, not led, is HIGH or LOW; CJ-13 / CJ-14 / CJ-15 following.
- CJ-16 the trick winner (:func:`trick_winner`).
- CJ-17 … CJ-21 deal scores (:func:`score_deal`, option ``khishti``).
- CJ-22 … CJ-25 premia and moshla (:func:`pulka_marks`, :func:`pulka_scores`, options
  ``premia`` and ``moshla``), applied after a pulka's last deal and marked on the sheet.
- CJ-26 the end of the match: highest total wins, equal totals share (:func:`final_ranking`).

Interpretations (documented here because the rules file is silent):

- ``from_deal``'s ``scores`` are the match totals before this deal; when ``pulka`` lists earlier
  deals of the pulka, their raw points are taken to be already inside those totals, and closing
  the pulka adds ``pulka_scores(rows) - raw`` (the premia and moshla change).
- ``result`` lists the winning seats starting from the first dealer's left, so the site can give
  an indivisible pot remainder to ``result[0]`` (CJ-26).
- A forfeited seat keeps playing (through a bot) and is ranked below every seat that stayed;
  forfeited seats rank among themselves by score. When the fourth seat forfeits nobody is left
  to play for, so the match ends at once and all four are ranked by score.
- In the state dict, the *places* of cards are ``hands``, ``pending`` (9-card deals: the six
  cards each seat still gets after the trump choice), ``undealt``, ``trump_card``, ``played``
  (completed tricks of this deal) and ``trick``; ``last_trick`` is a record that may repeat
  codes (it survives into the next deal so the page can show it).
- ``hidden_cards`` counts a card of ``last_trick`` as public even after the next deal is dealt,
  because every view still shows it; for the same reason ``previous_hand`` names no card (the
  previous deal's turned card is left out of it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
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
    parse_options,
)
from .cards import JOKER_DECK, SUITS, deal_rng, joker_deck, rank_of, shuffled, sorted_cards
from .tricks import Play, completed_trick_public

NUM_PLAYERS = 4

OPTION_SPECS: tuple[Option, ...] = (
    Option("pulkas", "Pulkas", ("standard", "nines"), "standard"),
    Option("khishti", "Khishti", (-200, -500, -900), -200),
    Option("premia", "Premia", (True, False), True),
    Option("moshla", "Moshla", (True, False), True),
    Option("strict_joker", "Strict joker", (False, True), False),
)

# CJ-3: 1..8, four nines, 8..1, four nines; CJ-4: four pulkas of four nines.
_STANDARD: tuple[tuple[int, int], ...] = (
    tuple((n, 0) for n in range(1, 9))
    + ((9, 1),) * 4
    + tuple((n, 2) for n in range(8, 0, -1))
    + ((9, 3),) * 4
)
_NINES: tuple[tuple[int, int], ...] = tuple((9, p) for p in range(4) for _ in range(4))
_SCHEDULES = {"standard": _STANDARD, "nines": _NINES}

_LED_CALLS = ("want", "take")
_FOLLOW_CALLS = ("high", "low")
_PLAIN_KEYS = frozenset({"type", "card"})
_LED_JOKER_KEYS = frozenset({"type", "card", "call", "suit"})
_FOLLOW_JOKER_KEYS = frozenset({"type", "card", "call"})


@dataclass(frozen=True)
class Options:
    """The table options that change play (stake and visibility belong to the site)."""

    pulkas: str = "standard"
    khishti: int = -200
    premia: bool = True
    moshla: bool = True
    strict_joker: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "pulkas": self.pulkas,
            "khishti": self.khishti,
            "premia": self.premia,
            "moshla": self.moshla,
            "strict_joker": self.strict_joker,
        }


def _options(options: Options | dict[str, Any] | None) -> Options:
    """Accept the parsed object or a (partial) dict, so the pure functions are easy to call."""
    if isinstance(options, Options):
        return options
    return Options(**parse_options(OPTION_SPECS, options))


# --------------------------------------------------------------------------- pure rules


def schedule(options: Options | dict[str, Any] | None = None) -> list[tuple[int, int]]:
    """(cards per deal, pulka index) for every deal of the match, in order (CJ-3, CJ-4)."""
    return list(_SCHEDULES[_options(options).pulkas])


def score_deal(
    cards: int, bid: int, taken: int, options: Options | dict[str, Any] | None = None
) -> int:
    """Points of one seat for one deal of ``cards`` cards (CJ-17 … CJ-21)."""
    if not (0 <= bid <= cards and 0 <= taken <= cards):
        raise ValueError(f"Bid {bid} and tricks {taken} must lie in 0…{cards}.")
    if bid == taken:
        if bid == cards:
            return 100 * cards  # CJ-17: bid and took every trick
        if bid == 0:
            return 50  # CJ-18: a pass made
        return 50 * bid + 50  # CJ-19
    if taken == 0:
        return _options(options).khishti  # CJ-20: khishti
    return 10 * taken  # CJ-21


def _seat_best(points: Sequence[Sequence[int]], seat: int) -> int:
    """Index of the seat's highest deal score; the earliest deal on ties (CJ-23)."""
    best = 0
    for index in range(1, len(points)):
        if points[index][seat] > points[best][seat]:
            best = index
    return best


def premia_seats(rows: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """Seats that made their bid exactly in every deal of the pulka, passes included (CJ-22)."""
    if not rows:
        return []
    return [s for s in range(NUM_PLAYERS) if all(row[s][1] == row[s][2] for row in rows)]


def pulka_marks(
    rows: Sequence[Sequence[Sequence[int]]], options: Options | dict[str, Any] | None = None
) -> list[list[str | None]]:
    """Per deal and seat: ``"doubled"`` (premia, CJ-23), ``"cancelled"`` (moshla, CJ-24) or None.

    ``rows`` is the pulka: one list per deal of four ``(cards, bid, taken)``. The marks are what
    the score sheet shows and what :func:`pulka_scores` adds up (CJ-25: raw scores of the pulka).
    """
    opts = _options(options)
    marks: list[list[str | None]] = [[None] * NUM_PLAYERS for _ in rows]
    if not opts.premia or not rows:
        return marks
    points = [[score_deal(n, b, t, opts) for n, b, t in row] for row in rows]
    winners = premia_seats(rows)
    for seat in winners:
        marks[_seat_best(points, seat)][seat] = "doubled"
    if opts.moshla and len(winners) == 1:
        for seat in range(NUM_PLAYERS):
            if seat in winners:
                continue
            best = _seat_best(points, seat)
            if points[best][seat] > 0:  # cancelling never raises a score
                marks[best][seat] = "cancelled"
    return marks


def pulka_scores(
    rows: Sequence[Sequence[Sequence[int]]], options: Options | dict[str, Any] | None = None
) -> list[int]:
    """The four pulka totals after premia and moshla (CJ-17 … CJ-25)."""
    opts = _options(options)
    marks = pulka_marks(rows, opts)
    totals = [0] * NUM_PLAYERS
    for row, row_marks in zip(rows, marks, strict=True):
        for seat, (n, bid, taken) in enumerate(row):
            points = score_deal(n, bid, taken, opts)
            mark = row_marks[seat]
            if mark == "doubled":
                points *= 2
            elif mark == "cancelled":
                points = 0
            totals[seat] += points
    return totals


def final_ranking(
    scores: Sequence[int], forfeited: Iterable[int] = (), first_dealer: int = 0
) -> tuple[list[int], list[int]]:
    """(winners, places) at the end of the match (CJ-26, rules/README.md § 0.6).

    Places are competition places (1, 1, 3, 4); seats that forfeited come after every seat that
    stayed. Winners are listed from the first dealer's left, the order in which an indivisible
    pot remainder is given. If every seat forfeited, all are ranked by score alone.
    """
    gone = set(forfeited)
    stayed = [s for s in range(NUM_PLAYERS) if s not in gone] or list(range(NUM_PLAYERS))
    left = [s for s in range(NUM_PLAYERS) if s not in stayed]
    places = [0] * NUM_PLAYERS
    for group, offset in ((stayed, 0), (left, len(stayed))):
        for seat in group:
            places[seat] = offset + 1 + sum(1 for other in group if scores[other] > scores[seat])
    order = [(first_dealer + 1 + k) % NUM_PLAYERS for k in range(NUM_PLAYERS)]
    winners = [s for s in order if s in stayed and places[s] == 1]
    return winners, places


def _requirement(trick: Sequence[Play], hand: Sequence[str], trump: str | None) -> tuple:
    """What the follower must play (CJ-13 … CJ-15), apart from a joker, which is always legal.

    ``("suit", s)``, ``("highest", card, s)``, ``("trump", t, s)`` or ``("any",)``.
    """
    lead = trick[0]
    if lead.card[0] == "X":
        suit, want = lead.suit, lead.call == "want"
    else:
        suit, want = lead.card[1], False
    suited = [card for card in hand if card[1] == suit]  # a joker's "1"/"2" is never a suit
    if suited:
        if want:  # CJ-14: the highest card of the wanted suit
            return ("highest", max(suited, key=rank_of), suit)
        return ("suit", suit)  # CJ-13, CJ-15
    if trump is not None and any(card[1] == trump for card in hand):
        return ("trump", trump, suit)
    return ("any",)


def _allows(requirement: tuple, card: str) -> bool:
    kind = requirement[0]
    if kind == "any" or card[0] == "X":  # CJ-12: a joker is always legal
        return True
    if kind == "highest":
        return card == requirement[1]
    return card[1] == requirement[1]


def _follow_error(requirement: tuple) -> IllegalAction:
    kind = requirement[0]
    if kind == "suit":
        return IllegalAction(
            gettext_noop("You must follow suit: play a {suit} or a joker."),
            suit=SuitCode(requirement[1]),
        )
    if kind == "highest":
        return IllegalAction(
            gettext_noop("The joker wants your highest {suit} ({card}): play it or a joker."),
            suit=SuitCode(requirement[2]),
            card=CardCode(requirement[1]),
        )
    return IllegalAction(
        gettext_noop(
            "You have no {suit} to follow with, so you must play a trump ({trump}) or a joker."
        ),
        suit=SuitCode(requirement[2]),
        trump=SuitCode(requirement[1]),
    )


def _best(plays: Iterable[Play], suit: str) -> Play | None:
    best = None
    for play in plays:
        if play.card[1] == suit and (best is None or rank_of(play.card) > rank_of(best.card)):
            best = play
    return best


def trick_winner(plays: Sequence[Play], trump: str | None) -> int:
    """The seat that wins a complete trick (CJ-16 a to d, in that order)."""
    lead = plays[0]
    high = None
    for play in plays[1:]:
        if play.call == "high":
            high = play
    if high is not None:
        return high.seat  # 16a: the last HIGH joker
    trumps = _best(plays, trump) if trump is not None else None
    if lead.card[0] == "X" and lead.call == "want":  # 16b
        if trumps is not None and lead.suit != trump:
            return trumps.seat
        return lead.seat
    if trumps is not None:
        return trumps.seat  # 16c: highest trump
    suit = lead.suit if lead.card[0] == "X" else lead.card[1]
    assert suit is not None  # a led joker always carries its called suit (CJ-10)
    follower = _best(plays, suit)
    if follower is not None:
        return follower.seat  # 16c: highest card of the led (or TAKE-called) suit
    return lead.seat  # 16d: TAKE with nobody following


# --------------------------------------------------------------------------- state


def _put(values: tuple, index: int, value: Any) -> tuple:
    """A copy of ``values`` with one item replaced (states share everything else)."""
    return (*values[:index], value, *values[index + 1 :])


@dataclass(eq=True, repr=False)
class State:
    """One moment of a match. Treat it as immutable: :meth:`apply` returns a new state.

    ``history`` holds one ``(deal_number, cards, bids, taken)`` per finished deal (the sheet);
    ``previous`` is the JSON summary of the last finished deal, or None.
    """

    options: Options
    seed: str | int | None
    first_dealer: int
    deal_number: int
    dealer: int
    phase: Phase
    to_act: int | None
    hands: tuple[tuple[str, ...], ...]
    pending: tuple[tuple[str, ...], ...] | None
    undealt: tuple[str, ...]
    trump_card: str | None
    trump_known: bool
    trump: str | None
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    leader: int
    trick: tuple[Play, ...]
    played: tuple[str, ...]
    last_trick: tuple[tuple[Play, ...], int] | None
    scores: list[int]
    history: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    previous: dict[str, Any] | None
    forfeited: tuple[int, ...]
    result: list[int] | None

    def __repr__(self) -> str:
        return (
            f"<classic_joker deal {self.deal_number} {self.phase.value} "
            f"to_act={self.to_act} scores={self.scores}>"
        )

    def _evolve(self, **changes: Any) -> State:
        """A shallow copy with some fields replaced: the fast way to make the next state."""
        new = object.__new__(State)
        fields = self.__dict__.copy()
        fields.update(changes)
        new.__dict__ = fields
        return new

    # ------------------------------------------------------------------ properties

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def cards(self) -> int:
        """Cards dealt to each seat in this deal."""
        return _SCHEDULES[self.options.pulkas][self.deal_number - 1][0]

    @property
    def pulka(self) -> int:
        return _SCHEDULES[self.options.pulkas][self.deal_number - 1][1]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, in a fixed order (README § 0.3)."""
        if self.to_act is None:
            return []
        if self.phase is Phase.TRUMP:
            return self._legal_trump()
        if self.phase is Phase.BID:
            return self._legal_bid()
        return self._legal_play()

    def _legal_trump(self) -> list[dict[str, Any]]:
        """CJ-6: any of the four suits or no-trump."""
        return [{"type": "trump", "suit": suit} for suit in (*SUITS, None)]

    def _legal_bid(self) -> list[dict[str, Any]]:
        return [{"type": "bid", "tricks": bid} for bid in self._bids_allowed()]

    def _legal_play(self) -> list[dict[str, Any]]:
        """CJ-10 … CJ-15: the cards of the hand the rules allow, jokers with each declaration."""
        hand = self.hands[self.to_act]  # type: ignore[index]
        actions: list[dict[str, Any]] = []
        if not self.trick:
            strict = self.options.strict_joker and any(card[0] != "X" for card in hand)
            for card in hand:
                if card[0] != "X":
                    actions.append({"type": "play", "card": card})
                elif not strict:  # CJ-10 / CJ-11
                    for call in _LED_CALLS:
                        for suit in SUITS:
                            actions.append(
                                {"type": "play", "card": card, "call": call, "suit": suit}
                            )
            return actions
        requirement = _requirement(self.trick, hand, self.trump)
        for card in hand:
            if card[0] == "X":  # CJ-12
                for call in _FOLLOW_CALLS:
                    actions.append({"type": "play", "card": card, "call": call})
            elif _allows(requirement, card):
                actions.append({"type": "play", "card": card})
        return actions

    def _bids_allowed(self) -> list[int]:
        """CJ-7 (0…n), with CJ-8's dealer restriction for the last bid."""
        n = self.cards
        if self.to_act != self.dealer:
            return list(range(n + 1))
        forbidden = n - sum(bid for bid in self.bids if bid is not None)
        return [bid for bid in range(n + 1) if bid != forbidden]

    # ------------------------------------------------------------------ apply

    def apply(self, action: dict[str, Any]) -> State:
        """The state after ``action``; anything not legal raises :class:`IllegalAction`."""
        if not isinstance(action, dict):
            raise IllegalAction(
                gettext_noop("An action must be an object such as {example}."),
                example=PLAY_EXAMPLE,
            )
        if self.to_act is None:
            if self.phase is Phase.MATCH_OVER:
                raise IllegalAction(gettext_noop("The match is over: no more moves."))
            raise IllegalAction(gettext_noop("The hand is over: no more moves."))
        kind = action.get("type")
        if self.phase is Phase.PLAY:
            if kind != "play":
                raise IllegalAction(
                    gettext_noop("It is time to play a card, not {kind}."), kind=repr(kind)
                )
            return self._apply_play(action)
        if self.phase is Phase.BID:
            if kind != "bid":
                raise IllegalAction(gettext_noop("It is time to bid, not {kind}."), kind=repr(kind))
            return self._apply_bid(action)
        if kind != "trump":
            raise IllegalAction(
                gettext_noop("It is time to announce the trump, not {kind}."), kind=repr(kind)
            )
        return self._apply_trump(action)

    def _apply_trump(self, action: dict[str, Any]) -> State:
        """CJ-6: the chooser names the trump, then the other six cards each are dealt."""
        if set(action) != {"type", "suit"}:
            raise IllegalAction(
                gettext_noop("A trump choice is {example} (null for no-trump)."),
                example='{"type": "trump", "suit": "H"}',
            )
        suit = action["suit"]
        if suit is not None and not (isinstance(suit, str) and suit in SUITS):
            raise IllegalAction(
                gettext_noop("Choose a trump suit S, H, D or C, or null for bezi (no-trump).")
            )
        pending = self.pending or ((),) * NUM_PLAYERS
        hands = tuple(
            tuple(sorted_cards(hand + rest)) for hand, rest in zip(self.hands, pending, strict=True)
        )
        return self._evolve(
            hands=hands,
            pending=None,
            trump=suit,
            trump_known=True,
            phase=Phase.BID,
            to_act=(self.dealer + 1) % NUM_PLAYERS,
        )

    def _apply_bid(self, action: dict[str, Any]) -> State:
        """CJ-7 / CJ-8: one bid each, clockwise from the dealer's left; the dealer bids last."""
        if set(action) != {"type", "tricks"}:
            raise IllegalAction(
                gettext_noop("A bid is {example}."), example='{"type": "bid", "tricks": n}'
            )
        bid = action["tricks"]
        n = self.cards
        if type(bid) is not int or not 0 <= bid <= n:
            raise IllegalAction(gettext_noop("Bid a whole number of tricks from 0 to {n}."), n=n)
        seat = self.to_act
        assert seat is not None
        if seat == self.dealer:
            total = sum(other for other in self.bids if other is not None)
            if bid + total == n:
                raise IllegalAction(
                    gettext_noop(
                        "As dealer you may not bid {bid}: the bids would add up to {n}, "
                        "the number of cards."
                    ),
                    bid=bid,
                    n=n,
                )
        bids = _put(self.bids, seat, bid)
        if seat == self.dealer:  # the last bid: trick 1 is led from the dealer's left (CJ-9)
            return self._evolve(bids=bids, phase=Phase.PLAY, to_act=self.leader)
        return self._evolve(bids=bids, to_act=(seat + 1) % NUM_PLAYERS)

    def _apply_play(self, action: dict[str, Any]) -> State:
        """CJ-10 … CJ-16: check the card and the joker's declaration, then add it to the trick."""
        seat = self.to_act
        assert seat is not None
        card = action.get("card")
        if not isinstance(card, str):
            raise IllegalAction(
                gettext_noop("A play names a card, e.g. {example}."), example=PLAY_EXAMPLE
            )
        hand = self.hands[seat]
        if card not in hand:
            if card not in JOKER_DECK:
                raise IllegalAction(
                    gettext_noop("{card} is not a card of this deck."), card=repr(card)
                )
            raise IllegalAction(gettext_noop("You do not hold {card}."), card=CardCode(card))
        leading = not self.trick
        keys = set(action)
        if card[0] == "X":
            call = action.get("call")
            if leading:
                if keys != _LED_JOKER_KEYS or call not in _LED_CALLS:
                    raise IllegalAction(
                        gettext_noop(
                            'A led joker must say "want" or "take" and a suit, e.g. {example}.'
                        ),
                        example='{"type": "play", "card": "X1", "call": "want", "suit": "H"}',
                    )
                suit = action["suit"]
                if not (isinstance(suit, str) and suit in SUITS):
                    raise IllegalAction(
                        gettext_noop(
                            "A led joker calls one of the suits S, H, D or C (also in bezi)."
                        )
                    )
                if self.options.strict_joker and any(other[0] != "X" for other in hand):
                    raise IllegalAction(
                        gettext_noop(
                            "Strict joker: you may lead a joker only when you hold no other card."
                        )
                    )
                play = Play(seat, card, call, suit)
            else:
                if keys != _FOLLOW_JOKER_KEYS or call not in _FOLLOW_CALLS:
                    raise IllegalAction(
                        gettext_noop(
                            'A joker played after the lead must say "high" or "low", '
                            "e.g. {example}."
                        ),
                        example='{"type": "play", "card": "X1", "call": "high"}',
                    )
                play = Play(seat, card, call)
        else:
            if keys != _PLAIN_KEYS:
                raise IllegalAction(
                    gettext_noop("Playing a card is {example}, nothing more."), example=PLAY_EXAMPLE
                )
            if not leading:
                requirement = _requirement(self.trick, hand, self.trump)
                if not _allows(requirement, card):
                    raise _follow_error(requirement)
            play = Play(seat, card)
        index = hand.index(card)
        hands = _put(self.hands, seat, hand[:index] + hand[index + 1 :])
        trick = (*self.trick, play)
        if len(trick) < NUM_PLAYERS:
            return self._evolve(hands=hands, trick=trick, to_act=(seat + 1) % NUM_PLAYERS)
        winner = trick_winner(trick, self.trump)
        tricks = _put(self.tricks, winner, self.tricks[winner] + 1)
        played = self.played + tuple(p.card for p in trick)
        if hands[winner]:  # CJ-9 / README § 0.5: the winner leads the next trick
            return self._evolve(
                hands=hands,
                trick=(),
                tricks=tricks,
                played=played,
                last_trick=(trick, winner),
                leader=winner,
                to_act=winner,
            )
        done = self._evolve(
            hands=hands, trick=(), tricks=tricks, played=played, last_trick=(trick, winner)
        )
        return done._finish_deal()

    # ------------------------------------------------------------------ end of a deal

    def _pulka_rows(self, history: Sequence[tuple], pulka: int) -> list[list[tuple[int, int, int]]]:
        sched = _SCHEDULES[self.options.pulkas]
        return [
            [(row[1], row[2][s], row[3][s]) for s in range(NUM_PLAYERS)]
            for row in history
            if sched[row[0] - 1][1] == pulka
        ]

    def _finish_deal(self) -> State:
        """Score the deal (CJ-17 … CJ-21), close the pulka (CJ-22 … CJ-25), then move on."""
        opts = self.options
        n = self.cards
        bids = tuple(bid if bid is not None else 0 for bid in self.bids)
        points = [score_deal(n, bids[s], self.tricks[s], opts) for s in range(NUM_PLAYERS)]
        scores = [total + gained for total, gained in zip(self.scores, points, strict=True)]
        history = (*self.history, (self.deal_number, n, bids, self.tricks))
        sched = _SCHEDULES[opts.pulkas]
        index = self.deal_number - 1
        pulka = sched[index][1]
        closes = index == len(sched) - 1 or sched[index + 1][1] != pulka
        adjustments = [0] * NUM_PLAYERS
        premia: list[int] = []
        if closes:  # CJ-25: after the pulka's last deal, before the next deal
            rows = self._pulka_rows(history, pulka)
            totals = pulka_scores(rows, opts)
            raw = [sum(score_deal(*row[s], opts) for row in rows) for s in range(NUM_PLAYERS)]
            adjustments = [t - r for t, r in zip(totals, raw, strict=True)]
            scores = [s + a for s, a in zip(scores, adjustments, strict=True)]
            premia = premia_seats(rows) if opts.premia else []
        previous = {
            "deal_number": self.deal_number,
            "cards": n,
            "dealer": self.dealer,
            "trump": self.trump,
            "bids": list(bids),
            "tricks": list(self.tricks),
            "points": points,
            "pulka": pulka,
            "pulka_closed": closes,
            "premia": premia,
            "adjustments": adjustments,
        }
        if index == len(sched) - 1:  # CJ-26: the last deal and its premia end the match
            winners, _ = final_ranking(scores, self.forfeited, self.first_dealer)
            return self._evolve(
                phase=Phase.MATCH_OVER,
                to_act=None,
                scores=scores,
                history=history,
                previous=previous,
                result=winners,
            )
        if self.seed is None:  # from_deal: one hand only
            return self._evolve(
                phase=Phase.HAND_OVER,
                to_act=None,
                scores=scores,
                history=history,
                previous=previous,
            )
        return _deal(
            self.options,
            self.seed,
            self.first_dealer,
            self.deal_number + 1,
            scores=scores,
            history=history,
            previous=previous,
            last_trick=self.last_trick,
            forfeited=self.forfeited,
        )

    # ------------------------------------------------------------------ absence

    def forfeit(self, seat: int) -> State:
        """Record a seat that left (README § 0.6): a bot plays on; the leaver is ranked last."""
        if type(seat) is not int or not 0 <= seat < NUM_PLAYERS:
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.phase is Phase.MATCH_OVER:
            raise IllegalAction(gettext_noop("The match is already over."))
        if seat in self.forfeited:
            return self._evolve()
        forfeited = tuple(sorted((*self.forfeited, seat)))
        if len(forfeited) < NUM_PLAYERS:
            return self._evolve(forfeited=forfeited)
        # Everybody left: nobody is left to play for, so the match ends here.
        winners, _ = final_ranking(self.scores, forfeited, self.first_dealer)
        return self._evolve(
            forfeited=forfeited, phase=Phase.MATCH_OVER, to_act=None, result=winners
        )

    # ------------------------------------------------------------------ information

    def auto_trump_cards(self) -> list[str]:
        """The chooser's own visible cards (its first three in a 9-card deal, README § 0.6)."""
        if self.to_act is None:
            return []
        return list(self.hands[self.to_act])

    def hidden_cards(self, seat: int | None) -> set[str]:
        """Every card code whose place ``seat`` may not know now (the Information table)."""
        hidden = set(self.undealt)
        if self.pending is not None:
            for rest in self.pending:
                hidden.update(rest)
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden.update(hand)
        if self.last_trick is not None:  # shown to everyone, even after the next deal
            hidden.difference_update(play.card for play in self.last_trick[0])
        return hidden

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), JSON-ready."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < NUM_PLAYERS):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        sched = _SCHEDULES[self.options.pulkas]
        shown: dict[str, Any] = {
            "game": "classic_joker",
            "phase": self.phase.value,
            "to_act": self.to_act,
            "seat": seat,
            "players": NUM_PLAYERS,
            "options": self.options.as_dict(),
            "hand_number": self.deal_number,
            "deal_number": self.deal_number,
            "cards": self.cards,
            "pulka": self.pulka,
            "schedule": [n for n, _ in sched],
            "dealer": self.dealer,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "hand_counts": [len(hand) for hand in self.hands],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "last_trick": None,
            "previous_hand": None,
            "legal": self.legal_actions() if seat is not None and seat == self.to_act else [],
            "sheet": self.sheet(),
            "forfeited": list(self.forfeited),
        }
        if self.trump_known:
            shown["trump"] = self.trump
        if self.trump_card is not None:
            shown["trump_card"] = self.trump_card
        if seat is not None:
            shown["hand"] = sorted_cards(self.hands[seat])
        if self.last_trick is not None:
            shown["last_trick"] = completed_trick_public(self.last_trick)
        if self.previous is not None:
            shown["previous_hand"] = {
                key: list(value) if isinstance(value, list) else value
                for key, value in self.previous.items()
            }
        if self.result is not None:
            shown["result"] = list(self.result)
            shown["ranking"] = final_ranking(self.scores, self.forfeited, self.first_dealer)[1]
        return shown

    def sheet(self) -> dict[str, Any]:
        """The public score sheet: one row per finished deal and the pulka totals (CJ-25)."""
        rows, pulkas = _sheet(self.history, self.options)
        return {
            "rows": [
                {
                    "deal": deal,
                    "cards": cards,
                    "pulka": pulka,
                    "bids": list(bids),
                    "taken": list(taken),
                    "points": list(points),
                    "marks": list(marks),
                }
                for deal, cards, pulka, bids, taken, points, marks in rows
            ],
            "pulkas": [
                {
                    "pulka": pulka,
                    "complete": complete,
                    "premia": list(premia),
                    "totals": list(totals),
                }
                for pulka, complete, premia, totals in pulkas
            ],
        }

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """Everything, the seed included: for server storage only, never for a client."""
        return {
            "game": "classic_joker",
            "options": self.options.as_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "hands": [list(hand) for hand in self.hands],
            "pending": None if self.pending is None else [list(rest) for rest in self.pending],
            "undealt": list(self.undealt),
            "trump_card": self.trump_card,
            "trump_known": self.trump_known,
            "trump": self.trump,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "leader": self.leader,
            "trick": [play.public() for play in self.trick],
            "played": list(self.played),
            "last_trick": completed_trick_public(self.last_trick),
            "scores": list(self.scores),
            "history": [[d, n, list(b), list(t)] for d, n, b, t in self.history],
            "previous": None
            if self.previous is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.previous.items()},
            "forfeited": list(self.forfeited),
            "result": None if self.result is None else list(self.result),
        }


@lru_cache(maxsize=512)
def _sheet(history: tuple, options: Options) -> tuple[tuple, tuple]:
    """The sheet's numbers, cached: every view of every seat shows the same sheet."""
    sched = _SCHEDULES[options.pulkas]
    rows: list[tuple] = []
    pulkas: list[tuple] = []
    by_pulka: dict[int, list[tuple]] = {}
    for row in history:
        by_pulka.setdefault(sched[row[0] - 1][1], []).append(row)
    for pulka, deals in by_pulka.items():
        cells = [[(d[1], d[2][s], d[3][s]) for s in range(NUM_PLAYERS)] for d in deals]
        last_of_pulka = max(i for i, (_, p) in enumerate(sched) if p == pulka) + 1
        complete = deals[-1][0] == last_of_pulka
        marks: list[list[str | None]] = (
            pulka_marks(cells, options) if complete else [[None] * NUM_PLAYERS] * len(deals)
        )
        totals = [0] * NUM_PLAYERS
        for deal, row_cells, row_marks in zip(deals, cells, marks, strict=True):
            points = tuple(score_deal(n, b, t, options) for n, b, t in row_cells)
            shown: list[str | None] = []
            for seat in range(NUM_PLAYERS):
                mark = row_marks[seat]
                value = points[seat]
                if mark == "doubled":
                    value *= 2
                elif mark == "cancelled":
                    value = 0
                elif row_cells[seat][1] >= 1 and row_cells[seat][2] == 0:
                    mark = "khishti"
                totals[seat] += value
                shown.append(mark)
            rows.append((deal[0], deal[1], pulka, deal[2], deal[3], points, tuple(shown)))
        premia = premia_seats(cells) if complete and options.premia else []
        pulkas.append((pulka, complete, tuple(premia), tuple(totals)))
    return tuple(rows), tuple(pulkas)


def _deal(
    options: Options,
    seed: str | int,
    first_dealer: int,
    deal_number: int,
    *,
    scores: list[int],
    history: tuple = (),
    previous: dict[str, Any] | None = None,
    last_trick: tuple[tuple[Play, ...], int] | None = None,
    forfeited: tuple[int, ...] = (),
) -> State:
    """Deal ``deal_number`` from the seed, a card at a time from the dealer's left (CJ-2, 5, 6)."""
    n = _SCHEDULES[options.pulkas][deal_number - 1][0]
    dealer = (first_dealer + deal_number - 1) % NUM_PLAYERS  # CJ-2: the deal passes left
    deck = shuffled(joker_deck(), deal_rng(seed, deal_number))
    dealt: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    for k in range(NUM_PLAYERS * n):
        dealt[(dealer + 1 + k) % NUM_PLAYERS].append(deck[k])
    if n < 9:
        hands = [tuple(sorted_cards(cards)) for cards in dealt]
        pending = None
        undealt = tuple(deck[NUM_PLAYERS * n + 1 :])
        trump_card: str | None = deck[NUM_PLAYERS * n]
    else:
        hands = [tuple(cards[:3]) for cards in dealt]
        pending = [tuple(cards[3:]) for cards in dealt]
        undealt, trump_card = (), None
    return _start(
        options,
        seed,
        first_dealer,
        deal_number,
        dealer,
        hands=hands,
        pending=pending,
        undealt=undealt,
        trump_card=trump_card,
        scores=scores,
        history=history,
        previous=previous,
        last_trick=last_trick,
        forfeited=forfeited,
    )


def _start(
    options: Options,
    seed: str | int | None,
    first_dealer: int,
    deal_number: int,
    dealer: int,
    *,
    hands: list[tuple[str, ...]],
    pending: list[tuple[str, ...]] | None,
    undealt: tuple[str, ...],
    trump_card: str | None,
    scores: list[int],
    history: tuple,
    previous: dict[str, Any] | None = None,
    last_trick: tuple[tuple[Play, ...], int] | None = None,
    forfeited: tuple[int, ...] = (),
) -> State:
    """The state just after dealing: a 9-card deal waits for the trump (CJ-6), others bid (CJ-5)."""
    left = (dealer + 1) % NUM_PLAYERS
    nine = pending is not None
    turned_joker = trump_card is not None and trump_card[0] == "X"
    return State(
        options=options,
        seed=seed,
        first_dealer=first_dealer,
        deal_number=deal_number,
        dealer=dealer,
        phase=Phase.TRUMP if nine else Phase.BID,
        to_act=left,
        hands=tuple(hands),
        pending=tuple(pending) if pending is not None else None,
        undealt=undealt,
        trump_card=trump_card,
        trump_known=not nine,
        trump=None if nine or turned_joker or trump_card is None else trump_card[1],
        bids=(None,) * NUM_PLAYERS,
        tricks=(0,) * NUM_PLAYERS,
        leader=left,  # CJ-9
        trick=(),
        played=(),
        last_trick=last_trick,
        scores=list(scores),
        history=history,
        previous=previous,
        forfeited=forfeited,
        result=None,
    )


# --------------------------------------------------------------------------- explicit deals


def _deal_int(value: Any, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidDeal(
            "{name} must be a whole number from {low} to {high}; got {value}.",
            name=name,
            low=low,
            high=high,
            value=repr(value),
        )
    return value


def _deal_pulka(value: Any, options: Options, deal_number: int) -> tuple:
    """The optional ``pulka`` key: earlier deals of the same pulka as [cards, bid, taken] x 4."""
    sched = _SCHEDULES[options.pulkas]
    pulka = sched[deal_number - 1][1]
    before = sum(1 for d in range(deal_number - 1) if sched[d][1] == pulka)
    if not isinstance(value, list) or len(value) > before:
        raise InvalidDeal(
            "pulka must list at most the {before} earlier deal(s) of this pulka; got {value}.",
            before=before,
            value=repr(value),
        )
    rows = []
    first = deal_number - len(value)
    for offset, row in enumerate(value):
        number = first + offset
        n = sched[number - 1][0]
        if not isinstance(row, list | tuple) or len(row) != NUM_PLAYERS:
            raise InvalidDeal(
                "pulka deal {number} must list four [cards, bid, taken].", number=number
            )
        bids, taken = [], []
        for cell in row:
            if not isinstance(cell, list | tuple) or len(cell) != 3:
                raise InvalidDeal(
                    "pulka deal {number}: each seat is [cards, bid, taken].", number=number
                )
            if cell[0] != n or type(cell[0]) is not int:
                raise InvalidDeal(
                    "pulka deal {number} has {n} cards; got {got}.",
                    number=number,
                    n=n,
                    got=repr(cell[0]),
                )
            bids.append(_deal_int(cell[1], f"pulka deal {number} bid", 0, n))
            taken.append(_deal_int(cell[2], f"pulka deal {number} tricks", 0, n))
        if sum(taken) != n:
            raise InvalidDeal(
                "pulka deal {number}: the tricks taken must add up to {n}.", number=number, n=n
            )
        if sum(bids) == n:
            raise InvalidDeal(
                "pulka deal {number}: the bids may not add up to {n} (CJ-8).", number=number, n=n
            )
        rows.append((number, n, tuple(bids), tuple(taken)))
    return tuple(rows)


def _from_deal(deal: Any, options: Options | dict[str, Any] | None) -> State:
    opts = _options(options)
    if not isinstance(deal, dict):
        raise InvalidDeal("A deal must be an object with dealer, deal and hands.")
    extra = sorted(
        map(str, set(deal) - {"dealer", "deal", "hands", "trump_card", "scores", "pulka"})
    )
    if extra:
        raise InvalidDeal("Unknown key(s) in the deal: {keys}.", keys=", ".join(extra))
    missing = [key for key in ("dealer", "deal", "hands") if key not in deal]
    if missing:
        raise InvalidDeal("The deal is missing: {keys}.", keys=", ".join(missing))
    sched = _SCHEDULES[opts.pulkas]
    dealer = _deal_int(deal["dealer"], "dealer", 0, NUM_PLAYERS - 1)
    deal_number = _deal_int(deal["deal"], "deal", 1, len(sched))
    n = sched[deal_number - 1][0]
    hands = deal["hands"]
    if not isinstance(hands, list) or len(hands) != NUM_PLAYERS:
        raise InvalidDeal("hands must be a list of four hands (N, E, S, W).")
    seen: set[str] = set()
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != n:
            raise InvalidDeal(
                "Deal {number} gives {n} cards to each seat; seat {seat} is wrong.",
                number=deal_number,
                n=n,
                seat=seat,
            )
        for card in hand:
            if not isinstance(card, str) or card not in JOKER_DECK:
                raise InvalidDeal("{card} is not a card of the joker deck.", card=repr(card))
            if card in seen:
                raise InvalidDeal("{card} appears twice.", card=card)
            seen.add(card)
    trump_card = deal.get("trump_card")
    if n < 9:
        if not isinstance(trump_card, str) or trump_card not in JOKER_DECK:
            raise InvalidDeal(
                "A {n}-card deal needs the turned trump_card; got {card}.",
                n=n,
                card=repr(trump_card),
            )
        if trump_card in seen:
            raise InvalidDeal("{card} is both turned and in a hand.", card=trump_card)
    elif trump_card is not None:
        raise InvalidDeal("A 9-card deal has no turned card: the chooser announces the trump.")
    scores = deal.get("scores", [0] * NUM_PLAYERS)
    if (
        not isinstance(scores, list)
        or len(scores) != NUM_PLAYERS
        or any(type(score) is not int for score in scores)
    ):
        raise InvalidDeal("scores must be a list of four whole numbers.")
    history = _deal_pulka(deal["pulka"], opts, deal_number) if "pulka" in deal else ()
    first_dealer = (dealer - deal_number + 1) % NUM_PLAYERS
    nine = n == 9
    return _start(
        opts,
        None,
        first_dealer,
        deal_number,
        dealer,
        hands=[tuple(hand[:3]) if nine else tuple(sorted_cards(hand)) for hand in hands],
        pending=[tuple(hand[3:]) for hand in hands] if nine else None,
        undealt=() if nine else tuple(sorted_cards(JOKER_DECK - seen - {trump_card})),
        trump_card=trump_card,
        scores=list(scores),
        history=history,
    )


def _from_dict(data: dict[str, Any]) -> State:
    """Rebuild a stored state (the inverse of :meth:`State.to_dict`)."""
    try:
        if data.get("game") != "classic_joker":
            raise RulesError("This stored state is not a classic Joker match.")
        last = data["last_trick"]
        pending = data["pending"]
        return State(
            options=_options(data["options"]),
            seed=data["seed"],
            first_dealer=data["first_dealer"],
            deal_number=data["deal_number"],
            dealer=data["dealer"],
            phase=Phase(data["phase"]),
            to_act=data["to_act"],
            hands=tuple(tuple(hand) for hand in data["hands"]),
            pending=None if pending is None else tuple(tuple(rest) for rest in pending),
            undealt=tuple(data["undealt"]),
            trump_card=data["trump_card"],
            trump_known=data["trump_known"],
            trump=data["trump"],
            bids=tuple(data["bids"]),
            tricks=tuple(data["tricks"]),
            leader=data["leader"],
            trick=tuple(Play.from_public(p) for p in data["trick"]),
            played=tuple(data["played"]),
            last_trick=None
            if last is None
            else (tuple(Play.from_public(p) for p in last["plays"]), last["winner"]),
            scores=list(data["scores"]),
            history=tuple((d, n, tuple(b), tuple(t)) for d, n, b, t in data["history"]),
            previous=None
            if data["previous"] is None
            else {k: list(v) if isinstance(v, list) else v for k, v in data["previous"].items()},
            forfeited=tuple(data["forfeited"]),
            result=None if data["result"] is None else list(data["result"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(
            "Malformed stored classic Joker state: {error}.", error=repr(error)
        ) from error


# --------------------------------------------------------------------------- the game object


class ClassicJoker:
    """The game object of the engine contract (``games.rules.get_game("classic_joker")``)."""

    name = "classic_joker"
    num_players = NUM_PLAYERS
    option_specs = OPTION_SPECS

    def parse_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled; an unknown option or value raises InvalidOptions."""
        return parse_options(OPTION_SPECS, options)

    def new_match(self, options: dict[str, Any] | None, seed: str | int) -> State:
        """A match from its secret seed: the first dealer and every deal derive from it (CJ-2)."""
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise RulesError("The seed must be a string or an integer.")
        opts = _options(options)
        first_dealer = deal_rng(seed, 0).randrange(NUM_PLAYERS)  # "hand 0": the seating draw
        return _deal(opts, seed, first_dealer, 1, scores=[0] * NUM_PLAYERS)

    def from_deal(self, deal: dict[str, Any], options: dict[str, Any] | None = None) -> State:
        """One hand from an explicit deal (rules file § "Explicit deal"); no seed."""
        return _from_deal(deal, options)

    def from_dict(self, data: dict[str, Any]) -> State:
        return _from_dict(data)


GAME = ClassicJoker()
