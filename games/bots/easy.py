"""The easy computer player: a few rules a sensible beginner follows (issue 15).

It wins a trick cheaply when it can and follows cheaply when the trick is lost, keeps its jokers
for tricks that matter, leads its sure winners, names the trump its own cards favour, and in
classic Joker bids the tricks its cards are likely to take and then plays to the bid: it takes
while under, and sheds once it has its tricks. It is also the playout policy of the strong bot,
so it reads a small :class:`~games.rules.worlds.Seen` that each game gives from a view
(``GameSpec.seen``) and, cheaply, from a sampled world (``GameSpec.seen_in_world``), and it draws
no randomness: the same situation, the same move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..rules import game_spec
from ..rules.cards import RANK_VALUE, RANKS, SUITS, is_joker
from ..rules.contract import Action
from ..rules.tricks import Play
from ..rules.worlds import Seen

FACES = {"A": 1.0, "K": 0.7, "Q": 0.4, "J": 0.2}


def choose(view: Mapping[str, Any], rng: random.Random | None = None) -> Action:
    """The easy bot's action for the seat whose ``view`` this is (``rng`` is not needed)."""
    return decide(game_spec(view["game"]).seen(view))


def decide(seen: Seen) -> Action:
    legal = seen.legal
    if len(legal) == 1:
        return legal[0]
    kind = legal[0]["type"]
    if kind == "trump":
        return {"type": "trump", "suit": _trump_choice(seen)}
    if kind == "declare":
        return {"type": "declare", "contract": _contract_choice(seen)}
    if kind == "bid":
        return _bid(seen)
    if seen.trick:
        return _follow(seen)
    return _lead(seen)


# --- before play -------------------------------------------------------------------------------


def _suit_strength(cards: list[str], suit: str) -> float:
    return sum(1.0 + FACES.get(c[0], 0.0) for c in cards if not is_joker(c) and c[1] == suit)


def _trump_choice(seen: Seen) -> str | None:
    """The suit the seat's own visible cards favour; bezi on three scattered small cards."""
    cards = seen.cards
    best = max(SUITS, key=lambda suit: _suit_strength(cards, suit))
    strength = _suit_strength(cards, best)
    allowed = {action["suit"] for action in seen.legal}
    if None in allowed and strength < 1.5 and len(cards) <= 3:
        return None
    return best


def _contract_choice(seen: Seen) -> str:
    """Japanese Whist: spel with the stronger face-up cards, pass with the weaker."""

    def high(cards: list[str]) -> int:
        return sum(max(0, RANK_VALUE[c[0]] - 9) for c in cards)

    return "spel" if high(seen.cards) >= high(seen.others_up) else "pass"


def _likely_tricks(seen: Seen) -> float:
    """Classic Joker: the tricks these cards are likely to take (a beginner's count)."""
    cards = seen.cards
    trump = seen.trump
    n = seen.deal_cards or len(cards)
    length = {suit: sum(1 for c in cards if not is_joker(c) and c[1] == suit) for suit in SUITS}
    count = 0.0
    for card in cards:
        if is_joker(card):
            count += 1.0
            continue
        rank, suit = card[0], card[1]
        if suit == trump:
            count += {"A": 1.0, "K": 0.8, "Q": 0.55}.get(rank, 0.3 if length[suit] >= 3 else 0.1)
        elif rank == "A":
            count += 0.8 if length[suit] <= 3 or n <= 3 else 0.5
        elif rank == "K" and 2 <= length[suit] <= 3:
            count += 0.4
    return count


def _bid(seen: Seen) -> Action:
    target = _likely_tricks(seen)
    return min(seen.legal, key=lambda action: (abs(action["tricks"] - target), action["tricks"]))


# --- play ------------------------------------------------------------------------------------


def _wants_tricks(seen: Seen) -> bool:
    if seen.bids is not None:  # a bidding game
        taken, bid = seen.tricks[seen.seat], seen.bids[seen.seat] or 0
        return taken != bid  # under: take; over: take what comes (10 a trick); made: shed
    return not seen.goal_low


def _cost(action: Action, trump: str | None) -> int:
    """How dear a card is to part with: jokers most, then trumps, then by rank."""
    card = action["card"]
    if is_joker(card):
        return 100
    return RANK_VALUE[card[0]] + (20 if card[1] == trump else 0)


def _sure(card: str, tops: dict[str, int]) -> bool:
    """No higher card of its suit is still to be played by anyone else (``tops``: of
    :func:`_top_unseen`)."""
    if card[0] == "X":
        return False
    return RANK_VALUE[card[0]] > tops.get(card[1], 0)


