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
    expect(page.locator("#game")).to_have_attribute("data-synced", "1")  # the socket's first view is in
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
    page.get_by_role("button", name="Watch the bot (perfect) play Leapfrog: two scissors swing past each other").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(page.locator("#turn-panel .result-reason")).to_contain_text("after 7 turns: as few as possible")


# --- many tokens: a turn chosen token by token ------------------------------------------------------------

FIVE = {"upper": [["p", 3, -2], ["p", 3, 0], ["p", 2, 1], ["s", 4, -3], ["r", 0, -1]],
        "lower": [["r", -1, 0], ["r", 0, 2], ["p", 1, -2], ["s", -2, 1]], "block": [["", 1, 0]]}


def start_puzzle(page, server, position: dict | None = None) -> None:
    """A new puzzle game from the lobby: the course's example, or ``position`` typed into the options."""
    if position is None:
        page.goto(server.url + "/?game=ropasci_puzzle&preset=course-example#play")
        expect(page.locator("#id_preset")).to_have_value("course-example")
    else:
        page.goto(server.url + "/?game=ropasci_puzzle#play")
        position_box(page).fill(json.dumps(position))
        position_box(page).dispatch_event("change")
        sym, r, q = position["upper"][-1]
        expect(page.locator(f'#position-editor .token.upper[data-r="{r}"][data-q="{q}"]')).to_have_count(1)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")


def part_value(move) -> str:
    """A token's move (engine form) as its list's option value: its compact JSON."""
    kind, a, b = move
    return json.dumps([kind, list(a), list(b)], separators=(",", ":"))


def tap_turn(page, action, tap: bool) -> None:
    """Each token's move of ``action`` (engine form, tokens in order): the token, then its hex."""
    for i, (_, a, b) in enumerate(action):
        for key in (f"tok:{a[0]},{a[1]}", f"hex:{b[0]},{b[1]}"):
            target = page.locator(f'#board [data-pick="{key}"]').first
            target.tap() if tap else target.click()
        if i + 1 < len(action):  # the next part starts: the next token is offered
            expect(page.locator(f'#board [data-pick="tok:{action[i + 1][1][0]},{action[i + 1][1][1]}"]')
                   ).to_have_class(re.compile(r"\btarget\b|\bpickable\b"))


def test_a_small_puzzle_is_solved_by_tapping_tokens_and_hexes_on_a_phone(people, server):
    from games.ropasci_puzzle.position import EXAMPLE
    from games.ropasci_puzzle.solver import solve
    page = people(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
    start_puzzle(page, server)
    for turn, action in enumerate(solve(EXAMPLE), 1):
        expect(page.locator("#act-form [name=turn]")).to_have_value(str(turn))
        tap_turn(page, action, tap=True)
        expect(page.locator("#choice-text")).to_contain_text("Your choice:")
        expect(page.locator("#action-part-1")).to_have_value(part_value(action[1]))
        if turn == 1:
            page.screenshot(path=SHOT.format("phone-chosen"), full_page=True)
        page.locator("#confirm-btn").tap()
        expect(page.locator("#board")).to_have_attribute("data-turn", str(turn))
    expect(page.locator("#turn-panel .result-reason")).to_contain_text("as few as possible")


def test_a_five_token_turn_is_played_by_clicking_and_the_next_by_the_lists(page, server):  # noqa: F811
    from games.ropasci_puzzle.solver import solve
    start_puzzle(page, server, FIVE)
    expect(page.locator("select.action-part")).to_have_count(5)
    expect(page.get_by_label("Token 1 (Paper on (2, 1))")).to_be_visible()
    for width, height in ((1366, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=SHOT.format(f"five-{width}-{scheme}"), full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1200, "height": 900})
    plan = solve(FIVE)
    # Token 1 and its hex: the first part is chosen (its list shows it), the second token is offered next.
    tap_turn(page, plan[0][:1], tap=False)
    expect(page.locator("#action-part-0")).to_have_value(part_value(plan[0][0]))
    expect(page.locator("#confirm-btn")).to_be_disabled()
    # Token 2 clicked: its hexes are offered; Escape clears the turn; then the whole turn.
    page.locator(f'#board [data-pick="tok:{plan[0][1][1][0]},{plan[0][1][1][1]}"]').click()
    expect(page.locator("#choice-text")).to_contain_text("Next:")
    page.keyboard.press("Escape")
    expect(page.locator("#choice-text")).to_have_text("Nothing chosen yet.")
    # The keyboard: Enter on token 1 moves the focus to a hex it may reach; Enter on its hex chooses part 1.
    kind, a, b = plan[0][0]
    page.locator(f'#board [data-pick="tok:{a[0]},{a[1]}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .target:focus")).to_have_count(1)
    page.locator(f'#board [data-pick="hex:{b[0]},{b[1]}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#action-part-0")).to_have_value(part_value(plan[0][0]))
    expect(page.locator("#board .target:focus")).to_have_count(1)  # token 2, next
    page.keyboard.press("Escape")
    tap_turn(page, plan[0], tap=False)
    expect(page.locator("#confirm-btn")).to_be_enabled()
    page.screenshot(path=SHOT.format("five-chosen"), full_page=True)
    page.locator("#confirm-btn").click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "1")
    # The second turn from the lists alone, in any order; the choice is confirmed as a click's would be.
    expect(page.locator("#act-form [name=turn]")).to_have_value("2")
    for i in reversed(range(len(plan[1]))):
        page.locator(f"#action-part-{i}").select_option(part_value(plan[1][i]))
    expect(page.locator("#confirm-btn")).to_be_enabled()
    expect(page.locator("#choice-text")).to_contain_text("Your choice:")
    page.locator("#confirm-btn").click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "2")
