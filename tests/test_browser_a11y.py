"""Accessibility of the site's pages as axe-core (the engine browsers' own audits use) judges them, in Chromium,
light and dark, on a phone and a desktop: no violation on any page a visitor reaches without an account."""
import json
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser

AXE = Axe()
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def api(server, path, body):
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with _opener.open(req, timeout=30) as resp:
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def pages(server):
    """The pages to audit: the lobby, a game in play and its replay, the leaderboards, a puzzle library, the
    tournaments, the import page, a rules page, sign-up and log-in."""
    made = api(server, "/api/games", {"game": "tic_tac_toe", "players": {"x": "human", "o": "bot:random"}})
    return ["/", f"/games/{made['id']}", f"/games/{made['id']}/replay", "/players/leaderboard/", "/players/leaderboard/ropasci360",
            "/library/ropasci_puzzle", "/tournaments", "/import", "/accounts/signup/", "/accounts/login/"]


# Every rule, the experimental ones too (a link's accessible name that does not hold its visible text is one).
OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}


def violations(page) -> list[str]:
    found = AXE.run(page, options=OPTIONS).response["violations"]
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']}" for v in found]


@pytest.mark.parametrize("scheme,viewport", [("light", {"width": 1366, "height": 800}),
                                             ("dark", {"width": 390, "height": 844})])
def test_no_page_has_an_axe_violation(people, server, pages, scheme, viewport):
    page = people(viewport=viewport, color_scheme=scheme, has_touch=viewport["width"] < 500)
    wrong = {}
    for path in pages:
        page.goto(server.url + path)
        found = violations(page)
        if found:
            wrong[path] = found
    assert wrong == {}