def _top_unseen(seen: Seen) -> dict[str, int]:
    """Per suit, the highest rank neither played nor held by the seat (0: none left)."""
    mine = set(seen.cards)
    out = set(seen.out)
    tops: dict[str, int] = {}
    for suit in SUITS:
        for rank in reversed(RANKS):
            code = rank + suit
            if code not in out and code not in mine:
                tops[suit] = RANK_VALUE[rank]
                break
    return tops


def _plays_with(seen: Seen, action: Action) -> list[Play]:
    return [*seen.trick, Play(seen.seat, action["card"], action.get("call"), action.get("suit"))]


def _wins(seen: Seen, action: Action) -> bool:
    return seen.trick_winner(_plays_with(seen, action), seen.trump) == seen.seat


def _joker_matters(seen: Seen) -> bool:
    """Spend a joker on a trick with a high card or a trump in it, or near the end."""
    if len(seen.cards) <= 3:
        return True
    for play in seen.trick:
        card = play.card
        if is_joker(card) or card[1] == seen.trump or RANK_VALUE[card[0]] >= RANK_VALUE["Q"]:
            return True
    if seen.bids is not None:
        need = (seen.bids[seen.seat] or 0) - seen.tricks[seen.seat]
        return need >= len(seen.cards) - 1
    return False


def _follow(seen: Seen) -> Action:
    legal = seen.legal
    trump = seen.trump
    plain = [a for a in legal if not is_joker(a["card"])]
    jokers = [a for a in legal if is_joker(a["card"])]
    last = len(seen.trick) == seen.players - 1
    if _wants_tricks(seen):
        winners = [a for a in plain if _wins(seen, a)]
        if winners:
            if not last:  # someone still plays: a sure winner if there is one
                tops = _top_unseen(seen)
                sure = [a for a in winners if _sure(a["card"], tops)]
                if sure:
                    return min(sure, key=lambda a: _cost(a, trump))
            return min(winners, key=lambda a: _cost(a, trump))
        high = [a for a in jokers if a.get("call") in (None, "high")]
        if high and (_joker_matters(seen) or not plain):
            return high[0]
        if plain:
            return min(plain, key=lambda a: _cost(a, trump))
        return min(jokers, key=lambda a: a.get("call") == "high")
    losers = [a for a in plain if not _wins(seen, a)]
    if losers:
        return max(losers, key=lambda a: _cost(a, trump))
    low = [a for a in jokers if a.get("call") == "low"]
    if low:
        return low[0]
    if plain:
        return max(plain, key=lambda a: _cost(a, trump))
    return jokers[0]


def _lead(seen: Seen) -> Action:
    legal = seen.legal
    trump = seen.trump
    plain = [a for a in legal if not is_joker(a["card"])]
    jokers = [a for a in legal if is_joker(a["card"])]
    if _wants_tricks(seen):
        tops = _top_unseen(seen) if plain else {}
        sure = [a for a in plain if _sure(a["card"], tops)]
        if sure:  # side-suit winners first, then the top trumps
            return max(sure, key=lambda a: (a["card"][1] != trump, RANK_VALUE[a["card"][0]]))
        if jokers and (not plain or len(seen.cards) <= 2 * len({a["card"] for a in jokers})):
            return _joker_lead(seen, jokers, "want")
        if plain:
            return min(plain, key=lambda a: (_cost(a, trump), -_length(seen, a["card"][1])))
        return _joker_lead(seen, jokers, "want")
    if plain:
        return min(plain, key=lambda a: (_cost(a, trump), _length(seen, a["card"][1])))
    return _joker_lead(seen, jokers, "take")


def _length(seen: Seen, suit: str) -> int:
    return sum(1 for c in seen.cards if not is_joker(c) and c[1] == suit)


def _joker_lead(seen: Seen, jokers: list[Action], call: str) -> Action:
    """A led joker: wanting, it calls the trump (it cannot be cut) or the longest suit; taking,
    it calls the suit the seat is shortest in."""
    calls = [a for a in jokers if a.get("call") == call] or jokers
    if call == "want":
        wanted = seen.trump or max(SUITS, key=lambda suit: _length(seen, suit))
    else:
        wanted = min(SUITS, key=lambda suit: _length(seen, suit))
    for action in calls:
        if action.get("suit") == wanted:
            return action
    return calls[0]
