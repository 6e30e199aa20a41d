"""Load benchmark of live play: ``python -m bench.load`` (``make bench`` runs it after the engine
benchmark). It starts the site the way the README's deploy steps run it, through
``scripts/serve.py`` (one Daphne per core on one socket, a Celery worker, Celery beat), in
production mode (``config.settings.bench``: the production settings over plain HTTP, plus two
echo sockets) on PostgreSQL and Redis, plays Japanese Joker against it over real websockets with
clients written from ``docs/protocol.md``, stops everything itself, prints a summary and writes
``bench/results/latest.json``.

The phases, in the order they run:

1. **Echo baselines**: round trips on a bare echo socket of the same Daphne, then the same echo
   through one ``group_send`` on the channel layer: the ceiling a table socket is compared with.
2. **Human pace (open loop)**: every table moves once every ``--period`` seconds (3) on a fixed
   schedule, latency counted from the scheduled time to the moment the table's last seat holds
   the new ``state``; tables stepped up (100, 250, 500, 1,000, 2,000) until the p99 passes
   100 ms. The largest passing step is the capacity. 2,000 sockets must connect without a
   refusal or a dropped handshake; server RSS per live table is measured here.
3. **Closed loop**: N tables (10, 50, 200), each seat playing a random entry of its
   ``view.legal`` as soon as its ``state`` says it is to act, rematching when a match ends.
4. **Slow readers** (issue 25): tables at human pace (``--slow-tables``, 100), measured alone,
   then again while ``--slow-readers`` (10) more sockets watch them that send ``sync`` eight
   times a second (under the rate limit) and never read. The other tables' p99 must stay
   within twice what it was alone; the non-readers are closed by the server (4013 past
   ``LIVE_SEND_BUFFER_BYTES``, or unanswered pings) and the web processes' RSS growth is shown.
5. **After the run**: every match ended (the clients leave their tables: a forfeit), the coin
   ledger audited (``manage.py audit_coins``), every frame every client received checked
   against the match replayed from its seed (no card its seat could not see at that version),
   and the server log free of tracebacks and errors.

Sessions are made directly in the database (users and guests with their session rows), not
through the login forms, and after each batch of tables the bench runs ``ANALYZE``, as autovacuum
would on a production server (this machine's PostgreSQL runs with autovacuum off). The bench's
clients play far faster than a person, so the server's per-socket rate limit is raised for it
(``LIVE_RATE_PER_SECOND``); nothing else differs from a production server. Floors are printed
PASS/FAIL; the exit status is non-zero only when the harness or the server broke.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import itertools
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/joker_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/2"
GAME = "japanese_joker"
CLOSED_STAKE = 25  # closed-loop tables play for coins, so the ledger audit has something to check
SERVER_APP_NAME = "joker-bench-server"  # PostgreSQL application_name of the server processes
# A card code as the engines write them (docs/rules/README.md), standing alone in the text.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|X[12])(?![A-Za-z0-9])")
# Floors (issue 11), reported PASS/FAIL.
FLOOR_MOVES_PER_ECHO = 0.2
FLOOR_CAPACITY_TABLES = 500
FLOOR_P99_MS = 100.0
FLOOR_SOCKETS = 2000
FLOOR_KB_PER_TABLE = 100.0
FLOOR_SLOW_READER_P99_RATIO = 2.0  # issue 25: non-readers may at most double the others' p99

T = TypeVar("T")


# --- Environment, database and server -------------------------------------------------------------


def configure_environment(var_dir: str) -> None:
    """The environment of this process and of every server process it starts."""
    defaults = {
        "DATABASE_URL": DEFAULT_DATABASE_URL,
        "REDIS_URL": DEFAULT_REDIS_URL,
        "CHANNELS_PREFIX": "bench",
        "CACHE_PREFIX": "bench",
    }
    for key, value in defaults.items():
        if not os.environ.get(key):
            os.environ[key] = value
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.bench",
            "DJANGO_ENV": "production",
            "SECRET_KEY": os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "VAR_DIR": var_dir,
            # The clients move as fast as the server answers, far above a person's pace.
            "LIVE_RATE_PER_SECOND": "100000",
            "LIVE_RATE_BURST": "100000",
            "PGAPPNAME": SERVER_APP_NAME,
        }
    )
    os.environ.pop("DEBUG", None)


def ensure_database(url: str) -> None:
    """Create the bench's database if it does not exist yet."""
    import psycopg
    from psycopg import sql

    parsed = psycopg.conninfo.conninfo_to_dict(url)
    name = str(parsed.get("dbname") or "")
    try:
        psycopg.connect(url, connect_timeout=5).close()
        return
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            raise
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``scripts/serve.py`` and the processes it starts, stopped whatever happens."""

    def __init__(self, port: int, log_path: Path, web_processes: int | None) -> None:
        self.port = port
        self.log_path = log_path
        self.web_processes = web_processes
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: dict[str, int] = {}

    def start(self, timeout: float = 60) -> None:
        command = [sys.executable, str(ROOT / "scripts" / "serve.py"), "--port", str(self.port)]
        if self.web_processes:
            command += ["--web-processes", str(self.web_processes)]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=dict(os.environ),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve.py exited at start:\n{self.log()}")
            printed = self.log()
            found = re.findall(r"^([\w-]+): pid (\d+)$", printed, re.M)
            self.pids = {name: int(pid) for name, pid in found}
            if "Serving on " in printed:  # printed once every process has started
                with contextlib.suppress(OSError):
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                    return
            time.sleep(0.2)
        raise RuntimeError(f"the server did not start in {timeout:.0f} s:\n{self.log()}")

    @property
    def web_pids(self) -> list[int]:
        return [pid for name, pid in self.pids.items() if name.startswith("web")]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def exits(self) -> list[str]:
        """The lines in which serve.py said one of its processes exited (and restarted it): a
        bench run in which a process died measured a different server."""
        return re.findall(r"^[\w-]+ exited \(pid .*$", self.log(), re.M)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self) -> int | None:
        """SIGTERM to serve.py (which stops its children); SIGKILL to whatever is left."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        for pid in self.pids.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # only if serve.py could not stop it
        return self.process.returncode


