"""``python -m games.client`` against a tiny stub of the HTTP API (http.server in a thread), and against a
live Daphne with the rate limits on: a program playing at full speed, a lab of clients behind one address, a
server restart mid-game.

The stub implements just enough of the protocol (create, long-poll GET, seat-token actions with 200/202/
400/403/409) to play a few turns with a bot in the other seat, then declares the game over."""
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from games import client, clientagents
from games.ropasci360 import course
from games.bots import make_bot
from games.engine import load_game
from tests import liveserver
from tests.liveserver import LiveServer, api_call

GAME = load_game("ropasci360")
TURN_LIMIT = 3


class StubGame:
    def __init__(self, gid, players):
        self.id = gid
        self.state = GAME.new_initial_state()
        self.players = players
        self.tokens = {seat: f"tok-{gid}-{seat}" for seat, p in players.items() if p == "human"}
        self.bots = {seat: make_bot(p.split(":", 1)[1], GAME, seat, seed=1, seconds=0.02)
                     for seat, p in players.items() if p.startswith("bot:")}
        self.pending = {}
        self.turns = []
        self.result = None
        self.cond = threading.Condition()
        self.bot_moves()

    def bot_moves(self):
        if self.result is None:
            for seat, bot in self.bots.items():
                self.pending[seat] = bot.choose(self.state)

    def payload(self, token=None):
        seat = next((s for s, t in self.tokens.items() if t == token), None)
        return {"id": self.id, "game": "ropasci360", "seat": seat, "status": "finished" if self.result else "active",
                "turn": len(self.turns), "to_act": [] if self.result else [s for s in ("upper", "lower")
                                                                          if s not in self.pending],
                "state": self.state.to_json(), "result": self.result, "ending": None,
                "turns": self.turns, "url": f"/games/{self.id}", "replay_url": f"/games/{self.id}/replay",
                **({"legal_actions": [GAME.action_to_json(a) for a in self.state.legal_actions(seat)]}
                   if seat and not self.result and seat not in self.pending else {})}

    def submit(self, token, turn, action_json):
        seat = next((s for s, t in self.tokens.items() if t == token), None)
        if seat is None:
            return 403, {"error": "bad seat token"}
        if self.result or turn != len(self.turns) + 1 or seat in self.pending:
            return 409, {"error": "stale, duplicate or finished"}
        try:
            action = GAME.action_from_json(action_json, seat)
            self.state.check_action(seat, action)
        except Exception as exc:
            return 400, {"error": str(exc)}
        self.pending[seat] = action
        if len(self.pending) < 2:
            return 202, {"status": "accepted"}
        self.state.apply_actions(self.pending)
        self.turns.append({"number": len(self.turns) + 1,
                           "actions": {s: GAME.action_to_json(a) for s, a in self.pending.items()}})
        self.pending = {}
        if self.state.is_terminal():
            self.result = self.state.result().text
        elif len(self.turns) >= TURN_LIMIT:
            self.result = "draw: maximum number of turns reached"
        self.bot_moves()
        with self.cond:
            self.cond.notify_all()
        return 200, {"status": "resolved"}


class Stub(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.games = {}
        self.lock = threading.Lock()
        self.log = []
        self.refuse = 0  # answer this many requests 429 first

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"null")

    def refused(self) -> bool:
        """429 while the server's ``refuse`` count lasts."""
        if self.server.refuse <= 0:
            return False
        self.server.refuse -= 1
        data = b'{"error": "too many requests: try again in 0 s"}'
        self.send_response(429)
        self.send_header("Retry-After", "0")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        return True

    def do_POST(self):
        srv = self.server
        if self.refused():
            return
        path = urlsplit(self.path).path
        srv.log.append(("POST", path))
        if path == "/api/games":
            data = self.body()
            with srv.lock:
                gid = str(len(srv.games) + 1)
                g = srv.games[gid] = StubGame(gid, data["players"])
            seats = {s: ({"token": g.tokens[s]} if s in g.tokens else {"bot": p}) for s, p in data["players"].items()}
            return self.answer(201, {"id": gid, "url": f"{srv.url}/games/{gid}",
                                     "replay_url": f"{srv.url}/games/{gid}/replay", "seats": seats})
        m = re.fullmatch(r"/api/games/(\w+)/actions", path)
        if m and m.group(1) in srv.games:
            auth = self.headers.get("Authorization", "")
            token = auth[5:] if auth.startswith("Seat ") else None
            data = self.body()
            with srv.lock:
                status, body = srv.games[m.group(1)].submit(token, data["turn"], data["action"])
            srv.log.append(("ANSWER", status))
            return self.answer(status, body)
        self.answer(404, {"error": "not found"})

    def do_GET(self):
        srv = self.server
        if self.refused():
            return
        parts = urlsplit(self.path)
        m = re.fullmatch(r"/api/games/(\w+)", parts.path)
        if not m or m.group(1) not in srv.games:
            return self.answer(404, {"error": "not found"})
        g = srv.games[m.group(1)]
        srv.log.append(("GET", parts.path, self.headers.get("Authorization")))
        wait = parse_qs(parts.query).get("wait_turn")
        if wait:
            with g.cond:
                g.cond.wait_for(lambda: len(g.turns) >= int(wait[0]) or g.result, timeout=5)
        auth = self.headers.get("Authorization", "")
        with srv.lock:
            self.answer(200, g.payload(auth[5:] if auth.startswith("Seat ") else None))


