"""Japanese Joker, rule by rule (docs/rules/japanese_joker.md, JJ-1 … JJ-24, J-01 … J-25).

D is the declarer (seat 0 unless a test says otherwise), O the opponent. Positions are built with
``from_deal``: ``build_deal`` places the cards a scenario names and fills every other place from
the rest of the deck, keeping the suits a scenario forbids out of a seat's available cards.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import IllegalAction, InvalidDeal, InvalidOptions, Phase, get_game
from games.rules.automove import auto_action
from games.rules.base import CardCode
from games.rules.cards import joker_deck
from games.rules.japanese_joker import DECK, GAME, State, hand_points, trick_winner
from games.rules.tricks import Play

D, O = 0, 1  # noqa: E741 (the rules file's names: declarer and opponent)


# -- helpers ------------------------------------------------------------------------------------


def build_deal(
    *,
    declarer: int = D,
    hands: dict[int, list[str]] | None = None,
    ups: dict[int, dict[int, str]] | None = None,
    downs: dict[int, dict[int, str]] | None = None,
    avoid: dict[int, str] | None = None,
    scores: list[int] | None = None,
) -> dict[str, Any]:
    """A full deal with the named cards in place (columns numbered 1-5 as in the rules).

    Free hand and face-up places never get a joker, nor a card of a suit in ``avoid[seat]``;
    the jokers and every card left over go face down.
    """
    hands = hands or {}
    ups = ups or {}
    downs = downs or {}
    avoid = avoid or {}
    named = [c for h in hands.values() for c in h]
    named += [c for cols in (ups, downs) for by_col in cols.values() for c in by_col.values()]
    assert len(named) == len(set(named)), "a card is named twice"
    pool = [c for c in DECK if c not in named]
    out_hands: list[list[str | None]] = []
    out_cols: list[list[list[str | None]]] = []
    for seat in (0, 1):
        given = hands.get(seat, [])
        out_hands.append(list(given) + [None] * (8 - len(given)))
        out_cols.append(
            [[ups.get(seat, {}).get(c), downs.get(seat, {}).get(c)] for c in range(1, 6)]
        )

    def take(seat: int) -> str:
        for card in pool:
            if card[0] != "X" and card[1] not in avoid.get(seat, ""):
                pool.remove(card)
                return card
        raise AssertionError(f"no card left for seat {seat}")

    for seat in sorted((0, 1), key=lambda s: s not in avoid):  # constrained seats first
        for i, card in enumerate(out_hands[seat]):
            if card is None:
                out_hands[seat][i] = take(seat)
        for column in out_cols[seat]:
            if column[0] is None:
                column[0] = take(seat)
    for seat in (0, 1):
        for column in out_cols[seat]:
            if column[1] is None:
                column[1] = pool.pop(0)
    assert not pool
    deal: dict[str, Any] = {"declarer": declarer, "hands": out_hands, "columns": out_cols}
    if scores is not None:
        deal["scores"] = scores
    return deal


def start(deal: dict[str, Any], trump: str | None, points: int = 21) -> State:
    """The hand of ``deal`` with trumps chosen: the declarer is to lead trick 1."""
    return GAME.from_deal(deal, {"points": points}).apply({"type": "trump", "suit": trump})


def play(state: State, card: str, call: str | None = None) -> State:
    """Play ``card``; a led joker calls ``call``."""
    action: dict[str, Any] = {"type": "play", "card": card}
    if call is not None:
        action.update(call="want", suit=call)
    return state.apply(action)


def legal_cards(state: State) -> set[str]:
    return {action["card"] for action in state.legal_actions()}


def available(state: State, seat: int) -> set[str]:
    data = state.to_dict()
    return set(data["hands"][seat]) | {c[0] for c in data["columns"][seat] if c is not None}


def reply(state: State) -> State:
    """The follower's cheapest legal card (the § 0.6 auto-move): lowest non-joker."""
    return state.apply(auto_action(state))


def winner(state: State) -> int:
    return state.view(None)["last_trick"]["winner"]


def last_trick_state(
    tricks: tuple[int, int],
    scores: tuple[int, int] = (0, 0),
    *,
    seed: str | None = None,
    declarer: int = D,
    points: int = 21,
) -> State:
    """Trick 18 about to be played: D leads AH, O can only follow with 7H, so D takes it."""
    data = start(build_deal(declarer=declarer), "S", points).to_dict()
    rest = [c for c in DECK if c not in ("AH", "7H")]
    data.update(
        seed=seed,
        hands=[["AH"], ["7H"]],
        columns=[[None] * 5, [None] * 5],
        played=rest,
        tricks=list(tricks),
        scores=list(scores),
        to_act=D,
        leader=D,
    )
    return GAME.from_dict(data)


# -- J-01 … J-25 -----------------------------------------------------------------------------


