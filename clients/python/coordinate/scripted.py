"""The scripted handler of the conformance runner: each run of a unit follows a step of the unit's
``{"script": [step, ...]}`` (clients/conformance/README.md)."""

from __future__ import annotations

import threading
from typing import Any

from .attempt import Attempt
from .errors import FailAttempt, RetryLater


class ScriptedHandler:
    """Run r of a unit in this process takes ``script[min(r, len - 1)]``; no script finishes at once."""

    def __init__(self):
        self._runs: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def __call__(self, attempt: Attempt) -> dict[str, Any] | None:
        script = attempt.data.get("script") if isinstance(attempt.data, dict) else None
        with self._lock:
            key = (attempt.spec, attempt.unit)
            run = self._runs.get(key, 0)
            self._runs[key] = run + 1
        step = script[min(run, len(script) - 1)] if script else {"outcome": "finish"}
        return run_step(step, attempt)


def run_step(step: dict[str, Any], attempt: Attempt) -> dict[str, Any] | None:
    sleep_ms = step.get("sleep_ms")
    if sleep_ms and attempt.wait(sleep_ms / 1000.0):
        return _interrupted(attempt)
    if "progress" in step:
        fraction, message = (list(step["progress"]) + [None, None])[:2]
        attempt.progress(fraction, message)
    outcome = step.get("outcome", "finish")
    message = step.get("message", outcome)
    if outcome == "finish":
        return step.get("result", {"ok": True})
    if outcome == "fail":
        raise RuntimeError(message)
    if outcome == "fail_permanent":
        raise FailAttempt(message, step.get("result"))
    if outcome == "retry_later":
        raise RetryLater(message, step.get("delay_ms", 0) / 1000.0)
    if outcome == "hang":
        attempt.wait(None)
        return _interrupted(attempt)
    raise ValueError(f"unknown outcome {outcome!r}")


def _interrupted(attempt: Attempt) -> None:
    """A cancelled attempt reports nothing whatever this says; a stopped one is released, as anything raised once
    the worker is stopping."""
    raise RuntimeError("cancelled" if attempt.cancelled else "the worker stopped")
