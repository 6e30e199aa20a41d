"""Japanese Whist as a specification: every rule JW-1 … JW-17 and every scenario W-01 … W-18.

Rules: docs/rules/japanese_whist.md. F is the forehand, G the dealer; most positions are built
with ``from_deal`` with G in seat 0 and F in seat 1, then played through ``apply``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games.rules import IllegalAction, InvalidDeal, InvalidOptions, Phase, RulesError, get_game
from games.rules.automove import auto_action
from games.rules.cards import FULL_DECK, full_deck
from games.rules.japanese_whist import GAME, Options, hand_points, trick_winner
from games.rules.tricks import Play

G, F = 0, 1  # dealer and forehand in every explicit deal below
PLACES = ("up", "down", "hand")


# --- helpers ------------------------------------------------------------------------------------


def build_deal(
    *,
    dealer: int = G,
    ups: dict[int, dict[int, str]] | None = None,
    downs: dict[int, dict[int, str]] | None = None,
    hands: dict[int, list[str]] | None = None,
    avoid: dict[tuple[int, str], str] | None = None,
    scores: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """A deal with the named cards where the scenario puts them and the rest filled in order.

    ``avoid[(seat, place)]`` lists suits the filler must keep out of that seat's ``place``
    ("up", "down" or "hand"), so "G holds no other heart face up" is a line, not 52 codes.
    """
    ups, downs, hands, avoid = ups or {}, downs or {}, hands or {}, avoid or {}
    slots: dict[tuple[int, str], list[str | None]] = {}
    for seat in (0, 1):
        slots[(seat, "up")] = [ups.get(seat, {}).get(i) for i in range(10)]
        slots[(seat, "down")] = [downs.get(seat, {}).get(i) for i in range(10)]
        given = list(hands.get(seat, []))
        slots[(seat, "hand")] = given + [None] * (6 - len(given))
    used = [card for cards in slots.values() for card in cards if card is not None]
    assert len(used) == len(set(used)), "a scenario card is placed twice"
    remaining = [card for card in full_deck() if card not in used]
    random.Random(52).shuffle(remaining)  # a fixed, mixed filler: no seat gets whole suits
    # Constrained places first, so the cards they may not take are left for the others.
    for key in sorted(slots, key=lambda key: -len(avoid.get(key, ""))):
        banned = avoid.get(key, "")
        for index, card in enumerate(slots[key]):
            if card is None:
                pick = next(c for c in remaining if c[1] not in banned)
                remaining.remove(pick)
                slots[key][index] = pick
    return {
        "dealer": dealer,
        "layout": [
            [[slots[(seat, "up")][i], slots[(seat, "down")][i]] for i in range(10)]
            for seat in (0, 1)
        ],
        "hands": [slots[(seat, "hand")] for seat in (0, 1)],
        "scores": list(scores),
    }


def everywhere(seat: int, suits: str) -> dict[tuple[int, str], str]:
    return {(seat, place): suits for place in PLACES}


def start(deal: dict[str, Any], trump: str = "S", **options: Any) -> Any:
    """The hand of ``deal`` with the opening choice made (trump, or spel in spel or pass)."""
    state = GAME.from_deal(deal, options)
    if state.phase is Phase.TRUMP:
        return state.apply({"type": "trump", "suit": trump})
    return state.apply({"type": "declare", "contract": "spel"})


def play(state: Any, *cards: str) -> Any:
    for card in cards:
        state = state.apply({"type": "play", "card": card})
    return state


def legal_cards(state: Any) -> set[str]:
    return {action["card"] for action in state.legal_actions()}


def face_up(state: Any, seat: int) -> set[str]:
    return {pos["up"] for pos in state.view(seat)["layout"][seat] if pos and pos["up"]}


def codes_in(view: dict[str, Any]) -> set[str]:
    text = json.dumps(view)
    return {code for code in FULL_DECK if re.search(rf'"{code}"', text)}


def play_to(state: Any, want: tuple[int, int], attempts: int = 500) -> Any:
    """Play the rest of the hand through ``apply`` so that it ends with ``want`` tricks.

    Both players steer each trick towards whoever still needs tricks (strong leads and cheap
    wins for the one, weak leads and discards for the other), with some noise; the first of
    a fixed series of attempts that lands exactly is returned, so the test is deterministic.
    """
    for attempt in range(attempts):
        rng = random.Random(attempt)
        noise = (attempt % 10) / 20  # from pure steering to half random moves
        current = state
        while current.phase is Phase.PLAY:
            need = [want[0] - current.tricks[0], want[1] - current.tricks[1]]
            if min(need) < 0:
                break
            target = rng.randrange(2) if need[0] == need[1] else int(need[1] > need[0])
            cards = sorted(
                (action["card"] for action in current.legal_actions()),
                key=lambda card: _strength(card, current.trump),
            )
            if rng.random() < noise:
                card = rng.choice(cards)
            elif not current.trick:
                card = cards[-1] if target == current.to_act else cards[0]
            else:
                lead = current.trick[0]
                wins = [
                    card
                    for card in cards
                    if trick_winner((lead, Play(current.to_act, card)), current.trump) == target
                ]
                card = wins[0] if wins else rng.choice(cards)
            current = current.apply({"type": "play", "card": card})
        if current.phase is not Phase.PLAY and tuple(current.tricks) == want:
            return current
    raise AssertionError(f"no play of this deal ends {want}")


def _strength(card: str, trump: str | None) -> tuple[bool, int]:
    return (card[1] == trump, "23456789TJQKA".index(card[0]))


# --- options and the engine contract ---------------------------------------------------------


def test_game_is_registered_with_its_two_play_options() -> None:
    assert get_game("japanese_whist") is GAME
    assert GAME.name == "japanese_whist"
    assert GAME.num_players == 2
    assert [spec.name for spec in GAME.option_specs] == ["variant", "points"]
    assert GAME.parse_options(None) == {"variant": "trumps", "points": 13}
    assert GAME.parse_options({"variant": "spel_pass", "points": 21}) == {
        "variant": "spel_pass",
        "points": 21,
    }


@pytest.mark.parametrize(
    "options",
    [{"stake": 25}, {"variant": "bezi"}, {"points": 10}, {"points": "13"}, {"points": True}],
)
def test_unknown_options_and_values_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.parse_options(options)
    with pytest.raises(InvalidOptions):
        GAME.new_match(options, 1)


def test_a_view_carries_every_contract_key() -> None:
    state = GAME.new_match(None, "keys")
    shared = {
        "phase",
        "to_act",
        "tricks",
        "scores",
        "seat",
        "players",
        "hand_number",
        "target",
        "hand_counts",
        "trick",
        "leader",
        "last_trick",
        "previous_hand",
        "legal",
        "result",
        "dealer",
        "forehand",
        "game",
        "contract",
        "layout",
        "hand_locked",
    }
    assert shared <= set(state.view(None))
    assert "hand" not in state.view(None)
    assert "hand" in state.view(0)
    assert "trump" not in state.view(0)  # docs/rules/README.md § 0.3: absent before it is known
    assert state.apply({"type": "trump", "suit": "D"}).view(None)["trump"] == "D"


def test_apply_returns_a_new_state_and_leaves_the_old_one_untouched() -> None:
    state = GAME.new_match(None, "immutable")
    before = state.to_dict()
    after = state.apply({"type": "trump", "suit": "H"})
    assert after is not state
    assert state.to_dict() == before
    with pytest.raises(IllegalAction):
        after.apply({"type": "play", "card": "ZZ"})
    assert GAME.from_dict(after.to_dict()) == after


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("play QH", "must be an object"),
        ({"type": "play"}, "exactly the keys type, card"),
        ({"type": "play", "card": "QH", "call": "high"}, "exactly the keys"),
        ({"type": "play", "card": 12}, "not a card"),
        ({"type": "play", "card": "X1"}, "not a card"),
        ({"type": "bid", "tricks": 3}, "no bidding"),
        ({"type": "declare", "contract": "spel"}, "no spel or pass"),
        ({"type": "trump", "suit": "S"}, "already been chosen"),
        ({"type": "dance"}, "Unknown action type"),
    ],
)
def test_malformed_actions_are_refused_with_a_readable_reason(action: Any, message: str) -> None:
    state = start(build_deal(), trump="C")
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)


def test_an_opponents_face_up_card_is_named_as_the_opponents() -> None:
    state = start(build_deal(ups={G: {0: "AS"}}))
    assert state.hand_locked  # named even in trick 1: the opponent's face-up cards are public
    with pytest.raises(IllegalAction, match="opponent's layout"):
        state.apply({"type": "play", "card": "AS"})


def test_state_round_trips_through_to_dict() -> None:
    state = GAME.new_match({"variant": "spel_pass", "points": 5}, "round trip")
    while not state.is_over:
        assert GAME.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        state = state.apply(auto_action(state))
    assert GAME.from_dict(state.to_dict()) == state


def test_forfeit_ends_the_match_for_the_opponent() -> None:
    state = play(start(build_deal(ups={F: {0: "KH"}, G: {0: "4H"}})), "KH")
    over = state.forfeit(F)
    assert over.phase is Phase.MATCH_OVER and over.is_over
    assert over.result == [G]
    assert over.to_act is None and over.legal_actions() == []
    assert over.view(G)["forfeited"] == [F]
    assert over.view(None)["result"] == [G]
    assert over.hidden_cards(None) == state.hidden_cards(None)  # nothing is revealed
    with pytest.raises(IllegalAction, match="already over"):
        over.forfeit(G)
    with pytest.raises(IllegalAction, match="match is over"):
        over.apply({"type": "play", "card": "4H"})


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("scores"), "missing scores"),
        (lambda d: d.update(seed=1), "unknown seed"),
        (lambda d: d.update(dealer=2), "dealer"),
        (lambda d: d.update(dealer=True), "dealer"),
        (lambda d: d["layout"].pop(), "one entry per seat"),
        (lambda d: d["layout"][0].pop(), "10 positions"),
        (lambda d: d["layout"][1].__setitem__(4, ["AS"]), "position 4 of seat 1"),
        (lambda d: d["layout"][1].__setitem__(4, "AS"), "position 4 of seat 1"),
        (lambda d: d["hands"][0].append("AS"), "6 card codes"),
        (lambda d: d["hands"][1].__setitem__(0, 7), "6 card codes"),
        (lambda d: d["hands"][1].__setitem__(0, "X1"), "Not cards of the 52-card deck: X1"),
        (lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]), "more than once"),
        (lambda d: d.update(scores=[0]), "scores"),
        (lambda d: d.update(scores=[0, -1]), "scores"),
        (lambda d: d.update(scores=[13, 0]), "below the target"),
        (lambda d: d.update(hands="none"), "hands"),
    ],
)
def test_malformed_deals_are_refused(mutate: Any, message: str) -> None:
    deal = build_deal()
    mutate(deal)
    with pytest.raises(InvalidDeal, match=message):
        GAME.from_deal(deal, None)
    with pytest.raises(InvalidDeal):
        GAME.from_deal("not a deal", None)  # type: ignore[arg-type]


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(RulesError):
        GAME.new_match(None, 1.5)  # type: ignore[arg-type]


# --- the numbered rules -------------------------------------------------------------------------


def test_jw_01_the_deck_is_the_52_standard_cards_ace_high() -> None:
    data = GAME.new_match(None, "deck").to_dict()
    cards = [card for layout in data["layout"] for pos in layout for card in pos]
    cards += [card for hand in data["hands"] for card in hand]
    assert sorted(cards) == sorted(full_deck()) and len(cards) == 52
    assert trick_winner((Play(F, "KC"), Play(G, "AC")), None) == G  # ace high
    assert trick_winner((Play(F, "2C"), Play(G, "3C")), None) == G  # two low


def test_jw_02_the_first_dealer_comes_from_the_seed() -> None:
    dealers = {GAME.new_match(None, f"cut {n}").dealer for n in range(20)}
    assert dealers == {0, 1}
    assert GAME.new_match(None, "cut 7").dealer == GAME.new_match(None, "cut 7").dealer
    state = GAME.new_match(None, "cut 7")
    assert state.view(None)["forehand"] == 1 - state.dealer == state.to_act


def test_jw_03_each_player_gets_ten_layout_pairs_and_six_hand_cards() -> None:
    state = GAME.new_match(None, "deal")
    for seat in (0, 1):
        layout = state.view(None)["layout"][seat]
        assert len(layout) == 10
        assert all(pos["down"] is True and pos["up"] in FULL_DECK for pos in layout)
    assert state.view(None)["hand_counts"] == [6, 6]


def test_jw_04_hand_cards_stay_unseen_and_locked_until_trick_1_is_complete() -> None:
    deal = build_deal(hands={F: ["AS", "AH", "AD", "AC", "KS", "KH"], G: ["2D"]})
    state = start(deal)
    view = state.view(F)
    assert view["hand"] == [] and view["hand_locked"] is True
    assert view["hand_counts"] == [6, 6]
    assert {"AS", "AH", "AD", "AC", "KS", "KH"} <= state.hidden_cards(F)
    assert not codes_in(view) & {"AS", "AH", "AD", "AC", "KS", "KH"}
    # The refusal does not confirm that the owner holds the card.
    with pytest.raises(IllegalAction) as held:
        state.apply({"type": "play", "card": "AS"})
    with pytest.raises(IllegalAction) as not_held:
        state.apply({"type": "play", "card": "2D"})
    assert str(held.value) == str(not_held.value)
    assert "locked" in str(held.value)


def test_jw_05_the_forehand_names_one_of_four_suits_never_no_trump() -> None:
    state = GAME.from_deal(build_deal(), None)
    assert state.phase is Phase.TRUMP and state.to_act == F
    assert state.legal_actions() == [{"type": "trump", "suit": s} for s in "SHDC"]
    with pytest.raises(IllegalAction, match="No-trump"):
        state.apply({"type": "trump", "suit": None})
    with pytest.raises(IllegalAction, match="not a suit"):
        state.apply({"type": "trump", "suit": "X"})
    with pytest.raises(IllegalAction, match="trump suit"):
        state.apply({"type": "play", "card": GAME.from_deal(build_deal(), None).layouts[F][0][0]})


def test_jw_05_auto_trump_takes_the_forehands_most_common_face_up_suit() -> None:
    ups = ["2D", "3D", "4D", "5D", "6H", "7H", "8H", "9S", "TC", "JC"]
    deal = build_deal(ups={F: dict(enumerate(ups)), G: {0: "AD", 1: "KD", 2: "QD"}})
    state = GAME.from_deal(deal, None)
    assert sorted(state.auto_trump_cards()) == sorted(face_up(state, F))
    assert auto_action(state) == {"type": "trump", "suit": "D"}


def test_jw_06_the_card_beneath_turns_up_after_the_trick_and_then_the_position_empties() -> None:
    deal = build_deal(
        ups={F: {0: "AS"}, G: {0: "2S"}}, downs={F: {0: "3H"}}, avoid={(G, "up"): "S"}
    )
    state = play(start(deal, trump="C"), "AS")
    assert state.view(G)["layout"][F][0] == {"up": None, "down": True}
    state = play(state, "2S")
    assert state.view(G)["layout"][F][0] == {"up": "3H", "down": False}
    assert "3H" in legal_cards(state)
    state = play(state, "3H")
    assert state.view(None)["layout"][F][0] is None


def test_jw_07_trick_1_is_played_from_face_up_layout_cards_by_both() -> None:
    deal = build_deal(ups={F: {0: "9C"}}, hands={G: ["AC", "KC"]}, avoid={(G, "up"): "C"})
    state = start(deal)
    assert legal_cards(state) == face_up(state, F)
    state = play(state, "9C")
    assert legal_cards(state) == face_up(state, G)
    with pytest.raises(IllegalAction, match="first trick is played from the layout"):
        state.apply({"type": "play", "card": "AC"})


def test_jw_08_from_trick_2_hand_cards_and_face_up_cards_are_available() -> None:
    deal = build_deal(ups={F: {0: "AS"}, G: {0: "2S"}}, avoid={(G, "up"): "S"})
    state = play(start(deal, trump="C"), "AS", "2S")
    assert state.to_act == F
    assert legal_cards(state) == face_up(state, F) | set(state.view(F)["hand"])
    assert len(state.view(F)["hand"]) == 6


def test_jw_09_follow_suit_counts_only_available_cards() -> None:
    # Locked hand cards do not count in trick 1 (W-04), face-down cards never (W-08).
    deal = build_deal(
        ups={F: {0: "8S"}},
        downs={G: {2: "QS"}},
        hands={G: ["KS"]},
        avoid={(G, "up"): "S"},
    )
    state = play(start(deal, trump="H"), "8S")
    assert legal_cards(state) == face_up(state, G)


def test_jw_10_forehand_leads_trick_1_and_a_hand_has_26_tricks() -> None:
    state = start(build_deal(), trump="D", points=21)
    assert state.to_act == F == state.leader
    tricks = 0
    while state.phase is Phase.PLAY:
        before = sum(state.tricks)
        state = state.apply(auto_action(state))
        tricks += sum(state.tricks) - before
    assert tricks == 26 and state.phase is Phase.HAND_OVER
    assert state.to_act is None and state.legal_actions() == []
    assert state.view(None)["hand_counts"] == [0, 0]
    assert all(pos is None for layout in state.view(None)["layout"] for pos in layout)


def test_jw_11_a_follower_with_the_led_suit_must_play_it() -> None:
    deal = build_deal(
        ups={F: {0: "AS", 1: "9D"}, G: {0: "2S", 1: "3D", 2: "4D", 3: "2H"}},
        avoid={(G, "up"): "SD", (G, "down"): "D", (G, "hand"): "D"},
    )
    state = play(start(deal, trump="H"), "AS", "2S", "9D")
    assert legal_cards(state) == {"3D", "4D"}
    with pytest.raises(IllegalAction, match=r"You must follow suit: play a diamond \(♦\)\."):
        state.apply({"type": "play", "card": "2H"})


def test_jw_12_the_highest_trump_wins_else_the_highest_of_the_led_suit() -> None:
    assert trick_winner((Play(F, "AS"), Play(G, "2H")), "H") == G
    assert trick_winner((Play(F, "3H"), Play(G, "AS")), "H") == F
    assert trick_winner((Play(F, "TD"), Play(G, "AC")), "H") == F
    assert trick_winner((Play(F, "TD"), Play(G, "JD")), "H") == G
    assert trick_winner((Play(F, "TD"), Play(G, "AC")), None) == F


def test_jw_13_tricks_above_13_score_one_point_each() -> None:
    trumps = Options("trumps", 13)
    assert hand_points(trumps, (16, 10), G, None) == (3, 0)
    assert hand_points(trumps, (10, 16), G, None) == (0, 3)
    assert hand_points(trumps, (26, 0), F, None) == (13, 0)
    assert hand_points(trumps, (13, 13), G, None) == (0, 0)


@pytest.mark.parametrize("points", [5, 7, 13, 21])
def test_jw_14_the_match_ends_when_a_player_reaches_the_target(points: int) -> None:
    state = GAME.new_match({"points": points}, f"target {points}")
    assert state.view(None)["target"] == points
    hands = 0
    while not state.is_over:
        hand = state.hand_number
        state = state.apply(auto_action(state))
        if state.hand_number != hand:
            hands += 1
            assert max(state.scores) < points  # the match goes on only below the target
    assert max(state.scores) >= points
    assert state.result == [state.scores.index(max(state.scores))]
    assert min(state.scores) < points  # JW-14: only one player scores per deal
    assert state.view(0)["result"] == state.result


def test_jw_15_spel_or_pass_has_no_trump_and_a_declaration_instead() -> None:
    state = GAME.from_deal(build_deal(), {"variant": "spel_pass"})
    assert state.phase is Phase.DECLARE and state.to_act == F
    assert state.view(G)["trump"] is None  # null from the start
    assert state.legal_actions() == [
        {"type": "declare", "contract": "spel"},
        {"type": "declare", "contract": "pass"},
    ]
    with pytest.raises(IllegalAction, match="no trumps"):
        state.apply({"type": "trump", "suit": "H"})
    with pytest.raises(IllegalAction, match='Declare "spel" or "pass"'):
        state.apply({"type": "declare", "contract": "grand"})
    declared = state.apply({"type": "declare", "contract": "pass"})
    assert declared.phase is Phase.PLAY and declared.trump is None
    assert declared.view(None)["contract"] == "pass"
    assert auto_action(state) == {"type": "declare", "contract": "spel"}


def test_jw_16_a_made_spel_scores_the_excess_and_a_failed_one_pays_the_dealer_double() -> None:
    spel = Options("spel_pass", 13)
    assert hand_points(spel, (10, 16), G, "spel") == (0, 3)
    assert hand_points(spel, (15, 11), G, "spel") == (4, 0)
    assert hand_points(spel, (13, 13), G, "spel") == (0, 0)
    assert hand_points(spel, (20, 6), F, "spel") == (7, 0)  # forehand in seat 0


def test_jw_17_in_pass_the_player_under_13_scores_without_doubling() -> None:
    spel = Options("spel_pass", 13)
    assert hand_points(spel, (16, 10), G, "pass") == (0, 3)
    assert hand_points(spel, (8, 18), G, "pass") == (5, 0)
    assert hand_points(spel, (13, 13), G, "pass") == (0, 0)


# --- the scenarios ------------------------------------------------------------------------------


def test_w_01_deal() -> None:
    state = GAME.new_match(None, "W-01")
    data = state.to_dict()
    for seat in (0, 1):
        assert len(data["layout"][seat]) == 10
        assert all(up in FULL_DECK and down in FULL_DECK for up, down in data["layout"][seat])
        assert len(data["hands"][seat]) == 6
    cards = [card for layout in data["layout"] for pos in layout for card in pos]
    cards += [card for hand in data["hands"] for card in hand]
    assert len(set(cards)) == 52
    forehand = state.to_act
    view = state.view(forehand)
    assert view["hand"] == []
    assert not codes_in(view) & set(data["hands"][forehand])


def test_w_02_trump_choice() -> None:
    state = GAME.from_deal(build_deal(), None)
    for suit in "SHDC":
        assert state.apply({"type": "trump", "suit": suit}).trump == suit
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="No-trump is not played in Japanese Whist"):
        state.apply({"type": "trump", "suit": None})
    assert state.to_dict() == before


def test_w_03_trick_1_lead_from_layout() -> None:
    hand = ["AS", "AH", "AD", "AC", "KS", "KH"]
    deal = build_deal(hands={F: hand})
    state = start(deal)
    assert legal_cards(state) == {pos[0] for pos in deal["layout"][F]}
    assert len(legal_cards(state)) == 10
    for card in hand:
        with pytest.raises(IllegalAction, match="face-up layout cards"):
            state.apply({"type": "play", "card": card})


def test_w_04_trick_1_follow_among_face_up_cards() -> None:
    deal = build_deal(ups={F: {0: "KH"}}, hands={G: ["5H"]}, avoid={(G, "up"): "H"})
    state = play(start(deal), "KH")
    assert legal_cards(state) == {pos[0] for pos in deal["layout"][G]}
    assert len(legal_cards(state)) == 10


def test_w_05_trick_1_forced_follow() -> None:
    deal = build_deal(ups={F: {0: "KH"}, G: {0: "4H", 1: "AS"}}, avoid={(G, "up"): "H"})
    state = play(start(deal), "KH")
    assert state.legal_actions() == [{"type": "play", "card": "4H"}]
    with pytest.raises(IllegalAction, match="You must follow suit: play a heart"):
        state.apply({"type": "play", "card": "AS"})


def test_w_06_no_obligation_to_trump() -> None:
    deal = build_deal(
        ups={
            F: {0: "AH", 1: "KH", 2: "QH", 3: "JH", 4: "TH"},
            G: {0: "6H", 1: "7H", 2: "8H", 3: "9H"},
        },
        hands={F: ["AC"], G: ["2S", "3D"]},
        avoid=everywhere(G, "C"),
    )
    state = play(start(deal, trump="S"), "AH", "6H", "KH", "7H", "QH", "8H", "JH", "9H")
    assert state.tricks == (0, 4) and state.to_act == F
    assert state.view(None)["trick_number"] == 5
    state = play(state, "AC")
    available = face_up(state, G) | set(state.view(G)["hand"])
    assert not any(card[1] == "C" for card in available)
    assert legal_cards(state) == available
    assert {"2S", "3D"} <= legal_cards(state)
    assert play(state, "3D").last_trick[1] == F
    assert play(state, "2S").last_trick[1] == G  # trumping was allowed, just not required


def test_w_07_no_obligation_to_win() -> None:
    deal = build_deal(ups={F: {0: "9C"}, G: {0: "KC", 1: "2C"}}, avoid={(G, "up"): "C"})
    state = play(start(deal, trump="H"), "9C")
    assert legal_cards(state) == {"KC", "2C"}
    assert play(state, "2C").last_trick[1] == F
    assert play(state, "KC").last_trick[1] == G


def test_w_08_face_down_not_counted() -> None:
    deal = build_deal(ups={F: {0: "TD"}}, downs={G: {7: "5D"}}, avoid=everywhere(G, "D"))
    state = play(start(deal, trump="S"), "TD")
    assert legal_cards(state) == face_up(state, G)
    assert len(legal_cards(state)) == 10
    assert "5D" not in codes_in(state.view(G)) and "5D" in state.hidden_cards(G)


def test_w_09_reveal_timing() -> None:
    deal = build_deal(
        ups={F: {3: "QD"}, G: {0: "2D"}}, downs={F: {3: "8H"}}, avoid={(G, "up"): "D"}
    )
    state = play(start(deal, trump="S"), "QD")
    for seat in (None, G, F):
        assert state.view(seat)["layout"][F][3] == {"up": None, "down": True}
        assert "8H" not in codes_in(state.view(seat))
        assert "8H" in state.hidden_cards(seat)
    assert legal_cards(state) == {"2D"}
    state = play(state, "2D")
    assert state.last_trick == ((Play(F, "QD"), Play(G, "2D")), F)
    for seat in (None, G, F):
        assert state.view(seat)["layout"][F][3] == {"up": "8H", "down": False}
        assert "8H" not in state.hidden_cards(seat)
    assert state.to_act == F and "8H" in legal_cards(state)


def test_w_10_hand_unlocks_after_trick_1() -> None:
    deal = build_deal(
        ups={F: {0: "AS", 1: "AD"}, G: {0: "2S"}},
        hands={G: ["5D"]},
        avoid={(G, "up"): "SD", (G, "down"): "D", (G, "hand"): "D"},
    )
    state = start(deal, trump="H")
    state = play(state, "AS")
    assert state.view(G)["hand"] == [] and state.view(F)["hand"] == []
    state = play(state, "2S")
    for seat in (G, F):
        view = state.view(seat)
        assert view["hand_locked"] is False
        assert sorted(view["hand"]) == sorted(deal["hands"][seat])
        assert not set(deal["hands"][seat]) & state.hidden_cards(seat)
        assert set(deal["hands"][1 - seat]) <= state.hidden_cards(seat)
        assert not codes_in(view) & set(deal["hands"][1 - seat])
    assert set(deal["hands"][G]) | set(deal["hands"][F]) <= state.hidden_cards(None)
    state = play(state, "AD")
    assert state.legal_actions() == [{"type": "play", "card": "5D"}]


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [("KS", "2H", G), ("KS", "AD", F), ("9S", "JS", G)],
)
def test_w_11_trick_winner(lead: str, follow: str, winner: int) -> None:
    deal = build_deal(ups={F: {0: lead}, G: {0: follow}}, avoid={(G, "up"): "S"})
    state = play(start(deal, trump="H"), lead, follow)
    assert state.last_trick[1] == winner
    assert state.view(None)["last_trick"]["winner"] == winner
    assert state.tricks[winner] == 1


def test_w_12_winner_leads() -> None:
    deal = build_deal(ups={F: {0: "9S"}, G: {0: "JS"}})
    state = play(start(deal, trump="H"), "9S", "JS")
    assert state.last_trick[1] == G
    assert state.to_act == G and state.leader == G
    assert state.view(G)["legal"] == state.legal_actions() != []
    assert state.view(F)["legal"] == []


@pytest.mark.parametrize(("tricks", "points"), [((10, 16), (0, 3)), ((13, 13), (0, 0))])
def test_w_13_scoring(tricks: tuple[int, int], points: tuple[int, int]) -> None:
    assert hand_points(Options(), tricks, G, None) == points
    ended = play_to(start(build_deal(), trump="H"), tricks)
    assert ended.phase is Phase.HAND_OVER
    assert tuple(ended.scores) == points
    assert ended.view(None)["previous_hand"]["points"] == list(points)
    assert ended.view(None)["previous_hand"]["tricks"] == list(tricks)


def test_w_14_match_end() -> None:
    deal = build_deal(scores=(12, 11))  # G 12, F 11
    ended = play_to(start(deal, trump="H"), (11, 15))
    assert ended.phase is Phase.MATCH_OVER and ended.is_over
    assert ended.scores == [12, 13]
    assert ended.result == [F]
    assert ended.to_act is None


def test_w_15_dealer_alternation() -> None:
    state = GAME.new_match(None, "W-15")
    first_dealer = state.dealer
    assert state.to_act == 1 - first_dealer
    while state.hand_number == 1:
        state = state.apply(auto_action(state))
    assert state.hand_number == 2
    assert state.dealer == 1 - first_dealer
    assert state.view(None)["forehand"] == first_dealer == state.to_act
    assert state.view(None)["previous_hand"]["dealer"] == first_dealer
    assert state.view(None)["last_trick"] is not None  # survives the new deal
    assert state.view(None)["tricks"] == [0, 0]


@pytest.mark.parametrize(
    ("tricks", "points"),
    [((10, 16), (0, 3)), ((15, 11), (4, 0)), ((13, 13), (0, 0))],
)
def test_w_16_spel_made_failed(tricks: tuple[int, int], points: tuple[int, int]) -> None:
    state = GAME.from_deal(build_deal(), {"variant": "spel_pass"})
    state = state.apply({"type": "declare", "contract": "spel"})
    ended = play_to(state, tricks)
    assert tuple(ended.scores) == points
    assert ended.view(None)["previous_hand"]["contract"] == "spel"


@pytest.mark.parametrize(("tricks", "points"), [((16, 10), (0, 3)), ((8, 18), (5, 0))])
def test_w_17_pass(tricks: tuple[int, int], points: tuple[int, int]) -> None:
    state = GAME.from_deal(build_deal(), {"variant": "spel_pass"})
    state = state.apply({"type": "declare", "contract": "pass"})
    ended = play_to(state, tricks)
    assert tuple(ended.scores) == points


def test_w_18_variant_has_no_trump() -> None:
    deal = build_deal(ups={F: {0: "AC"}, G: {0: "2H"}}, avoid={(G, "up"): "C"})
    state = start(deal, variant="spel_pass")
    assert state.trump is None
    state = play(state, "AC")
    assert "2H" in legal_cards(state)
    state = play(state, "2H")
    assert state.last_trick[1] == F


def test_the_last_trick_stays_on_show_after_the_next_deal() -> None:
    """Its two codes are public; where the new deal put those cards is in no view."""
    state = GAME.new_match(None, "carry-over")
    while state.hand_number == 1:
        state = state.apply(auto_action(state))
    shown = {play["card"] for play in state.view(None)["last_trick"]["plays"]}
    assert len(shown) == 2
    for seat in (None, 0, 1):
        assert not shown & state.hidden_cards(seat)
        assert state.view(seat)["last_trick"] == state.view(None)["last_trick"]
    state = state.forfeit(state.to_act)
    assert "trump" not in state.view(None)  # never named in this deal
