"""What a Worker tells the app of its attempts' ends: finishes batched into finish_attempts, failures, attempts
given back (released when the worker stops). It keeps the commands not answered yet, for the worker's last wait.
Used by the worker's loop thread, but for the counters, which replies update."""

from __future__ import annotations

import logging
import time
from typing import Any

from .attempt import Attempt
from .client import Client
from .errors import CommandRefused
from .outcomes import outcome_of

LOG = logging.getLogger("coordinate")
FINISH_BATCH = 100
FINISH_LINGER = 0.02
FINISH_BATCH_BYTES = 256 * 1024


class AttemptReports:
    def __init__(self, client: Client, worker: str):
        self.client = client
        self.worker = worker
        self.finished = 0  # by the app's count: items of finish_attempts it applied
        self.failed = 0
        self.retried = 0
        self._finishes: list[dict] = []
        self._finishing: dict[str, Attempt] = {}
        self._bytes = 0
        self._since = 0.0
        self._last_commands: list = []

    def ended(self, attempt: Attempt, result: Any, error: BaseException | None, stopping: bool) -> None:
        """A handler ended: what it returned finishes the attempt (batched); what it raised is reported as
        outcome_of says, a release once the worker is stopping."""
        if error is None and result is not None and not isinstance(result, dict):
            error = TypeError(f"the handler returned {type(result).__name__}, not a dict or None")
        if error is None:
            if not self._finishes:
                self._since = time.monotonic()
            if isinstance(result, dict) and result:
                item = {"attempt_id": attempt.id, "data": result}
                self._bytes += len(str(result))
            else:
                item = {"attempt_id": attempt.id} if result is None else {"attempt_id": attempt.id, "data": {}}
            self._finishes.append(item)
            self._finishing[attempt.id] = attempt
            return
        kind, data, retryable_or_delay, release = outcome_of(error, stopping)
        if kind == "fail":
            self.failed += 1
            self._track(self.client.fail_attempt_future(attempt.id, data, retryable_or_delay), attempt, "fail")
        else:
            self.retried += 1
            self._track(self.client.retry_attempt_future(attempt.id, data, retryable_or_delay, release), attempt,
                        "give back")

    def release(self, attempt: Attempt, why: str) -> None:
        """Gives the attempt back at once, uncounted, because the worker is stopping: another worker runs it."""
        self.retried += 1
        self._track(self.client.retry_attempt_future(attempt.id, {"traceback": why}, 0.0, True), attempt, "release")

    def flush_if_due(self, now: float, nothing_held: bool) -> None:
        if self._finishes and (len(self._finishes) >= FINISH_BATCH or nothing_held
                               or now - self._since >= FINISH_LINGER or self._bytes >= FINISH_BATCH_BYTES):
            self.flush()

    def next_flush(self) -> float:
        return self._since + FINISH_LINGER if self._finishes else float("inf")

    def flush(self) -> None:
        if not self._finishes:
            return
        batch, attempts = self._finishes, self._finishing
        self._finishes, self._finishing, self._bytes = [], {}, 0
        reply = self.client.finish_attempts_future(batch)

        def done(future) -> None:
            error = future.exception()
            if error is not None:
                LOG.warning("worker %s: finish_attempts of %d attempts: %s", self.worker, len(batch), error)
                return
            result = future.result()
            self.finished += result.finished
            for refused in result.errors:
                if refused.code == "cancelled" and refused.attempt_id in attempts:
                    attempts[refused.attempt_id].cancel()  # its handler has ended: only the callbacks are left
                else:
                    LOG.warning("worker %s: finishing attempt %s was refused: %s %s", self.worker,
                                refused.attempt_id, refused.code, refused.message)

        reply.add_done_callback(done)
        self._keep(reply)

    def finish_and_deactivate(self) -> None:
        """After the stop: reports the last finishes, deactivates, and waits for the app to have taken them."""
        self.flush()
        self._keep(self.client.deactivate_worker_future(self.worker))
        deadline = time.monotonic() + self.client.timeout
        for command in self._last_commands:
            try:
                command.result(max(0.0, deadline - time.monotonic()))
            except Exception as e:
                LOG.debug("worker %s: a last command: %s", self.worker, e)

    def _track(self, reply, attempt: Attempt, what: str) -> None:
        def done(future) -> None:
            error = future.exception()
            if isinstance(error, CommandRefused) and error.code == "cancelled":
                attempt.cancel()  # its handler has ended: only the callbacks are left to run
            elif error is not None:
                LOG.warning("worker %s: %s of attempt %s: %s", self.worker, what, attempt.id, error)

        reply.add_done_callback(done)
        self._keep(reply)

    def _keep(self, reply) -> None:
        self._last_commands.append(reply)
        if len(self._last_commands) > 64:
            self._last_commands = [command for command in self._last_commands if not command.done()]
