"""``/rules/<name>``: every registered game has a "How to play" page, its title in the h1 and a real body (its
own fragment, with at least one diagram that has a text alternative); anything else is the not-found page."""
import html as htmllib
import re

import pytest
from django.urls import reverse

from games.engine import load_game, registered_names

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


@pytest.mark.parametrize("name", registered_names())
def test_every_game_has_a_rules_page(client, name):
    resp = client.get(reverse("rules", args=[name]))
    assert resp.status_code == 200
    html = resp.content.decode()
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert h1 and load_game(name).info.title in text_of(h1.group(1))
    article = re.search(r'<article class="panel rules".*?</article>', html, re.S).group(0)
    assert len(text_of(article).split()) > 80, "a rules page says the aim, a turn and the end"
    assert html.count("<h2") >= 3
    svgs = re.findall(r"<svg\b[^>]*>", article)
    assert svgs and all('role="img"' in s and "aria-label=" in s for s in svgs)
    assert "On this site" in text_of(article)


@pytest.mark.parametrize("name", ["chess", "nope", "ROPASCI360"])
def test_unknown_game_is_not_found(client, name):
    resp = client.get(reverse("rules", args=[name]))
    assert resp.status_code == 404
    assert "Not found" in resp.content.decode()
