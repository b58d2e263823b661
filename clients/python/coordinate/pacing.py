"""When a Worker asks for work and for how much: the adaptive holding of docs/client.md, the same rule as the Java
and Node workers. Pure and single-threaded: times are time.monotonic() values passed in, so tests drive it with
any clock."""

from __future__ import annotations

import math

LINGER_SECONDS = 0.02
EWMA_ALPHA = 0.2
MIN_HANDLER_SECONDS = 0.0001


class Holding:
    """How many attempts a worker holds: ``concurrency`` plus a queue of Q waiting for a free handler.

    A fixed ``prefetch`` is Q. Otherwise Q is two round trips of work, ceil(2 R c / H) with H the handlers' and R the
    requests' moving average times (Q = c before both are measured), capped so that the queue drains within a
    quarter of the lease and by ``max_held``: long handlers hold nothing extra.
    """

    def __init__(self, concurrency: int, lease: float, prefetch: int | None = None, max_held: int = 1000):
        self.concurrency = concurrency
        self.lease = lease
        self.prefetch = prefetch
        self.max_held = max_held
        self.handler_seconds: float | None = None
        self.round_trip_seconds: float | None = None

    def handler_ran(self, seconds: float) -> None:
        self.handler_seconds = _ewma(self.handler_seconds, seconds)

    def request_answered(self, seconds: float) -> None:
        self.round_trip_seconds = _ewma(self.round_trip_seconds, seconds)

    def queue(self) -> int:
        """Q: the attempts held beyond the handlers."""
        if self.prefetch is not None:
            return self.prefetch
        if self.handler_seconds is None or self.round_trip_seconds is None:
            return min(self.concurrency, self.max_held)
        handler = max(self.handler_seconds, MIN_HANDLER_SECONDS)
        wanted = math.ceil(2 * self.round_trip_seconds * self.concurrency / handler)
        drains_in_time = math.floor(self.lease / 4 * self.concurrency / handler)
        return max(0, min(wanted, drains_in_time, self.max_held))

    def capacity(self) -> int:
        return self.concurrency + self.queue()


def _ewma(average: float | None, sample: float) -> float:
    return sample if average is None else average + EWMA_ALPHA * (sample - average)


class Backoff:
    """Waits after empty answers: ``minimum`` doubling up to ``maximum``, from the minimum again after work."""

    def __init__(self, minimum: float, maximum: float):
        self.minimum = minimum
        self.maximum = maximum
        self._next = minimum

    def next(self) -> float:
        delay = self._next
        self._next = min(self._next * 2, self.maximum)
        return delay

    def reset(self) -> None:
        self._next = self.minimum


class RequestPacer:
    """Requests reserve their slots until answered, so several may be in flight. The worker asks when its free room
    reaches half its capacity, when it holds nothing, or when a free handler has waited LINGER_SECONDS; after an
    empty answer it backs off, after a rate-limited one it waits the answer's retry_after (at most the maximum
    backoff). A request unanswered within ``answer_timeout`` is due to be sent again as it was."""

    def __init__(self, holding: Holding, backoff: Backoff, answer_timeout: float, now: float):
        self.holding = holding
        self.backoff = backoff
        self.answer_timeout = answer_timeout
        self.outstanding: dict[str, list] = {}  # request id -> [count, deadline, sent at, repeated]
        self.reserved = 0
        self._idle_since: float | None = None
        self._next_request_at = now

    def free(self, held: int) -> int:
        return self.holding.capacity() - held - self.reserved

    def to_ask(self, held: int, now: float) -> int:
        """How many attempts to ask for now (0: none), holding ``held`` (running or queued)."""
        if held < self.holding.concurrency:
            if self._idle_since is None:
                self._idle_since = now
        else:
            self._idle_since = None
        free = self.free(held)
        if free <= 0 or now < self._next_request_at:
            return 0
        if self._eager(held, free):
            return free
        if self._idle_since is not None and now - self._idle_since >= LINGER_SECONDS:
            return free
        return 0

    def _eager(self, held: int, free: int) -> bool:
        return (held == 0 and self.reserved == 0) or free >= (self.holding.capacity() + 1) // 2

    def asked(self, request_id: str, count: int, now: float) -> None:
        self.outstanding[request_id] = [count, now + self.answer_timeout, now, False]
        self.reserved += count
        self._idle_since = None

    def answered(self, request_id: str | None, empty: bool, retry_after: float | None, now: float) -> bool:
        """Takes an answer; False when it answers no request still outstanding (another copy's, or an earlier
        worker's)."""
        request = self.outstanding.pop(request_id, None) if request_id is not None else None
        if request is None:
            return False
        self.reserved -= request[0]
        if not request[3]:  # a copy sent again would measure the timeout, not the round trip
            self.holding.request_answered(now - request[2])
        if retry_after is not None:
            if not empty:
                self.backoff.reset()
            self._next_request_at = now + min(retry_after, self.backoff.maximum)
        elif empty:
            self._next_request_at = now + self.backoff.next()
        else:
            self.backoff.reset()
            self._next_request_at = now
        return True

    def overdue(self, now: float) -> list[str]:
        """The requests unanswered past their timeout: to send again, their slots still reserved."""
        late = []
        for request_id, request in self.outstanding.items():
            if now >= request[1]:
                request[1] = now + self.answer_timeout
                request[3] = True
                late.append(request_id)
        return late

    def awaits_answers(self) -> bool:
        return bool(self.outstanding)

    def next_wake_up(self, held: int, now: float) -> float:
        """The earliest time at which, nothing else happening, to_ask or overdue could change."""
        wake = math.inf
        free = self.free(held)
        if free > 0:
            if self._eager(held, free):
                wake = max(self._next_request_at, now)
            elif self._idle_since is not None or held < self.holding.concurrency:
                since = self._idle_since if self._idle_since is not None else now
                wake = max(self._next_request_at, since + LINGER_SECONDS)
        for request in self.outstanding.values():
            wake = min(wake, request[1])
        return wake
