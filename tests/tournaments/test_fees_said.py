"""Issue 41 § 2: a player who could not pay an event's fee was offered its Join button and then
told "levan has 900 coins, 1000 needed", of themselves in the third person; an organiser could
make an event whose fee they could not pay themselves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import CoinAccount
from core.errors import ServiceError
from tests.support.pages import shown
from tests.support.players import client_for
from tournaments.models import Entrant, Tournament
from tournaments.services.creation import tournament_create
from tournaments.services.entries import tournament_join

pytestmark = pytest.mark.django_db


def _spend_down_to(player, balance: int) -> None:
    CoinAccount.objects.filter(player=player).update(balance=balance)


def _cup(fee: int) -> Tournament:
    return tournament_create(
        name="Coin cup",
        game="japanese_joker",
        starts_at=timezone.now() + timedelta(hours=1),
        duration_minutes=30,
        entry_fee=fee,
    )


def test_a_player_who_cannot_pay_is_told_so_in_their_own_words(alice):
    cup = _cup(1000)
    _spend_down_to(alice, 900)
    with pytest.raises(ServiceError) as refused:
        tournament_join(player=alice, tournament_id=cup.pk)
    assert refused.value.code == "insufficient_coins"
    assert str(refused.value) == "The entry fee is 1000 coins and you have 900."
    assert not Entrant.objects.exists()


def test_the_pages_offer_no_join_a_player_cannot_pay(alice, bob):
    cup = _cup(1000)
    _spend_down_to(alice, 900)
    page = client_for(alice).get(f"/tournaments/{cup.pk}/").content.decode()
    assert 'id="join-form"' not in page
    assert "The entry fee is ◎ 1000 and you have ◎ 900." in shown(page)
    listing = client_for(alice).get("/tournaments/").content.decode()
    assert f'action="/tournaments/{cup.pk}/join/"' not in listing
    # One who can pay is offered both.
    assert 'id="join-form"' in client_for(bob).get(f"/tournaments/{cup.pk}/").content.decode()
    assert f'action="/tournaments/{cup.pk}/join/"' in (
        client_for(bob).get("/tournaments/").content.decode()
    )


def test_an_organiser_cannot_ask_a_fee_they_could_not_pay(alice):
    _spend_down_to(alice, 90)
    with pytest.raises(ServiceError) as refused:
        tournament_create(
            name="Too dear",
            game="japanese_joker",
            starts_at=timezone.now() + timedelta(hours=1),
            duration_minutes=30,
            entry_fee=100,
            access=Tournament.Access.PASSWORD,
            password="cup-cup",
            creator=alice,
        )
    assert refused.value.code == "fee_over_balance"
    assert "more than your 90 coins" in str(refused.value)
    assert not Tournament.objects.exists()
