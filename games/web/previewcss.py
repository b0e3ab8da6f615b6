"""A game's board stylesheet as plain CSS that a rasteriser (CairoSVG, for share previews) understands: the
light theme only (``@media`` blocks dropped) and every ``var(--name)`` replaced by its value, taken from the
game's stylesheet or the site's (``static/css/site.css``); and the same in the dark theme (the ``prefers-color-
scheme: dark`` blocks' rules and values winning), for pictures a browser shows (the catalogue's). The game
keeps one stylesheet for pages and previews alike."""
from __future__ import annotations

import re
from functools import lru_cache

from django.contrib.staticfiles import finders

SITE_CSS = "css/site.css"
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;{}]+);?")
_USE = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)")
# Page layout of the board's <svg> (width: 100%, height: auto...): meaningless in a preview, where the board
# is placed at a fixed size, and CairoSVG would draw nothing with height: auto.
_LAYOUT = re.compile(r"(?<![\w-])(?:max-|min-)?(?:width|height)\s*:\s*(?:auto|[\d.]+(?:%|rem|em|vw|vh))\s*;?")


def _read(path: str) -> str:
    found = finders.find(path)
    if not found:
        return ""
    with open(found, encoding="utf-8") as f:
        return _COMMENT.sub("", f.read())


def _without_at_blocks(css: str) -> str:
    """``css`` without its ``@media``/``@supports`` blocks (their braces matched)."""
    out, i = [], 0
    while True:
        at = css.find("@", i)
        if at < 0:
            out.append(css[i:])
            return "".join(out)
        out.append(css[i:at])
        depth, j = 0, css.find("{", at)
        if j < 0:
            return "".join(out)
        while j < len(css):
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
            if depth == 0:
                break
        i = j


_MIX = re.compile(r"color-mix\(\s*in\s+srgb\s*,\s*(#[0-9a-fA-F]{3,6})\s*(\d+(?:\.\d+)?)?%?\s*,"
                  r"\s*(#[0-9a-fA-F]{3,6})\s*(\d+(?:\.\d+)?)?%?\s*\)")


def _rgb(hex_colour: str) -> tuple[int, ...]:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def _mix(m: re.Match) -> str:
    """``color-mix(in srgb, A p%, B)`` of two hex colours as one hex colour (a rasteriser knows no color-mix)."""
    a, b = _rgb(m[1]), _rgb(m[3])
    p = float(m[2]) / 100 if m[2] else (1 - float(m[4]) / 100 if m[4] else 0.5)
    return "#" + "".join(f"{round(x * p + y * (1 - p)):02x}" for x, y in zip(a, b))


_DARK = re.compile(r"@media\s*\(\s*prefers-color-scheme\s*:\s*dark\s*\)\s*\{")


def _dark_blocks(css: str) -> str:
    """The rules inside ``css``'s ``@media (prefers-color-scheme: dark)`` blocks."""
    out = []
    for m in _DARK.finditer(css):
        depth, j = 1, m.end()
        while j < len(css) and depth:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        out.append(css[m.end():j - 1])
    return "\n".join(out)


_BLOCK = re.compile(r"([^{}]+)\{([^{}]*)\}")
_STROKE = re.compile(r"(?<![\w-])(?:paint-order|stroke|stroke-width)\s*:[^;{}]*;?")


def _halo_off(m: re.Match) -> str:
    """A rule that paints a halo under its text (``paint-order: stroke``) without the halo: a rasteriser that
    knows no paint-order would paint the halo over the letters."""
    body = m[2]
    if not re.search(r"paint-order\s*:\s*stroke", body):
        return m[0]
    return m[1] + "{" + _STROKE.sub("", body) + "}"


def flatten(rules_css: str, variables_css: str = "", *, dark: bool = False) -> str:
    """``rules_css`` with custom properties resolved from both texts (first declaration wins); ``dark``: the
    dark theme's, its blocks' rules after the others and its values first."""
    rules, extra = _without_at_blocks(rules_css), _without_at_blocks(variables_css)
    first = ""
    if dark:
        first = _dark_blocks(rules_css) + "\n" + _dark_blocks(variables_css)
        rules += "\n" + _dark_blocks(rules_css)
    values: dict[str, str] = {}
    for name, value in _DECLARATION.findall(first + "\n" + rules + "\n" + extra):
        values.setdefault(name, value.strip())
    rules = _LAYOUT.sub("", _DECLARATION.sub("", rules))
    for _ in range(4):  # values may refer to other variables
        rules = _USE.sub(lambda m: values.get(m[1], (m[2] or "").strip() or "initial"), rules)
    rules = _MIX.sub(_mix, rules)
    rules = _BLOCK.sub(_halo_off, rules)
    rules = re.sub(r"color-mix\([^;{}]*\)", "currentColor", rules)  # any other kind: a safe stand-in
    rules = re.sub(r"[^{}]+\{\s*\}", "", rules)  # rules left empty (only declared variables)
    return re.sub(r"\n\s*\n+", "\n", rules).strip()


@lru_cache(maxsize=64)
def board_css(stylesheet: str, dark: bool = False) -> str:
    """The flattened CSS of a game's board stylesheet (a static path) in the light or the dark theme, "" if it
    has none."""
    if not stylesheet:
        return ""
    return flatten(_read(stylesheet), _read(SITE_CSS), dark=dark)
