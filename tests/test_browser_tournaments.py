"""Tournaments in Chromium on the live server: an account creates a round robin of itself and two server
bots from the form (after a refused attempt), the bots' game plays itself, the account plays its two games
by clicking from the tournament page, and a spectator's standings page follows it all live (htmx polling,
never a reload) to the final standings, which match the games' results read from the server's database and
the CSV export. Screenshots: /tmp/ropasci-tournament-*.png (light and dark).

No sleeps: everything waits on the page's state through Playwright.
"""
from __future__ import annotations

import csv
import io
import json
import random
import re
import secrets

import pytest
from playwright.sync_api import expect

from tests.test_browser_games import TO_ACT_OR_OVER, board_turn, click_action

pytestmark = pytest.mark.browser

SHOTS = "/tmp/ropasci-tournament-{}.png"
POLLED = 20_000  # ms: the standings are polled every 3 s




def make_account(server) -> tuple[str, str]:
    """An account in the live server's own database (it has its own SQLite file)."""
    username, password = f"coach-{secrets.token_hex(3)}", secrets.token_urlsafe(12)
    server.manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                  f"get_user_model().objects.create_user({username!r}, password={password!r})")
    return username, password


def log_in(page, server, username, password):
    page.goto(server.url + "/accounts/login/?next=/tournaments")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/tournaments$"))


def fill_form(page, name, usernames, bots):
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Game", exact=True).select_option("tic_tac_toe")
    page.get_by_label("Round robin").check()
    page.get_by_label("Games per pairing").fill("1")
    for level in bots:
        page.get_by_label(level).check()
    page.get_by_label("Accounts").fill(usernames)
    page.get_by_label("½ second").check()
    page.get_by_label("No limit").check()
    page.get_by_role("button", name="Start tournament").click()


def play_my_game(page, rng):
    """From the tournament page: Play my game that is in play, by clicks, to its end."""
    page.get_by_role("button", name=re.compile(r"^Play game")).first.click(timeout=POLLED)
    page.wait_for_url(re.compile(r"/games/\w+$"))
    moves = 0
    while moves < 9:
        seen = page.wait_for_function(TO_ACT_OR_OVER, timeout=30_000).json_value()
        if seen.get("over"):
            break
        before = board_turn(page)
        if click_action(page, rng.choice(seen["entries"])):
            expect(page.locator("#board")).not_to_have_attribute("data-turn", str(before))
            moves += 1
    expect(page.locator("#game-head")).to_have_attribute("data-status", "finished")
    return page.url.rsplit("/", 1)[1]


def server_results(server, tournament_id) -> dict:
    """Each entrant's score from the games' seats, read from the server's database (not the page)."""
    out = server.manage("shell", "-c", (
        "import json; from games.models import Game; "
        f"games = Game.objects.filter(tournament_game__pairing__tournament_id={tournament_id}); "
        "print(json.dumps([[g.status, [[s.bot_level and f'bot ({s.bot_level})' or s.user.username, s.score] "
        "for s in g.seats.all()]] for g in games]))")).stdout.strip().splitlines()[-1]
    score: dict = {}
    for status, seats in json.loads(out):
        assert status == "finished"
        for name, points in seats:
            score[name] = score.get(name, 0) + points
    return score


def number(text: str) -> float:
    """A score as the page writes it: 2½, ½, 3."""
    text = text.strip()
    return (float(text[:-1] or 0) + 0.5) if text.endswith("½") else float(text)


def test_a_round_robin_of_an_account_and_two_bots_followed_live(people, server):
    try:
        _round_robin(people, server)
    except Exception:
        print(server.read_log()[-15000:])
        raise


