"""Deals no one can choose (docs/fairness.md § Player entropy): the match seed from the server's
secret and a value of every seat's own, and the check of a match record's ``entropy``.

Each seat's browser commits to a random value (its SHA-256) when it sits and reveals it when the
table is full; the server draws its secret then, before any value is revealed, and shows its
commitment with the request. The seed is ``sha256:`` and the HMAC-SHA-256 of the seats' values
keyed by the secret; a seat with no value that arrived in time, or a value that does not match
its commitment, or a computer, takes the server's value for that seat, fixed by the secret
too. Pure: ``games.replay`` (which imports no Django) checks records with it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .rules.cards import SHA256_SEED_PREFIX

HEX_64 = re.compile(r"[0-9a-f]{64}")
ENTROPY_VERSION = 1

# How a seat's value came to be: revealed by its player; the server's (a computer, or nothing
# revealed in time); the server's because the revealed value did not match the commitment.
PLAYER = "player"
SERVER = "server"
REFUSED = "refused"
SOURCES = (PLAYER, SERVER, REFUSED)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def is_hex_64(value: object) -> bool:
    """64 lowercase hex digits: a commitment, a value or the secret."""
    return isinstance(value, str) and HEX_64.fullmatch(value) is not None


def server_value(secret: str, seat: int) -> str:
    """The value the server gives seat ``seat``: fixed by its secret, so chosen before any
    player revealed theirs."""
    return hmac.new(secret.encode(), f"seat:{seat}".encode(), hashlib.sha256).hexdigest()


def match_seed(secret: str, values: Sequence[str]) -> str:
    """The seed: ``sha256:`` and HMAC-SHA-256(key = the secret, message = the seats' values in
    seat order joined by ``:``), each text as UTF-8."""
    digest = hmac.new(secret.encode(), ":".join(values).encode(), hashlib.sha256).hexdigest()
    return SHA256_SEED_PREFIX + digest


def seat_entry(secret: str, seat: int, commitment: str, revealed: str) -> dict[str, Any]:
    """One seat's part of the record: its commitment, the value it revealed (if any), the source
    and the value the seed used."""
    if commitment and revealed and sha256_hex(revealed) == commitment:
        source, used = PLAYER, revealed
    else:
        source, used = (REFUSED if commitment and revealed else SERVER), server_value(secret, seat)
    return {
        "seat": seat,
        "commitment": commitment or None,
        "revealed": revealed or None,
        "source": source,
        "value": used,
    }


def entropy_record(secret: str, seats: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The match's ``entropy``, from the secret and each seat's (commitment, revealed value)."""
    entries = [
        seat_entry(secret, seat, commitment, revealed)
        for seat, (commitment, revealed) in enumerate(seats)
    ]
    return {
        "version": ENTROPY_VERSION,
        "server_commitment": sha256_hex(secret),
        "server_secret": secret,
        "seats": entries,
    }


def entropy_problems(entropy: object, seed: str) -> list[str]:
    """What does not hold in a record's ``entropy`` for its ``seed``, in words; [] if it all
    holds (docs/match-export.md § What verify_match checks)."""
    if not isinstance(entropy, Mapping):
        return ["entropy must be an object"]
    secret = entropy.get("server_secret")
    if not is_hex_64(secret):
        return ["entropy.server_secret must be 64 hex digits"]
    assert isinstance(secret, str)
    problems = []
    if sha256_hex(secret) != entropy.get("server_commitment"):
        problems.append(
            f"entropy.server_commitment: SHA-256 of the server's secret is {sha256_hex(secret)}, "
            f"but the record commits to {entropy.get('server_commitment')}"
        )
    seats = entropy.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
        return [*problems, "entropy.seats must be a list of objects"]
    for index, entry in enumerate(seats):
        commitment = entry.get("commitment") or ""
        revealed = entry.get("revealed") or ""
        if not all(v == "" or is_hex_64(v) for v in (commitment, revealed)):
            problems.append(f"entropy.seats[{index}]: commitment, revealed: 64 hex digits or null")
            continue
        want = seat_entry(secret, index, commitment, revealed)
        for key in ("source", "value"):
            if entry.get(key) != want[key]:
                problems.append(
                    f"entropy.seats[{index}].{key}: the values give {want[key]}, "
                    f"the record says {entry.get(key)}"
                )
    if not problems and match_seed(secret, [entry["value"] for entry in seats]) != seed:
        problems.append("seed: it is not the HMAC of the seats' values under the server's secret")
    return problems
