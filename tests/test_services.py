"""The stack on the production services: PostgreSQL and Redis."""

import asyncio
import json
import secrets

import psycopg
import pytest
from channels_redis.core import RedisChannelLayer

from tests.liveserver import LiveServer

pytestmark = pytest.mark.services


def test_migrate_and_healthz_on_postgres(postgres_database_url):
    with LiveServer(database_url=postgres_database_url) as srv:
        status, body = srv.get("/healthz")
        assert (status, json.loads(body)) == (200, {"status": "ok"})
        assert srv.get("/")[0] == 200
        # `manage.py migrate` ran against PostgreSQL, not a SQLite fallback.
        conninfo = postgres_database_url.replace("postgres://", "postgresql://", 1)
        with psycopg.connect(conninfo) as conn:
            applied = conn.execute(
                "SELECT count(*) FROM django_migrations WHERE app = 'auth'"
            ).fetchone()[0]
        assert applied > 0
        srv.manage("check", "--database", "default")


def test_live_server_with_redis_channel_layer(redis_url):
    with LiveServer(env={"REDIS_URL": redis_url}) as srv:
        assert srv.env["REDIS_URL"] == redis_url
        assert srv.get("/healthz")[0] == 200
        result = srv.manage(
            "shell", "-c",
            "from channels.layers import get_channel_layer; "
            "print(type(get_channel_layer()).__module__)",
        )
        assert result.stdout.strip().splitlines()[-1] == "channels_redis.core"


async def test_redis_channel_layer_round_trip(redis_url):
    layer = RedisChannelLayer(hosts=[redis_url], prefix=f"ropasci-test-{secrets.token_hex(4)}")
    try:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "game.move", "move": "THROW r 0 0"})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message == {"type": "game.move", "move": "THROW r 0 0"}

        await layer.group_add("lobby", channel)
        await layer.group_send("lobby", {"type": "lobby.update", "games": 3})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message == {"type": "lobby.update", "games": 3}
        await layer.group_discard("lobby", channel)
    finally:
        await layer.flush()
        await layer.close_pools()
