"""Accounts, profiles, ratings, keys and challenges in Chromium on the live server: signing up keeps this
browser's game, a rated game moves the rating (the profile's chart, the leaderboards), a key is shown once
and revoked, a person challenges a bot account and plays the game its program accepts, and a password is
reset through the e-mail the console backend prints. Screenshots (light and dark): /tmp/ropasci-players-*.png.

No sleeps: everything waits on the page through Playwright.
"""
from __future__ import annotations

import json
import re
import secrets
import urllib.request

import pytest
from playwright.sync_api import expect


pytestmark = pytest.mark.browser

SHOTS = "/tmp/ropasci-players-{}.png"
PASSWORD = "a-long-enough-secret-42"
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture
def people(people):
    """The shared fixture with a desktop viewport unless a test asks for another."""
    return lambda **options: people(**{"viewport": {"width": 1200, "height": 900}, **options})


def unique(name: str) -> str:
    return f"{name}-{secrets.token_hex(3)}"


def sign_up(page, server, username: str, email: str = ""):
    page.goto(server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    page.get_by_label("Username").fill(username)
    if email:
        page.get_by_label("E-mail (optional)").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(username)
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(f"Signed in as {username}")


def start_game(page, server, *, rated=False):
    """A RoPaSci 360 game from the lobby's full form: this browser plays Upper, a random bot Lower; rated or
    not (the box is there, ticked, for an account)."""
    page.goto(server.url + "/play/ropasci360")
    page.get_by_text("More options").click()
    page.locator("#id_seat_upper").select_option("me")
    page.locator("#id_seat_lower").select_option("bot:random")
    if page.get_by_label("Rated").count():
        expect(page.get_by_label("Rated")).to_be_checked()
        page.get_by_label("Rated").set_checked(rated)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    expect(page.locator("#conn-status")).to_have_text("live")
    return page.url.rsplit("/", 1)[-1]


def resign(page):
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#turn-panel .result-headline")).to_have_text("Lower wins: you lose")


def shots(page, name: str):
    page.screenshot(path=SHOTS.format(name), full_page=True)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=SHOTS.format(name + "-dark"), full_page=True)
    page.emulate_media(color_scheme="light")


def test_signing_up_keeps_this_browsers_game(people, server):
    page = people()
    game_id = start_game(page, server)
    name = unique("sam")
    sign_up(page, server, name)
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()
    expect(page).to_have_url(f"{server.url}/players/{name}")
    shots(page, "signup-profile")
    games = page.get_by_role("region", name="Games")
    expect(games.get_by_role("heading", name=re.compile("RoPaSci 360"))).to_be_visible()
    expect(games.get_by_role("row").filter(has_text="In play")).to_have_count(1)
    games.get_by_role("link", name=f"Replay of game {game_id}").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/replay(\?turn=0)?$"))


def test_a_rated_game_moves_the_rating_on_the_profile_and_the_leaderboard(people, server):
    page = people()
    name = unique("rae")
    sign_up(page, server, name)
    for _ in range(2):
        start_game(page, server, rated=True)
        resign(page)
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()
    ratings = page.get_by_role("region", name="Ratings")
    chart = ratings.get_by_role("img", name=re.compile(r"RoPaSci 360 rating over 2 rated games"))
    expect(chart).to_be_visible()
    expect(ratings.locator(".rating-figure")).to_contain_text("?")  # provisional after two games
    rows = page.get_by_role("region", name="Games").get_by_role("row").filter(has_text="Lost")
    expect(rows).to_have_count(2)
    expect(rows.first.locator(".rating-delta.down")).to_be_visible()
    shots(page, "rated-profile")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Leaderboards").click()
    expect(page.get_by_role("heading", name="Leaderboards", level=1)).to_be_visible()
    board = page.get_by_role("region", name="RoPaSci 360")
    expect(board.get_by_role("link", name=name)).to_be_visible()
    expect(board).to_contain_text("Bot · Random")
    shots(page, "leaderboards")
    board.get_by_role("link", name="RoPaSci 360").click()
    table = page.get_by_role("table")
    expect(table.get_by_role("row").filter(has_text="Bot · Random")).to_contain_text("2")  # games
    expect(table.get_by_role("row").filter(has_text=name).get_by_role("link", name=name)).to_be_visible()
    shots(page, "leaderboard")


