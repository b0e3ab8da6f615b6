"""The replay viewer in a real browser (Chromium via Playwright) on the live server."""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.test_import import FIXTURES, SMALL_LOG
from tests.test_replay import BATTLE_LOG

pytestmark = pytest.mark.browser

FIXTURE = FIXTURES / "round-6-6.01.1.txt"  # 50 turns, battles, winner: lower
ILLEGAL = FIXTURES / "round-1-1.06.1.txt"  # illegal action at turn 4 by upper
SCREENSHOTS = Path("/tmp")
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def import_log(server, path: Path) -> str:
    """Import through ``manage.py importlog`` on the server's database; returns the game id."""
    out = server.manage("importlog", str(path)).stdout
    m = re.match(r"^imported game (\w+): \S+/games/\1/replay$", out.rstrip("\n").splitlines()[-1])
    assert m, out
    return m.group(1)


@pytest.fixture(scope="module")
def game_id(server, tmp_path_factory):
    """A real tournament game when ../shared is here, else a short one made here (with a battle)."""
    path = FIXTURE
    if not path.exists():
        path = tmp_path_factory.mktemp("logs") / "alice-vs-bob.txt"
        path.write_text(BATTLE_LOG)
    return import_log(server, path)


@pytest.fixture(scope="module")
def export(server, game_id):
    status, body = server.get(f"/games/{game_id}/export.json")
    assert status == 200
    return json.loads(body)


