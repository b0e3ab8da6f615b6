"""The game page on a phone (390x844, touch) and a desktop (1366x800), light and dark, for every game: its
heading names the game, the board, whose turn with the clock and the move controls are on the first
screen, every target on the board is big enough to tap, a click makes a move, and a rematch swaps the
seats; a game of bots is shown a move a second. No sleeps: Playwright's ``expect`` waits."""
import re
import warnings

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.engine import load_game, registered_names

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
SHOT = "/tmp/ropasci-game-page-{}.png"
MIN_TARGET = 24  # CSS px: WCAG 2.2's minimum target size


def start(page, server, name, confirm=False, others="bot:random", first="me", mine=0):
    """A game of ``name`` against random bots with the lobby's defaults, posted as its form would be; the
    browser holds the seat of index ``mine`` (the first). ``confirm``: this browser's "Confirm moves" setting."""
    page.goto(f"{server.url}/?game={name}")
    page.evaluate("v => localStorage.setItem('ropasci.confirm', v)", "1" if confirm else "0")
    seats = list(load_game(name).info.players)
    fields = {"game": name, **{f"seat_{s}": first if i == mine else others for i, s in enumerate(seats)}}
    page.evaluate("""fields => {
        const lobby = document.querySelector('form[action="/games/new"]');
        const form = document.createElement('form');
        form.method = 'post'; form.action = '/games/new';
        const data = new FormData(lobby);
        for (const [k, v] of Object.entries(fields)) data.set(k, v);
        for (const [k, v] of data.entries()) {
            const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; form.append(i);
        }
        document.body.append(form); form.submit();
    }""", fields)
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    if first == "me":  # the socket's first view replaces the live parts once: a test that alters them waits
        expect(page.locator("#game")).to_have_attribute("data-synced", "1")
    return seats


IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
    return [r.top, r.bottom, window.innerHeight]; }"""
TARGETS = """() => [...document.querySelectorAll('#board [data-pick]')].map(e => {
    const r = e.getBoundingClientRect(); return [e.getAttribute('data-pick'), r.width, r.height]; })"""


def check_one_screen(page, name, label):
    expect(page.locator("h1")).to_contain_text(load_game(name).info.title)
    for sel in ("svg#board", "[data-role=status]", "[data-role=actions]"):
        top, bottom, height = page.evaluate(IN_VIEW, sel)
        assert 0 <= top and bottom <= height, f"{name} {label}: {sel} spans {top:.0f}-{bottom:.0f} of {height}"
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.parametrize("name", registered_names())
def test_the_game_fits_one_screen_with_targets_to_tap(people, server, name):
    phone = people(**PHONE)
    start(phone, server, name)
    expect(phone.locator("svg#board")).to_be_visible()
    for scheme in ("light", "dark") if name in ("hex", "ropasci360", "connect_four") else ("light",):
        phone.emulate_media(color_scheme=scheme)
        phone.screenshot(path=SHOT.format(f"{name}-phone-{scheme}"))  # first: to see what a failure looks like
        check_one_screen(phone, name, f"phone {scheme}")
    small = [(k, round(w), round(h)) for k, w, h in phone.evaluate(TARGETS) if min(w, h) < MIN_TARGET]
    assert not small, f"{name}: targets under {MIN_TARGET} px on a phone: {small[:5]}"

    phone.set_viewport_size(DESKTOP["viewport"])  # the same player's page on a desktop's screen
    for scheme in ("light", "dark") if name in ("hex", "ropasci360", "poker") else ("light",):
        phone.emulate_media(color_scheme=scheme)
        phone.screenshot(path=SHOT.format(f"{name}-desktop-{scheme}"))
        check_one_screen(phone, name, f"desktop {scheme}")


def test_a_table_of_six_keeps_the_move_controls_on_a_phones_first_screen(people, server):
    """Poker's six seats fill the heading with names: on a phone they share lines, so that the player first to act
    (fold, call, raise, all in: the most buttons) sees the board and every control without scrolling."""
    phone = people(**PHONE)
    start(phone, server, "poker", mine=3)  # p3 acts first before the flop (p0 deals, p1 and p2 post the blinds)
    expect(phone.locator("#controls-title")).to_contain_text("Your move")
    for label in ("Fold", "Call", "Raise", "All in"):
        expect(phone.locator("[data-role=actions]").get_by_role("button", name=re.compile(label))).to_be_visible()
    phone.screenshot(path=SHOT.format("poker-to-act-phone"))
    check_one_screen(phone, "poker", "phone, to act")
    expect(phone.locator(".players-line .seat-chip-label").first).to_have_text(re.compile(r"\S"))  # still there


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four"])
def test_one_click_makes_the_move_unless_this_browser_confirms_moves(people, server, name):
    page = people(**PHONE)
    start(page, server, name)
    expect(page.locator("#confirm-btn")).to_be_hidden()
    page.locator("#board [data-pick].pickable").first.tap()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "0")  # made, and the bot answered
    expect(page.locator("#controls-title")).to_contain_text("Your move")
    assert page.evaluate("window.scrollY") == 0  # the page stayed on the board

    start(page, server, name, confirm=True)
    expect(page.locator("#confirm-toggle")).to_be_checked()
    page.locator("#board [data-pick].pickable").first.tap()
    expect(page.locator("#choice-text")).to_contain_text("Your choice:")
    expect(page.locator("#board")).to_have_attribute("data-turn", "0")  # waits for Confirm
    page.locator("#confirm-btn").tap()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "0")


SMALLEST = """() => Math.min(...[...document.querySelectorAll('#board [data-pick]')].map(e => {
    const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }))"""


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_zoom_makes_every_place_44_px_where_they_are_smaller(people, server, device):
    page = people(**(PHONE if device == "phone" else DESKTOP))
    start(page, server, "hex")
    zoom = page.locator("#zoom-toggle")
    expect(zoom).to_be_visible()
    assert 24 <= page.evaluate(SMALLEST) < 44
    if device == "phone":
        zoom.tap()
    else:  # by keyboard
        zoom.focus()
        page.keyboard.press("Enter")
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(SMALLEST) >= 44
    wrap = page.locator("#board-wrap")
    # the board scrolls in its frame (waited for, as Playwright's assertions wait: it failed once in a full run, not
    # reproduced, the frame as wide as the zoomed board)
    overflows = "() => { const w = document.getElementById('board-wrap'); return w.scrollWidth > w.clientWidth; }"
    try:
        page.wait_for_function(overflows, timeout=5000)
    except PlaywrightTimeout:
        sizes = wrap.evaluate("w => [w.scrollWidth, w.clientWidth, document.getElementById('board')"
                              ".getBoundingClientRect().width, w.closest('.game').style"
                              ".getPropertyValue('--board-zoom-width')]")
        pytest.fail(f"the zoomed board does not scroll in its frame: frame scroll/client width, board, zoom: {sizes}")
    page.screenshot(path=SHOT.format(f"hex-zoomed-{device}"))
    # A tap still makes the move; the bot's answer redraws the board, zoomed, the frame where it was.
    scrolled = wrap.evaluate("w => { w.scrollLeft = Math.min(120, w.scrollWidth); return w.scrollLeft; }")
    assert scrolled > 0
    key = wrap.evaluate("""w => { const f = w.getBoundingClientRect();
        return [...w.querySelectorAll('[data-pick].pickable')].find(c => { const r = c.getBoundingClientRect();
            return r.left > f.left && r.right < f.right && r.top > f.top && r.bottom < f.bottom; }).dataset.pick; }""")
    cell = page.locator(f'#board [data-pick="{key}"]')  # one in view: clicking it scrolls nothing
    cell.tap() if device == "phone" else cell.click()
    expect(page.locator("#board")).to_have_attribute("data-turn", "2")
    expect(page.locator("#controls-title")).to_contain_text("Your move")
    assert page.evaluate(SMALLEST) >= 44 and wrap.evaluate("w => w.scrollLeft") == scrolled
    # Kept in this browser: a new game opens zoomed; pressed again, the board is as before.
    start(page, server, "hex")
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(SMALLEST) >= 44
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(SMALLEST) < 44
    start(page, server, "tic_tac_toe")  # its squares are big enough: no zoom
    expect(zoom).to_be_hidden()


def test_a_rematch_swaps_the_seats(people, server):
    page = people(**PHONE)
    start(page, server, "tic_tac_toe")
    first = page.url
    expect(page.locator("#game-head .seat-chip.x.you")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    rematch = page.locator("[data-role=rematch]")
    expect(rematch).to_be_visible()
    expect(page.locator("[data-role=status]:visible")).to_have_text("O wins: you lose")
    expect(page.locator(".result-banner")).to_have_count(1)
    expect(page.locator("#board .pickable")).to_have_count(0)
    page.evaluate("() => window.scrollTo(0, 0)")
    top, bottom, height = page.evaluate(IN_VIEW, "[data-role=rematch]")
    assert bottom <= height, f"the rematch button spans {top:.0f}-{bottom:.0f} of {height}"
    page.screenshot(path=SHOT.format("over-phone"))
    rematch.get_by_role("button").tap()
    page.wait_for_url(lambda url: url != first and "/games/" in url)
    expect(page.locator("h1")).to_contain_text("Tic-tac-toe")
    expect(page.locator("#game-head .seat-chip.o.you")).to_be_visible()  # the other seat now
    expect(page.locator("#game-head .seat-chip.x")).to_contain_text("bot (random)")
    expect(page.locator("#controls-title")).to_contain_text("Your move")  # after the bot's first move


def test_a_click_on_a_form_htmx_has_not_taken_over_yet_still_asks_in_the_dialog(people, server):
    """Under load a click can land on a form a live swap has just put in, before htmx processed it: the page
    takes it over first, so Resign still asks in the dialog and the player stays on the game page."""
    page = people(**PHONE)
    start(page, server, "tic_tac_toe")
    # A fresh copy of the form, as a swap leaves it: htmx has not seen it.
    page.evaluate("() => { const f = document.querySelector('form.resign-form'); f.replaceWith(f.cloneNode(true)); }")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished")
    assert asked and asked[0].startswith("Resign this game?")
    expect(page.locator("#resign-title")).to_have_count(0)


def test_a_live_form_that_posts_itself_carries_the_pages_csrf_token(people, server):
    """Live fragments carry no CSRF input (htmx sends the page's token as a header). Should one post as a plain
    form all the same, Resign must reach its no-JavaScript page, not Django's CSRF refusal."""
    page = people(**PHONE)
    start(page, server, "tic_tac_toe")
    page.evaluate("""() => {
        const f = document.querySelector('form.resign-form').cloneNode(true);
        f.querySelectorAll('[name=csrfmiddlewaretoken]').forEach((n) => n.remove());  // as the socket renders it
        ['hx-post', 'hx-confirm', 'hx-vals', 'hx-swap'].forEach((a) => f.removeAttribute(a));  // not taken over
        document.querySelector('form.resign-form').replaceWith(f);
    }""")
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#resign-title")).to_have_text("Resign this game?")
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished")


def test_a_rematch_with_a_person_waits_for_them_to_accept(people, server):
    host = people(**DESKTOP)
    start(host, server, "tic_tac_toe", others="invite")
    guest = people(**PHONE)
    guest.goto(host.url)
    guest.get_by_role("button", name="Join as O").click()
    expect(guest.locator("#game")).to_have_attribute("data-synced", "1")
    expect(host.locator("#controls-title")).to_contain_text("Your move")
    guest.once("dialog", lambda dialog: dialog.accept())
    guest.get_by_role("button", name="Resign").click()
    # The resignation is only this test's set-up (the dialog has its own tests above). Rarely, under load, the form
    # still posts as a plain form (sessions 15, 19 and 24, not reproduced since) and the no-JavaScript page asks
    # instead: answered there, as a person would.
    finished, asked = guest.locator("#game-head[data-status=finished]"), guest.get_by_role("button", name="Yes, resign")
    expect(finished.or_(asked)).to_be_visible()
    if asked.is_visible():
        warnings.warn("Resign posted as a plain form: the no-JavaScript page asked")
        asked.click()
    expect(guest.locator("#game-head")).to_have_attribute("data-status", "finished")
    old = host.url
    host.locator("[data-role=rematch]").get_by_role("button", name="Rematch").click()
    host.wait_for_url(lambda url: url != old and "/games/" in url)
    # The host waits in the new game, as O, with the invite link; the guest's page offers the seat at once.
    expect(host.locator("#game-head .seat-chip.o.you")).to_be_visible()
    expect(host.locator("#invite-link")).to_be_visible()
    offer = guest.locator(".rematch-offer")
    expect(offer).to_have_text("X offers a rematch, the seats swapped.")  # the seat the host played
    accept = guest.locator("[data-role=rematch]").get_by_role("button", name="Accept rematch")
    expect(accept).to_be_visible()
    guest.screenshot(path=SHOT.format("rematch-offer-phone"))
    guest.evaluate("() => window.scrollTo(0, 0)")
    top, bottom, height = guest.evaluate(IN_VIEW, "[data-role=rematch]")
    assert bottom <= height, f"the accept button spans {top:.0f}-{bottom:.0f} of {height}"
    accept.tap()
    guest.wait_for_url(host.url)
    expect(guest.locator("#game-head .seat-chip.x.you")).to_be_visible()  # the seats swapped
    expect(guest.locator("#controls-title")).to_contain_text("Your move")
    expect(host.locator("#game-head .seat-chip.x")).not_to_contain_text("open seat")
    host.screenshot(path=SHOT.format("rematch-started-desktop"))


def test_the_invitee_sees_which_game_to_join(people, server):
    host = people(**DESKTOP)
    start(host, server, "connect_four", others="invite")
    expect(host.locator(".invite-title")).to_have_text("Invite your opponent to Connect Four")
    guest = people(**PHONE)
    guest.goto(host.url)
    expect(guest.locator("h1")).to_contain_text("Connect Four")
    expect(guest.locator(".invite-title")).to_contain_text("Connect Four")
    expect(guest.get_by_role("button", name="Join as Red")).to_be_visible()
    guest.screenshot(path=SHOT.format("invitee-phone"))


SHOWN = """window.shown = []; let shownTurn = null;
document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
    const b = document.getElementById('board'), t = b && b.getAttribute('data-turn');
    if (t !== shownTurn) { shownTurn = t; window.shown.push([+t, performance.now()]); }
}).observe(document.body, {subtree: true, childList: true, attributes: true}));"""  # when each turn is shown


def shown_after(page, start, count):
    """The times (ms) at which the next ``count`` turns after the ``start``-th shown one were shown."""
    try:
        page.wait_for_function("n => window.shown.length >= n", arg=start + count)
    except PlaywrightTimeout:
        state = page.evaluate("() => [window.shown, window.ropasci.queued(), document.getElementById('game-head').dataset.status]")
        raise AssertionError(f"fewer turns shown than expected: (turn, ms) shown, pushes queued: {state}") from None
    return [t for _, t in page.evaluate("() => window.shown")[start:start + count]]


def gaps(times):
    return [b - a for a, b in zip(times, times[1:])]


def test_a_game_of_bots_is_shown_a_move_a_second_with_pause_and_speed(people, server):
    page = people(**DESKTOP)  # (people: a script error fails the test)
    page.add_init_script(SHOWN)
    start(page, server, "othello", first="bot:random")  # sixty moves: the bots are still playing
    expect(page.locator("#pace-pause")).to_be_visible()
    assert min(gaps(shown_after(page, 1, 3))) >= 900  # ms: about one move a second
    page.locator("#pace-pause").click()
    expect(page.locator("#pace-pause")).to_have_attribute("aria-pressed", "true")
    held = page.locator("#board").get_attribute("data-turn")
    # The bots played on (the server's pace: a move a second): their moves wait, to be caught up faster.
    page.wait_for_function("() => window.ropasci.queued() >= 4", timeout=30_000)
    expect(page.locator("#board")).to_have_attribute("data-turn", held)
    page.screenshot(path=SHOT.format("bots-paused"))
    page.locator("#pace-speed").select_option("4")
    page.locator("#pace-pause").click()
    shown = len(page.evaluate("() => window.shown"))
    assert max(gaps(shown_after(page, shown, 4))) < 900  # four moves a second, while the paused ones last
