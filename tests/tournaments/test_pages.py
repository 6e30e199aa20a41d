"""The tournament pages (issue 29 § 3) as a person sees them: the list's three sections and its
game filter, a friends-only event hidden from strangers, an event's standings after results
counted through the real services, the buttons (join, leave, pause, resume) and their refusals,
and a player's profile listing a finished tournament with its prize."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import timezone

from accounts import services as account_services
from games.models import Seat, Table
from tests.support.ladder import committed, forfeit
from tests.support.pages import shown
from tests.support.players import client_for
from tournaments.models import Entrant, Tournament
from tournaments.services.creation import tournament_create
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start
from tournaments.services.ticks import tournaments_tick
from tournaments.templatetags.tournament_format import points

pytestmark = pytest.mark.django_db(transaction=True)

GAME, OTHER_GAME = "japanese_joker", "japanese_whist"


def event(name: str = "Evening arena", **fields) -> Tournament:
    """An upcoming public event, made as an admin makes one."""
    given = {
        "name": name,
        "game": GAME,
        "starts_at": timezone.now() + timedelta(hours=2),
        "duration_minutes": 30,
        **fields,
    }
    return tournament_create(**given)


def started(tournament: Tournament, players) -> Tournament:
    for player in players:
        tournament_join(player=player, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    assert committed(tournament_start, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def live_tables(tournament: Tournament) -> list[Table]:
    return [link.table for link in tournament.tables.select_related("table").filter(counted=False)]


def lose(table: Table, loser_id: int) -> None:
    """The loser walks out after a move each: the other wins, and the table is counted."""
    forfeit(table, Seat.objects.get(table=table, player_id=loser_id).player)


def won_by(tournament: Tournament, winner, loser) -> Tournament:
    """A two-player arena that ``winner`` won: one match, then the time is up."""
    started(tournament, [winner, loser])
    (table,) = live_tables(tournament)
    # The time is up while the match is played (two alone would be paired again at once).
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    lose(table, loser.pk)
    tournaments_tick()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def section(html: str, name: str) -> str:
    """One section of the list page, by its heading's id."""
    found = re.search(rf'aria-labelledby="{name}-heading">(.*?)</section>', html, re.S)
    assert found, name
    return found.group(1)


def page_of(client: Client, tournament: Tournament) -> str:
    response = client.get(f"/tournaments/{tournament.pk}/")
    assert response.status_code == 200
    return shown(response.content.decode())


def row_of(html: str, name: str) -> str:
    found = re.search(rf'<tr[^>]*data-player="{name}"[^>]*>(.*?)</tr>', html, re.S)
    assert found, name
    return re.sub(r"\s+", " ", found.group(1))


def befriend(first, second) -> None:
    request = account_services.friend_request_send(sender=first, username=second.name)
    account_services.friend_request_accept(player=second, request_id=request.pk)


# --- The list -------------------------------------------------------------------------------------


def test_the_list_shows_upcoming_running_and_finished_events(alice, bob, carol, dave):
    event("Sunday cup", entry_fee=50)
    started(event("Live arena"), [carol, dave])
    won_by(event("Last night"), alice, bob)
    html = shown(Client().get("/tournaments/").content.decode())

    upcoming = section(html, "upcoming")
    assert "Sunday cup" in upcoming and "Live arena" not in upcoming
    assert re.search(r'<time datetime="[^"]+" data-countdown', upcoming)  # counted down by JS
    assert "Starts in" in upcoming and "◎ 50" in upcoming
    running = section(html, "running")
    assert "Live arena" in running and "2 players" in running
    assert "No result yet" in running and "Time left" in running
    finished = section(html, "finished")
    assert "Last night" in finished and "Winner:" in finished and "alice" in finished
    assert 'type="module" src="/static/js/tournaments.js"' in html
    assert 'href="/tournaments/"' in html  # the main navigation's link


def test_the_running_list_names_the_leader(alice, bob, carol, dave):
    tournament = started(event("Live arena"), [alice, bob, carol, dave])
    (table,) = [t for t in live_tables(tournament) if Seat.objects.filter(table=t, player=alice)]
    seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    lose(table, (seated - {alice.pk}).pop())  # the other table plays on
    running = section(Client().get("/tournaments/").content.decode(), "running")
    assert "Leader:" in running and ">alice</span>" in running


def test_the_list_filters_by_game_and_ignores_a_game_it_does_not_know(alice):
    event("Joker night")
    event("Whist night", game=OTHER_GAME)
    client = Client()
    html = client.get(f"/tournaments/?game={OTHER_GAME}").content.decode()
    assert "Whist night" in html and "Joker night" not in html
    assert f'href="/tournaments/?game={OTHER_GAME}" aria-current="page"' in html
    response = client.get("/tournaments/?game=poker")  # an old link: the whole list
    assert response.status_code == 200
    assert "Whist night" in response.content.decode() and "Joker night" in response.content.decode()


