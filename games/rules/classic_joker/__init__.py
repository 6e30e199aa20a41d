"""Classic Georgian Joker (ჯოკერი), 2 to 4 players: the rules of ``docs/rules/classic_joker.md``.

Split by subject: ``options`` (the table options and the schedule), ``deals`` (dealing from the
seed and explicit deals), ``state`` (bidding, play, the end of a deal, what each seat sees,
storage), ``scoring`` (deal scores, premia and moshla, the ranking, the score sheet) and ``bot``
(what a computer player reads and imagines); the package's ``SPEC`` offers the game to the site.

Implemented rules (each cited where it is enforced):

- CJ-1 the 36-card joker deck (``cards.joker_deck``); CJ-2 two to four seats clockwise (option
  ``seats``), first dealer drawn from the seed, the deal passing left (seat + 1) after every
  deal (``deals``).
- CJ-3 / CJ-4 / CJ-27 the schedule of pulkas (:func:`schedule`, option ``pulkas``: standard,
  nines, short).
- CJ-5 trump from the turned card in deals of fewer than 9 cards (a joker: no-trump);
  CJ-6 the chooser's trump announcement after three cards in 9-card deals.
- CJ-7 one bid each from the dealer's left; CJ-8 the dealer restriction.
- CJ-9 left of the dealer leads trick 1; CJ-10 a led joker calls WANT or TAKE a suit;
  CJ-11 strict joker (option ``strict_joker``).
- CJ-12 a joker is always legal and, not led, is HIGH or LOW; CJ-13 / CJ-14 / CJ-15 following
  (``tricks.follow_requirement``, shared with Japanese Joker).
- CJ-16 the trick winner (:func:`trick_winner`).
- CJ-17 … CJ-21 deal scores (:func:`score_deal`, option ``khishti``; CJ-28 khishti 0: none).
- CJ-22 … CJ-25 premia and moshla (:func:`pulka_marks`, :func:`pulka_scores`, options
  ``premia`` and ``moshla``), applied after a pulka's last deal and marked on the sheet.
- CJ-26 the end of the match: highest total wins, equal totals share (:func:`final_ranking`).
- CJ-29 at two or three seats the cards nobody is dealt are ``undealt`` in every deal, the nines
  included, and hidden from everyone in play and replay (the export after the match lists
  them); CJ-30 every rule reads the seats there are.

Interpretations (documented here because the rules file is silent):

- ``from_deal``'s ``scores`` are the match totals before this deal; when ``pulka`` lists earlier
  deals of the pulka, their raw points are taken to be already inside those totals, and closing
  the pulka adds ``pulka_scores(rows) - raw`` (the premia and moshla change).
- ``result`` lists the winning seats starting from the first dealer's left, so the site can give
  an indivisible pot remainder to ``result[0]`` (CJ-26).
- A forfeited seat keeps playing (through a bot) and is ranked below every seat that stayed;
  forfeited seats rank among themselves by score. When the last seat forfeits nobody is left
  to play for, so the match ends at once and all are ranked by score.
- In the state dict, the *places* of cards are ``hands``, ``pending`` (9-card deals: the six
  cards each seat still gets after the trump choice), ``undealt``, ``trump_card``, ``played``
  (completed tricks of this deal) and ``trick``; ``last_trick`` is a record that may repeat
  codes (it survives into the next deal so the page can show it).
- ``hidden_cards`` counts a card of ``last_trick`` as public even after the next deal is dealt,
  because every view still shows it; for the same reason ``previous_hand`` names no card (the
  previous deal's turned card is left out of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import storage
from ..base import RulesError, gettext_noop
from ..cards import deal_rng, sorted_cards
from ..registry import GameSpec
from . import bot
from .deals import deal_from_seed, read_explicit_deal
from .options import NUM_PLAYERS, OPTION_SPECS, Options, schedule
from .scoring import final_ranking, premia_seats, pulka_marks, pulka_scores, score_deal
from .state import NAME, State, read_stored, start, trick_winner

__all__ = [
    "GAME",
    "NUM_PLAYERS",
    "OPTION_SPECS",
    "SPEC",
    "ClassicJoker",
    "Options",
    "State",
    "final_ranking",
    "premia_seats",
    "pulka_marks",
    "pulka_scores",
    "schedule",
    "score_deal",
    "trick_winner",
]


class ClassicJoker:
    """The game object of the engine contract (``games.rules.get_game("classic_joker")``)."""

    name = NAME
    num_players = NUM_PLAYERS
    option_specs = OPTION_SPECS

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """2, 3 or 4 (the option ``seats``, CJ-2)."""
        return Options.parse(options).seats

    def parse_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled; an unknown option or value raises InvalidOptions."""
        return Options.parse(options).as_dict()

    def new_match(self, options: Mapping[str, Any] | None, seed: str | int) -> State:
        """A match from its secret seed: the first dealer and every deal derive from it (CJ-2)."""
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise RulesError("The seed must be a string or an integer.")
        parsed = Options.parse(options)
        first_dealer = deal_rng(seed, 0).randrange(parsed.seats)  # "hand 0": the seating draw
        return start(
            parsed,
            seed,
            first_dealer,
            deal_from_seed(parsed, seed, first_dealer, 1),
            scores=(0,) * parsed.seats,
            history=(),
        )

    def from_deal(self, deal: object, options: Mapping[str, Any] | None = None) -> State:
        """One hand from an explicit deal (docs/rules/classic_joker.md § Explicit deal)."""
        parsed = Options.parse(options)
        given = read_explicit_deal(deal, parsed)
        return start(
            parsed,
            None,
            given.first_dealer,
            given.deal,
            scores=given.scores,
            history=given.history,
        )

    def from_dict(self, data: object) -> State:
        """The state ``to_dict`` stored; a malformed record is a RulesError."""
        return storage.load(NAME, data, read_stored)


GAME = ClassicJoker()


def open_cards(stored: Mapping[str, Any]) -> dict[str, Any]:
    """In a 9-card deal before the trump, the six cards each seat still gets."""
    if not stored.get("pending"):
        return {}
    return {"pending": [sorted_cards(cards) for cards in stored["pending"]]}


SPEC = GameSpec(
    id=NAME,
    title=gettext_noop("Classic Georgian Joker"),
    summary=gettext_noop("2 to 4 players, bidding, pulkas, premia and khishti."),
    engine=GAME,
    help_slug=NAME,
    renderer="js/table/games/classic_joker.js",
    deal_check="js/verify/games/classic_joker.js",
    mistake_points=25.0,  # half of the 50 a made bid earns a trick (CJ-19)
    seen=bot.seen,
    seen_in_world=bot.seen_in_world,
    resample=bot.resample,
    playout_points=bot.deal_points,
    open_cards=open_cards,
    deal_keys=("undealt", "pending", "trump_card"),
)