# --- Reading the server's CPU and memory ----------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (the first is the state)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (all its threads)."""
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def reaped_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the children ``pid`` has waited for, over their whole lives:
    for the PostgreSQL postmaster, its backends that closed."""
    fields = _stat(pid)
    return 0.0 if fields is None else (int(fields[13]) + int(fields[14])) / CLOCK_TICKS


def parent_pid(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[1])


def children_of(parent: int | None) -> list[int]:
    """The live processes whose parent is ``parent``: for the postmaster, all of PostgreSQL's
    backends and background processes."""
    if parent is None:
        return []
    return [
        int(entry)
        for entry in os.listdir("/proc")
        if entry.isdigit() and parent_pid(int(entry)) == parent
    ]


def rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except FileNotFoundError:
        pass
    return 0


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


@dataclass
class CpuWindow:
    """CPU seconds spent by groups of processes between ``start`` and ``stop``."""

    groups: dict[str, Callable[[], Iterable[int]]]
    # The parent of a group's processes, which waits for those that end: their CPU in the
    # window is then its reaped time's growth less what they had spent before the window.
    parents: dict[str, int | None] = field(default_factory=dict)
    before: dict[str, dict[int, float]] = field(default_factory=dict)
    reaped_before: dict[str, float] = field(default_factory=dict)
    spent: dict[str, float] = field(default_factory=dict)

    def start(self) -> None:
        self.before = {
            name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.groups.items()
        }
        self.reaped_before = {name: self._reaped(name) for name in self.parents}

    def _reaped(self, name: str) -> float:
        parent = self.parents[name]
        return 0.0 if parent is None else reaped_cpu_seconds(parent)

    def stop(self) -> dict[str, float]:
        for name, pids in self.groups.items():
            earlier = self.before.get(name, {})
            now = {pid: cpu_seconds(pid) for pid in pids()}
            # One that began in the window counts from zero. One that ended in it took its CPU
            # time with it: left out, unless the group's parent waited for it.
            self.spent[name] = sum(
                spent - earlier.get(pid, 0.0)
                for pid, spent in now.items()
                if spent >= earlier.get(pid, 0.0)
            )
            if name in self.parents:
                ended = sum(spent for pid, spent in earlier.items() if pid not in now)
                self.spent[name] += self._reaped(name) - self.reaped_before[name] - ended
        return self.spent


# --- Statistics -----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency_summary(values: list[float]) -> dict[str, float | int | None]:
    """Milliseconds; an answer that never came counts as infinitely late (inf)."""

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 1)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 0.5)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values) if values else None),
    }


# --- The database side (run in one thread: Django's ORM is synchronous) ---------------------------


@dataclass
class Identity:
    player_id: int
    cookie: str


def _session_rows(datas: list[dict[str, Any]]) -> list[str]:
    """Session rows written directly, as the login or guest view would leave them."""
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expire = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    keys = [get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789") for _ in datas]
    Session.objects.bulk_create(
        [
            Session(session_key=key, session_data=store.encode(data), expire_date=expire)
            for key, data in zip(keys, datas, strict=True)
        ],
        batch_size=1000,
    )
    return [f"{settings.SESSION_COOKIE_NAME}={key}" for key in keys]


def make_guests(count: int, tag: str) -> list[Identity]:
    """Guests with a session each (what "Play as guest" makes)."""
    from accounts.models import Player
    from accounts.services import SESSION_GUEST_KEY

    players = Player.objects.bulk_create(
        [Player(name=f"Guest-{tag}{index:05d}") for index in range(count)], batch_size=1000
    )
    cookies = _session_rows([{SESSION_GUEST_KEY: player.pk} for player in players])
    return [Identity(p.pk, c) for p, c in zip(players, cookies, strict=True)]


def make_users(count: int, tag: str) -> list[Identity]:
    """Registered players with their wallet (the sign-up grant) and a logged-in session each."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password

    from accounts.models import Player
    from accounts.services import wallet_open

    user_model = get_user_model()
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        [
            user_model(
                username=f"b{tag}{index:04d}",
                email=f"b{tag}{index:04d}@bench.invalid",
                password=unusable,
            )
            for index in range(count)
        ]
    )
    players = Player.objects.bulk_create([Player(user=u, name=u.username) for u in users])
    for player in players:
        wallet_open(player=player)
    cookies = _session_rows(
        [
            {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            for user in users
        ]
    )
    return [Identity(p.pk, c) for p, c in zip(players, cookies, strict=True)]


def start_tables(pairs: list[tuple[Identity, Identity]], *, stake: int) -> list[int]:
    """Open a table per pair with both seated and start each match (the table service's start:
    the deal, the stakes, the clocks), all in one transaction."""
    from django.db import transaction

    from games.models import Seat, Table
    from games.rules import get_game
    from games.services.tables import table_start

    options = get_game(GAME).parse_options({})
    with transaction.atomic():
        tables = Table.objects.bulk_create(
            [
                Table(
                    game=GAME,
                    options=options,
                    stake=stake,
                    creator_id=first.player_id,
                    seats_total=2,
                    visibility=Table.Visibility.PUBLIC,
                    rated=False,
                )
                for first, _second in pairs
            ]
        )
        Seat.objects.bulk_create(
            [
                Seat(table=table, player_id=who.player_id, position=position)
                for table, pair in zip(tables, pairs, strict=True)
                for position, who in enumerate(pair)
            ]
        )
        for table in tables:
            if table_start(table) is None:
                raise RuntimeError(f"table {table.pk} could not start its match")
    return [table.pk for table in tables]


def analyze() -> None:
    """What autovacuum would do on a production server after the bench's bulk inserts: fresh
    planner statistics. (This machine's PostgreSQL runs with autovacuum off; without them the
    planner guesses from table sizes alone, and the bench measured its guesses.)"""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def database_backends() -> list[int]:
    """The PostgreSQL backends serving the site's processes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = %s",
            [SERVER_APP_NAME],
        )
        return [row[0] for row in cursor.fetchall()]


def connections_per_server(table_ids: list[int]) -> dict[str, int]:
    from django.db.models import Count

    from games.models import TableConnection

    rows = (
        TableConnection.objects.filter(table_id__in=table_ids)
        .values("server__name")
        .annotate(n=Count("pk"))
    )
    return {row["server__name"]: row["n"] for row in rows}


def first_new_table() -> int:
    """Every table this run opens (rematches included) has an id from this one on."""
    from django.db.models import Max

    from games.models import Table

    return (Table.objects.aggregate(last=Max("pk"))["last"] or 0) + 1


def end_leftovers(first_table: int = 0) -> dict[str, int]:
    """Every match still playing (at tables from ``first_table`` on) ended through the match
    service: cancelled, stakes refunded. Before the run it ends what an interrupted run left;
    after it, what no client ended (a rematch opened as the run stopped). Returns how the
    run's matches ended."""
    from games.models import Match
    from games.services.matches import match_cancel

    matches = Match.objects.filter(table_id__gte=first_table)
    playing = list(matches.filter(status=Match.Status.PLAYING).values_list("pk", flat=True))
    cancelled = sum(match_cancel(match_id=pk, reason="load bench ended") for pk in playing)
    ended = Counter(matches.values_list("status", flat=True))
    return {"cancelled_by_bench": cancelled, **dict(ended)}


def audit_coins() -> dict[str, Any]:
    """``manage.py audit_coins``, as an operator runs it."""
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out, err = StringIO(), StringIO()
    try:
        call_command("audit_coins", stdout=out, stderr=err)
        ok = True
    except CommandError as error:
        err.write(str(error))
        ok = False
    return {"ok": ok, "output": out.getvalue().strip(), "errors": err.getvalue().strip()}


def hidden_card_scan(frames: dict[int, list[tuple[int, int | None, frozenset[str]]]]) -> dict:
    """Replay every match from its seed and events; no frame may hold a card its seat could not
    see at that version (each engine's ``hidden_cards``)."""
    from games.models import Match, MatchEvent
    from games.rules import get_game

    leaks: list[str] = []
    scanned = 0
    matches = Match.objects.filter(pk__in=list(frames)).only("pk", "game", "options", "seed")
    events: dict[int, list[Any]] = {}
    for event in MatchEvent.objects.filter(match_id__in=list(frames)).order_by("match", "version"):
        events.setdefault(event.match_id, []).append(event)
    for match in matches:
        state = get_game(match.game).new_match(match.options, match.seed)
        states = {0: state}
        for event in events.get(match.pk, []):
            if event.kind in ("act", "timeout", "bot"):
                state = state.apply(event.action)
            elif event.kind == "forfeit":
                state = state.forfeit(event.seat)
            states[event.version] = state  # a cancel changes no card
        for version, seat, codes in frames[match.pk]:
            scanned += 1
            at = states.get(version)
            if at is None:
                leaks.append(f"match {match.pk} v{version}: no such version")
                continue
            leaked = codes & at.hidden_cards(seat)
            if leaked:
                leaks.append(f"match {match.pk} v{version} seat {seat}: {sorted(leaked)}")
    return {
        "frames_scanned": scanned,
        "matches": len(frames),
        "leaks": leaks[:20],
        "leak_count": len(leaks),
    }


# --- The websocket clients ------------------------------------------------------------------------


class Recorder:
    """What one measured step saw."""

    def __init__(self) -> None:
        self.window = (float("inf"), float("-inf"))
        self.acks: list[float] = []
        self.last_seat: list[float] = []
        self.errors: Counter[str] = Counter()
        self.gaps = 0
        self.syncs = 0
        self.moves = 0
        self.rematches = 0
        self.not_ready = 0

    def counts(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]


class Bench:
    """State shared by every client: the server's address, the recorder, the frame log."""

    def __init__(self, port: int, seed: int) -> None:
        self.port = port
        self.rng = random.Random(seed)
        self.recorder = Recorder()
        self.ids = itertools.count(1)
        self.frames: dict[int, list[tuple[int, int | None, frozenset[str]]]] = {}
        self.connects = Counter[str]()
        self.live_sockets = 0
        self.peak_sockets = 0
        self.connect_failures: list[str] = []
        self.handshake_semaphore = asyncio.Semaphore(32)  # handshakes in flight
        self.closes: Counter[str] = Counter()

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """A measuring window without the bench's own garbage collector. The bench keeps a thousand
    sockets and the cards of every frame it received (for the hidden-card scan), so one of its
    collections stalls every client for 30-380 ms, and that pause would be counted as the
    server's latency. The garbage made so far is collected before the window opens."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def open_socket(bench: Bench, path: str, cookie: str | None = None) -> Any:
    """A websocket handshake as a browser makes it: the Origin header and the session cookie.
    Failures are counted (a refusal is an HTTP status, a dropped handshake anything else)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    headers = {"Cookie": cookie} if cookie else {}
    async with bench.handshake_semaphore:
        try:
            ws = await connect(
                bench.url(path),
                origin=bench.origin,  # type: ignore[arg-type]
                additional_headers=headers,
                compression=None,
                ping_interval=None,
                open_timeout=15,
                close_timeout=5,
                max_size=2**20,
            )
        except InvalidStatus as error:
            bench.connects["refused"] += 1
            bench.connect_failures.append(f"refused: {error}")
            raise
        except Exception as error:
            bench.connects["dropped"] += 1
            bench.connect_failures.append(f"dropped: {type(error).__name__}: {error}")
            raise
    bench.connects["ok"] += 1
    bench.live_sockets += 1
    bench.peak_sockets = max(bench.peak_sockets, bench.live_sockets)
    return ws


class NonReader:
    """A socket that watches a table, sends ``sync`` eight times a second and never reads: its
    receive buffer as small as the kernel allows, its handshake read byte by byte."""

    def __init__(self, bench: Bench, table_id: int) -> None:
        self.bench = bench
        self.table_id = table_id
        self.writer: asyncio.StreamWriter | None = None
        self.sent = 0
        self.closed_after: float | None = None

    async def run(self, seconds: float) -> None:
        started = time.monotonic()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.bench.port))
        reader, self.writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.writer.write(
            f"GET /ws/table/{self.table_id}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {self.bench.origin}\r\n\r\n".encode()
        )
        answer = b""
        while not answer.endswith(b"\r\n\r\n"):
            answer += await reader.readexactly(1)
        frame = b'{"type":"sync"}'
        mask = secrets.token_bytes(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(frame))
        message = bytes([0x81, 0x80 | len(frame)]) + mask + masked
        while time.monotonic() - started < seconds:
            try:
                self.writer.write(message)
                await self.writer.drain()
            except OSError:
                self.closed_after = time.monotonic() - started
                return
            self.sent += 1
            await asyncio.sleep(0.125)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


