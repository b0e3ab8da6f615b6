"""On PostgreSQL the admin's search by a player's name uses the trigram index of migration 0004."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import fresh_postgres_database
from tests.liveserver import BASE_DIR

pytestmark = pytest.mark.services


def test_name_search_uses_the_trigram_index(postgres_url):
    import psycopg
    with fresh_postgres_database(postgres_url) as url:
        env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "ropasci.settings"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=BASE_DIR, env=env, check=True,
                       capture_output=True)
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
            names = [row[0] for row in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'games_seat'")]
            assert "games_seat_name_trgm" in names
            conn.execute("SET enable_seqscan = off")
            plan = "\n".join(row[0] for row in conn.execute(
                "EXPLAIN SELECT game_id FROM games_seat WHERE UPPER(display_name::text) LIKE UPPER('%alice%')"))
            assert "games_seat_name_trgm" in plan, plan
        # And the query Django builds for the admin's search is that one.
        out = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                              "from games.models import Seat; "
                              "print(Seat.objects.filter(display_name__icontains='alice').values('game_id').query)"],
                             cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True).stdout
        assert 'UPPER("games_seat"."display_name"::text) LIKE UPPER(' in out, out
