"""Classic Georgian Joker: dealing, bidding, following and trick winners.

Every test cites the rule (CJ-n) or scenario (C-nn) of ``docs/rules/classic_joker.md`` it
checks. Positions are explicit deals (``from_deal``); seats are N, E, S, W = 0, 1, 2, 3 and W
deals unless a test says otherwise, so N bids first and leads trick 1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import IllegalAction, InvalidDeal, InvalidOptions, Phase, get_game
from games.rules.automove import auto_action
from games.rules.cards import deal_rng, joker_deck, shuffled
from games.rules.classic_joker import GAME, schedule, trick_winner
from games.rules.tricks import Play

N, E, S, W = 0, 1, 2, 3
DECK = joker_deck()


# --------------------------------------------------------------------------- helpers


def complete(hands: list[list[str]], n: int, *, trump_card: str | None = None) -> list[list[str]]:
    """Fill every hand up to ``n`` cards with unused cards, for seats whose cards do not matter."""
    used = {card for hand in hands for card in hand} | {trump_card}
    spare = [card for card in DECK if card not in used]
    filled = []
    for hand in hands:
        extra = n - len(hand)
        filled.append([*hand, *spare[:extra]])
        spare = spare[extra:]
    return filled


def first_deal_with(n: int, options: dict[str, Any] | None = None) -> int:
    """The 1-based number of the first deal of ``n`` cards in the schedule."""
    return next(i for i, (cards, _) in enumerate(schedule(options), 1) if cards == n)


def deal(
    hands: list[list[str]],
    trump_card: str | None = None,
    *,
    dealer: int = W,
    number: int | None = None,
    options: dict[str, Any] | None = None,
    **extra: Any,
):
    """A state just after dealing ``hands`` (all the same length) by ``from_deal``."""
    n = len(hands[0])
    data: dict[str, Any] = {
        "dealer": dealer,
        "deal": number or first_deal_with(n, options),
        "hands": hands,
        **extra,
    }
    if trump_card is not None:
        data["trump_card"] = trump_card
    return GAME.from_deal(data, options)


def bid_all(state, bids: list[int]):
    """Apply one bid per seat in turn (from the dealer's left)."""
    for tricks in bids:
        state = state.apply({"type": "bid", "tricks": tricks})
    return state


def play(state, card: str, call: str | None = None, suit: str | None = None):
    action: dict[str, Any] = {"type": "play", "card": card}
    if call is not None:
        action["call"] = call
    if suit is not None:
        action["suit"] = suit
    return state.apply(action)


def legal_cards(state) -> list[tuple[str, ...]]:
    """The legal plays as sorted (card, call, suit) tuples, easy to compare with a scenario."""
    return sorted(
        tuple(x for x in (a["card"], a.get("call"), a.get("suit")) if x is not None)
        for a in state.legal_actions()
    )


def joker_follow(card: str) -> list[tuple[str, ...]]:
    return [(card, "high"), (card, "low")]


def trick_winner_of(state) -> int:
    assert state.last_trick is not None
    return state.last_trick[1]


# --------------------------------------------------------------------------- the contract


def test_the_game_is_registered_and_lists_exactly_the_play_options() -> None:
    assert get_game("classic_joker") is GAME
    assert GAME.name == "classic_joker"
    assert GAME.num_players == 4
    assert [spec.name for spec in GAME.option_specs] == [
        "seats",
        "pulkas",
        "khishti",
        "premia",
        "moshla",
        "strict_joker",
    ]
    assert GAME.parse_options(None) == {
        "seats": 4,
        "pulkas": "standard",
        "khishti": -200,
        "premia": True,
        "moshla": True,
        "strict_joker": False,
    }


@pytest.mark.parametrize(
    "options",
    [
        {"stake": 25},
        {"pulkas": "tens"},
        {"khishti": -300},
        {"khishti": "-200"},
        {"premia": 1},
        {"moshla": "yes"},
        {"strict_joker": None},
    ],
)
def test_unknown_options_and_values_are_refused_with_a_message(options: dict) -> None:
    with pytest.raises(InvalidOptions) as error:
        GAME.parse_options(options)
    assert str(error.value)


# --------------------------------------------------------------------------- CJ-1, CJ-2


def test_cj_1_the_deck_has_36_cards_with_jokers_for_the_black_sixes() -> None:
    state = GAME.new_match(None, "deck")
    data = state.to_dict()
    # Deal 1 (one card each): four hands, the turned card and the undealt rest.
    cards = [c for hand in data["hands"] for c in hand] + data["undealt"] + [data["trump_card"]]
    assert sorted(cards) == sorted(DECK)
    assert len(DECK) == 36
    assert "6S" not in DECK and "6C" not in DECK
    assert {"X1", "X2", "6H", "6D"} <= set(DECK)


def test_cj_2_first_dealer_comes_from_the_seed_and_the_deal_passes_left() -> None:
    dealers = {GAME.new_match(None, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}  # random over seeds
    assert GAME.new_match(None, "same").dealer == GAME.new_match(None, "same").dealer
    state = GAME.new_match(None, "pass-left")
    first = state.dealer
    seen = [first]
    while len(seen) < 6:
        number = state.deal_number
        state = state.apply(auto_action(state))
        if state.deal_number != number:
            seen.append(state.dealer)
    assert seen == [(first + k) % 4 for k in range(6)]


def test_cj_2_bidding_and_play_go_clockwise_from_the_dealers_left() -> None:
    hands = [["7D", "8C"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]]
    state = deal(hands, "6H", dealer=E)
    order = []
    for _ in range(4):
        order.append(state.to_act)
        state = state.apply({"type": "bid", "tricks": 0})
    assert order == [S, W, N, E]
    plays = []
    for card in ("AD", "9D", "7D", "8D"):
        plays.append(state.to_act)
        state = play(state, card)
    assert plays == [S, W, N, E]


# --------------------------------------------------------------------------- C-01 schedule


def test_c_01_schedule_standard_and_nines() -> None:
    """C-01, CJ-3, CJ-4."""
    standard = schedule({"pulkas": "standard"})
    assert [n for n, _ in standard] == [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9]
    assert [p for _, p in standard] == [0] * 8 + [1] * 4 + [2] * 8 + [3] * 4
    nines = schedule({"pulkas": "nines"})
    assert nines == [(9, p) for p in range(4) for _ in range(4)]
    assert schedule(None) == standard


def test_cj_3_a_standard_match_plays_24_deals_and_ends() -> None:
    state = GAME.new_match(None, "cj3")
    numbers = {state.deal_number}
    while not state.is_over:
        state = state.apply(auto_action(state))
        numbers.add(state.deal_number)
    assert numbers == set(range(1, 25))
    assert len(state.history) == 24
    assert state.view(None)["schedule"] == [n for n, _ in schedule(None)]


def test_cj_4_nines_only_plays_16_deals_of_nine() -> None:
    state = GAME.new_match({"pulkas": "nines"}, "cj4")
    while not state.is_over:
        state = state.apply(auto_action(state))
    assert [row[1] for row in state.history] == [9] * 16
    assert state.view(0)["schedule"] == [9] * 16


# --------------------------------------------------------------------------- CJ-5, C-02


def test_c_02_trump_indicator_turned_8d_makes_diamonds_trump() -> None:
    """C-02, CJ-5: n = 5, 20 cards dealt, card 21 turned."""
    hands = complete([[], [], [], []], 5, trump_card="8D")
    state = deal(hands, "8D")
    assert state.cards == 5
    assert state.trump == "D"
    view = state.view(N)
    assert view["trump"] == "D" and view["trump_card"] == "8D"
    assert view["hand_counts"] == [5, 5, 5, 5]
    # The rest of the deck is out of play and seen by nobody.
    undealt = set(DECK) - {c for hand in hands for c in hand} - {"8D"}
    assert len(undealt) == 36 - 21
    for seat in (N, E, S, W, None):
        assert undealt <= state.hidden_cards(seat)
        assert "8D" not in state.hidden_cards(seat)


def test_c_02_turned_joker_means_no_trump_and_is_out_of_play() -> None:
    """C-02, CJ-5: card 21 = X1 → no-trump; X1 is in no hand."""
    hands = complete([[], [], [], []], 5, trump_card="X1")
    state = deal(hands, "X1")
    assert state.trump is None
    view = state.view(None)
    assert view["trump"] is None and view["trump_card"] == "X1"
    state = bid_all(state, [0, 0, 0, 0])
    seen = set()
    while state.phase is Phase.PLAY:
        seen.update(a["card"] for a in state.legal_actions())
        state = state.apply(auto_action(state))
    assert "X1" not in seen


def test_cj_5_seeded_deal_gives_cards_one_at_a_time_from_the_dealers_left() -> None:
    state = GAME.new_match(None, "cj5")
    while state.deal_number < 5:
        state = state.apply(auto_action(state))
    assert state.cards == 5
    deck = shuffled(joker_deck(), deal_rng("cj5", 5))
    expected = [[] for _ in range(4)]
    for k in range(20):
        expected[(state.dealer + 1 + k) % 4].append(deck[k])
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in expected]
    assert state.trump_card == deck[20]
    assert state.trump == (None if deck[20][0] == "X" else deck[20][1])


# --------------------------------------------------------------------------- CJ-6, C-03


def test_c_03_nine_card_trump_chooser_sees_three_cards_and_may_name_any_of_five() -> None:
    """C-03, CJ-6: dealer W; N gets A♥, 7♣, X2 first and announces the trump."""
    hands = complete([["AH", "7C", "X2"], [], [], []], 9)
    state = deal(hands, number=9)
    assert state.phase is Phase.TRUMP and state.to_act == N
    assert state.legal_actions() == [
        {"type": "trump", "suit": "S"},
        {"type": "trump", "suit": "H"},
        {"type": "trump", "suit": "D"},
        {"type": "trump", "suit": "C"},
        {"type": "trump", "suit": None},
    ]
    view = state.view(N)
    assert "trump" not in view
    assert sorted(view["hand"]) == ["7C", "AH", "X2"]
    assert view["hand_counts"] == [3, 3, 3, 3]
    assert state.auto_trump_cards() == ["AH", "7C", "X2"]
    # Every seat sees its own first three cards only; the other six are dealt after.
    for seat in (E, S, W):
        assert sorted(state.view(seat)["hand"]) == sorted(hands[seat][:3])
        assert set(hands[seat][3:]) <= state.hidden_cards(seat)
    assert set(hands[N][3:]) <= state.hidden_cards(N)
    for suit in ("S", "H", "D", "C", None):
        after = state.apply({"type": "trump", "suit": suit})
        assert after.phase is Phase.BID and after.to_act == N
        assert after.trump == suit
        assert after.view(E)["trump"] == suit
        assert sorted(after.view(N)["hand"]) == sorted(hands[N])
        assert after.view(None)["hand_counts"] == [9, 9, 9, 9]


def test_cj_6_trump_choice_must_be_a_suit_or_null() -> None:
    state = deal(complete([[], [], [], []], 9), number=9)
    for action in (
        {"type": "trump", "suit": "X"},
        {"type": "trump", "suit": "h"},
        {"type": "trump"},
        {"type": "trump", "suit": "H", "extra": 1},
        {"type": "bid", "tricks": 1},
    ):
        with pytest.raises(IllegalAction):
            state.apply(action)


# --------------------------------------------------------------------------- CJ-7, CJ-8


def test_cj_7_each_seat_bids_once_from_zero_to_n_and_bids_are_public() -> None:
    state = deal(complete([[], [], [], []], 3, trump_card="6H"), "6H")
    assert state.legal_actions() == [{"type": "bid", "tricks": b} for b in range(4)]
    state = state.apply({"type": "bid", "tricks": 2})
    for seat in (N, E, S, W, None):
        assert state.view(seat)["bids"] == [2, None, None, None]
    for bad in (4, -1, "1", 1.0, True, None):
        with pytest.raises(IllegalAction):
            state.apply({"type": "bid", "tricks": bad})
    state = bid_all(state, [0, 0, 0])
    assert state.phase is Phase.PLAY
    assert state.bids == (2, 0, 0, 0)


def test_c_04_dealer_restriction_one_card() -> None:
    """C-04, CJ-8: bids N 0, E 0, S 0 → W may only bid 0."""
    state = bid_all(deal(complete([[], [], [], []], 1, trump_card="6H"), "6H"), [0, 0, 0])
    assert state.to_act == W
    assert state.legal_actions() == [{"type": "bid", "tricks": 0}]
    with pytest.raises(IllegalAction, match="may not bid 1"):
        state.apply({"type": "bid", "tricks": 1})


def test_c_05_dealer_restriction_two_cards() -> None:
    """C-05, CJ-8: bids N 0, E 0, S 1 → W's legal bids are {0, 2}."""
    state = bid_all(deal(complete([[], [], [], []], 2, trump_card="6H"), "6H"), [0, 0, 1])
    assert [a["tricks"] for a in state.legal_actions()] == [0, 2]


def test_c_06_no_restriction_when_overbid() -> None:
    """C-06, CJ-8: n = 3, bids N 2, E 2, S 0 → W may bid 0, 1, 2 or 3."""
    state = bid_all(deal(complete([[], [], [], []], 3, trump_card="6H"), "6H"), [2, 2, 0])
    assert [a["tricks"] for a in state.legal_actions()] == [0, 1, 2, 3]


# --------------------------------------------------------------------------- CJ-9, C-25


def test_c_25_lead_order() -> None:
    """C-25, CJ-9: N (dealer W's left) leads trick 1; S wins it and leads trick 2."""
    hands = [["7D", "8C"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]]
    state = bid_all(deal(hands, "6H"), [0, 0, 0, 0])
    assert state.to_act == N and state.view(None)["leader"] == N
    for card in ("7D", "8D", "AD", "9D"):
        state = play(state, card)
    assert trick_winner_of(state) == S
    assert state.to_act == S
    assert state.view(E)["leader"] == S
    assert state.view(E)["last_trick"] == {
        "plays": [
            {"seat": N, "card": "7D"},
            {"seat": E, "card": "8D"},
            {"seat": S, "card": "AD"},
            {"seat": W, "card": "9D"},
        ],
        "winner": S,
    }


# --------------------------------------------------------------------------- CJ-10, CJ-11


def test_cj_10_a_led_joker_calls_want_or_take_any_suit_even_in_no_trump() -> None:
    hands = [["X1", "7D"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]]
    state = bid_all(deal(hands, "X2"), [0, 0, 0, 0])  # turned joker: no-trump
    assert state.trump is None
    assert legal_cards(state) == sorted(
        [("7D",)] + [("X1", call, suit) for call in ("want", "take") for suit in "SHDC"]
    )
    for bad in (
        {"type": "play", "card": "X1"},
        {"type": "play", "card": "X1", "call": "high"},
        {"type": "play", "card": "X1", "call": "want"},
        {"type": "play", "card": "X1", "call": "want", "suit": None},
        {"type": "play", "card": "X1", "call": "want", "suit": "Z"},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    after = play(state, "X1", "take", "C")
    assert after.view(None)["trick"] == [{"seat": N, "card": "X1", "call": "take", "suit": "C"}]


def test_c_24_strict_joker() -> None:
    """C-24, CJ-11: with strict joker, a joker may be led only when nothing else is held."""
    strict = {"strict_joker": True}
    state = bid_all(
        deal([["X1", "7D"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]], "6H", options=strict),
        [0, 0, 0, 0],
    )
    assert legal_cards(state) == [("7D",)]
    with pytest.raises(IllegalAction, match="Strict joker"):
        play(state, "X1", "want", "H")
    alone = bid_all(deal([["X1"], ["8D"], ["AD"], ["9D"]], "6H", options=strict), [0, 0, 0, 0])
    assert ("X1", "want", "H") in legal_cards(alone)
    play(alone, "X1", "want", "H")
    pair = bid_all(
        deal([["X1", "X2"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]], "6H", options=strict),
        [0, 0, 0, 0],
    )
    assert len(legal_cards(pair)) == 16
    play(pair, "X2", "take", "S")


def test_cj_11_without_strict_joker_a_joker_may_be_led_any_time() -> None:
    state = bid_all(
        deal([["X1", "7D"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]], "6H"), [0, 0, 0, 0]
    )
    play(state, "X1", "want", "H")


# --------------------------------------------------------------------------- CJ-12, CJ-13


def test_cj_12_a_following_joker_is_always_legal_and_must_say_high_or_low() -> None:
    state = bid_all(deal([["TD", "7C"], ["X1", "8D"], ["9D", "8C"], ["7S", "9C"]], "KS"), [0] * 4)
    state = play(state, "TD")
    assert legal_cards(state) == sorted([("8D",), *joker_follow("X1")])
    for bad in (
        {"type": "play", "card": "X1"},
        {"type": "play", "card": "X1", "call": "want", "suit": "D"},
        {"type": "play", "card": "X1", "call": "middle"},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)


def test_c_07_follow_trump_joker_legal() -> None:
    """C-07, CJ-13: trump ♥, N leads 9♣."""
    # E holds 7♣, A♥, X1 → 7♣ or the joker.
    hands = [["9C", "7S", "8S"], ["7C", "AH", "X1"], ["9S", "TS", "JS"], ["QS", "KS", "AS"]]
    state = bid_all(deal(hands, "7H"), [0] * 4)
    state = play(state, "9C")
    assert legal_cards(state) == sorted([("7C",), *joker_follow("X1")])
    with pytest.raises(IllegalAction, match=r"You must follow suit: play a club or a joker\."):
        play(state, "AH")
    # E holds 6♥, K♦, X1 (no club) → must trump with 6♥, or the joker.
    hands = [["9C", "7S", "8S"], ["6H", "KD", "X1"], ["9S", "TS", "JS"], ["QS", "KS", "AS"]]
    state = bid_all(deal(hands, "7H"), [0] * 4)
    state = play(state, "9C")
    assert legal_cards(state) == sorted([("6H",), *joker_follow("X1")])
    with pytest.raises(IllegalAction, match="you must play a trump"):
        play(state, "KD")
    # E holds K♦, 8♠ (no club, no trump) → anything.
    state = bid_all(deal([["9C", "7S"], ["KD", "8S"], ["9S", "TS"], ["QS", "KS"]], "7H"), [0] * 4)
    state = play(state, "9C")
    assert legal_cards(state) == [("8S",), ("KD",)]


def test_cj_13_no_duty_to_overtrump() -> None:
    hands = [["9C", "7S"], ["AH", "8S"], ["6H", "KH"], ["QS", "KS"]]
    state = bid_all(deal(hands, "7H"), [0] * 4)
    state = play(play(state, "9C"), "AH")
    assert legal_cards(state) == [("6H",), ("KH",)]  # S may under-trump
    state = play(play(state, "6H"), "QS")
    assert trick_winner_of(state) == E


# --------------------------------------------------------------------------- CJ-16: jokers


def test_c_08_non_led_high_joker_beats_trump() -> None:
    """C-08, CJ-16a: trump ♠; N 10♦, E A♠ (void ♦), S X1 HIGH, W Q♠ → S wins."""
    state = bid_all(deal([["TD"], ["AS"], ["X1"], ["QS"]], "9S"), [0] * 4)
    state = play(state, "TD")
    assert legal_cards(state) == [("AS",)]
    state = play(play(play(state, "AS"), "X1", "high"), "QS")
    assert trick_winner_of(state) == S
    assert state.tricks == (0, 0, 1, 0)


def test_c_09_non_led_low_joker_loses() -> None:
    """C-09, CJ-12, CJ-16: trump ♠; N 10♦, E X1 LOW (holding ♦), S 9♦, W 7♠ (void ♦) → W."""
    state = bid_all(deal([["TD", "7C"], ["X1", "8D"], ["9D", "8C"], ["7S", "9C"]], "KS"), [0] * 4)
    state = play(state, "TD")
    assert ("X1", "low") in legal_cards(state)
    state = play(state, "X1", "low")
    state = play(state, "9D")
    assert legal_cards(state) == [("7S",)]
    state = play(state, "7S")
    assert trick_winner_of(state) == W


def test_c_10_two_high_jokers_the_later_wins() -> None:
    """C-10, CJ-16a: trump ♣; N X1 WANT ♥, E K♥, S X2 HIGH, W A♥ → S wins."""
    state = bid_all(deal([["X1"], ["KH"], ["X2"], ["AH"]], "9C"), [0] * 4)
    state = play(state, "X1", "want", "H")
    assert legal_cards(state) == [("KH",)]
    state = play(play(play(state, "KH"), "X2", "high"), "AH")
    assert trick_winner_of(state) == S


def test_c_11_second_joker_low() -> None:
    """C-11, CJ-16: trump ♣; N X1 WANT ♥, E K♥, S X2 LOW, W A♥ → N wins."""
    state = bid_all(deal([["X1"], ["KH"], ["X2"], ["AH"]], "9C"), [0] * 4)
    state = play(play(play(play(state, "X1", "want", "H"), "KH"), "X2", "low"), "AH")
    assert trick_winner_of(state) == N


def test_c_12_want_non_trump_cut_by_trump() -> None:
    """C-12, CJ-14, CJ-16b: trump ♠; N X1 WANT ♥ is cut by S's 7♠."""
    hands = [["X1", "7D", "9D"], ["KH", "9H", "7C"], ["7S", "QS", "8D"], ["AH", "8C", "9C"]]
    state = bid_all(deal(hands, "9S"), [0] * 4)
    state = play(state, "X1", "want", "H")
    assert legal_cards(state) == [("KH",)]
    with pytest.raises(IllegalAction, match=r"highest heart \(K♥\)"):
        play(state, "9H")
    state = play(state, "KH")
    assert legal_cards(state) == [("7S",), ("QS",)]
    state = play(state, "7S")
    assert legal_cards(state) == [("AH",)]
    state = play(state, "AH")
    assert trick_winner_of(state) == S


def test_c_13_want_trump_cannot_be_cut() -> None:
    """C-13, CJ-14, CJ-16b: trump ♠; N X1 WANT ♠; E must play A♠; N wins."""
    hands = [["X1", "7D"], ["AS", "7S"], ["8D", "9C"], ["KH", "TC"]]
    state = bid_all(deal(hands, "9S"), [0] * 4)
    state = play(state, "X1", "want", "S")
    assert legal_cards(state) == [("AS",)]
    state = play(state, "AS")
    assert legal_cards(state) == [("8D",), ("9C",)]
    state = play(state, "9C")
    assert legal_cards(state) == [("KH",), ("TC",)]
    state = play(state, "KH")
    assert trick_winner_of(state) == N


def test_c_14_want_forces_highest() -> None:
    """C-14, CJ-14: trump ♣; lead X1 WANT ♦; E {7♦, Q♦, A♠, X2} → Q♦ or X2."""
    hands = complete(
        [["X1", "7S", "8S", "9S"], ["7D", "QD", "AS", "X2"], [], []], 4, trump_card="9C"
    )
    state = bid_all(deal(hands, "9C"), [0] * 4)
    state = play(state, "X1", "want", "D")
    assert legal_cards(state) == sorted([("QD",), *joker_follow("X2")])


def test_c_15_take_normal_follow() -> None:
    """C-15, CJ-15, CJ-16c: trump ♠; N X1 TAKE ♦; E 7♦; S A♦; W 9♣ → S wins."""
    hands = [["X1", "7C"], ["7D", "KD"], ["AD", "8C"], ["9C", "TH"]]
    state = bid_all(deal(hands, "9S"), [0] * 4)
    state = play(state, "X1", "take", "D")
    assert legal_cards(state) == [("7D",), ("KD",)]
    state = play(play(state, "7D"), "AD")
    assert legal_cards(state) == [("9C",), ("TH",)]
    state = play(state, "9C")
    assert trick_winner_of(state) == S


def test_c_16_take_cut_by_trump() -> None:
    """C-16, CJ-15, CJ-16c: trump ♠; N X1 TAKE ♦; E (void ♦) must trump 8♠ and wins."""
    hands = [["X1", "7C"], ["8S", "8C"], ["TD", "9C"], ["AD", "TC"]]
    state = bid_all(deal(hands, "9S"), [0] * 4)
    state = play(state, "X1", "take", "D")
    assert legal_cards(state) == [("8S",)]
    state = play(play(play(state, "8S"), "TD"), "AD")
    assert trick_winner_of(state) == E


def test_c_17_take_nobody_follows() -> None:
    """C-17, CJ-16d: no-trump; N X1 TAKE ♦; E 9♣, S K♥, W 7♠ → N wins."""
    state = bid_all(deal([["X1"], ["9C"], ["KH"], ["7S"]], "X2"), [0] * 4)
    assert state.trump is None
    state = play(play(play(play(state, "X1", "take", "D"), "9C"), "KH"), "7S")
    assert trick_winner_of(state) == N


def test_c_18_take_then_high_joker() -> None:
    """C-18, CJ-16a: trump ♥; N X1 TAKE ♦, E K♦, S X2 HIGH, W A♦ → S wins."""
    state = bid_all(deal([["X1"], ["KD"], ["X2"], ["AD"]], "9H"), [0] * 4)
    state = play(play(play(play(state, "X1", "take", "D"), "KD"), "X2", "high"), "AD")
    assert trick_winner_of(state) == S


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        # 16c: highest of the led suit, no trump played
        ([(N, "7D"), (E, "AD"), (S, "KD"), (W, "AH")], "S", E),
        # 16c: a low trump beats the led suit
        ([(N, "AD"), (E, "7S"), (S, "KD"), (W, "AH")], "S", E),
        # 16b: WANT with no trump in play keeps the trick
        ([(N, "X1", "want", "H"), (E, "AH"), (S, "KH"), (W, "QH")], "S", N),
        # 16b: WANT in no-trump is never cut
        ([(N, "X1", "want", "H"), (E, "AS"), (S, "KS"), (W, "QS")], None, N),
        # 16a + LOW: only the HIGH joker counts
        ([(N, "7D"), (E, "X1", "low"), (S, "X2", "high"), (W, "AS")], "S", S),
        # a led trump is the highest trump when nobody over-trumps
        ([(N, "7S"), (E, "AD"), (S, "KD"), (W, "AH")], "S", N),
    ],
)
def test_cj_16_trick_winner_pseudo_code(plays: list[tuple], trump: str | None, winner: int) -> None:
    assert trick_winner([Play(*p) for p in plays], trump) == winner