class SeatClient:
    """One player's table socket, a client of ``docs/protocol.md`` and nothing else."""

    def __init__(self, table: LiveTable, identity: Identity) -> None:
        self.table = table
        self.bench = table.bench
        self.identity = identity
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.match_id: int | None = None
        self.awaiting: tuple[str, float, dict[str, Any], int] | None = None  # id, sent, act, v
        self.rematch_sent = False
        self.leaving = False
        self.left = asyncio.Event()
        self.first_state = asyncio.Event()
        self.last_state_at = 0.0
        self.acted_at = 0.0
        self.acked_at: float | None = None  # the ack of the act awaited, once it came
        self.sync_backoff = 0.5
        self.next_sync_at = 0.0
        self.waiting: set[asyncio.Future[None]] = set()  # syncs that wait for a state first

    @property
    def seat(self) -> int | None:
        return self.state["seat"] if self.state else None

    @property
    def playing(self) -> bool:
        return bool(self.state) and self.state["status"] == "playing"  # type: ignore[index]

    def to_act(self) -> bool:
        state = self.state
        return (
            state is not None
            and state["status"] == "playing"
            and state["view"] is not None
            and state["view"]["to_act"] == state["seat"]
            and bool(state["view"]["legal"])
            and self.awaiting is None
        )

    async def open(self, table_id: int) -> None:
        self.ws = await open_socket(self.bench, f"/ws/table/{table_id}/", self.identity.cookie)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                await self._handle(text)
        except ConnectionClosed:
            pass
        finally:
            self.bench.live_sockets -= 1
            code = self.ws.close_code
            self.bench.closes[str(code)] += 1

    async def send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(message, separators=(",", ":")))

    def _log_cards(self, text: str, version: int | None) -> None:
        codes = CARD.findall(text)
        if codes and self.match_id is not None:
            self.bench.frames.setdefault(self.match_id, []).append(
                (self.version if version is None else version, self.seat, frozenset(codes))
            )

    async def _handle(self, text: str) -> None:
        now = time.monotonic()
        frame = json.loads(text)
        kind = frame.get("type")
        recorder = self.bench.recorder
        if kind == "state":
            if frame.get("match") is not None:
                self.match_id = frame["match"]
            version = frame["version"]
            if version < self.version:
                return  # an older snapshot than the one held (protocol § Versions)
            held_match = self.state["match"] if self.state else None
            if self.version >= 0 and frame["match"] == held_match and version > self.version + 1:
                recorder.gaps += 1  # a state was lost on the way
            self.state = frame
            self.version = version
            self.last_state_at = now
            self.sync_backoff = 0.5  # any state resets the backoff
            self.next_sync_at = 0.0
            self._log_cards(text, version)
            if self.awaiting is not None and version >= self.awaiting[3]:
                self.awaiting = None
            self.first_state.set()
            self.table.seen(self, version, now)
            await self.table.on_state(self)
            return
        self._log_cards(text, None)
        if kind == "ack":
            if frame["id"] is None:  # the answer to leave
                self.left.set()
            elif self.awaiting is not None and frame["id"] == self.awaiting[0]:
                self.acked_at = now
                if recorder.counts(self.awaiting[1]):
                    recorder.acks.append(now - self.awaiting[1])
                    recorder.moves += 1
        elif kind == "error":
            code = frame.get("code", "?")
            if self.awaiting is not None and frame.get("id") == self.awaiting[0]:
                action = self.awaiting[2]
                if code == "busy":  # nothing changed: the same act again, same id, a moment later
                    recorder.errors[code] += 1
                    await asyncio.sleep(0.2)
                    await self.send(action)
                    return
                self.awaiting = None
                self.table.pending.pop(self.version + 1, None)
            if (self.leaving or not self.table.running) and code in (
                "match_over",
                "not_seated",
                "no_match",
            ):
                # The bench's leave raced the end of the match, or this seat's last act raced
                # the other seat's leave when the bench stopped the table: not an error.
                if self.leaving:
                    self.left.set()
                return
            recorder.errors[code] += 1
            if code != "stale":  # a stale act is followed by a state; anything else: ask
                await self.sync()
        elif kind in ("pong", "presence"):
            self.expect(frame.get("version"))
        elif kind == "match_over":
            await self.table.on_over(self)
        elif kind == "rematch" and frame.get("table"):
            await self.table.on_rematch(frame["table"])

    async def act(self, scheduled: float) -> None:
        assert self.state is not None
        action = self.bench.rng.choice(self.state["view"]["legal"])  # sent unchanged
        action_id = f"b{next(self.bench.ids)}"
        message = {"type": "act", "version": self.version, "id": action_id, "action": action}
        self.awaiting = (action_id, scheduled, message, self.version + 1)
        self.table.pending[self.version + 1] = scheduled
        self.acted_at = time.monotonic()
        self.acked_at = None
        await self.send(message)

    def expect(self, version: Any) -> None:
        """A frame shows a version past our state: its state may still be on the way (a pong is
        answered directly, and frames to different groups overtake each other), so sync only if
        it has not come within a second (protocol § Versions)."""
        if not isinstance(version, int) or version <= self.version:
            return

        async def unless_caught_up() -> None:
            await asyncio.sleep(1.0)
            if self.version < version and not self.leaving:
                await self.sync()

        waiting = asyncio.ensure_future(unless_caught_up())
        self.waiting.add(waiting)
        waiting.add_done_callback(self.waiting.discard)

    async def sync(self) -> None:
        """Ask for a snapshot; another before a state has come waits 0.5 s, doubling up to 10 s,
        with ±50 % jitter (protocol § sync)."""
        now = time.monotonic()
        if now < self.next_sync_at:
            return
        self.next_sync_at = now + self.sync_backoff * random.uniform(0.5, 1.5)
        self.sync_backoff = min(10.0, self.sync_backoff * 2)
        self.bench.recorder.syncs += 1
        await self.send({"type": "sync"})

    async def leave(self, timeout: float = 10) -> None:
        if self.playing:
            self.leaving = True
            await self.send({"type": "leave"})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.left.wait(), timeout)

    async def close(self) -> None:
        for waiting in list(self.waiting):
            waiting.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None and self.reader is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)


