"""The analysis of a finished game other than RoPaSci 360 (Connect Four, played by the server's bots) in Chromium on a
390x844 touch phone and a 1366x800 desktop, light and dark: the value chart from one seat's view and switched to the
other, the best move beside each move played, the slips listed and marked in the move list."""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOT = "/tmp/shots-analysis/connect-four-{}.png"
VIEWS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1366, "height": 800}},
}
LOOKS = [(view, scheme) for view in VIEWS for scheme in ("light", "dark")]


def call(url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def finished(server, body: dict) -> str:
    """A game the server's bots play to its end; its id."""
    created = call(f"{server.url}/api/games", body)
    turn = 0
    for _ in range(200):
        game = call(f"{server.url}/api/games/{created['id']}?wait_turn={turn + 1}")
        if game["status"] == "finished":
            return created["id"]
        turn = game["turn"]
    raise AssertionError("the bots did not finish")


@pytest.fixture(scope="module")
def game_id(server):
    """A Connect Four game of the greedy bot against the random one."""
    return finished(server, {"game": "connect_four", "players": {"yellow": "bot:greedy", "red": "bot:random"}})


@pytest.mark.parametrize("view,scheme", LOOKS)
def test_the_replay_of_a_finished_game_shows_its_analysis(people, server, game_id, view, scheme):
    page = people(**VIEWS[view], color_scheme=scheme)
    page.goto(f"{server.url}/games/{game_id}/replay?turn=3")
    button = page.locator("#analysis-game-button")
    expect(button).to_be_visible()
    button.tap() if view == "phone" else button.click()
    chart = page.locator("#analysis-chart")
    expect(chart.locator("#value-chart")).to_be_visible(timeout=60000)
    assert len(chart.locator(".an-value-line").get_attribute("points").split()) > 3
    # The best move beside each move played, a row per move.
    rows = chart.locator(".an-moves tbody tr")
    total = int(page.locator("#replay").get_attribute("data-total"))
    expect(rows).to_have_count(total)
    expect(chart.locator(".an-moves thead")).to_contain_text("Best")
    # The slips: each seat's line; every slip row marked, and its move marked in the replay's move list.
    expect(chart.locator(".an-slips li")).to_have_count(2)
    slips = chart.get_attribute("data-slips").split()
    expect(chart.locator(".an-slip-row")).to_have_count(len(slips))
    for mark in slips:
        turn, seat = mark.split(":")
        expect(page.locator(f'#move-list li[data-turn="{turn}"] .rp-mv.{seat}')).to_have_class(f"rp-mv {seat} an-slip")
    assert slips, "the random bot made no slip against the greedy one"
    # From the first seat's view; switched to the other's.
    expect(chart).to_have_attribute("data-seat", "yellow")
    chart.locator(".an-seats").scroll_into_view_if_needed()
    page.screenshot(path=SHOT.format(f"{view}-{scheme}"))
    other = page.locator('.an-seat:has-text("Red")')
    other.tap() if view == "phone" else other.click()
    expect(page.locator("#analysis-chart")).to_have_attribute("data-seat", "red", timeout=30000)
    expect(page.locator(".an-seat.on")).to_contain_text("Red")
    page.screenshot(path=SHOT.format(f"{view}-{scheme}-full"), full_page=True)
    # A slip's link takes the viewer to the position where the move was made.
    first = page.locator(".an-slips a[data-turn]").first
    n = first.get_attribute("data-turn")
    first.tap() if view == "phone" else first.click()
    expect(page.locator("#board")).to_have_attribute("data-turn", n)
    # The position: its best move beside the move played.
    ask = page.locator("#analysis-button")
    ask.tap() if view == "phone" else ask.click()
    result = page.locator("#analysis")
    expect(result).to_have_attribute("data-turn", n, timeout=30000)
    expect(result.locator(".an-best")).to_contain_text("Best move:")
    expect(result.locator(".an-actual")).to_contain_text(f"Turn {int(n) + 1}: played")
    result.scroll_into_view_if_needed()
    page.screenshot(path=SHOT.format(f"{view}-{scheme}-position"))


def test_poker_shows_each_seats_shown_decisions(people, server):
    game = finished(server, {"game": "poker", "params": {"players": 3, "chips": 100, "big_blind": 20},
                             "players": {"p0": "bot:greedy", "p1": "bot:random", "p2": "bot:random"}})
    page = people(**VIEWS["desktop"], color_scheme="light")
    page.goto(f"{server.url}/games/{game}/replay")
    page.click("#analysis-game-button")
    chart = page.locator("#analysis-chart")
    expect(chart.locator("#value-chart")).to_be_visible(timeout=60000)
    chart.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/shots-analysis/poker-desktop-light.png", full_page=True)
