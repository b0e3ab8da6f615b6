"""The replay's analysis of RoPaSci 360 (the strong bot's equilibrium per position, computed in the bot workers,
cached) and its animated GIF export (every other game: tests/test_analysis_every_game.py). Against real games: a tournament log when ../shared is here, else a game the bots
play here."""

import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from PIL import Image

from games.read import analysis, analysisview
from games.play import importer, services
from games.web import previews, replaygif
from games.bots import make_bot, matrixanalysis, strong
from games.bots.analysis import actual_actions
from games.engine import load_game
from games.engine.history import apply_record
from games.ropasci360 import bots as rps_bots
from games.ropasci360.logs import write
from games.engine.ui import ui_for

from tests.test_import import FIXTURES

pytestmark = pytest.mark.django_db

REAL = FIXTURES / "round-1-1.01.0.txt"  # 22 turns, a draw by repetition
HTMX = {"HTTP_HX_REQUEST": "true"}
BASE_DIR = Path(__file__).resolve().parent.parent


def bot_log(turns: int = 24) -> str:
    """A game of two strong bots (seeded, short budget), as a referee log."""
    game = load_game("ropasci360")
    state = game.new_initial_state()
    players = {side: make_bot("strong", game, side, seed=7 + i, seconds=0.02) for i, side in enumerate(game.info.players)}
    played = []
    while not state.is_terminal() and len(played) < turns:
        actions = {side: bot.choose(state) for side, bot in players.items()}
        played.append(actions)
        state.apply_actions(actions)
    return write(played)


@pytest.fixture
def game(db):
    cache.clear()
    if REAL.exists():
        return importer.import_bytes(REAL.read_bytes(), filename=REAL.name).game
    return importer.import_text(bot_log(), filename="alpha-vs-beta.txt").game


def records(game):
    return list(game.turns.order_by("number").values_list("actions", flat=True))


def direct(game, n: int, seconds: float) -> dict:
    """The bot's ``analyse`` called here, on the position after n turns with its history and the turn played."""
    engine = load_game(game.kind, **game.params)
    log = records(game)
    state = engine.new_initial_state()
    seen = Counter([rps_bots.position_key(state)])
    for record in log[:n]:
        apply_record(engine, state, record)
        seen[rps_bots.position_key(state)] += 1
    return rps_bots.analyse(state, seconds, seen=dict(seen), actual=actual_actions(engine, log, n))


def get_json(client, game, n):
    response = client.get(f"/games/{game.id}/replay/analysis", {"turn": n, "format": "json"})
    assert response.status_code == 200, response.content
    return response, json.loads(response.content)


def test_analysis_values_match_a_direct_call_of_the_bot_and_are_cached(game):
    client = Client()
    assert game.is_over and game.turn >= 12
    for n in (0, 5, 12, game.turn):
        response, body = get_json(client, game, n)
        assert body["cached"] is False and response["X-Analysis-Cache"] == "miss"
        expected = direct(game, n, analysis.POSITION_SECONDS)
        assert body["value"] == pytest.approx(expected["value"], abs=1e-9)
        assert body["width"] == expected["width"] == matrixanalysis.width_for(analysis.POSITION_SECONDS)
        assert set(body["strategies"]) == set(expected["strategies"])
        for side, strategy in expected["strategies"].items():
            assert [a for a, _ in body["strategies"][side]] == [a for a, _ in strategy]
            assert [p for _, p in body["strategies"][side]] == pytest.approx([p for _, p in strategy], abs=1e-9)
            assert sum(p for _, p in strategy) == pytest.approx(1.0, abs=1e-3)
        if n < game.turn:
            for side, actual in expected["actual"].items():
                mine = body["actual"][side]
                assert mine["action"] == actual["action"] == records(game)[n][side]
                assert mine["gave_away"] == pytest.approx(actual["gave_away"], abs=1e-9)
                assert mine["probability"] == pytest.approx(actual["probability"], abs=1e-9)
        else:  # nothing was played after the last position (its strategies were compared above)
            assert "actual" not in body
        # The second request is answered from the cache.
        again, cached = get_json(client, game, n)
        assert cached["cached"] is True and again["X-Analysis-Cache"] == "hit"
        assert cached["value"] == body["value"] and cached["strategies"] == body["strategies"]


