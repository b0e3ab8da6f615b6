"""The home page in a real browser (Chromium via Playwright) on the live server."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/ropasci-home.png"
SCREENSHOT_DARK = "/tmp/ropasci-home-dark.png"


def _load_home(page, server):
    statuses = {}
    errors = []
    page.on("response", lambda response: statuses.__setitem__(response.url, response.status))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(server.url + "/")
    page.wait_for_load_state("load")
    return statuses, errors


def test_home_page_renders_with_htmx(page, server):
    statuses, errors = _load_home(page, server)

    expect(page).to_have_title(re.compile("ropasci"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose a game")
    expect(page.get_by_role("link", name="ropasci home")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.locator("#play")).to_be_visible()

    assert page.evaluate("typeof htmx") == "object"
    assert page.evaluate("htmx.version").startswith("2.")
    [ws_url] = [url for url in statuses if "/vendor/htmx-ext-ws-" in url]
    assert statuses[ws_url] == 200
    assert not errors, errors

    # The ws extension is registered: an element using it opens a WebSocket.
    with page.expect_websocket(timeout=5000) as ws_info:
        page.evaluate(
            """() => {
                const el = document.createElement('div');
                el.setAttribute('hx-ext', 'ws');
                el.setAttribute('ws-connect', '/ws/probe/');
                document.querySelector('#play').appendChild(el);
                htmx.process(el);
            }"""
        )
    assert ws_info.value.url.endswith("/ws/probe/")
    page.evaluate("() => htmx.remove(document.querySelector('[ws-connect]'))")

    page.screenshot(path=SCREENSHOT, full_page=True)


def test_skip_link_is_first_tab_stop(page, server):
    _load_home(page, server)
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Skip to main content"
    expect(page.locator(".skip-link")).to_be_in_viewport()


def test_dark_theme_follows_color_scheme(browser, server):
    backgrounds = {}
    for scheme, path in (("light", None), ("dark", SCREENSHOT_DARK)):
        context = browser.new_context(color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            backgrounds[scheme] = page.evaluate(
                "getComputedStyle(document.body).backgroundColor"
            )
            if path:
                page.screenshot(path=path, full_page=True)
        finally:
            context.close()
    assert backgrounds["light"] != backgrounds["dark"]
    # Dark background really is dark: every RGB channel below 64.
    channels = [int(c) for c in re.findall(r"\d+", backgrounds["dark"])[:3]]
    assert max(channels) < 64, backgrounds
