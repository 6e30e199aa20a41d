"""The site's own settings, read by config/settings/base.py: what a game site decides (coins,
tables and clocks, live play, the hooks between the apps, chat and cool-downs, the ladder) as
opposed to how Django, the database and Redis are wired. Every value comes from the
environment with an embedded default."""

from __future__ import annotations

import os

from .env import env_list

# --- Domino Coin ------------------------------------------------------------------------------

COIN_SIGNUP_GRANT = int(os.environ.get("COIN_SIGNUP_GRANT", 1000))
# Once a day a player below the threshold may claim the top-up (enough for one top-stake table).
COIN_DAILY_TOPUP_AMOUNT = int(os.environ.get("COIN_DAILY_TOPUP_AMOUNT", 250))
COIN_DAILY_TOPUP_BELOW = int(os.environ.get("COIN_DAILY_TOPUP_BELOW", 250))

# --- Tables and live play (site rules, docs/rules/README.md § 0.6) ------------------------------

TABLE_IDLE_MINUTES = int(os.environ.get("TABLE_IDLE_MINUTES", 30))
# Speeds (docs/protocol.md § Clocks; games.services.clock.speed_limits): each table's turn clock
# and each seat's bank for the whole match, spent once the turn clock has run out and while the
# table waits on an absent seat. Normal keeps the names of the site's one clock before speeds
# (TURN_SECONDS; ABSENCE_GRACE_SECONDS is still read for its bank).
FAST_TURN_SECONDS = float(os.environ.get("FAST_TURN_SECONDS", 12))
FAST_BANK_SECONDS = float(os.environ.get("FAST_BANK_SECONDS", 30))
TURN_SECONDS = float(os.environ.get("TURN_SECONDS", 30))
BANK_SECONDS = float(os.environ.get("BANK_SECONDS", os.environ.get("ABSENCE_GRACE_SECONDS", 90)))
RELAXED_TURN_SECONDS = float(os.environ.get("RELAXED_TURN_SECONDS", 75))
RELAXED_BANK_SECONDS = float(os.environ.get("RELAXED_BANK_SECONDS", 180))
# A player whose socket pinged within this many seconds shows as online to friends.
ONLINE_SECONDS = int(os.environ.get("ONLINE_SECONDS", 90))

# --- Live play over websockets (issue 6; docs/protocol.md § Limits, § Clocks) -----------------

# The table socket's guards: the largest frame, the rate (token bucket) and bad messages allowed.
LIVE_MAX_MESSAGE_BYTES = int(os.environ.get("LIVE_MAX_MESSAGE_BYTES", 4096))
LIVE_RATE_PER_SECOND = float(os.environ.get("LIVE_RATE_PER_SECOND", 10))
LIVE_RATE_BURST = int(os.environ.get("LIVE_RATE_BURST", 30))
LIVE_MAX_BAD_MESSAGES = int(os.environ.get("LIVE_MAX_BAD_MESSAGES", 10))
# What a socket may have waiting for its client beyond what the kernel took (core/transport.py):
# past it the socket closes with 4013. A table's state is a few KB, a lobby page tens of KB.
LIVE_SEND_BUFFER_BYTES = int(os.environ.get("LIVE_SEND_BUFFER_BYTES", 256 * 1024))
# A socket's ``sync`` is answered at most once this often; sooner ones share the next answer
# (core/websocket.py). The protocol's backoff starts at 0.5 s ± 50 %.
LIVE_SYNC_SECONDS = float(os.environ.get("LIVE_SYNC_SECONDS", 1.0))
# Presence: each server process beats this often for all its sockets; a process whose beat is
# older than the stale window is dead and the sweep removes its sockets (docs/protocol.md § How
# presence survives a crash). Every few beats the process re-reads all its sockets' sessions.
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", 10))
LIVE_SESSION_CHECK_BEATS = int(os.environ.get("LIVE_SESSION_CHECK_BEATS", 3))
LIVE_CONNECTION_STALE_SECONDS = float(os.environ.get("LIVE_CONNECTION_STALE_SECONDS", 35))
# The sweep is the site's clock: due turns and absences are found by their deadline.
LIVE_SWEEP_SECONDS = float(os.environ.get("LIVE_SWEEP_SECONDS", 1))
# A computer seat moves this long after its turn comes, so a person can follow the trick.
BOT_MOVE_DELAY_SECONDS = float(os.environ.get("BOT_MOVE_DELAY_SECONDS", 0.8))
# Threads for the sockets' database work in each server process; a table waiting on its lock
# holds one of them, never the others. SQLite writes one at a time anyway. 0: no pool, Django's
# one shared thread. Eight a process moved as many moves a second as sixteen on this 2-core
# machine, with ~5 KB less memory per live table at 1,000 tables (make bench).
LIVE_DB_THREADS = int(os.environ.get("LIVE_DB_THREADS", 8 if os.environ.get("DATABASE_URL") else 2))
# Tasks enqueued (by name) when a match finishes, after the commit that ended it.
MATCH_FINISHED_TASKS: list[str] = env_list("MATCH_FINISHED_TASKS", "ladder.tasks.rate_match")
# Turn clocks run out this many times in a row: the seat abandoned the match
# (docs/rules/README.md § 0.6).
LIVE_TIMEOUTS_TO_ABANDON = int(os.environ.get("LIVE_TIMEOUTS_TO_ABANDON", 3))

