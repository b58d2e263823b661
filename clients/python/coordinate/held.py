"""The attempts a Worker holds, queued or running, found in the order their lease renewals fall due.

A lease counts from its request's send (its start at the app is later), so an attempt whose answer was slow falls
due sooner than it came, and a renewal moves it back: a heap of (renew_at, order, attempt) gives the next due at
once, however many are held. An entry left behind by a renewal or a removal is skipped when it comes to the top.
Used by the worker's loop thread only.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from .attempt import Attempt


class HeldAttempts:
    def __init__(self, renew_after: float):
        """``renew_after``: how long after its lease began, or after its last renewal, an attempt is renewed."""
        self.renew_after = renew_after
        self._by_id: dict[str, Attempt] = {}
        self._by_renewal: list[tuple[float, int, Attempt]] = []
        self._orders = 0

    def add(self, attempt: Attempt, lease_from: float) -> Attempt:
        """``lease_from``: when its lease began at the latest, the first send of the request that got it."""
        self._by_id[attempt.id] = attempt
        self._schedule(attempt, lease_from + self.renew_after)
        return attempt

    def renewed(self, attempt: Attempt, now: float) -> None:
        """A renewal went out for ``attempt`` (with progress): its next one is later."""
        self._schedule(attempt, now + self.renew_after)

    def due_for_renewal(self, now: float) -> list[Attempt]:
        """The attempts whose renewal is due at ``now``, each with its next renewal set; never a lost one."""
        due = []
        while (first := self._first()) is not None and first.renew_at <= now:
            heapq.heappop(self._by_renewal)
            due.append(first)
        for attempt in due:
            self.renewed(attempt, now)
        return due

    def next_renewal(self) -> float:
        """When the next renewal falls due (infinity: none)."""
        first = self._first()
        return first.renew_at if first is not None else float("inf")

    def in_renewal_order(self) -> list[Attempt]:
        """The attempts still renewed, in the order their renewals fall due."""
        return [entry[2] for entry in sorted(self._by_renewal) if self._current(entry)]

    def _schedule(self, attempt: Attempt, renew_at: float) -> None:
        self._orders += 1
        attempt.renew_at = renew_at
        attempt.renew_order = self._orders
        heapq.heappush(self._by_renewal, (renew_at, self._orders, attempt))
        if len(self._by_renewal) > 2 * len(self._by_id) + 64:  # entries left behind would pile up otherwise
            self._by_renewal = [entry for entry in self._by_renewal if self._current(entry)]
            heapq.heapify(self._by_renewal)

    def _first(self) -> Attempt | None:
        """The attempt whose renewal falls due first, dropping the entries left behind on the way."""
        heap = self._by_renewal
        while heap and not self._current(heap[0]):
            heapq.heappop(heap)
        return heap[0][2] if heap else None

    def _current(self, entry: tuple[float, int, Attempt]) -> bool:
        """A lost attempt is never renewed again: it stays held only until its handler ends."""
        attempt = entry[2]
        return entry[1] == attempt.renew_order and not attempt.lost and self._by_id.get(attempt.id) is attempt

    # --- as a dict of the attempts by id

    def get(self, attempt_id: str, default: Attempt | None = None) -> Attempt | None:
        return self._by_id.get(attempt_id, default)

    def pop(self, attempt_id: str, default: Attempt | None = None) -> Attempt | None:
        return self._by_id.pop(attempt_id, default)

    def values(self):
        return self._by_id.values()

    def __contains__(self, attempt_id: object) -> bool:
        return attempt_id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)
