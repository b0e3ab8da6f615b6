"""Live fan-out under load: N spectators' WebSockets on one game, then a move; how long until every spectator
has the new position, how long /healthz takes meanwhile, and how many of N simultaneous connects succeed.

    .venv/bin/pip install -r benchmarks/requirements-load.txt
    python benchmarks/load.py --viewers 40            # starts its own server (tests/liveserver.py)
    python benchmarks/load.py --viewers 60 --url http://127.0.0.1:8000
    REDIS_URL=redis://127.0.0.1:6379/0 python benchmarks/load.py --viewers 40

Spectators connect from one address here: raise SOCKETS_PER_CLIENT on the server (the benchmark's own server
gets 1000) or the cap refuses the surplus, as it should for a real client.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import websockets  # noqa: E402  (benchmark-only dependency)

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def api(base: str, path: str, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", f"Seat {token}")
    with _opener.open(req, timeout=60) as resp:
        return json.loads(resp.read())


async def spectator(url: str, origin: str, connected: asyncio.Event, counter: list, turn_seen: dict, index: int):
    try:
        async with websockets.connect(url, origin=origin, open_timeout=30, max_size=2**22) as ws:
            await ws.recv()  # the board on connect
            counter.append(index)
            if len(counter) == counter_target[0]:
                connected.set()
            async for message in ws:
                if 'data-turn="1"' in message and index not in turn_seen:
                    turn_seen[index] = time.perf_counter()
    except (OSError, websockets.exceptions.WebSocketException):
        pass


counter_target = [0]


async def run(base: str, viewers: int) -> None:
    game = api(base, "/api/games", {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}})
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{game['id']}"
    connected, counter, seen = asyncio.Event(), [], {}
    counter_target[0] = viewers
    start = time.perf_counter()
    tasks = [asyncio.create_task(spectator(ws_url, base, connected, counter, seen, i)) for i in range(viewers)]
    try:
        await asyncio.wait_for(connected.wait(), 60)
    except asyncio.TimeoutError:
        pass
    connect_s = time.perf_counter() - start
    print(f"connected: {len(counter)}/{viewers} in {connect_s:.2f} s")
    moved = time.perf_counter()
    await asyncio.to_thread(api, base, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 4},
                            game["seats"]["x"]["token"])
    health_start = time.perf_counter()
    await asyncio.to_thread(api, base, "/healthz")
    health_s = time.perf_counter() - health_start
    deadline = time.perf_counter() + 60
    while len(seen) < len(counter) and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)  # polling for the outcome with a deadline
    delays = sorted(t - moved for t in seen.values())
    if delays:
        print(f"move reached {len(delays)}/{len(counter)} spectators: median {delays[len(delays) // 2]:.3f} s, "
              f"last {delays[-1]:.3f} s")
    print(f"/healthz during the fan-out: {health_s:.3f} s")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=40)
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    if args.url:
        asyncio.run(run(args.url.rstrip("/"), args.viewers))
        return
    from tests.liveserver import LiveServer
    env = {"SOCKETS_PER_CLIENT": "1000"}
    for name in ("REDIS_URL", "DATABASE_URL"):  # e.g. the scaled-out stack: Redis and PostgreSQL
        if os.environ.get(name):
            env[name] = os.environ[name]
    with LiveServer(env=env, database_url=env.get("DATABASE_URL")) as server:
        asyncio.run(run(server.url, args.viewers))


if __name__ == "__main__":
    main()