# The load bench's echo sockets (bench/echo.py): only config/settings/bench.py turns them on.
BENCH_ECHO = False

# The lobby sends and shows this many tables at a time, newest first, with the count of all.
LOBBY_PAGE_SIZE = int(os.environ.get("LOBBY_PAGE_SIZE", 50))
# Played matches per page of a history list (/matches/).
MATCHES_PAGE_SIZE = int(os.environ.get("MATCHES_PAGE_SIZE", 25))
# What other apps add to a match page (/matches/<id>/), by name: each is called with the request,
# the match and its seats and returns HTML (the ladder's rating changes), so games imports none.
MATCH_PAGE_PANELS: list[str] = env_list(
    "MATCH_PAGE_PANELS", "ladder.views.match_panel,social.views.match_chat_panel"
)
# Hooks (core.hooks; CONTRIBUTING.md § Hooks): what the apps above accounts and games add, by
# dotted path, so that neither imports them. Signatures: accounts/hooks.py, games/hooks.py.
ACCOUNTS_REQUEST_CHECKS = ["social.services.blocks.require_not_blocked"]
ACCOUNTS_PLAYER_DEACTIVATED = ["games.services.departures.seats_release"]
ACCOUNTS_FRIENDS_PAGE_CONTEXT = ["social.selectors.friends_page_context"]
GAMES_JOIN_CHECKS = ["social.services.cooldowns.require_may_sit"]
GAMES_REMATCH_CHECKS = ["tournaments.hooks.rematch_check"]
GAMES_PLAYERS_AVOIDING = ["social.selectors.players_blocking"]
GAMES_PLAYERS_AVOIDED = ["social.selectors.players_blocked_by"]
GAMES_PLAYERS_APART = ["social.selectors.players_apart"]
GAMES_PLAYER_RATINGS = ["ladder.selectors.pool_ratings"]
GAMES_MATCH_STARTED: list[str] = []
GAMES_SEAT_FORFEITED = [
    "social.services.cooldowns.forfeit_recorded",
    "tournaments.hooks.seat_forfeited",
]
GAMES_MATCH_ENDED = ["tournaments.hooks.match_ended"]
GAMES_SOCKET_OPENED = ["social.services.cooldowns.lapse_clear"]
GAMES_SOCKETS_LOST = ["social.services.cooldowns.server_lost"]
GAMES_TABLE_SOCKET_HANDLERS = ["games.entropy_socket.TABLE_ENTROPY", "social.sockets.TABLE_CHAT"]
GAMES_LOW_COMPLETION = ["social.selectors.low_completion"]
GAMES_LOBBY_PAGE_CONTEXT = ["social.selectors.lobby_page_context"]
GAMES_TABLE_PAGE_CONTEXT = [
    "social.selectors.table_page_context",
    "tournaments.hooks.table_page_context",
]
LADDER_PROFILE_PAGE_CONTEXT = ["tournaments.page_selectors.profile_page_context"]

# --- Chat, blocking, reputation and cool-downs (issue 17; docs/protocol.md § chat) -------------

