"""Classic Georgian Joker: deal scores, premia, moshla and the end of the match (CJ-17 … CJ-26).

Scenarios C-19 … C-23 and C-26 of ``docs/rules/classic_joker.md``, through the pure functions
``score_deal`` / ``pulka_scores`` and through the engine with ``from_deal`` and its ``pulka`` key.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.rules import Phase
from games.rules.automove import auto_action
from games.rules.classic_joker import (
    GAME,
    final_ranking,
    premia_seats,
    pulka_marks,
    pulka_scores,
    score_deal,
)

N, E, S, W = 0, 1, 2, 3
A, B, C, D = N, E, S, W

# C-20: one pulka of four 9-card deals, each seat as (cards, bid, taken).
C20 = [
    [(9, 2, 2), (9, 1, 1), (9, 3, 4), (9, 2, 2)],
    [(9, 0, 0), (9, 4, 3), (9, 2, 3), (9, 2, 3)],
    [(9, 3, 3), (9, 0, 0), (9, 2, 2), (9, 3, 4)],
    [(9, 1, 1), (9, 2, 2), (9, 0, 1), (9, 5, 5)],
]

# C-21: two players (A and B) make every bid.
C21 = [
    [(9, 2, 2), (9, 0, 0), (9, 4, 5), (9, 2, 2)],
    [(9, 1, 1), (9, 3, 3), (9, 0, 1), (9, 4, 4)],
    [(9, 0, 0), (9, 2, 2), (9, 3, 4), (9, 3, 3)],
    [(9, 4, 4), (9, 1, 1), (9, 2, 2), (9, 1, 2)],
]

# A whole 9-card deal, dealer W, N to choose the trump (no-trump) whose play gives exactly
# C-20's last deal: N 1/1, E 2/2, S 0/1, W 5/5 (bids total 8, tricks 9).
SCRIPT_HANDS = [
    ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    ["X1", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "7C"],
    ["7S", "6H", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["X2", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
]
SCRIPT_BIDS = [1, 2, 0, 5]
SCRIPT_PLAYS: list[tuple[str, ...]] = [
    ("6D",), ("8S",), ("8C",), ("7H",),  # N wins with the only diamond
    ("7D",), ("X1", "high"), ("9C",), ("8H",),  # E's HIGH joker (CJ-16a)
    ("AS",), ("7S",), ("9H",), ("8D",),  # E wins the spade
    ("7C",), ("TC",), ("TH",), ("9D",),  # S over-follows clubs
    ("6H",), ("JH",), ("TD",), ("9S",),  # S hands the lead to W's hearts
    ("QH",), ("JD",), ("TS",), ("JC",),
    ("KH",), ("QD",), ("JS",), ("QC",),
    ("AH",), ("KD",), ("QS",), ("KC",),
    ("X2", "want", "H"), ("AD",), ("KS",), ("AC",),  # a led WANT in no-trump wins (CJ-16b)
]  # fmt: skip


def raw(rows: list[list[tuple[int, int, int]]], options: dict[str, Any] | None = None) -> list:
    return [sum(score_deal(*row[s], options) for row in rows) for s in range(4)]


def play_script(state, *, forfeit_before_last: int | None = None):
    """Trump, bids and the 36 plays of SCRIPT_HANDS; optionally a seat forfeits on the way."""
    state = state.apply({"type": "trump", "suit": None})
    for tricks in SCRIPT_BIDS:
        state = state.apply({"type": "bid", "tricks": tricks})
    for index, played in enumerate(SCRIPT_PLAYS):
        if forfeit_before_last is not None and index == len(SCRIPT_PLAYS) - 1:
            state = state.forfeit(forfeit_before_last)
        action: dict[str, Any] = {"type": "play", "card": played[0]}
        if len(played) > 1:
            action["call"] = played[1]
        if len(played) > 2:
            action["suit"] = played[2]
        state = state.apply(action)
    return state


# --------------------------------------------------------------------------- CJ-17 … CJ-21


@pytest.mark.parametrize(
    ("cards", "bid", "taken", "khishti", "points", "rule"),
    [
        (5, 0, 0, -200, 50, "CJ-18"),
        (5, 2, 2, -200, 150, "CJ-19"),
        (5, 5, 5, -200, 500, "CJ-17"),
        (5, 3, 4, -200, 40, "CJ-21"),
        (5, 0, 2, -200, 20, "CJ-21"),
        (5, 2, 0, -200, -200, "CJ-20"),
        (5, 2, 0, -500, -500, "CJ-20"),
        (9, 9, 9, -200, 900, "CJ-17"),
        (1, 1, 1, -200, 100, "CJ-17"),
        (1, 0, 1, -200, 10, "CJ-21"),
        (1, 1, 0, -200, -200, "CJ-20"),
    ],
)
def test_c_19_scoring_table(
    cards: int, bid: int, taken: int, khishti: int, points: int, rule: str
) -> None:
    """C-19 and CJ-17 … CJ-21, one line of the table each."""
    assert score_deal(cards, bid, taken, {"khishti": khishti}) == points


def test_cj_17_taking_every_trick_as_bid_is_100_per_card() -> None:
    assert [score_deal(n, n, n, None) for n in range(1, 10)] == [100 * n for n in range(1, 10)]


def test_cj_18_a_pass_made_is_50() -> None:
    assert score_deal(9, 0, 0, None) == score_deal(1, 0, 0, None) == 50


def test_cj_19_a_bid_made_is_50_per_trick_plus_50() -> None:
    assert [score_deal(9, b, b, None) for b in range(1, 9)] == [50 * b + 50 for b in range(1, 9)]


@pytest.mark.parametrize("khishti", [-200, -500, -900])
def test_cj_20_khishti_is_the_table_penalty_for_a_bid_with_no_trick(khishti: int) -> None:
    assert score_deal(7, 3, 0, {"khishti": khishti}) == khishti
    assert score_deal(7, 0, 0, {"khishti": khishti}) == 50  # a pass is no khishti


def test_cj_21_otherwise_ten_per_trick_including_a_failed_pass() -> None:
    assert score_deal(8, 0, 3, None) == 30
    assert score_deal(8, 5, 2, None) == 20
    assert score_deal(8, 2, 8, None) == 80


def test_score_deal_refuses_impossible_numbers() -> None:
    with pytest.raises(ValueError):
        score_deal(3, 4, 0, None)
    with pytest.raises(ValueError):
        score_deal(3, 0, -1, None)


# --------------------------------------------------------------------------- CJ-22 … CJ-25


def test_c_20_premia_one_player_pure() -> None:
    """C-20, CJ-22, CJ-23, CJ-24: A alone makes every bid."""
    assert raw(C20) == [500, 330, 230, 520]
    assert premia_seats(C20) == [A]
    assert pulka_scores(C20, None) == [700, 180, 80, 220]
    assert pulka_scores(C20, {"moshla": False}) == [700, 330, 230, 520]
    assert pulka_scores(C20, {"premia": False}) == [500, 330, 230, 520]
    assert pulka_marks(C20, None) == [
        [None, None, None, None],
        [None, None, None, None],
        ["doubled", None, "cancelled", None],
        [None, "cancelled", None, "cancelled"],
    ]


def test_c_20_premia_one_player_through_the_engine() -> None:
    """C-20 through ``from_deal``: the pulka's last deal is played; premia and moshla follow."""
    first_three = C20[:3]
    state = GAME.from_deal(
        {
            "dealer": W,
            "deal": 4,
            "hands": SCRIPT_HANDS,
            "scores": raw(first_three),
            "pulka": [[list(cell) for cell in row] for row in first_three],
        },
        {"pulkas": "nines"},
    )
    assert state.phase is Phase.TRUMP and state.to_act == N
    assert state.scores == [400, 180, 220, 220]
    state = play_script(state)
    assert state.phase is Phase.HAND_OVER and state.to_act is None
    assert state.tricks == (1, 2, 1, 5)
    assert state.scores == [700, 180, 80, 220]
    view = state.view(None)
    previous = view["previous_hand"]
    assert previous["bids"] == [1, 2, 0, 5] and previous["tricks"] == [1, 2, 1, 5]
    assert previous["points"] == [100, 150, 10, 300]
    assert previous["pulka_closed"] is True
    assert previous["premia"] == [A]
    assert previous["adjustments"] == [200, -150, -150, -300]
    sheet = view["sheet"]
    assert [row["deal"] for row in sheet["rows"]] == [1, 2, 3, 4]
    assert [row["marks"] for row in sheet["rows"]] == pulka_marks(C20, None)
    assert sheet["pulkas"] == [
        {"pulka": 0, "complete": True, "premia": [A], "totals": state.scores}
    ]


