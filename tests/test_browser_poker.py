"""The poker table is readable and playable on a desktop (1366x800) and a phone (390x844, touch), light and
dark: seat text at least 13 CSS px and cards at least 40 px wide on the desktop, the dealer button beside
its seat's plate (never over its name), the action buttons big enough to tap. Screenshots go to
/tmp/ropasci-poker-<size>-<scheme>.png.

The game is made by posting the lobby's form from the page (its cookies hold the seat), against random bots.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOT = "/tmp/ropasci-poker-{}-{}.png"
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}

# Rendered sizes in CSS px: each seat's texts, each card's width, the dealer button's box and its seat's
# plate and name.
MEASURE = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const seats = [...document.querySelectorAll('#board .seat')].map(s => ({
    texts: [...s.querySelectorAll('text')].map(t => ({size: parseFloat(getComputedStyle(t).fontSize)
      * t.getScreenCTM().a, text: t.textContent, box: box(t), bet: !!t.closest('.bet')})),
    plate: box(s.querySelector('.plate')), name: box(s.querySelector('.name'))}));
  const cards = [...document.querySelectorAll('#board .card .card-bg')].map(c => box(c).w);
  const ranks = [...document.querySelectorAll('#board .card .rank')].map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  const dealer = document.querySelector('#board .dealer circle');
  return {seats, cards, ranks, dealer: dealer && box(dealer)};
}"""


def start_poker(page, server) -> None:
    """A six-seat game, the browser at p0 and random bots elsewhere, made through the lobby's form."""
    page.goto(server.url + "/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    form = {"game": "poker", "seat_p0": "me", "turn_seconds": "", "bot_seconds": "0.5", "name": "",
            "param_players": "6", "param_chips": "1000", "param_big_blind": "20",
            **{f"seat_p{i}": "bot:random" for i in range(1, 6)}}
    response = page.request.post(server.url + "/games/new", form=form,
                                 headers={"X-CSRFToken": token, "Referer": server.url + "/"}, max_redirects=0)
    assert response.status == 302, re.findall(r"errorlist[^>]*>(.*?)</ul>", response.text(), re.S)
    page.goto(server.url + response.headers["location"])
    expect(page.locator("#board .seat")).to_have_count(6)


def overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_poker_table_is_readable_and_its_buttons_tappable(people, server, size, scheme):
    page = people(**(DESKTOP if size == "desktop" else PHONE), color_scheme=scheme)
    start_poker(page, server)
    expect(page.locator('#controls [data-step="fold"]')).to_be_visible(timeout=30_000)
    page.screenshot(path=SHOT.format(size, scheme), full_page=True)
    seen = page.evaluate(MEASURE)
    smallest = min(t["size"] for s in seen["seats"] for t in s["texts"])
    assert smallest >= 13, seen["seats"]
    if size == "desktop":
        assert min(seen["cards"]) >= 40, seen["cards"]
    else:  # narrower cards, their faces grown: a rank of 14 px at least
        assert min(seen["ranks"]) >= 14, seen["ranks"]
    for s in seen["seats"]:  # every word on its plate
        p = s["plate"]
        for t in s["texts"]:
            b = t["box"]
            assert t["bet"] or (b["x"] >= p["x"] - 1 and b["x"] + b["w"] <= p["x"] + p["w"] + 1), (t["text"], b, p)
    assert seen["dealer"] and not any(overlaps(seen["dealer"], s["name"]) for s in seen["seats"])
    assert not any(overlaps(seen["dealer"], s["plate"]) for s in seen["seats"])
    for button in page.locator("#controls [data-step]:visible").all():
        box = button.bounding_box()
        assert box["height"] >= (44 if size == "phone" else 32) and box["width"] >= 44, (button.inner_text(), box)
