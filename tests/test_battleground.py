"""The course's battleground over real TCP against a live server process (``python -m ropasci.server`` with
``BATTLEGROUND_PORT`` on a free port): clients written from the 2021 COMP30024 client's behaviour play whole
games, which are then ordinary games of the site."""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from games.bots.comp30024 import GreedyPlayer, RandomPlayer
from tests.liveserver import BASE_DIR, LiveServer, api_call, free_port

RESULT_LINE = re.compile(r"^(winner: (upper|lower)|draw: .+)$")


class ServerError(Exception):
    """The server sent ERRO (the course client's ServerEncounteredError)."""


class CourseClient:
    """The course's battleground client, as it talks: JSON lines with "mtype", lists read back as tuples."""

    def __init__(self, port: int, timeout: float = 60):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.file = self.sock.makefile("rb")
        self.seen: list[dict] = []

    def send(self, mtype: str, **fields) -> None:
        self.sock.sendall((json.dumps({"mtype": mtype, **fields}, separators=(",", ":")) + "\n").encode())

    def send_raw(self, line: bytes) -> None:
        self.sock.sendall(line)

    def recv(self, *types: str) -> dict:
        line = self.file.readline()
        if not line:
            raise ConnectionError("connection lost")
        msg = json.loads(line, object_hook=lambda o: {k: _tuples(v) for k, v in o.items()})
        self.seen.append(msg)
        assert msg["mtype"] in types, f"unexpected {msg} (expected {types})"
        return msg

    def request(self, name: str, channel: str = "") -> None:
        self.send("PLAY", name=name, channel=channel)
        self.recv("OKAY")

    def wait_for_game(self) -> dict:
        """Answer the server's keep-alive OKAYs until GAME comes."""
        msg = self.recv("OKAY", "GAME")
        while msg["mtype"] != "GAME":
            self.send("OKAY")
            msg = self.recv("OKAY", "GAME")
        return msg

    def play(self, player_class=RandomPlayer, turns: int | None = None, action=None):
        """INIT, then the turns (all, or ``turns`` of them) with a course ``Player``; the OVER result, or None
        after ``turns``. ``action(turn, player)`` may replace the player's action."""
        colour = self.recv("INIT")["colour"]
        player = player_class(colour)
        self.send("OKAY")
        played = 0
        while True:
            msg = self.recv("TURN", "UPD8", "OVER", "ERRO")
            if msg["mtype"] == "TURN":
                if turns is not None and played == turns:
                    return None
                played += 1
                chosen = action(played, player) if action else None
                self.send("ACTN", action=chosen if chosen is not None else player.action())
            elif msg["mtype"] == "UPD8":
                player.update(opponent_action=msg["opponent_action"], player_action=msg["player_action"])
                self.send("OKAY")
            elif msg["mtype"] == "OVER":
                return msg["result"]
            else:
                raise ServerError(msg["reason"])

    def close(self) -> None:
        self.file.close()
        self.sock.close()

    def at_eof(self) -> bool:
        return self.file.readline() == b""


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def listening(srv, port: int, timeout: float = 20) -> bool:
    """Whether the server's log says it listens on ``port`` (False if it could not have the port)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = srv.read_log()
        if f"listening on 127.0.0.1:{port}" in log:
            return True
        if "the battleground cannot listen" in log:
            return False
        time.sleep(0.05)
    raise AssertionError(f"the battleground did not start:\n{srv.read_log()}")


@pytest.fixture(scope="module")
def battle():
    for _ in range(3):  # another process may take the free port first
        port = free_port()
        # Keep-alives every half second, not five: the tests that wait for one take that long.
        with LiveServer(env={"BATTLEGROUND_PORT": str(port), "SITE_URL": "https://ropasci.example",
                             "BATTLEGROUND_KEEPALIVE_SECONDS": "0.5"}) as srv:
            if listening(srv, port):
                srv.battleground_port = port
                yield srv
                return
    raise AssertionError("no free port for the battleground")


def game_links(srv) -> list[str]:
    return re.findall(r"battleground game (\w+) \(.*?\): https://ropasci\.example/games/(\w+)", srv.read_log())


def game_of(srv, names: str) -> dict:
    """The game the server's log links for ``names`` ("a vs b"), as the API shows it once it is over."""
    ids = re.findall(rf"battleground game (\w+) \({re.escape(names)}[,)].*: https://ropasci\.example/games/\1\b",
                     srv.read_log())
    assert len(ids) == 1, srv.read_log()
    status, game = api_call(srv.url, f"/api/games/{ids[0]}?wait_turn=100000")
    assert status == 200
    return game


def in_threads(*jobs):
    results, errors = [None] * len(jobs), []

    def run(i, job):
        try:
            results[i] = job()
        except BaseException as exc:  # noqa: B036 (reported below)
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    return results