# --------------------------------------------------------------------------- apply safety


def test_illegal_actions_are_refused_with_readable_messages_and_change_nothing() -> None:
    hands = [["9C", "7S"], ["7C", "AH"], ["9S", "TS"], ["QS", "KS"]]
    state = bid_all(deal(hands, "7H"), [0] * 4)
    before = state.to_dict()
    for bad, message in (
        (["play", "9C"], "must be an object"),
        ({"type": "play"}, "names a card"),
        ({"type": "play", "card": "ZZ"}, "not a card"),
        ({"type": "play", "card": "AH"}, "You do not hold A♥"),
        ({"type": "play", "card": "9C", "call": "high"}, "nothing more"),
        ({"type": "bid", "tricks": 1}, "time to play"),
        ({"type": "play", "card": 9}, "names a card"),
    ):
        with pytest.raises(IllegalAction, match=message):
            state.apply(bad)
    assert state.to_dict() == before


def test_a_finished_explicit_hand_accepts_no_more_actions() -> None:
    state = bid_all(deal([["TD"], ["AS"], ["X1"], ["QS"]], "9S"), [0] * 4)
    state = play(play(play(play(state, "TD"), "AS"), "X1", "high"), "QS")
    assert state.phase is Phase.HAND_OVER and state.to_act is None
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="hand is over"):
        play(state, "TD")


