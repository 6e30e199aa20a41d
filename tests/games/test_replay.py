"""games/replay.py: a whole match rebuilt from its seed and events is the stored match, and
verify_match says OK on a real match and exactly what differs on a tampered one."""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import history, replay
from games.models import Match, MatchEvent
from games.services.matches import match_cancel
from tests.support.matches import play_out, start
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

GAMES = [
    ("japanese_joker", 2, {"points": 11}),
    ("japanese_whist", 2, {"points": 5}),
    ("japanese_whist", 2, {"variant": "spel_pass", "points": 5}),
    ("classic_joker", 4, {}),
    ("classic_joker", 3, {"seats": 3, "pulkas": "short"}),
    ("classic_joker", 2, {"seats": 2, "pulkas": "short", "khishti": 0}),
]


@pytest.fixture
def people(alice, bob, carol, dave):
    return [alice, bob, carol, dave]


def verify(*args: object, **options: object) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_match", *args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "seats", "options"), GAMES, ids=[f"{g[0]}{g[1]}{g[2]}" for g in GAMES]
)
def test_a_whole_random_match_replays_to_the_stored_state_and_result(people, game, seats, options):
    table = start(game, people[:seats], options=options)
    match = play_out(table, random.Random(7), timeouts=3)
    assert match.status == Match.Status.FINISHED
    events = history.match_events(match)
    steps = history.match_steps(match, events)
    assert len(steps) == match.version + 1
    assert steps[-1].state.to_dict() == match.state
    assert replay.derived_result(steps[-1].state, events) == ("finished", match.result)
    assert {e.kind for e in events} >= {"act", "timeout"}
    out, _ = verify(match.pk)
    assert out.startswith("OK: match")


@pytest.mark.slow
def test_a_classic_match_with_a_forfeit_and_a_computer_replays_and_verifies(people):
    table = start("classic_joker", people, options={"pulkas": "nines"})
    match = play_out(table, random.Random(11), forfeit=(30, 2))
    kinds = set(MatchEvent.objects.filter(match=match).values_list("kind", flat=True))
    assert kinds >= {"act", "forfeit", "bot"}
    assert match.result["forfeited"] == [2]
    steps = history.match_steps(match, history.match_events(match))
    assert steps[-1].state.to_dict() == match.state
    assert verify(match.pk)[0].startswith("OK")


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 2])
def test_a_small_classic_table_replays_without_its_undealt_cards_and_its_export_verifies(
    people, seats, tmp_path
):
    """CJ-29: the cards nobody is dealt at 2 or 3 seats are on no replay step (the seed gives
    them); the export, made only after the match, lists each deal as the seed made it, its
    cards out of play included (the rule's decision, issue 41: the rule said no export showed
    them), and a swap between a hand and the cards out of play is named."""
    table = start("classic_joker", people[:seats], options={"seats": seats, "pulkas": "short"})
    match = play_out(table, random.Random(seats))
    assert match.status == Match.Status.FINISHED and len(match.result["scores"]) == seats
    steps = history.match_steps(match, history.match_events(match))
    shown = replay.replay_steps(steps)
    for step, replayed in zip(steps, shown, strict=True):
        undealt = step.state.to_dict()["undealt"]
        assert len(undealt) == 36 - 9 * seats
        # (the last trick shown at a deal's start is the previous deal's, whose cards they were)
        view = json.dumps({k: v for k, v in replayed["view"].items() if k != "last_trick"})
        assert not [card for card in undealt if f'"{card}"' in view], replayed["step"]
    assert len(shown[0]["view"]["hands"]) == seats
    dealt = {start.state.hand_number: start.state.to_dict() for start in replay.hand_starts(steps)}

    response = client_for(people[0]).get(f"/matches/{match.pk}/export/")
    record = json.loads(response.content)
    assert len(record["players"]) == seats and record["options"]["seats"] == seats
    assert len(record["deals"]) == 8  # the short format: two pulkas of four nines
    for deal in record["deals"]:
        assert len(deal["cards"]["hands"]) == seats
        assert deal["cards"]["undealt"] == dealt[deal["hand"]]["undealt"]
    path = tmp_path / "match.json"
    path.write_bytes(response.content)
    assert verify(file=str(path))[0].startswith(f"OK: {path}")
    cards = record["deals"][0]["cards"]
    cards["hands"][0][0], cards["undealt"][0] = cards["undealt"][0], cards["hands"][0][0]
    path.write_text(json.dumps(record))
    _, err = _verify_failure(file=str(path))
    assert "DIFFERS: deal of hand 1: hands, undealt differ from what the seed gives" in err


def test_a_two_seat_forfeit_and_an_admin_cancel_verify(people):
    left = play_out(start("japanese_joker", people[:2]), random.Random(2), forfeit=(9, 1))
    assert left.result["reason"] == "forfeit"
    assert verify(left.pk)[0].startswith("OK")
    table = start("japanese_whist", people[2:])
    running = play_out(table, random.Random(3), stop_after=12)
    assert match_cancel(match_id=running.pk)
    assert verify(running.pk)[0].startswith("OK")


@pytest.fixture
def finished(people) -> Match:
    return play_out(start("japanese_joker", people[:2], options={"points": 11}), random.Random(5))


