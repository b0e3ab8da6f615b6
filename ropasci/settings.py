"""Settings for the ropasci project.

Everything that differs between a laptop and a deployment comes from the
environment (12-factor style). The defaults need nothing running: a SQLite
file next to manage.py and an in-process channel layer.

Environment variables:
    DATABASE_URL    database URL (dj-database-url syntax); default SQLite db.sqlite3
    REDIS_URL       Redis URL for the Channels layer; unset = in-memory layer
    SECRET_KEY      default: generated on first run and kept in SECRET_KEY_FILE
    SECRET_KEY_FILE where the generated key is kept (default .secret_key, not in git)
    DEBUG           off by default (safe to host); "1" turns it on for development
    ALLOWED_HOSTS   comma-separated host names
    SECURE_COOKIES  "1" marks session and CSRF cookies Secure (HTTPS only)
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://ropasci.example
    TRUST_PROXY_HEADERS   "1" trusts X-Forwarded-Proto from the reverse proxy
"""

import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from games.engine.registry import PACKAGES as GAME_PACKAGES

BASE_DIR = Path(__file__).resolve().parent.parent

_FALSE = {"0", "false", "no", "off", ""}


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in _FALSE


def env_at_least(name: str, default, least, kind=float):
    """The number in ``name``, at least ``least``; ``default`` when it is unset or not a number."""
    try:
        return max(least, kind(os.environ.get(name, default)))
    except ValueError:
        return default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_flag("DEBUG", False)