# --------------------------------------------------------------------------- from_deal errors


def _valid_deal() -> dict[str, Any]:
    return {
        "dealer": 3,
        "deal": 2,
        "hands": [["7D", "8C"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]],
        "trump_card": "6H",
        "scores": [0, 0, 0, 0],
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("hands"), "missing"),
        (lambda d: d.pop("dealer"), "missing"),
        (lambda d: d.update(dealer=4), "dealer"),
        (lambda d: d.update(dealer=True), "dealer"),
        (lambda d: d.update(deal=25), "deal"),
        (lambda d: d.update(deal="2"), "deal"),
        (lambda d: d.update(deal=3), "3 cards"),
        (lambda d: d["hands"][0].append("7S"), "2 cards"),
        (lambda d: d["hands"].pop(), "a list of 4 hands"),
        (lambda d: d["hands"][1].__setitem__(0, "7D"), "twice"),
        (lambda d: d["hands"][1].__setitem__(0, "6S"), "not a card"),
        (lambda d: d["hands"][1].__setitem__(0, 7), "not a card"),
        (lambda d: d.update(trump_card="7D"), "both turned"),
        (lambda d: d.pop("trump_card"), "trump_card"),
        (lambda d: d.update(trump_card="1H"), "trump_card"),
        (lambda d: d.update(scores=[0, 0, 0]), "scores"),
        (lambda d: d.update(scores=[0, 0, 0, "1"]), "scores"),
        (lambda d: d.update(extra=1), "Unknown key"),
        (lambda d: d.update(pulka=[[[1, 0, 0]] * 4, [[1, 0, 0]] * 4]), "at most"),
        (lambda d: d.update(pulka=[[[1, 0, 1]] * 4]), "add up"),
        (lambda d: d.update(pulka=[[[2, 0, 0]] * 4]), "1 cards"),
        (lambda d: d.update(pulka="x"), "at most"),
    ],
)
def test_from_deal_refuses_malformed_deals(change, message: str) -> None:
    data = json.loads(json.dumps(_valid_deal()))
    change(data)
    with pytest.raises(InvalidDeal, match=message):
        GAME.from_deal(data, None)


