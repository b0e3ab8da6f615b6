"""Request bodies far over the limit, sent to the real server (``python -m ropasci.server``, Daphne): a 413 with a
JSON error as soon as the body is known to be too large, and the server's memory does not grow with the body
(Daphne alone read a 200 MB body into memory before any view could refuse it, and kept it)."""
from __future__ import annotations

import json
import socket

import pytest

from ropasci.server import MAX_BODY
from tests.liveserver import LiveServer, api_call

HUGE = 200 * 1024 * 1024
BLOCK = b"x" * (1024 * 1024)


@pytest.fixture(scope="module")
def fresh_server():
    """A server of this module's own: its memory peak (VmHWM) is this module's."""
    with LiveServer() as srv:
        yield srv


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS (now) and VmHWM (the peak so far) of a process, in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields


def post_huge(port: int, *, chunked: bool = False, expect_continue: bool = False) -> bytes:
    """POST a 200 MB body to /api/games (stopping early when the server answers first); the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = [b"POST /api/games HTTP/1.1", b"Host: 127.0.0.1", b"Content-Type: application/json"]
        head.append(b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % HUGE)
        if expect_continue:
            head.append(b"Expect: 100-continue")
        sock.sendall(b"\r\n".join(head) + b"\r\n\r\n")
        if not expect_continue:  # a client that waits for "100 Continue" sends nothing before it
            try:
                for _ in range(HUGE // len(BLOCK)):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(BLOCK), BLOCK) if chunked else BLOCK)
                if chunked:
                    sock.sendall(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may close once it has answered: the answer is read below
        return read_answer(sock)


def read_answer(sock) -> bytes:
    """The first answer on the socket: its head and its Content-Length of body."""
    answer = b""
    while b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(next((line.split(b":")[1] for line in head.split(b"\r\n")[1:]
                       if line.lower().startswith(b"content-length:")), 0))
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return head + b"\r\n\r\n" + body


@pytest.mark.parametrize("how", ["content-length", "chunked", "expect-100-continue"])
def test_a_huge_body_gets_413_and_the_server_keeps_none_of_it(fresh_server, how):
    pid = fresh_server.process.pid
    before = memory_mb(pid)
    answer = post_huge(fresh_server.port, chunked=how == "chunked", expect_continue=how == "expect-100-continue")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 "), answer[:300]
    assert json.loads(body) == {"error": f"request body too large (the limit is {MAX_BODY} bytes)"}
    after = memory_mb(pid)
    assert after["VmRSS"] - before["VmRSS"] < 8 and after["VmHWM"] - before["VmHWM"] < 8, (before, after)
    # Nothing was created, and the server serves on.
    status, game = api_call(fresh_server.url, "/api/games", {"game": "nim", "players": {"black": "human",
                                                                                       "white": "human"}})
    assert status == 201, game


def test_a_body_under_the_server_limit_still_reaches_the_view(fresh_server):
    """The view's own, lower limit answers it (the server's bound only stops what no view takes)."""
    with socket.create_connection(("127.0.0.1", fresh_server.port), timeout=30) as sock:
        body = b'{"pad": "' + b"x" * (MAX_BODY - 100) + b'"}'
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert "too large" in json.loads(answer.partition(b"\r\n\r\n")[2])["error"]
