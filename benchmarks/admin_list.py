"""Time the staff admin's games list (and the dashboard) on 100,000 games (or a million).

    .venv/bin/python benchmarks/admin_list.py [--games 100000] [--keep DIR]
    .venv/bin/python benchmarks/admin_list.py --games 1000000 --database-url postgres://postgres@127.0.0.1/ropasci_bench

Builds a scratch SQLite database in a temporary directory (never db.sqlite3), fills it with bulk_create
(games spread over 60 days, two seats each, a third with a bot, a tenth imported), then requests admin
pages with Django's test client as a superuser and prints, per page, the median time of a few runs and
the number of SQL queries. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", help="directory for the scratch SQLite database (kept afterwards)")
    parser.add_argument("--database-url", help="an existing, empty scratch database instead of SQLite; its "
                                               "name must contain 'bench' (e.g. postgres://.../ropasci_bench)")
    args = parser.parse_args()

    if args.database_url:
        if "bench" not in args.database_url.rsplit("/", 1)[-1]:
            parser.error("the database name must contain 'bench': this script fills it with games")
        os.environ["DATABASE_URL"] = db = args.database_url
    else:
        workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ropasci-admin-bench-"))
        workdir.mkdir(parents=True, exist_ok=True)
        db = workdir / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ropasci.settings")
    os.environ["DEBUG"] = "1"

    import django
    django.setup()
    from django.conf import settings
    settings.BOTS_ENABLED = False
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.models import Game, Seat

    assert "bench" in str(connection.settings_dict["NAME"]), "refusing to touch a non-scratch database"
    call_command("migrate", verbosity=0)

    if not Game.objects.exists():
        fill(args.games, Game, Seat, timezone, transaction)
        with connection.cursor() as cursor:  # the planner's statistics, as autovacuum would gather them
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    size = f" ({db.stat().st_size / 1e6:.0f} MB)" if isinstance(db, Path) else ""
    print(f"database: {connection.vendor} {db}{size}, games: {Game.objects.count():,}, "
          f"seats: {Seat.objects.count():,}")

    user = get_user_model().objects.filter(username="bench").first() or \
        get_user_model().objects.create_superuser("bench", "bench@example.com", "bench-password-1")
    client = Client()
    client.force_login(user)
    some_id = Game.objects.order_by("created").values_list("pk", flat=True)[1234]
    since = (timezone.now() - timedelta(days=7)).replace(microsecond=0).isoformat().replace("+", "%2B")
    year = timezone.now().year
    pages = [
        ("list, page 1", "/admin/games/game/"),
        ("list, page 200 (the last)", "/admin/games/game/?p=200"),
        ("status=active", "/admin/games/game/?status__exact=active"),
        ("result=winner: lower", "/admin/games/game/?result=winner%3A+lower"),
        ("source=imported", "/admin/games/game/?source__exact=imported"),
        ("bot level=strong", "/admin/games/game/?bot_level=strong"),
        ("human vs bot", "/admin/games/game/?seats=hb"),
        ("created past 7 days", f"/admin/games/game/?created__gte={since}"),
        ("created this year", f"/admin/games/game/?created__gte={year}-01-01+00%3A00%3A00%2B00%3A00"),
        ("search player name", "/admin/games/game/?q=player77"),
        ("search game id", f"/admin/games/game/?q={some_id}"),
        ("sort by turns", "/admin/games/game/?o=6"),
        ("dashboard", "/admin/games/game/dashboard/"),
        ("a game's page", f"/admin/games/game/{some_id}/change/"),
    ]
    print(f"{'page':28} {'median ms':>10} {'max ms':>8} {'queries':>8}")
    for label, url in pages:
        times = []
        for _ in range(args.runs):
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        print(f"{label:28} {statistics.median(times):10.1f} {max(times):8.1f} {len(ctx.captured_queries):8d}")
        if os.environ.get("SHOW_SQL"):
            for q in sorted(ctx.captured_queries, key=lambda q: -float(q["time"]))[:3]:
                print(f"    {q['time']}s {q['sql'][:300]}")


def fill(n: int, Game, Seat, timezone, transaction) -> None:
    rng = random.Random(30024)
    now = timezone.now()
    created_field, updated_field = Game._meta.get_field("created"), Game._meta.get_field("updated")
    created_field.auto_now_add = updated_field.auto_now = False  # keep the spread-out dates below
    statuses = ["finished"] * 85 + ["aborted"] * 5 + ["active"] * 7 + ["waiting"] * 3
    results = ["winner: upper", "winner: lower", "draw: no remaining tokens or throws",
               "draw: same game state occurred for the 3rd time", "draw: maximum number of turns reached"]
    levels = ["random", "greedy", "strong"]
    state = {"game": "ropasci360", "turn": 40, "tokens": [
        {"player": "upper", "symbol": s, "hex": [r, 0], "count": 1} for s, r in (("r", 1), ("p", 2), ("s", 3))]}
    start = time.perf_counter()
    batch = 5000
    for offset in range(0, n, batch):
        games, seats = [], []
        for i in range(offset, min(n, offset + batch)):
            status = rng.choice(statuses)
            created = now - timedelta(seconds=rng.randrange(60 * 86400))
            game = Game(id=f"b{i:09d}", kind="ropasci360", status=status, turn=rng.randrange(1, 360),
                        result=rng.choice(results) if status == "finished" else "",
                        ending="rules" if status == "finished" else ("aborted" if status == "aborted" else ""),
                        source="imported" if rng.random() < 0.1 else "played", state=state,
                        created=created, updated=created + timedelta(minutes=rng.randrange(1, 90)))
            games.append(game)
            for side in ("upper", "lower"):
                if rng.random() < 0.35:
                    seats.append(Seat(game=game, side=side, kind="bot", bot_level=rng.choice(levels)))
                else:
                    seats.append(Seat(game=game, side=side, kind="human", display_name=f"player{rng.randrange(5000)}",
                                      token_hash=f"{i:064d}"))
        with transaction.atomic():
            Game.objects.bulk_create(games)
            Seat.objects.bulk_create(seats)
    created_field.auto_now_add = updated_field.auto_now = True
    print(f"created {n:,} games in {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
