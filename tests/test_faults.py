"""Faults on the deployment's shape (PostgreSQL, Redis, Daphne processes, bot workers on the channel layer):
processes SIGKILLed mid-game and restarted, Redis restarted, both seats submitting at the same moment through
two processes. Every game carries on where it was: no resolved turn or pending action lost, no turn resolved
twice, bot games go on.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import fresh_postgres_database
from tests.liveserver import BASE_DIR, LiveServer, api_call as call, free_port

pytestmark = pytest.mark.services

FAST_SWEEP = {"SWEEP_SECONDS": "0.5", "BOT_STALL_SECONDS": "2"}


class Worker:
    """``manage.py runworker bot-moves`` with a server's environment."""

    def __init__(self, env: dict, log_path):
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen([sys.executable, "manage.py", "runworker", "bot-moves"], cwd=BASE_DIR,
                                            env=env, stdout=log, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def wait_turn(base, game_id, turn, limit=60.0) -> dict:
    """The game once ``turn`` turns have resolved (or it ended), by the API's long-poll."""
    deadline = time.monotonic() + limit
    while True:
        status, game = call(base, f"/api/games/{game_id}?wait_turn={turn}")
        assert status == 200, game
        if game["turn"] >= turn or game["status"] != "active" or time.monotonic() > deadline:
            return game


def assert_log_whole(game: dict) -> None:
    """Turns numbered 1..N, each once, every seat's action in it (bots included)."""
    numbers = [t["number"] for t in game["turns"]]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


@pytest.fixture
def database_url(postgres_url):
    """A fresh migrated PostgreSQL database: its servers start with ``migrate=False``."""
    with fresh_postgres_database(postgres_url, migrated=True) as url:
        yield url


def test_bot_moves_run_on_workers_and_a_worker_killed_mid_move_loses_nothing(database_url, redis_url, tmp_path):
    env = {"REDIS_URL": redis_url, "BOT_QUEUE": "channels", "GAMES_LOG_LEVEL": "INFO", **FAST_SWEEP}
    with LiveServer(env=env, database_url=database_url, migrate=False) as server:
        worker = Worker(server.env, tmp_path / "worker-1.log")
        try:
            status, game = call(server.url, "/api/games", {
                "game": "connect_four", "players": {"yellow": "bot:strong", "red": "bot:greedy"}, "bot_seconds": 0.5})
            assert status == 201
            gid = game["id"]
            reached = wait_turn(server.url, gid, 3)
            assert reached["turn"] >= 3, (reached, worker.log_path.read_text())
            worker.kill()  # most likely mid-move: the strong bot thinks for half a second
            stalled = call(server.url, f"/api/games/{gid}")[1]
            worker = Worker(server.env, tmp_path / "worker-2.log")  # a new worker; the sweep re-sends the move
            done = wait_turn(server.url, gid, stalled["turn"] + 4)
            assert done["turn"] >= stalled["turn"] + 4 or done["status"] == "finished", done
            assert_log_whole(done)
            # The workers played the bot moves, the web process none (the queue is the only path): the first
            # worker the first turns (a line may be lost with the kill), the second every turn after the kill.
            def played(log):
                return {int(t) for t in re.findall(rf"bot move {gid}/\w+/(\d+) played", (tmp_path / log).read_text())}
            assert {1, 2} <= played("worker-1.log")
            # A worker writes its line just after the move's commit, which the long-poll may see first.
            after_kill = set(range(stalled["turn"] + 1, done["turn"] + 1))
            deadline = time.monotonic() + 10
            while not after_kill <= played("worker-2.log") and time.monotonic() < deadline:
                time.sleep(0.05)
            assert after_kill <= played("worker-2.log"), done["turn"]
            assert "played by worker" not in server.read_log()
        finally:
            worker.stop()


def test_a_web_process_killed_mid_game_resumes_with_pending_actions_and_bots(database_url, redis_url):
    env = {"REDIS_URL": redis_url, **FAST_SWEEP}
    with LiveServer(env=env, database_url=database_url, migrate=False) as server:
        status, people = call(server.url, "/api/games", {"game": "ropasci360",
                                                          "players": {"upper": "human", "lower": "human"}})
        tokens = {side: people["seats"][side]["token"] for side in ("upper", "lower")}
        status, bots = call(server.url, "/api/games", {"game": "tic_tac_toe",
                                                        "players": {"x": "bot:random", "o": "bot:random"}})
        # Upper has chosen for turn 1 (pending, secret), Lower not yet; then the process dies.
        assert call(server.url, f"/api/games/{people['id']}/actions", {"turn": 1, "action": ["THROW", "r", [4, 0]]},
                    tokens["upper"])[0] == 202
        server.kill_and_restart()
        game = call(server.url, f"/api/games/{people['id']}")[1]
        assert game["turn"] == 0 and game["to_act"] == ["lower"]  # Upper's choice survived the crash
        assert call(server.url, f"/api/games/{people['id']}/actions", {"turn": 1, "action": ["THROW", "s", [-4, 0]]},
                    tokens["lower"])[0] == 200
        game = call(server.url, f"/api/games/{people['id']}")[1]
        assert game["turn"] == 1 and game["turns"][0]["actions"]["upper"] == ["THROW", "r", [4, 0]]
        # The bot game finishes on the new process (its sweep picks up a move the dead one had in hand).
        done = wait_turn(server.url, bots["id"], 9)
        assert done["status"] == "finished", done
        assert_log_whole(done)


def test_simultaneous_submissions_through_two_processes_resolve_every_turn_once(database_url, redis_url):
    env = {"REDIS_URL": redis_url}
    with LiveServer(env=env, database_url=database_url, migrate=False) as a, \
            LiveServer(env=env, database_url=database_url, migrate=False) as b:
        games = [call(a.url, "/api/games", {"game": "ropasci360",
                                            "players": {"upper": "human", "lower": "human"}})[1] for _ in range(4)]
        for turn in range(1, 9):
            barrier = threading.Barrier(2 * len(games))
            codes = {}

            def submit(base, game, side, action):
                barrier.wait()
                codes[(game["id"], side)] = call(base, f"/api/games/{game['id']}/actions",
                                                 {"turn": turn, "action": action}, game["seats"][side]["token"])[0]

            row = 4 if turn % 2 else 3
            threads = []
            for g in games:  # throws that never meet: the game goes on
                threads.append(threading.Thread(target=submit, args=(a.url, g, "upper", ["THROW", "r", [row, 0]])))
                threads.append(threading.Thread(target=submit, args=(b.url, g, "lower", ["THROW", "s", [-row, 0]])))
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            for g in games:
                # One of the two resolved the turn (200), the other was accepted first (202): never both 200.
                assert sorted([codes[(g["id"], "upper")], codes[(g["id"], "lower")]]) == [200, 202], codes
        for g in games:
            game = call(b.url, f"/api/games/{g['id']}")[1]
            assert game["turn"] == 8
            assert_log_whole(game)


@pytest.fixture
def private_redis(tmp_path):
    """A Redis server of this test's own (so that restarting it disturbs nothing else)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()

    def start():
        return subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                 "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    proc = [start()]
    url = f"redis://127.0.0.1:{port}/0"

    def ready():
        import socket
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)  # polling for the server to listen
        raise RuntimeError("private redis did not start")

    def restart():
        proc[0].kill()
        proc[0].wait(timeout=10)
        proc[0] = start()
        ready()

    ready()
    yield url, restart
    proc[0].kill()
    proc[0].wait(timeout=10)


@pytest.mark.browser
def test_after_a_redis_restart_pages_reconnect_and_catch_up(browser, database_url, private_redis):
    from playwright.sync_api import expect
    url, restart = private_redis
    with LiveServer(env={"REDIS_URL": url}, database_url=database_url, migrate=False) as server:
        status, game = call(server.url, "/api/games", {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}})
        tokens = {side: game["seats"][side]["token"] for side in ("x", "o")}
        context = browser.new_context()
        page = context.new_page()
        try:
            page.goto(server.url + f"/games/{game['id']}")
            expect(page.locator("#conn-status")).to_have_text("live")
            assert call(server.url, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 4}, tokens["x"])[0] == 200
            expect(page.locator("#board")).to_have_attribute("data-turn", "1")
            restart()  # every group membership and queued message is gone with it
            # Moves made now are stored (the broadcast fails or reaches nobody) ...
            assert call(server.url, f"/api/games/{game['id']}/actions", {"turn": 2, "action": 0}, tokens["o"])[0] == 200
            assert call(server.url, f"/api/games/{game['id']}/actions", {"turn": 3, "action": 8}, tokens["x"])[0] == 200
            # ... and the page gets them: its socket is closed when the layer fails, it reconnects and resyncs.
            expect(page.locator("#board")).to_have_attribute("data-turn", "3", timeout=30_000)
            assert call(server.url, f"/api/games/{game['id']}/actions", {"turn": 4, "action": 2}, tokens["o"])[0] == 200
            expect(page.locator("#board")).to_have_attribute("data-turn", "4", timeout=15_000)
        finally:
            context.close()