def test_c_21_premia_two_players() -> None:
    """C-21, CJ-24: A and B both earn premia, so nobody is cancelled."""
    assert raw(C21) == [550, 500, 250, 620]
    assert premia_seats(C21) == [A, B]
    assert pulka_scores(C21, None) == [800, 700, 250, 620]
    assert pulka_scores(C21, {"moshla": False}) == [800, 700, 250, 620]
    assert not any(mark == "cancelled" for row in pulka_marks(C21, None) for mark in row)


def test_c_22_cancellation_never_raises() -> None:
    """C-22, CJ-24: B's every deal is khishti (best −200); the cancellation leaves it alone."""
    rows = [[(9, 1, 1), (9, 2, 0), (9, 3, 4), (9, 1, 4)]] * 4
    assert premia_seats(rows) == [A]
    assert raw(rows) == [400, -800, 160, 160]
    assert pulka_scores(rows, None) == [500, -800, 120, 120]
    assert all(row[B] is None for row in pulka_marks(rows, None))


def test_c_23_khishti_breaks_premia() -> None:
    """C-23, CJ-22: one khishti in the pulka and the seat earns no premia."""
    rows = [[(9, 2, 2), (9, 1, 1), (9, 3, 4), (9, 2, 2)] for _ in range(3)]
    rows.append([(9, 1, 0), (9, 2, 3), (9, 3, 4), (9, 2, 2)])  # A: khishti; D makes it
    assert premia_seats(rows) == [D]
    totals = pulka_scores(rows, None)
    assert totals[A] == 150 * 3 - 200 - 150  # A's best (150) cancelled, no premia
    assert totals[D] == 150 * 4 + 150
    only_a = [[(9, 2, 2), (9, 1, 0), (9, 3, 4), (9, 2, 3)]] * 3 + [[(9, 1, 0)] * 4]
    assert A not in premia_seats(only_a)