def test_j_01_deck_and_deal() -> None:
    """JJ-1, JJ-7: 36 cards with both jokers and no 6♠/6♣; 8 in hand and 5 columns each."""
    deck = joker_deck()
    assert len(deck) == 36 == len(set(deck))
    assert {"X1", "X2", "6H", "6D"} <= set(deck)
    assert "6S" not in deck and "6C" not in deck
    state = GAME.new_match(None, "j01").apply({"type": "trump", "suit": "S"})
    data = state.to_dict()
    everything = []
    for seat in (0, 1):
        assert len(data["hands"][seat]) == 8
        assert len(data["columns"][seat]) == 5
        assert all(len(column) == 2 for column in data["columns"][seat])
        everything += data["hands"][seat] + [c for col in data["columns"][seat] for c in col]
    assert sorted(everything) == sorted(deck)


def test_j_02_first_card_comes_from_the_hand() -> None:
    """JJ-13: the declarer's lead to trick 1 may not be a face-up column card."""
    state = start(build_deal(hands={D: ["7D", "KC"]}, ups={D: {1: "AH"}}), "S")
    hand = state.to_dict()["hands"][D]
    assert legal_cards(state) == set(hand)
    assert "AH" not in legal_cards(state)
    with pytest.raises(IllegalAction, match="first card of the hand must come from your hand"):
        play(state, "AH")


def test_j_03_reply_in_trick_1_may_use_the_table_and_it_counts_for_follow_suit() -> None:
    """JJ-13, JJ-14, JJ-9: O may answer from a column; K♦ face up obliges O to follow."""
    deal = build_deal(
        hands={D: ["7D"], O: ["AS", "9C"]},
        ups={O: {3: "KD", 1: "TH"}},
        downs={O: {3: "8C"}},
        avoid={O: "D"},
    )
    state = play(start(deal, "S"), "7D")
    assert legal_cards(state) == {"KD"}
    state = play(state, "KD")
    assert winner(state) == O
    assert state.to_act == O
    assert state.to_dict()["columns"][O][2] is None
    assert "8C" in state.view(O)["hand"]


def test_j_04_follow_suit_with_any_card_of_the_suit() -> None:
    """JJ-18a, JJ-20: any heart will do, no obligation to beat; the higher heart wins."""
    deal = build_deal(hands={D: ["QH"], O: ["7H", "AS"]}, ups={O: {2: "AH"}}, avoid={O: "H"})
    state = play(start(deal, "S"), "QH")
    assert legal_cards(state) == {"7H", "AH"}
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="You must follow suit: play a heart or a joker"):
        play(state, "AS")
    assert state.to_dict() == before
    state = play(state, "7H")
    assert winner(state) == D


