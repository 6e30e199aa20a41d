"""The pure rating math (ladder/rating.py): openskill's numbers, places and the display scale."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.rules.classic_joker import final_ranking
from ladder.rating import NEW_SKILL, Skill, placements, rate


def test_a_new_player_starts_at_1500_on_the_display_scale():
    assert (NEW_SKILL.mu, NEW_SKILL.sigma) == (25.0, 25 / 3)
    assert NEW_SKILL.display == 1500


def test_the_winner_gains_and_the_loser_loses_exactly_what_openskill_gives():
    model = PlackettLuce()
    strong, weak = Skill(mu=31.0, sigma=4.0), Skill(mu=22.0, sigma=6.5)
    winner, loser = rate([weak, strong], [1, 2])  # the upset
    [[expected_winner], [expected_loser]] = model.rate(
        [[model.rating(mu=22.0, sigma=6.5)], [model.rating(mu=31.0, sigma=4.0)]], ranks=[1, 2]
    )
    assert (winner.mu, winner.sigma) == (expected_winner.mu, expected_winner.sigma)
    assert (loser.mu, loser.sigma) == (expected_loser.mu, expected_loser.sigma)
    assert winner.display > weak.display and loser.display < strong.display
    assert winner.display == round(20 * expected_winner.ordinal() + 1500)


def test_equal_places_share_the_result():
    first, second = rate([NEW_SKILL, NEW_SKILL], [1, 1])
    assert first == second
    assert first.mu == pytest.approx(25.0)


def test_four_players_ranked_by_place_move_in_that_order():
    after = rate([NEW_SKILL] * 4, [2, 4, 1, 3])
    by_place = sorted(range(4), key=[2, 4, 1, 3].__getitem__)
    deltas = [after[seat].display - 1500 for seat in by_place]
    assert deltas == sorted(deltas, reverse=True)
    assert deltas[0] > 0 > deltas[-1]


def test_a_match_needs_two_players_each_with_a_place():
    with pytest.raises(ValueError):
        rate([NEW_SKILL], [1])
    with pytest.raises(ValueError):
        rate([NEW_SKILL, NEW_SKILL], [1])


def test_the_two_player_winner_is_first_even_with_fewer_points_after_a_forfeit():
    assert placements(seats=2, winners=[1], forfeited=[0], scores=[15, 3]) == [2, 1]
    assert placements(seats=2, winners=[0], forfeited=[], scores=[21, 18]) == [1, 2]


def test_a_classic_seat_that_forfeited_is_last_whatever_its_score():
    assert placements(seats=4, winners=[2], forfeited=[0], scores=[900, 100, 300, 100]) == [
        4,
        2,
        1,
        2,
    ]


@given(
    data=st.data(),
    seats=st.sampled_from([2, 3, 4]),  # classic Joker at two, three or four seats (issue 30)
)
def test_classic_places_are_the_rules_engines_final_ranking(data, seats):
    scores = data.draw(st.lists(st.integers(-500, 800), min_size=seats, max_size=seats))
    forfeited = data.draw(st.sets(st.integers(0, seats - 1)))
    winners, places = final_ranking(scores, sorted(forfeited))
    assert placements(seats=seats, winners=winners, forfeited=forfeited, scores=scores) == places


def test_three_classic_players_ranked_by_place_move_in_that_order():
    """A free-for-all of three by placement, as of four (issue 30)."""
    before = [Skill(mu=25.0, sigma=8.333)] * 3
    first, second, third = rate(before, [1, 2, 3])
    assert first.mu > second.mu > third.mu
    assert abs(second.mu - 25.0) < abs(first.mu - 25.0)


def test_the_rating_math_imports_no_django():
    code = (
        "import sys, ladder.rating; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
