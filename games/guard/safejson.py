"""Decoding JSON that strangers send (request bodies, WebSocket frames, form fields), in one place.

``json.loads`` alone can be made to raise RecursionError (deep nesting), ValueError from Python's
int-string limit (an integer of thousands of digits) or accept NaN/Infinity (also as ``1e999``). ``loads``
checks size and nesting before decoding and turns every failure into :class:`BadJSON` with a message a client
can act on. A string holding NUL (``"\\u0000"``) is refused too: PostgreSQL cannot store or even compare one,
and no id, name or action needs it.
"""
from __future__ import annotations

import json
import math

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
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"{text} is out of range")
    return value


def _has_nul(value) -> bool:
    """Whether a string (or a key) anywhere in the decoded ``value`` holds NUL (a loop, no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


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
        value = json.loads(data, parse_int=_number, parse_float=_float, parse_constant=_constant)
    except BadJSON:
        raise
    except (ValueError, RecursionError) as exc:
        raise BadJSON(f"malformed JSON: {exc}") from None
    if "\\u0000" in data and _has_nul(value):  # the only way JSON text can carry NUL into a string
        raise BadJSON("a string holds a NUL character (\\u0000), which is not allowed")
    return value