class LiveTable:
    """One table and its two seat sockets; it knows when every seat holds a version."""

    def __init__(
        self,
        bench: Bench,
        table_id: int,
        identities: tuple[Identity, Identity],
        *,
        closed_loop: bool,
    ) -> None:
        self.bench = bench
        self.table_id = table_id
        self.identities = identities
        self.closed_loop = closed_loop
        self.running = True
        self.clients = [SeatClient(self, who) for who in identities]
        self.held: dict[SeatClient, int] = {}
        self.pending: dict[int, float] = {}  # version a move will produce -> its start time
        self.table_ids = [table_id]
        self.switching: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await asyncio.gather(*(client.open(self.table_id) for client in self.clients))
        await asyncio.wait_for(
            asyncio.gather(*(client.first_state.wait() for client in self.clients)), 30
        )

    def seen(self, client: SeatClient, version: int, now: float) -> None:
        self.held[client] = version
        if len(self.held) < len(self.clients) or not self.pending:
            return
        everyone = min(self.held.values())
        recorder = self.bench.recorder
        for target in [v for v in self.pending if v <= everyone]:
            started = self.pending.pop(target)
            if recorder.counts(started):
                recorder.last_seat.append(now - started)

    def actor(self) -> SeatClient | None:
        return next((client for client in self.clients if client.to_act()), None)

    async def watch(self, now: float) -> None:
        """A state that did not come: a move's within 2 s of its ack (protocol § ack), an act
        still unanswered after 10 s, or, in the closed loop, any state for 2 s while nobody may
        act (the next actor's was lost). A slow ack is no reason to sync: the act is still being
        applied, and a snapshot asked for meanwhile only adds to the server's queue."""
        if self.switching is not None and not self.switching.done():
            return
        for client in self.clients:
            if client.awaiting is None:
                continue
            acked = client.acked_at
            if (acked is not None and now - acked > 2) or now - client.acted_at > 10:
                await client.sync()
        if (
            self.closed_loop
            and self.running
            and all(c.playing and c.awaiting is None for c in self.clients)
            and self.actor() is None
            and now - max(c.last_state_at for c in self.clients) > 2
        ):
            for client in self.clients:
                await client.sync()

    async def on_state(self, client: SeatClient) -> None:
        if self.closed_loop and self.running and client.to_act():
            await client.act(time.monotonic())

    async def on_over(self, client: SeatClient) -> None:
        if self.closed_loop and self.running and not client.rematch_sent:
            client.rematch_sent = True
            await client.send({"type": "rematch", "accept": True})

    async def on_rematch(self, new_table_id: int) -> None:
        """Both accepted: the client opens the new table's socket itself (protocol § rematch),
        from a task of its own (the socket that heard it is one of those it closes)."""
        if new_table_id in self.table_ids:
            return
        self.table_ids.append(new_table_id)
        if self.running:
            self.bench.recorder.rematches += 1
            self.switching = asyncio.ensure_future(self._switch(new_table_id))

    async def _switch(self, new_table_id: int) -> None:
        old = self.clients
        self.clients = [SeatClient(self, who) for who in self.identities]
        self.held = {}
        self.pending = {}
        self.table_id = new_table_id
        for client in old:
            await client.close()
        await self.open()

    async def finish(self) -> None:
        """Stop moving, leave the match if it is still on (a forfeit), close the sockets."""
        self.running = False
        if self.switching is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.switching, 30)
        for client in self.clients:
            if client.playing and client.seat is not None:
                await client.leave()
                break
        for client in self.clients:
            await client.close()