def test_an_actual_choice_in_the_support_gives_nothing_away_and_outside_it_is_valued_by_the_same_matrix(game):
    engine = load_game("ropasci360")
    log = records(game)
    state = engine.new_initial_state()
    for record in log[:6]:
        apply_record(engine, state, record)
    plain = rps_bots.analyse(state, 0.05)
    upper = plain["strategies"]["upper"]
    best = engine.action_from_json(upper[0][0], "upper")
    lower_any = engine.action_from_json(plain["strategies"]["lower"][0][0], "lower")
    checked = rps_bots.analyse(state, 0.05, actual={"upper": best, "lower": lower_any})
    assert checked["actual"]["upper"]["gave_away"] == pytest.approx(0.0, abs=1e-6)
    assert checked["actual"]["upper"]["probability"] == pytest.approx(upper[0][1])
    # An action beyond the matrix (the last legal one in candidate order) is valued all the same.
    bot = strong.StrongBot(engine, "upper", seconds=0.0)
    outside = bot.candidates(state)[0][-1]
    width = matrixanalysis.width_for(0.05)
    assert len(state.legal_actions("upper")) > width
    far = rps_bots.analyse(state, 0.05, actual={"upper": outside, "lower": lower_any})
    assert far["actual"]["upper"]["candidate"] is False and far["actual"]["upper"]["probability"] == 0.0
    assert far["actual"]["upper"]["gave_away"] == pytest.approx(
        plain["value"] - far["actual"]["upper"]["value"], abs=1e-5)
    # Deterministic: the same call gives the same answer.
    assert rps_bots.analyse(state, 0.05) == plain


