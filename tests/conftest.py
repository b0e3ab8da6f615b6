"""Shared fixtures.

server        session-scoped LiveServer (Daphne + SQLite in a temp dir)
browser       session-scoped Playwright Chromium (/usr/bin/chromium, headless)
page          a fresh browser context + page per test
postgres_url  URL of a reachable PostgreSQL server (skip/fail if unreachable)
postgres_database_url  a fresh, empty PostgreSQL database, dropped afterwards
                       (fresh_postgres_database(url, migrated=True): a migrated one, copied from a template)
redis_url     URL of a reachable Redis server (skip/fail if unreachable)

Unreachable services and a missing Chromium skip the tests that need them,
unless REQUIRE_SERVICES=1 (as in .ci/run), which turns the skip into a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import secrets
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from tests.liveserver import BASE_DIR, LiveServer, migrations_digest, server_env

# Playwright's sync API marks its event loop as running in the main thread
# between calls; Django would then refuse synchronous ORM use ("You cannot
# call this from an async context") in tests that share the process.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Tests play many games from one address at once: rate limits are off but in the tests of them
# (tests/test_ratelimit.py turns them on).
os.environ.setdefault("RATE_LIMITS", "0")


def pytest_configure(config):
    """Django's settings may be read before this file runs: set the limits there too."""
    from django.conf import settings
    settings.RATE_LIMITS = float(os.environ["RATE_LIMITS"])

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "").strip() == "1"


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when REQUIRE_SERVICES=1."""
    if services_required():
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1, so this is an error, not a skip)", pytrace=False)
    pytest.skip(reason)


def require_service(name: str, host: str, port: int, timeout: float = 2.0) -> None:
    """Skip (or fail under REQUIRE_SERVICES=1) unless host:port accepts TCP connections."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        unavailable(f"{name} is not reachable at {host}:{port} ({exc}); start it to run this test")


# -- ordering ---------------------------------------------------------------
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Run browser tests last: once Playwright has started, its loop counts as
    running in the main thread, which async tests must not see."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _hide_playwright_loop(request):
    """Let async tests run even after Playwright's sync API has started."""
    if not inspect.iscoroutinefunction(getattr(request, "function", None)):
        yield
        return
    loop = asyncio._get_running_loop()
    if loop is not None:
        asyncio._set_running_loop(None)
    try:
        yield
    finally:
        if loop is not None:
            asyncio._set_running_loop(loop)


# -- live server --------------------------------------------------------------
@pytest.fixture(scope="session")
def server():
    """The real ASGI stack on a free port; ``server.url`` is the base URL."""
    srv = LiveServer()
    try:
        srv.start()
    except Exception as exc:
        print(exc)
        raise
    yield srv
    srv.stop()


# -- services ---------------------------------------------------------------
@pytest.fixture(scope="session")
def postgres_url() -> str:
    import dj_database_url

    url = os.environ.get("TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    config = dj_database_url.parse(url)
    require_service("PostgreSQL", config.get("HOST") or "127.0.0.1", int(config.get("PORT") or 5432))
    return url


@contextlib.contextmanager
def fresh_postgres_database(postgres_url: str, migrated: bool = False):
    """Create a database ``ropasci_test_<random>`` on the server, yield its URL, drop it after: empty, or
    ``migrated``, a copy of one ``manage.py migrate`` made (once per set of migrations, kept on the server as
    ``ropasci_template_<digest>``; a server on it then starts with ``migrate=False``)."""
    import psycopg
    from psycopg import sql

    name = f"ropasci_test_{secrets.token_hex(6)}"
    parts = urlsplit(postgres_url)
    admin_conninfo = parts._replace(scheme="postgresql").geturl()
    with psycopg.connect(admin_conninfo, autocommit=True) as conn:
        if migrated:
            conn.execute("SELECT pg_advisory_lock(%s)", (TEMPLATE_LOCK,))  # one test process builds it, or copies
            try:
                template = migrated_template(conn, parts)
                conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name),
                                                                             sql.Identifier(template)))
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (TEMPLATE_LOCK,))
        else:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin_conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


TEMPLATE_LOCK = 30_360  # the advisory lock held while the migrated template is built or copied


def migrated_template(conn, parts) -> str:
    """The name of the migrated template database for today's migrations, built if missing (older ones dropped)."""
    from psycopg import sql

    name = f"ropasci_template_{migrations_digest()}"
    if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
        return name
    for (old,) in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                               ("ropasci\\_template\\_%",)).fetchall():
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(old)))
    building = f"ropasci_building_{secrets.token_hex(6)}"
    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
    try:
        done = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=BASE_DIR, capture_output=True,
                              text=True, env=server_env(parts._replace(path=f"/{building}").geturl()))
        if done.returncode:
            raise RuntimeError(f"manage.py migrate failed:\n{done.stdout}\n{done.stderr}")
        conn.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(building), sql.Identifier(name)))
    except BaseException:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(building)))
        raise
    return name


@pytest.fixture
def postgres_database_url(postgres_url):
    """A fresh, empty PostgreSQL database for one test."""
    with fresh_postgres_database(postgres_url) as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL", DEFAULT_REDIS_URL)
    parts = urlsplit(url)
    require_service("Redis", parts.hostname or "127.0.0.1", parts.port or 6379)
    return url


# -- browser ----------------------------------------------------------------
@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by Playwright's sync API (Debian's binary;
    Playwright's own browser downloads are never used)."""
    if not os.path.exists(CHROMIUM):
        unavailable(f"{CHROMIUM} is missing (make test installs Debian's chromium package)")
    from playwright.sync_api import expect, sync_playwright

    # Two test processes share two cores with the servers and their bots: give pages time to catch up.
    expect.set_options(timeout=15_000)
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
    except BaseException:
        playwright.stop()
        raise
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def page(browser):
    """A page of its own context; the test fails if the Content-Security-Policy blocked anything on it."""
    b = Browser(browser)
    yield b.page
    blocked = [e for e in b.errors if "Content Security Policy" in e]
    b.close()
    assert not blocked, blocked


# -- browser pages ----------------------------------------------------------
class Browser:
    """A browser context with one page, collecting script errors and what the Content-Security-Policy blocked
    (every browser test thereby checks that the pages it visits keep to the policy)."""

    def __init__(self, browser, **options):
        self.context = browser.new_context(**options)
        # The flows written before one-click moves confirm each move: this browser's "Confirm moves" setting
        # is on unless a test sets it (tests/test_browser_game_page.py plays with one click).
        self.context.add_init_script("try { if (localStorage.getItem('ropasci.confirm') === null) "
                                     "localStorage.setItem('ropasci.confirm', '1'); } catch (e) {}")
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)

    def _console(self, message):
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def close(self):
        self.context.close()


@pytest.fixture
def people(browser):
    """``people(**context_options)`` opens a page in a context of its own; no script error may happen."""
    made = []

    def make(**options):
        b = Browser(browser, **options)
        made.append(b)
        return b.page

    yield make
    errors = [e for b in made for e in b.errors]
    for b in made:
        b.close()
    assert not errors, errors
