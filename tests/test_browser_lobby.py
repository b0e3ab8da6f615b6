"""The lobby in Chromium on a 390x844 touch phone and a 1366x800 desktop, light and dark: the catalogue shows
every game first, a card leads to the game's start page, and one click there starts a game against the
computer (this browser in the first seat), or a one-player game at once; a friend's game gives an invite
link, and "Watch" a game of bots.

No sleeps: Playwright's ``expect`` waits. Screenshots go to /tmp/ropasci-lobby-*.png.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import load_game
from games.engine.registry import names_in_order

pytestmark = pytest.mark.browser

SHOT = "/tmp/ropasci-lobby-{}.png"
VIEWS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1366, "height": 800}},
}
LOOKS = [(view, scheme) for view in VIEWS for scheme in ("light", "dark")]
# A two-seat game and a one-player game per look, so that every look starts both kinds.
GAMES = {("phone", "light"): "tic_tac_toe", ("phone", "dark"): "connect_four",
         ("desktop", "light"): "othello", ("desktop", "dark"): "ropasci360"}


def press(page, view, locator):
    """A tap on the phone, a click on the desktop."""
    if view == "phone":
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize("view,scheme", LOOKS)
def test_the_catalogue_comes_first_with_a_card_per_game(people, server, view, scheme):
    page = people(**VIEWS[view], color_scheme=scheme)
    page.goto(server.url + "/")
    cards = page.locator("a[data-game]")
    expect(cards).to_have_count(len(names_in_order()))
    for name in names_in_order():
        card = page.locator(f'a[data-game="{name}"]')
        expect(card).to_contain_text(load_game(name).info.title)
        expect(card).to_have_attribute("href", f"/play/{name}")
    expect(cards.first).to_be_in_viewport(ratio=1)
    if view == "desktop":
        expect(cards.nth(4)).to_be_in_viewport(ratio=1)  # a row of games, not one
    # Every board's picture arrived and was drawn.
    page.locator("img.game-card-board").last.scroll_into_view_if_needed()
    expect(page.locator("img.game-card-board")).to_have_count(len(names_in_order()))
    # A function, not a bare expression: Playwright re-evaluates a bare expression with eval(), which the page's
    # Content-Security-Policy (script-src 'self') refuses whenever the first check is false.
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.game-card-board')].every(i => i.complete && i.naturalWidth > 0)")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=SHOT.format(f"home-{view}-{scheme}"))
    page.screenshot(path=SHOT.format(f"home-{view}-{scheme}-full"), full_page=True)


@pytest.mark.parametrize("view,scheme", LOOKS)
def test_a_card_then_one_click_plays_the_computer(people, server, view, scheme):
    page = people(**VIEWS[view], color_scheme=scheme)
    name = GAMES[view, scheme]
    first = load_game(name).info.players[0]
    page.goto(server.url + "/")
    press(page, view, page.locator(f'a[data-game="{name}"]'))
    expect(page).to_have_url(server.url + f"/play/{name}")
    expect(page.get_by_role("heading", level=1)).to_have_text(load_game(name).info.title)
    play = page.locator("[data-role=play-computer]")
    expect(play).to_be_in_viewport(ratio=1)
    page.screenshot(path=SHOT.format(f"start-{view}-{scheme}"))
    press(page, view, play)
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    expect(page.locator("svg#board")).to_be_visible()
    expect(page.locator("#game")).to_have_attribute("data-side", first)  # this browser holds the first seat


@pytest.mark.parametrize("view,scheme", [("phone", "dark"), ("desktop", "light")])
def test_a_one_player_game_starts_in_one_click(people, server, view, scheme):
    page = people(**VIEWS[view], color_scheme=scheme)
    page.goto(server.url + "/")
    press(page, view, page.locator('a[data-game="2048"]'))
    expect(page.locator("[data-role=play-friend]")).to_have_count(0)  # nobody to invite to a game of one
    page.screenshot(path=SHOT.format(f"start-2048-{view}-{scheme}"))
    press(page, view, page.locator("[data-role=play-computer]"))
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    expect(page.locator("#game")).to_have_attribute("data-side", "player")
    expect(page.locator("#board .tile")).to_have_count(2)  # the first two tiles: the game has begun


def test_a_friend_gets_an_invite_and_the_computer_plays_to_watch(people, server):
    page = people(**VIEWS["desktop"])
    page.goto(server.url + "/play/hex")
    page.locator("[data-role=play-friend]").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#game")).to_have_attribute("data-side", "black")
    expect(page.get_by_text("Invite your opponent")).to_be_visible()
    invite = page.url.rsplit("/", 1)[-1]

    page.goto(server.url + "/play/othello")
    page.locator("[data-role=watch]").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#game")).to_have_attribute("data-side", "")
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "0")  # the bots play on their own
    watched = page.url.rsplit("/", 1)[-1]

    # Both are listed on the home page with the game's name and players.
    page.goto(server.url + "/")
    expect(page.locator(f"#live-games [data-game='{watched}']")).to_contain_text("Othello")
    expect(page.locator(f"#live-games [data-game='{watched}']")).to_contain_text("bot (strong)")
    expect(page.locator(f"#open-games [data-game='{invite}']")).to_contain_text("Hex")
    page.locator("#live-games").scroll_into_view_if_needed()
    page.screenshot(path=SHOT.format("lists-desktop"))


def test_a_watched_game_of_bots_plays_a_move_a_second_on_the_server(people, server):
    """Made to be watched, a game of instant bots (Tic-tac-toe's perfect ones) moves at a pace people can follow
    for every viewer, however late they come: the server plays a move a second. The API's games of bots keep
    their speed (tests/test_views_play.py)."""
    import time

    from tests.liveserver import api_call
    page = people(**VIEWS["phone"])
    page.goto(server.url + "/play/tic_tac_toe")
    page.locator("[data-role=watch]").tap()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    game_id = page.url.rsplit("/", 1)[-1]
    seen = []
    for n in range(1, 5):  # a latecomer's long-poll: each turn as the server resolves it
        status, game = api_call(server.url, f"/api/games/{game_id}?wait_turn={n}")
        assert status == 200 and game["status"] == "active", game
        seen.append((game["turn"], time.monotonic()))
    assert [t for t, _ in seen] == [1, 2, 3, 4]
    gaps = [b - a for (_, a), (_, b) in zip(seen, seen[1:])]
    # Instant bots unpaced would be hundredths apart. Seen through long-polls, one turn heard late makes the next
    # gap look short (a loaded machine: 1.2 s then 0.7 s), so the pace is checked over the three gaps too.
    assert min(gaps) > 0.5 and sum(gaps) > 2.7, gaps


def test_more_options_hold_the_full_form_one_click_away(people, server):
    page = people(**VIEWS["phone"])
    page.goto(server.url + "/play/sim")
    seats = page.locator("#id_seat_black")
    expect(seats).to_be_hidden()
    page.get_by_text("More options").tap()
    expect(seats).to_be_visible()
    page.get_by_label("Players", exact=True).select_option("3")
    expect(page.locator("#id_seat_blue")).to_be_visible()  # the seats follow the options
    page.screenshot(path=SHOT.format("start-options-phone"), full_page=True)
    # An old lobby link to a setup opens the options with it.
    page.goto(server.url + "/?game=ropasci_puzzle&preset=spiral#play")
    expect(page).to_have_url(re.compile(r"/play/ropasci_puzzle\?"))
    expect(page.locator("#id_preset")).to_have_value("spiral")
