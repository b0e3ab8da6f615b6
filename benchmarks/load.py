"""Load: N concurrent games played through the HTTP API while every person seat and a spectator hold the game's
WebSocket; or (``--viewers``) one game's fan-out to many spectators.

    .venv/bin/pip install -r benchmarks/requirements-load.txt
    python benchmarks/load.py --games 200 --seconds 60                 # starts its own server (tests/liveserver.py)
    python benchmarks/load.py --url http://127.0.0.1:8000 --games 50 --seconds 30 --game tic_tac_toe
    REDIS_URL=redis://127.0.0.1:6379/0 DATABASE_URL=postgres://... python benchmarks/load.py --games 200 --processes 2
    python benchmarks/load.py --viewers 40                             # fan-out: one move, 40 spectators

Games mode: each of the N games is created with every seat a person driven by the benchmark (``--bot-share``
of them with the last seat a server bot instead); each seat to act reads its legal actions with its token and
sends a random one, and the answer to the move says whose turn is next (a long-poll waits for a bot's move).
A game that ends is replaced by a new one, so N stay in play for ``--seconds``. Latency: from sending the request that resolves a turn to that turn's update
arriving on the WebSocket of the other person seat(s) and of the spectator (one sample each). The last line:
``games=N turns=T errors=E p50_ms=A p99_ms=B`` (errors: failed requests, refused or dropped sockets, updates
that never came within 10 s); before it, when the benchmark started the servers itself, their CPU time per
resolved turn (what one core's worth of capacity is measured by).

All clients come from one address: the benchmark's own server raises the per-client caps (sockets, rate
limits); for ``--url``, start the server with ``SOCKETS_PER_CLIENT`` and ``RATE_LIMITS=0`` set likewise.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import random
import re
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


# --- games mode ----------------------------------------------------------------------------------------
TURN = re.compile(rb'data-turn="(\d+)"')
UPDATE_TIMEOUT = 10.0


class Watcher:
    """One WebSocket on a game: when each turn's update first arrived."""

    def __init__(self):
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.closed = False

    async def run(self, session, url: str, origin: str, headers: dict, stats: dict, ready: asyncio.Event):
        try:
            async with session.ws_connect(url, origin=origin, headers=headers, max_msg_size=2**23,
                                          heartbeat=None) as ws:
                async for msg in ws:
                    data = msg.data if isinstance(msg.data, bytes) else str(msg.data).encode()
                    found = TURN.search(data)
                    if found:  # a later turn's update also brings the turns before it (a bot may be quick)
                        now = time.perf_counter()
                        for turn in range(max(self.arrived, default=-1) + 1, int(found.group(1)) + 1):
                            self.arrived[turn] = now
                        self.changed.set()
                    ready.set()
        except Exception as exc:  # a refused or dropped socket is an error of the run
            stats["errors"] += 1
            stats.setdefault("why", []).append(f"socket: {exc.__class__.__name__} {exc}")
        finally:
            self.closed = True
            ready.set()
            self.changed.set()

    async def wait_turn(self, turn: int, deadline: float) -> float | None:
        while turn not in self.arrived and not self.closed:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.perf_counter()))
            except asyncio.TimeoutError:
                return None
        return self.arrived.get(turn)


async def call(session, stats, method: str, url: str, body=None, token=None):
    headers = {"Authorization": f"Seat {token}"} if token else {}
    try:
        async with session.request(method, url, json=body, headers=headers) as resp:
            text = await resp.text()
            try:
                payload = json.loads(text)
            except ValueError:
                stats["errors"] += 1
                stats.setdefault("why", []).append(f"{method} {url} -> {resp.status} {text[:120]!r}")
                return None, None
            if resp.status >= 400 and resp.status != 409:  # 409: the turn moved on (a bot, a clock): not an error
                stats["errors"] += 1
                stats.setdefault("why", []).append(f"{method} {url} -> {resp.status} {payload}")
            return resp.status, payload
    except Exception as exc:
        stats["errors"] += 1
        stats.setdefault("why", []).append(f"{method} {url}: {exc.__class__.__name__} {exc}")
        return None, None


