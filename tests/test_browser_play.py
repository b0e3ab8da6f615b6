"""Playing in real browsers (Chromium via Playwright) on the live server: two people by clicking, a person
against a bot, a spectator's live page, secrecy of pending actions, and reconnecting.

No sleeps: everything waits through Playwright's auto-waiting ``expect``.
"""
import difflib
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import Browser  # noqa: F401  (other browser tests import it from here)
from tests.test_views_play import LOWER_SCRIPT, UPPER_SCRIPT

pytestmark = pytest.mark.browser

SHOTS = "/tmp/ropasci-play-{}.png"
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def api(server, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", f"Seat {token}")
    with _opener.open(req, timeout=30) as resp:
        return json.loads(resp.read())


def create_game(page, server, opponent="human", side="upper", level="random"):
    """A RoPaSci 360 game from the lobby: the creator plays ``side``; the other seat is an invited person or
    a bot of ``level``: the full form, under the start page's "More options"."""
    page.goto(server.url + "/play/ropasci360")
    page.get_by_text("More options").click()
    other = "lower" if side == "upper" else "upper"
    page.get_by_label(side.title(), exact=True).select_option("me")
    page.get_by_label(other.title(), exact=True).select_option("invite" if opponent == "human" else f"bot:{level}")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    return page.url


def click_hex(page, hex_):
    """Click a hex as a person would: on the token standing there, if any, else on the cell."""
    r, q = hex_
    token = page.locator(f'#board .token[data-r="{r}"][data-q="{q}"]')
    if token.count():
        token.first.click()
    else:
        page.locator(f'#board .cell[data-r="{r}"][data-q="{q}"]').click()


def play(page, action):
    """Choose ``action`` (canonical JSON) on the board by clicking, then confirm."""
    if action[0] == "THROW":
        page.locator(f'#controls [data-step="throw:{action[1]}"]').click()
        expect(page.locator("#board .cell.target").first).to_be_visible()
        click_hex(page, action[2])
    else:
        click_hex(page, action[1])
        expect(page.locator("#board .token.chosen").first).to_be_visible()
        click_hex(page, action[2])
    expect(page.locator("#choice-text")).to_contain_text("Your choice:")
    assert json.loads(page.locator("#action-select").input_value()) == action
    page.locator("#confirm-btn").click()


def bot_has_chosen(page, side="upper"):
    """Wait until the bot's seat shows that (never what) it has chosen for the turn in play."""
    expect(page.locator(f"#turn-panel .seat-row.{side}")).to_have_attribute("data-status", "ready", timeout=30_000)


def changes(before, after):
    """The lines that differ between two page snapshots, as a unified diff (the whole pages are too long to
    read in a failure)."""
    return "\n".join(difflib.unified_diff("\n".join(before).splitlines(), "\n".join(after).splitlines(),
                                         "before", "after", lineterm="", n=1))


def legal_actions(page):
    return [e["action"] for e in json.loads(page.locator("#legal-actions").text_content())]


SNAPSHOT = """() => {
  const clean = (id) => {
    const el = document.getElementById(id).cloneNode(true);
    el.querySelectorAll('.seat-status, .turn-status, [name=csrfmiddlewaretoken]').forEach((n) => n.remove());
    el.querySelectorAll('.seat-row').forEach((n) => n.removeAttribute('data-status'));
    el.removeAttribute('data-version');  // when the page last changed, not what it shows
    return el.outerHTML;
  };
  return ['board-wrap', 'turn-panel', 'controls', 'game-head'].map(clean);
}"""


def test_two_people_play_to_a_win_by_clicking(people, server):
    a = people(viewport={"width": 1280, "height": 900})
    a.context.grant_permissions(["clipboard-read", "clipboard-write"])
    b = people(viewport={"width": 375, "height": 812}, color_scheme="dark")
    watcher = people(viewport={"width": 1280, "height": 900}, color_scheme="dark")

    url = create_game(a, server, side="upper")
    expect(a.get_by_role("heading", name="Invite your opponent")).to_be_visible()
    invite = a.locator("#invite-link").input_value()
    assert invite == url
    a.get_by_role("button", name="Copy link").click()
    expect(a.locator("[data-copy-status]")).to_have_text("Link copied.")
    assert a.evaluate("navigator.clipboard.readText()") == url

    watcher.goto(url)
    expect(watcher.get_by_role("button", name="Join as Lower")).to_be_visible()
    b.goto(invite)
    b.get_by_label("Your name (optional)").fill("Bea")
    b.get_by_role("button", name="Join as Lower").click()
    expect(b.locator("#controls-title")).to_contain_text("Your move")
    # The creator's and the spectator's pages went live without a reload.
    expect(a.locator("#controls-title")).to_contain_text("Your move")
    expect(watcher.locator("#game-head .status-badge")).to_have_text("Active")
    expect(watcher.get_by_role("button", name="Join as Lower")).to_have_count(0)
    expect(watcher.locator("#game-head")).to_contain_text("Bea")
    watcher.evaluate("window.__sameDocument = true")
    for page in (a, b, watcher):  # each socket's first view is in: later changes are the game's own
        expect(page.locator("#game")).to_have_attribute("data-synced", "1")

    for turn, (up, low) in enumerate(zip(UPPER_SCRIPT, LOWER_SCRIPT), start=1):
        for page in (a, b, watcher):
            expect(page.locator("#board")).to_have_attribute("data-turn", str(turn - 1))
        expect(b.locator("#legal-actions")).to_be_attached()
        assert up in legal_actions(a) and low in legal_actions(b)
        before = {"b": b.evaluate(SNAPSHOT), "watcher": watcher.evaluate(SNAPSHOT)}
        play(a, up)
        expect(a.locator("#turn-panel .pending-own")).to_contain_text("Waiting for opponent")
        # The others learn THAT Upper has chosen, never WHAT: only the awaited list changes.
        for name, page in (("b", b), ("watcher", watcher)):
            expect(page.locator('#turn-panel .seat-row.upper')).to_have_attribute("data-status", "ready")
            expect(page.locator('#turn-panel .seat-row.lower')).to_have_attribute("data-status", "choosing")
            after = page.evaluate(SNAPSHOT)
            assert after == before[name], f"turn {turn}: {name}'s page changed:\n" + changes(before[name], after)
            expect(page.locator(".pending-own")).to_have_count(0)
        if turn == 1:
            assert "Rock thrown to (4, 0)" not in b.content() + watcher.content()
        play(b, low)
        for page in (a, b, watcher):
            expect(page.locator("#board")).to_have_attribute("data-turn", str(turn))
        if turn == 4:
            a.screenshot(path=SHOTS.format("game-light"), full_page=True)
            b.screenshot(path=SHOTS.format("game-phone-dark"), full_page=True)

    expect(a.locator("#turn-panel .result-headline")).to_have_text("Upper wins: you win!")
    expect(b.locator("#turn-panel .result-headline")).to_have_text("Upper wins: you lose")
    expect(watcher.locator("#turn-panel .result-headline")).to_have_text("Upper wins")
    for page in (a, b, watcher):
        expect(page.locator("#turn-panel .result-reason")).to_have_text("Every Lower token is defeated and Lower has no throws left.")
        expect(page.locator("#turn-panel")).to_contain_text("Game over by the rules after 9 moves")
        expect(page.locator('#board .token[data-player="upper"][data-symbol="r"][data-count="7"]')).to_have_count(1)
        expect(page.locator('#board .token[data-player="lower"]')).to_have_count(0)
        expect(page.locator("#resign-btn")).to_have_count(0)
    assert watcher.evaluate("window.__sameDocument") is True  # live updates, never a reload
    watcher.screenshot(path=SHOTS.format("finished-dark"), full_page=True)


def test_a_person_plays_a_bot_with_mouse_keyboard_and_list(people, server):
    """A person (Lower) against bot:random for four turns, choosing by mouse, keyboard and the list."""
    try:
        _bot_game(people, server)
    except AssertionError:
        print(server.read_log()[-15000:])  # a bot move lost on the server would show up in its log
        raise


def _bot_game(people, server):
    page = people(viewport={"width": 1280, "height": 900})
    create_game(page, server, opponent="bot", side="lower", level="random")
    expect(page.locator("#game-head")).to_contain_text("bot (random)")

    # Turn 1: the mouse. The page shows when the bot has chosen; its move appears when the turn resolves.
    # Each turn waits for the bot first, so that the person's submission resolves the turn.
    bot_has_chosen(page)
    expect(page.locator('#board .token[data-player="upper"]')).to_have_count(0)
    play(page, ["THROW", "s", [-4, 0]])
    expect(page.locator("#board")).to_have_attribute("data-turn", "1", timeout=30_000)
    expect(page.locator('#board .token[data-player="upper"]')).not_to_have_count(0)
    expect(page.locator("#turn-panel .last-turn")).to_contain_text(re.compile(r"Upper: \w+ thrown to"))
    expect(page.locator("#turn-panel .last-turn")).to_contain_text("Lower: Scissors thrown to (-4, 0)")

    # Turn 2: the keyboard only (symbol button, a highlighted hex, then Confirm gets the focus).
    bot_has_chosen(page)
    page.locator('#controls [data-step="throw:r"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-step="throw:r"]')).to_have_attribute("aria-pressed", "true")
    target = page.locator('#board .cell.target[data-r="-3"][data-q="1"]')
    expect(target).to_have_attribute("tabindex", "0")
    expect(target).to_have_attribute("aria-label", "Throw rock to (-3, 1)")
    target.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-btn")).to_be_focused()
    expect(page.locator("#choice-text")).to_have_text("Your choice: Rock thrown to (-3, 1). Confirm to submit it.")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-turn", "2", timeout=30_000)

    # Turn 3: a slide by clicking a token and one of its highlighted destinations.
    bot_has_chosen(page)
    token = page.locator('#board .token[data-player="lower"][data-r="-4"][data-q="0"]')
    token.click()
    expect(token).to_have_class(re.compile(r"\bchosen\b"))
    targets = page.locator("#board .cell.target")
    expect(targets.first).to_be_visible()
    moves_from = [a for a in legal_actions(page) if a[0] != "THROW" and a[1] == [-4, 0]]
    assert targets.count() == len(moves_from)  # exactly the engine's destinations, nothing computed here
    dest = [int(targets.first.get_attribute("data-r")), int(targets.first.get_attribute("data-q"))]
    click_hex(page, dest)
    chosen = json.loads(page.locator("#action-select").input_value())
    assert chosen in moves_from and chosen[2] == dest
    page.locator("#confirm-btn").click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "3", timeout=30_000)

    # Turn 4: from the list, while the tab is in the background: the title tells that the turn resolved.
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
    }""")
    bot_has_chosen(page)
    page.get_by_label(re.compile("Or choose from the list")).select_option(label="Paper thrown to (-2, 0)")
    expect(page.locator("#choice-text")).to_contain_text("Paper thrown to (-2, 0)")
    page.locator("#confirm-btn").click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "4", timeout=30_000)
    expect(page).to_have_title("● Turn 4 resolved — ropasci")
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    expect(page).to_have_title(re.compile(r"^RoPaSci 360 game \w+ · ropasci$"))

    # The sound toggle is off by default and remembered.
    sound = page.get_by_label("Sound")
    expect(sound).not_to_be_checked()
    sound.check()
    page.reload()
    expect(page.get_by_label("Sound")).to_be_checked()

    # Resigning asks first.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#turn-panel .result-headline")).to_have_text("Upper wins: you lose")
    expect(page.locator("#turn-panel .result-reason")).to_have_text("Lower resigned.")


def test_the_answer_to_a_move_arriving_after_the_bots_reply_leaves_the_reply_shown(people, server):
    """A fast bot chooses its next move before the answer to the person's move reaches the page: that late
    answer (the same turn, the bot still choosing) must not put the page back to "choosing"."""
    page = people(viewport={"width": 1280, "height": 900})
    create_game(page, server, opponent="bot", side="lower", level="random")
    held = []
    page.route("**/act", lambda route: held.append((route, route.fetch())))  # answered only when told below
    bot_has_chosen(page)
    play(page, ["THROW", "s", [-4, 0]])
    expect(page.locator("#board")).to_have_attribute("data-turn", "1")  # the live push of the turn
    bot_has_chosen(page)  # and of the bot's next choice, both before the answer to the move
    page.evaluate("""() => { window.__answered = new Promise(done =>  // its turn panel offered to the page
        document.body.addEventListener('htmx:oobBeforeSwap', e => e.detail.target.id === 'turn-panel' && done())); }""")
    route, response = held.pop()
    route.fulfill(response=response)
    page.evaluate("() => window.__answered.then(() => true)")
    expect(page.locator("#turn-panel .seat-row.upper")).to_have_attribute("data-status", "ready")
    expect(page.locator("#board")).to_have_attribute("data-turn", "1")


def test_the_board_flips_and_an_error_is_shown(people, server):
    page = people(viewport={"width": 1280, "height": 900})
    create_game(page, server, opponent="bot", side="upper", level="random")
    board = page.locator("#board")
    top_y = """() => document.querySelector('#board .cell[data-r="4"][data-q="0"] polygon')
                          .getBoundingClientRect().top"""
    y_before = page.evaluate(top_y)
    page.get_by_role("button", name="Flip board").click()
    expect(page.get_by_role("button", name="Flip board")).to_have_attribute("aria-pressed", "true")
    expect(board).to_have_class(re.compile(r"\bturned\b"))
    assert page.evaluate(top_y) > y_before + 200  # Upper's home row is now at the bottom
    assert "flip=1" in page.url
    page.reload()  # drawn turned by the server (?flip=1), and still turned after the live fragments arrive
    assert page.evaluate(top_y) > y_before + 200
    expect(page.locator("#conn-status")).to_have_text("live")
    expect(page.get_by_role("button", name="Flip board")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(top_y) > y_before + 200

    # A refused request shows its reason (a stale turn number sent by hand).
    page.evaluate("""() => {
        const form = document.getElementById('act-form');
        form.querySelector('[name=turn]').value = '7';
        const sel = document.getElementById('action-select');
        sel.value = sel.options[1].value;
        document.getElementById('confirm-btn').disabled = false;
    }""")
    page.locator("#confirm-btn").click()
    expect(page.locator("#game-error")).to_contain_text("stale turn: turn 1 is being played, not turn 7")
    expect(page.locator("#confirm-btn")).to_have_text("Confirm move")
    page.screenshot(path=SHOTS.format("error-light"), full_page=True)


def test_reconnect_catches_up_on_a_turn_resolved_while_offline(people, server):
    game = api(server, "/api/games", {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}})
    tokens = {side: seat["token"] for side, seat in game["seats"].items()}
    page = people()
    page.goto(server.url + f"/games/{game['id']}")
    expect(page.locator("#conn-status")).to_have_text("live")
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")

    page.context.set_offline(True)
    page.evaluate("document.querySelector('[ws-connect]')['htmx-internal-data'].webSocket.socket.close(4000, 'test')")
    expect(page.locator("#conn-status")).to_have_text("reconnecting…")
    api(server, f"/api/games/{game['id']}/actions", {"turn": 1, "action": ["THROW", "p", [4, -2]]}, tokens["upper"])
    api(server, f"/api/games/{game['id']}/actions", {"turn": 1, "action": ["THROW", "s", [-4, 2]]}, tokens["lower"])
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")  # nothing can arrive while offline
    page.context.set_offline(False)
    expect(page.locator("#conn-status")).to_have_text("live")
    expect(page.locator("#board")).to_have_attribute("data-turn", "1")
    expect(page.locator('#board .token[data-player="upper"][data-symbol="p"][data-r="4"][data-q="-2"]')).to_have_count(1)
    expect(page.locator("#turn-panel h2")).to_have_text("Move 2")
