"""The project skeleton: pages, /healthz, configuration from the environment."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

BASE_DIR = Path(__file__).resolve().parent.parent


# -- pages --------------------------------------------------------------------
@pytest.mark.django_db
def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("home") == "/"
    assert "<h1" in html and "RoPaSci 360" in html
    assert 'id="play"' in html
    assert 'href="#main"' in html  # skip link
    assert "htmx-" in html and "htmx-ext-ws-" in html


@pytest.mark.django_db
def test_login_page(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


@pytest.mark.django_db
def test_login_and_logout(client, django_user_model):
    django_user_model.objects.create_user("alice", password="correct horse battery")
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
    )
    assert response.status_code == 302 and response.url == "/"
    assert "Log out" in client.get("/").content.decode()
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "Log in" in client.get("/").content.decode()


# -- /healthz -----------------------------------------------------------------
@pytest.mark.django_db
def test_healthz_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_healthz_reports_database_failure(client, monkeypatch):
    from django.db import connection
    from django.db.utils import OperationalError

    def broken_cursor(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert "could not connect" in body["detail"]


def test_asgi_application_loads():
    from channels.routing import ProtocolTypeRouter

    from games.live.routing import websocket_urlpatterns
    from games.live.serverloop import ServerLoop
    from ropasci.asgi import application

    assert isinstance(application, ServerLoop) and isinstance(application.app, ProtocolTypeRouter)
    assert set(application.app.application_mapping) == {"http", "websocket", "channel"}  # channel: bot workers
    assert [str(p.pattern) for p in websocket_urlpatterns] == ["ws/games/<str:game_id>"]


def test_live_server_serves_pages_and_vendored_static(server):
    """The real Daphne stack serves the home page and every script it loads."""
    status, html = server.get("/")
    assert status == 200
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert any("/vendor/htmx-2." in s for s in scripts), scripts
    assert any("/vendor/htmx-ext-ws-2." in s for s in scripts), scripts
    for src in scripts + re.findall(r'<link rel="stylesheet" href="([^"]+)"', html):
        assert not src.startswith(("http:", "https:", "//")), f"{src} is not served locally"
        status, _ = server.get(src)
        assert status == 200, src
    assert server.get("/healthz") == (200, '{"status": "ok"}')


# -- settings from the environment -------------------------------------------
_CONFIG_VARS = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS")


def load_settings(code: str, **env: str) -> subprocess.CompletedProcess:
    """Import ropasci.settings in a fresh interpreter with ``env`` and run ``code``
    (with the module bound to ``s``)."""
    full_env = {k: v for k, v in os.environ.items() if k not in _CONFIG_VARS}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import json\nimport ropasci.settings as s\n" + code],
        cwd=BASE_DIR,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_json(expr: str, **env: str):
    result = load_settings(f"print(json.dumps({expr}, default=str))", **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_debug_is_off_and_a_secret_key_is_generated_and_kept(tmp_path):
    """``make run`` hosts the site: DEBUG off by default, and a key generated on first run into a local
    file (mode 0600) and read back on the next start."""
    key_file = tmp_path / "key"
    first = settings_json("[s.DEBUG, s.SECRET_KEY, s.STORAGES['staticfiles']['BACKEND'], s.ALLOWED_HOSTS]",
                          SECRET_KEY_FILE=str(key_file))
    assert first[0] is False and len(first[1]) >= 50
    assert first[2] == "ropasci.storage.StaticStorage"
    assert first[3] == ["localhost", "127.0.0.1", "[::1]", "testserver"]
    assert key_file.read_text().strip() == first[1]
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    again = settings_json("s.SECRET_KEY", SECRET_KEY_FILE=str(key_file))
    assert again == first[1]


def test_secret_key_from_env_wins():
    got = settings_json("[s.DEBUG, s.SECRET_KEY]", DEBUG="0", SECRET_KEY="x" * 50)
    assert got == [False, "x" * 50]


def test_debug_on_for_development(tmp_path):
    got = settings_json(
        "[s.DEBUG, bool(s.SECRET_KEY), s.STORAGES['staticfiles']['BACKEND'], "
        "s.WHITENOISE_USE_FINDERS, s.INSTALLED_APPS[:2], s.ASGI_APPLICATION]",
        DEBUG="1", SECRET_KEY_FILE=str(tmp_path / "key"),
    )
    assert got == [
        True,
        True,
        "django.contrib.staticfiles.storage.StaticFilesStorage",
        True,
        ["daphne", "channels"],
        "ropasci.asgi.application",
    ]


def test_allowed_hosts_from_env():
    assert settings_json("s.ALLOWED_HOSTS", ALLOWED_HOSTS="ropasci.example, .example.org,") == [
        "ropasci.example",
        ".example.org",
    ]


def test_channel_layer_in_memory_by_default():
    assert settings_json("s.CHANNEL_LAYERS['default']['BACKEND']") == (
        "games.live.channellayer.InProcessChannelLayer"
    )


async def test_the_in_process_layer_sweeps_once_a_second_and_still_drops_expired_messages(monkeypatch):
    from channels.layers import InMemoryChannelLayer

    from games.live.channellayer import InProcessChannelLayer
    sweeps = []
    real = InMemoryChannelLayer._clean_expired
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(1) or real(self))
    layer = InProcessChannelLayer(expiry=60)
    names = [await layer.new_channel() for _ in range(50)]
    for name in names:
        await layer.group_add("game-x", name)
    for _ in range(20):
        await layer.group_send("game-x", {"type": "game.changed"})
        for name in names:
            assert (await layer.receive(name))["type"] == "game.changed"
    assert len(sweeps) == 1  # not one per message: a thousand receives and twenty group sends
    layer.expiry = -1  # what is sent now has expired already
    await layer.send(names[0], {"type": "stale"})
    layer.swept = float("-inf")  # a second later
    await layer.group_send("game-x", {"type": "fresh"})
    assert len(sweeps) == 2 and names[0] not in layer.channels  # the expired message was dropped...
    assert names[0] not in layer.groups["game-x"]  # ...and its channel left its groups, as in Channels' layer
    assert (await layer.receive(names[1]))["type"] == "fresh"


def test_redis_url_selects_redis_channel_layer():
    layer = settings_json("s.CHANNEL_LAYERS['default']", REDIS_URL="redis://redis.example:6380/2")
    from channels_redis.core import RedisChannelLayer
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    [host] = layer["CONFIG"]["hosts"]
    assert host["address"] == "redis://redis.example:6380/2"
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout  # a blocking read must not time out


def test_default_database_is_sqlite_file():
    db = settings_json("s.DATABASES['default']")
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(BASE_DIR / "db.sqlite3")
    assert db["OPTIONS"]["timeout"] == 20
    assert db["OPTIONS"]["init_command"] == "PRAGMA journal_mode=WAL;"
    assert db["CONN_MAX_AGE"] == 600  # connections live with the request threads (games.runtime.requestthreads)


def test_database_url_selects_postgres():
    db = settings_json(
        "s.DATABASES['default']", DATABASE_URL="postgres://game:s3cret@db.example:5433/ropasci"
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "ropasci", "game", "s3cret", "db.example", 5433,
    )
    assert "init_command" not in db.get("OPTIONS", {})