@pytest.fixture
def stub():
    srv = Stub()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


class RecordingPlayer:
    """A course-style player that plays the greedy bot and records what it is told."""

    instances = []

    def __init__(self, player):
        from games.bots.comp30024 import GreedyPlayer
        self.inner = GreedyPlayer(player)
        self.side = player
        self.actions, self.updates = [], []
        RecordingPlayer.instances.append(self)

    def action(self):
        a = self.inner.action()
        self.actions.append(a)
        return a

    def update(self, opponent_action, player_action):
        assert isinstance(opponent_action, tuple) and isinstance(player_action[2], tuple)
        self.updates.append((opponent_action, player_action))
        self.inner.update(opponent_action, player_action)


class IllegalPlayer:
    def __init__(self, player):
        pass

    def action(self):
        return ("SLIDE", (0, 0), (1, 0))  # no token there

    def update(self, opponent_action, player_action):
        pass


def test_client_plays_a_new_game_against_a_server_bot(stub, capsys):
    RecordingPlayer.instances.clear()
    code = client.main(["--server", stub.url, "--player", "tests.test_bots_client:RecordingPlayer",
                        "--bot", "random"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert out[-2] == "result: draw: maximum number of turns reached"
    assert out[-1] == f"replay: {stub.url}/games/1/replay"
    (player,) = RecordingPlayer.instances
    g = stub.games["1"]
    assert g.players == {"upper": "human", "lower": "bot:random"}
    assert len(player.actions) == len(player.updates) == TURN_LIMIT
    for turn, (opp, mine) in zip(g.turns, player.updates):
        assert course.to_json(mine) == turn["actions"]["upper"]
        assert course.to_json(opp) == turn["actions"]["lower"]
    # the player's own state followed the server's
    assert player.inner.state.to_json()["tokens"] == g.state.to_json()["tokens"]
    # every read was the seat's own (a seat's first read of a turn is free of the address's read limit)
    reads = [entry for entry in stub.log if entry[0] == "GET"]
    assert len(reads) >= TURN_LIMIT and all(auth == f"Seat {g.tokens['upper']}" for _, _, auth in reads)


def test_client_joins_an_existing_game_by_seat_token(stub, capsys):
    api = client.Api(stub.url)
    created = api.create_game({"upper": "bot:greedy", "lower": "human"})
    token = created["seats"]["lower"]["token"]
    code = client.main(["--server", stub.url, "--player", "games.bots.comp30024:RandomPlayer",
                        "--game", created["id"], "--seat-token", token, "--seat", "lower"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0, out
    assert out[-2].startswith("result: ") and out[-1].startswith("replay: http://")
    assert len(stub.games[created["id"]].turns) == TURN_LIMIT


def test_client_reports_an_illegal_action_and_exits_1(stub, capsys):
    code = client.main(["--server", stub.url, "--player", "tests.test_bots_client:IllegalPlayer", "--bot", "random"])
    captured = capsys.readouterr()
    assert code == 1
    assert "illegal action" in captured.err
    assert ("ANSWER", 400) in stub.log


def test_client_reports_a_bad_seat_token(stub, capsys):
    api = client.Api(stub.url)
    created = api.create_game({"upper": "human", "lower": "bot:random"})
    code = client.main(["--server", stub.url, "--player", "games.bots.comp30024:RandomPlayer",
                        "--game", created["id"], "--seat-token", "wrong"])
    assert code == 1
    assert "token" in capsys.readouterr().err


def test_client_waits_out_a_rate_limit_and_says_so_when_it_gives_up(stub, capsys):
    """A 429's Retry-After is waited out and the request sent again; a server gone for longer than
    --patience ends the client with a clear message and the command that resumes the game."""
    stub.refuse = 2  # the next two requests answer 429, Retry-After: 0
    code = client.main(["--server", stub.url, "--player", "games.bots.comp30024:RandomPlayer", "--bot", "random"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out.splitlines()[-2].startswith("result: "), captured
    assert captured.err.count("HTTP 429") == 2 and ("ANSWER", 429) not in stub.log

    created = client.Api(stub.url).create_game({"upper": "human", "lower": "bot:random"})
    url = stub.url
    stub.shutdown()
    stub.server_close()  # nothing listens there any more: every request is refused
    code = client.main(["--server", url, "--player", "games.bots.comp30024:RandomPlayer", "--game", created["id"],
                        "--seat-token", "tok-x", "--patience", "1"])
    err = capsys.readouterr().err
    assert code == 1
    assert "gave up: no answer from" in err and "Connection refused" in err
    assert err.rstrip().endswith(f"--game {created['id']} --seat-token tok-x")  # the seat: the server's word


class Recorder:
    """A generic agent that plays the first legal action and records what it is given."""

    def __init__(self, seat):
        self.seat, self.seen, self.ended = seat, [], None

    def choose(self, observation, legal_actions):
        self.seen.append(legal_actions)
        return legal_actions[0]

    def end(self, observation, outcome):
        self.ended = (observation, outcome)


class PartsRecorder(Recorder):
    def choose_parts(self, observation, parts):
        self.seen.append(("parts", parts))
        return [options[-1] for options in parts]


def test_a_generic_agent_plays_the_stub_game_to_its_end(stub, capsys):
    code = client.main(["--server", stub.url, "--player", "games.bots.agent:RandomAgent", "--bot", "greedy",
                        "--game", "ropasci360", "--seat", "lower"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0, out
    assert out[-2] == "result: draw: maximum number of turns reached"
    assert stub.games["1"].players == {"upper": "bot:greedy", "lower": "human"}
    assert len(stub.games["1"].turns) == TURN_LIMIT


def test_the_agent_gets_the_listed_actions_or_the_parts():
    """``choose_parts`` when the agent has it; else the listed product; else ``choose`` once per part."""
    parts = [[1, 2], ["a", "b", "c"]]
    agent = Recorder("p")
    assert clientagents.choose(agent, {"state": {}, "legal_actions": [3, 4]}) == 3
    assert clientagents.choose(agent, {"state": {}, "legal_action_parts": parts,
                                       "legal_actions": [[1, "a"], [1, "b"]]}) == [1, "a"]
    assert clientagents.choose(agent, {"state": {}, "legal_action_parts": parts}) == [1, "a"]
    assert agent.seen[-2:] == parts
    agent = PartsRecorder("p")
    assert clientagents.choose(agent, {"state": {}, "legal_action_parts": parts, "legal_actions": [[1, "a"]]}) == [2, "c"]


def test_which_games_a_class_plays():
    """What the client accepts (a challenge, a --bot game, an invitation): a generic agent every game; a course
    player only games with a course module, in their seats."""
    from games.bots.agent import RandomAgent
    from games.bots.comp30024 import RandomPlayer
    assert clientagents.plays(RandomAgent, "poker", "p5") is None
    assert clientagents.plays(RandomPlayer, "ropasci360", "lower") is None
    assert "no course-style players" in clientagents.plays(RandomPlayer, "tic_tac_toe", "x")
    assert "neither" in clientagents.plays(StubGame, "ropasci360", "upper")


def test_game_names_and_ids_do_not_mix(stub, capsys):
    with pytest.raises(SystemExit):  # with --seat-token, --game is an id
        client.main(["--server", stub.url, "--player", "games.bots.agent:RandomAgent", "--game", "tic_tac_toe",
                     "--seat-token", "t"])
    with pytest.raises(SystemExit):  # with --bot, a name
        client.main(["--server", stub.url, "--player", "games.bots.agent:RandomAgent", "--game", "abcdefghij",
                     "--bot", "random"])
    # a course player plays only games with a course module
    assert client.main(["--server", stub.url, "--player", PLAYER, "--game", "tic_tac_toe", "--bot", "random"]) == 2
    assert "no course-style players" in capsys.readouterr().err
    assert stub.games == {}


def test_action_forms_round_trip():
    for a in [("THROW", "r", (4, -2)), ("SLIDE", (0, 0), (1, -1)), ("SWING", (0, 0), (2, -1))]:
        assert course.from_json(course.to_json(a)) == a
        assert course.to_json(a) == GAME.action_to_json(a)
    assert course.to_json(["SLIDE", [0, 0], [1, -1]]) == ["SLIDE", [0, 0], [1, -1]]


# --- the real client against a live Daphne with the rate limits on, at their defaults ---------------------

BASE_DIR = Path(__file__).resolve().parent.parent
REFUSED = re.compile(r'" 429 \d+$', re.M)  # a 429 in Daphne's access log
PLAYER = "games.bots.comp30024:RandomPlayer"
AGENT = "games.bots.agent:RandomAgent"


@pytest.fixture(scope="module")
def limited():
    """A live server with the rate limits on at their defaults; the strong bot quick (many games at once)."""
    with LiveServer(env={"RATE_LIMITS": "1", "BOT_SECONDS": "0.02"}) as srv:
        yield srv


def run_clients(srv, n: int, *args: str, player: str = PLAYER, timeout: float = 240) -> list[tuple[int, str, str]]:
    """``n`` clients at once, ``python -m games.client --server URL --player PLAYER ARGS``: (code, out, err)."""
    procs = [subprocess.Popen([sys.executable, "-m", "games.client", "--server", srv.url, "--player", player, *args],
                              cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(n)]
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            results.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return results


def test_programs_playing_as_fast_as_the_server_answers_are_never_refused(limited):
    # Each move is legal and one a turn: however fast it comes, no limit refuses it, also with several programs
    # behind one address (each seat's read of a new turn is free).
    before = len(REFUSED.findall(limited.read_log()))
    results = run_clients(limited, 4, "--bot", "random")
    for code, out, err in results:
        assert code == 0, err
        assert out.splitlines()[-2].startswith("result: ") and "429" not in err
    assert len(REFUSED.findall(limited.read_log())) == before


def test_twenty_clients_from_one_address_all_finish_against_the_strong_bot(limited):
    # A course lab: many students behind one address, each long-polling while the bot thinks. The generic agent
    # starts in a tenth of the course adapter's second (which loads SciPy for its strong level).
    before = len(REFUSED.findall(limited.read_log()))
    results = run_clients(limited, 20, "--game", "ropasci360", "--bot", "strong", player=AGENT)
    assert [code for code, _, _ in results] == [0] * 20, [err for code, _, err in results if code]
    assert all(out.splitlines()[-2].startswith("result: ") for _, out, _ in results)
    assert len(REFUSED.findall(limited.read_log())) == before



def finished_game(srv, out: str) -> dict:
    """The game a client's output ends with (``result:``, ``replay: URL``), as a spectator reads it."""
    lines = out.splitlines()
    assert lines[-2].startswith("result: ") and lines[-1].startswith(f"replay: {srv.url}/games/"), out
    status, game = api_call(srv.url, f"/api/games/{lines[-1].split('/games/')[1].split('/')[0]}")
    assert status == 200 and game["status"] == "finished", game
    return game


@pytest.mark.parametrize("name,params", [("tic_tac_toe", {}), ("nim3p", {}), ("ropasci360", {}),
                                         ("poker", {"players": 3})])
def test_a_generic_agent_plays_any_game_against_the_server_bot(limited, name, params):
    """Alternating, three seats (both others the bot), simultaneous, hidden cards and chance: the same agent
    plays each to a result."""
    ((code, out, err),) = run_clients(limited, 1, "--game", name, "--params", json.dumps(params), "--bot", "random",
                                      player=AGENT)
    assert code == 0, err
    game = finished_game(limited, out)
    seats = list(load_game(name, **params).info.players)
    assert game["game"] == name and list(game["seats"]) == seats and game["outcome"]["text"] == game["result"]
    assert {s: p["bot"] for s, p in game["seats"].items()} == {seats[0]: None, **{s: "random" for s in seats[1:]}}


def test_the_example_bot_of_the_api_guide_wins_nim_as_it_says(limited, tmp_path):
    guide = (BASE_DIR / "docs" / "api.md").read_text().split("## Write a bot", 1)[1]
    (tmp_path / "my_bot.py").write_text(re.search(r"```python\n(.*?)```", guide, re.S).group(1))
    proc = subprocess.run([sys.executable, "-m", "games.client", "--server", limited.url, "--player", "my_bot",
                           "--game", "nim", "--bot", "strong"], cwd=BASE_DIR, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{BASE_DIR}"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-3:-1] == ["won", "result: winner: black"]


def test_a_generic_agent_joins_an_invitation_in_the_seat_of_its_token(limited):
    status, created = api_call(limited.url, "/api/games", {"game": "nim3p",
                                                           "players": {"p0": "bot:random", "p1": "human",
                                                                       "p2": "bot:greedy"}})
    assert status == 201, created
    ((code, out, err),) = run_clients(limited, 1, "--game", created["id"], "--seat-token",
                                      created["seats"]["p1"]["token"], player=AGENT)
    assert code == 0, err
    assert out.startswith(f"game {created['id']}: {AGENT} as p1")
    assert finished_game(limited, out)["id"] == created["id"]


BOT_ACCOUNT = """
from django.contrib.auth import get_user_model
from players import services
bot = get_user_model().objects.create_user("any-game-bot", password="x-any-game-long-password")
print(services.create_api_key(bot, "client").secret)
"""


def test_a_bot_account_with_a_generic_agent_plays_a_challenge_of_any_game(limited):
    key = limited.manage("shell", "-c", BOT_ACCOUNT).stdout.split()[-1]
    status, made = api_call(limited.url, "/api/challenges", {"target": "any-game-bot", "game": "tic_tac_toe",
                                                             "side": "x", "name": "tester"})
    assert status == 201, made
    proc = subprocess.Popen([sys.executable, "-m", "games.client", "--server", limited.url, "--key", key,
                             "--player", AGENT, "--games", "1"],
                            cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(90, proc.kill)  # never hang the suite on a stuck client
    watchdog.start()
    try:
        first = proc.stdout.readline()  # "game <id>: ... as o ...", once it has accepted
        assert first.startswith("game ") and " as o " in first, first + proc.stderr.read()
        game_id = first.split()[1].rstrip(":")
        from games.bots.agent import RandomAgent
        game = client.play(client.Api(limited.url), game_id, "x", made["seat_token"], RandomAgent("x"))
        rest, err = proc.communicate(timeout=60)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert game["status"] == "finished" and game["game"] == "tic_tac_toe"
    assert rest.strip().splitlines()[-3:] == [f"result: {game['result']}", f"replay: {game['replay_url']}",
                                              "played 1 game"]


def test_the_client_resumes_its_game_after_a_server_restart(monkeypatch):
    """The server is killed mid-game and stays down while the client tries again five times (some 8 s, longer
    than the client once waited before giving up), then starts again on the same port and database: the
    client reads the game where it is and plays it to its end."""
    with LiveServer(env={"RATE_LIMITS": "1"}) as srv:
        status, created = api_call(srv.url, "/api/games", {"game": "ropasci360",
                                                           "players": {"upper": "human", "lower": "human"}})
        assert status == 201, created
        game_id, upper, lower = created["id"], created["seats"]["upper"]["token"], created["seats"]["lower"]["token"]
        proc = subprocess.Popen([sys.executable, "-m", "games.client", "--server", srv.url, "--player", PLAYER,
                                 "--game", game_id, "--seat-token", upper, "--seat", "upper"],
                                cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        errors = queue.Queue()  # the client's stderr, line by line (None: it ended)
        threading.Thread(target=lambda: [errors.put(line) for line in proc.stderr] + [errors.put(None)],
                         daemon=True).start()
        try:
            for turn in (1, 2, 3):  # the test plays lower; the client, upper
                play_lower(srv, game_id, lower, turn)
            port = srv.port
            srv.process.kill()
            srv.process.wait()
            for _ in range(5):
                line = errors.get(timeout=60)  # the client's "... trying again in S s", one per attempt
                assert line is not None and "trying again" in line, line
            monkeypatch.setattr(liveserver, "free_port", lambda: port)
            srv.kill_and_restart()
            assert srv.port == port
            for turn in (4, 5):  # the client must come back to play upper's moves for these turns
                play_lower(srv, game_id, lower, turn)
            status, game = api_call(srv.url, f"/api/games/{game_id}/resign", {}, token=lower)
            assert status == 200 and game["status"] == "finished", game
            out = proc.stdout.read()
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, list(errors.queue)
    assert out.splitlines()[-2].startswith("result: "), out


def play_lower(srv, game_id: str, token: str, turn: int) -> None:
    """Lower's first legal move of ``turn``, once turn - 1 has resolved; returns when ``turn`` has resolved."""
    deadline = time.monotonic() + 60
    while True:
        status, game = api_call(srv.url, f"/api/games/{game_id}?wait_turn={turn - 1}", token=token)
        assert status == 200, game
        if game["turn"] == turn - 1 and "lower" in game["to_act"]:
            break
        assert time.monotonic() < deadline, game
    status, answer = api_call(srv.url, f"/api/games/{game_id}/actions",
                              {"turn": turn, "action": game["legal_actions"][0]}, token=token)
    assert status in (200, 202), answer
    while api_call(srv.url, f"/api/games/{game_id}?wait_turn={turn}", token=token)[1]["turn"] < turn:
        assert time.monotonic() < deadline, f"turn {turn} did not resolve: the client did not play it"


# --- the 2020 course interface (Expendibots) and one-player games, through the real client -----------------

class Recording2020Player:
    """A 2020-style course player (our greedy level) that records every ``update(colour, action)`` it is told."""

    instances = []

    def __init__(self, colour):
        from games.bots.comp30024_2020 import GreedyPlayer
        self.inner = GreedyPlayer(colour)
        self.told = []
        Recording2020Player.instances.append(self)

    def action(self):
        return self.inner.action()

    def update(self, colour, action):
        assert isinstance(action, tuple) and all(isinstance(sq, tuple) for sq in action[2 if action[0] == "MOVE"
                                                                                        else 1:]), action
        self.told.append((colour, action))
        self.inner.update(colour, action)


def test_a_2020_style_player_is_told_every_action_as_the_2020_referee_tells_it(limited, capsys):
    Recording2020Player.instances.clear()
    code = client.main(["--server", limited.url, "--player", "tests.test_bots_client:Recording2020Player",
                        "--game", "expendibots", "--seat", "black", "--bot", "strong"])
    out = capsys.readouterr().out
    assert code == 0, out
    game = finished_game(limited, out)
    assert game["game"] == "expendibots" and game["seats"]["black"]["bot"] is None
    (player,) = Recording2020Player.instances
    from games.expendibots import course as course2020
    expected = [(seat, course2020.from_json(action)) for t in game["turns"] for seat, action in t["actions"].items()]
    assert player.told == expected and {c for c, _ in expected} == {"white", "black"}  # its own actions too
    assert player.inner.state.to_json()["stacks"] == game["state"]["stacks"]
    assert player.inner.state.result().text == game["result"]


def test_the_2020_example_of_the_api_guide_plays_on_the_server(limited, tmp_path):
    """An unmodified 2020-style package (the guide's example) plays a whole game through ``python -m
    games.client`` in either colour."""
    guide = (BASE_DIR / "docs" / "api.md").read_text().split("### A 2020-style Expendibots player", 1)[1]
    (tmp_path / "my_expendibot.py").write_text(re.search(r"```python\n(.*?)```", guide, re.S).group(1))
    for seat in ("white", "black"):
        proc = subprocess.run([sys.executable, "-m", "games.client", "--server", limited.url, "--player",
                               "my_expendibot", "--game", "expendibots", "--seat", seat, "--bot", "random"],
                              cwd=BASE_DIR, capture_output=True, text=True, timeout=180,
                              env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{BASE_DIR}"})
        assert proc.returncode == 0, proc.stderr
        game = finished_game(limited, proc.stdout)
        assert game["game"] == "expendibots" and game["seats"][seat]["bot"] is None
        assert any(seat in t["actions"] for t in game["turns"])


def test_a_one_player_game_needs_no_bot(limited):
    ((code, out, err),) = run_clients(limited, 1, "--game", "g2048", player=AGENT)
    assert code == 0, err
    assert re.match(r"game \w+: games\.bots\.agent:RandomAgent as player; watch: http", out), out
    game = finished_game(limited, out)
    assert game["game"] == "2048" and list(game["seats"]) == ["player"] and game["seats"]["player"]["bot"] is None


def test_a_game_of_more_seats_still_needs_a_bot(capsys):
    with pytest.raises(SystemExit):
        client.main(["--server", "http://127.0.0.1:9", "--player", AGENT, "--game", "expendibots"])
    assert "give --bot LEVEL for the other seats of expendibots" in capsys.readouterr().err
