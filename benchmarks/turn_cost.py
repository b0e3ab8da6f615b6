"""CPU time and SQL queries per resolved turn through the whole stack, in one process and without a network.

    .venv/bin/python benchmarks/turn_cost.py [--game tic_tac_toe] [--turns 300] [--repeat 3]

Games of persons only, each seat and a spectator holding the game's WebSocket. For each turn, each seat to act
GETs ``/api/games/{id}`` with its token (its legal actions) and POSTs a random one; the turn's update then goes
to every socket. All of it runs through ropasci's ASGI application (the HTTP handler with its middleware, the
WebSocket consumers, the in-memory channel layer), driven by asgiref's testing communicators in place of Daphne
and the network. CPU is the process's time (all threads) per resolved turn, split into the requests (with what
the committing thread does after commit) and the delivery of the updates; the least of ``--repeat`` runs is
printed, which is what a quiet machine gives. What Daphne and the client add is in ``load.py``'s figures.
Not part of the test suite.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HEADERS = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
TURN = re.compile(r'data-turn="(\d+)"')


async def http(app, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    from channels.testing import ApplicationCommunicator
    headers = [*HEADERS, (b"content-type", b"application/json")]
    if token:
        headers.append((b"authorization", f"Seat {token}".encode()))
    path, _, query = path.partition("?")
    scope = {"type": "http", "http_version": "1.1", "method": method, "path": path, "query_string": query.encode(),
             "headers": headers, "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80)}
    comm = ApplicationCommunicator(app, scope)
    await comm.send_input({"type": "http.request", "body": json.dumps(body).encode() if body is not None else b""})
    start = await comm.receive_output(20)
    content = b""
    while True:
        message = await comm.receive_output(20)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(20)
    return start["status"], json.loads(content)


class Socket:
    """A game's WebSocket, and the latest resolved turn whose update it has received."""

    def __init__(self, app, game_id: str, token: str | None):
        from channels.testing import WebsocketCommunicator
        headers = [*HEADERS, *([(b"authorization", f"Seat {token}".encode())] if token else [])]
        self.comm = WebsocketCommunicator(app, f"/ws/games/{game_id}", headers=headers)
        self.turn = -1

    async def open(self):
        connected, _ = await self.comm.connect(timeout=20)
        assert connected
        await self.until(0)

    async def until(self, turn: int):
        while self.turn < turn:
            found = TURN.search(await self.comm.receive_from(timeout=20))
            if found:
                self.turn = max(self.turn, int(found.group(1)))


async def play(app, name: str, turns: int, rng: random.Random, clock: dict) -> int:
    """Play games of ``name`` until ``turns`` turns resolved; adds CPU seconds to ``clock``."""
    from games.engine import load_game
    seats = list(load_game(name).info.players)
    played = 0
    while played < turns:
        status, game = await http(app, "POST", "/api/games", {"game": name, "players": {s: "human" for s in seats}})
        assert status == 201, game
        tokens = {s: game["seats"][s]["token"] for s in seats}
        sockets = [Socket(app, game["id"], tokens[s]) for s in seats] + [Socket(app, game["id"], None)]
        for socket in sockets:
            await socket.open()
        status, view = await http(app, "GET", f"/api/games/{game['id']}")
        while view["status"] == "active" and played < turns:
            turn = view["turn"] + 1
            start = time.process_time()
            for seat in list(view["to_act"]):
                status, mine = await http(app, "GET", f"/api/games/{game['id']}", token=tokens[seat])
                assert status == 200 and mine["legal_actions"], mine
                status, answer = await http(app, "POST", f"/api/games/{game['id']}/actions",
                                            {"turn": turn, "action": rng.choice(mine["legal_actions"])},
                                            token=tokens[seat])
                assert status in (200, 202), answer  # 202: a simultaneous turn waits for the other seats
                view = answer["game"]
            middle = time.process_time()
            for socket in sockets:
                await socket.until(turn)
            clock["requests"] += middle - start
            clock["updates"] += time.process_time() - middle
            played += 1
        for socket in sockets:
            await socket.comm.disconnect()
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tic_tac_toe")
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="ropasci-turn-cost-")
    os.environ.update({"DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3", "DEBUG": "0", "RATE_LIMITS": "0",
                       "SOCKETS_PER_CLIENT": "1000", "ALLOWED_HOSTS": "127.0.0.1",
                       "DJANGO_SETTINGS_MODULE": "ropasci.settings"})
    os.environ.pop("REDIS_URL", None)
    import django
    django.setup()
    from django.core.management import call_command
    from django.db.backends.utils import CursorWrapper
    call_command("migrate", verbosity=0)
    from ropasci.asgi import application

    queries = [0]
    execute = CursorWrapper._execute_with_wrappers

    def counted(self, *a, **k):
        queries[0] += 1
        return execute(self, *a, **k)

    CursorWrapper._execute_with_wrappers = counted

    async def runs():
        await play(application, args.game, 20, random.Random(0), {"requests": 0.0, "updates": 0.0})  # warm up
        best = None
        for run in range(args.repeat):
            clock = {"requests": 0.0, "updates": 0.0}
            queries[0] = 0
            played = await play(application, args.game, args.turns, random.Random(args.seed + run), clock)
            figures = (1000 * (clock["requests"] + clock["updates"]) / played, 1000 * clock["requests"] / played,
                       1000 * clock["updates"] / played, queries[0] / played)
            if best is None or figures[0] < best[0]:
                best = figures
        return best

    total, requests, updates, per_turn = asyncio.run(runs())
    print(f"game={args.game} turns={args.turns} cpu_ms_per_turn={total:.2f} requests_ms={requests:.2f} "
          f"updates_ms={updates:.2f} queries_per_turn={per_turn:.1f}")


if __name__ == "__main__":
    main()