async def gather_limited(jobs: list[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    semaphore = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with semaphore:
            return await job()

    return await asyncio.gather(*(one(job) for job in jobs))


# --- The phases -----------------------------------------------------------------------------------


class Run:
    """One bench run against one started server."""

    def __init__(self, args: argparse.Namespace, server: Server, bench: Bench) -> None:
        self.args = args
        self.server = server
        self.bench = bench
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-db")
        # The open loop starts no step that would end past this point: the run fits its budget.
        self.deadline = time.monotonic() + args.open_budget
        self.tag = secrets.token_hex(2)
        self.live: list[LiveTable] = []
        self.watched: list[LiveTable] = []  # the tables the watchdog looks after
        self.cpu_groups: dict[str, Callable[[], Iterable[int]]] = {
            "web": lambda: server.web_pids,
            "celery": lambda: [p for name, p in server.pids.items() if not name.startswith("web")],
        }

    async def in_db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db, lambda: function(*args, **kwargs))

    async def tables(self, pairs: list[tuple[Identity, Identity]], stake: int) -> list[int]:
        """Start the tables in the database; send what the start published (nobody listens yet,
        as when a table fills from the lobby before its players' pages have opened)."""
        from core import realtime

        (ids, messages) = await self.in_db(realtime.collecting(start_tables), pairs, stake=stake)
        await self.in_db(analyze)
        for message in messages:  # one at a time: this process's Redis pool is bounded too
            await realtime.send_all([message])
        return ids

    async def watchdog(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            for table in list(self.watched):
                await table.watch(now)

    def rss(self) -> int:
        return sum(rss_bytes(pid) for pid in self.server.web_pids)

    def check_alive(self) -> None:
        if not self.server.alive():
            raise RuntimeError(f"the server stopped:\n{self.server.log()[-3000:]}")
        if self.server.exits():
            raise RuntimeError(f"a server process died: {'; '.join(self.server.exits())}")

    # Echo -----------------------------------------------------------------------------------------

    async def echo(self, path: str, clients: int, seconds: float) -> dict[str, Any]:
        sockets = [await open_socket(self.bench, path) for _ in range(clients)]
        payload = json.dumps(
            {
                "type": "act",
                "version": 17,
                "id": "c-1714560000-42",
                "action": {"type": "play", "card": "QH"},
            }
        )
        times: list[float] = []
        counting = False
        stop = False

        async def loop(ws: Any) -> None:
            while not stop:
                start = time.monotonic()
                await ws.send(payload)
                await ws.recv()
                if counting:
                    times.append(time.monotonic() - start)

        tasks = [asyncio.ensure_future(loop(ws)) for ws in sockets]
        await asyncio.sleep(0.5)  # warm up
        with collector_paused():
            cpu = CpuWindow(self.cpu_groups)
            counting = True
            cpu.start()
            started = time.monotonic()
            await asyncio.sleep(seconds)
            counting = False
            elapsed = time.monotonic() - started
            spent = cpu.stop()
        stop = True
        await asyncio.gather(*tasks)
        for ws in sockets:
            await ws.close()
            self.bench.live_sockets -= 1
        round_trips = len(times)
        return {
            "clients": clients,
            "seconds": round(elapsed, 2),
            "round_trips": round_trips,
            "round_trips_per_s": round(round_trips / elapsed, 1),
            **latency_summary(times),
            "web_cpu_ms_per_round_trip": round(spent["web"] * 1000 / max(1, round_trips), 3),
        }

    # Open loop ------------------------------------------------------------------------------------

    async def add_open_tables(self, count: int, guests: list[Identity]) -> list[LiveTable]:
        pairs = [(guests.pop(), guests.pop()) for _ in range(count)]
        ids: list[int] = []
        for start in range(0, count, 250):  # several transactions: the first tables open sooner
            ids += await self.tables(pairs[start : start + 250], stake=0)
        tables = [
            LiveTable(self.bench, table_id, pair, closed_loop=False)
            for table_id, pair in zip(ids, pairs, strict=True)
        ]
        results = await asyncio.gather(*(table.open() for table in tables), return_exceptions=True)
        opened = []
        for table, result in zip(tables, results, strict=True):
            if isinstance(result, BaseException):
                await table.finish()
            else:
                opened.append(table)
        return opened

    async def schedule(self, table: LiveTable, first: float, period: float) -> None:
        """The table's moves on a fixed schedule; each starts its clock at its scheduled time."""
        beat = itertools.count()
        pings = time.monotonic() + random.uniform(20, 30)
        while table.running:
            scheduled = first + next(beat) * period
            await asyncio.sleep(max(0.0, scheduled - time.monotonic()))
            if not table.running:
                return
            actor = table.actor()
            if actor is None:
                if self.bench.recorder.counts(scheduled):
                    self.bench.recorder.not_ready += 1
                    self.bench.recorder.last_seat.append(float("inf"))
            else:
                await actor.act(scheduled)
            if time.monotonic() >= pings:  # protocol § ping: one every 20-30 s
                pings += random.uniform(20, 30)
                for client in table.clients:
                    await client.send({"type": "ping"})

    async def open_loop(self, guests: list[Identity]) -> dict[str, Any]:
        args = self.args
        period = args.period
        steps: list[dict[str, Any]] = []
        schedulers: list[asyncio.Task[None]] = []
        rss_before = self.rss()
        self.bench.peak_sockets = self.bench.live_sockets  # table sockets only, not the echo's
        capacity = 0
        first_step: tuple[int, int] | None = None  # tables and RSS at the end of the first step
        socket_floor: dict[str, Any] | None = None
        wanted_sockets = args.sockets
        stopped_by_budget = False
        seconds_per_table = 0.0  # how fast the last step's tables connected (none before it)
        for target in args.open_steps:
            self.check_alive()
            adding = target - len(self.live)
            if adding <= 0:
                continue
            # Keep the run within its budget: no step that would end past it, judged by how
            # fast the last step connected (a fast machine reached 2,000 tables, whose 2,000 new
            # sockets took 115 s to connect beside 1,000 playing tables).
            expected = 2.0 + period + args.open_seconds + adding * seconds_per_table
            if time.monotonic() + expected > self.deadline:
                stopped_by_budget = True
                break
            connect_started = time.monotonic()
            failures_before = sum(self.bench.connects[k] for k in ("refused", "dropped"))
            new = await self.add_open_tables(adding, guests)
            connect_seconds = time.monotonic() - connect_started
            seconds_per_table = connect_seconds / adding
            failures = sum(self.bench.connects[k] for k in ("refused", "dropped")) - failures_before
            self.live += new
            self.watched = self.live
            origin = time.monotonic() + 1.0
            for index, table in enumerate(new):
                first = origin + period * index / max(1, len(new))
                schedulers.append(asyncio.ensure_future(self.schedule(table, first, period)))
            recorder = Recorder()
            window_start = origin + period  # every new table has started its schedule
            recorder.window = (window_start, window_start + args.open_seconds)
            self.bench.recorder = recorder
            cpu = CpuWindow(self.cpu_groups)
            with collector_paused():
                await asyncio.sleep(max(0.0, window_start - time.monotonic()))
                cpu.start()
                await asyncio.sleep(args.open_seconds)
                spent = cpu.stop()
                await asyncio.sleep(1.0)  # the last moves of the window arrive
            # A move whose state never reached every seat counts as infinitely late.
            unanswered = sum(
                1
                for table in self.live
                for started in table.pending.values()
                if recorder.counts(started) and time.monotonic() - started > 1.0
            )
            samples = recorder.last_seat + [float("inf")] * unanswered
            summary = latency_summary(samples)
            live_tables = len(self.live)
            rss = self.rss()
            p99 = summary["p99_ms"]
            passed = p99 is not None and p99 <= FLOOR_P99_MS
            step = {
                "tables": live_tables,
                "sockets": self.bench.live_sockets,
                "connect_seconds": round(connect_seconds, 1),
                "connect_failures": failures,
                "moves": len(recorder.last_seat),
                "moves_per_s": round(len(recorder.last_seat) / args.open_seconds, 1),
                "move_to_last_seat": summary,
                "unanswered": unanswered,
                "not_ready": recorder.not_ready,
                "errors": dict(recorder.errors),
                "version_gaps": recorder.gaps,
                "syncs": recorder.syncs,
                "web_cpu_s": round(spent["web"], 2),
                "web_rss_mb": round(rss / 2**20, 1),
                "rss_kb_per_table": round((rss - rss_before) / 1024 / max(1, live_tables), 1),
                "passed": passed,
            }
            steps.append(step)
            first_step = first_step or (live_tables, rss)
            print(
                f"  open loop {live_tables:5d} tables ({step['sockets']} sockets, connected in "
                f"{connect_seconds:.1f} s, {failures} failed): {step['moves_per_s']:6.1f} moves/s,"
                f" move→last seat p50 {summary['p50_ms']} ms p99 {p99} ms, "
                f"{step['rss_kb_per_table']} KB/table  {'pass' if passed else 'FAIL'}",
                flush=True,
            )
            if self.bench.live_sockets >= wanted_sockets and socket_floor is None:
                socket_floor = self.socket_floor(wanted_sockets)
            if not passed:
                break
            capacity = live_tables
        if socket_floor is None:  # the stepping stopped early: connect up to the floor anyway
            missing = (wanted_sockets - self.bench.live_sockets + 1) // 2
            if missing > 0:
                self.live += await self.add_open_tables(missing, guests)
                self.watched = self.live
            socket_floor = self.socket_floor(wanted_sockets)
        # Memory at the most live tables of the run, against the server before the open loop.
        rss = self.rss()
        memory = {
            "tables": len(self.live),
            "web_rss_mb_before": round(rss_before / 2**20, 1),
            "web_rss_mb": round(rss / 2**20, 1),
            "kb_per_table": round((rss - rss_before) / 1024 / max(1, len(self.live)), 1),
            # What each table past the first step added: the one-time costs the first tables
            # bring (the database threads and their connections, the caches) left out.
            "kb_per_added_table": (
                round((rss - first_step[1]) / 1024 / (len(self.live) - first_step[0]), 1)
                if first_step is not None and len(self.live) > first_step[0]
                else None
            ),
        }
        spread = await self.in_db(connections_per_server, [t.table_id for t in self.live])
        for table in self.live:
            table.running = False
        for task in schedulers:
            task.cancel()
        await asyncio.gather(*schedulers, return_exceptions=True)
        await self.finish_tables(self.live)
        self.live = self.watched = []
        return {
            "period_s": period,
            "window_s": args.open_seconds,
            "steps": steps,
            "capacity_tables": capacity,
            "stopped_by_time_budget": stopped_by_budget,
            "sockets": socket_floor,
            "sockets_per_server_process": sorted(spread.values(), reverse=True),
            "memory": memory,
        }

    def socket_floor(self, wanted: int) -> dict[str, Any]:
        return {
            "wanted": wanted,
            "live": self.bench.live_sockets,
            "peak": self.bench.peak_sockets,
            "connected_total": self.bench.connects["ok"],
            "refused": self.bench.connects["refused"],
            "dropped": self.bench.connects["dropped"],
            "failures": self.bench.connect_failures[:10],
        }

    async def finish_tables(self, tables: list[LiveTable]) -> None:
        await gather_limited([table.finish for table in tables], 50)

    # Closed loop ----------------------------------------------------------------------------------

    async def paced_window(self, tables: list[LiveTable]) -> dict[str, Any]:
        """One measuring window of tables already on their schedules: move→last seat."""
        recorder = Recorder()
        start = time.monotonic() + self.args.period  # every table has moved once since now
        recorder.window = (start, start + self.args.open_seconds)
        self.bench.recorder = recorder
        cpu = CpuWindow(self.cpu_groups)
        with collector_paused():
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            cpu.start()
            await asyncio.sleep(self.args.open_seconds)
            spent = cpu.stop()
            await asyncio.sleep(1.0)
        unanswered = sum(
            1
            for table in tables
            for started in table.pending.values()
            if recorder.counts(started) and time.monotonic() - started > 1.0
        )
        return {
            "moves": len(recorder.last_seat),
            "move_to_last_seat": latency_summary(recorder.last_seat + [float("inf")] * unanswered),
            "web_cpu_s": round(spent["web"], 2),
            "web_rss_mb": round(self.rss() / 2**20, 1),
        }

    async def slow_readers(self, guests: list[Identity]) -> dict[str, Any]:
        """The same tables measured alone, then beside sockets that send and never read."""
        args = self.args
        tables = await self.add_open_tables(args.slow_tables, guests)
        self.watched = tables
        origin = time.monotonic() + 1.0
        schedulers = [
            asyncio.ensure_future(
                self.schedule(table, origin + args.period * index / len(tables), args.period)
            )
            for index, table in enumerate(tables)
        ]
        alone = await self.paced_window(tables)
        readers = [
            NonReader(self.bench, tables[index % len(tables)].table_id)
            for index in range(args.slow_readers)
        ]
        running = [
            asyncio.ensure_future(reader.run(seconds=args.period + args.open_seconds + 30))
            for reader in readers
        ]
        await asyncio.sleep(1.0)
        beside = await self.paced_window(tables)
        closed = [r.closed_after for r in readers if r.closed_after is not None]
        for reader in readers:
            reader.close()
        await asyncio.gather(*running, return_exceptions=True)
        for table in tables:
            table.running = False
        for task in schedulers:
            task.cancel()
        await asyncio.gather(*schedulers, return_exceptions=True)
        self.watched = []
        await self.finish_tables(tables)
        p99_alone = alone["move_to_last_seat"]["p99_ms"]
        p99_beside = beside["move_to_last_seat"]["p99_ms"]
        ratio = p99_beside / p99_alone if p99_alone and p99_beside is not None else None
        result = {
            "tables": len(tables),
            "non_readers": args.slow_readers,
            "alone": alone,
            "beside_non_readers": beside,
            "p99_ratio": round(ratio, 2) if ratio is not None else None,
            "non_readers_closed": len(closed),
            "syncs_sent": sum(reader.sent for reader in readers),
            "passed": ratio is not None and ratio <= FLOOR_SLOW_READER_P99_RATIO,
        }
        print(
            f"  {len(tables)} tables alone: p50 {alone['move_to_last_seat']['p50_ms']} ms p99 "
            f"{p99_alone} ms; beside {args.slow_readers} non-readers: p50 "
            f"{beside['move_to_last_seat']['p50_ms']} ms p99 {p99_beside} ms (ratio "
            f"{result['p99_ratio']}); web RSS {alone['web_rss_mb']} → {beside['web_rss_mb']} MB;"
            f" {len(closed)} of {args.slow_readers} non-readers closed by the server",
            flush=True,
        )
        return result

    async def closed_loop(self, users: list[Identity]) -> list[dict[str, Any]]:
        args = self.args
        steps = []
        for count in args.closed_steps:
            self.check_alive()
            pairs = [(users.pop(), users.pop()) for _ in range(count)]
            ids = await self.tables(pairs, stake=CLOSED_STAKE)
            tables = [
                LiveTable(self.bench, table_id, pair, closed_loop=True)
                for table_id, pair in zip(ids, pairs, strict=True)
            ]
            recorder = Recorder()
            self.bench.recorder = recorder  # nothing counts until the window opens
            await asyncio.gather(*(table.open() for table in tables))
            self.watched = tables
            await asyncio.sleep(1.0)  # warm up
            await self.refresh_backends()
            cpu = CpuWindow(
                {
                    **self.cpu_groups,
                    "postgres": lambda: children_of(self.postmaster),
                    "redis": self.redis_pid,
                    # The bench's own clients share the two cores with the server.
                    "clients": lambda: [os.getpid()],
                },
                # The server replaces a connection past its age (CONN_MAX_AGE), often inside a
                # window: all of PostgreSQL's processes count, those that closed included.
                parents={"postgres": self.postmaster},
            )
            with collector_paused():
                start = time.monotonic()
                recorder.window = (start, start + args.closed_seconds)
                cpu.start()
                await asyncio.sleep(args.closed_seconds)
                spent = cpu.stop()
            await asyncio.sleep(0.5)
            self.watched = []
            await self.finish_tables(tables)
            moves = recorder.moves
            per_s = moves / args.closed_seconds
            step = {
                "tables": count,
                "seconds": args.closed_seconds,
                "moves": moves,
                "moves_per_s": round(per_s, 1),
                "ack": latency_summary(recorder.acks),
                "move_to_last_seat": latency_summary(recorder.last_seat),
                "errors": dict(recorder.errors),
                "version_gaps": recorder.gaps,
                "syncs": recorder.syncs,
                "rematches": recorder.rematches,
                "cpu_ms_per_move": {
                    name: round(seconds * 1000 / max(1, moves), 3)
                    for name, seconds in spent.items()
                },
            }
            steps.append(step)
            per_move = step["cpu_ms_per_move"]
            print(
                f"  closed loop {count:4d} tables: {per_s:7.1f} moves/s, ack p50 "
                f"{step['ack']['p50_ms']} p99 {step['ack']['p99_ms']} ms, move→last seat p50 "
                f"{step['move_to_last_seat']['p50_ms']} p99 {step['move_to_last_seat']['p99_ms']}"
                f" ms, errors {sum(recorder.errors.values())}, gaps {recorder.gaps}, syncs "
                f"{recorder.syncs}, rematches {recorder.rematches}, "
                f"CPU ms/move: web {per_move['web']}, PostgreSQL {per_move['postgres']}, "
                f"clients {per_move['clients']}",
                flush=True,
            )
        return steps

    postmaster: int | None = None
    _redis: list[int] = []

    async def refresh_backends(self) -> None:
        """PostgreSQL's postmaster (the parent of the server's backends) and Redis's process."""
        if self.postmaster is None:
            backends = await self.in_db(database_backends)
            self.postmaster = next(filter(None, map(parent_pid, backends)), None)
        if not self._redis:
            import redis

            with contextlib.suppress(Exception):
                info = redis.Redis.from_url(os.environ["REDIS_URL"]).info("server")
                self._redis = [int(info["process_id"])]

    def redis_pid(self) -> list[int]:
        return self._redis


def server_log_problems(log: str) -> dict[str, Any]:
    lines = log.splitlines()
    bad = [
        line for line in lines if "Traceback" in line or re.search(r"\b(ERROR|CRITICAL)\b", line)
    ]
    return {
        "tracebacks": sum("Traceback" in line for line in lines),
        "error_lines": len(bad),
        "warnings": sum(" WARNING " in line for line in lines),
        "first": bad[:10],
    }


async def run_phases(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    from django.db import close_old_connections

    bench = Bench(server.port, args.seed)
    run = Run(args, server, bench)
    result: dict[str, Any] = {}
    watchdog = asyncio.ensure_future(run.watchdog())
    try:
        first_table = await run.in_db(first_new_table)
        # Enough for the largest step, the socket floor, and tables that failed to open.
        need_guests = 2 * max(max(args.open_steps, default=0), (args.sockets + 1) // 2) * 11 // 10
        need_guests += 2 * args.slow_tables
        guests = await run.in_db(make_guests, need_guests, run.tag)
        users = await run.in_db(make_users, 2 * sum(args.closed_steps), run.tag)
        # Echo baselines.
        print("Echo baselines", flush=True)
        echo = await run.echo("/ws/bench/echo/", args.echo_clients, args.echo_seconds)
        print(
            f"  echo:       {echo['round_trips_per_s']:8.1f} round trips/s, p50 "
            f"{echo['p50_ms']} ms, p99 {echo['p99_ms']} ms",
            flush=True,
        )
        group = await run.echo("/ws/bench/group/", args.echo_clients, args.echo_seconds)
        print(
            f"  group echo: {group['round_trips_per_s']:8.1f} round trips/s, p50 "
            f"{group['p50_ms']} ms, p99 {group['p99_ms']} ms",
            flush=True,
        )
        result["echo"] = echo
        result["group_echo"] = group
        print(f"Human pace, open loop: one move per table every {args.period:g} s", flush=True)
        result["open_loop"] = await run.open_loop(guests)
        print("Closed loop: every seat moves as soon as it is to act", flush=True)
        result["closed_loop"] = await run.closed_loop(users)
        if args.slow_readers:
            print(
                f"Slow readers: {args.slow_readers} sockets that send sync 8/s and never read",
                flush=True,
            )
            result["slow_readers"] = await run.slow_readers(guests)
        run.check_alive()
        print("After the run", flush=True)
        result["after"] = {
            "matches": await run.in_db(end_leftovers, first_table),
            "audit_coins": await run.in_db(audit_coins),
            "hidden_cards": await run.in_db(hidden_card_scan, bench.frames),
            "socket_closes": dict(bench.closes),
        }
    finally:
        watchdog.cancel()
        await run.in_db(close_old_connections)
        run.db.shutdown(wait=True)
    return result


# --- The summary ----------------------------------------------------------------------------------


def floors(result: dict[str, Any]) -> list[dict[str, Any]]:
    checks = []
    echo = result["echo"]["round_trips_per_s"]
    closed = result["closed_loop"]
    best = max(closed, key=lambda step: step["moves_per_s"]) if closed else None
    if best is not None:
        ratio = best["moves_per_s"] / echo if echo else 0.0
        checks.append(
            {
                "floor": f"closed-loop moves/s >= {FLOOR_MOVES_PER_ECHO} x echo round trips/s",
                "value": (
                    f"{best['moves_per_s']} / {echo} = {ratio:.3f} (at {best['tables']} tables)"
                ),
                "passed": ratio >= FLOOR_MOVES_PER_ECHO,
            }
        )
    open_loop = result["open_loop"]
    checks.append(
        {
            "floor": f"capacity >= {FLOOR_CAPACITY_TABLES} tables at p99 move→last seat "
            f"<= {FLOOR_P99_MS:g} ms",
            "value": f"{open_loop['capacity_tables']} tables"
            + (
                " (stepping stopped by the time budget)"
                if open_loop["stopped_by_time_budget"]
                else ""
            ),
            "passed": open_loop["capacity_tables"] >= FLOOR_CAPACITY_TABLES,
        }
    )
    sockets = open_loop["sockets"]
    checks.append(
        {
            "floor": f"{FLOOR_SOCKETS} sockets connect without a refusal or a dropped handshake",
            "value": f"{sockets['peak']} live at once, {sockets['refused']} refused, "
            f"{sockets['dropped']} dropped",
            "passed": sockets["peak"] >= sockets["wanted"]
            and not sockets["refused"]
            and not sockets["dropped"],
        }
    )
    slow = result.get("slow_readers")
    if slow:
        checks.append(
            {
                "floor": f"{slow['non_readers']} non-reading sockets keep the other tables' p99 "
                f"within {FLOOR_SLOW_READER_P99_RATIO:g}x",
                "value": f"{slow['alone']['move_to_last_seat']['p99_ms']} → "
                f"{slow['beside_non_readers']['move_to_last_seat']['p99_ms']} ms "
                f"(x{slow['p99_ratio']}) at {slow['tables']} tables",
                "passed": slow["passed"],
            }
        )
    memory = open_loop["memory"]
    if memory["tables"]:
        checks.append(
            {
                "floor": f"<= {FLOOR_KB_PER_TABLE:g} KB of server memory per live table",
                "value": f"{memory['kb_per_table']} KB (at {memory['tables']} tables)",
                "passed": memory["kb_per_table"] <= FLOOR_KB_PER_TABLE,
            }
        )
    return checks


def ratios(result: dict[str, Any]) -> dict[str, Any]:
    echo = result["echo"]
    closed = result["closed_loop"]
    if not closed:
        return {}
    best = max(closed, key=lambda step: step["moves_per_s"])
    per_echo = echo["web_cpu_ms_per_round_trip"]
    per_move = best["cpu_ms_per_move"]["web"]
    return {
        "closed_moves_per_echo_round_trip": round(
            best["moves_per_s"] / echo["round_trips_per_s"], 3
        ),
        "web_cpu_ms_per_move": per_move,
        "web_cpu_ms_per_echo": per_echo,
        "cpu_per_move_over_per_echo": round(per_move / per_echo, 1) if per_echo else None,
        "rss_kb_per_live_table": result["open_loop"]["memory"]["kb_per_table"],
        "rss_kb_per_added_table": result["open_loop"]["memory"]["kb_per_added_table"],
    }


def after_checks(result: dict[str, Any], log: dict[str, Any]) -> list[dict[str, Any]]:
    after = result["after"]
    matches = after["matches"]
    return [
        {
            "check": "every match finished or cleanly ended",
            "value": matches,
            "passed": not matches.get("playing"),
        },
        {
            "check": "audit_coins clean",
            "value": after["audit_coins"]["output"].splitlines()[-1:],
            "passed": after["audit_coins"]["ok"],
        },
        {
            "check": "no hidden card in any frame received",
            "value": f"{after['hidden_cards']['frames_scanned']} frames of "
            f"{after['hidden_cards']['matches']} matches, "
            f"{after['hidden_cards']['leak_count']} leaks",
            "passed": after["hidden_cards"]["leak_count"] == 0,
        },
        {
            "check": "no exception or error in the server logs",
            "value": f"{log['tracebacks']} tracebacks, {log['error_lines']} error lines",
            "passed": log["error_lines"] == 0,
        },
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--closed-steps", type=int, nargs="*", default=[10, 50, 200])
    parser.add_argument("--closed-seconds", type=float, default=8.0)
    parser.add_argument("--open-steps", type=int, nargs="*", default=[100, 250, 500, 1000, 2000])
    parser.add_argument("--open-seconds", type=float, default=9.0)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument(
        "--sockets", type=int, default=FLOOR_SOCKETS, help="sockets that must connect at once"
    )
    parser.add_argument(
        "--open-budget",
        type=float,
        default=150.0,
        help="seconds by which the open loop ends: no step starts that would end later, "
        "judged by the last step's connection rate (default 150)",
    )
    parser.add_argument("--slow-tables", type=int, default=100)
    parser.add_argument(
        "--slow-readers", type=int, default=10, help="non-reading sockets (0: skip the phase)"
    )
    parser.add_argument("--echo-clients", type=int, default=32)
    parser.add_argument("--echo-seconds", type=float, default=4.0)
    parser.add_argument(
        "--web-processes",
        type=int,
        default=None,
        help="Daphne processes (default: serve.py's, one per core)",
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--output", type=Path, default=RESULTS / "latest.json")
    args = parser.parse_args(argv)

    started = time.monotonic()
    load_before = load_average()
    var_dir = tempfile.mkdtemp(prefix="joker-bench-")
    configure_environment(var_dir)
    ensure_database(os.environ["DATABASE_URL"])
    setup_django()
    from django.core.management import call_command

    call_command("migrate_all", verbosity=0)
    leftovers = end_leftovers()
    if leftovers["cancelled_by_bench"]:
        print(f"Ended {leftovers['cancelled_by_bench']} matches an interrupted run left.")
    log_path = args.output.with_name(args.output.stem + "-server.log")
    server = Server(free_port(), log_path, args.web_processes)

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    status = 0
    result: dict[str, Any] = {}
    try:
        server.start()
        print(
            f"Server: {', '.join(f'{n} {p}' for n, p in server.pids.items())} on port "
            f"{server.port}; load average {load_before}",
            flush=True,
        )
        time.sleep(1.0)
        result = asyncio.run(run_phases(args, server))
    except KeyboardInterrupt:
        print("Interrupted: stopping the server.", flush=True)
        status = 130
    except Exception as error:  # the harness or the server broke: say so, stop everything
        import traceback

        traceback.print_exc()
        print(f"The bench broke: {error}", flush=True)
        status = 1
    finally:
        code = server.stop()
        print(f"Server stopped (serve.py exit code {code}).", flush=True)
    if status:
        return status

    log = server_log_problems(server.log())
    summary = {
        "command": "make bench (python -m bench.load " + " ".join(argv or sys.argv[1:]) + ")",
        "machine": {
            "cores": os.cpu_count(),
            "cpu": cpu_model(),
            "load_average_before": load_before,
            "load_average_after": load_average(),
        },
        "server": {"web_processes": len(server.web_pids), "settings": "config.settings.bench"},
        **result,
        "ratios": ratios(result),
        "server_log": log,
        "seconds": round(time.monotonic() - started, 1),
    }
    summary["floors"] = floors(result)
    summary["checks"] = after_checks(result, log)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(summary, indent=2, default=str) + "\n")
    print_summary(summary)
    print(f"Wrote {args.output} ({summary['seconds']} s in all).")
    return 0


def cpu_model() -> str:
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


def print_summary(summary: dict[str, Any]) -> None:
    r = summary["ratios"]
    print("Summary")
    if r:
        print(
            f"  closed-loop moves/s ÷ echo round trips/s: {r['closed_moves_per_echo_round_trip']}"
        )
        print(
            f"  web CPU per move {r['web_cpu_ms_per_move']} ms ÷ per echo "
            f"{r['web_cpu_ms_per_echo']} ms = {r['cpu_per_move_over_per_echo']}"
        )
        print(
            f"  web RSS per live table: {r['rss_kb_per_live_table']} KB "
            f"({r['rss_kb_per_added_table']} KB for each table past the first step)"
        )
    for check in summary["floors"]:
        print(f"  [{'PASS' if check['passed'] else 'FAIL'}] {check['floor']}: {check['value']}")
    for check in summary["checks"]:
        print(f"  [{'PASS' if check['passed'] else 'FAIL'}] {check['check']}: {check['value']}")


if __name__ == "__main__":
    sys.exit(main())