def test_j_05_must_trump() -> None:
    """JJ-18b, JJ-20: void in the led suit, O must trump, and the trump wins."""
    deal = build_deal(hands={D: ["KC"], O: ["9H", "8S"]}, ups={O: {1: "TD"}}, avoid={O: "CS"})
    state = play(start(deal, "S"), "KC")
    assert legal_cards(state) == {"8S"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        play(state, "9H")
    state = play(state, "8S")
    assert winner(state) == O


def test_j_06_must_trump_from_the_table() -> None:
    """JJ-14, JJ-18b: the only trump lies face up on a column, and it must be played."""
    deal = build_deal(hands={D: ["KC"], O: ["9H"]}, ups={O: {4: "7S"}}, avoid={O: "CS"})
    state = play(start(deal, "S"), "KC")
    assert legal_cards(state) == {"7S"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        play(state, "9H")


def test_j_07_bezi_void_follower_may_play_anything() -> None:
    """JJ-18c, JJ-20: no trump, no club: any available card; a discard loses."""
    deal = build_deal(hands={D: ["KC"], O: ["AH"]}, avoid={O: "C"})
    state = play(start(deal, None), "KC")
    assert legal_cards(state) == available(state, O)
    state = play(state, "AH")
    assert winner(state) == D


def test_j_08_face_down_never_counts() -> None:
    """JJ-12, JJ-14: a diamond lying face down neither obliges O nor may be played."""
    deal = build_deal(hands={D: ["8D"]}, downs={O: {2: "9D"}}, avoid={O: "DH"})
    state = play(start(deal, "H"), "8D")
    assert legal_cards(state) == available(state, O)
    assert "9D" not in legal_cards(state)
    with pytest.raises(IllegalAction, match="not in your hand or face up on your columns"):
        play(state, "9D")


def test_j_09_joker_always_legal() -> None:
    """JJ-17, JJ-20: holding a heart, O may still play the joker, and the joker wins."""
    deal = build_deal(hands={D: ["9H"], O: ["8H", "X2"]}, avoid={O: "H"})
    state = play(start(deal, "S"), "9H")
    assert legal_cards(state) == {"8H", "X2"}
    assert {"type": "play", "card": "X2"} in state.legal_actions()
    state = play(state, "X2")
    assert winner(state) == O


def test_j_10_joker_beats_trump() -> None:
    """JJ-20: the ace of trumps led, a joker takes it."""
    deal = build_deal(hands={D: ["AS"], O: ["X1"]})
    state = play(start(deal, "S"), "AS")
    assert "X1" in legal_cards(state)
    state = play(state, "X1")
    assert winner(state) == O


def test_j_11_joker_lead_highest_of_called_suit_table_counts() -> None:
    """JJ-19a, JJ-14, JJ-21: the face-up Q♥ is O's highest heart and must be played; D wins."""
    deal = build_deal(hands={D: ["X1"], O: ["7H", "AS"]}, ups={O: {2: "QH"}}, avoid={O: "H"})
    state = play(start(deal, "S"), "X1", call="H")
    assert legal_cards(state) == {"QH"}
    with pytest.raises(IllegalAction, match=r"highest heart \(Q♥\)"):
        play(state, "7H")
    state = play(state, "QH")
    assert winner(state) == D


def test_j_12_joker_lead_follower_void_trumps() -> None:
    """JJ-19b, JJ-21: void in hearts, O must trump (or play X2); the trump cuts the joker."""
    deal = build_deal(hands={D: ["X1"], O: ["7S", "9D", "X2"]}, avoid={O: "HS"})
    state = play(start(deal, "S"), "X1", call="H")
    assert legal_cards(state) == {"7S", "X2"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        play(state, "9D")
    state = play(state, "7S")
    assert winner(state) == O


def test_j_13_joker_lead_follower_void_in_called_suit_and_trump() -> None:
    """JJ-19c, JJ-21: no heart, no trump: anything goes, and the joker keeps the trick."""
    deal = build_deal(hands={D: ["X1"], O: ["9D", "KC"]}, avoid={O: "HS"})
    state = play(start(deal, "S"), "X1", call="H")
    assert legal_cards(state) == available(state, O)
    assert {"9D", "KC"} <= legal_cards(state)
    state = play(state, "KC")
    assert winner(state) == D


@pytest.mark.parametrize("o_holds_x2", [False, True])
def test_j_14_joker_calling_trump_cannot_be_cut(o_holds_x2: bool) -> None:
    """JJ-19a, JJ-21: calling the trump suit, only the highest trump (or X2) is legal; D wins."""
    hand = ["AS", "7S", "KH"] + (["X2"] if o_holds_x2 else [])
    deal = build_deal(hands={D: ["X1"], O: hand}, avoid={O: "S"})
    state = play(start(deal, "S"), "X1", call="S")
    assert legal_cards(state) == ({"AS", "X2"} if o_holds_x2 else {"AS"})
    state = play(state, "AS")
    assert winner(state) == D


def test_j_15_joker_lead_in_bezi() -> None:
    """JJ-16, JJ-19c, JJ-21: in bezi a joker still calls a suit; nothing cuts it."""
    deal = build_deal(hands={D: ["X1"], O: ["AS"]}, avoid={O: "D"})
    state = start(deal, None)
    assert {a.get("suit") for a in state.legal_actions() if a["card"] == "X1"} == set("SHDC")
    state = play(state, "X1", call="D")
    assert legal_cards(state) == available(state, O)
    state = play(state, "AS")
    assert winner(state) == D


def test_j_16_second_joker_takes() -> None:
    """JJ-17, JJ-21: O may answer a joker with the other joker, and takes the trick."""
    deal = build_deal(hands={D: ["X1"], O: ["AC", "X2"]}, avoid={O: "C"})
    state = play(start(deal, "H"), "X1", call="C")
    assert legal_cards(state) == {"AC", "X2"}
    state = play(state, "X2")
    assert winner(state) == O


def test_j_17_column_reveal_to_hand() -> None:
    """JJ-9, JJ-12: 10♣ of c3 played, 6♦ joins O's hand; D only learns that a card moved."""
    deal = build_deal(hands={D: ["7C"]}, ups={O: {3: "TC"}}, downs={O: {3: "6D"}}, avoid={O: "C"})
    state = play(start(deal, "S"), "7C")
    assert state.view(D)["hand_counts"][O] == 8
    state = play(state, "TC")
    data = state.to_dict()
    assert sum(column is not None for column in data["columns"][O]) == 4
    assert "6D" in data["hands"][O]
    assert "6D" in state.view(O)["hand"]
    for viewer in (D, None):
        seen = state.view(viewer)
        assert seen["columns"][O][2] is None
        assert seen["hand_counts"][O] == 9
        assert seen["revealed"] == [0, 1]
        assert seen["known_in_hand"][O] == []
        assert '"6D"' not in json.dumps(seen)
        assert "6D" in state.hidden_cards(viewer)


def _three_aces(state: State, aces: list[str]) -> State:
    """D leads each ace (bezi: only a joker could beat it), O answers with its cheapest card."""
    for ace in aces:
        state = reply(play(state, ace))
        assert winner(state) == D
    return state


def test_j_18_three_columns_to_two() -> None:
    """JJ-8, JJ-9: from c1, c4, c5 D plays c4: c1 and c5 stay, one card joins the hand."""
    deal = build_deal(hands={D: ["AH"]}, ups={D: {2: "AD", 3: "AC", 4: "AS"}})
    state = _three_aces(start(deal, None), ["AH", "AD", "AC"])
    columns = state.view(O)["columns"][D]
    assert [column is not None for column in columns] == [True, False, False, True, True]
    count = state.view(O)["hand_counts"][D]
    state = play(state, "AS")
    seen = state.view(O)
    assert [column is not None for column in seen["columns"][D]] == [
        True,
        False,
        False,
        False,
        True,
    ]
    assert seen["hand_counts"][D] == count + 1
    assert seen["revealed"] == [1, 0]


def test_j_19_last_two_columns_rule() -> None:
    """JJ-10: D plays 9♥ of c2 with c5 (J♣) standing: both columns go, +3 cards to the hand."""
    deal = build_deal(
        hands={D: ["AH"]},
        ups={D: {1: "AD", 2: "9H", 3: "AC", 4: "AS", 5: "JC"}},
        downs={D: {2: "7D", 5: "TS"}},
        avoid={O: "H"},
    )
    state = _three_aces(start(deal, None), ["AH", "AD", "AC"])
    state = reply(play(state, "AS"))  # three columns: only c4 goes
    assert winner(state) == D
    assert [c is not None for c in state.view(O)["columns"][D]] == [False, True, False, False, True]
    count = state.view(O)["hand_counts"][D]
    state = play(state, "9H")
    assert state.view(D)["columns"][D] == [None] * 5
    assert {"7D", "JC", "TS"} <= set(state.view(D)["hand"])
    for viewer in (O, None):
        seen = state.view(viewer)
        assert seen["columns"][D] == [None] * 5
        assert seen["hand_counts"][D] == count + 3
        assert seen["known_in_hand"][D] == ["JC"]  # "J♣ + 2 hidden cards moved to D's hand"
        assert seen["revealed"] == [2, 0]
        text = json.dumps(seen)
        assert '"7D"' not in text and '"TS"' not in text
    # Once played, the public card leaves known_in_hand.
    state = reply(state)
    assert winner(state) == D
    state = play(state, "JC")
    assert state.view(O)["known_in_hand"][D] == []


def test_j_20_trick_winner_leads() -> None:
    """JJ-15, docs/rules/README.md § 0.5: O takes trick 4 (which D led) and so leads trick 5."""
    deal = build_deal(hands={D: ["AH", "AD", "AC", "7H"], O: ["8H", "KH"]}, avoid={O: "H"})
    state = _three_aces(start(deal, None), ["AH", "AD", "AC"])
    assert state.to_act == D
    state = play(state, "7H")
    state = play(state, "KH")
    assert winner(state) == O
    assert state.to_act == O
    assert state.view(None)["leader"] == O
    assert state.view(O)["trick"] == []


def test_j_21_scoring() -> None:
    """JJ-22: 11-7 scores +4 for the 11-trick seat; 9-9 scores nothing."""
    assert hand_points((11, 7)) == (4, 0)
    assert hand_points((7, 11)) == (0, 4)
    assert hand_points((9, 9)) == (0, 0)
    state = reply(play(last_trick_state((10, 7)), "AH"))
    assert state.phase is Phase.HAND_OVER
    assert state.to_act is None
    assert state.scores == [4, 0]
    assert state.view(None)["previous_hand"]["tricks"] == [11, 7]
    assert state.view(None)["previous_hand"]["points"] == [4, 0]
    drawn = reply(play(last_trick_state((8, 9)), "AH"))
    assert drawn.scores == [0, 0]
    assert drawn.view(O)["previous_hand"]["tricks"] == [9, 9]


def test_j_22_match_end() -> None:
    """JJ-23: 19 + 2 reaches 21 and ends the match; 15 + 2 = 17 does not."""
    won = reply(play(last_trick_state((9, 8), (19, 15)), "AH"))
    assert won.phase is Phase.MATCH_OVER and won.is_over
    assert won.scores == [21, 15]
    assert won.result == [D]
    assert won.view(O)["result"] == [D]
    assert won.legal_actions() == []
    going_on = reply(play(last_trick_state((7, 10), (19, 15), seed="j22"), "AH"))
    assert going_on.scores == [19, 17]
    assert not going_on.is_over and going_on.result is None
    assert going_on.phase is Phase.TRUMP and going_on.hand_number == 2
    assert "result" not in going_on.view(None)


def test_j_23_declarer_alternation() -> None:
    """JJ-3, JJ-4: hand-1 declarer from the seed (here O), then D, then O; also after 9-9."""
    seed = next(s for s in range(100) if GAME.new_match(None, s).declarer == O)
    state = GAME.new_match(None, seed)
    declarers = {}
    while state.hand_number <= 3 and not state.is_over:
        declarers.setdefault(state.hand_number, state.view(None)["declarer"])
        state = state.apply(auto_action(state))
    assert declarers == {1: O, 2: D, 3: O}
    after_draw = reply(play(last_trick_state((8, 9), seed="draw", declarer=O), "AH"))
    assert after_draw.scores == [0, 0]
    assert after_draw.hand_number == 2 and after_draw.declarer == D
    assert after_draw.to_act == D and after_draw.phase is Phase.TRUMP


def test_j_24_trump_choice_is_free() -> None:
    """JJ-6: any of the five choices, whatever the declarer's first three cards."""
    state = GAME.from_deal(build_deal(hands={D: ["7H", "9H", "KD"]}), None)
    assert state.view(D)["hand"] == ["9H", "7H", "KD"]
    assert state.legal_actions() == [
        {"type": "trump", "suit": suit} for suit in ("S", "H", "D", "C", None)
    ]
    assert state.apply({"type": "trump", "suit": "C"}).trump == "C"
    bezi = state.apply({"type": "trump", "suit": None})
    assert bezi.trump is None and bezi.phase is Phase.PLAY
    assert bezi.view(O)["trump"] is None


def test_j_25_forfeit() -> None:
    """JJ-24: O leaves during trick 12: the match ends at once and D wins it."""
    state = start(build_deal(), "H")
    while len(state.to_dict()["played"]) < 22:
        state = state.apply(auto_action(state))
    state = state.apply(auto_action(state))  # trick 12 in progress
    over = state.forfeit(O)
    assert over.phase is Phase.MATCH_OVER and over.is_over
    assert over.result == [D]
    assert over.to_act is None and over.legal_actions() == []
    for viewer in (D, O, None):
        assert over.view(viewer)["forfeited"] == [O]
        assert over.view(viewer)["result"] == [D]
    with pytest.raises(IllegalAction, match="match is over"):
        over.apply(auto_action(state))
    with pytest.raises(IllegalAction, match="already over"):
        over.forfeit(D)
    assert state.phase is Phase.PLAY  # the old state is untouched


# -- the remaining rules ------------------------------------------------------------------------


def test_jj_02_two_seats_declarer_and_opponent() -> None:
    """JJ-2: two players; each view names the declarer of the hand."""
    assert get_game("japanese_joker") is GAME
    assert GAME.num_players == 2 and GAME.name == "japanese_joker"
    state = GAME.from_deal(build_deal(declarer=O), None)
    assert state.declarer == O and state.to_act == O
    assert all(state.view(v)["declarer"] == O for v in (D, O, None))


def test_jj_03_hand_1_declarer_is_drawn_from_the_seed() -> None:
    """JJ-3: the same seed gives the same declarer; both seats occur across seeds."""
    firsts = {seed: GAME.new_match(None, seed).declarer for seed in range(40)}
    assert set(firsts.values()) == {0, 1}
    assert all(GAME.new_match(None, seed).declarer == d for seed, d in firsts.items())
    assert GAME.new_match(None, "x").to_dict() == GAME.new_match(None, "x").to_dict()


def test_jj_05_first_three_cards_are_seen_only_by_their_owner() -> None:
    """JJ-5: three cards each before trumps; the opponent and spectators see counts only."""
    deal = build_deal(hands={D: ["7H", "9H", "KD"], O: ["AS", "QC", "6D"]})
    state = GAME.from_deal(deal, None)
    assert state.phase is Phase.TRUMP
    assert state.view(D)["hand"] == ["9H", "7H", "KD"]
    assert state.view(O)["hand"] == ["AS", "6D", "QC"]
    for viewer, others in ((D, ["AS", "QC", "6D"]), (O, ["7H", "9H", "KD"]), (None, [])):
        seen = state.view(viewer)
        assert seen["hand_counts"] == [3, 3]
        assert "trump" not in seen
        text = json.dumps(seen)
        assert not any(f'"{card}"' in text for card in others)
        # 30 undealt cards and the other seat's 3 are unknown to a player; 36 to a spectator.
        assert len(state.hidden_cards(viewer)) == (36 if viewer is None else 33)
    assert "hand" not in state.view(None)
    assert state.auto_trump_cards() == ["7H", "9H", "KD"]


def test_jj_06_trump_choice_is_public() -> None:
    """JJ-6: after the choice every seat and spectator sees the trump."""
    state = GAME.from_deal(build_deal(), None)
    after = state.apply({"type": "trump", "suit": "D"})
    assert [after.view(v)["trump"] for v in (D, O, None)] == ["D", "D", "D"]
    for bad in ({"type": "trump", "suit": "X"}, {"type": "trump", "suit": "N"}, {"type": "trump"}):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    with pytest.raises(IllegalAction, match="choose trumps first"):
        state.apply({"type": "play", "card": state.to_dict()["hands"][D][0]})


def test_jj_07_the_rest_of_the_deal_follows_the_trump_choice() -> None:
    """JJ-7: 8 cards in hand and 5 columns each; 18 tricks play out the 36 cards."""
    deal = build_deal()
    state = start(deal, "C")
    data = state.to_dict()
    assert data["hands"] == deal["hands"]
    assert data["columns"] == deal["columns"]
    assert state.view(D)["hand_counts"] == [8, 8]
    assert all(c is not None for cols in state.view(None)["columns"] for c in cols)
    tricks = 0
    while state.phase is Phase.PLAY:
        state = state.apply(auto_action(state))
        tricks += not state.view(None)["trick"]
    assert tricks == 18 and sum(state.view(None)["tricks"]) == 18
    assert state.phase is Phase.HAND_OVER


def test_jj_08_never_a_single_column() -> None:
    """JJ-8: a whole hand never leaves exactly one column standing for either seat."""
    for seed in range(5):
        state = GAME.new_match(None, seed).apply({"type": "trump", "suit": "H"})
        while state.hand_number == 1:
            for columns in state.view(None)["columns"]:
                assert sum(c is not None for c in columns) in (0, 2, 3, 4, 5)
            state = state.apply(auto_action(state))


def test_jj_11_a_card_from_the_hand_leaves_the_columns_alone() -> None:
    """JJ-11: the lead from the hand changes neither seat's columns nor moves cards."""
    state = start(build_deal(hands={D: ["AH"]}), "S")
    before = state.view(None)["columns"]
    after = play(state, "AH")
    assert after.view(None)["columns"] == before
    assert after.view(None)["hand_counts"] == [7, 8]
    assert after.view(None)["revealed"] == [0, 0]


def test_jj_12_face_down_cards_are_not_playable_and_not_shown() -> None:
    """JJ-12: an own face-down card is refused with the same words as any absent card."""
    deal = build_deal(hands={D: ["AH"]}, downs={D: {1: "KH"}}, avoid={O: "H"})
    state = reply(play(start(deal, None), "AH"))
    assert state.to_act == D
    with pytest.raises(IllegalAction) as own_face_down:
        play(state, "KH")
    opponents = state.to_dict()["hands"][O][0]
    with pytest.raises(IllegalAction) as opponents_card:
        play(state, opponents)
    # The same words, naming only the card that was sent.
    assert own_face_down.value.template == opponents_card.value.template
    assert own_face_down.value.params == {"card": CardCode("KH")}
    assert opponents_card.value.params == {"card": CardCode(opponents)}
    for viewer in (D, O, None):
        assert '"KH"' not in json.dumps(state.view(viewer))
        assert "KH" in state.hidden_cards(viewer)


def test_jj_13_from_the_second_card_on_the_table_is_available() -> None:
    """JJ-13: after trick 1's lead, the leader of trick 2 may lead a face-up card."""
    deal = build_deal(hands={D: ["AH"]}, ups={D: {1: "KD"}}, avoid={O: "H"})
    state = reply(play(start(deal, None), "AH"))
    assert state.to_act == D and "KD" in legal_cards(state)


def test_jj_16_a_led_joker_calls_a_suit_and_always_wants() -> None:
    """JJ-16: four call actions per joker; no call, "take", a bad suit or a non-led call fail."""
    deal = build_deal(hands={D: ["X1"], O: ["X2"]})
    state = start(deal, "S")
    x1 = [a for a in state.legal_actions() if a["card"] == "X1"]
    assert x1 == [{"type": "play", "card": "X1", "call": "want", "suit": s} for s in "SHDC"]
    for bad, reason in (
        ({"type": "play", "card": "X1"}, "must call a suit"),
        ({"type": "play", "card": "X1", "call": "take", "suit": "H"}, "always played to win"),
        ({"type": "play", "card": "X1", "call": "want", "suit": None}, "calls one of the suits"),
        ({"type": "play", "card": "X1", "call": "want", "suit": "X"}, "calls one of the suits"),
        ({"type": "play", "card": "X1", "call": "low"}, "must call a suit"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            state.apply(bad)
    led = play(state, "X1", call="C")
    assert led.view(None)["trick"] == [{"seat": D, "card": "X1", "call": "want", "suit": "C"}]
    with pytest.raises(IllegalAction, match="not led carries no call"):
        led.apply({"type": "play", "card": "X2", "call": "want", "suit": "C"})
    answered = play(led, "X2")
    assert answered.view(None)["last_trick"]["plays"][1] == {"seat": O, "card": "X2"}


def test_jj_17_joker_is_legal_even_when_the_suit_is_held() -> None:
    """JJ-17, JJ-19b: holding trumps and a joker after a joker lead, both are offered."""
    deal = build_deal(hands={D: ["X1"], O: ["X2", "9S"]}, avoid={O: "HS"})
    state = play(start(deal, "S"), "X1", call="H")
    assert legal_cards(state) == {"9S", "X2"}


@pytest.mark.parametrize(
    ("lead", "follow", "trump", "expected"),
    [
        (Play(D, "9H"), Play(O, "TH"), "S", O),  # JJ-20: same suit, higher wins
        (Play(D, "9H"), Play(O, "8H"), "S", D),
        (Play(D, "9H"), Play(O, "7S"), "S", O),  # JJ-20: trump on a non-trump lead
        (Play(D, "9H"), Play(O, "AD"), "S", D),  # JJ-20: a discard loses
        (Play(D, "9H"), Play(O, "AS"), None, D),  # bezi: no trump
        (Play(D, "AS"), Play(O, "X2"), "S", O),  # JJ-20: a joker beats anything
        (Play(D, "X1", "want", "H"), Play(O, "X2"), "S", O),  # JJ-21: second joker takes
        (Play(D, "X1", "want", "H"), Play(O, "7S"), "S", O),  # JJ-21: trump cuts
        (Play(D, "X1", "want", "S"), Play(O, "AS"), "S", D),  # JJ-21: called trump: no cut
        (Play(D, "X1", "want", "H"), Play(O, "AH"), "S", D),
        (Play(D, "X1", "want", "H"), Play(O, "AS"), None, D),  # JJ-21: bezi
        (Play(O, "KC"), Play(D, "AC"), "H", D),
    ],
)
def test_jj_20_21_trick_winner(lead: Play, follow: Play, trump: str | None, expected: int) -> None:
    """JJ-20, JJ-21: the winner of a two-card trick."""
    assert trick_winner((lead, follow), trump) == expected


def test_jj_21_trump_cuts_joker_calling_a_non_trump_suit_in_a_real_hand() -> None:
    """JJ-21 via apply: the cutting trump wins and its player leads next (JJ-15)."""
    deal = build_deal(hands={D: ["X1"], O: ["7D"]}, avoid={O: "CD"})
    state = play(play(start(deal, "D"), "X1", call="C"), "7D")
    assert winner(state) == O and state.to_act == O and state.view(None)["tricks"] == [0, 1]


def test_jj_23_points_option() -> None:
    """JJ-23: the only table option, 11/15/21/31, default 21; anything else is refused."""
    assert [(o.name, o.choices, o.default) for o in GAME.option_specs] == [
        ("points", (11, 15, 21, 31), 21)
    ]
    assert GAME.option_specs[0].label == "Points to play to"
    assert GAME.parse_options(None) == {"points": 21}
    assert GAME.parse_options({"points": 11}) == {"points": 11}
    for bad in ({"points": 20}, {"points": "21"}, {"points": True}, {"stake": 25}):
        with pytest.raises(InvalidOptions):
            GAME.parse_options(bad)
    with pytest.raises(InvalidOptions):
        GAME.new_match({"visibility": "public"}, 1)
    assert GAME.new_match({"points": 11}, 1).view(None)["target"] == 11
    eleven = reply(play(last_trick_state((9, 8), (9, 0), points=11), "AH"))
    assert eleven.is_over and eleven.result == [D]


def test_jj_24_forfeit_before_trumps_and_by_the_declarer() -> None:
    """JJ-24: a forfeit at any moment ends the match for the other seat; bad seats are refused."""
    state = GAME.new_match(None, "forfeit")
    over = state.forfeit(state.declarer)
    assert over.result == [1 - state.declarer]
    assert over.view(None)["forfeited"] == [state.declarer]
    for bad in (2, -1, None, True):
        with pytest.raises(IllegalAction):
            state.forfeit(bad)  # type: ignore[arg-type]


# -- the engine contract ------------------------------------------------------------------------


def test_view_has_every_contract_key() -> None:
    """docs/rules/README.md § 0.3 and the engine contract: the keys every view carries."""
    common = {
        "phase", "to_act", "tricks", "scores", "seat", "players", "hand_number", "target",
        "hand_counts", "trick", "leader", "last_trick", "previous_hand", "legal", "declarer",
        "columns", "known_in_hand", "revealed", "forfeited",
    }  # fmt: skip
    state = GAME.new_match(None, 7)
    for viewer in (D, O, None):
        assert common <= state.view(viewer).keys()
    assert "hand" in state.view(D) and "hand" not in state.view(None)
    assert state.view(state.declarer)["legal"] == state.legal_actions()
    assert state.view(1 - state.declarer)["legal"] == []
    played = state.apply({"type": "trump", "suit": "S"})
    assert "trump" in played.view(None)
    assert played.view(None)["players"] == 2 and played.view(None)["hand_number"] == 1
    with pytest.raises(ValueError):
        state.view(2)


def test_last_trick_survives_into_the_next_hand() -> None:
    """The page shows the last trick after the deal of the next hand; the summary too."""
    state = reply(play(last_trick_state((9, 8), seed="next"), "AH"))
    assert state.hand_number == 2 and state.phase is Phase.TRUMP
    seen = state.view(O)
    assert seen["last_trick"] == {
        "plays": [{"seat": D, "card": "AH"}, {"seat": O, "card": "7H"}],
        "winner": D,
    }
    assert seen["previous_hand"] == {
        "hand_number": 1,
        "declarer": D,
        "trump": "S",
        "tricks": [10, 8],
        "points": [2, 0],
    }
    assert "trump" not in seen and seen["tricks"] == [0, 0]


def test_apply_refuses_malformed_actions_and_leaves_the_state_alone() -> None:
    """docs/rules/README.md § 0.3: anything but a legal action is IllegalAction; nothing changes."""
    state = start(build_deal(hands={D: ["AH"]}), "S")
    before = state.to_dict()
    for bad in (
        None,
        "AH",
        ["play", "AH"],
        {},
        {"type": "play"},
        {"type": "play", "card": 5},
        {"type": "play", "card": "ZZ"},
        {"type": "play", "card": "6S"},
        {"type": "play", "card": "AH", "seat": 0},
        {"type": "play", "card": "AH", "call": "want", "suit": "H"},
        {"type": "bid", "tricks": 2},
        {"type": "trump", "suit": "H"},
        {"card": "AH"},
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)  # type: ignore[arg-type]
    assert state.to_dict() == before
    assert play(state, "AH").to_dict() != before
    assert state.to_dict() == before


def test_hand_over_after_an_explicit_deal_refuses_moves() -> None:
    """docs/rules/README.md § 0.3: a from_deal hand stops in hand_over with nobody to act."""
    state = reply(play(last_trick_state((5, 12)), "AH"))
    assert state.phase is Phase.HAND_OVER and state.scores == [0, 6]
    assert state.legal_actions() == [] and state.view(O)["legal"] == []
    assert state.hidden_cards(None) == set()
    with pytest.raises(IllegalAction, match="hand is over"):
        state.apply({"type": "play", "card": "AH"})


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: "not a deal", "must be an object"),
        (lambda d: {k: v for k, v in d.items() if k != "columns"}, "missing: columns"),
        (lambda d: {**d, "extra": 1}, "unknown fields: extra"),
        (lambda d: {**d, "declarer": 2}, "declarer must be seat 0 or 1"),
        (lambda d: {**d, "declarer": True}, "declarer must be seat 0 or 1"),
        (lambda d: {**d, "hands": d["hands"][:1]}, "hands must have 2 entries"),
        (lambda d: {**d, "hands": "abc"}, "hands must be a list"),
        (lambda d: {**d, "hands": [d["hands"][0][:7], d["hands"][1]]}, r"hands\[0\] must have 8"),
        (lambda d: {**d, "columns": [d["columns"][0][:4], d["columns"][1]]}, "must have 5"),
        (
            lambda d: {**d, "columns": [[["AS"], *d["columns"][0][1:]], d["columns"][1]]},
            r"columns\[0\]\[0\]",
        ),
        (lambda d: {**d, "hands": [["ZZ", *d["hands"][0][1:]], d["hands"][1]]}, "'ZZ' is not"),
        (lambda d: {**d, "hands": [["6S", *d["hands"][0][1:]], d["hands"][1]]}, "'6S' is not"),
        (lambda d: {**d, "hands": [[7, *d["hands"][0][1:]], d["hands"][1]]}, "7 is not a card"),
        (
            lambda d: {**d, "hands": [[d["hands"][1][0], *d["hands"][0][1:]], d["hands"][1]]},
            "more than once",
        ),
        (lambda d: {**d, "scores": [1]}, "scores must have 2"),
        (lambda d: {**d, "scores": [-1, 0]}, "whole numbers"),
        (lambda d: {**d, "scores": [21, 0]}, "already reach the target"),
    ],
)
def test_from_deal_refuses_malformed_deals(mutate: Any, message: str) -> None:
    """Explicit deal: every malformed deal raises InvalidDeal with a clear message."""
    with pytest.raises(InvalidDeal, match=message):
        GAME.from_deal(mutate(build_deal()), None)


def test_from_deal_keeps_given_scores() -> None:
    state = GAME.from_deal(build_deal(scores=[3, 5]), {"points": 11})
    assert state.scores == [3, 5] and state.view(None)["target"] == 11


def test_round_trip_and_equality() -> None:
    """to_dict/from_dict rebuild an equal state, through JSON too; states compare by value."""
    state = GAME.new_match({"points": 15}, "rt")
    for _ in range(30):
        data = json.loads(json.dumps(state.to_dict()))
        assert GAME.from_dict(data) == state
        state = state.apply(auto_action(state))
    assert state != GAME.new_match({"points": 15}, "rt")
    with pytest.raises(ValueError):
        GAME.from_dict({"game": "japanese_joker"})