def test_from_deal_refuses_a_turned_card_in_a_nine_card_deal() -> None:
    hands = complete([[], [], [], []], 9)
    with pytest.raises(InvalidDeal, match="no turned card"):
        GAME.from_deal({"dealer": 3, "deal": 9, "hands": hands, "trump_card": "X1"}, None)
    with pytest.raises(InvalidDeal):
        GAME.from_deal("not a deal", None)  # type: ignore[arg-type]


def test_from_deal_accepts_the_documented_format() -> None:
    state = GAME.from_deal(_valid_deal(), None)
    assert state.phase is Phase.BID and state.to_act == N
    assert state.deal_number == 2 and state.cards == 2 and state.trump == "H"
    assert state.seed is None


# --------------------------------------------------------------------------- views


def test_views_have_the_shared_keys_and_hide_what_they_must() -> None:
    state = GAME.new_match(None, "views")
    state = state.apply(auto_action(state))
    shared = {
        "phase", "to_act", "trump", "tricks", "scores", "seat", "players", "hand_number",
        "hand_counts", "trick", "leader", "last_trick", "previous_hand", "legal", "dealer",
        "deal_number", "cards", "pulka", "schedule", "bids", "trump_card", "sheet", "forfeited",
    }  # fmt: skip
    for seat in (N, E, S, W):
        view = state.view(seat)
        assert shared | {"hand"} <= set(view)
        assert view["seat"] == seat
        assert view["legal"] == (state.legal_actions() if seat == state.to_act else [])
        assert "seed" not in json.dumps(view)
    spectator = state.view(None)
    assert shared <= set(spectator) and "hand" not in spectator
    assert spectator["legal"] == []
    assert "result" not in spectator and "ranking" not in spectator


