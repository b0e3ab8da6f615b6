"""Decoding JSON that strangers send (request bodies, WebSocket frames, form fields), in one place.

``json.loads`` alone can be made to raise RecursionError (deep nesting), ValueError from Python's
int-string limit (an integer of thousands of digits) or accept NaN/Infinity. ``loads`` checks size and
nesting before decoding and turns every failure into :class:`BadJSON` with a message a client can act on.
"""
from __future__ import annotations

import json

MAX_BYTES = 64 * 1024
MAX_DEPTH = 32
MAX_NUMBER_DIGITS = 30


class BadJSON(ValueError):
    """Input that is not acceptable JSON; the message says why."""


def _depth(text: str) -> int:
    """The deepest nesting of arrays/objects, outside strings (a linear scan, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _number(text: str):
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise BadJSON(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _float(text: str):
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise BadJSON(f"a number has more than {MAX_NUMBER_DIGITS} digits")
    return float(text)


def _constant(name: str):
    raise BadJSON(f"{name} is not a JSON number")


def loads(data: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, empty=None):
    """Decode ``data``; ``empty`` is returned for an empty body. BadJSON for anything unacceptable."""
    if len(data) > max_bytes:
        raise BadJSON(f"too large: {len(data)} bytes, the limit is {max_bytes}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON("malformed JSON: not UTF-8 text") from None
    if not data.strip():
        return empty
    if _depth(data) > max_depth:
        raise BadJSON(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(data, parse_int=_number, parse_float=_float, parse_constant=_constant)
    except BadJSON:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadJSON(f"malformed JSON: {exc}") from None