def test_two_clients_on_one_channel_play_a_whole_game_of_the_site(battle):
    a, b = CourseClient(battle.battleground_port), CourseClient(battle.battleground_port)
    a.request("ann", "match-1")
    b.request("bob", "match-1")
    game_a, game_b = a.wait_for_game(), b.wait_for_game()
    assert game_a == game_b and {game_a["upper"], game_a["lower"]} == {"ann", "bob"}
    assert list(game_a) == ["mtype", "upper", "lower"]
    results = in_threads(lambda: a.play(GreedyPlayer), lambda: b.play(RandomPlayer))
    assert results[0] == results[1] and RESULT_LINE.match(results[0]), results
    game = game_of(battle, f"{game_a['upper']} vs {game_a['lower']}")
    assert game["status"] == "finished" and game["result"] == results[0] and game["ending"] == "rules"
    assert {side: s["name"] for side, s in game["seats"].items()} == {"upper": game_a["upper"],
                                                                      "lower": game_a["lower"]}
    ann = "upper" if game_a["upper"] == "ann" else "lower"
    updates = [m for m in a.seen if m["mtype"] == "UPD8"]
    other = "lower" if ann == "upper" else "upper"
    assert len(updates) == game["turn"] == len(game["turns"])
    for update, record in zip(updates, game["turns"]):
        assert {k: _tuples(v) for k, v in record["actions"].items()} == {ann: update["player_action"], other: update["opponent_action"]}
    status, page = battle.get(f"/games/{game['id']}")
    assert status == 200 and "ann" in page and "bob" in page
    a.close()
    b.close()


def test_a_bot_channel_plays_at_once_and_a_client_that_leaves_resigns(battle):
    c = CourseClient(battle.battleground_port)
    c.request("carol", "bot:random")
    game = c.recv("GAME")  # no keep-alive first: the bot is there
    assert "carol" in game.values() and "bot (random)" in game.values()
    assert c.play(RandomPlayer, turns=3) is None
    status, home = battle.get("/")
    assert status == 200 and "carol" in home  # listed live on the home page
    c.close()  # mid-game
    api = game_of(battle, f"{game['upper']} vs {game['lower']}")
    bot = "upper" if game["upper"] == "bot (random)" else "lower"
    assert api["status"] == "finished" and api["ending"] == "resignation" and api["result"] == f"winner: {bot}"
    assert api["turn"] == 3


def test_a_client_that_leaves_after_its_move_loses_at_once(battle):
    a, b = CourseClient(battle.battleground_port), CourseClient(battle.battleground_port)
    a.request("kai", "leaving")
    b.request("lou", "leaving")
    game = a.wait_for_game()
    b.wait_for_game()
    for c in (a, b):
        c.recv("INIT")
        c.send("OKAY")
    for c in (a, b):
        c.recv("TURN")
    a.send("ACTN", action=["THROW", "r", [4, 0] if game["upper"] == "kai" else [-4, 0]])
    a.close()
    lou = "upper" if game["upper"] == "lou" else "lower"
    assert b.recv("OVER")["result"] == f"winner: {lou}"  # without lou's move: the turn is not waited for
    api = game_of(battle, f"{game['upper']} vs {game['lower']}")
    assert api["ending"] == "resignation" and api["turn"] == 0
    b.close()


def test_an_unknown_bot_level_is_refused(battle):
    c = CourseClient(battle.battleground_port)
    c.send("PLAY", name="dave", channel="bot:grandmaster")
    reason = c.recv("ERRO")["reason"]
    assert "unknown bot level 'grandmaster'" in reason and "bot:random" in reason
    assert c.at_eof()


def test_channels_are_kept_apart_and_waiting_clients_are_kept_alive(battle):
    alpha, open_ = CourseClient(battle.battleground_port), CourseClient(battle.battleground_port)
    alpha.request("eve", "alpha")
    open_.request("fay")
    assert alpha.recv("OKAY", "GAME")["mtype"] == "OKAY"  # a keep-alive, not a game with the open channel
    assert open_.recv("OKAY", "GAME")["mtype"] == "OKAY"
    alpha.send("OKAY")
    open_.send("OKAY")
    beta, third = CourseClient(battle.battleground_port), CourseClient(battle.battleground_port)
    beta.request("gus", "alpha")
    third.request("ida", "alpha")
    assert {beta.wait_for_game()["upper"], alpha.wait_for_game()["upper"]} <= {"eve", "gus"}  # first come
    assert open_.recv("OKAY", "GAME")["mtype"] == "OKAY"  # still waiting for its own channel
    assert third.recv("OKAY", "GAME")["mtype"] == "OKAY"  # the channel's next game waits for a fourth
    for c in (alpha, beta, open_, third):
        c.close()


