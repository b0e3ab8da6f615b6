"""A GET through the whole ASGI application, reading a streamed body to its end (a long-poll's answer is one).
Channels' ``HttpCommunicator`` expects a ``body`` in every body message; ASGI lets the last one omit it."""
from channels.testing import ApplicationCommunicator

from ropasci.asgi import application


async def asgi_get(path: str, timeout: float = 20) -> tuple[int, dict, bytes]:
    """(status, headers, body) of ``GET path``."""
    path, _, query = path.partition("?")
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": path, "query_string": query.encode(),
             "headers": [(b"host", b"testserver")]}
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout)
    assert start["type"] == "http.response.start", start
    body = b""
    while True:
        message = await communicator.receive_output(timeout)
        assert message["type"] == "http.response.body", message
        body += message.get("body", b"")
        if not message.get("more_body"):
            return start["status"], dict(start.get("headers") or []), body
