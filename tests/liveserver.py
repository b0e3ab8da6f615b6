"""Run the real ASGI stack (Daphne + ropasci.asgi) in a subprocess for tests.

    from tests.liveserver import LiveServer

    with LiveServer(env={"REDIS_URL": "redis://127.0.0.1:6379/0"}) as srv:
        status, body = srv.get("/healthz")

``LiveServer()`` makes a temporary directory, points DATABASE_URL at a
SQLite file in it (unless ``database_url`` is given), runs
``manage.py migrate --noinput`` (for a new SQLite file once per set of migrations: later servers, in any test
process, copy the migrated file), starts Daphne (``python -m ropasci.server``, as ``make run`` does) on a
free port of 127.0.0.1
and waits until ``/healthz`` answers 200. ``stop()`` (or leaving the
``with`` block) terminates Daphne and removes the temporary directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import django

BASE_DIR = Path(__file__).resolve().parent.parent

# Talk to the server directly, whatever http_proxy says.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

# Variables of the developer's shell that must not leak into the server.
_CONFIG_VARS = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def migrations_digest() -> str:
    """Names the schema ``manage.py migrate`` makes: a hash of every migration file and Django's version."""
    digest = hashlib.sha256(django.__version__.encode())
    for migration in sorted(BASE_DIR.glob("*/migrations/*.py")):
        digest.update(migration.name.encode() + migration.read_bytes())
    return digest.hexdigest()[:16]


def server_env(database_url: str) -> dict[str, str]:
    """The environment of a server (or ``manage.py``) on ``database_url``: the developer's shell without its
    configuration."""
    env = {k: v for k, v in os.environ.items() if k not in _CONFIG_VARS}
    env.update({"DJANGO_SETTINGS_MODULE": "ropasci.settings", "DEBUG": "1", "DATABASE_URL": database_url,
                "PYTHONUNBUFFERED": "1",
                "BATTLEGROUND_PORT": "0"})  # off unless a test asks for it (never the shared 12360)
    return env


class LiveServerError(RuntimeError):
    pass


class LiveServer:
    """A Daphne subprocess serving ropasci; see the module docstring.

    Attributes once started: ``url`` (e.g. ``http://127.0.0.1:41234``),
    ``port``, ``database_url``, ``env`` (the server's environment),
    ``process`` (the Popen), ``log_path`` (Daphne's stdout+stderr).
    """

    def __init__(
        self,
        env: dict[str, str] | None = None,
        database_url: str | None = None,
        startup_timeout: float = 30.0,
        migrate: bool = True,
    ) -> None:
        self.extra_env = dict(env or {})
        self.database_url = database_url
        self.startup_timeout = startup_timeout
        self.migrate = migrate
        self.tmpdir: Path | None = None
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.url: str | None = None
        self.log_path: Path | None = None
        self.env: dict[str, str] = {}

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> "LiveServer":
        if self.process is not None:
            raise LiveServerError("LiveServer already started")
        self.tmpdir = Path(tempfile.mkdtemp(prefix="ropasci-live-"))
        try:
            if self.database_url is None:
                self.database_url = f"sqlite:///{self.tmpdir / 'db.sqlite3'}"
            self.env = {**server_env(self.database_url), **self.extra_env}
            sqlite_file = self.database_url.startswith("sqlite:///") and Path(self.database_url[len("sqlite:///"):])
            if self.migrate and sqlite_file and not sqlite_file.exists():
                self._copy_migrated_sqlite(sqlite_file)
            elif self.migrate:
                self.manage("migrate", "--noinput")
            self._start_daphne()
        except BaseException:
            self.stop()
            raise
        return self

    def manage(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        """Run ``manage.py ARGS`` with the server's environment; raise on failure."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise LiveServerError(
                f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
                f"{result.stdout}\n{result.stderr}"
            )
        return result

    def _copy_migrated_sqlite(self, path: Path) -> None:
        """A copy of a SQLite database ``manage.py migrate`` made, migrated once per set of migration files (the
        first server of a test run migrates; the others, in any test process, copy its result)."""
        template = Path(tempfile.gettempdir()) / f"ropasci-migrated-{migrations_digest()}.sqlite3"
        if not template.exists():
            assert self.tmpdir is not None
            made = self.tmpdir / "migrated.sqlite3"
            env, self.env = self.env, {**self.env, "DATABASE_URL": f"sqlite:///{made}"}
            try:
                self.manage("migrate", "--noinput")
            finally:
                self.env = env
            _sqlite_copy(made, self.tmpdir / "template.sqlite3")
            os.replace(self.tmpdir / "template.sqlite3", template)  # whole or not at all, for other processes
        _sqlite_copy(template, path)

    def _start_daphne(self) -> None:
        assert self.tmpdir is not None
        last_error: Exception | None = None
        for attempt in range(3):  # another process may grab the free port first
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.log_path = self.tmpdir / f"daphne-{attempt}.log"
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "ropasci.server", "-b", "127.0.0.1", "-p", str(self.port),
                     "ropasci.asgi:application"],
                    cwd=BASE_DIR,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            try:
                self._wait_until_healthy()
                return
            except LiveServerError as exc:
                last_error = exc
                self._terminate()
                if "Address already in use" not in self.read_log():
                    break
        raise last_error  # type: ignore[misc]

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        last = "no answer yet"
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise LiveServerError(
                    f"daphne exited with code {self.process.returncode} before "
                    f"answering /healthz:\n{self.read_log()}"
                )
            try:
                status, body = self.get("/healthz", timeout=2)
                if status == 200:
                    return
                last = f"HTTP {status}: {body[:500]!r}"
            except OSError as exc:  # connection refused while starting
                last = repr(exc)
            time.sleep(0.05)
        raise LiveServerError(
            f"daphne did not answer /healthz with 200 within {self.startup_timeout}s "
            f"(last: {last}):\n{self.read_log()}"
        )

    def _terminate(self) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def kill(self) -> None:
        """SIGKILL the server (no cleanup at all, as a crash); ``restart()`` starts it again."""
        proc, self.process = self.process, None
        if proc is not None:
            proc.kill()
            proc.wait(timeout=10)

    def restart(self) -> None:
        """Start a new server on the same database (after ``kill()``)."""
        self._start_daphne()

    def kill_and_restart(self) -> None:
        """SIGKILL the server and start a new one on the same database at once."""
        self.kill()
        self.restart()

    def stop(self) -> None:
        self._terminate()
        if self.tmpdir is not None:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None

    def __enter__(self) -> "LiveServer":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- helpers -----------------------------------------------------------
    def read_log(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

    def get(self, path: str, timeout: float = 10) -> tuple[int, str]:
        """GET ``path`` on the server; returns (status, body text), also for 4xx/5xx."""
        if self.url is None:
            raise LiveServerError("LiveServer not started")
        try:
            with _opener.open(self.url + path, timeout=timeout) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    def __repr__(self) -> str:
        return f"<LiveServer {self.url or 'not started'} db={self.database_url}>"


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's own copy (its write-ahead log included)."""
    with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def api_call(base: str, path: str, body=None, token: str | None = None, timeout: float = 40):
    """One JSON request to a live server's API: (status, decoded body); POST when ``body`` is given."""
    import json
    import urllib.error
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", f"Seat {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
