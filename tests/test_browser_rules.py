""""How to play" pages in a real browser: on a 390x844 phone and a 1366x800 desktop, light and dark, the page
has the game's title in its h1, its diagrams drawn, and nothing wider than the screen. Screenshots go to
/tmp/ropasci-rules-<game>-<size>-<scheme>.png for a person to look at."""
import re

import pytest
from playwright.sync_api import expect

from games.engine import load_game

pytestmark = pytest.mark.browser

SIZES = {"phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
         "desktop": {"viewport": {"width": 1366, "height": 800}}}
GAMES = ("ropasci360", "expendibots", "hex", "poker")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_rules_pages_fit_the_screen(people, server, size, scheme):
    page = people(color_scheme=scheme, **SIZES[size])
    for name in GAMES:
        page.goto(f"{server.url}/rules/{name}")
        expect(page.locator("h1")).to_contain_text(load_game(name).info.title)
        diagrams = page.locator(".rules svg[role=img]")
        expect(diagrams.first).to_be_visible()
        assert all(box["width"] > 100 for box in (d.bounding_box() for d in diagrams.all()))
        overflow = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{name} is {overflow} px wider than the {size} screen"
        page.screenshot(path=f"/tmp/ropasci-rules-{name}-{size}-{scheme}.png", full_page=True)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_game_page_links_to_its_rules(people, server, size):
    page = people(**SIZES[size])
    page.goto(server.url + "/play/tic_tac_toe")
    page.locator("[data-role=play-computer]").click()
    page.wait_for_url(re.compile(r"/games/\w+$"))
    link = page.get_by_role("link", name="How to play")
    expect(link).to_be_in_viewport()
    page.screenshot(path=f"/tmp/ropasci-rules-link-{size}.png")
    link.click()
    expect(page.locator("h1")).to_contain_text(load_game(page.url.rsplit("/", 1)[-1]).info.title)