def test_cj_22_passes_made_count_towards_premia() -> None:
    rows = [
        [(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 0, 0)],
        [(2, 0, 0), (2, 1, 1), (2, 0, 1), (2, 0, 0)],
    ]
    assert premia_seats(rows) == [A, D]


def test_cj_23_premia_doubles_the_earliest_of_equal_best_deals() -> None:
    rows = [[(9, 2, 2), (9, 0, 1), (9, 0, 1), (9, 0, 5)]] * 3
    marks = pulka_marks(rows, {"moshla": False})
    assert [row[A] for row in marks] == ["doubled", None, None]
    assert pulka_scores(rows, {"moshla": False})[A] == 150 * 4


def test_cj_24_moshla_cancels_the_earliest_best_once_and_only_with_one_premia_player() -> None:
    rows = [[(9, 2, 2), (9, 3, 2), (9, 3, 2), (9, 0, 3)]] * 2
    marks = pulka_marks(rows, None)
    assert [row[B] for row in marks] == ["cancelled", None]
    assert pulka_scores(rows, None) == [450, 20, 20, 30]


def raw_totals(history: tuple) -> list[int]:
    return [sum(score_deal(d[1], d[2][s], d[3][s], None) for d in history) for s in range(4)]


def test_cj_25_premia_is_applied_after_the_pulkas_last_deal_and_before_the_next() -> None:
    state = GAME.new_match(None, "premia-timing")
    while state.deal_number < 9:
        state = state.apply(auto_action(state))
        if state.deal_number < 9:  # inside pulka 1: raw points only
            assert state.scores == raw_totals(state.history)
    rows = [[(d[1], d[2][s], d[3][s]) for s in range(4)] for d in state.history]
    assert len(rows) == 8
    assert state.scores == pulka_scores(rows, None)
    assert state.phase is Phase.TRUMP and state.deal_number == 9  # dealt after the premia
    sheet = state.view(E)["sheet"]
    assert sheet["pulkas"][0]["complete"] is True
    assert sheet["pulkas"][0]["totals"] == state.scores