def test_verify_match_fails_clearly_on_a_tampered_event(finished):
    event = MatchEvent.objects.filter(match=finished, kind="act").order_by("version")[3]
    legal = history.match_steps(finished, history.match_events(finished))[3].state.legal_actions()
    other = next(action for action in legal if action != event.action)
    MatchEvent.objects.filter(pk=event.pk).update(action=other)
    with pytest.raises(CommandError, match="difference"):
        verify(finished.pk)
    # Playing another legal card there makes a later event illegal, or the end differ.
    _, err = _verify_failure(finished.pk)
    assert "DIFFERS:" in err
    assert "event" in err or "stored state" in err or "result" in err


def _verify_failure(*args, **options) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError):
        call_command("verify_match", *args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def test_verify_match_fails_clearly_on_a_tampered_seed(finished):
    Match.objects.filter(pk=finished.pk).update(seed="0" * 64)
    _, err = _verify_failure(finished.pk)
    assert "DIFFERS: seed_hash: SHA-256 of the seed is" in err
    assert f"commits to {finished.seed_hash}" in err


def test_verify_match_fails_clearly_on_a_tampered_result(finished):
    result = dict(finished.result)
    result["winners"] = [1 - result["winners"][0]]
    Match.objects.filter(pk=finished.pk).update(result=result)
    _, err = _verify_failure(finished.pk)
    assert (
        f"DIFFERS: result.winners: the replay gives {finished.result['winners']}, "
        f"the record says {result['winners']}"
    ) in err
    assert err.count("DIFFERS") == 1


def test_verify_match_refuses_a_running_match_and_an_unknown_one(people):
    running = play_out(start("japanese_joker", people[:2]), random.Random(1), stop_after=4)
    with pytest.raises(CommandError, match="still being played"):
        verify(running.pk)
    with pytest.raises(CommandError, match="no match 999999"):
        verify(999999)


def test_export_then_verify_match_file_round_trip(finished, alice, tmp_path):
    response = client_for(alice).get(f"/matches/{finished.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="match-{finished.pk}.json"'
    record = json.loads(response.content)
    assert record["seed"] == finished.seed and record["result"] == finished.result
    assert [p["name"] for p in record["players"]] == ["alice", "bob"]
    path = tmp_path / "match.json"
    path.write_bytes(response.content)
    out, _ = verify(file=str(path))
    assert out.startswith(f"OK: {path}")

    # The file checked offline: a changed deal, event or seed is named. The last deal, as the
    # seed of the match decides how many hands it took (one, sometimes, to 11 points).
    deal = json.loads(response.content)
    hands = deal["deals"][-1]["cards"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    path.write_text(json.dumps(deal))
    _, err = _verify_failure(file=str(path))
    last = len(deal["deals"])
    assert f"DIFFERS: deal of hand {last}: hands differ from what the seed gives" in err

    seed = json.loads(response.content)
    seed["seed"] = seed["seed"][::-1]
    path.write_text(json.dumps(seed))
    _, err = _verify_failure(file=str(path))
    assert "DIFFERS: seed_hash" in err

    event = json.loads(response.content)
    event["events"][0]["action"] = {"type": "play", "card": "ZZ"}
    path.write_text(json.dumps(event))
    _, err = _verify_failure(file=str(path))
    assert "DIFFERS: replay: event 1 (act by seat" in err and "does not apply" in err


def test_verify_match_file_says_what_is_wrong_with_a_file_that_is_not_an_export(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    with pytest.raises(CommandError, match="does not hold a JSON object"):
        verify(file=str(path))
    path.write_text('{"format": "other"}')
    _, err = _verify_failure(file=str(path))
    assert "not a joker-match record" in err


def test_verify_says_what_is_wrong_with_any_malformed_record_and_never_raises():
    good = {
        "format": replay.EXPORT_FORMAT,
        "format_version": replay.EXPORT_VERSION,
        "game": "japanese_joker",
        "options": {},
        "seed": "s",
        "seed_hash": replay.seed_hash("s"),
        "deals": [],
        "events": [],
        "status": "playing",
        "result": None,
    }
    assert replay.verify(good) == ["deals: the seed and events give 1, the record lists 0"]
    broken = [
        {"game": "chess"},
        {"options": {"points": 12}},
        {"options": "many"},
        {"seed": 5},
        {"events": {"a": 1}},
        {"events": [{"version": 1}]},
        {"events": [{"version": 2, "seat": 0, "kind": "act", "action": {}}]},
        {"events": [{"version": 1, "seat": 0, "kind": "act", "action": []}]},
        {"events": [{"version": 1, "seat": "x", "kind": "forfeit", "action": {}}]},
        {"events": [{"version": 1, "seat": 0, "kind": "dance", "action": {}}]},
        {"deals": "all"},
        {"deals": [{"hand": 1, "cards": "cards"}]},
        {"deals": [7]},
        {"result": "won"},
        {"format_version": 2},
    ]
    for change in broken:
        problems = replay.verify({**good, **change})
        assert problems, change
        assert all(isinstance(p, str) and p for p in problems)


def test_the_admin_links_the_match_page_and_shows_the_replay_check(finished, admin_client):
    url = f"/admin/games/match/{finished.pk}/change/"
    html = admin_client.get(url).content.decode()
    assert f'<a href="/matches/{finished.pk}/">replay and result</a>' in html
    assert '<div class="readonly">OK</div>' in html
    Match.objects.filter(pk=finished.pk).update(seed="0" * 64)
    html = admin_client.get(url).content.decode()
    assert "seed_hash: SHA-256 of the seed is" in html
