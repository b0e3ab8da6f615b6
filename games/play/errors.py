"""What the write side refuses, each with the HTTP status that says why: views, API endpoints and consumers
turn a ``ServiceError`` into that status and its message."""
from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status that says why."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409