async def play_one(session, base: str, name: str, with_bot: bool, end: float, stats: dict, rng: random.Random,
                   think: float = 0.0, watch_base: str | None = None):
    """One game from creation until it ends or time is up. ``watch_base``: the server whose WebSockets the
    viewers use (another process than ``base``'s, to measure the fan-out across processes)."""
    from games.engine import load_game
    seats = list(load_game(name).info.players)
    players = {seat: "human" for seat in seats}
    if with_bot and len(seats) > 1:
        players[seats[-1]] = "bot:random"
    status, game = await call(session, stats, "POST", base + "/api/games", {"game": name, "players": players})
    if status != 201:
        await asyncio.sleep(1)  # back off after a refused creation before the next try
        return
    stats["started"] += 1
    gid = game["id"]
    tokens = {seat: game["seats"][seat]["token"] for seat in seats if "token" in game["seats"][seat]}
    ws_url = (watch_base or base).replace("http", "ws", 1) + f"/ws/games/{gid}"
    watchers = {seat: Watcher() for seat in tokens}
    watchers[None] = Watcher()  # the spectator
    tasks = []
    for seat, watcher in watchers.items():
        ready = asyncio.Event()
        headers = {"Authorization": f"Seat {tokens[seat]}"} if seat else {}
        tasks.append(asyncio.create_task(watcher.run(session, ws_url, watch_base or base, headers, stats, ready)))
        await ready.wait()
    try:
        view = None
        while time.perf_counter() < end:
            if view is None:  # the public view: at the start, and after a refused move
                status, view = await call(session, stats, "GET", f"{base}/api/games/{gid}")
                if status != 200:
                    break
            if view["status"] != "active":
                if view["status"] == "finished":
                    stats["finished"] += 1
                break
            to_act = [s for s in view["to_act"] if s in tokens]
            if not to_act:  # a bot is thinking: wait for its turn to resolve
                status, view = await call(session, stats, "GET", f"{base}/api/games/{gid}?wait_turn={view['turn'] + 1}")
                if status != 200:
                    break
                continue
            turn = view["turn"] + 1
            if think:  # players take a while to choose (uniform around ``think``)
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            resolving = len(to_act) == len(view["to_act"])
            for i, seat in enumerate(to_act):
                status, mine = await call(session, stats, "GET", f"{base}/api/games/{gid}", token=tokens[seat])
                if status != 200 or not mine.get("legal_actions"):
                    view = None
                    break
                action = rng.choice(mine["legal_actions"])
                resolves = i == len(to_act) - 1 and resolving
                sent = time.perf_counter()
                status, answer = await call(session, stats, "POST", f"{base}/api/games/{gid}/actions",
                                            {"turn": turn, "action": action}, token=tokens[seat])
                if status is None or status >= 400:
                    view = None
                    break
                view = answer["game"]  # what comes next, as this seat sees it (whose turn, or the end)
                if resolves:
                    stats["turns"] += 1
                    deadline = time.perf_counter() + UPDATE_TIMEOUT
                    for other, watcher in watchers.items():
                        if other == seat:
                            continue
                        arrived = await watcher.wait_turn(turn, deadline)
                        if arrived is None:
                            stats["errors"] += 1
                            stats.setdefault("why", []).append(f"game {gid} turn {turn}: no update for {other}")
                        else:
                            stats["latency"].append(max(0.0, arrived - sent))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def keep_playing(session, bases, index, name, with_bot, end, stats, seed, think, ramp):
    rng = random.Random(seed)
    base, watch = bases[index % len(bases)], bases[(index + 1) % len(bases)]
    await asyncio.sleep(rng.uniform(0, ramp))  # games arrive over the ramp, not all in one instant
    while time.perf_counter() < end:
        await play_one(session, base, name, with_bot, end, stats, rng, think, watch if len(bases) > 1 else None)


