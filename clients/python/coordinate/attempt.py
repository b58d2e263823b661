"""The attempt a Worker hands its handler."""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

LOG = logging.getLogger("coordinate")

QUEUED, RUNNING, WITHDRAWN = 0, 1, 2


class Attempt:
    """One attempt at a unit: ``data``, ``id``, ``spec``, ``unit``; ``progress(fraction, message)`` reports how far
    it got; ``cancelled`` becomes true when the unit is cancelled (nothing more is reported for it then), and the
    callbacks of ``on_cancel`` run. ``wait(seconds)`` sleeps, ending early on a cancellation or the worker's stop.
    """

    __slots__ = ("id", "spec", "unit", "data", "expiration_time", "_worker", "_cancelled", "_callbacks",
                 "_progress", "_event", "state", "renew_at", "renew_order", "lost", "progress_sent_at", "stopping")

    def __init__(self, attempt_id: str, spec: str, unit: str, data: dict[str, Any], expiration_time: str | None,
                 worker=None):
        self.id = attempt_id
        self.spec = spec
        self.unit = unit
        self.data = data
        self.expiration_time = expiration_time
        self._worker = worker
        self._cancelled = False
        self._callbacks: list[Callable[[], None]] | None = None
        self._progress: tuple[float | None, str | None] | None = None
        self._event: threading.Event | None = None
        # The worker's own bookkeeping, on its loop thread.
        self.state = QUEUED
        self.renew_at = 0.0
        self.renew_order = 0
        self.lost = False
        self.progress_sent_at: float | None = None
        self.stopping = False

    @property
    def attempt_id(self) -> str:
        return self.id

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Runs ``callback`` when the unit is cancelled (at once if it is already), on the worker's thread."""
        if self._callbacks is None:
            self._callbacks = []
        self._callbacks.append(callback)
        if self._cancelled:
            _run(callback)

    def progress(self, fraction: float | None, message: str | None = None) -> None:
        """Reports progress (a fraction from 0 to 1, and a message cut at 1,000 characters): at most one report a
        second goes out, the latest one."""
        if message is not None and len(message) > 1000:
            message = message[:1000]
        self._progress = (fraction, message)
        if self._worker is not None:
            self._worker._progress_reported(self)

    def wait(self, seconds: float | None) -> bool:
        """Sleeps up to ``seconds`` (None: until interrupted); True when the attempt was cancelled, its lease lost,
        or the worker is stopping, at once or during the wait."""
        if self._cancelled or self.stopping or self.lost:
            return True
        event = self._event
        if event is None:
            event = self._event = threading.Event()
        if self._cancelled or self.stopping or self.lost:  # set before the event existed
            return True
        return event.wait(seconds)

    def take_progress(self) -> tuple[float | None, str | None] | None:
        latest, self._progress = self._progress, None
        return latest

    def interrupt(self, stopping: bool = False) -> None:
        """Ends a wait(): the attempt was dropped, or the worker stops."""
        if stopping:
            self.stopping = True
        event = self._event
        if event is not None:
            event.set()

    def cancel(self) -> bool:
        """Marks the attempt cancelled and runs its callbacks; False when it was already."""
        if self._cancelled:
            return False
        self._cancelled = True
        self.interrupt()
        for callback in self._callbacks or ():
            _run(callback)
        return True

    def __repr__(self) -> str:
        return f"Attempt({self.id!r}, spec={self.spec!r}, unit={self.unit!r})"


def _run(callback: Callable[[], None]) -> None:
    try:
        callback()
    except Exception:
        LOG.exception("an on_cancel callback failed")