def api(server, path, body=None, key=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, method="POST" if data is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if key:
        req.add_header("Authorization", f"Key {key}")
    with _opener.open(req, timeout=30) as resp:
        return json.loads(resp.read())


def test_a_key_a_challenge_from_a_browser_and_its_game(people, server):
    owner = people()
    bot = unique("botty")
    sign_up(owner, server, bot)
    keys = owner.get_by_role("region", name="API keys")
    keys.get_by_label("Name of the key (optional)").fill("my program")
    keys.get_by_role("button", name="Make a new key").click()
    expect(owner.get_by_role("heading", name="Your new API key")).to_be_visible()
    secret = owner.get_by_label("Key “my program”").input_value()
    assert secret.startswith("rpk_")
    shots(owner, "key-created")
    owner.get_by_role("link", name="Back to your profile").click()
    expect(owner.get_by_role("heading", level=1)).to_contain_text("BOT")
    expect(owner.get_by_role("region", name="API keys").get_by_role("table")).to_contain_text(secret[:12])
    expect(owner.get_by_role("region", name="API keys")).not_to_contain_text(secret)

    # Someone without an account challenges it from its profile.
    guest = people()
    guest.goto(f"{server.url}/players/{bot}")
    form = guest.get_by_role("region", name=f"Challenge {bot}")
    form.get_by_label("Game").select_option("tic_tac_toe")
    form.get_by_label("Your seat").select_option("first")
    form.get_by_label("Your name (optional)").fill("guest")
    shots(guest, "bot-profile")
    form.get_by_role("button", name="Send challenge").click()
    expect(guest.get_by_role("status").filter(has_text="Waiting for")).to_be_visible()
    shots(guest, "challenge-waiting")

    # The bot account's program lists and accepts it.
    (challenge,) = api(server, "/api/challenges", key=secret)["challenges"]
    assert (challenge["challenger"], challenge["game"], challenge["side"]) == ("guest", "tic_tac_toe", "o")
    accepted = api(server, f"/api/challenges/{challenge['id']}/accept", {}, key=secret)
    guest.reload()  # (the page also looks again by itself every few seconds)
    guest.wait_for_url(f"{server.url}/games/{accepted['game_id']}")
    expect(guest.locator("#conn-status")).to_have_text("live")
    guest.locator('#board [data-pick="cell:4"]').click()
    guest.locator("#confirm-btn").click()
    expect(guest.locator("#board")).to_have_attribute("data-turn", "1")

    owner.reload()
    received = owner.get_by_role("region", name="Challenges to you")
    expect(received.get_by_role("row").filter(has_text="guest")).to_contain_text("Accepted")

    owner.get_by_role("button", name=f"Revoke key {secret[:12]}").click()
    expect(owner.get_by_role("status").filter(has_text="is revoked")).to_be_visible()
    expect(owner.get_by_role("region", name="API keys").get_by_role("table")).to_contain_text("revoked")


def test_password_reset_through_the_console_email(people, server):
    page = people()
    name = unique("pat")
    sign_up(page, server, name, email=f"{name}@example.com")
    page.get_by_role("button", name="Log out").click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="Reset it").click()
    page.get_by_label("E-mail").fill(f"{name}@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    # The console e-mail backend printed the message to the server's output.
    links = re.findall(r"http://127\.0\.0\.1:\d+/accounts/reset/\S+/", server.read_log())
    assert links
    page.goto(links[-1])
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    shots(page, "password-reset")
    page.get_by_label("New password", exact=True).fill("brand-new-secret-99")
    page.get_by_label("New password confirmation").fill("brand-new-secret-99")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", name="Password set")).to_be_visible()
    page.get_by_role("link", name="Log in").last.click()
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill("brand-new-secret-99")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(f"Signed in as {name}")