# Free text in the table chat: at most this long, and this many messages per window per player.
CHAT_MAX_LENGTH = int(os.environ.get("CHAT_MAX_LENGTH", 200))
CHAT_RATE_COUNT = int(os.environ.get("CHAT_RATE_COUNT", 5))
CHAT_RATE_SECONDS = int(os.environ.get("CHAT_RATE_SECONDS", 10))
# A socket opening a table gets at most this many of its latest chat lines.
CHAT_HISTORY_LIMIT = int(os.environ.get("CHAT_HISTORY_LIMIT", 100))
# A player who forfeits this many rated or stake matches (leaving or abandoning) within the window
# may not sit for the next step of COOLDOWN_STEPS_MINUTES; a cool-down within the last
# COOLDOWN_ESCALATION_DAYS makes the next one a step longer.
COOLDOWN_QUITS = int(os.environ.get("COOLDOWN_QUITS", 3))
COOLDOWN_WINDOW_HOURS = float(os.environ.get("COOLDOWN_WINDOW_HOURS", 24))
COOLDOWN_STEPS_MINUTES: list[int] = [
    int(step) for step in env_list("COOLDOWN_STEPS_MINUTES", "10,60,1440")
]
COOLDOWN_ESCALATION_DAYS = float(os.environ.get("COOLDOWN_ESCALATION_DAYS", 7))
# Profiles show forfeits of this many days; a completion rate below the threshold (once a player
# has started REPUTATION_MIN_MATCHES matches) gets a badge beside the name.
REPUTATION_WINDOW_DAYS = int(os.environ.get("REPUTATION_WINDOW_DAYS", 30))
REPUTATION_LOW_COMPLETION = float(os.environ.get("REPUTATION_LOW_COMPLETION", 0.8))
REPUTATION_MIN_MATCHES = int(os.environ.get("REPUTATION_MIN_MATCHES", 3))

# --- The ladder (issue 14; docs/ladder.md) ---------------------------------------------------

# A rating is provisional ("1500?", listed after the ranked players, unranked) until this many
# rated matches.
LADDER_PROVISIONAL_MATCHES = int(os.environ.get("LADDER_PROVISIONAL_MATCHES", 10))
# Leaderboards list players whose last rated match in that game is this recent.
LADDER_ACTIVE_DAYS = int(os.environ.get("LADDER_ACTIVE_DAYS", 30))
LADDER_PAGE_SIZE = int(os.environ.get("LADDER_PAGE_SIZE", 50))
# The sweep rates finished rated matches left unrated (a lost task, a killed worker) once they
# ended this long ago, so it does not race the task that is on its way.
LADDER_SWEEP_SECONDS = float(os.environ.get("LADDER_SWEEP_SECONDS", 60))
LADDER_SWEEP_AFTER_SECONDS = float(os.environ.get("LADDER_SWEEP_AFTER_SECONDS", 30))
# Seasons (docs/ladder.md § Seasons): calendar months in UTC per season; the top places (ranks,
# so a tie shares a place) that get a badge; how often beat closes the seasons that ended.
LADDER_SEASON_MONTHS = int(os.environ.get("LADDER_SEASON_MONTHS", 1))
LADDER_SEASON_BADGES = int(os.environ.get("LADDER_SEASON_BADGES", 3))
LADDER_SEASON_CLOSE_SECONDS = float(os.environ.get("LADDER_SEASON_CLOSE_SECONDS", 60))

# --- Quick play (issue 28; games.services.pools; docs/protocol.md § Quick play) ---------------