def test_cj_25_a_one_card_deal_closing_pulka_3_applies_premia_and_marks_the_sheet() -> None:
    """Deals 13–19 (8 … 2 cards) are given; N made every bid; deal 20 (1 card) closes the pulka."""
    earlier = []
    for n in range(8, 1, -1):
        east = (n, 1, n - 1) if n == 3 else (n, 0, n - 1)  # keeps the bids off n (CJ-8)
        earlier.append([(n, 1, 1), east, (n, 1, 0), (n, 1, 0)])
    start = raw(earlier)
    assert start == [700, 280, -1400, -1400]
    state = GAME.from_deal(
        {
            "dealer": W,
            "deal": 20,
            "hands": [["AS"], ["7H"], ["8H"], ["9H"]],
            "trump_card": "KS",
            "scores": start,
            "pulka": [[list(cell) for cell in row] for row in earlier],
        },
        None,
    )
    state = state.apply({"type": "bid", "tricks": 1})
    state = state.apply({"type": "bid", "tricks": 0})
    state = state.apply({"type": "bid", "tricks": 0})
    assert state.legal_actions() == [{"type": "bid", "tricks": 1}]  # CJ-8
    state = state.apply({"type": "bid", "tricks": 1})
    for card in ("AS", "7H", "8H", "9H"):
        state = state.apply({"type": "play", "card": card})
    assert state.phase is Phase.HAND_OVER
    rows = [*earlier, [(1, 1, 1), (1, 0, 0), (1, 0, 0), (1, 1, 0)]]
    assert premia_seats(rows) == [N]
    # N doubles its earliest 100; E loses its best 70, S its 50 pass; W's khishti stay.
    assert state.view(None)["previous_hand"]["adjustments"] == [100, -70, -50, 0]
    assert state.scores == [900, 260, -1400, -1600]
    sheet = state.view(N)["sheet"]
    assert [row["deal"] for row in sheet["rows"]] == list(range(13, 21))
    assert sheet["rows"][0]["marks"] == ["doubled", "cancelled", "khishti", "khishti"]
    assert sheet["rows"][-1]["marks"] == [None, None, "cancelled", "khishti"]
    assert sheet["pulkas"] == [
        {"pulka": 2, "complete": True, "premia": [N], "totals": pulka_scores(rows, None)}
    ]


def test_cj_25_with_premia_off_nothing_is_marked_or_added() -> None:
    assert pulka_marks(C20, {"premia": False}) == [[None] * 4] * 4
    state = GAME.new_match({"premia": False}, "premia-off")
    while state.deal_number < 9:
        state = state.apply(auto_action(state))
    assert state.scores == raw_totals(state.history)


# --------------------------------------------------------------------------- CJ-26, C-26


def _deal_24(**extra: Any):
    return GAME.from_deal(
        {
            "dealer": W,
            "deal": 24,
            "hands": SCRIPT_HANDS,
            "scores": [3100, 3150, 3540, 2900],
            "pulka": [[list(cell) for cell in row] for row in C20[:3]],
            **extra,
        },
        None,
    )


def test_c_26_end_of_game_shared_first_place() -> None:
    """C-26, CJ-26: after deal 24 and the pulka-4 premia, N and S share first place."""
    state = play_script(_deal_24())
    assert state.is_over and state.phase is Phase.MATCH_OVER and state.to_act is None
    assert state.scores == [3400, 3150, 3400, 2900]
    assert sorted(state.result) == [N, S]
    # first dealer is N (W dealt deal 24), so ties are listed from E: S before N
    assert state.result == [S, N]
    view = state.view(W)
    assert view["result"] == [S, N]
    assert view["ranking"] == [1, 3, 1, 4]
    assert view["legal"] == []
    with pytest.raises(Exception, match="over"):
        state.apply({"type": "play", "card": "6D"})


def test_cj_26_a_leaver_is_placed_last_whatever_the_score() -> None:
    state = play_script(_deal_24(), forfeit_before_last=N)
    assert state.scores == [3400, 3150, 3400, 2900]
    assert state.result == [S]
    assert state.view(None)["ranking"] == [4, 2, 1, 3]
    assert state.view(None)["forfeited"] == [N]


@pytest.mark.parametrize(
    ("scores", "forfeited", "first_dealer", "winners", "places"),
    [
        ([3400, 3150, 3400, 2900], [], 0, [S, N], [1, 3, 1, 4]),
        ([3400, 3150, 3400, 2900], [], 3, [N, S], [1, 3, 1, 4]),
        ([100, 200, 300, 400], [W], 0, [S], [3, 2, 1, 4]),
        ([100, 200, 300, 400], [W, S], 0, [E], [2, 1, 4, 3]),
        ([5, 5, 5, 5], [N, E, S, W], 1, [S, W, N, E], [1, 1, 1, 1]),
    ],
)
def test_cj_26_final_ranking(
    scores: list[int], forfeited: list[int], first_dealer: int, winners: list, places: list
) -> None:
    assert final_ranking(scores, forfeited, first_dealer) == (winners, places)
