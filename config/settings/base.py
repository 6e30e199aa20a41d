"""Settings shared by every mode, read from the environment with embedded defaults.

With no variables set the site runs on one machine with nothing else installed:
SQLite, the in-memory channel layer and Celery's filesystem broker. ``DATABASE_URL``
and ``REDIS_URL`` switch to PostgreSQL and Redis (channel layer, Celery broker, cache).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab

from core import priorities

from .env import env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


# --- Core -------------------------------------------------------------------------------------

SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "csp",
    "allauth",
    "allauth.account",
    "core",
    "accounts",
    "games",
    "ladder",
    "social",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PlayerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "csp.middleware.CSPMiddleware",
    "core.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.current_player",
                "tournaments.following.following",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database ---------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# PostgreSQL's pool for the pages, per process (below), and how long a connection of a thread's
# own is kept (the sockets' threads; without the pool, every thread's).
DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", 4))
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", 5))
DB_CONN_MAX_AGE = int(os.environ.get("DB_CONN_MAX_AGE", 60))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=DB_CONN_MAX_AGE)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # No statement waits on a row lock for ever: a move on one table that cannot get its
        # lock in time is refused ("busy") instead of holding a socket thread (LIVE_DB_THREADS).
        _lock_timeout_ms = int(os.environ.get("DB_LOCK_TIMEOUT_MS", 5000))
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
            f"-c lock_timeout={_lock_timeout_ms}"
        )
        # A move's statements are prepared from their first use (core.rows.prepared_cursor, the
        # only cursors that bind on the server: the ORM's never prepare). Behind a pooler in
        # transaction mode, PgBouncer needs max_prepared_statements (1.21 or newer).
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 0
        # The connections a process holds (docs/deploy.md § PostgreSQL connections,
        # core/connections.py):
        # under ASGI every page runs on a thread of its own, and each thread's connection
        # outlived it. Pages take one from a pool of DB_POOL_SIZE a process and wait at most
        # DB_POOL_TIMEOUT seconds for it (then the site's 503); the sockets' threads keep
        # their own (LIVE_DB_THREADS); the worker's pool is as large as its threads.
        # DB_POOL_SIZE=0: no pool, a connection per thread. Django's pool needs CONN_MAX_AGE 0.
        if DB_POOL_SIZE > 0:
            DATABASES["default"]["CONN_MAX_AGE"] = 0
            # The pool checks a connection as it hands it out: one left broken by a restart of
            # PostgreSQL is replaced, not given to a page.
            DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
            DATABASES["default"]["OPTIONS"]["pool"] = {
                "min_size": 0,
                "max_size": DB_POOL_SIZE,
                "timeout": DB_POOL_TIMEOUT,
                # A failed connection attempt is tried again (after 1 s, 2 s) for 5 s, then the
                # next page that waits starts anew. With psycopg_pool's 5 minutes the pause
                # between tries doubles on through a long outage, to a minute and more, and
                # pages would wait out the last one after PostgreSQL was back.
                "reconnect_timeout": 5.0,
            }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of one
            # failing with "database is locked" halfway through a transaction; WAL lets the
            # other processes (Daphne, the worker, beat) read while one of them writes.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

# An unavailable database is logged once per episode in each process (core/outage.py); an episode
# ends this long after its last failure, so the connections that broke during it and fail at
# their next use, once the database is back, do not start another.
DATABASE_OUTAGE_QUIET_SECONDS = float(os.environ.get("DATABASE_OUTAGE_QUIET_SECONDS", 30))

# --- Redis: channel layer, cache, Celery broker -------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "core.layers.RedisLayer",
            "CONFIG": {
                # A socket waits on Redis in 5-second blocking reads; redis-py 8's default socket
                # timeout is also 5 s, so an idle socket's read would time out and drop it.
                # The pool serves every socket of a process (group_add on connect, sends): the
                # library's default of 100 connections refused sockets past a few hundred.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", 1000)),
                    }
                ],
                "prefix": os.environ.get("CHANNELS_PREFIX", "asgi"),
                # Every socket of a process shares one inbox on Redis (core/layers.py reads it
                # in one round trip a message); past its capacity a send is dropped. The
                # library's 100 dropped table frames under load (make bench: "over capacity").
                "capacity": int(os.environ.get("CHANNELS_CAPACITY", 10000)),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "joker"),
        }
    }
else:
    # The embedded default: channels-lite, a channel layer kept in a SQLite file of its own, so
    # that what the Celery worker publishes (an automatic move, a forfeit, a computer's move)
    # reaches the pages Daphne serves. The in-memory layer cannot cross processes; the test
    # settings use it only where one process is guaranteed.
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["channels"] = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(VAR_DIR / "channels.sqlite3"),
        "OPTIONS": {
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;"
            ),
            "timeout": 20,
        },
    }
    DATABASE_ROUTERS = ["channels_lite.router.ChannelsRouter"]
    INSTALLED_APPS.append("channels_lite")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_lite.layers.core.SQLiteChannelLayer",
            "CONFIG": {
                "database": "channels",
                # How often a process looks for new messages: the added latency, on average half.
                "polling_interval": float(os.environ.get("CHANNELS_POLL_SECONDS", 0.05)),
                # A process's unread messages, past which a send drops (100 left pages stale).
                "capacity": int(os.environ.get("CHANNELS_CAPACITY", 10000)),
            },
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -----------------------------------------------------------------------------------

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
else:
    # Kombu's SQLAlchemy transport on a SQLite file: a broker that needs no server. (Its
    # filesystem transport lets a worker read a message file before it is written, and the
    # worker dies on the half-read JSON.)
    CELERY_BROKER_URL = f"sqla+sqlite:///{VAR_DIR / 'celery' / 'broker.sqlite3'}"
    (VAR_DIR / "celery").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {"connect_args": {"timeout": 20}}  # for create_engine()
CELERY_TASK_IGNORE_RESULT = True
# Each task's priority (core/priorities.py) orders Redis's queue. (A worker reserving one
# message a thread, CELERY_WORKER_PREFETCH_MULTIPLIER = 1, was tried and dropped: kombu's Redis
# ack fails during an outage before it frees the message's slot, and with eight slots a Redis
# restart could leave the worker reserving nothing more: no sweeps, no forfeits.)
CELERY_TASK_ROUTES = priorities.task_routes()
# The worker sizes its database pool to its threads before its first task (core/connections.py).
CELERY_IMPORTS = ["core.connections"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Beat keeps its schedule in a file; its folder is made here whatever the database and broker,
# since beat cannot start without it (and dies quietly inside a worker when it is missing).
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celery" / "beat-schedule")
Path(CELERY_BEAT_SCHEDULE_FILENAME).parent.mkdir(parents=True, exist_ok=True)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "expire-idle-tables": {"task": "games.tasks.expire_idle_tables", "schedule": 60.0},
    # The reviews of players' decisions whose task was lost.
    "reviews-sweep": {
        "task": "games.tasks.reviews_sweep",
        "schedule": float(os.environ.get("REVIEW_SWEEP_SECONDS", 60)),
    },
    # Live play: turn clocks, absence banks, computer moves whose task was lost, dead servers.
    "live-sweep": {
        "task": "games.tasks.live_sweep",
        "schedule": float(os.environ.get("LIVE_SWEEP_SECONDS", 1)),
    },
    # Quick play: pairing in every pool with players waiting, and tables nobody came to.
    "pools-sweep": {
        "task": "games.tasks.pools_sweep",
        "schedule": float(os.environ.get("POOL_SWEEP_SECONDS", 1)),
    },
    # The ladder: finished rated matches whose rating task was lost.
    "ladder-sweep": {
        "task": "ladder.tasks.rate_unrated_matches",
        "schedule": float(os.environ.get("LADDER_SWEEP_SECONDS", 60)),
    },
    # The ladder: each game's seasons, their standings kept once at the end (docs/ladder.md).
    "ladder-season": {
        "task": "ladder.tasks.close_seasons",
        "schedule": float(os.environ.get("LADDER_SEASON_CLOSE_SECONDS", 60)),
    },
    # Tournaments: starts, arena pairings, Swiss rounds, ends, and counts whose task was lost.
    "tournaments-tick": {
        "task": "tournaments.tasks.tick",
        "schedule": float(os.environ.get("TOURNAMENT_TICK_SECONDS", 2)),
    },
    "clear-expired-sessions": {
        "task": "accounts.tasks.clear_expired_sessions",
        "schedule": crontab(minute=17, hour=4),
    },
}

# --- Accounts (django-allauth) ----------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
# A player's name: 3–24 letters of any script, digits, "_" or "-" (accounts.validators).
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.USERNAME_VALIDATORS"
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
# The name rule by the name field, and both passwords kept after a sign-up error.
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# Failed logins are limited per account (the key: 5 in 5 minutes); the per-address count is only
# a coarse ceiling, so one client's guesses never lock out the others behind the same proxy.
# The counters live in the cache above.
ACCOUNT_RATE_LIMITS = {
    "login_failed": "5/300s/key,{}/m/ip".format(
        int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE", 20))
    ),
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
# The client's address behind a reverse proxy: how many proxies of ours append to
# X-Forwarded-For, or the one header a proxy of ours sets (docs/deploy.md). Without either,
# the address is the TCP peer's. Login limits and password-table limits both count it.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", 0))
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = os.environ.get("TRUSTED_CLIENT_IP_HEADER") or None
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
LOGIN_URL = "account_login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Joker <noreply@localhost>")

# --- The site's own settings: coins, tables, clocks, live play, hooks, chat, ladder --------------

from .play import *  # noqa: E402, F403

# --- Content-Security-Policy (django-csp) -------------------------------------------------------

# The pages load scripts, styles and images from the site only, with no inline script or style
# (a style set from a script through element.style is allowed: CSP governs markup only), and
# talk to the site's own websockets ('self' covers ws:/wss: of the same host).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Internationalisation ---------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ka", "ქართული"), ("ru", "Русский")]
# Compiled catalogues (.mo) are committed, so running the site needs no system gettext.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise) ----------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Logging ----------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # A connection failure logged with its traceback anywhere becomes the outage's one line.
    "filters": {"database_outage": {"()": "core.outage.OutageLogFilter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["database_outage"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # The database pool's own warnings (each failed connection attempt while PostgreSQL is away,
    # each broken connection it drops): the outage's one line says it all (core/outage.py).
    "loggers": {"psycopg.pool": {"level": "ERROR"}},
}