def cpu_seconds(pids) -> float | None:
    """CPU time (user + system) the processes ``pids`` have used so far; None where /proc cannot tell."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return total


async def run_games(bases: list[str], games: int, seconds: float, name: str, bot_share: float, seed: int,
                    think: float, ramp: float | None = None, pids=()) -> None:
    import aiohttp  # benchmark-only dependency
    stats = {"errors": 0, "turns": 0, "started": 0, "finished": 0, "latency": []}
    cpu_start = cpu_seconds(pids) if pids else None
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        end = time.perf_counter() + seconds
        bots = round(games * bot_share)
        ramp = min(10.0, games / 20) if ramp is None else ramp
        await asyncio.gather(*(keep_playing(session, bases, i, name, i < bots, end, stats, seed * 1000 + i, think,
                                            ramp) for i in range(games)))
    lat = sorted(stats["latency"])

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    from collections import Counter
    kinds = Counter(re.sub(r"/api/games/\w+|:\d+|game \w+ turn \d+", "…", why)[:160] for why in stats.get("why", []))
    for why, count in kinds.most_common(8):
        print(f"error ×{count}: {why}")
    print(f"{name}: {len(bases)} server process(es), think {think} s: {stats['started']} games started, "
          f"{stats['finished']} finished, {len(lat)} latency samples, {stats['turns'] / seconds:.1f} turns/s")
    cpu_end = cpu_seconds(pids) if cpu_start is not None else None
    if cpu_end is not None and stats["turns"]:  # the servers' CPU, creations and sockets included
        print(f"server CPU: {cpu_end - cpu_start:.1f} s, {1000 * (cpu_end - cpu_start) / stats['turns']:.1f} ms "
              f"a resolved turn")
    print(f"games={games} turns={stats['turns']} errors={stats['errors']} p50_ms={pct(0.5):.1f} "
          f"p99_ms={pct(0.99):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server, or several comma-separated (processes of one site: "
                                      "each game's viewers watch through the next one's); default: start one")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a seat takes to choose, on average (0: as fast as the server answers)")
    parser.add_argument("--games", type=int, default=20, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="ropasci360")
    parser.add_argument("--bot-share", type=float, default=0.25, help="share of games with a server bot seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp", type=float, help="seconds over which the games start (default: 20 a second, "
                                                   "at most 10 s)")
    parser.add_argument("--viewers", type=int, help="instead: one game's fan-out to this many spectators")
    parser.add_argument("--processes", type=int, default=1,
                        help="Daphne processes to start (more than one needs DATABASE_URL and REDIS_URL)")
    args = parser.parse_args()

    def go(url, pids=()):
        bases = [u.strip().rstrip("/") for u in url.split(",") if u.strip()]
        if args.viewers:
            asyncio.run(run(bases[0], args.viewers))
        else:
            asyncio.run(run_games(bases, args.games, args.seconds, args.game, args.bot_share, args.seed,
                                  args.think, args.ramp, pids))

    if args.url:
        go(args.url)
        return
    from tests.liveserver import LiveServer
    env = {"SOCKETS_PER_CLIENT": "5000", "LONG_POLLS_PER_CLIENT": "5000", "RATE_LIMITS": "0", "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    for name in ("REDIS_URL", "DATABASE_URL", "WEB_PROCESSES"):  # e.g. the scaled-out stack
        if os.environ.get(name):
            env[name] = os.environ[name]
    if args.processes > 1 and not (env.get("DATABASE_URL") and env.get("REDIS_URL")):
        parser.error("--processes > 1 needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    from contextlib import ExitStack
    with ExitStack() as stack:
        servers = [stack.enter_context(LiveServer(env=env, database_url=env.get("DATABASE_URL"), migrate=i == 0))
                   for i in range(args.processes)]
        go(",".join(s.url for s in servers), [s.process.pid for s in servers])


if __name__ == "__main__":
    main()
