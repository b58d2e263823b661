"""A Worker: asks for work, runs a handler per attempt in a pool of threads, renews leases, reports outcomes in
batches, heeds cancellations, and stops gracefully (docs/client.md, "Work units with a Worker").

Every decision is made on one loop thread, fed by a queue of events (answers, handlers that ended, leases lost,
cancellations, progress, the stop), so its state needs no locks. Attempts go to the handlers' queue as they come,
and a free handler takes the next one itself.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import socket
import threading
import time
import uuid
from typing import Any, Callable

from .attempt import QUEUED, RUNNING, WITHDRAWN, Attempt
from .client import Client, request_command
from .errors import CommandRefused
from .held import HeldAttempts
from .pacing import NANOS_PER_SECOND, Backoff, Holding, RequestPacer, nanos
from .reports import AttemptReports

LOG = logging.getLogger("coordinate")
PROGRESS_INTERVAL = 1.0
HEARTBEAT_INTERVAL = 30.0


class Worker:
    """Works the units of ``specs`` (all specs when empty) with ``handler(attempt) -> dict | None``.

    ``concurrency`` handlers run at once; ``lease`` seconds per attempt, renewed at half; ``prefetch`` fixes the
    queue of attempts held beyond the handlers (adaptive when None, at most ``max_held``); ``backoff`` is the
    (min, max) wait after empty answers; a stop gives running handlers ``close_timeout`` seconds to end.
    """

    def __init__(self, client: Client, specs: list[str] | None = None, handler: Callable[[Attempt], Any] = None,
                 concurrency: int = 1, lease: float = 30.0, prefetch: int | None = None, max_held: int = 1000,
                 backoff: tuple[float, float] = (0.1, 5.0), close_timeout: float = 30.0, name: str | None = None,
                 heartbeat_interval: float = HEARTBEAT_INTERVAL):
        if handler is None:
            raise ValueError("a handler is required")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.client = client
        self.specs = list(specs or [])
        self.handler = handler
        self.concurrency = concurrency
        self.lease = lease
        self.close_timeout = close_timeout
        self.heartbeat_interval = heartbeat_interval
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.holding = Holding(concurrency, lease, prefetch, max_held)
        self._reports = AttemptReports(client, self.name)
        self.requests = 0
        self._backoff = Backoff(*backoff)
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._claim = threading.Lock()
        self._held = HeldAttempts(lease / 2)
        self._progress_due: dict[str, float] = {}
        self._request_ids = f"{self.name}-{uuid.uuid4().hex[:8]}-"
        self._sequence = 0
        self._unanswered: dict[str, tuple[dict, float]] = {}  # each request and when it was first sent
        self._stopping = False
        self._stop_deadline = 0.0
        self._stopped = threading.Event()
        self._loop: threading.Thread | None = None
        self._handlers: list[threading.Thread] = []
        self._pacer: RequestPacer | None = None

    # --- starting and stopping

    def start(self) -> Worker:
        """Starts working in the background; returns once the worker reads its assignments."""
        self.client.connection.watch(self.name, self._assigned).result(self.client.timeout)
        self._pacer = RequestPacer(self.holding, self._backoff, self.client.timeout, time.monotonic_ns())
        for i in range(self.concurrency):
            thread = threading.Thread(target=self._run_handlers, name=f"{self.name}-handler-{i + 1}", daemon=True)
            thread.start()
            self._handlers.append(thread)
        self._loop = threading.Thread(target=self._run, name=f"{self.name}-loop", daemon=True)
        self._loop.start()
        return self

    def run(self) -> None:
        """Works until SIGTERM or SIGINT (when called on the main thread) or stop(), then stops gracefully."""
        installed = {}
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                installed[signum] = signal.signal(signum, lambda *_: self.request_stop())
        try:
            if self._loop is None:
                self.start()
            while not self._stopped.wait(0.5):
                pass
        finally:
            for signum, previous in installed.items():
                signal.signal(signum, previous)

    def request_stop(self, timeout: float | None = None) -> None:
        """Begins the graceful stop without waiting for it."""
        self._events.put(("stop", self.close_timeout if timeout is None else timeout))

    def stop(self, timeout: float | None = None) -> None:
        """Asks for nothing more, gives back the attempts not started, lets running handlers end within
        ``close_timeout`` (then gives theirs back), reports the last finishes and deactivates the worker."""
        self.request_stop(timeout)
        if self._loop is not None:
            self._stopped.wait()

    @property
    def finished(self) -> int:
        """Units finished, by the app's count."""
        return self._reports.finished

    @property
    def failed(self) -> int:
        """Attempts failed because the handler raised."""
        return self._reports.failed

    @property
    def retried(self) -> int:
        """Attempts given back or released."""
        return self._reports.retried

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    @property
    def held(self) -> int:
        return len(self._held)

    # --- the other threads

    def _assigned(self, record: dict) -> None:
        """A record of the worker's assignments, on the client's polling thread."""
        cancelled = record.get("cancelled")
        if cancelled:
            self._events.put(("cancelled", cancelled))
        if "attempts" in record:
            self._events.put(("assigned", record))

    def _progress_reported(self, attempt: Attempt) -> None:
        self._events.put(("progress", attempt))

    def _run_handlers(self) -> None:
        work = self._work
        claim = self._claim
        events = self._events
        handler = self.handler
        clock = time.perf_counter_ns
        while True:
            attempt = work.get()
            if attempt is None:
                return
            with claim:
                if attempt.state != QUEUED:
                    continue  # given back before a handler came to it
                attempt.state = RUNNING
            began = clock()
            try:
                events.put(("ended", attempt, handler(attempt), None, clock() - began))
            except BaseException as error:  # noqa: B036 - whatever the handler raises is its attempt's outcome
                events.put(("ended", attempt, None, error, clock() - began))

    # --- the loop thread

    def _run(self) -> None:
        events = self._events
        next_heartbeat = time.monotonic()
        try:
            while True:
                now = time.monotonic()
                if not self._stopping and now >= next_heartbeat:
                    self._heartbeat()
                    next_heartbeat = now + self.heartbeat_interval
                self._act(now)
                if self._stopping and not self._held and (not self._pacer.awaits_answers()
                                                          or now >= self._stop_deadline):
                    break
                wake = min(self._next_wake_up(now), next_heartbeat if not self._stopping else now + 1.0)
                try:
                    event = events.get(timeout=max(0.0, min(wake - time.monotonic(), 1.0)))
                except queue.Empty:
                    continue
                self._handle(event)
                while True:  # everything that came meanwhile, before deciding again
                    try:
                        self._handle(events.get_nowait())
                    except queue.Empty:
                        break
            self._reports.finish_and_deactivate()
        except Exception:
            LOG.exception("worker %s stopped on an error", self.name)
        finally:
            self.client.connection.unwatch(self.name)
            for _ in self._handlers:
                self._work.put(None)
            self._stopped.set()

    def _act(self, now: float) -> None:
        held = self._held
        for attempt in held.due_for_renewal(now):
            self._renew(attempt, None)
        if self._progress_due:
            for attempt_id, due in list(self._progress_due.items()):
                if due <= now:
                    del self._progress_due[attempt_id]
                    attempt = held.get(attempt_id)
                    if attempt is not None and not attempt.lost:
                        self._send_progress(attempt, now)
        if self._stopping:
            self._give_back_on_stop(now)
        self._reports.flush_if_due(now, not held)
        pacer = self._pacer
        now_nanos = nanos(now)
        for request_id in pacer.overdue(now_nanos):
            LOG.warning("worker %s: no assignment for request %s in %s s; sending it again", self.name, request_id,
                        self.client.timeout)
            self._send_request(self._unanswered[request_id][0])
        if not self._stopping:
            count = pacer.to_ask(len(held), now_nanos)
            if count > 0:
                self._reports.flush()  # report what is done before asking for more
                self._ask(count, now, now_nanos)

    def _give_back_on_stop(self, now: float) -> None:
        past_deadline = now >= self._stop_deadline
        for attempt in list(self._held.values()):
            with self._claim:
                withdrawn = attempt.state == QUEUED
                if withdrawn:
                    attempt.state = WITHDRAWN
            if withdrawn or past_deadline:
                self._forget(attempt)
                if not attempt.lost:
                    attempt.lost = True  # what its handler returns from now on is dropped
                    self._reports.release(attempt, "the worker stopped before it started" if withdrawn
                                          else "the worker stopped while it ran")

    def _next_wake_up(self, now: float) -> float:
        wake = now + 1.0
        if self._stopping:
            wake = min(wake, self._stop_deadline)
        else:
            wake = min(wake, self._pacer.next_wake_up(len(self._held), nanos(now)) / NANOS_PER_SECOND)
        wake = min(wake, self._reports.next_flush())
        if self._progress_due:
            wake = min(wake, min(self._progress_due.values()))
        return min(wake, self._held.next_renewal())

    def _handle(self, event: tuple) -> None:
        kind = event[0]
        if kind == "ended":
            self._ended(event[1], event[2], event[3], event[4])
        elif kind == "assigned":
            self._on_assignment(event[1])
        elif kind == "lost":
            attempt = self._held.get(event[1])
            if attempt is not None:
                if event[2] == "cancelled":
                    self._cancel(attempt)
                else:
                    LOG.warning("worker %s: lost the lease of attempt %s (%s); its result is dropped", self.name,
                                attempt.id, event[2])
                    self._drop(attempt)
        elif kind == "cancelled":
            for attempt_id in event[1]:
                attempt = self._held.get(attempt_id)
                if attempt is not None:
                    self._cancel(attempt)
        elif kind == "progress":
            attempt = event[1]
            if attempt.id in self._held and not attempt.lost and attempt.id not in self._progress_due:
                now = time.monotonic()
                sent = attempt.progress_sent_at
                if sent is None or now - sent >= PROGRESS_INTERVAL:
                    self._send_progress(attempt, now)
                else:
                    self._progress_due[attempt.id] = sent + PROGRESS_INTERVAL
        elif kind == "stop":
            if not self._stopping:
                self._stopping = True
                self._stop_deadline = time.monotonic() + event[1]
                for attempt in self._held.values():
                    attempt.interrupt(stopping=True)

    def _on_assignment(self, record: dict) -> None:
        request_id = record.get("request_id")
        attempts = record.get("attempts") or ()
        retry_after = record.get("retry_after_ms")
        now = time.monotonic()
        if not self._pacer.answered(request_id, not attempts,
                                    nanos(retry_after / 1000.0) if isinstance(retry_after, (int, float)) else None,
                                    nanos(now)):
            return  # the answer to another copy of a request sent again: the first answer was taken already
        sent = self._unanswered.pop(request_id, None)
        lease_from = sent[1] if sent is not None else now  # the lease began at the app after the request went out
        held = self._held
        work = self._work
        for item in attempts:
            attempt_id = item["attempt_id"]
            if attempt_id in held:
                continue  # a repeated request's answer names the attempts it handed out already
            attempt = Attempt(attempt_id, item.get("work_spec_name"), item.get("work_unit_name"),
                              item.get("data") or {}, item.get("expiration_time"), self)
            if self._stopping:
                self._reports.release(attempt, "the worker stopped before it started")
                continue
            held.add(attempt, lease_from)
            work.put(attempt)

    def _ended(self, attempt: Attempt, result: Any, error: BaseException | None, run_nanos: int) -> None:
        self.holding.handler_ran(run_nanos)
        if self._held.pop(attempt.id, None) is None or attempt.lost:
            return  # given back at the stop deadline, or the app no longer takes this attempt's outcome
        self._progress_due.pop(attempt.id, None)
        self._reports.ended(attempt, result, error, self._stopping)

    def _cancel(self, attempt: Attempt) -> None:
        if attempt.cancel():
            LOG.info("worker %s: attempt %s was cancelled", self.name, attempt.id)
        self._drop(attempt)

    def _drop(self, attempt: Attempt) -> None:
        """Stops renewing an attempt; its handler's outcome is dropped, and a queued one never runs."""
        self._progress_due.pop(attempt.id, None)
        with self._claim:
            withdrawn = attempt.state == QUEUED
            if withdrawn:
                attempt.state = WITHDRAWN
        if withdrawn:
            self._held.pop(attempt.id, None)
        attempt.lost = True
        attempt.interrupt()  # a handler in attempt.wait() ends, as a Java handler's thread is interrupted

    def _forget(self, attempt: Attempt) -> None:
        self._held.pop(attempt.id, None)
        self._progress_due.pop(attempt.id, None)

    # --- commands

    def _ask(self, count: int, now: float, now_nanos: int) -> None:
        self._sequence += 1
        request_id = self._request_ids + str(self._sequence)
        command = request_command(self.name, count, self.lease, self.specs or None, request_id=request_id)
        self._pacer.asked(request_id, count, now_nanos)
        self._unanswered[request_id] = (command, now)
        self._send_request(command)

    def _send_request(self, command: dict) -> None:
        self.requests += 1
        try:
            self.client.connection.send(self.client.namespace, dict(command))
        except Exception as e:  # sent again once its answer is overdue
            LOG.warning("worker %s: could not send request_attempts: %s", self.name, e)

    def _send_progress(self, attempt: Attempt, now: float) -> None:
        latest = attempt.take_progress()
        if latest is not None:
            attempt.progress_sent_at = now
            self._held.renewed(attempt, now)
            self._renew(attempt, latest)

    def _renew(self, attempt: Attempt, progress) -> None:
        reply = self.client.renew_attempt_future(attempt.id, self.lease, None, progress)
        events = self._events

        def done(future) -> None:
            error = future.exception()
            if isinstance(error, CommandRefused):
                events.put(("lost", attempt.id, error.code))
            elif error is not None:
                LOG.warning("worker %s: renewing attempt %s: %s", self.name, attempt.id, error)

        reply.add_done_callback(done)

    def _heartbeat(self) -> None:
        data = {"host": socket.gethostname(), "pid": os.getpid(), "concurrency": self.concurrency,
                "work_specs": self.specs, "language": "python"}
        reply = self.client.worker_heartbeat_future(self.name, None, "run", data, self.heartbeat_interval * 3)
        reply.add_done_callback(lambda f: f.exception() and LOG.warning(
            "worker %s: heartbeat: %s", self.name, f.exception()))