def test_the_fragment_shows_bars_and_words_and_a_page_without_htmx(game):
    client = Client()
    n = 6
    _, body = get_json(client, game, n)
    html = client.get(f"/games/{game.id}/replay/analysis", {"turn": n}, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="analysis"') and "<html" not in html
    assert f'data-turn="{n}"' in html
    shown = sum(min(len(s), analysisview.SHOWN) for s in body["strategies"].values())
    assert html.count('class="an-bar-fill"') == shown
    ui = ui_for(services.engine_for(game))
    observation = services.state_at(game, n).observation(None)
    top = body["strategies"]["upper"][0]
    assert ui.action_words("upper", top[0], observation) in html
    assert f"Turn {n + 1}: played" in html and ("gave away" in html or "gave nothing away" in html)
    page = client.get(f"/games/{game.id}/replay/analysis", {"turn": n})
    assert page.status_code == 200
    text = page.content.decode()
    assert "<html" in text and 'id="analysis"' in text and f"/games/{game.id}/replay?turn={n}" in text


@pytest.mark.parametrize("raw, status", [("", 400), ("abc", 400), ("1.5", 400), ("9" * 5000, 400), ("-1", 404),
                                         ("999", 404), ("0x1", 400)])
def test_bad_turn_numbers_are_400_or_404(game, raw, status):
    client = Client()
    for extra in ({}, {"format": "json"}):
        response = client.get(f"/games/{game.id}/replay/analysis", {"turn": raw, **extra})
        assert response.status_code == status
        if extra:
            assert "error" in json.loads(response.content)
    fragment = client.get(f"/games/{game.id}/replay/analysis", {"turn": raw}, **HTMX)
    assert fragment.status_code == status and 'id="analysis"' in fragment.content.decode()
    assert 'role="alert"' in fragment.content.decode()


def test_what_is_refused(game):
    client = Client()
    assert client.get(f"/games/{game.id}/replay/analysis").status_code == 400  # no turn
    assert client.get("/games/nosuchgame/replay/analysis?turn=0").status_code == 404
    assert client.get("/games/nosuchgame/replay/analysis/game").status_code == 404
    assert client.post(f"/games/{game.id}/replay/analysis?turn=0").status_code == 405
    # A game in play: its positions would advise the players.
    live = services.create_game("ropasci360", {"upper": "human", "lower": "human"}).game
    response = client.get(f"/games/{live.id}/replay/analysis?turn=0&format=json")
    assert response.status_code == 409 and "over" in json.loads(response.content)["error"]
    page = client.get(f"/games/{live.id}/replay").content.decode()
    assert "Analysis opens when the game is over" in page and 'id="analysis-form"' not in page
    # Every game has analysis once it is over.
    ttt = services.create_game("tic_tac_toe", {"x": "human", "o": "human"}).game
    assert client.get(f"/games/{ttt.id}/replay/analysis?turn=0").status_code == 409


def test_the_replay_page_offers_analysis_and_the_gif(game):
    html = Client().get(f"/games/{game.id}/replay?turn=3").content.decode()
    assert 'id="analysis-form"' in html
    assert re.search(r'<input type="hidden" name="turn" value="3" id="analysis-turn">', html)
    assert f'hx-get="/games/{game.id}/replay/analysis"' in html
    assert "Analyse the whole game" in html
    if previews.preview_available():
        assert f'href="/games/{game.id}/replay.gif"' in html and "Download as GIF" in html


def test_the_whole_game_chart(game):
    client = Client()
    response = client.get(f"/games/{game.id}/replay/analysis/game", {"format": "json"})
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["missing"] == 0 and len(body["values"]) == game.turn + 1
    assert all(v is not None and -1 <= v <= 1 for v in body["values"])
    seconds = analysis.game_seconds(game.turn + 1)
    assert body["seconds"] == seconds == analysis.GAME_SECONDS  # a short game: the whole budget per position
    assert body["values"][4] == pytest.approx(direct(game, 4, seconds)["value"], abs=1e-9)
    assert body["seat_values"]["lower"][4] == pytest.approx(-body["values"][4], abs=1e-9)
    assert all(len(body["gave_away"][side]) == game.turn for side in ("upper", "lower"))
    html = client.get(f"/games/{game.id}/replay/analysis/game", {"turn": 2}, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="analysis-chart"')
    assert 'class="an-value-line upper"' in html and html.count('<rect x=') == game.turn + 1
    assert re.search(rf'<svg id="value-chart"[^>]*data-turns="{game.turn}"', html)
    # Each position is cached on its own: the single-position view of the same budget would be a hit.
    keys = analysis.cache_keys(game, records(game), range(game.turn + 1), seconds)
    assert all(cache.get(k) is not None for k in keys.values())


def test_cache_keys_follow_the_history_not_the_game():
    from games.models import Game
    one = Game(kind="ropasci360", params={})
    log = [{"upper": ["THROW", "r", [4, 0]], "lower": ["THROW", "s", [-4, 0]]}] * 3
    keys = analysis.cache_keys(one, log, [0, 1, 3], 0.5)
    assert keys == analysis.cache_keys(Game(kind="ropasci360", params={}), log, [0, 1, 3], 0.5)
    assert keys[0] != analysis.cache_keys(one, log, [0], 0.05)[0]  # another budget
    other = [{"upper": ["THROW", "p", [4, 0]], "lower": ["THROW", "s", [-4, 0]]}] + log[1:]
    assert analysis.cache_keys(one, other, [0], 0.5)[0] != keys[0]  # another choice made there
    assert analysis.cache_keys(one, log[:1], [1], 0.5)[1] != keys[1]  # the log ends there


# --- the GIF ----------------------------------------------------------------------------------------

needs_cairo = pytest.mark.skipif(not previews.preview_available(), reason="CairoSVG needs libcairo2")


@needs_cairo
def test_the_gif_decodes_with_a_frame_per_turn_the_size_of_the_preview(game):
    client = Client()
    response = client.get(f"/games/{game.id}/replay.gif")
    assert response.status_code == 200 and response["Content-Type"] == "image/gif"
    gif = Image.open(io.BytesIO(response.content))
    assert gif.format == "GIF" and gif.n_frames == game.turn + 1
    assert gif.info.get("loop") == 0
    preview = Image.open(io.BytesIO(client.get(f"/games/{game.id}/preview.png?turn=0").content))
    assert gif.size == preview.size == previews.PREVIEW_SIZE
    # The first frame is the preview of turn 0 (up to the GIF's palette).
    first = gif.convert("RGB")
    small = (120, 63)
    a, b = first.resize(small).tobytes(), preview.convert("RGB").resize(small).tobytes()
    assert sum(abs(x - y) for x, y in zip(a, b)) / len(a) < 6
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[-1] == replaygif.LAST_MS and all(replaygif.FRAME_MS[0] <= d <= replaygif.FRAME_MS[1]
                                                      for d in durations[:-1])
    # Cached: the same bytes again.
    assert client.get(f"/games/{game.id}/replay.gif").content == response.content
    assert client.get("/games/nosuchgame/replay.gif").status_code == 404
    assert client.post(f"/games/{game.id}/replay.gif").status_code == 405


def test_long_games_are_sampled_evenly():
    assert replaygif.frame_turns(10) == list(range(11))
    frames = replaygif.frame_turns(1000)
    assert len(frames) == replaygif.MAX_FRAMES and frames[0] == 0 and frames[-1] == 1000
    assert frames == sorted(set(frames))
    gaps = {b - a for a, b in zip(frames, frames[1:])}
    assert gaps <= {5, 6}
    assert len(replaygif.durations(200)) == 200


def test_the_gif_is_a_503_when_it_cannot_be_drawn(game, monkeypatch):
    client = Client()
    monkeypatch.setattr(previews, "_cairosvg_ok", False)
    response = client.get(f"/games/{game.id}/replay.gif")
    assert response.status_code == 503 and b"not available" in response.content
    monkeypatch.setattr(previews, "_cairosvg_ok", True)

    async def broken(game, flipped=False):
        raise RuntimeError("the rasteriser fell over")

    monkeypatch.setattr(replaygif, "draw", broken)
    response = client.get(f"/games/{game.id}/replay.gif")
    assert response.status_code == 503 and b"could not be drawn" in response.content


@pytest.mark.parametrize("module", ["games.bots.analysis", "games.web.gifs"])
def test_worker_modules_do_not_import_django(module):
    check = ("import importlib, sys; importlib.import_module(sys.argv[1]); "
             "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; sys.exit(1 if bad else 0)")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    assert subprocess.run([sys.executable, "-c", check, module], cwd=BASE_DIR, env=env, timeout=120).returncode == 0


def test_a_full_pool_is_a_clear_503(game, monkeypatch):
    monkeypatch.setattr(analysis, "MAX_INFLIGHT", 0)
    client = Client()
    response = client.get(f"/games/{game.id}/replay/analysis", {"turn": 3}, **HTMX)
    assert response.status_code == 503 and "busy" in response.content.decode()
    assert response["Retry-After"] == "10"
    chart = client.get(f"/games/{game.id}/replay/analysis/game", {"format": "json"})
    assert chart.status_code == 503 and "busy" in json.loads(chart.content)["error"]