@pytest.fixture
def watched(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.errors = errors
    return page


def dom_tokens(page):
    return sorted(page.eval_on_selector_all(
        "#board .token",
        "els => els.map(e => [e.dataset.player, e.dataset.symbol, +e.dataset.r, +e.dataset.q, +e.dataset.count])"))


def state_tokens(state):
    return sorted([t["player"], t["symbol"], t["hex"][0], t["hex"][1], t["count"]] for t in state["tokens"])


def states(export):
    return [export["initial_state"]] + [t["state"] for t in export["turns"]]


def expect_turn(page, n):
    expect(page.locator("#board")).to_have_attribute("data-turn", str(n))
    expect(page).to_have_url(re.compile(rf"[?&]turn={n}(&|$)"))


def test_turn_param_opens_at_that_position(watched, server, game_id, export):
    page = watched
    total = export["turn"]
    for n in sorted({0, 1, 7, total // 2, total}):
        page.goto(f"{server.url}/games/{game_id}/replay?turn={n}")
        expect_turn(page, n)
        assert dom_tokens(page) == state_tokens(states(export)[n])
        expect(page.locator("#scrubber")).to_have_value(str(n))
        expect(page.locator(f'#move-list a[data-turn="{n}"]')).to_have_attribute("aria-current", "step")
    assert not page.errors, page.errors


def test_keyboard_navigation(watched, server, game_id, export):
    page = watched
    total = export["turn"]
    page.goto(f"{server.url}/games/{game_id}/replay?turn=3")
    expect_turn(page, 3)
    page.keyboard.press("ArrowRight")
    expect_turn(page, 4)
    assert dom_tokens(page) == state_tokens(states(export)[4])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect_turn(page, 6)
    page.keyboard.press("ArrowLeft")
    expect_turn(page, 5)
    expect(page.locator("#turn-counter")).to_have_text(f"Move 5 / {total}")
    page.keyboard.press("End")
    expect_turn(page, total)
    expect(page.locator("#ctl-next")).to_be_disabled()
    page.keyboard.press("ArrowRight")  # stays at the end
    expect_turn(page, total)
    page.keyboard.press("Home")
    expect_turn(page, 0)
    assert dom_tokens(page) == []
    expect(page.locator("#ctl-prev")).to_be_disabled()
    expect(page.locator("#turn-counter")).to_have_text(f"Start / {total}")
    # The buttons do the same.
    page.click("#ctl-next")
    expect_turn(page, 1)
    page.click("#ctl-last")
    expect_turn(page, total)
    page.click("#ctl-prev")
    expect_turn(page, total - 1)
    page.click("#ctl-first")
    expect_turn(page, 0)
    # Reloading the address bar's URL shows the same position.
    page.keyboard.press("ArrowRight")
    expect_turn(page, 1)
    page.reload()
    expect_turn(page, 1)
    assert not page.errors, page.errors


def test_scrubber(watched, server, game_id):
    page = watched
    page.goto(f"{server.url}/games/{game_id}/replay?turn=0")
    page.locator("#scrubber").fill("6")
    expect_turn(page, 6)
    page.locator("#scrubber").focus()
    page.keyboard.press("ArrowRight")  # the range input steps itself, once
    expect_turn(page, 7)


def test_autoplay_and_space(watched, server, game_id, export):
    page = watched
    total = export["turn"]
    start = max(0, total - 5)
    page.goto(f"{server.url}/games/{game_id}/replay?turn={start}")
    expect_turn(page, start)
    page.select_option("#ctl-speed", "8")
    play = page.locator("#ctl-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_contain_text("Pause")
    expect_turn(page, total)  # it plays to the end ...
    expect(play).to_have_attribute("aria-pressed", "false")  # ... and stops there
    expect(play).to_contain_text("Play")

    # Space: play from the end starts over; Space again pauses.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board")).not_to_have_attribute("data-turn", str(total))
    page.keyboard.press("Space")
    expect(play).to_have_attribute("aria-pressed", "false")
    paused_at = int(page.locator("#replay").get_attribute("data-turn"))
    assert 0 <= paused_at < total
    assert not page.errors, page.errors


def test_move_list_and_chart_jump(watched, server, game_id, export):
    page = watched
    total = export["turn"]
    page.goto(f"{server.url}/games/{game_id}/replay?turn={total}")
    target = min(17, total - 1)
    page.locator(f'#move-list a[data-turn="{target}"]').click()
    expect_turn(page, target)
    item = page.locator(f'#move-list li[data-turn="{target}"]')
    expect(item).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#move-list a[aria-current]")).to_have_count(1)
    # Both actions of every turn are listed, and the battles.
    turn = export["turns"][target - 1]
    text = item.inner_text()
    verbs = {"THROW": "thrown to", "SLIDE": "slides from", "SWING": "swings from"}
    for side in ("upper", "lower"):  # both seats' moves, in the game's words ("Rock slides from (0, 0) to ...")
        assert re.search(side.title() + r":\s*\w+ " + verbs[turn["actions"][side][0]] + " ", text), text
    battle_turns = [t["number"] for t in export["turns"] if t["events"]]
    assert battle_turns, "the game has battles"
    b = battle_turns[0]
    expect(page.locator(f'#move-list li[data-turn="{b}"] .rp-battle')).to_contain_text("defeated")
    page.locator(f'#move-list a[data-turn="{b}"]').click()
    expect_turn(page, b)
    expect(page.locator("#board .cell.battle")).to_have_count(len(export["turns"][b - 1]["events"]))
    expect(page.locator("#position .rp-caption-battle")).to_have_count(len(export["turns"][b - 1]["events"]))
    assert turn["actions"]

    # The material chart is clickable too.
    page.locator('#chart a[data-turn="2"] rect').click()
    expect_turn(page, 2)
    cursor_x = float(page.locator("#chart-cursor").get_attribute("x1"))
    chart = page.locator("#chart")
    expected_x = float(chart.get_attribute("data-x0")) + 2 * float(chart.get_attribute("data-dx"))
    assert abs(cursor_x - expected_x) < 0.2
    assert not page.errors, page.errors


def test_moves_are_drawn_and_flip(watched, server, game_id, export):
    page = watched
    page.goto(f"{server.url}/games/{game_id}/replay?turn=1")
    expect(page.locator("#board .throw-mark")).to_have_count(2)  # both players throw in turn 1
    slide = next(t["number"] for t in export["turns"] if "THROW" not in (t["actions"]["upper"][0], t["actions"]["lower"][0]))
    page.goto(f"{server.url}/games/{game_id}/replay?turn={slide}")
    expect(page.locator("#board .move-arrow")).to_have_count(2)
    page.click("#ctl-flip")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bflipped\b"))
    expect(page).to_have_url(re.compile(r"flip=1"))
    expect(page.locator("#ctl-flip")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#board")).to_have_attribute("data-turn", str(slide - 1))
    expect(page.locator("#board")).to_have_class(re.compile(r"\bflipped\b"))
    page.click("#ctl-flip")
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bflipped\b"))
    assert not page.errors, page.errors


def test_copy_link(browser, server, game_id):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/games/{game_id}/replay?turn=2")
        page.keyboard.press("ArrowRight")
        expect_turn(page, 3)
        page.click("#copy-link")
        expect(page.locator("#copy-status")).to_have_text("Link copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.url == f"{server.url}/games/{game_id}/replay?turn=3"
        # The copied link opens at the same position.
        other = context.new_page()
        other.goto(copied)
        expect(other.locator("#board")).to_have_attribute("data-turn", "3")
    finally:
        context.close()


def test_import_page_upload_of_an_illegal_log(watched, server, tmp_path):
    page = watched
    path = ILLEGAL
    note = "illegal action at turn 4 by upper: upper has no token on (2, -4) to move"
    if not path.exists():
        path = tmp_path / "illegal.txt"
        path.write_text(SMALL_LOG + "turn 4: upper: SLIDE from (2, -4) to (1, -3)\n"
                                    "turn 4: lower: SLIDE from (-3, 2) to (-2, 2)\n")
    page.goto(server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Import a log").click()
    expect(page).to_have_url(server.url + "/import")
    page.set_input_files("#id_log", str(path))
    page.fill("#id_upper", "Alice")
    page.click("#import-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/games/\w+/replay\?turn=3$"))
    expect(page.locator("#board")).to_have_attribute("data-turn", "3")
    expect(page.locator("#replay-status")).to_contain_text("llegal action at turn 4 by upper")
    expect(page.locator("#position .rp-outcome")).to_contain_text("The log stops here: " + note.split(":")[0])
    expect(page.locator("h1")).to_contain_text("Alice")
    assert not page.errors, page.errors


def test_import_page_reports_errors(watched, server, tmp_path):
    page = watched
    bad = tmp_path / "bad.txt"
    bad.write_text("turn 1: upper: THROW symbol r to (4, 0)\nturn 1: lower: HOP to (0, 0)\n")
    page.goto(server.url + "/import")
    page.set_input_files("#id_log", str(bad))
    page.click("#import-form button[type=submit]")
    expect(page.get_by_role("alert")).to_contain_text("bad.txt: line 2: ")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was stored")
    page.screenshot(path=str(SCREENSHOTS / "ropasci-import-error.png"), full_page=True)


def _post(server, path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Seat {token}"
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), headers=headers)
    with _opener.open(request, timeout=10) as response:
        return json.loads(response.read())


def test_live_replay_follows_new_turns(watched, server):
    page = watched
    created = _post(server, "/api/games", {"players": {"upper": "human", "lower": "human"}})
    game_id, tokens = created["id"], {side: s["token"] for side, s in created["seats"].items()}
    page.goto(created["replay_url"])
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")
    expect(page.locator("#replay-status .rp-live-badge")).to_be_visible()
    moves = [(["THROW", "r", [4, 0]], ["THROW", "s", [-4, 0]]),
             (["SLIDE", [4, 0], [3, 0]], ["SLIDE", [-4, 0], [-3, 0]])]
    for n, (upper, lower) in enumerate(moves, start=1):
        _post(server, f"/api/games/{game_id}/actions", {"turn": n, "action": upper}, tokens["upper"])
        _post(server, f"/api/games/{game_id}/actions", {"turn": n, "action": lower}, tokens["lower"])
        expect(page.locator("#board")).to_have_attribute("data-turn", str(n), timeout=15000)
        expect(page.locator(f'#move-list li[data-turn="{n}"]')).to_be_visible()
        expect(page.locator("#turn-counter")).to_have_text(f"Move {n} / {n}")
    expect(page.locator("#board .token")).to_have_count(2)
    # Looking back does not get pulled forward; the list still grows.
    page.keyboard.press("Home")
    expect_turn(page, 0)
    _post(server, f"/api/games/{game_id}/actions", {"turn": 3, "action": ["THROW", "p", [4, -1]]}, tokens["upper"])
    _post(server, f"/api/games/{game_id}/actions", {"turn": 3, "action": ["THROW", "p", [-4, 1]]}, tokens["lower"])
    expect(page.locator('#move-list li[data-turn="3"]')).to_be_visible(timeout=15000)
    expect(page.locator("#turn-counter")).to_have_text("Start / 3")
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")
    page.keyboard.press("End")
    expect_turn(page, 3)
    assert not page.errors, page.errors


def test_the_counter_counts_moves_not_chance_turns(watched, server):
    """2048's new tiles are chance turns: the replay counts the slides, as people do."""
    created = _post(server, "/api/games", {"game": "2048", "players": {"player": "human"}})
    game_id, token = created["id"], created["seats"]["player"]["token"]
    request = urllib.request.Request(f"{server.url}/api/games/{game_id}", headers={"Authorization": f"Seat {token}"})
    with _opener.open(request, timeout=10) as response:
        game = json.loads(response.read())
    played = _post(server, f"/api/games/{game_id}/actions",
                   {"turn": game["turn"] + 1, "action": game["legal_actions"][0]}, token)["game"]
    assert played["turn"] > 2
    watched.goto(f"{server.url}/games/{game_id}/replay")
    expect(watched.locator("#turn-counter")).to_have_text("Move 1 / 1")
    watched.keyboard.press("Home")
    expect(watched.locator("#turn-counter")).to_have_text("Start / 1")
    watched.keyboard.press("ArrowRight")  # a first tile: no move yet
    expect_turn(watched, 1)
    expect(watched.locator("#turn-counter")).to_have_text("Start / 1")
    watched.keyboard.press("End")
    expect_turn(watched, played["turn"])
    expect(watched.locator("#turn-counter")).to_have_text("Move 1 / 1")
    assert watched.errors == []


def test_embed_works_in_a_frame(watched, server, game_id):
    page = watched
    page.goto(f"{server.url}/embed/games/{game_id}?turn=4")
    expect(page.locator("#board")).to_have_attribute("data-turn", "4")
    expect(page.locator(".site-header")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board")).to_have_attribute("data-turn", "5")
    page.screenshot(path=str(SCREENSHOTS / "ropasci-embed.png"), full_page=True)
    # Framed by another page (the replay page itself may not be).
    page.goto(server.url + "/import")
    page.evaluate("""url => { const f = document.createElement('iframe'); f.src = url; f.width = 480; f.height = 660;
                              document.querySelector('main').prepend(f); }""", f"{server.url}/embed/games/{game_id}?turn=2")
    expect(page.frame_locator("iframe").locator("#board")).to_have_attribute("data-turn", "2")
    assert not page.errors, page.errors


@pytest.mark.parametrize("scheme, width, name", [("light", 1280, "ropasci-replay.png"),
                                                 ("dark", 1280, "ropasci-replay-dark.png"),
                                                 ("light", 390, "ropasci-replay-phone.png"),
                                                 ("dark", 390, "ropasci-replay-phone-dark.png")])
def test_screenshots(browser, server, game_id, export, scheme, width, name):
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        battle = next((t["number"] for t in export["turns"] if t["events"]), export["turn"])
        page.goto(f"{server.url}/games/{game_id}/replay?turn={battle}")
        expect(page.locator("#board")).to_have_attribute("data-turn", str(battle))
        # Nothing sticks out sideways on a phone.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
    finally:
        context.close()
