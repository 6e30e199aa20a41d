"""Japanese Whist (Japansk whist), two players, 52 cards, cards laid out on the table.

Rules: ``docs/rules/japanese_whist.md`` (shared conventions in ``docs/rules/README.md`` § 0).

Implemented rules, and where:

- JW-1 the 52-card deck, ace high: ``cards.full_deck``, :func:`trick_winner`.
- JW-2 first dealer drawn from the seed (the cut), the deal alternates:
  :meth:`JapaneseWhist.new_match`, :meth:`State._end_hand`.
- JW-3 10 face-down + 10 face-up layout cards and 6 hand cards each: :func:`_deal`,
  :meth:`JapaneseWhist.from_deal`.
- JW-4 the hand is locked and unseen, even by its owner, until trick 1 is complete:
  :attr:`State.hand_locked`, :meth:`State.view`, :meth:`State.hidden_cards`.
- JW-5 the forehand names a suit, never no-trump: :class:`TrumpsVariant`.
- JW-6 the card under a played layout card is turned up when the trick is complete:
  :func:`_turn_up`.
- JW-7, JW-8, JW-9 available cards (face-up layout, plus the hand from trick 2) and follow-suit
  over them only: :meth:`State._available`, :meth:`State._apply_play`.
- JW-10 forehand leads trick 1, the winner leads the next; 26 tricks: :meth:`State._resolve`.
- JW-11 follow suit if able, else any card; no obligation to trump or to win:
  :meth:`State._play_actions`, :meth:`State._apply_play`.
- JW-12 trick winner: :func:`trick_winner`.
- JW-13 tricks above 13 score: :meth:`TrumpsVariant.score`.
- JW-14 first to the target (5 / 7 / 13 / 21) at the end of a deal wins: :meth:`State._end_hand`.
- JW-15, JW-16, JW-17 the "spel or pass" variant, its declaration and its scoring:
  :class:`SpelPassVariant`.

A state is a frozen slots dataclass of small tuples: every change builds a new one, so ``apply``
can never leave a half-changed state behind. Nothing here imports Django; all randomness is
``cards.deal_rng(seed, hand_number)`` (hand number 0 is the cut for the first dealer).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .. import storage
from ..base import (
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
from ..cards import FULL_DECK, SUITS, deal_rng, full_deck, rank_of, shuffled, sorted_cards
from ..contract import Action, View
from ..deals import check_cards, deal_object, deal_scores
from ..tricks import (
    CompletedTrick,
    Play,
    completed_trick_from_public,
    completed_trick_public,
    hand_tricks_from_public,
    hand_tricks_public,
)

NAME = "japanese_whist"
NUM_PLAYERS = 2
POSITIONS = 10  # layout positions per player: 2 rows of 5 (JW-3)
HAND_SIZE = 6
TRICKS_PER_HAND = 26
HALF = 13  # tricks above (or below) this are what scores (JW-13, JW-16, JW-17)

OPTION_SPECS: tuple[Option, ...] = (
    Option(
        "variant",
        gettext_noop("Variant"),
        ("trumps", "spel_pass"),
        "trumps",
        value_labels=(
            ("trumps", gettext_noop("Trumps")),
            ("spel_pass", gettext_noop("Spel or pass")),
        ),
    ),
    Option("points", gettext_noop("Points to play to"), (5, 7, 13, 21), 13),
)

# A layout position: (face_up, face_down). (None, None) is empty; (None, card) is a position
# whose face-up card was played in the trick in progress and whose card beneath waits for the
# end of the trick to be turned up (JW-6).
Position = tuple[str | None, str | None]
Layout = tuple[Position, ...]
Pair = tuple[tuple[str, ...], tuple[str, ...]]  # one tuple of cards per seat


class HandSummary(NamedTuple):
    """What is left of a finished hand for everybody to see (the view's ``previous_hand``)."""

    hand_number: int
    dealer: int
    trump: str | None
    contract: str | None
    tricks: tuple[int, int]
    points: tuple[int, int]

    def public(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "forehand": 1 - self.dealer,
            "trump": self.trump,
            "contract": self.contract,
            "tricks": list(self.tricks),
            "points": list(self.points),
        }

    @classmethod
    def from_public(cls, data: Mapping[str, Any]) -> HandSummary:
        return cls(
            data["hand_number"],
            data["dealer"],
            data["trump"],
            data["contract"],
            storage.pair(data["tricks"]),
            storage.pair(data["points"]),
        )


# --- variants: what happens before trick 1 and how a hand scores ---------------------------


class TrumpsVariant:
    """The base game: the forehand names a trump suit (JW-5); tricks above 13 score (JW-13)."""

    name = "trumps"
    opening = Phase.TRUMP
    action_type = "trump"

    def opening_actions(self) -> list[Action]:
        return [{"type": "trump", "suit": suit} for suit in SUITS]

    def choose(self, action: dict[str, Any]) -> tuple[str | None, str | None]:
        """The (trump, contract) the action sets, or :class:`IllegalAction` (W-02)."""
        require_keys(action, ("type", "suit"), '{"type": "trump", "suit": "H"}')
        suit = action["suit"]
        if suit is None:
            raise IllegalAction(
                gettext_noop(
                    "No-trump is not played in Japanese Whist: choose spades (S), hearts (H), "
                    "diamonds (D) or clubs (C)."
                )
            )
        if not isinstance(suit, str) or suit not in SUITS:
            raise IllegalAction(
                gettext_noop(
                    "{suit} is not a suit: choose spades (S), hearts (H), diamonds (D) "
                    "or clubs (C)."
                ),
                suit=repr(suit),
            )
        return suit, None

    def score(self, tricks: tuple[int, int], dealer: int, contract: str | None) -> tuple[int, int]:
        """JW-13: one point per trick above 13 to the player who took more than 13."""
        return (max(tricks[0] - HALF, 0), max(tricks[1] - HALF, 0))


class SpelPassVariant:
    """Whist rules without trumps: the forehand declares spel or pass (JW-15 … JW-17)."""

    name = "spel_pass"
    opening = Phase.DECLARE
    action_type = "declare"
    contracts = ("spel", "pass")

    def opening_actions(self) -> list[Action]:
        return [{"type": "declare", "contract": contract} for contract in self.contracts]

    def choose(self, action: dict[str, Any]) -> tuple[str | None, str | None]:
        require_keys(action, ("type", "contract"), '{"type": "declare", "contract": "spel"}')
        contract = action["contract"]
        if not isinstance(contract, str) or contract not in self.contracts:
            raise IllegalAction(
                gettext_noop('Declare "spel" or "pass", not {contract}.'), contract=repr(contract)
            )
        return None, contract

    def score(self, tricks: tuple[int, int], dealer: int, contract: str | None) -> tuple[int, int]:
        """JW-16 (spel: a failed spel pays the dealer double) and JW-17 (pass: fewest tricks)."""
        points = [0, 0]
        if contract == "spel":
            forehand = 1 - dealer
            if tricks[forehand] > HALF:
                points[forehand] = tricks[forehand] - HALF
            elif tricks[forehand] < HALF:
                points[dealer] = 2 * (tricks[dealer] - HALF)
        else:
            for seat in (0, 1):
                if tricks[seat] < HALF:
                    points[seat] = HALF - tricks[seat]
        return (points[0], points[1])


TRUMPS = TrumpsVariant()
SPEL_PASS = SpelPassVariant()


@dataclass(frozen=True, slots=True)
class Options(TableOptions):
    """The table options that change play, parsed once (``variant`` and ``points``)."""

    SPECS: ClassVar[tuple[Option, ...]] = OPTION_SPECS
    variant: str = "trumps"
    points: int = 13

    @property
    def rules(self) -> TrumpsVariant | SpelPassVariant:
        """The variant's opening and scoring."""
        return TRUMPS if self.variant == "trumps" else SPEL_PASS


class JapaneseWhistView(View):
    """A Japanese Whist view: the contract's keys and the layouts (the Information table)."""

    variant: str
    target: int
    dealer: int
    forehand: int
    contract: str | None
    trick_number: int | None
    hand_locked: bool
    layout: list[list[dict[str, Any] | None]]


def hand_points(
    options: Options, tricks: tuple[int, int], dealer: int, contract: str | None
) -> tuple[int, int]:
    """Points each seat scores for a finished hand (JW-13, JW-16, JW-17)."""
    return options.rules.score(tricks, dealer, contract)


def trick_winner(plays: Sequence[Play], trump: str | None) -> int:
    """JW-12: the highest trump if any was played, otherwise the highest card of the led suit."""
    lead, answer = plays
    lead_suit, answer_suit = lead.card[1], answer.card[1]
    if answer_suit == lead_suit:
        return answer.seat if rank_of(answer.card) > rank_of(lead.card) else lead.seat
    return answer.seat if answer_suit == trump else lead.seat


# --- the state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class State:
    """One moment of a match. Never mutated: :meth:`apply` returns a new state."""

    options: Options
    seed: str | int | None
    hand_number: int
    dealer: int
    phase: Phase
    trump: str | None
    contract: str | None
    layouts: tuple[Layout, Layout]
    hands: Pair
    trick: tuple[Play, ...]
    leader: int
    won: Pair  # the cards of the tricks each seat has taken
    scores_: tuple[int, int]
    last_trick: CompletedTrick | None = None
    previous_hand: HandSummary | None = None
    result_: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()
    # (seat, position) of layout cards played to this trick with a face-down card beneath, to be
    # turned up when the trick is complete (JW-6). Derived from the layout, so not stored.
    pending: tuple[tuple[int, int], ...] = ()
    hand_tricks: tuple[CompletedTrick, ...] = ()  # this hand's completed tricks: public

    # --- the public contract -------------------------------------------------------------

    def __repr__(self) -> str:  # no cards: a repr may end up in a log
        return f"<JapaneseWhist hand {self.hand_number} {self.phase.value} to_act={self.to_act}>"

    @property
    def forehand(self) -> int:
        """JW-2: the non-dealer."""
        return 1 - self.dealer

    @property
    def to_act(self) -> int | None:
        phase = self.phase
        if phase is Phase.PLAY:
            return self.leader if not self.trick else 1 - self.leader
        if phase is Phase.TRUMP or phase is Phase.DECLARE:
            return 1 - self.dealer
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

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks taken in this hand (after its last trick: the final count)."""
        return (len(self.won[0]) // 2, len(self.won[1]) // 2)

    @property
    def hand_locked(self) -> bool:
        """JW-4: hand cards stay unseen and unplayable until the first trick is complete."""
        return not self.won[0] and not self.won[1]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order (layout positions, then hand)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return self._play_actions()
        if phase is Phase.TRUMP or phase is Phase.DECLARE:
            return self.options.rules.opening_actions()
        return []

    def apply(self, action: object) -> State:
        """The state after ``action``; :class:`IllegalAction`, and no change, if not legal."""
        if not isinstance(action, dict):
            raise IllegalAction(
                gettext_noop("An action must be an object such as {example}."),
                example=PLAY_EXAMPLE,
            )
        kind = action.get("type")
        phase = self.phase
        if phase is Phase.PLAY:
            if kind != "play":
                raise self._wrong_type(kind)
            return self._apply_play(action)
        if phase is Phase.TRUMP or phase is Phase.DECLARE:
            variant = self.options.rules
            if kind != variant.action_type:
                raise self._wrong_type(kind)
            trump, contract = variant.choose(action)
            return _evolve(self, phase=Phase.PLAY, trump=trump, contract=contract)
        if phase is Phase.HAND_OVER:
            raise IllegalAction(gettext_noop("The hand is over: no more moves."))
        raise IllegalAction(gettext_noop("The match is over: no more moves."))

    def forfeit(self, seat: int) -> State:
        """docs/rules/README.md § 0.6: a two-player match ends at once and the opponent wins it."""
        if seat not in (0, 1) or isinstance(seat, bool):
            raise IllegalAction(
                gettext_noop("There is no seat {seat} at this table."), seat=repr(seat)
            )
        if self.is_over:
            raise IllegalAction(gettext_noop("The match is already over."))
        return _evolve(self, phase=Phase.MATCH_OVER, result_=(1 - seat,), forfeited=(seat,))

    def auto_trump_cards(self) -> list[str]:
        """The cards of its own the seat to act can see: face-up layout, plus an unlocked hand."""
        seat = self.to_act
        if seat is None:
            return []
        cards = [up for up, _ in self.layouts[seat] if up is not None]
        if not self.hand_locked:
            cards.extend(self.hands[seat])
        return cards

    def hidden_cards(self, seat: int | None) -> set[str]:
        """Every card whose identity ``seat`` may not know now (the Information table)."""
        hidden = {down for layout in self.layouts for _, down in layout if down is not None}
        locked = self.hand_locked
        for owner in (0, 1):
            if owner != seat or locked:
                hidden.update(self.hands[owner])
        if self.last_trick is not None:
            # The last trick stays on show after a new deal (the view's ``last_trick``): those two
            # codes are public, though where the new deal put them is not, and no view says.
            hidden.difference_update(play.card for play in self.last_trick[0])
        return hidden

    def view(self, seat: int | None) -> JapaneseWhistView:
        """Exactly what ``seat`` (None: a spectator) may see, JSON-ready."""
        if seat is not None and seat not in (0, 1):
            raise RulesError("There is no seat {seat} at this table.", seat=repr(seat))
        to_act = self.to_act
        locked = self.hand_locked
        view: JapaneseWhistView = {
            "game": NAME,
            "variant": self.options.variant,
            "phase": self.phase.value,
            "to_act": to_act,
            "seat": seat,
            "players": NUM_PLAYERS,
            "hand_number": self.hand_number,
            "target": self.options.points,
            "dealer": self.dealer,
            "forehand": self.forehand,
            "contract": self.contract,
            "tricks": list(self.tricks),
            "trick_number": (
                self.tricks[0] + self.tricks[1] + 1 if self.phase is Phase.PLAY else None
            ),
            "scores": list(self.scores_),
            "hand_counts": [len(self.hands[0]), len(self.hands[1])],
            "hand_locked": locked,
            "layout": [[_public_position(pos) for pos in layout] for layout in self.layouts],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": None if self.previous_hand is None else self.previous_hand.public(),
            "legal": self.legal_actions() if seat is not None and seat == to_act else [],
            "result": self.result,
            "forfeited": list(self.forfeited) if self.forfeited else None,
            "hand_tricks": hand_tricks_public(self.hand_tricks),
        }
        # docs/rules/README.md § 0.3: in the trumps game the trump is absent until it is named.
        if self.options.variant != "trumps" or self.trump is not None:
            view["trump"] = self.trump
        if seat is not None:
            view["hand"] = [] if locked else sorted_cards(self.hands[seat])
        return view

    def to_dict(self) -> dict[str, Any]:
        """Everything, the seed included: for server storage only, never for a client."""
        return {
            "game": NAME,
            "options": self.options.as_dict(),
            "seed": self.seed,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "trump": self.trump,
            "contract": self.contract,
            "layout": [[[up, down] for up, down in layout] for layout in self.layouts],
            "hands": [list(hand) for hand in self.hands],
            "trick": [play.public() for play in self.trick],
            "leader": self.leader,
            "won": [list(pile) for pile in self.won],
            "scores": list(self.scores_),
            "last_trick": completed_trick_public(self.last_trick),
            "previous_hand": None if self.previous_hand is None else self.previous_hand.public(),
            "result": self.result,
            "forfeited": list(self.forfeited) if self.forfeited else None,
            "hand_tricks": hand_tricks_public(self.hand_tricks),
        }

    # --- play ----------------------------------------------------------------------------

    def _available(self, seat: int) -> list[str]:
        """JW-7/JW-8: own face-up layout cards, plus the hand once trick 1 is complete."""
        cards = [up for up, _ in self.layouts[seat] if up is not None]
        if self.won[0] or self.won[1]:
            cards.extend(self.hands[seat])  # kept sorted: see _deal and from_dict
        return cards

    def _play_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        cards = self._available(seat)
        if self.trick:
            led = self.trick[0].card[1]
            following = [card for card in cards if card[1] == led]
            if following:  # JW-11: follow suit if able (JW-9: over available cards only)
                cards = following
        return [{"type": "play", "card": card} for card in cards]

    def _apply_play(self, action: dict[str, Any]) -> State:
        if len(action) != 2 or "card" not in action:
            require_keys(action, ("type", "card"), PLAY_EXAMPLE)
        card = action["card"]
        if not isinstance(card, str) or card not in FULL_DECK:
            raise IllegalAction(gettext_noop("{card} is not a card of this deck."), card=repr(card))
        seat = 1 - self.leader if self.trick else self.leader
        locked = self.hand_locked
        layout = self.layouts[seat]
        position = None
        for index, (up, _) in enumerate(layout):
            if up == card:
                position = index
                break
        in_hand = position is None and not locked and card in self.hands[seat]
        if position is None and not in_hand:
            raise self._unavailable(seat, card)
        if self.trick:
            led = self.trick[0].card[1]
            if card[1] != led and self._holds_suit(seat, led, locked):
                suit, symbol = SuitCode(led), SUIT_SYMBOLS[led]
                if locked:  # JW-9: the hand does not count in trick 1
                    raise IllegalAction(
                        gettext_noop(
                            "You must follow suit: play a {suit} ({symbol}) from your face-up "
                            "layout cards."
                        ),
                        suit=suit,
                        symbol=symbol,
                    )
                raise IllegalAction(
                    gettext_noop("You must follow suit: play a {suit} ({symbol})."),
                    suit=suit,
                    symbol=symbol,
                )
        pending = self.pending
        if position is not None:
            # JW-6: the card beneath stays face down until the trick is complete.
            down = layout[position][1]
            new_layout = (*layout[:position], (None, down), *layout[position + 1 :])
            layouts = (new_layout, self.layouts[1]) if seat == 0 else (self.layouts[0], new_layout)
            hands = self.hands
            if down is not None:
                pending = (*pending, (seat, position))
        else:
            layouts = self.layouts
            new_hand = tuple(c for c in self.hands[seat] if c != card)
            hands = (new_hand, self.hands[1]) if seat == 0 else (self.hands[0], new_hand)
        trick = (*self.trick, Play(seat, card))
        if len(trick) < NUM_PLAYERS:
            return _play(
                self, layouts, hands, trick, self.leader, self.won, self.last_trick, pending,
                self.hand_tricks,
            )  # fmt: skip
        return self._resolve(trick, layouts, hands, pending)

    def _holds_suit(self, seat: int, suit: str, locked: bool) -> bool:
        if any(up is not None and up[1] == suit for up, _ in self.layouts[seat]):
            return True
        return not locked and any(card[1] == suit for card in self.hands[seat])

    def _resolve(
        self,
        trick: tuple[Play, ...],
        layouts: tuple[Layout, Layout],
        hands: Pair,
        pending: tuple[tuple[int, int], ...],
    ) -> State:
        """A complete trick: JW-12 winner, JW-6 cards turned up, JW-10 the winner leads."""
        winner = trick_winner(trick, self.trump)
        cards = (trick[0].card, trick[1].card)
        won = (
            (self.won[0] + cards, self.won[1])
            if winner == 0
            else (self.won[0], self.won[1] + cards)
        )
        if pending:
            layouts = _turn_up(layouts, pending)
        done = (trick, winner)
        state = _play(self, layouts, hands, (), winner, won, done, (), (*self.hand_tricks, done))
        if len(won[0]) + len(won[1]) == 2 * TRICKS_PER_HAND:
            return state._end_hand()
        return state

    def _end_hand(self) -> State:
        """Score the hand (JW-13/16/17), end the match at the target (JW-14) or deal again."""
        points = hand_points(self.options, self.tricks, self.dealer, self.contract)
        scores = (self.scores_[0] + points[0], self.scores_[1] + points[1])
        summary = HandSummary(
            self.hand_number, self.dealer, self.trump, self.contract, self.tricks, points
        )
        target = self.options.points
        winners = tuple(seat for seat in (0, 1) if scores[seat] >= target)
        if winners:
            return _evolve(
                self, phase=Phase.MATCH_OVER, scores_=scores, previous_hand=summary, result_=winners
            )
        if self.seed is None:
            return _evolve(self, phase=Phase.HAND_OVER, scores_=scores, previous_hand=summary)
        hand_number = self.hand_number + 1
        dealer = 1 - self.dealer  # JW-2: the deal alternates
        layouts, hands = _deal(self.seed, hand_number)
        return _evolve(
            self,
            hand_number=hand_number,
            dealer=dealer,
            phase=self.options.rules.opening,
            trump=None,
            contract=None,
            layouts=layouts,
            hands=hands,
            leader=1 - dealer,
            won=((), ()),
            scores_=scores,
            previous_hand=summary,
            hand_tricks=(),
        )

    # --- messages --------------------------------------------------------------------------

    def _wrong_type(self, kind: object) -> IllegalAction:
        phase = self.phase
        if kind not in ("trump", "declare", "play", "bid"):
            return IllegalAction(gettext_noop("Unknown action type {kind}."), kind=repr(kind))
        if kind == "bid":
            return IllegalAction(gettext_noop("There is no bidding in Japanese Whist."))
        if kind == "trump" and self.options.variant != "trumps":
            return IllegalAction(gettext_noop("There are no trumps in spel or pass."))
        if kind == "declare" and self.options.variant == "trumps":
            return IllegalAction(
                gettext_noop("This table plays with trumps: there is no spel or pass to declare.")
            )
        if phase is Phase.TRUMP:
            return IllegalAction(gettext_noop("The forehand must first choose the trump suit."))
        if phase is Phase.DECLARE:
            return IllegalAction(gettext_noop('The forehand must first declare "spel" or "pass".'))
        if kind == "trump":
            return IllegalAction(gettext_noop("The trump has already been chosen for this hand."))
        return IllegalAction(gettext_noop("The contract has already been declared for this hand."))

    def _unavailable(self, seat: int, card: str) -> IllegalAction:
        # Only facts the player already knows go into a message: never where a hidden card is.
        named = CardCode(card)
        if any(play.card == card for play in self.trick):
            return IllegalAction(gettext_noop("{card} is already on the table."), card=named)
        if any(up == card for up, _ in self.layouts[1 - seat]):
            return IllegalAction(
                gettext_noop("{card} lies in your opponent's layout, not yours."), card=named
            )
        if self.hand_locked:
            return IllegalAction(
                gettext_noop(
                    "The first trick is played from the layout: play one of your face-up "
                    "layout cards (your hand cards are locked until the trick is complete)."
                )
            )
        if card not in self.hidden_cards(seat):
            return IllegalAction(gettext_noop("{card} has already been played."), card=named)
        return IllegalAction(
            gettext_noop("{card} is not one of your face-up layout cards or hand cards."),
            card=named,
        )


# A play changes these fields (a move's hot path); any other move, any fields.
_play = evolver(
    State, "layouts", "hands", "trick", "leader", "won", "last_trick", "pending", "hand_tricks"
)
_evolve = evolver(State)


def _public_position(position: Position) -> dict[str, Any] | None:
    """A layout position as anyone sees it: the face-up card and whether a back lies beneath."""
    up, down = position
    if up is None and down is None:
        return None
    return {"up": up, "down": down is not None}


def _turn_up(
    layouts: tuple[Layout, Layout], pending: tuple[tuple[int, int], ...]
) -> tuple[Layout, Layout]:
    """JW-6: after the trick, each card left face down under a played position is turned up."""
    turned = [list(layouts[0]), list(layouts[1])]
    for seat, position in pending:
        turned[seat][position] = (turned[seat][position][1], None)
    return (tuple(turned[0]), tuple(turned[1]))


def _deal(seed: str | int, hand_number: int) -> tuple[tuple[Layout, Layout], Pair]:
    """JW-3: 10 face-down cards, 10 face-up on top and 6 hand cards each, from the seed."""
    deck = shuffled(full_deck(), deal_rng(seed, hand_number))
    layouts = (
        tuple(zip(deck[20:30], deck[0:10], strict=True)),  # (face up, face down) per position
        tuple(zip(deck[30:40], deck[10:20], strict=True)),
    )
    return layouts, (_sorted_hand(deck[40:46]), _sorted_hand(deck[46:52]))


def _sorted_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """Hands are kept sorted (how their owner sees them), so no move has to sort them."""
    return tuple(sorted_cards(cards))


class JapaneseWhist:
    """The game object of the engine contract (``games.rules.get_game("japanese_whist")``)."""

    name = NAME
    num_players = NUM_PLAYERS
    option_specs = OPTION_SPECS

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """Always two: the options do not change it."""
        self.parse_options(options)
        return NUM_PLAYERS

    def parse_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown option or value is :class:`InvalidOptions`."""
        return Options.parse(options).as_dict()

    def new_match(self, options: Mapping[str, Any] | None, seed: str | int) -> State:
        """A match whose first dealer (JW-2) and every deal come from ``seed``."""
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise RulesError("The seed must be a string or an integer.")
        parsed = Options.parse(options)
        dealer = deal_rng(seed, 0).randrange(NUM_PLAYERS)  # JW-2: the cut for the first deal
        layouts, hands = _deal(seed, 1)
        return State(
            options=parsed,
            seed=seed,
            hand_number=1,
            dealer=dealer,
            phase=parsed.rules.opening,
            trump=None,
            contract=None,
            layouts=layouts,
            hands=hands,
            trick=(),
            leader=1 - dealer,
            won=((), ()),
            scores_=(0, 0),
        )

    def from_deal(self, deal: object, options: Mapping[str, Any] | None = None) -> State:
        """One hand from an explicit deal (docs/rules/japanese_whist.md § Explicit deal)."""
        parsed = Options.parse(options)
        given = deal_object(deal, "dealer, layout, hands and scores")
        expected = {"dealer", "layout", "hands", "scores"}
        if set(given) != expected:
            missing = sorted(expected - set(given))
            extra = sorted(map(str, set(given) - expected))
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unknown {', '.join(extra)}")
            raise InvalidDeal(
                "A deal has exactly dealer, layout, hands and scores ({details}).",
                details="; ".join(parts),
            )
        dealer = given["dealer"]
        if isinstance(dealer, bool) or dealer not in (0, 1):
            raise InvalidDeal("The dealer must be seat 0 or 1, not {dealer}.", dealer=repr(dealer))
        given_layouts, given_hands = _per_seat(given, "layout"), _per_seat(given, "hands")
        layouts = (_read_layout(given_layouts[0], 0), _read_layout(given_layouts[1], 1))
        hands = (_read_hand(given_hands[0], 0), _read_hand(given_hands[1], 1))
        scores = deal_scores(given["scores"], NUM_PLAYERS, target=parsed.points)
        cards = [c for layout in layouts for pos in layout for c in pos]
        cards += [c for hand in hands for c in hand]
        unknown = sorted({str(card) for card in cards if card not in FULL_DECK})
        if unknown:
            raise InvalidDeal("Not cards of the 52-card deck: {cards}.", cards=", ".join(unknown))
        # The shapes fix the count at 52 and no card comes twice, so every deck card is there.
        check_cards(cards, FULL_DECK, "52-card")
        return State(
            options=parsed,
            seed=None,
            hand_number=1,
            dealer=dealer,
            phase=parsed.rules.opening,
            trump=None,
            contract=None,
            layouts=layouts,
            hands=(_sorted_hand(hands[0]), _sorted_hand(hands[1])),
            trick=(),
            leader=1 - dealer,
            won=((), ()),
            scores_=storage.pair(scores),
        )

    def from_dict(self, data: object) -> State:
        """The state :meth:`State.to_dict` stored; a malformed record is a RulesError."""
        return storage.load(NAME, data, _read_stored)


def _read_stored(data: Mapping[str, Any]) -> State:
    """The state :meth:`State.to_dict` wrote."""
    previous = data["previous_hand"]
    forfeited = data["forfeited"]
    return State(
        options=Options.parse(data["options"]),
        seed=data["seed"],
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        phase=Phase(data["phase"]),
        trump=data["trump"],
        contract=data["contract"],
        layouts=storage.pair([_stored_layout(layout) for layout in data["layout"]]),
        hands=storage.pair([_sorted_hand(hand) for hand in data["hands"]]),
        trick=tuple(Play.from_public(play) for play in data["trick"]),
        leader=data["leader"],
        won=storage.pair(storage.card_tuples(data["won"])),
        scores_=storage.pair(data["scores"]),
        last_trick=completed_trick_from_public(data["last_trick"]),
        previous_hand=None if previous is None else HandSummary.from_public(previous),
        result_=None if data["result"] is None else tuple(data["result"]),
        forfeited=() if forfeited is None else tuple(forfeited),
        pending=tuple(
            (seat, position)
            for seat, layout in enumerate(data["layout"])
            for position, (up, down) in enumerate(layout)
            if up is None and down is not None
        ),
        hand_tricks=hand_tricks_from_public(data),
    )


def _per_seat(deal: Mapping[str, Any], key: str) -> list[Any]:
    value = deal[key]
    if not isinstance(value, list | tuple) or len(value) != NUM_PLAYERS:
        raise InvalidDeal("{key} must be a list with one entry per seat (2).", key=key)
    return list(value)


def _stored_layout(layout: list[list[str | None]]) -> Layout:
    return tuple((up, down) for up, down in layout)


def _read_layout(layout: Any, seat: int) -> Layout:
    if not isinstance(layout, list | tuple) or len(layout) != POSITIONS:
        raise InvalidDeal(
            "The layout of seat {seat} must have {count} positions.", seat=seat, count=POSITIONS
        )
    positions = []
    for index, position in enumerate(layout):
        if (
            not isinstance(position, list | tuple)
            or len(position) != 2
            or not all(isinstance(card, str) for card in position)
        ):
            raise InvalidDeal(
                "Layout position {index} of seat {seat} must be [face_up, face_down] card codes.",
                index=index,
                seat=seat,
            )
        positions.append((position[0], position[1]))
    return tuple(positions)


def _read_hand(hand: Any, seat: int) -> tuple[str, ...]:
    if (
        not isinstance(hand, list | tuple)
        or len(hand) != HAND_SIZE
        or not all(isinstance(card, str) for card in hand)
    ):
        raise InvalidDeal(
            "The hand of seat {seat} must be {count} card codes.", seat=seat, count=HAND_SIZE
        )
    return tuple(hand)


GAME = JapaneseWhist()
