"""The match factory starts where a test asks (tests/factories.py)."""

from __future__ import annotations

import pytest

from games.models import Match
from games.rules import get_game
from tests.factories import match_at

pytestmark = pytest.mark.django_db

HANDS = [["7D", "8C"], ["8D", "9C"], ["AD", "TC"], ["9D", "JC"]]
DEAL = {"dealer": 3, "deal": 2, "hands": HANDS, "trump_card": "6H", "scores": [0, 0, 0, 0]}


def test_a_match_from_a_deal_deals_those_hands_and_keeps_its_own_seed(alice, bob, carol, dave):
    match = match_at("classic_joker", [alice, bob, carol, dave], deal=DEAL)
    stored = Match.objects.get(pk=match.pk)
    state = get_game("classic_joker").from_dict(stored.state)
    assert [sorted(state.view(seat)["hand"]) for seat in range(4)] == [sorted(h) for h in HANDS]
    assert stored.state["seed"] != DEAL.get("seed") and stored.version == 1


def test_a_match_a_few_moves_in_has_those_moves_behind_it(alice, bob, carol, dave):
    start = match_at("japanese_whist", [alice, bob])
    moved = match_at("japanese_whist", [carol, dave], moves=3, seed=7)
    engine = get_game("japanese_whist")
    assert start.version == 0 and moved.version == 1
    assert engine.from_dict(moved.state).to_dict() == moved.state
    assert moved.state != engine.new_match(moved.options, moved.state["seed"]).to_dict()
