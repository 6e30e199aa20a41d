"""Friends: request, accept, decline, cancel, remove, and every bad input (issue 2, item 8)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounts import services
from accounts.models import FriendRequest, Friendship
from accounts.selectors import friends_of
from core.errors import ServiceError
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def _state() -> tuple[list, list]:
    requests = list(
        FriendRequest.objects.values_list(
            "from_player__name", "to_player__name", "status"
        ).order_by("pk")
    )
    friendships = list(
        Friendship.objects.values_list("player__name", "friend__name").order_by(
            "player__name", "friend__name"
        )
    )
    return requests, friendships


def test_request_then_accept_makes_friends_both_ways(alice, bob):
    client = client_for(alice)
    response = client.post("/friends/", {"username": "bob"}, follow=True)
    assert "Friend request sent to bob." in response.content.decode()
    request = FriendRequest.objects.get()
    assert (request.from_player, request.to_player, request.status) == (alice, bob, "pending")

    response = client_for(bob).post(f"/friends/requests/{request.pk}/accept/", follow=True)
    assert "You are now friends with alice." in response.content.decode()
    request.refresh_from_db()
    assert request.status == "accepted" and request.responded_at is not None
    assert list(friends_of(alice)) == [bob]
    assert list(friends_of(bob)) == [alice]


def test_decline_leaves_no_friendship_and_allows_a_new_request(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    client_for(bob).post(f"/friends/requests/{request.pk}/decline/")
    request.refresh_from_db()
    assert request.status == "declined"
    assert not Friendship.objects.exists()
    again = services.friend_request_send(sender=alice, username="bob")
    assert again.status == "pending"


def test_cancel_by_the_sender(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    client_for(alice).post(f"/friends/requests/{request.pk}/cancel/")
    request.refresh_from_db()
    assert request.status == "cancelled"


def test_remove_ends_the_friendship_on_both_sides(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    services.friend_request_accept(player=bob, request_id=request.pk)
    response = client_for(bob).post(f"/friends/{alice.pk}/remove/", follow=True)
    assert "Removed from your friends." in response.content.decode()
    assert not Friendship.objects.exists()


def test_asking_someone_who_already_asked_you_accepts_their_request(alice, bob):
    services.friend_request_send(sender=alice, username="bob")
    response = client_for(bob).post("/friends/", {"username": "alice"}, follow=True)
    assert "You and alice are now friends." in response.content.decode()
    assert list(friends_of(bob)) == [alice]


def test_friends_page_lists_friends_and_requests(alice, bob, carol, dave):
    services.friend_request_accept(
        player=bob, request_id=services.friend_request_send(sender=alice, username="bob").pk
    )
    services.friend_request_send(sender=carol, username="alice")
    services.friend_request_send(sender=alice, username="dave")
    page = client_for(alice).get("/friends/")
    assert page.status_code == 200
    assert [p.name for p in page.context["friends"]] == ["bob"]
    assert [r.from_player.name for r in page.context["incoming"]] == ["carol"]
    assert [r.to_player.name for r in page.context["outgoing"]] == ["dave"]


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("alice", "You cannot send a friend request to yourself."),
        ("ALICE", "You cannot send a friend request to yourself."),
        ("nobody", "There is no player called “nobody”."),
        ("", "This field is required."),
        ("x" * 151, "Ensure this value has at most 150 characters"),
    ],
)
def test_bad_friend_requests_get_a_clear_message_and_change_nothing(alice, username, message):
    before = _state()
    response = client_for(alice).post("/friends/", {"username": username})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _state() == before


def test_a_duplicate_request_is_refused(alice, bob):
    services.friend_request_send(sender=alice, username="bob")
    before = _state()
    response = client_for(alice).post("/friends/", {"username": "bob"})
    assert "You have already sent bob a friend request." in response.content.decode()
    assert _state() == before


def test_asking_a_friend_again_is_refused(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    services.friend_request_accept(player=bob, request_id=request.pk)
    before = _state()
    with pytest.raises(ServiceError, match=r"bob is already your friend\."):
        services.friend_request_send(sender=alice, username="bob")
    assert _state() == before


def test_a_guest_cannot_send_or_receive_requests(guest_client, guest, alice):
    page = guest_client.get("/friends/")
    assert "Guests cannot have friends" in page.content.decode()
    before = _state()
    guest_client.post("/friends/", {"username": "alice"})
    with pytest.raises(ServiceError, match="Guests cannot have friends"):
        services.friend_request_send(sender=guest, username="alice")
    # A guest's name is not a username, so nobody can find a guest to ask.
    with pytest.raises(ServiceError, match="There is no player called"):
        services.friend_request_send(sender=alice, username=guest.name)
    assert _state() == before


def test_only_the_receiver_may_accept_or_decline_and_only_the_sender_cancel(alice, bob, carol):
    request = services.friend_request_send(sender=alice, username="bob")
    before = _state()
    for who, action in [
        (alice, "accept"),
        (carol, "accept"),
        (alice, "decline"),
        (bob, "cancel"),
        (carol, "cancel"),
    ]:
        response = client_for(who).post(f"/friends/requests/{request.pk}/{action}/", follow=True)
        assert "That friend request is no longer open." in response.content.decode()
    assert _state() == before


def test_answering_a_closed_or_unknown_request_is_refused(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    services.friend_request_decline(player=bob, request_id=request.pk)
    before = _state()
    with pytest.raises(ServiceError, match="no longer open"):
        services.friend_request_accept(player=bob, request_id=request.pk)
    response = client_for(bob).post("/friends/requests/999999/accept/", follow=True)
    assert "no longer open" in response.content.decode()
    assert _state() == before


def test_removing_someone_who_is_not_a_friend_is_refused(alice, bob):
    response = client_for(alice).post(f"/friends/{bob.pk}/remove/", follow=True)
    assert "That player is not on your friends list." in response.content.decode()


def test_friend_actions_need_post(alice, bob):
    request = services.friend_request_send(sender=alice, username="bob")
    assert client_for(bob).get(f"/friends/requests/{request.pk}/accept/").status_code == 405
    request.refresh_from_db()
    assert request.status == "pending"


def test_visitors_are_sent_to_log_in(db, client):
    assert client.post("/friends/requests/1/accept/")["Location"].startswith("/accounts/login/")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_asking_each_other_at_once_end_up_friends_exactly_once(alice, bob):
    """Row locks on both players (in id order) decide crossing requests one at a time."""
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def ask(sender, username):
        try:
            barrier.wait()
            services.friend_request_send(sender=sender, username=username)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    for _ in range(5):
        Friendship.objects.all().delete()
        FriendRequest.objects.all().delete()
        threads = [
            threading.Thread(target=ask, args=(alice, "bob")),
            threading.Thread(target=ask, args=(bob, "alice")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert FriendRequest.objects.filter(status="pending").count() == 0
        assert FriendRequest.objects.filter(status="accepted").count() == 1
        assert Friendship.objects.count() == 2
