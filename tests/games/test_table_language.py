"""Every message a player reads on the table socket is in the language of their page.

Through the real stack (``config.asgi``, the session cookie, ``TableConsumer``, the play service
and the rules engine): the language cookie (what the site's language menu sets), else the
browser's ``Accept-Language``, else English, decides the words of each ``error`` a socket gets,
whoever else sits at the table.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings
from django.utils import translation

from games.models import Match
from games.rules import get_game
from games.rules_text import card_text
from tests.support.live import (
    Sock,
    cookie_headers,
    settle,
    start_table,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]

SEED = "the deal this test reads"
LATIN = re.compile("[A-Za-z]")
SCRIPT = {"ka": re.compile("[\u10d0-\u10ff]"), "ru": re.compile("[\u0400-\u04ff]")}

NOT_JSON = {
    "en": "The frame is not valid JSON.",
    "ka": "შეტყობინება სწორი JSON არ არის.",
    "ru": "Сообщение не является корректным JSON.",
}
NOT_YOUR_TURN = {
    "en": "It is not your turn.",
    "ka": "ახლა თქვენი სვლა არ არის.",
    "ru": "Сейчас не ваш ход.",
}
ONLY_PLAYERS_MOVE = {
    "ka": "თქვენ ამ მაგიდას უყურებთ; სვლა მხოლოდ მის მოთამაშეებს შეუძლიათ.",
    "ru": "Вы наблюдаете за этим столом; ходят только его игроки.",
}
CANNOT_PLAY = {
    "en": "You cannot play {card}: it is not in your hand or face up on your columns.",
    "ka": "ამ კარტით ვერ ჩახვალთ: {card} არც ხელში გაქვთ და არც თქვენს სვეტებში დევს ღიად.",
    "ru": "Нельзя сыграть {card}: этой карты нет ни у вас на руке, ни среди открытых карт "
    "ваших столбиков.",
}
FOLLOW_SUIT = {
    "ka": "მასტით უნდა უპასუხოთ: ჩადით {suit} კარტით ან ჯოკერით.",
    "ru": "Нужно ходить в масть: картой масти {suit} или джокером.",
}
SUIT_IN_A_SENTENCE = {
    "ka": {"S": "ყვავის", "H": "გულის", "D": "აგურის", "C": "ჯვრის"},
    "ru": {"S": "пик", "H": "червей", "D": "бубён", "C": "треф"},
}


@pytest.fixture
def jj_table(alice, bob):
    """A Japanese Joker table whose deal comes from a known seed, so the test can read it."""
    table = start_table("japanese_joker", [alice, bob], options={"points": 11})
    state = get_game("japanese_joker").new_match({"points": 11}, SEED)
    Match.objects.filter(table=table).update(
        seed=SEED, seed_hash=hashlib.sha256(SEED.encode()).hexdigest(), state=state.to_dict()
    )
    return table


async def _open(table_id, player, *, cookie=None, accept=None) -> Sock:
    """A socket from a browser whose language cookie and/or Accept-Language are set."""
    headers = []
    for name, value in await sync_to_async(cookie_headers)(player):
        if name == b"cookie" and cookie:
            value += f"; {settings.LANGUAGE_COOKIE_NAME}={cookie}".encode()
        headers.append((name, value))
    if accept:
        headers.append((b"accept-language", accept.encode()))
    return await Sock.open(table_id, headers)


@sync_to_async
def _engine_state(table_id):
    """The whole stored state (hidden cards too): only the test may read it."""
    return Match.objects.get(table_id=table_id).state


def _card(code: str, language: str) -> str:
    with translation.override(language):
        return card_text(code)


async def _bad_json(sock: Sock) -> dict:
    await sock.communicator.send_to(text_data="{not json")
    return await sock.until(lambda frame: frame["type"] == "error")


async def test_georgian_and_russian_players_read_every_refusal_in_their_own_language(
    jj_table, alice, bob, eve
):
    socks, language = {}, {}
    for player, chosen in ((alice, "ka"), (bob, "ru")):
        sock = await _open(jj_table.pk, player, cookie=chosen)
        socks[sock.seat], language[sock.seat] = sock, chosen
    watcher = await _open(jj_table.pk, eve, cookie="ka")
    declarer = socks[0].state["view"]["to_act"]
    follower = 1 - declarer
    said: list[tuple[str, str]] = []  # (language, message) of every refusal

    for seat, sock in socks.items():
        error = await _bad_json(sock)
        assert (error["code"], error["message"]) == ("bad_json", NOT_JSON[language[seat]])
    error = await socks[follower].act({"type": "trump", "suit": "S"})
    # Refused inside the play service, in a database thread: it keeps the socket's language.
    assert (error["code"], error["message"]) == ("not_your_turn", NOT_YOUR_TURN[language[follower]])
    said.append((language[follower], error["message"]))
    error = await watcher.act({"type": "trump", "suit": "S"})
    assert (error["code"], error["message"]) == ("not_seated", ONLY_PLAYERS_MOVE["ka"])

    assert (await socks[declarer].act({"type": "trump", "suit": "S"}))["type"] == "ack"
    await settle(jj_table.pk, list(socks.values()))
    state = await _engine_state(jj_table.pk)
    ups = [[slot[0] for slot in columns if slot] for columns in state["columns"]]
    theirs = next(card for card in state["hands"][follower] if card[0] != "X")

    # JJ-12: a card the declarer cannot play, named as the cards are drawn on their page.
    error = await socks[declarer].act({"type": "play", "card": theirs})
    spoken = language[declarer]
    assert error["code"] == "illegal"
    assert error["message"] == CANNOT_PLAY[spoken].format(card=_card(theirs, spoken))
    said.append((spoken, error["message"]))

    # JJ-18: lead a suit the follower holds; the follower's card of another suit is refused.
    available = [card for card in state["hands"][follower] + ups[follower] if card[0] != "X"]
    lead = next(
        card
        for card in state["hands"][declarer]
        if card[0] != "X" and any(mine[1] == card[1] for mine in available)
    )
    assert (await socks[declarer].act({"type": "play", "card": lead}))["type"] == "ack"
    await settle(jj_table.pk, list(socks.values()))
    offsuit = next(card for card in available if card[1] != lead[1])
    error = await socks[follower].act({"type": "play", "card": offsuit})
    spoken = language[follower]
    assert error["code"] == "illegal"
    assert error["message"] == FOLLOW_SUIT[spoken].format(suit=SUIT_IN_A_SENTENCE[spoken][lead[1]])
    said.append((spoken, error["message"]))

    for spoken, message in said:
        assert SCRIPT[spoken].search(message) and not LATIN.search(message), message
    assert (await _match_version(jj_table.pk)) == 2  # the two legal moves, nothing else
    for sock in (*socks.values(), watcher):
        await sock.close()


async def test_without_a_cookie_the_browser_language_decides_and_english_stays_english(
    jj_table, alice, bob
):
    socks, language = {}, {}
    for player, accept, expected in ((alice, None, "en"), (bob, "ru-RU,ru;q=0.9,en;q=0.5", "ru")):
        sock = await _open(jj_table.pk, player, accept=accept)
        socks[sock.seat], language[sock.seat] = sock, expected
    declarer = socks[0].state["view"]["to_act"]
    for seat, sock in socks.items():
        assert (await _bad_json(sock))["message"] == NOT_JSON[language[seat]]
    error = await socks[1 - declarer].act({"type": "trump", "suit": "S"})
    assert error["message"] == NOT_YOUR_TURN[language[1 - declarer]]

    assert (await socks[declarer].act({"type": "trump", "suit": "S"}))["type"] == "ack"
    await settle(jj_table.pk, list(socks.values()))
    state = await _engine_state(jj_table.pk)
    theirs = next(card for card in state["hands"][1 - declarer] if card[0] != "X")
    error = await socks[declarer].act({"type": "play", "card": theirs})
    spoken = language[declarer]
    assert error["message"] == CANNOT_PLAY[spoken].format(card=_card(theirs, spoken))
    for sock in socks.values():
        await sock.close()


@sync_to_async
def _match_version(table_id):
    return Match.objects.get(table_id=table_id).version
