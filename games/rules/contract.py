"""The engine contract: what every game object and every state offers, as typing Protocols.

docs/architecture.md § The game registry and docs/rules/README.md § 0.3 say it in words; this
module says it to mypy, so the server, the bots, the turn clock and the benchmark can rely on it
for any game.
The three engines (``japanese_joker``, ``classic_joker``, ``japanese_whist``) implement it with
frozen slots dataclasses: a state is a value, and ``apply`` returns a new one. What the site needs
of a game beyond its engine (its words, its help page and renderer, the worlds a computer player
imagines from a view, the replay's open cards) is the game's ``GameSpec`` (``registry.py``).
"""

from collections.abc import Mapping
from typing import Any, NotRequired, Protocol, Self, TypedDict

from .base import Option, Phase

# An action is a small JSON object (docs/rules/README.md § 0.3): {"type": "play", "card": "QH"}.
Action = dict[str, Any]


class PublicPlay(TypedDict):
    """One card of a trick as every seat sees it; a joker adds its declaration."""

    seat: int
    card: str
    call: NotRequired[str]
    suit: NotRequired[str]


class PublicTrick(TypedDict):
    """A completed trick: its plays in order and the seat that took it."""

    plays: list[PublicPlay]
    winner: int


class View(TypedDict):
    """The keys every game's view has (each game's own view adds the rest).

    ``hand_tricks`` lists the completed tricks of the hand in progress (after its last trick,
    of the hand just finished): public, so that a computer player remembers what a person at
    the table saw. ``trump`` is absent until the trump is known, ``hand`` for a spectator, and
    ``result`` (the winning seats) in Japanese and classic Joker until the match is over.
    """

    game: str
    phase: str
    to_act: int | None
    seat: int | None
    players: int
    hand_number: int
    tricks: list[int]
    scores: list[int]
    hand_counts: list[int]
    trick: list[PublicPlay]
    leader: int | None
    last_trick: PublicTrick | None
    previous_hand: dict[str, Any] | None
    legal: list[Action]
    forfeited: list[int] | None
    hand_tricks: list[PublicTrick]
    trump: NotRequired[str | None]
    hand: NotRequired[list[str]]
    result: NotRequired[list[int] | None]


class State(Protocol):
    """One moment of a match. Immutable: every change is a new state."""

    @property
    def phase(self) -> Phase: ...

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited, or None (hand or match over)."""
        ...

    @property
    def trump(self) -> str | None:
        """The trump suit, None for no-trump (and before it is chosen)."""
        ...

    @property
    def hand_number(self) -> int:
        """1 for the first hand (classic Joker: the deal) of the match."""
        ...

    @property
    def scores(self) -> list[int]: ...

    @property
    def result(self) -> list[int] | None:
        """The winning seats once the match is over, else None."""
        ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order; [] when nobody is to act."""
        ...

    def apply(self, action: object) -> Self:
        """The state after ``action``; anything else, whatever its shape, is IllegalAction."""
        ...

    def forfeit(self, seat: int) -> Self:
        """The state after ``seat`` left for good (docs/rules/README.md § 0.6)."""
        ...

    def view(self, seat: int | None) -> View:
        """Exactly what ``seat`` (None: a spectator) may see, JSON-ready."""
        ...

    def hidden_cards(self, seat: int | None) -> set[str]:
        """Every card code whose place ``seat`` may not know now (the Information tables)."""
        ...

    def auto_trump_cards(self) -> list[str]:
        """The actor's own visible cards, from which the turn clock picks a trump (§ 0.6)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Everything, the seed included, JSON-ready: for server storage only."""
        ...


class Game(Protocol):
    """A game: its table options and the ways to start or rebuild a match."""

    @property
    def name(self) -> str: ...

    @property
    def num_players(self) -> int:
        """The most seats a table of the game has."""
        ...

    @property
    def option_specs(self) -> tuple[Option, ...]: ...

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """The seats of a table with these options (classic Joker's option ``seats``; the other
        games always ``num_players``). An unknown option or value is InvalidOptions."""
        ...

    def parse_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in; an unknown option or value is InvalidOptions."""
        ...

    def new_match(self, options: Mapping[str, Any] | None, seed: str | int) -> State:
        """A match whose every deal comes from ``seed`` (docs/rules/README.md § 0.4)."""
        ...

    def from_deal(self, deal: object, options: Mapping[str, Any] | None = None) -> State:
        """One hand from an explicit deal (§ 0.7); a malformed deal is InvalidDeal."""
        ...

    def from_dict(self, data: object) -> State:
        """The state ``to_dict`` stored; a malformed record is a RulesError."""
        ...