def test_a_friends_only_event_is_hidden_from_strangers(alice, bob, eve):
    befriend(alice, bob)
    private = tournament_create(
        name="Friends evening",
        game=GAME,
        starts_at=timezone.now() + timedelta(hours=1),
        duration_minutes=30,
        creator=alice,
        access=Tournament.Access.FRIENDS,
    )
    for viewer in (alice, bob):
        client = client_for(viewer)
        assert "Friends evening" in client.get("/tournaments/").content.decode()
        assert client.get(f"/tournaments/{private.pk}/").status_code == 200
    for client in (client_for(eve), Client()):
        assert "Friends evening" not in client.get("/tournaments/").content.decode()
        assert client.get(f"/tournaments/{private.pk}/").status_code == 404
        assert client.post(f"/tournaments/{private.pk}/join/").status_code == 404
    assert not Entrant.objects.filter(player=eve).exists()


def test_a_password_event_is_listed_to_all_and_entered_with_its_password(alice, bob):
    locked = tournament_create(
        name="Club night",
        game=GAME,
        starts_at=timezone.now() + timedelta(hours=1),
        duration_minutes=30,
        creator=alice,
        access=Tournament.Access.PASSWORD,
        password="secret",
    )
    client = client_for(bob)
    assert "Club night" in client.get("/tournaments/").content.decode()
    html = page_of(client, locked)
    assert 'type="password" name="password"' in html
    refused = client.post(f"/tournaments/{locked.pk}/join/", {"password": "guess"}, follow=True)
    assert "Wrong tournament password." in refused.content.decode()
    assert not Entrant.objects.filter(player=bob).exists()
    client.post(f"/tournaments/{locked.pk}/join/", {"password": "secret"})
    assert Entrant.objects.filter(player=bob, tournament=locked).exists()


# --- An event's page ------------------------------------------------------------------------------


def test_an_unknown_tournament_is_not_found(alice):
    client = client_for(alice)
    assert client.get("/tournaments/999999/").status_code == 404
    assert client.post("/tournaments/999999/join/").status_code == 404


def test_the_arena_page_shows_standings_results_fire_and_the_tables_to_watch(
    alice, bob, carol, dave
):
    tournament = started(event("Fire arena", entry_fee=100), [alice, bob, carol, dave])
    for _round in range(3):  # alice wins three in a row: the third counts double
        for table in live_tables(tournament):
            seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
            lose(table, max(seated - {alice.pk}) if alice.pk in seated else max(seated))
    html = page_of(Client(), tournament)
    names = re.findall(r'<tr[^>]*data-player="([^"]+)"', html)
    assert names[0] == "alice" and sorted(names) == ["alice", "bob", "carol", "dave"]
    first = row_of(html, "alice")
    assert '<td class="num score">8</td>' in first
    marks = re.search(r'<td class="marks">(.*?)</td>', first).group(1)
    assert re.sub(r"<[^>]+>", "", marks).startswith("2 2 4 (doubled)")  # 🔥 doubles the third
    assert '<span class="mark doubled">4' in marks
    assert '<span class="fire-mark" aria-hidden="true">×2</span>' in first
    assert '<span class="visually-hidden">on fire</span>' in first
    assert 'href="/players/alice/"' in first
    # The tables still being played, each with a link to watch it.
    watch = [f'href="/tables/{table.pk}/"' for table in live_tables(tournament)]
    assert watch and all(link in html for link in watch)
    # The rules and the pool: four players' fees, paid 50/30/20 were it to end now.
    assert 'id="prize-pool">◎ 400' in html
    assert re.search(r"<td>1</td><td class=\"num\">◎ 200</td>", html)
    assert "Performance" in html and "Streaks" in html


def test_a_finished_event_shows_the_podium_and_each_prize_paid(alice, bob):
    tournament = won_by(event("Final", entry_fee=100), alice, bob)
    html = page_of(Client(), tournament)
    podium = re.search(r'<ol class="podium" id="podium">(.*?)</ol>', html, re.S).group(1)
    # Two players share the pool of two fees by the first two shares, 50:30.
    assert 'class="medal place-1"' in podium and "alice" in podium and "◎ 125" in podium
    assert 'class="medal place-2"' in podium and "bob" in podium and "◎ 75" in podium
    assert not re.search("[🥇🥈🥉🏅🔥]", html), "an emoji is an empty box where no emoji font is"
    assert "Place 1: alice, ◎ 125" in html and "Place 2: bob, ◎ 75" in html
    assert 'id="join-form"' not in html


