"""docs/fairness.md § Provably fair deals, followed to the letter: the seed's hash, then every
deal from the seed with nothing but ``hashlib`` (and ``random``, for the older matches' seeds),
equals the deal the engine made, with either derivation.

Nothing here imports the engines' card code: the decks are written out as docs/fairness.md lists
them, so a change of the derivation that docs/fairness.md does not follow fails here."""

from __future__ import annotations

import hashlib
import random

import pytest

from games import replay

OLD_SEED = hashlib.sha256(b"any seed will do").hexdigest()  # python-mt19937
NEW_SEED = "sha256:" + OLD_SEED  # sha256-fisher-yates


class ByHand:
    """docs/fairness.md § The derivation: words of SHA-256(seed:label:k), a draw by rejection,
    Fisher-Yates from the end."""

    def __init__(self, seed: str, label: int) -> None:
        self.seed, self.label, self.block, self.words = seed, label, 0, []

    def word(self) -> int:
        if not self.words:
            text = f"{self.seed}:{self.label}:{self.block}"
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            self.words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
            self.block += 1
        return self.words.pop(0)

    def randrange(self, m: int) -> int:
        limit = 2**32 - 2**32 % m
        while (w := self.word()) >= limit:
            pass
        return w % m

    def shuffle(self, deck: list[str]) -> None:
        for i in range(len(deck) - 1, 0, -1):
            j = self.randrange(i + 1)
            deck[i], deck[j] = deck[j], deck[i]


def generator(seed: str, label: int):
    """Label ``label``'s generator, as docs/fairness.md says for this seed's derivation."""
    if seed.startswith("sha256:"):
        return ByHand(seed, label)
    return random.Random(f"{seed}:{label}")


@pytest.fixture(params=[NEW_SEED, OLD_SEED], ids=["sha256", "mt19937"])
def seed(request) -> str:
    return request.param


# docs/fairness.md: the 36-card deck in its fixed order; the 52-card deck likewise.
JOKER_DECK = (
    [r + "S" for r in "789TJQKA"]
    + [r + "H" for r in "6789TJQKA"]
    + [r + "D" for r in "6789TJQKA"]
    + [r + "C" for r in "789TJQKA"]
    + ["X1", "X2"]
)
FULL_DECK = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def steps_of(game: str, options: dict, seed: str, moves: int = 400) -> list[replay.Step]:
    """Some hands of a random match, rebuilt through games.replay (the engine's deals)."""
    from games.rules import get_game

    state = get_game(game).new_match(options, seed)
    events, rng = [], random.Random(1)
    for version in range(1, moves + 1):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        events.append(replay.Event(version, state.to_act, "act", action))
        state = state.apply(action)
    return list(replay.replay(game, options, seed, events))


def test_the_seed_hash_is_the_sha256_of_the_seed_text(seed):
    assert replay.seed_hash(seed) == hashlib.sha256(seed.encode("utf-8")).hexdigest()


def test_japanese_joker_deals_by_hand(seed):
    starts = replay.hand_starts(steps_of("japanese_joker", {"points": 11}, seed))
    assert len(starts) >= 2
    declarer = None
    for step in starts:
        n = step.state.hand_number
        rng = generator(seed, n)
        # Hand 1 draws its declarer first (before the shuffle); then the declarer alternates.
        declarer = rng.randrange(2) if n == 1 else 1 - declarer
        deck = list(JOKER_DECK)
        rng.shuffle(deck)
        stored = step.state.to_dict()
        assert stored["declarer"] == declarer
        assert stored["hands"] == [deck[0:3], deck[3:6]]
        # After the trump: seat s gets deck[6 + 15s : 11 + 15s] in hand, then five columns of
        # (face up, face down) pairs from the next ten cards.
        after = step.state.apply({"type": "trump", "suit": "H"}).to_dict()
        for seat in (0, 1):
            base = 6 + 15 * seat
            assert after["hands"][seat] == deck[3 * seat : 3 * seat + 3] + deck[base : base + 5]
            assert after["columns"][seat] == [
                [deck[base + 5 + 2 * i], deck[base + 6 + 2 * i]] for i in range(5)
            ]


@pytest.mark.parametrize(
    ("seats", "pulkas"), [(4, "standard"), (3, "standard"), (2, "standard"), (3, "short")]
)
def test_classic_joker_deals_by_hand(seats, pulkas, seed):
    options = {"seats": seats, "pulkas": pulkas}
    starts = replay.hand_starts(steps_of("classic_joker", options, seed, moves=100 * seats))
    assert len(starts) >= 4
    first_dealer = generator(seed, 0).randrange(seats)
    schedule = {
        "standard": [*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9],
        "short": [9] * 8,
    }[pulkas]
    for step in starts:
        n = step.state.to_dict()["deal_number"]
        cards = schedule[n - 1]
        dealer = (first_dealer + n - 1) % seats
        deck = list(JOKER_DECK)
        generator(seed, n).shuffle(deck)
        dealt: list[list[str]] = [[] for _ in range(seats)]
        for k in range(seats * cards):
            dealt[(dealer + 1 + k) % seats].append(deck[k])
        stored = step.state.to_dict()
        assert stored["dealer"] == dealer
        if cards < 9:
            assert [sorted(h) for h in stored["hands"]] == [sorted(h) for h in dealt]
            assert stored["trump_card"] == deck[seats * cards]
            assert sorted(stored["undealt"]) == sorted(deck[seats * cards + 1 :])
        else:
            assert stored["hands"] == [h[:3] for h in dealt]
            assert stored["pending"] == [h[3:] for h in dealt]
            assert sorted(stored["undealt"]) == sorted(deck[seats * 9 :])


@pytest.mark.parametrize("variant", ["trumps", "spel_pass"])
def test_japanese_whist_deals_by_hand(variant, seed):
    options = {"variant": variant, "points": 5}
    starts = replay.hand_starts(steps_of("japanese_whist", options, seed, 200))
    assert len(starts) >= 2
    dealer = generator(seed, 0).randrange(2)
    for step in starts:
        n = step.state.hand_number
        deck = list(FULL_DECK)
        generator(seed, n).shuffle(deck)
        stored = step.state.to_dict()
        assert stored["dealer"] == (dealer + n - 1) % 2
        for seat in (0, 1):
            assert stored["layout"][seat] == [
                [deck[20 + 10 * seat + i], deck[10 * seat + i]] for i in range(10)
            ]
            assert sorted(stored["hands"][seat]) == sorted(deck[40 + 6 * seat : 46 + 6 * seat])