# The pools: every game × speed × these stakes (0: free) × rated or casual.
POOL_STAKES: list[int] = [int(stake) for stake in env_list("POOL_STAKES", "0,25,100")]
# The rating gap a group may span: this much at once, this much more per second waited, at
# most this much (the ladder's displayed rating points).
POOL_GAP_START = float(os.environ.get("POOL_GAP_START", 100))
POOL_GAP_PER_SECOND = float(os.environ.get("POOL_GAP_PER_SECOND", 10))
POOL_GAP_MOST = float(os.environ.get("POOL_GAP_MOST", 600))
# The fill times a player may choose for computers in casual pools, in seconds.
POOL_FILL_SECONDS: list[int] = [int(s) for s in env_list("POOL_FILL_SECONDS", "10,20,30,60")]
# Paired players have this long to open the table; then the table is called off, those who
# came go back to the head of the pool and the others leave it. No coin moves before.
POOL_CONNECT_SECONDS = float(os.environ.get("POOL_CONNECT_SECONDS", 15))
# The lobbies hear the pools' counts at most this often (when they changed).
POOL_COUNTS_SECONDS = float(os.environ.get("POOL_COUNTS_SECONDS", 5))
# The pairing pass (beat), and the most tickets of one pool it looks at in one pass.
POOL_SWEEP_SECONDS = float(os.environ.get("POOL_SWEEP_SECONDS", 1))
POOL_BATCH = int(os.environ.get("POOL_BATCH", 400))

# Player entropy (docs/fairness.md § Player entropy): a full table waits this long at most for
# the seats that committed to a value to reveal it; a seat whose value is not in by then gets the
# server's value for it.
ENTROPY_REVEAL_SECONDS = float(os.environ.get("ENTROPY_REVEAL_SECONDS", 5))

# The review of a player's decisions (docs/review.md): the strong search's worlds per decision,
# the new reviews a player may ask for a day, and how old a pending review is when the sweep
# makes it itself (its task lost).
REVIEW_WORLDS = int(os.environ.get("REVIEW_WORLDS", 24))
REVIEW_PER_DAY = int(os.environ.get("REVIEW_PER_DAY", 5))
REVIEW_LATE_SECONDS = float(os.environ.get("REVIEW_LATE_SECONDS", 600))

# --- Tournaments (docs/tournaments.md) ------------------------------------------------------------
# An arena's length, in minutes, and a Swiss event's most rounds, whoever makes the event.
TOURNAMENT_ARENA_MINUTES = (
    int(os.environ.get("TOURNAMENT_ARENA_MIN_MINUTES", 5)),
    int(os.environ.get("TOURNAMENT_ARENA_MAX_MINUTES", 240)),
)
TOURNAMENT_SWISS_MAX_ROUNDS = int(os.environ.get("TOURNAMENT_SWISS_MAX_ROUNDS", 15))
TOURNAMENT_MAX_ENTRY_FEE = int(os.environ.get("TOURNAMENT_MAX_ENTRY_FEE", 1000))
TOURNAMENT_MAX_PLAYERS = int(os.environ.get("TOURNAMENT_MAX_PLAYERS", 1000))
# A registered player's own (private) events: how many to come at once, how far ahead, how big.
TOURNAMENT_PLAYER_PENDING = int(os.environ.get("TOURNAMENT_PLAYER_PENDING", 2))
TOURNAMENT_PLAYER_AHEAD_DAYS = int(os.environ.get("TOURNAMENT_PLAYER_AHEAD_DAYS", 14))
TOURNAMENT_PLAYER_MAX_PLAYERS = int(os.environ.get("TOURNAMENT_PLAYER_MAX_PLAYERS", 64))
# How far ahead beat creates a schedule's events (they are listed as upcoming from then on).
TOURNAMENT_SCHEDULE_AHEAD_HOURS = float(os.environ.get("TOURNAMENT_SCHEDULE_AHEAD_HOURS", 24))
# An arena pass makes its tables in chunks on this many threads of the worker (1: in turn).
TOURNAMENT_SEAT_THREADS = int(os.environ.get("TOURNAMENT_SEAT_THREADS", 4))
# The standings a tournament's sockets hear: at most one frame this often (the tick sends what
# the pause held back), with this many rows from the top (the page lists the rest).
TOURNAMENT_STANDINGS_SECONDS = float(os.environ.get("TOURNAMENT_STANDINGS_SECONDS", 1))
TOURNAMENT_STANDINGS_TOP = int(os.environ.get("TOURNAMENT_STANDINGS_TOP", 50))
# The tick counts a finished tournament table only this long after its match ended: before
# that, the count task enqueued by the match's end is doing it.
TOURNAMENT_COUNT_GRACE_SECONDS = float(os.environ.get("TOURNAMENT_COUNT_GRACE_SECONDS", 15))
