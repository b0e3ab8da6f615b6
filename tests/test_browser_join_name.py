"""A visitor's typed name survives the live updates of the game page's header, which holds the join form.

The page's socket pushes the live fragments on connect and after every change; each push replaced
``#game-head`` and with it the name input, so a name typed before the push arrived was lost and the visitor
joined as "anonymous" (the flake of ``test_two_people_play_to_a_win_by_clicking`` on a loaded machine,
where the browser fills the name before the connect push arrives). Here the push is held back by routing
the page's WebSocket until the name is typed, so the race is played out the same way every time.
"""
import re
import time

import pytest
from playwright.sync_api import expect

from tests.test_browser_play import create_game

pytestmark = pytest.mark.browser


class HeldPushes:
    """Routes a page's game socket through the browser's WebSocket routing, holding what the server sends
    until ``release()``; from then on everything passes straight through."""

    def __init__(self, page):
        self.held, self.page_side, self.released = [], None, False
        page.route_web_socket(re.compile(r"/ws/games/"), self.route)

    def route(self, ws):
        self.page_side = ws
        ws.connect_to_server().on_message(lambda msg: ws.send(msg) if self.released else self.held.append(msg))

    def wait_for_push(self, page, seconds: float = 15):
        """Until the server's first push has reached the route (a condition polled with a deadline)."""
        deadline = time.monotonic() + seconds
        while not self.held:
            assert time.monotonic() < deadline, f"no push from the server within {seconds} s"
            page.evaluate("() => new Promise((done) => setTimeout(done, 20))")

    def release(self):
        self.released = True
        for message in self.held:
            self.page_side.send(message)


def test_a_name_typed_before_the_connect_push_is_kept(people, server):
    a = people()
    b = people()
    url = create_game(a, server, side="upper")
    pushes = HeldPushes(b)
    b.goto(url)
    pushes.wait_for_push(b)
    name = b.get_by_label("Your name (optional)")
    name.fill("Bea")

    b.evaluate("() => { window.__swapped = 0; document.body.addEventListener('htmx:wsAfterMessage', "
               "() => { window.__swapped += 1; }); }")
    pushes.release()
    b.wait_for_function("() => window.__swapped > 0")  # the connect push has been swapped in
    expect(name).to_have_value("Bea")
    expect(name).to_be_focused()

    b.get_by_role("button", name="Join as Lower").click()
    expect(b.locator("#controls-title")).to_contain_text("Your move")
    expect(a.locator("#game-head .seat-chip.lower")).to_contain_text("Bea")
    expect(b.locator("#game-head .seat-chip.lower")).to_contain_text("Bea")