@pytest.mark.parametrize("first, reason", [
    (b"hello there\n", "not a JSON line"),
    (b'{"mtype": "ACTN", "action": ["THROW", "r", [0, 0]]}\n', "expected PLAY, got ACTN"),
    (b'{"mtype": "PLAY", "channel": "x"}\n', "PLAY needs a \"name\""),
    (b'{"mtype": "PLAY", "name": "rpk_not-a-key"}\n', "unknown key"),
])
def test_bad_input_gets_erro_and_changes_nothing(battle, first, reason):
    waiting = CourseClient(battle.battleground_port)
    waiting.request("hal", "bad-input")
    before = game_links(battle)
    c = CourseClient(battle.battleground_port)
    c.send_raw(first)
    assert reason in c.recv("ERRO")["reason"]
    assert c.at_eof()
    assert waiting.recv("OKAY", "GAME")["mtype"] == "OKAY"  # still waiting, alone
    assert game_links(battle) == before
    waiting.close()


def test_an_illegal_action_gets_erro_and_loses_the_game(battle):
    a, b = CourseClient(battle.battleground_port), CourseClient(battle.battleground_port)
    a.request("ivy", "illegal")
    b.request("jon", "illegal")
    game = a.wait_for_game()
    b.wait_for_game()

    def off_the_board():
        with pytest.raises(ServerError, match=r"illegal action: .*not on the board"):
            a.play(RandomPlayer, action=lambda turn, player: ["THROW", "r", [9, 9]])
        return a.at_eof()
    closed, result = in_threads(off_the_board, lambda: b.play(RandomPlayer))
    ivy = "upper" if game["upper"] == "ivy" else "lower"
    jon = "lower" if ivy == "upper" else "upper"
    assert closed and result == f"winner: {jon}"
    api = game_of(battle, f"{game['upper']} vs {game['lower']}")
    assert api["ending"] == "resignation" and api["turn"] == 0 and api["turns"] == []
    a.close()
    b.close()


def test_a_name_that_is_an_api_key_plays_as_its_account_and_is_rated(battle):
    made = battle.manage("shell", "-c", (
        "from django.contrib.auth import get_user_model; from players.services import create_api_key; "
        "print(create_api_key(get_user_model().objects.create_user('lena', password='x' * 12)).secret)"))
    key = made.stdout.strip().splitlines()[-1]
    c = CourseClient(battle.battleground_port)
    c.request(key, "bot:random")
    game = c.recv("GAME")
    assert "lena" in game.values() and key not in json.dumps(game)  # the key stays secret
    assert c.play(RandomPlayer, turns=1) is None
    c.close()
    api = game_of(battle, f"{game['upper']} vs {game['lower']}")
    assert api["status"] == "finished" and key not in battle.read_log()
    rated = battle.manage("shell", "-c", (
        f"from players.models import RatedGame; print(RatedGame.objects.get(game_id={api['id']!r}).state)"))
    assert rated.stdout.strip().splitlines()[-1] == "rated"


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (from /proc: its sockets' inodes in the listening state)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = str(fd.readlink()) if fd.is_symlink() else ""
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            cols = row.split()
            if cols[3] == "0A" and cols[9] in inodes:
                ports.add(int(cols[1].rsplit(":", 1)[1], 16))
    return ports


def test_the_site_listens_on_battleground_port_and_0_turns_it_off(battle):
    assert listening_ports(battle.process.pid) == {battle.port, battle.battleground_port}
    with LiveServer(env={"BATTLEGROUND_PORT": "0"}) as off:
        assert listening_ports(off.process.pid) == {off.port}
        assert "battleground" not in off.read_log()


def lines_until(proc, text: str) -> list[str]:
    """The process's output lines up to the first holding ``text`` (all of it if it ends first)."""
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if text in line:
            break
    return lines


def test_manage_py_battleground_runs_it_on_its_own(battle):
    port = free_port()
    env = {**battle.env, "RATE_LIMITS": "0.05"}  # 3 games a minute from one address
    proc = subprocess.Popen([sys.executable, "manage.py", "battleground", "--port", str(port)], cwd=BASE_DIR,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert any(f"listening on 127.0.0.1:{port}" in line for line in lines_until(proc, "listening on"))
        c = CourseClient(port)
        c.request("kim", "bot:random")
        assert "kim" in c.recv("GAME").values()
        assert c.play(RandomPlayer, turns=1) is None
        c.close()
        line = lines_until(proc, "battleground game")[-1]
        assert re.match(r"battleground game (\w+) \(.*\bkim\b.*\): https://ropasci\.example/games/\1$", line)
        answers = []
        for i in range(7):  # 3 a window: refused by the 4th, or by the 7th if a window ends meanwhile
            c = CourseClient(port)
            c.send("PLAY", name=f"player {i}", channel=f"rate {i}")
            answers.append(c.recv("OKAY", "ERRO"))
            if answers[-1]["mtype"] == "ERRO":
                break
        assert re.match(r"too many games from your address: try again in \d+ s$", answers[-1]["reason"])
        assert 3 <= len(answers) <= 7 and all(a["mtype"] == "OKAY" for a in answers[:-1])
    finally:
        proc.terminate()
        proc.wait(10)
