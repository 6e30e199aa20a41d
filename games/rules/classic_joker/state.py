"""Classic Joker's state: bidding (CJ-7, CJ-8), play (CJ-9 … CJ-16), the end of a deal, absence,
what each seat may see, and storage.

A state is a frozen slots dataclass of small tuples; a move builds the next one from the fields
it changes (``base.evolver``), so no move can leave a half-changed state behind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, NotRequired

from .. import storage
from ..base import (
    PLAY_EXAMPLE,
    CardCode,
    IllegalAction,
    Phase,
    RulesError,
    evolver,
    gettext_noop,
)
from ..cards import JOKER_DECK, SUITS, rank_of, sorted_cards
from ..contract import Action, View
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
from .deals import Deal, Hands, deal_from_seed
from .options import Options
from .scoring import HistoryRow, final_ranking, premia_seats, pulka_scores, score_deal, sheet

NAME = "classic_joker"
CALLS = JokerCalls(led=("want", "take"), followed=("high", "low"))  # CJ-10, CJ-12

_LED_JOKER_EXAMPLE = '{"type": "play", "card": "X1", "call": "want", "suit": "H"}'
_FOLLOW_JOKER_EXAMPLE = '{"type": "play", "card": "X1", "call": "high"}'


class DealSummary(NamedTuple):
    """What is left of a finished deal for everybody to see (the view's ``previous_hand``).

    It names no card: the deal's turned card is not in it (see the package docstring).
    """

    deal_number: int
    cards: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    pulka: int
    pulka_closed: bool
    premia: tuple[int, ...]
    adjustments: tuple[int, ...]

    def public(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "cards": self.cards,
            "dealer": self.dealer,
            "trump": self.trump,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "points": list(self.points),
            "pulka": self.pulka,
            "pulka_closed": self.pulka_closed,
            "premia": list(self.premia),
            "adjustments": list(self.adjustments),
        }

    @classmethod
    def from_public(cls, data: Mapping[str, Any]) -> DealSummary:
        return cls(
            data["deal_number"],
            data["cards"],
            data["dealer"],
            data["trump"],
            tuple(data["bids"]),
            tuple(data["tricks"]),
            tuple(data["points"]),
            data["pulka"],
            data["pulka_closed"],
            tuple(data["premia"]),
            tuple(data["adjustments"]),
        )


class ClassicJokerView(View):
    """A classic Joker view: the contract's keys, the bids and the score sheet."""

    options: dict[str, Any]
    deal_number: int
    cards: int
    pulka: int
    schedule: list[int]
    dealer: int
    bids: list[int | None]
    sheet: dict[str, Any]
    trump_card: NotRequired[str]  # when a card was turned (CJ-5)
    ranking: NotRequired[list[int]]  # places, once the match is over


def _best(plays: Sequence[Play], suit: str) -> Play | None:
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


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of ``values`` with one item replaced (states share everything else)."""
    return (*values[:index], value, *values[index + 1 :])


@dataclass(frozen=True, slots=True, repr=False)
class State:
    """One moment of a classic Joker match. Never changed: :meth:`apply` returns a new state.

    ``history`` holds one ``(deal_number, cards, bids, taken)`` per finished deal (the sheet);
    ``previous`` sums up the last finished deal, or is None.
    """

    options: Options
    seed: str | int | None
    first_dealer: int
    deal_number: int
    dealer: int
    phase: Phase
    to_act: int | None
    hands: Hands
    pending: Hands | None
    undealt: tuple[str, ...]
    trump_card: str | None
    trump_known: bool
    trump: str | None
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    leader: int
    trick: tuple[Play, ...]
    played: tuple[str, ...]
    last_trick: CompletedTrick | None
    scores_: tuple[int, ...]
    history: tuple[HistoryRow, ...]
    previous: DealSummary | None
    forfeited: tuple[int, ...]
    result_: tuple[int, ...] | None
    hand_tricks: tuple[CompletedTrick, ...] = ()  # this deal's completed tricks: public

    def __repr__(self) -> str:  # no cards: a repr may end up in a log
        return (
            f"<classic_joker deal {self.deal_number} {self.phase.value} "
            f"to_act={self.to_act} scores={self.scores}>"
        )

    # ------------------------------------------------------------------ properties

    @property
    def hand_number(self) -> int:
        """The contract's hand is classic Joker's deal."""
        return self.deal_number

    @property
    def scores(self) -> list[int]:
        return list(self.scores_)

    @property
    def result(self) -> list[int] | None:
        """The winners, from the first dealer's left (CJ-26), once the match is over."""
        return None if self.result_ is None else list(self.result_)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def cards(self) -> int:
        """Cards dealt to each seat in this deal."""
        return self.options.schedule[self.deal_number - 1][0]

    @property
    def pulka(self) -> int:
        return self.options.schedule[self.deal_number - 1][1]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order (docs/rules/README.md § 0.3)."""
        if self.to_act is None:
            return []
        if self.phase is Phase.TRUMP:
            return [{"type": "trump", "suit": suit} for suit in (*SUITS, None)]  # CJ-6
        if self.phase is Phase.BID:
            return [{"type": "bid", "tricks": bid} for bid in self._bids_allowed()]
        return self._legal_play(self.to_act)

    def _legal_play(self, seat: int) -> list[Action]:
        """CJ-10 … CJ-15: the cards of the hand the rules allow, jokers with each declaration."""
        hand = self.hands[seat]
        actions: list[Action] = []
        if not self.trick:
            strict = self.options.strict_joker and any(card[0] != "X" for card in hand)
            for card in hand:
                if card[0] != "X":
                    actions.append({"type": "play", "card": card})
                elif not strict:  # CJ-10 / CJ-11
                    for call in CALLS.led:
                        for suit in SUITS:
                            actions.append(
                                {"type": "play", "card": card, "call": call, "suit": suit}
                            )
            return actions
        for card in follow_cards(self.trick[0], hand, self.trump):
            if card[0] == "X":  # CJ-12
                for call in CALLS.followed:
                    actions.append({"type": "play", "card": card, "call": call})
            else:
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

    def apply(self, action: object) -> State:
        """The state after ``action``; anything not legal raises :class:`IllegalAction`."""
        if not isinstance(action, dict):
            raise IllegalAction(
                gettext_noop("An action must be an object such as {example}."),
                example=PLAY_EXAMPLE,
            )
        seat = self.to_act
        if seat is None:
            if self.phase is Phase.MATCH_OVER:
                raise IllegalAction(gettext_noop("The match is over: no more moves."))
            raise IllegalAction(gettext_noop("The hand is over: no more moves."))
        kind = action.get("type")
        if self.phase is Phase.PLAY:
            if kind != "play":
                raise IllegalAction(
                    gettext_noop("It is time to play a card, not {kind}."), kind=repr(kind)
                )
            return self._apply_play(seat, action)
        if self.phase is Phase.BID:
            if kind != "bid":
                raise IllegalAction(gettext_noop("It is time to bid, not {kind}."), kind=repr(kind))
            return self._apply_bid(seat, action)
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
        pending = self.pending or ((),) * self.options.seats
        hands = tuple(
            tuple(sorted_cards(hand + rest)) for hand, rest in zip(self.hands, pending, strict=True)
        )
        return _evolve(
            self,
            hands=hands,
            pending=None,
            trump=suit,
            trump_known=True,
            phase=Phase.BID,
            to_act=(self.dealer + 1) % self.options.seats,
        )

    def _apply_bid(self, seat: int, action: dict[str, Any]) -> State:
        """CJ-7 / CJ-8: one bid each, clockwise from the dealer's left; the dealer bids last."""
        if set(action) != {"type", "tricks"}:
            raise IllegalAction(
                gettext_noop("A bid is {example}."), example='{"type": "bid", "tricks": n}'
            )
        bid = action["tricks"]
        n = self.cards
        if type(bid) is not int or not 0 <= bid <= n:
            raise IllegalAction(gettext_noop("Bid a whole number of tricks from 0 to {n}."), n=n)
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
            return _evolve(self, bids=bids, phase=Phase.PLAY, to_act=self.leader)
        return _evolve(self, bids=bids, to_act=(seat + 1) % self.options.seats)

    def _apply_play(self, seat: int, action: dict[str, Any]) -> State:
        """CJ-10 … CJ-16: check the card and the joker's declaration, then add it to the trick."""
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
        trick = self.trick
        leading = not trick
        joker = card[0] == "X"
        if joker or len(action) != 2:
            declared = joker_call(action, joker, leading, CALLS)
            if isinstance(declared, CallFault):
                raise _call_refusal(declared, joker)
            call, suit = declared
            if leading and self.options.strict_joker and any(c[0] != "X" for c in hand):
                raise IllegalAction(  # CJ-11
                    gettext_noop(
                        "Strict joker: you may lead a joker only when you hold no other card."
                    )
                )
            play = Play(seat, card, call, suit)
        else:
            if not leading:
                requirement = follow_requirement(trick[0], hand, self.trump)
                if not allows(requirement, card):
                    raise follow_refusal(requirement)
            play = Play(seat, card)
        index = hand.index(card)
        hands = _put(self.hands, seat, hand[:index] + hand[index + 1 :])
        trick = (*trick, play)
        seats = self.options.seats
        if len(trick) < seats:
            return _play(
                self,
                (seat + 1) % seats,
                hands,
                trick,
                self.tricks,
                self.leader,
                self.played,
                self.last_trick,
                self.hand_tricks,
            )
        winner = trick_winner(trick, self.trump)
        tricks = _put(self.tricks, winner, self.tricks[winner] + 1)
        played = self.played + tuple(p.card for p in trick)
        done = (trick, winner)
        hand_tricks = (*self.hand_tricks, done)
        if hands[winner]:  # CJ-9 / docs/rules/README.md § 0.5: the winner leads the next trick
            return _play(self, winner, hands, (), tricks, winner, played, done, hand_tricks)
        last = _play(self, None, hands, (), tricks, self.leader, played, done, hand_tricks)
        return last._finish_deal()

    # ------------------------------------------------------------------ end of a deal

    def _pulka_rows(
        self, history: tuple[HistoryRow, ...], pulka: int
    ) -> list[list[tuple[int, int, int]]]:
        sched = self.options.schedule
        return [
            [(row[1], row[2][s], row[3][s]) for s in range(self.options.seats)]
            for row in history
            if sched[row[0] - 1][1] == pulka
        ]

    def _finish_deal(self) -> State:
        """Score the deal (CJ-17 … CJ-21), close the pulka (CJ-22 … CJ-25), then move on."""
        opts = self.options
        n = self.cards
        bids = tuple(bid if bid is not None else 0 for bid in self.bids)
        seats = range(opts.seats)
        points = tuple(score_deal(n, bids[s], self.tricks[s], opts) for s in seats)
        scores = tuple(total + gained for total, gained in zip(self.scores_, points, strict=True))
        history = (*self.history, (self.deal_number, n, bids, self.tricks))
        sched = opts.schedule
        index = self.deal_number - 1
        pulka = sched[index][1]
        closes = index == len(sched) - 1 or sched[index + 1][1] != pulka
        adjustments: tuple[int, ...] = (0,) * opts.seats
        premia: list[int] = []
        if closes:  # CJ-25: after the pulka's last deal, before the next deal
            rows = self._pulka_rows(history, pulka)
            totals = pulka_scores(rows, opts)
            raw = [sum(score_deal(*row[s], opts) for row in rows) for s in seats]
            adjustments = tuple(t - r for t, r in zip(totals, raw, strict=True))
            scores = tuple(s + a for s, a in zip(scores, adjustments, strict=True))
            premia = premia_seats(rows) if opts.premia else []
        previous = DealSummary(
            self.deal_number,
            n,
            self.dealer,
            self.trump,
            bids,
            self.tricks,
            points,
            pulka,
            closes,
            tuple(premia),
            adjustments,
        )
        if index == len(sched) - 1:  # CJ-26: the last deal and its premia end the match
            winners, _ = final_ranking(scores, self.forfeited, self.first_dealer)
            return _evolve(
                self,
                phase=Phase.MATCH_OVER,
                to_act=None,
                scores_=scores,
                history=history,
                previous=previous,
                result_=tuple(winners),
            )
        if self.seed is None:  # from_deal: one hand only
            return _evolve(
                self,
                phase=Phase.HAND_OVER,
                to_act=None,
                scores_=scores,
                history=history,
                previous=previous,
            )
        return start(
            opts,
            self.seed,
            self.first_dealer,
            deal_from_seed(opts, self.seed, self.first_dealer, self.deal_number + 1),
            scores=scores,
            history=history,
            previous=previous,
            last_trick=self.last_trick,
            forfeited=self.forfeited,
        )

    # ------------------------------------------------------------------ absence

    def forfeit(self, seat: int) -> State:
        """A seat left (docs/rules/README.md § 0.6): a bot plays on; the leaver is ranked last."""
        if type(seat) is not int or not 0 <= seat < self.options.seats:
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.phase is Phase.MATCH_OVER:
            raise IllegalAction(gettext_noop("The match is already over."))
        if seat in self.forfeited:
            return self
        forfeited = tuple(sorted((*self.forfeited, seat)))
        if len(forfeited) < self.options.seats:
            return _evolve(self, forfeited=forfeited)
        # Everybody left: nobody is left to play for, so the match ends here.
        winners, _ = final_ranking(self.scores_, forfeited, self.first_dealer)
        return _evolve(
            self, forfeited=forfeited, phase=Phase.MATCH_OVER, to_act=None, result_=tuple(winners)
        )

    # ------------------------------------------------------------------ information

    def auto_trump_cards(self) -> list[str]:
        """docs/rules/README.md § 0.6: the chooser's own cards (in a 9-card deal its first 3)."""
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

    def view(self, seat: int | None = None) -> ClassicJokerView:
        """What ``seat`` may see (None: a spectator), JSON-ready."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.options.seats):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        shown: ClassicJokerView = {
            "game": NAME,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "seat": seat,
            "players": self.options.seats,
            "options": self.options.as_dict(),
            "hand_number": self.deal_number,
            "deal_number": self.deal_number,
            "cards": self.cards,
            "pulka": self.pulka,
            "schedule": [n for n, _ in self.options.schedule],
            "dealer": self.dealer,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "scores": list(self.scores_),
            "hand_counts": [len(hand) for hand in self.hands],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "last_trick": None,
            "previous_hand": None,
            "legal": self.legal_actions() if seat is not None and seat == self.to_act else [],
            "sheet": self.sheet(),
            "forfeited": list(self.forfeited),
            "hand_tricks": hand_tricks_public(self.hand_tricks),
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
            shown["previous_hand"] = self.previous.public()
        if self.result_ is not None:
            shown["result"] = list(self.result_)
            shown["ranking"] = final_ranking(self.scores_, self.forfeited, self.first_dealer)[1]
        return shown

    def sheet(self) -> dict[str, Any]:
        """The public score sheet: one row per finished deal and the pulka totals (CJ-25)."""
        return sheet(self.history, self.options)

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """Everything, the seed included: for server storage only, never for a client."""
        return {
            "game": NAME,
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
            "scores": list(self.scores_),
            "history": [[d, n, list(b), list(t)] for d, n, b, t in self.history],
            "previous": None if self.previous is None else self.previous.public(),
            "forfeited": list(self.forfeited),
            "result": self.result,
            "hand_tricks": hand_tricks_public(self.hand_tricks),
        }


# A play changes these fields (a move's hot path); any other move, any fields.
_play = evolver(
    State, "to_act", "hands", "trick", "tricks", "leader", "played", "last_trick", "hand_tricks"
)
_evolve = evolver(State)


def _call_refusal(fault: CallFault, joker: bool) -> IllegalAction:
    """CJ-10, CJ-12 in words: what is wrong with a play's declaration (or its extra keys)."""
    if fault is CallFault.LED_BAD_SUIT:
        return IllegalAction(
            gettext_noop("A led joker calls one of the suits S, H, D or C (also in bezi).")
        )
    if fault in (CallFault.LED_WITHOUT_CALL, CallFault.LED_EXTRA_KEYS, CallFault.LED_WRONG_CALL):
        return IllegalAction(
            gettext_noop('A led joker must say "want" or "take" and a suit, e.g. {example}.'),
            example=_LED_JOKER_EXAMPLE,
        )
    if joker:
        return IllegalAction(
            gettext_noop('A joker played after the lead must say "high" or "low", e.g. {example}.'),
            example=_FOLLOW_JOKER_EXAMPLE,
        )
    return IllegalAction(
        gettext_noop("Playing a card is {example}, nothing more."), example=PLAY_EXAMPLE
    )


def start(
    options: Options,
    seed: str | int | None,
    first_dealer: int,
    deal: Deal,
    *,
    scores: tuple[int, ...],
    history: tuple[HistoryRow, ...],
    previous: DealSummary | None = None,
    last_trick: CompletedTrick | None = None,
    forfeited: tuple[int, ...] = (),
) -> State:
    """The state just after dealing: a 9-card deal waits for the trump (CJ-6), others bid (CJ-5)."""
    seats = options.seats
    left = (deal.dealer + 1) % seats
    nine = deal.pending is not None
    trump_card = deal.trump_card
    turned_joker = trump_card is not None and trump_card[0] == "X"
    return State(
        options=options,
        seed=seed,
        first_dealer=first_dealer,
        deal_number=deal.number,
        dealer=deal.dealer,
        phase=Phase.TRUMP if nine else Phase.BID,
        to_act=left,
        hands=deal.hands,
        pending=deal.pending,
        undealt=deal.undealt,
        trump_card=trump_card,
        trump_known=not nine,
        trump=None if nine or turned_joker or trump_card is None else trump_card[1],
        bids=(None,) * seats,
        tricks=(0,) * seats,
        leader=left,  # CJ-9
        trick=(),
        played=(),
        last_trick=last_trick,
        scores_=scores,
        history=history,
        previous=previous,
        forfeited=forfeited,
        result_=None,
    )


def read_stored(data: Mapping[str, Any]) -> State:
    """The state :meth:`State.to_dict` wrote."""
    pending = data["pending"]
    previous = data["previous"]
    return State(
        options=Options.parse(data["options"]),
        seed=data["seed"],
        first_dealer=data["first_dealer"],
        deal_number=data["deal_number"],
        dealer=data["dealer"],
        phase=Phase(data["phase"]),
        to_act=data["to_act"],
        hands=storage.card_tuples(data["hands"]),
        pending=None if pending is None else storage.card_tuples(pending),
        undealt=tuple(data["undealt"]),
        trump_card=data["trump_card"],
        trump_known=data["trump_known"],
        trump=data["trump"],
        bids=tuple(data["bids"]),
        tricks=tuple(data["tricks"]),
        leader=data["leader"],
        trick=tuple(Play.from_public(p) for p in data["trick"]),
        played=tuple(data["played"]),
        last_trick=completed_trick_from_public(data["last_trick"]),
        scores_=tuple(data["scores"]),
        history=tuple((d, n, tuple(b), tuple(t)) for d, n, b, t in data["history"]),
        previous=None if previous is None else DealSummary.from_public(previous),
        forfeited=tuple(data["forfeited"]),
        result_=None if data["result"] is None else tuple(data["result"]),
        hand_tricks=hand_tricks_from_public(data),
    )
