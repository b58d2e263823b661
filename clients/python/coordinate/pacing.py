"""When a Worker asks for work and for how much: the adaptive holding of docs/client.md, the same rule as the Java
and Node workers. Pure and single-threaded: times are time.monotonic_ns() values passed in, so tests drive it with
any clock; integer nanoseconds, as in the Java worker, keep its arithmetic free of rounding."""

from __future__ import annotations

import math

NANOS_PER_SECOND = 1_000_000_000
LINGER_NANOS = 20_000_000
ROUND_TRIPS = 4
EWMA_ALPHA = 0.2
MIN_HANDLER_NANOS = 100_000


def nanos(seconds: float) -> int:
    return round(seconds * NANOS_PER_SECOND)


class Holding:
    """How many attempts a worker holds: ``concurrency`` plus a queue of Q waiting for a free handler.

    A fixed ``prefetch`` is Q (``max_held`` does not bound it). Otherwise Q is ROUND_TRIPS round trips of work,
    ceil(4 R c / H), with H the moving average of every handler run's time and R that of a request's round trip,
    so that handlers do not starve while the next answer waits for the app's commit; capped so that the queue
    drains within a quarter of the lease, and by ``max_held``: long handlers hold nothing extra. H counts as at
    least MIN_HANDLER_NANOS. Before both are measured, Q = min(c, ``max_held``).
    """

    def __init__(self, concurrency: int, lease: float, prefetch: int | None = None, max_held: int = 1000):
        self.concurrency = concurrency
        self.lease_nanos = nanos(lease)
        self.prefetch = prefetch
        self.max_held = max_held
        self.handler_nanos: float | None = None
        self.round_trip_nanos: float | None = None

    def handler_ran(self, run_nanos: int) -> None:
        """A handler's run ended (it returned, raised or was cancelled) after ``run_nanos``."""
        self.handler_nanos = _ewma(self.handler_nanos, run_nanos)

    def request_answered(self, round_trip_nanos: int) -> None:
        """A request sent once was answered ``round_trip_nanos`` after it went out."""
        self.round_trip_nanos = _ewma(self.round_trip_nanos, round_trip_nanos)

    def queue(self) -> int:
        """Q: the attempts held beyond the handlers."""
        if self.prefetch is not None:
            return self.prefetch
        if self.handler_nanos is None or self.round_trip_nanos is None:
            return min(self.concurrency, self.max_held)
        handler = max(self.handler_nanos, MIN_HANDLER_NANOS)
        round_trips = math.ceil(ROUND_TRIPS * self.round_trip_nanos * self.concurrency / handler)
        quarter_lease = math.floor(self.lease_nanos / 4 * self.concurrency / handler)
        return max(0, min(round_trips, quarter_lease, self.max_held))

    def capacity(self) -> int:
        """The most attempts held: running, queued or asked for."""
        return self.concurrency + self.queue()


def _ewma(average: float | None, sample: int) -> float:
    return sample if average is None else average + EWMA_ALPHA * (sample - average)


class Backoff:
    """Waits after empty answers: ``minimum`` seconds doubling up to ``maximum``, from the minimum again after work."""

    def __init__(self, minimum: float, maximum: float):
        if not 0 < minimum <= maximum:
            raise ValueError(f"a backoff needs 0 < min <= max: {minimum}, {maximum}")
        self.min_nanos = nanos(minimum)
        self.max_nanos = nanos(maximum)
        self._next = self.min_nanos

    def next_nanos(self) -> int:
        """The wait after one more empty answer."""
        wait = self._next
        self._next = min(self._next * 2, self.max_nanos)
        return wait

    def reset(self) -> None:
        self._next = self.min_nanos


class RequestPacer:
    """Requests reserve their slots until answered, so several may be in flight. The worker asks when its free room
    reaches half its capacity (rounded up), when it holds nothing and awaits no answer, or when a free handler with
    room to ask for has waited LINGER_NANOS (a free slot of the queue alone does not wait). After an empty answer it
    backs off; after a rate-limited one it waits the answer's retry_after (at most the maximum backoff). A request
    unanswered within ``answer_timeout`` seconds is due to be sent again as it was."""

    def __init__(self, holding: Holding, backoff: Backoff, answer_timeout: float, now: int):
        self.holding = holding
        self.backoff = backoff
        self.answer_timeout_nanos = nanos(answer_timeout)
        self.outstanding: dict[str, list] = {}  # request id -> [count, deadline, sent at, repeated]
        self.reserved = 0
        self._free_since: int | None = None
        self._next_request_at = now

    def free(self, held: int) -> int:
        """The slots neither held nor asked for."""
        return self.holding.capacity() - held - self.reserved

    def to_ask(self, held: int, now: int) -> int:
        """How many attempts to ask for now (0: none), holding ``held`` (running or queued). Tracks how long a handler
        has been free with room to ask for, so call it whenever the worker acts."""
        free = self.free(held)
        if free <= 0 or not self._handler_free(held):
            self._free_since = None
        elif self._free_since is None:
            self._free_since = now
        if free <= 0 or now < self._next_request_at:
            return 0
        lingered = self._free_since is not None and now - self._free_since >= LINGER_NANOS
        return free if self._eager(held, free) or lingered else 0

    def _eager(self, held: int, free: int) -> bool:
        """Asks without the linger: it holds nothing and awaits nothing, or half its capacity is free."""
        return (held == 0 and self.reserved == 0) or free >= (self.holding.capacity() + 1) // 2

    def _handler_free(self, held: int) -> bool:
        """A handler has nothing to run: queued attempts go to free handlers as they come."""
        return held < self.holding.concurrency

    def asked(self, request_id: str, count: int, now: int) -> None:
        self.outstanding[request_id] = [count, now + self.answer_timeout_nanos, now, False]
        self.reserved += count
        self._free_since = None

    def answered(self, request_id: str | None, empty: bool, retry_after_nanos: int | None, now: int) -> bool:
        """Takes an answer; False when it answers no request still outstanding (another copy's, or an earlier
        worker's). ``retry_after_nanos`` is a rate limit's wait, or None."""
        request = self.outstanding.pop(request_id, None) if request_id is not None else None
        if request is None:
            return False
        self.reserved -= request[0]
        if not request[3]:  # a copy sent again would measure the timeout, not the round trip
            self.holding.request_answered(now - request[2])
        if retry_after_nanos is not None:
            if not empty:
                self.backoff.reset()
            self._next_request_at = now + min(max(0, retry_after_nanos), self.backoff.max_nanos)
        elif empty:
            self._next_request_at = now + self.backoff.next_nanos()
        else:
            self.backoff.reset()
            self._next_request_at = now
        return True

    def overdue(self, now: int) -> list[str]:
        """The requests unanswered past their timeout: to send again, their slots still reserved."""
        late = []
        for request_id, request in self.outstanding.items():
            if now >= request[1]:
                request[1] = now + self.answer_timeout_nanos
                request[3] = True
                late.append(request_id)
        return late

    def awaits_answers(self) -> bool:
        return bool(self.outstanding)

    def next_wake_up(self, held: int, now: int) -> float:
        """The earliest time at which, nothing else happening, to_ask or overdue could change (math.inf: none)."""
        wake = math.inf
        free = self.free(held)
        if free > 0 and self._eager(held, free):
            wake = max(self._next_request_at, now)
        elif free > 0 and self._handler_free(held):
            lingered = now if self._free_since is None else self._free_since + LINGER_NANOS
            wake = max(self._next_request_at, lingered)
        for request in self.outstanding.values():
            wake = min(wake, request[1])
        return wake