def test_previous_hand_and_last_trick_survive_into_the_next_deal() -> None:
    state = GAME.new_match(None, "survive")
    assert state.view(None)["previous_hand"] is None and state.view(None)["last_trick"] is None
    while state.deal_number == 1:
        state = state.apply(auto_action(state))
    view = state.view(None)
    assert view["deal_number"] == 2
    assert view["last_trick"] is not None and len(view["last_trick"]["plays"]) == 4
    previous = view["previous_hand"]
    assert previous["deal_number"] == 1 and previous["cards"] == 1
    assert sum(previous["tricks"]) == 1
    assert previous["points"] == view["sheet"]["rows"][0]["points"]
    assert view["tricks"] == [0, 0, 0, 0]


# --------------------------------------------------------------------------- forfeit


def test_forfeit_keeps_the_match_going_and_records_the_seat() -> None:
    state = GAME.new_match(None, "leave")
    left = state.forfeit(E)
    assert left.forfeited == (E,)
    assert left.phase is state.phase and left.to_act == state.to_act
    assert left.view(N)["forfeited"] == [E]
    assert left.forfeit(E) == left
    left.apply(auto_action(left))  # the bot in E's seat uses the same API
    with pytest.raises(IllegalAction):
        state.forfeit(4)


def test_when_every_seat_forfeits_the_match_ends_at_once() -> None:
    state = GAME.new_match(None, "empty table")
    for seat in (N, E, S):
        state = state.forfeit(seat)
        assert not state.is_over
    state = state.forfeit(W)
    assert state.is_over and state.phase is Phase.MATCH_OVER and state.to_act is None
    assert (
        state.result
        == [0, 1, 2, 3][state.first_dealer + 1 :] + [0, 1, 2, 3][: state.first_dealer + 1]
    )  # all on 0 points: a shared place, listed from the first dealer's left
    assert state.view(None)["ranking"] == [1, 1, 1, 1]
    with pytest.raises(IllegalAction, match="over"):
        state.forfeit(N)