def _round_robin(people, server):
    username, password = make_account(server)
    coach = people(viewport={"width": 1280, "height": 900})
    log_in(coach, server, username, password)
    expect(coach.get_by_role("heading", name="New tournament")).to_be_visible()

    # Refused: one entrant is not a tournament; the form says why and keeps what was typed.
    fill_form(coach, "Too small", "", ["Random: any legal move"])
    expect(coach.locator(".form-errors")).to_contain_text("a tournament needs from 2 to 32 entrants")
    expect(coach.get_by_label("Name", exact=True)).to_have_value("Too small")

    fill_form(coach, "Class tournament", username, ["Random: any legal move", "Greedy: best immediate outcome"])
    coach.wait_for_url(re.compile(r"/tournaments/\d+$"))
    url = coach.url
    tournament_id = int(url.rsplit("/", 1)[1])
    expect(coach.locator(".messages")).to_contain_text("Tournament “Class tournament” started.")
    expect(coach.locator("#tournament-status")).to_have_text("Running")
    expect(coach.locator(".standings-table tbody tr")).to_have_count(3)

    # The bots' game (round 1) plays itself; then the account's first game is ready.
    rows = {name: coach.locator(f'.standings-table tr[data-entrant="{name}"]')
            for name in (username, "bot (random)", "bot (greedy)")}
    expect(rows["bot (random)"].locator('[data-col="played"]')).to_have_text("1", timeout=POLLED)
    expect(coach.get_by_role("button", name=re.compile(r"^Play game"))).to_have_count(1, timeout=POLLED)
    coach.screenshot(path=SHOTS.format("running-light"), full_page=True)

    # A spectator (not logged in, dark theme) follows the standings from now on, without reloading.
    watcher = people(viewport={"width": 390, "height": 844}, color_scheme="dark")
    watcher.goto(url)
    watcher.evaluate("window.__sameDocument = true")
    watched = watcher.locator(f'.standings-table tr[data-entrant="{username}"] [data-col="played"]')
    expect(watched).to_have_text("0")
    expect(watcher.get_by_role("button", name=re.compile(r"^Play game"))).to_have_count(0)

    rng = random.Random(3)
    first = play_my_game(coach, rng)
    expect(watched).to_have_text("1", timeout=POLLED)  # the spectator's page updated by itself
    expect(watcher.locator(f'.pairing-games a[href="/games/{first}"]')).to_be_visible()
    coach.goto(url)
    second = play_my_game(coach, rng)
    assert second != first

    expect(watcher.locator("#tournament-live")).to_have_attribute("data-status", "finished", timeout=POLLED)
    expect(watcher.locator("#tournament-status")).to_have_text("Finished")
    expect(watched).to_have_text("2")
    expect(watcher.locator("#tournament-progress")).to_have_text("3 of 3 games played")
    assert watcher.evaluate("window.__sameDocument") is True
    watcher.screenshot(path=SHOTS.format("finished-phone-dark"), full_page=True)

    # The final standings: every game linked, scores as the games' seats say, ranks by score, the CSV alike.
    coach.goto(url)
    links = coach.locator(".pairing-games a[href^='/games/']")
    expect(links).to_have_count(3)
    table = {}
    for tr in coach.locator(".standings-table tbody tr").all():
        name = tr.get_attribute("data-entrant")
        table[name] = {"rank": int(tr.locator("td").first.inner_text()),
                       "score": number(tr.locator('[data-col="score"]').inner_text()),
                       "played": int(tr.locator('[data-col="played"]').inner_text())}
    expected = server_results(server, tournament_id)
    assert {n: r["score"] for n, r in table.items()} == expected
    assert all(r["played"] == 2 for r in table.values()) and sum(expected.values()) == 3
    scores = [r["score"] for r in table.values()]
    assert scores == sorted(scores, reverse=True)
    response = coach.request.get(url + "/results.csv")
    assert response.ok and response.headers["content-type"].startswith("text/csv")
    exported = list(csv.DictReader(io.StringIO(response.text())))
    assert [r["entrant"] for r in exported] == list(table)
    assert {r["entrant"]: float(r["score"]) for r in exported} == expected
    coach.screenshot(path=SHOTS.format("finished-light"), full_page=True)
    coach.emulate_media(color_scheme="dark")
    coach.screenshot(path=SHOTS.format("finished-dark"), full_page=True)
    coach.emulate_media(color_scheme="light")

    # The list page shows it, finished; a spectator cannot create one.
    coach.goto(server.url + "/tournaments")
    expect(coach.locator(".tournament-list")).to_contain_text("Class tournament")
    coach.screenshot(path=SHOTS.format("list-light"), full_page=True)
    watcher.goto(server.url + "/tournaments")
    expect(watcher.get_by_role("link", name="Log in").last).to_be_visible()
    expect(watcher.get_by_role("button", name="Start tournament")).to_have_count(0)
    watcher.screenshot(path=SHOTS.format("list-phone-dark"), full_page=True)
