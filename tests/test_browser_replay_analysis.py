"""The replay's analysis panel and GIF link in a real browser (Chromium via Playwright) on the live server."""

import io
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.test_browser_replay import BATTLE_LOG, FIXTURES, import_log

pytestmark = pytest.mark.browser

FIXTURE = FIXTURES / "round-1-1.01.0.txt"  # 22 turns


@pytest.fixture(scope="module")
def game_id(server, tmp_path_factory):
    path = FIXTURE
    if not path.exists():
        path = tmp_path_factory.mktemp("logs") / "alice-vs-bob.txt"
        path.write_text(BATTLE_LOG)
    return import_log(server, path)


def test_analyse_a_position_follow_the_viewer_and_chart_the_game(page, server, game_id):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/games/{game_id}/replay?turn=4")
    panel = page.locator(".rp-analysis-panel")
    expect(panel).to_be_visible()
    page.click("#analysis-button")
    result = page.locator("#analysis")
    expect(result).to_have_attribute("data-turn", "4", timeout=30000)
    expect(result.locator(".an-strategy li").first).to_be_visible()
    assert result.locator(".an-bar-fill").count() >= 2  # both sides' bars
    expect(result).to_contain_text("Turn 5: played")
    panel.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/replay-analysis.png", full_page=True)
    # Once asked, the analysis follows the viewer.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board")).to_have_attribute("data-turn", "5")
    expect(result).to_have_attribute("data-turn", "5", timeout=30000)
    # The whole game: a chart whose turns jump the viewer there.
    page.click("#analysis-game-button")
    chart = page.locator("#value-chart")
    expect(chart).to_be_visible(timeout=60000)
    expect(page.locator("#analysis-chart .an-slips li")).to_have_count(2)
    page.locator('#value-chart a[data-turn="2"]').dispatch_event("click")
    expect(page.locator("#board")).to_have_attribute("data-turn", "2")
    expect(result).to_have_attribute("data-turn", "2", timeout=30000)
    page.locator("#analysis-chart").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/replay-analysis-chart.png", full_page=True)
    # Dark theme.
    page.emulate_media(color_scheme="dark")
    panel.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/replay-analysis-dark.png", full_page=True)
    # Without htmx the form opens the analysis as a page, with a way back.
    page.emulate_media(color_scheme="light")
    page.goto(f"{server.url}/games/{game_id}/replay/analysis?turn=7")
    expect(page.locator("#analysis .an-strategy li").first).to_be_visible()
    expect(page.get_by_role("link", name="Back to the replay at turn 7")).to_be_visible()
    page.screenshot(path="/tmp/replay-analysis-page.png", full_page=True)
    assert not errors, errors


def test_errors_show_in_the_panel_and_the_gif_link_downloads(page, server, game_id):
    page.goto(f"{server.url}/games/{game_id}/replay?turn=3")
    # A bad turn (the hidden field tampered with) shows the server's message where the analysis goes.
    page.eval_on_selector("#analysis-turn", "el => el.value = 'abc'")
    page.eval_on_selector("#analysis-form", "form => htmx.trigger(form, 'submit')")
    expect(page.locator("#analysis")).to_contain_text("Turn must be a whole number", timeout=30000)
    link = page.locator("#gif-link")
    expect(link).to_have_text("Download as GIF")
    with page.expect_download(timeout=90000) as download:
        link.click()
    data = Path(download.value.path()).read_bytes()
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames > 1
    assert download.value.suggested_filename == f"ropasci360-{game_id}.gif"
