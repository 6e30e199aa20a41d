"""Classic Joker at two and three seats, the short format and khishti off (issue 30).

Every test cites the rule (CJ-n) or scenario (C-nn) of ``docs/rules/classic_joker.md`` it
checks. The whole-match properties at every seat count and format (only legal actions, no
hidden card in any view, the sheet against a recomputation) are the contract suite's
(``test_contract.py``, ``CJ_OPTION_SETS``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.rules import InvalidDeal, InvalidOptions, Phase
from games.rules.automove import auto_action
from games.rules.cards import JOKER_DECK, deal_rng, joker_deck, shuffled
from games.rules.classic_joker import GAME, pulka_scores, schedule, score_deal
from games.rules.classic_joker.bot import resample
from games.rules.classic_joker.options import Options
from games.rules.classic_joker.scoring import sheet

N, E, S = 0, 1, 2


def view_text(state, seat: int | None) -> str:
    return json.dumps(state.view(seat))


def places(state) -> list[str]:
    """Every card of the deal where it lies (hands, cards to come, undealt, played, turned)."""
    cards = [card for hand in state.hands for card in hand]
    cards += [card for rest in state.pending or () for card in rest]
    cards += [*state.undealt, *state.played, *(play.card for play in state.trick)]
    return cards + ([state.trump_card] if state.trump_card else [])


def no_undealt_card_shown(state) -> None:
    """CJ-29: the cards nobody was dealt are in no view and hidden from every seat. (The last
    trick of the deal before, which every view shows, may name the same codes.)"""
    undealt = set(state.undealt)
    if state.last_trick is not None and state.last_trick not in state.hand_tricks:
        undealt -= {play.card for play in state.last_trick[0]}
    for seat in (*range(state.options.seats), None):
        text = view_text(state, seat)
        assert not [card for card in undealt if f'"{card}"' in text], seat
        assert undealt <= state.hidden_cards(seat)


# --------------------------------------------------------------------------- CJ-2: the option


def test_cj_2_the_players_option_is_two_three_or_four_and_four_by_default() -> None:
    assert GAME.num_players == 4
    assert GAME.seat_count(None) == 4
    assert GAME.seat_count({"seats": 3}) == 3
    assert GAME.seat_count({"seats": 2}) == 2
    assert GAME.parse_options({"seats": 2})["seats"] == 2
    for wrong in (1, 5, "2", None, 2.0, True):
        with pytest.raises(InvalidOptions) as error:
            GAME.parse_options({"seats": wrong})
        assert str(error.value)


@pytest.mark.parametrize("seats", [2, 3])
def test_cj_2_the_first_dealer_is_any_seat_and_the_deal_passes_left(seats: int) -> None:
    options = {"seats": seats, "pulkas": "nines"}
    assert {GAME.new_match(options, seed).dealer for seed in range(40)} == set(range(seats))
    state = GAME.new_match(options, "pass-left")
    dealers = [state.dealer]
    while len(dealers) < 5:
        number = state.deal_number
        state = state.apply(auto_action(state))
        if state.deal_number != number:
            dealers.append(state.dealer)
    assert dealers == [(dealers[0] + k) % seats for k in range(5)]


# --------------------------------------------------------------------------- CJ-27, C-27


def test_c_27_the_short_format_is_two_pulkas_of_four_nines() -> None:
    assert schedule({"pulkas": "short"}) == [(9, 0)] * 4 + [(9, 1)] * 4


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_cj_27_a_short_match_plays_eight_nines_and_closes_a_pulka_after_deals_4_and_8(
    seats: int,
) -> None:
    state = GAME.new_match({"seats": seats, "pulkas": "short"}, "short")
    closed = []
    rng = random.Random(27)
    while not state.is_over:
        before = state.previous
        state = state.apply(rng.choice(state.legal_actions()))
        if state.previous is not before and state.previous.pulka_closed:
            closed.append(state.previous.deal_number)
    assert [row[1] for row in state.history] == [9] * 8
    assert closed == [4, 8]
    assert len(state.view(None)["ranking"]) == seats


# --------------------------------------------------------------------------- CJ-28, C-28


def test_c_28_khishti_none_scores_a_missed_bid_at_no_tricks_zero_and_marks_nothing() -> None:
    assert score_deal(5, 2, 0, {"khishti": 0}) == 0
    assert score_deal(5, 2, 0, {"khishti": -200}) == -200
    assert score_deal(5, 2, 1, {"khishti": 0}) == 10  # CJ-21 unchanged
    history = ((5, 5, (2, 1, 1, 0), (0, 2, 2, 1)),)
    off = sheet(history, Options.parse({"khishti": 0}))["rows"][0]
    assert off["points"][0] == 0 and off["marks"][0] is None
    on = sheet(history, Options.parse({}))["rows"][0]
    assert on["points"][0] == -200 and on["marks"][0] == "khishti"


# --------------------------------------------------------------------------- CJ-29, C-29, C-30


def test_c_29_two_players_a_deal_of_five_turns_the_eleventh_card_and_hides_the_rest() -> None:
    deck = joker_deck()
    hands = [deck[0:5], deck[5:10]]
    state = GAME.from_deal(
        {"dealer": E, "deal": 5, "hands": hands, "trump_card": deck[10]}, {"seats": 2}
    )
    assert state.phase is Phase.BID and state.to_act == N  # CJ-7: left of the dealer bids first
    assert len(state.undealt) == 25 and set(state.undealt) == set(deck[11:])
    assert state.view(None)["hand_counts"] == [5, 5]
    no_undealt_card_shown(state)
    state = state.apply({"type": "bid", "tricks": 2})
    assert state.to_act == E
    assert [a["tricks"] for a in state.legal_actions()] == [0, 1, 2, 4, 5]  # CJ-8: never 3
    state = state.apply({"type": "bid", "tricks": 0})
    assert state.phase is Phase.PLAY and state.to_act == N  # CJ-9
    while state.phase is Phase.PLAY:
        no_undealt_card_shown(state)
        state = state.apply(auto_action(state))
    assert sum(state.tricks) == 5


def test_cj_29_a_seeded_deal_at_two_seats_deals_one_card_at_a_time_and_turns_the_next() -> None:
    state = GAME.new_match({"seats": 2}, "cj29")
    while state.deal_number < 5:
        state = state.apply(auto_action(state))
    deck = shuffled(joker_deck(), deal_rng("cj29", 5))
    expected: list[list[str]] = [[], []]
    for k in range(10):
        expected[(state.dealer + 1 + k) % 2].append(deck[k])
    assert [sorted(hand) for hand in state.hands] == [sorted(hand) for hand in expected]
    assert state.trump_card == deck[10] and list(state.undealt) == deck[11:]
    no_undealt_card_shown(state)


def test_c_30_three_players_a_nine_card_deal_is_chosen_after_three_cards_with_nine_unseen() -> None:
    state = GAME.new_match({"seats": 3, "pulkas": "nines"}, "c30")
    assert state.phase is Phase.TRUMP and state.to_act == (state.dealer + 1) % 3  # CJ-6
    assert state.view(None)["hand_counts"] == [3, 3, 3]
    assert "trump_card" not in state.view(None)  # nothing is turned in the nines
    assert len(state.undealt) == 9
    cards = [c for hand in state.hands for c in hand] + [c for r in state.pending for c in r]
    assert sorted(cards + list(state.undealt)) == sorted(JOKER_DECK)
    no_undealt_card_shown(state)
    state = state.apply({"type": "trump", "suit": "H"})
    assert state.view(None)["hand_counts"] == [9, 9, 9] and len(state.undealt) == 9
    no_undealt_card_shown(state)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"dealer": 0, "deal": 5, "hands": [[], [], []]}, "hands must be a list of 2 hands"),
        ({"dealer": 2, "deal": 5, "hands": [[], []]}, "dealer must be a whole number from 0 to 1"),
    ],
)
def test_an_explicit_deal_has_one_hand_a_seat(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidDeal) as error:
        GAME.from_deal(deal, {"seats": 2})
    assert message in str(error.value)


# --------------------------------------------------------------------------- CJ-30, C-31, C-32


def test_c_31_two_players_the_one_premia_player_cancels_the_others_best_deal() -> None:
    rows = [
        [(9, 4, 4), (9, 3, 5)],
        [(9, 5, 5), (9, 2, 4)],
        [(9, 3, 3), (9, 5, 6)],
        [(9, 6, 6), (9, 2, 3)],
    ]
    assert pulka_scores(rows) == [1450, 120]
    assert pulka_scores(rows, {"moshla": False}) == [1450, 180]
    assert pulka_scores(rows, {"premia": False}) == [1100, 180]


def test_c_32_three_players_two_premia_players_cancel_nothing_one_cancels_both_others() -> None:
    two = [[(9, 3, 3), (9, 3, 3), (9, 1, 3)]] * 4
    assert pulka_scores(two) == [1000, 1000, 120]
    one = [[(9, 3, 3), (9, 2, 4), (9, 3, 2)]] * 4
    assert pulka_scores(one) == [1000, 120, 60]


def test_cj_30_with_two_players_both_can_never_make_every_bid_of_a_deal() -> None:
    """The dealer restriction (CJ-8) at two seats: the bids never add up to the tricks."""
    state = GAME.new_match({"seats": 2, "pulkas": "short"}, "never-both")
    rng = random.Random(30)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    for _, _, bids, taken in state.history:
        assert bids != taken
    assert all(len(pulka["premia"]) <= 1 for pulka in state.sheet()["pulkas"])


# --------------------------------------------------------------------------- the bots' worlds


@pytest.mark.parametrize("options", [{"seats": 2}, {"seats": 3, "pulkas": "nines"}])
def test_a_sampled_world_looks_the_same_to_the_seat_and_deals_the_unseen_cards_anew(
    options: dict[str, Any],
) -> None:
    """CJ-29 for the computer players: a world drawn from a seat's view is one the seat cannot
    tell from the real match, and the undealt cards are drawn like the other hands."""
    rng = random.Random(29)
    state = GAME.new_match(options, "worlds")
    moments = 0
    while not state.is_over and moments < 60:
        seat = state.to_act
        view = state.view(seat)
        world = resample(view, rng)
        shown = world.view(seat)
        for key in ("hand", "trick", "tricks", "bids", "hand_counts", "phase", "trump", "legal"):
            assert shown.get(key) == view.get(key), key
        assert len(world.undealt) == len(state.undealt)
        imagined = {c for other, hand in enumerate(world.hands) if other != seat for c in hand}
        known = set(view["hand"]) | set(state.played) | {p.card for p in state.trick}
        assert not (imagined | set(world.undealt)) & (known | {state.trump_card})
        assert sorted(places(world)) == sorted(JOKER_DECK)
        state = state.apply(rng.choice(state.legal_actions()))
        moments += 1
