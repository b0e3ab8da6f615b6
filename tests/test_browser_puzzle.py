"""The RoPaSci puzzle in Chromium: a position built by clicking in the lobby's editor, a library puzzle chosen
and played with hints to the optimum, and the library's "Watch the bot" solving a puzzle. The editor and the
hints are the lobby's and the game page's generic parts (any game with an editor or one seat has them).

No sleeps: everything waits on the page's state through Playwright. Screenshots go to
/tmp/ropasci-puzzle-*.png.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.test_browser_games import page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

SHOT = "/tmp/ropasci-puzzle-{}.png"


def position_box(page):
    return page.locator("#id_param_position")


def test_a_position_is_built_by_clicking_and_saved(page, server):  # noqa: F811
    page.goto(server.url + "/?game=ropasci_puzzle#play")
    expect(page.locator("#position-editor")).to_be_visible()
    page.get_by_role("radio", name="Lower paper").check()
    page.locator('#position-editor .cell[data-r="2"][data-q="-2"]').click()
    expect(position_box(page)).to_have_value(re.compile(r'\["p", 2, -2\]'))
    # The keyboard: Tab to a hex and press Enter, with the block tool.
    page.get_by_role("radio", name="Block").check()
    page.locator('#position-editor .cell[data-r="1"][data-q="0"]').focus()
    page.keyboard.press("Enter")
    expect(position_box(page)).to_have_value(re.compile(r'\["", 1, 0\]'))
    value = json.loads(position_box(page).input_value())
    assert ["p", 2, -2] in value["lower"] and ["", 1, 0] in value["block"]
    expect(page.locator('#position-editor .cell.block[data-r="1"][data-q="0"]')).to_have_count(1)
    # Erase takes it off again; the "Save as a file" link holds the JSON shown.
    page.get_by_role("radio", name="Erase").check()
    page.locator('#position-editor .cell[data-r="1"][data-q="0"]').click()
    expect(position_box(page)).not_to_have_value(re.compile(r'\["", 1, 0\]'))
    href = page.get_by_role("link", name="Save as a file").get_attribute("href")
    assert json.loads(__import__("urllib.parse").parse.unquote(href.split(",", 1)[1])) == json.loads(
        position_box(page).input_value())
    # A broken position is named, and the link to share this setup carries the position.
    position_box(page).fill('{"upper": [], "lower": [["s", 0, 0]]}')
    position_box(page).dispatch_event("change")
    expect(page.locator("#game-options .error")).to_contain_text("Upper must have 1 to 9 tokens")
    page.screenshot(path=SHOT.format("editor"), full_page=True)


def test_a_library_puzzle_is_solved_with_hints_in_the_fewest_turns(page, server):  # noqa: F811
    page.goto(server.url + "/library/ropasci_puzzle")
    expect(page.get_by_role("heading", name=re.compile("library"))).to_be_visible()
    page.screenshot(path=SHOT.format("library"), full_page=True)
    page.get_by_role("link", name="Link to The course's example").click()
    expect(page.locator("#id_preset")).to_have_value("course-example")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    for turn in range(1, 4):
        expect(page.locator("#act-form [name=turn]")).to_have_value(str(turn))
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#hint")).to_contain_text("Hint:", timeout=60_000)  # a cold bot pool starts first
        expect(page.locator("#confirm-btn")).to_be_enabled()
        if turn == 1:
            page.screenshot(path=SHOT.format("hint"), full_page=True)
        page.locator("#confirm-btn").click()
        expect(page.locator("#board")).to_have_attribute("data-turn", str(turn))
    expect(page.locator("#turn-panel .result-reason")).to_contain_text("as few as possible")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=SHOT.format("solved-dark"), full_page=True)


def test_the_library_bot_solves_a_puzzle_to_watch(page, server):  # noqa: F811
    page.goto(server.url + "/library/ropasci_puzzle")
    page.get_by_role("button", name="Watch the perfect bot play Leapfrog: two scissors swing past each other").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(page.locator("#turn-panel .result-reason")).to_contain_text("after 7 turns: as few as possible")