def test_the_swiss_page_shows_rounds_results_and_a_bye(alice, bob, carol):
    tournament = started(
        event("Swiss cup", format=Tournament.Format.SWISS, rounds=2, duration_minutes=None),
        [alice, bob, carol],
    )
    html = page_of(Client(), tournament)
    assert "Round 1 of 2" in html and "Buchholz" in html
    (table,) = live_tables(tournament)
    seated = sorted(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    sitting_out = Entrant.objects.get(tournament=tournament, had_bye=True).player
    assert '<span class="visually-hidden">playing</span>' in html
    lose(table, seated[1])
    html = page_of(Client(), tournament)
    assert '<span class="mark bye">bye</span>' in row_of(html, sitting_out.name)
    winner = Entrant.objects.get(player_id=seated[0]).player
    assert '<span class="visually-hidden">won</span>' in row_of(html, winner.name)
    assert '<td class="num score">1</td>' in row_of(html, winner.name)


def test_half_points_are_written_as_a_person_writes_them():
    assert [points(v) for v in (4, Fraction(5, 2), Fraction(1, 2), Fraction(5, 4), None)] == [
        "4",
        "2½",
        "½",
        "1¼",
        "—",
    ]


# --- The buttons ----------------------------------------------------------------------------------


def test_join_pause_resume_and_leave_change_the_entry(alice, bob):
    tournament = event("Button arena")
    client = client_for(alice)
    html = page_of(client, tournament)
    assert 'id="join-form"' in html and "Play as guest" not in html
    answer = client.post(f"/tournaments/{tournament.pk}/join/", follow=True)
    assert "You are in the tournament." in answer.content.decode()
    started(tournament, [bob])
    assert f'action="/tournaments/{tournament.pk}/pause/"' in page_of(client, tournament)
    client.post(f"/tournaments/{tournament.pk}/pause/")
    assert Entrant.objects.get(player=alice).paused
    html = page_of(client, tournament)
    assert "paused: you will not be paired until you resume" in html
    client.post(f"/tournaments/{tournament.pk}/resume/")
    assert not Entrant.objects.get(player=alice).paused
    answer = client.post(f"/tournaments/{tournament.pk}/leave/", follow=True)
    assert "You left the tournament." in answer.content.decode()
    assert Entrant.objects.get(player=alice).withdrawn
    assert client.get(f"/tournaments/{tournament.pk}/leave/").status_code == 405


def test_a_refused_join_shows_its_message(guest_client, guest):
    rated = event("Rated arena")
    html = page_of(guest_client, rated)
    assert "Guests play in free casual tournaments only." in html and 'id="join-form"' not in html
    answer = guest_client.post(f"/tournaments/{rated.pk}/join/", follow=True)
    assert "Guests play in free casual tournaments only. Sign up to enter this one." in (
        answer.content.decode()
    )
    assert not Entrant.objects.filter(player=guest).exists()


def test_a_visitor_is_told_how_to_enter():
    casual = event("Open arena", rated=False)
    client = Client()
    html = page_of(client, casual)
    assert "To enter, play as a guest or log in." in html and 'action="/guest/"' in html
    answer = client.post(f"/tournaments/{casual.pk}/join/", follow=True)
    assert "Play as a guest or log in first." in answer.content.decode()
    assert not Entrant.objects.exists()
    assert "To enter, log in or sign up." in page_of(client, event("Rated arena"))


def test_a_post_without_its_csrf_token_is_refused(alice):
    tournament = event()
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    assert client.post(f"/tournaments/{tournament.pk}/join/").status_code == 403
    assert not Entrant.objects.exists()


# --- The profile ----------------------------------------------------------------------------------


def test_the_profile_lists_a_finished_tournament_with_its_prize_and_trophy(alice, bob):
    tournament = won_by(event("Spring final", entry_fee=100), alice, bob)
    html = shown(Client().get("/players/alice/").content.decode())
    listed = re.search(rf'<tr data-tournament="{tournament.pk}">(.*?)</tr>', html, re.S).group(1)
    assert "Spring final" in listed and '<td class="num">1</td>' in listed
    assert "◎ 125" in listed
    assert 'id="trophies-heading"' in html and 'class="medal place-1"' in html
    assert not re.search("[🥇🥈🥉🏅🔥]", html)
    runner_up = shown(Client().get("/players/bob/").content.decode())
    assert "Spring final" in runner_up and "◎ 75" in runner_up
