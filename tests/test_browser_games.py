"""Every game but RoPaSci 360 (which has its own, longer browser tests) played in Chromium through the lobby and
the game page against a random bot: chosen in the lobby (with its options), every move made by clicking the
steps of one of the page's legal actions, to the end of the game (or, for long games, a few moves and a
resignation), then replayed. Screenshots (light and dark) go to /tmp/ropasci-games-<name>-*.png.

No sleeps: everything waits on the page's state through Playwright.
"""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.engine import load_game, registered_names
from tests.test_browser_play import Browser

pytestmark = pytest.mark.browser

SHOTS = "/tmp/ropasci-games-{}-{}.png"
OWN_TESTS = {"ropasci360"}
LONG_GAMES = {"expendibots": 5, "cyclotron": 5, "2048": 5, "rubiks_cube": 5, "poker": 4, "ropasci_puzzle": 5}  # moves before resigning
OPTIONS = {"hex": {"size": "5"}}  # lobby options set for a shorter game
MAX_MOVES = 200

# The page's state read in one go (a live swap may land between two separate reads): over, or this
# player's legal actions once it is to act in the turn the board shows.
TO_ACT_OR_OVER = """() => {
  const head = document.getElementById('game-head');
  if (head && head.dataset.status !== 'active') return {over: true};
  const el = document.getElementById('legal-actions');
  const board = document.getElementById('board');
  const turn = document.querySelector('#act-form [name=turn]');
  if (!el || !board || !turn) return false;
  // The controls and the board are separate fragments: both must show the turn in play.
  if (parseInt(turn.value, 10) !== parseInt(board.dataset.turn, 10) + 1) return false;
  try {
    const data = JSON.parse(el.textContent);
    if (data && data.parts) return data.parts.length ? {parts: data.parts} : false;  // chosen part by part
    return data.length ? {entries: data} : false;
  } catch (e) { return false; }
}"""


def random_entry(seen, rng) -> dict:
    """A random legal action seen on the page: from its list, or made of a random option of each part."""
    if "entries" in seen:
        return rng.choice(seen["entries"])
    return {"path": [step for options in seen["parts"] for step in rng.choice(options)["path"]]}


@pytest.fixture
def page(browser):
    b = Browser(browser, viewport={"width": 1200, "height": 900})
    yield b.page
    errors = b.errors
    b.close()
    assert not errors, errors


def board_turn(page) -> int:
    return int(page.locator("#board").get_attribute("data-turn"))


def start_from_the_lobby(page, server, name: str) -> list[str]:
    page.goto(server.url + f"/play/{name}")
    page.get_by_text("More options").click()
    game = load_game(name)
    seats = list(game.info.players)
    expect(page.locator(f"#id_seat_{seats[0]}")).to_be_visible()  # the game's seats were swapped in
    for option, value in OPTIONS.get(name, {}).items():
        page.locator(f"#id_param_{option}").fill(value)
    page.locator(f"#id_seat_{seats[0]}").select_option("me")
    for seat in seats[1:]:
        page.locator(f"#id_seat_{seat}").select_option("bot:random")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    return seats


def click_action(page, entry) -> bool:
    """Choose an action as a person does: each step of its path on the board, or as a button beside it, and
    confirm it. False if a live update replaced the controls meanwhile (the turn moved on): look again."""
    for step in entry["path"]:
        key = step["key"].replace('"', '\\"')
        on_board = page.locator(f'#board [data-pick="{key}"]')
        if on_board.count():
            try:  # a part whose centre another part covers (Sim's long diagonals all cross in the middle) ...
                on_board.first.click(trial=True, timeout=2_000)
            except PlaywrightTimeout:  # ... is taken from the keyboard, as a person would click elsewhere on it
                on_board.first.focus()
                page.keyboard.press("Enter")
            else:
                on_board.first.click()
        else:
            page.locator(f'#pick-steps [data-step="{key}"]').click()
    confirm = page.locator("#confirm-btn")
    try:
        expect(confirm).to_be_enabled()
    except AssertionError:
        return False
    confirm.click()
    return True


@pytest.mark.parametrize("name", [n for n in registered_names() if n not in OWN_TESTS])
def test_a_game_is_played_by_clicking_against_a_bot_and_replayed(page, server, name):
    try:
        play_and_replay(page, server, name)
    except AssertionError:
        print(server.read_log()[-15000:])  # a lost bot move shows up in the server's log
        raise
    except Exception:
        print(server.read_log()[-15000:])
        raise


def play_and_replay(page, server, name):
    seats = start_from_the_lobby(page, server, name)
    rng = random.Random(name)
    moves = stale = 0
    while moves < MAX_MOVES:
        seen = page.wait_for_function(TO_ACT_OR_OVER, timeout=60_000).json_value()
        if seen.get("over"):
            break
        if moves == 2:
            page.screenshot(path=SHOTS.format(name, "light"), full_page=True)
        if moves >= LONG_GAMES.get(name, MAX_MOVES):
            page.once("dialog", lambda dialog: dialog.accept())
            page.get_by_role("button", name="Resign").click()
            break
        before = board_turn(page)
        if not click_action(page, random_entry(seen, rng)):
            stale += 1
            assert stale <= 3, "the page kept changing under the player"
            continue
        expect(page.locator("#board")).not_to_have_attribute("data-turn", str(before))
        moves += 1
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished")
    expect(page.locator("#turn-panel .result-headline")).to_be_visible()
    assert moves >= 1
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=SHOTS.format(name, "dark"), full_page=True)
    page.emulate_media(color_scheme="light")

    # The replay: the first position, then the last.
    total = board_turn(page)
    page.goto(page.url + "/replay?turn=0")
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")
    page.goto(page.url.split("?")[0] + f"?turn={total}")
    expect(page.locator("#board")).to_have_attribute("data-turn", str(total))
    assert page.locator("#board").get_attribute("class")
    page.screenshot(path=SHOTS.format(name, "replay"), full_page=True)
    assert seats


def test_2048_plays_by_arrow_keys(page, server):
    start_from_the_lobby(page, server, "2048")
    page.wait_for_function(TO_ACT_OR_OVER, timeout=60_000)
    played = 0
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 2:
        seen = page.wait_for_function(TO_ACT_OR_OVER, timeout=60_000).json_value()
        if seen.get("over"):
            break
        legal = {e["action"] for e in seen["entries"]}
        if key[len("Arrow"):].lower() not in legal:
            continue
        before = board_turn(page)
        page.locator("body").press(key)
        expect(page.locator("#board")).not_to_have_attribute("data-turn", str(before))
        played += 1
    assert played >= 2
    # The best score is kept in this browser: a new game shows the last one's score as the best.
    score = page.locator(".personal-best").get_attribute("data-score")
    expect(page.locator(".personal-best .best-value")).to_have_text(score)
    assert page.evaluate("localStorage.getItem('ropasci.best.2048')") == score
    start_from_the_lobby(page, server, "2048")
    expect(page.locator(".personal-best")).to_have_attribute("data-score", "0")
    expect(page.locator(".personal-best .best-value")).to_have_text(score)
