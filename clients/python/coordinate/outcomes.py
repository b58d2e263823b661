"""What a Worker reports of a handler that raised (docs/client.md, "When a handler fails")."""

from __future__ import annotations

import traceback
from typing import Any

from .errors import FailAttempt, RetryLater

MAX_TRACEBACK_CHARS = 16 * 1024


def outcome_of(error: BaseException, stopping: bool) -> tuple[str, dict[str, Any], Any, bool]:
    """("fail", data, retryable, False) or ("retry", data, delay seconds, release).

    Once the worker is stopping, whatever a handler raises gives the unit back as a release: a stop is no fault of
    the unit. Before, RetryLater gives it back after its delay, FailAttempt fails it as it says, and any other
    error fails it as retryable with its traceback.
    """
    if isinstance(error, RetryLater):
        return "retry", {"traceback": str(error)}, error.delay_seconds, stopping
    if stopping:
        return "retry", {"traceback": f"the worker stopped: {error!r}"}, 0.0, True
    if isinstance(error, FailAttempt):
        return "fail", error.data, error.retryable, False
    return "fail", {"traceback": traceback_text(error)}, True, False


def traceback_text(error: BaseException) -> str:
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return text[:MAX_TRACEBACK_CHARS]
