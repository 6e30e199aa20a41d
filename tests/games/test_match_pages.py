"""The match page, its replay data, the lists at /matches/ and the links to them."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from accounts.services.friends import friend_remove, friend_request_accept, friend_request_send
from games.models import Match
from ladder.services import match_rate
from tests.support.matches import play_out, start
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob) -> Match:
    return play_out(start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(5))


def test_the_match_page_shows_players_result_scores_by_hand_seed_and_the_replay(finished, eve):
    match_rate(match_id=finished.pk)
    page = client_for(eve).get(f"/matches/{finished.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Japanese Joker" in html and "Points to play to: 11" in html and "Free table" in html
    assert 'href="/players/alice/"' in html and 'href="/players/bob/"' in html
    winner = finished.result["winners"][0]
    row = re.search(rf'<tr data-seat="{winner}">(.*?)</tr>', html, re.S).group(1)
    assert (
        "<strong>won</strong>" in row
        and f'<td class="num">{finished.result["scores"][winner]}' in row
    )
    assert "The match was played to the end." in html
    hands = re.findall(r'<tr data-hand="(\d+)">', html)
    assert hands == [str(n) for n in range(1, finished.state["hand_number"] + 1)]
    assert finished.seed in html and finished.seed_hash in html
    assert f'data-steps="{finished.version + 1}"' in html and 'data-step="0"' in html
    assert f'href="/matches/{finished.pk}/export/"' in html
    # The ladder's panel: a rated match shows what it did to both ratings.
    assert 'data-rating-status="rated"' in html
    assert len(re.findall(r'<tr data-rating-seat="\d">', html)) == 2


def test_a_step_in_the_address_opens_the_replay_there_within_the_match(finished, eve):
    client = client_for(eve)
    last = finished.version
    for asked, shown in (("5", 5), ("-3", 0), ("x", 0), ("99999", last)):
        html = client.get(f"/matches/{finished.pk}/?step={asked}").content.decode()
        assert f'data-step="{shown}"' in html, asked


def test_the_replay_data_has_every_step_with_every_card_face_up(finished):
    data = Client().get(f"/matches/{finished.pk}/replay/").json()
    steps = data["steps"]
    assert data["names"] == ["alice", "bob"]
    assert len(steps) == finished.version + 1 and steps[0]["event"] is None
    assert [s["version"] for s in steps] == list(range(finished.version + 1))
    first = steps[0]["view"]
    assert len(first["hands"][0]) == 3 and len(first["hands"][1]) == 3  # JJ-5, before trumps
    assert [len(cards) for cards in first["pending"]] == [15, 15]  # and the rest, to come
    after_trump = steps[1]["view"]
    downs = [c["down"] for columns in after_trump["columns"] for c in columns]
    assert len(downs) == 10 and all(downs)  # the face-down column cards, shown after the end
    tricks_done = sum(s["trick_done"] for s in steps)
    assert (
        tricks_done == 18 * finished.state["hand_number"] or finished.result["reason"] != "finished"
    )


def test_a_running_match_leads_to_the_table_and_has_no_replay_or_export(alice, bob):
    running = play_out(start("japanese_joker", [alice, bob]), random.Random(1), stop_after=6)
    client = client_for(alice)
    response = client.get(f"/matches/{running.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/tables/{running.table_id}/"
    assert client.get(f"/matches/{running.pk}/replay/").status_code == 404
    assert client.get(f"/matches/{running.pk}/export/").status_code == 404
    assert f'data-match="{running.pk}"' not in client.get("/matches/").content.decode()


def _befriend(first, second) -> None:
    friend_request_accept(
        player=second, request_id=friend_request_send(sender=first, username=second.name).pk
    )


def test_a_friends_only_match_is_shown_only_to_who_could_see_its_table(alice, bob, carol, eve):
    _befriend(alice, carol)
    _befriend(alice, bob)
    table = start("japanese_joker", [alice, bob], options={"points": 11}, visibility="friends")
    match = play_out(table, random.Random(4))
    friend_remove(player=alice, friend_id=bob.pk)  # bob still sat at the table
    for who in (None, eve):
        client = Client() if who is None else client_for(who)
        for suffix in ("", "replay/", "export/"):
            assert client.get(f"/matches/{match.pk}/{suffix}").status_code == 404, (who, suffix)
        assert f'data-match="{match.pk}"' not in client.get("/matches/").content.decode()
        listed = client.get("/matches/?player=alice").content.decode()
        assert f'data-match="{match.pk}"' not in listed
    for who in (alice, bob, carol):  # the creator, a seat, the creator's friend
        client = client_for(who)
        assert client.get(f"/matches/{match.pk}/").status_code == 200
        assert f'data-match="{match.pk}"' in client.get("/matches/?player=bob").content.decode()


def test_a_players_history_filters_by_game_and_result_and_pages(alice, bob, carol, settings):
    settings.MATCHES_PAGE_SIZE = 2
    jj = [
        play_out(start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(n))
        for n in range(3)
    ]
    jw = play_out(start("japanese_whist", [alice, carol], options={"points": 5}), random.Random(9))
    client = Client()

    def listed(query: str) -> set[int]:
        html = client.get(f"/matches/?{query}").content.decode()
        return {int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', html)}

    everything = listed("player=alice") | listed("player=alice&page=2")
    assert everything == {m.pk for m in [*jj, jw]}
    assert len(listed("player=alice")) == 2
    assert listed("player=alice&game=japanese_whist") == {jw.pk}
    won = {m.pk for m in [*jj, jw] if 0 in m.result["winners"]}
    lost = {m.pk for m in [*jj, jw]} - won
    assert listed("player=alice&result=won") | listed("player=alice&result=won&page=2") == won
    assert listed("player=alice&result=lost") | listed("player=alice&result=lost&page=2") == lost
    assert listed("player=carol") == {jw.pk}
    assert client.get("/matches/?player=nobody-at-all").status_code == 404
    assert listed("game=nonsense") >= {jw.pk}  # an unknown filter value is no filter
    assert listed("player=carol&result=maybe") == {jw.pk}  # and leaves the others on


def test_recent_matches_per_game_and_the_profile_link_to_match_pages(finished, alice):
    html = Client().get("/matches/").content.decode()
    section = html.split('id="recent-japanese_joker"')[1].split("</section>")[0]
    assert f'<a href="/matches/{finished.pk}/">' in section
    profile = Client().get("/players/alice/").content.decode()
    assert f'href="/matches/{finished.pk}/"' in profile
    assert 'href="/matches/?player=alice"' in profile


@pytest.mark.slow
def test_a_classic_match_page_shows_the_score_sheet_with_its_marks(alice, bob, carol, dave):
    table = start("classic_joker", [alice, bob, carol, dave], options={"pulkas": "nines"})
    match = play_out(table, random.Random(21))
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    assert len(re.findall(r'<tr data-deal="\d+">', html)) == 16
    assert len(re.findall(r'<tbody data-pulka="\d">', html)) == 4
    sheet = match.state["history"]
    assert sheet  # every deal's bids and tricks, as the engine's score sheet shows them
    marks = set(re.findall(r"sheet-cell mark-(\w+)", html))
    assert marks <= {"doubled", "cancelled", "khishti"}
    assert "khishti" in marks  # random bids that take nothing, in 16 deals


def test_the_table_page_shows_the_seed_commitment_and_links_the_ended_match(
    alice, bob, carol, dave
):
    running = play_out(start("japanese_joker", [carol, dave]), random.Random(1), stop_after=3)
    client = client_for(alice)
    html = client.get(f"/tables/{running.table_id}/").content.decode()
    assert running.seed_hash in html and running.seed not in html
    assert re.search(r'<p id="match-record-link" hidden>', html)
    ended = play_out(
        start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(8)
    )
    html = client.get(f"/tables/{ended.table_id}/").content.decode()
    assert f'<p id="match-record-link"><a href="/matches/{ended.pk}/">' in html


# Words that stay as they are in every language: key names, formats, the command line.
UNTRANSLATED = {"SHA", "JSON", "README", "JavaScript", "Shift", "Page", "Up", "Down", "Home", "End"}
UNTRANSLATED |= {"HMAC"}  # a name, like SHA-256 (the match's entropy)
UNTRANSLATED |= {"python", "manage", "py", "verify_match", "file", "match", "json"}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_match_pages_are_translated(alice, bob, carol, dave, language, settings):
    jj = play_out(start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(5))
    cj = play_out(
        start("classic_joker", [alice, bob, carol, dave], options={"pulkas": "nines"}),
        random.Random(3),
    )
    client = client_for(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    paths = (f"/matches/{jj.pk}/", f"/matches/{cj.pk}/", "/matches/", "/matches/?player=alice")
    for path in paths:
        html = client.get(path).content.decode()
        main = html.split('<main id="main" class="page">', 1)[1].split("</main>", 1)[0]
        text = re.sub(r"<code[^>]*>.*?</code>", " ", main, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        words = set(re.findall(r"[A-Za-z_]{2,}", text)) - {"alice", "bob", "carol", "dave"}
        assert words - UNTRANSLATED == set(), (path, words - UNTRANSLATED)


def test_a_profile_lists_a_friends_only_match_only_to_who_could_see_its_table(alice, bob, eve):
    _befriend(alice, bob)
    table = start("japanese_joker", [alice, bob], options={"points": 11}, visibility="friends")
    match = play_out(table, random.Random(4))
    row = f'<tr data-match="{match.pk}">'
    assert row in client_for(bob).get("/players/alice/").content.decode()
    assert row not in client_for(eve).get("/players/alice/").content.decode()
    assert row not in Client().get("/players/alice/").content.decode()


def test_the_replay_data_is_sent_compressed_to_a_browser_that_takes_gzip(finished):
    import gzip
    import json

    response = Client().get(f"/matches/{finished.pk}/replay/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    body = gzip.decompress(response.content)
    assert len(response.content) * 4 < len(body)
    assert len(json.loads(body)["steps"]) == finished.version + 1


def test_a_cancelled_match_has_its_page_and_is_listed_as_cancelled(alice, bob):
    from games.services.matches import match_cancel

    running = play_out(start("japanese_whist", [alice, bob]), random.Random(3), stop_after=0)
    assert match_cancel(match_id=running.pk)
    html = Client().get(f"/matches/{running.pk}/").content.decode()
    assert "An admin cancelled this match; every stake was refunded." in html
    assert 'data-steps="2"' in html  # the deal, then the cancel
    listed = Client().get("/matches/?player=alice&result=aborted").content.decode()
    assert f'<tr data-match="{running.pk}">' in listed
    assert (
        f'<tr data-match="{running.pk}">'
        not in Client().get("/matches/?player=alice&result=lost").content.decode()
    )
