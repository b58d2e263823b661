"""The errors of the client, and the two a handler raises to say how its attempt ends."""

from __future__ import annotations


class CoordinateError(Exception):
    """Anything the client could not do."""


class CommandRefused(CoordinateError):
    """The app refused a command (its reply had ``"ok": false``); the command changed nothing.

    ``code`` is the reply's stable error code (``no_such_work_spec``, ``lost_lease``, ...: docs/reference.md,
    "Error codes").
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class CoordinateUnreachable(CoordinateError):
    """Kafka could not be reached within the client's timeout."""


class FailAttempt(Exception):
    """Raised by a handler: ``fail_attempt`` with ``data``, permanent unless ``retryable``."""

    def __init__(self, message: str, data: dict | None = None, retryable: bool = False):
        super().__init__(message)
        self.data = data if data is not None else {"traceback": message}
        self.retryable = retryable


class RetryLater(Exception):
    """Raised by a handler: the unit is given back (``retry_attempt``) to run again after ``delay_seconds``."""

    def __init__(self, message: str, delay_seconds: float = 0.0):
        super().__init__(message)
        self.delay_seconds = delay_seconds