def stored_secret_key(path: Path) -> str:
    """The key in ``path``, or a new random key written there first (mode 0600), so that sessions and
    seat cookies survive restarts without anyone having to set SECRET_KEY."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if len(key) >= 50:
        return key
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key + "\n")
    except OSError as exc:
        raise ImproperlyConfigured(
            f"SECRET_KEY is not set and {path} cannot be written ({exc}): set SECRET_KEY or SECRET_KEY_FILE"
        ) from None
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or stored_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE", "").strip() or BASE_DIR / ".secret_key"))

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Base of the links printed outside a request (``manage.py importlog``), without a trailing slash.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/") or "http://127.0.0.1:8000"
# The course's battleground (games.battleground: the 2021 COMP30024 client's TCP protocol): the port that
# ``python -m ropasci.server`` (``make run``) also listens on, on the same address as the site; 0 turns it off.
# ``manage.py battleground`` runs it on its own instead (a scaled-out site: one battleground process).
BATTLEGROUND_PORT = int(os.environ.get("BATTLEGROUND_PORT", "12360").strip() or 12360)
# Seconds between the OKAYs that ask a client waiting for an opponent whether it is still there.
BATTLEGROUND_KEEPALIVE_SECONDS = float(os.environ.get("BATTLEGROUND_KEEPALIVE_SECONDS", "5").strip() or 5)

INSTALLED_APPS = [
    "daphne",
    "channels",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "games.apps.GamesConfig",
    "players.apps.PlayersConfig",
    "tournaments.apps.TournamentsConfig",
    # Every game package is an app too: its templates/ and static/ (board drawing) are found by Django.
    *GAME_PACKAGES,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "games.runtime.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "games.runtime.middleware.NulRefusalMiddleware",  # before anything reads the database
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.runtime.middleware.RateLimitMiddleware",
    "games.runtime.middleware.OverloadMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp): scripts only from this site's files (no inline script or handler, no
# eval), connections (the game's WebSocket) only to this site, no framing but where a view allows it (the
# replay embed). Inline styles stay allowed: board drawings set sizes and colours in style attributes.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}}

ROOT_URLCONF = "ropasci.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "ropasci.asgi.application"

# Database ---------------------------------------------------------------
# A connection lives as long as its thread (CONN_MAX_AGE) on SQLite: HTTP requests borrow long-lived threads
# (games.runtime.requestthreads), WebSocket consumers share one, so connections are few and reused, and opening one
# each request was a quarter of a small request's CPU. (Django advises CONN_MAX_AGE=0 under ASGI because its
# default gives each request a new thread, whose connection would be left behind.) PostgreSQL uses psycopg's
# pool instead (below), which wants CONN_MAX_AGE=0.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and os.environ.get("DB_POOL_SIZE") != "0":
    # Every request in progress runs its sync code in a thread of its own: without a pool, a few
    # hundred clients at once open more connections than PostgreSQL allows ("too many clients",
    # benchmarks/load.py). psycopg's pool caps them per process (DB_POOL_SIZE) and the rest wait their turn.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": int(os.environ.get("DB_POOL_SIZE", "20") or 20), "timeout": 30}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # the pool checks its connections itself
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for locks instead of failing at once, let readers and the writer
    # work concurrently (WAL), and take the write lock at BEGIN so that
    # concurrent writers queue up instead of deadlocking.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    # Tests use a file, not SQLite's shared-cache memory database, whose table locks fail at once
    # ("database table is locked") where a file database waits (timeout above).
    DATABASES["default"]["TEST"] = {"NAME": os.path.join(tempfile.gettempdir(), f"ropasci-test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channels ----------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# redis-py's timeouts, set here rather than left to its defaults (8.0 made reads time out after 5 s where 7.x
# waited forever). A channel layer's receive is a blocking read of up to 5 s (channels-redis's brpop_timeout):
# its socket must wait longer, or every idle WebSocket closes with 1011 and every idle bot worker exits.
# The cache's commands answer at once: a few seconds bound them when Redis hangs.
REDIS_CHANNEL_TIMEOUTS = {"socket_timeout": 15, "socket_connect_timeout": 5}
REDIS_CACHE_TIMEOUTS = {"socket_timeout": 5, "socket_connect_timeout": 5}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, **REDIS_CHANNEL_TIMEOUTS}]},
        }
    }
else:
    # Only correct for a single server process (Channels' in-memory layer, swept once a second).
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.live.channellayer.InProcessChannelLayer"}}

# Rate limits (games.guard.ratelimit): RATE_LIMITS scales them (0: off); TRUSTED_PROXIES is the number of reverse
# proxies in front whose X-Forwarded-For entries name the client. The counts have a cache of their own
# ("ratelimit"), so that nothing else stored in a cache can push them out: in one process a memory cache far
# larger than the keys a client can make (an address, or a seat that exists), with Redis the same Redis,
# shared by every process. LONG_POLLS_PER_SEAT / _PER_ADDRESS cap the ?wait_turn requests held open at once
# in one process (games.api.longpoll).
RATE_LIMITS = float(os.environ.get("RATE_LIMITS", "1") or 1)
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0") or 0)
LONG_POLLS_PER_SEAT = int(os.environ.get("LONG_POLLS_PER_SEAT", "0") or 0) or 4
LONG_POLLS_PER_ADDRESS = int(os.environ.get("LONG_POLLS_PER_ADDRESS")  # its old name: LONG_POLLS_PER_CLIENT
                             or os.environ.get("LONG_POLLS_PER_CLIENT") or 0) or 256
SOCKETS_PER_CLIENT = int(os.environ.get("SOCKETS_PER_CLIENT", "0") or 0) or 32  # WebSockets per address per process
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "ropasci", "OPTIONS": REDIS_CACHE_TIMEOUTS},
              "ratelimit": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                            "KEY_PREFIX": "ropasci-rl", "OPTIONS": REDIS_CACHE_TIMEOUTS}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
              "ratelimit": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit",
                            "OPTIONS": {"MAX_ENTRIES": 100_000}}}

# Bots ---------------------------------------------------------------------
# Seconds of search per move for the strong bot (default: the bot's own, at most 1 s).
BOT_SECONDS = float(os.environ["BOT_SECONDS"]) if os.environ.get("BOT_SECONDS") else None
# BOT_QUEUE=channels: bot moves go to workers over the channel layer (``manage.py runworker bot-moves``,
# needs REDIS_URL); empty (the default): an in-process pool of BOT_WORKERS processes.
BOT_QUEUE = os.environ.get("BOT_QUEUE", "").strip()
BOT_WORKERS = env_at_least("BOT_WORKERS", 2, 1, int)  # processes of games.bots.pool (given it by games.apps)
SWEEP_SECONDS = env_at_least("SWEEP_SECONDS", 5.0, 0.2)  # how often a server sweeps for expired clocks, stalled bots
BOT_STALL_SECONDS = env_at_least("BOT_STALL_SECONDS", 20.0, 0.2)  # a bot move due this long is computed again

# Auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")  # password reset mails
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Internationalisation ------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The site is in English only. With translation on, every number a template prints asked for the active
# language through asgiref's context-local storage: 8% of the server's CPU under load (benchmarks/load.py).
USE_I18N = False
USE_TZ = True

# Static files (served by WhiteNoise) ---------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "ropasci.storage.StaticStorage"
        ),
    },
}
if DEBUG:
    # Serve straight from the source folders: no collectstatic needed.
    WHITENOISE_USE_FINDERS = True

# Security when DEBUG is off -------------------------------------------------
if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", False)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", False)
    if env_flag("TRUST_PROXY_HEADERS", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Logging: everything to stderr, which Daphne and process managers collect.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
        "games": {  # the site's own: bot moves, broadcasts, sweeps (INFO tells each bot move)
            "handlers": ["console"],
            "level": os.environ.get("GAMES_LOG_LEVEL", "WARNING"),
            "propagate": False,
        },
    },
}
