"""``python -m games.client`` against a tiny stub of the HTTP API (http.server in a thread).

The stub implements just enough of the protocol (create, long-poll GET, seat-token actions with 200/202/
400/403/409) to play a few turns with a bot in the other seat, then declares the game over."""
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from games import client
from games.bots import make_bot
from games.engine import load_game

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

    def payload(self):
        return {"id": self.id, "game": "ropasci360", "status": "finished" if self.result else "active",
                "turn": len(self.turns), "to_act": [] if self.result else [s for s in ("upper", "lower")
                                                                          if s not in self.pending],
                "state": self.state.to_json(), "result": self.result, "ending": None,
                "turns": self.turns, "url": f"/games/{self.id}", "replay_url": f"/games/{self.id}/replay"}

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

    def do_POST(self):
        srv = self.server
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
        parts = urlsplit(self.path)
        m = re.fullmatch(r"/api/games/(\w+)", parts.path)
        if not m or m.group(1) not in srv.games:
            return self.answer(404, {"error": "not found"})
        g = srv.games[m.group(1)]
        wait = parse_qs(parts.query).get("wait_turn")
        if wait:
            with g.cond:
                g.cond.wait_for(lambda: len(g.turns) >= int(wait[0]) or g.result, timeout=5)
        with srv.lock:
            self.answer(200, g.payload())


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
        assert client.action_to_json(mine) == turn["actions"]["upper"]
        assert client.action_to_json(opp) == turn["actions"]["lower"]
    # the player's own state followed the server's
    assert player.inner.state.to_json()["tokens"] == g.state.to_json()["tokens"]


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


def test_action_forms_round_trip():
    for a in [("THROW", "r", (4, -2)), ("SLIDE", (0, 0), (1, -1)), ("SWING", (0, 0), (2, -1))]:
        assert client.action_from_json(client.action_to_json(a)) == a
        assert client.action_to_json(a) == GAME.action_to_json(a)
    assert client.action_to_json(["SLIDE", [0, 0], [1, -1]]) == ["SLIDE", [0, 0], [1, -1]]
