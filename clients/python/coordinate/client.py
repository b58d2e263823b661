"""A client of the app: one typed method per command of docs/reference.md, each answering with its reply's result
or raising CommandRefused with the reply's error code."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import Future
from typing import Any, Callable, Iterable, TypeVar

from .connection import Connection
from .errors import CommandRefused
from .models import (
    AddedUnits,
    Assignment,
    AttemptInfo,
    FinishedAttempts,
    WorkerInfo,
    WorkSpec,
    WorkSpecInfo,
    WorkUnit,
    unit_json,
)

T = TypeVar("T")
MAX_BATCH_ITEMS = 1000
MAX_BATCH_BYTES = 256 * 1024
IF_EXISTS = ("replace", "keep", "keep_unless_finished")


class Client:
    """Sends commands to one namespace and waits for their replies (``timeout`` seconds, default 30).

    A client is thread-safe: share one per process. ``kafka_config`` passes librdkafka settings (TLS, SASL).
    Raises CoordinateUnreachable when Kafka cannot be reached within the timeout.
    """

    def __init__(self, bootstrap_servers: str = "127.0.0.1:9092", namespace: str | None = None,
                 kafka_config: dict | None = None, timeout: float = 30.0, topic_prefix: str = "",
                 reply_to: str | None = None, _connection: Connection | None = None):
        self.namespace = namespace
        self.timeout = timeout
        self._owns_connection = _connection is None
        self.connection = _connection or Connection(
            bootstrap_servers, kafka_config, reply_to or f"client-{uuid.uuid4()}", timeout, topic_prefix)

    @property
    def reply_to(self) -> str:
        return self.connection.reply_to

    def in_namespace(self, namespace: str) -> Client:
        """A client of another namespace on the same connection (closing it closes nothing)."""
        return Client(namespace=_required(namespace), timeout=self.timeout, _connection=self.connection)

    def submit(self, command: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Sends a command given as JSON, answering the whole reply (``ok`` and ``result`` or ``error``), refused or
        not. A ``request_id`` it carries is kept, so that a repeat within 10 minutes gets the first answer."""
        return self.connection.call(_required(self.namespace), dict(command), timeout).result()

    # --- work specs

    def set_work_spec(self, spec: WorkSpec | dict[str, Any]) -> WorkSpecInfo:
        data = spec.json() if isinstance(spec, WorkSpec) else dict(spec)
        return self._call({"command": "set_work_spec", "work_spec": data}, WorkSpecInfo.from_json)

    def set_work_spec_meta(self, work_spec_name: str, meta: dict[str, Any]) -> WorkSpecInfo:
        command = {"command": "set_work_spec_meta", "work_spec_name": work_spec_name, "meta": dict(meta)}
        return self._call(command, WorkSpecInfo.from_json)

    def delete_work_spec(self, work_spec_name: str) -> None:
        self._call({"command": "delete_work_spec", "work_spec_name": work_spec_name}, _nothing)

    # --- work units

    def add_work_units(self, work_spec_name: str, units: Iterable[WorkUnit | dict | str],
                       if_exists: str | None = None) -> AddedUnits:
        """Adds units (or replaces those of the same names), in commands that fit a Kafka record, one after the
        other: if one is refused, the units before it stay added. ``if_exists``: ``replace``, ``keep`` or
        ``keep_unless_finished`` (the reply then names the units added, replaced and kept)."""
        if if_exists is not None and if_exists not in IF_EXISTS:
            raise ValueError(f"if_exists must be one of {IF_EXISTS}")
        total = AddedUnits(0, [])
        for batch in _batches([unit_json(unit) for unit in units]):
            command = {"command": "add_work_units", "work_spec_name": work_spec_name, "work_units": batch}
            if if_exists is not None:
                command["if_exists"] = if_exists
            total = total.plus(self._call(command, AddedUnits.from_json))
        return total

    def prioritize_work_units(self, work_spec_name: str, priority: float, query: dict | None = None) -> int:
        """Sets the priority of the matching units (a query object, all when None); answers how many matched."""
        return self._query("prioritize_work_units", work_spec_name, query, "prioritized", priority=priority)

    def adjust_work_unit_priority(self, work_spec_name: str, adjustment: float, query: dict | None = None) -> int:
        return self._query("prioritize_work_units", work_spec_name, query, "prioritized", adjustment=adjustment)

    def delete_work_units(self, work_spec_name: str, query: dict | None = None) -> int:
        return self._query("delete_work_units", work_spec_name, query, "deleted")

    def reset_work_units(self, work_spec_name: str, query: dict | None = None) -> int:
        return self._query("reset_work_units", work_spec_name, query, "reset")

    def cancel_work_units(self, work_spec_name: str, query: dict | None = None) -> int:
        return self._query("cancel_work_units", work_spec_name, query, "cancelled")

    # --- attempts

    def request_attempts(self, worker: str, count: int = 1, lifetime: float | None = None,
                         work_specs: list[str] | None = None, runtimes: list[str] | None = None,
                         available_gb: float | None = None, request_id: str | None = None) -> Assignment:
        """Asks for work. Sent again with the same ``request_id`` within 10 minutes, it gets the same attempts."""
        return self._call(request_command(worker, count, lifetime, work_specs, runtimes, available_gb, request_id),
                          Assignment.from_json)

    def renew_attempt(self, attempt_id: str, extend: float | None = None, data: dict | None = None,
                      progress: tuple[float | None, str | None] | None = None) -> AttemptInfo:
        """Extends the lease to now + ``extend`` seconds, reporting ``progress`` (fraction, message) when given."""
        return self.renew_attempt_future(attempt_id, extend, data, progress).result()

    def finish_attempt(self, attempt_id: str, data: dict | None = None) -> AttemptInfo:
        return self._call(_attempt_command("finish_attempt", attempt_id, data), AttemptInfo.from_json)

    def finish_attempts(self, finishes: Iterable[tuple[str, dict | None] | dict]) -> FinishedAttempts:
        """Many finishes, each as finish_attempt; items are ``(attempt_id, data)`` or ``{"attempt_id", "data"}``."""
        total = FinishedAttempts(0, [])
        for batch in _batches([_finish_item(item) for item in finishes]):
            total = total.plus(self.finish_attempts_future(batch).result())
        return total

    def fail_attempt(self, attempt_id: str, data: dict | None = None, retryable: bool = False) -> AttemptInfo:
        return self.fail_attempt_future(attempt_id, data, retryable).result()

    def retry_attempt(self, attempt_id: str, data: dict | None = None, delay: float = 0.0,
                      release: bool = False) -> AttemptInfo:
        return self.retry_attempt_future(attempt_id, data, delay, release).result()

    def expire_attempt(self, attempt_id: str, data: dict | None = None) -> AttemptInfo:
        return self._call(_attempt_command("expire_attempt", attempt_id, data), AttemptInfo.from_json)

    # --- workers and namespaces

    def worker_heartbeat(self, worker: str, parent: str | None = None, mode: str | None = None,
                         data: dict | None = None, expire: float | None = None) -> WorkerInfo:
        return self.worker_heartbeat_future(worker, parent, mode, data, expire).result()

    def deactivate_worker(self, worker: str) -> WorkerInfo:
        return self.deactivate_worker_future(worker).result()

    def destroy_namespace(self) -> None:
        self._call({"command": "destroy_namespace"}, _nothing)

    def flush(self) -> None:
        self.connection.flush()

    def close(self) -> None:
        if self._owns_connection:
            self.connection.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the same commands as futures, for a Worker that must not block on them

    def renew_attempt_future(self, attempt_id, extend=None, data=None, progress=None) -> Future:
        command = _attempt_command("renew_attempt", attempt_id, data)
        if extend is not None:
            command["extend"] = extend
        if progress is not None:
            fraction, message = progress
            command["progress"] = {"fraction": fraction, "message": message}
        return self.call_future(command, AttemptInfo.from_json)

    def finish_attempts_future(self, items: list[dict]) -> Future:
        return self.call_future({"command": "finish_attempts", "attempts": items}, FinishedAttempts.from_json)

    def fail_attempt_future(self, attempt_id, data=None, retryable=False) -> Future:
        command = _attempt_command("fail_attempt", attempt_id, data)
        command["retryable"] = retryable
        return self.call_future(command, AttemptInfo.from_json)

    def retry_attempt_future(self, attempt_id, data=None, delay=0.0, release=False) -> Future:
        command = _attempt_command("retry_attempt", attempt_id, data)
        command["delay"] = delay
        if release:
            command["release"] = True
        return self.call_future(command, AttemptInfo.from_json)

    def worker_heartbeat_future(self, worker, parent=None, mode=None, data=None, expire=None) -> Future:
        command: dict[str, Any] = {"command": "worker_heartbeat", "worker": worker}
        for key, value in (("parent", parent), ("mode", mode), ("data", data), ("expire", expire)):
            if value is not None:
                command[key] = value
        return self.call_future(command, WorkerInfo.from_json)

    def deactivate_worker_future(self, worker) -> Future:
        return self.call_future({"command": "deactivate_worker", "worker": worker}, WorkerInfo.from_json)

    def call_future(self, command: dict[str, Any], parse: Callable[[dict], T]) -> Future:
        """A future of the reply's result, parsed, or of CommandRefused (TimeoutError with no reply in time)."""
        typed: Future = Future()
        reply = self.connection.call(_required(self.namespace), command)

        def done(answer: Future) -> None:
            error = answer.exception()
            if error is not None:
                typed.set_exception(error)
                return
            value = answer.result()
            if value.get("ok") is not True:
                problem = value.get("error") or {}
                typed.set_exception(CommandRefused(str(problem.get("code")), str(problem.get("message"))))
                return
            try:
                typed.set_result(parse(value.get("result") or {}))
            except Exception as e:
                typed.set_exception(e)

        reply.add_done_callback(done)
        return typed

    def _call(self, command: dict[str, Any], parse: Callable[[dict], T]) -> T:
        return self.call_future(command, parse).result()

    def _query(self, name: str, work_spec_name: str, query: dict | None, key: str, **fields: Any) -> int:
        command = {"command": name, "work_spec_name": work_spec_name, "query": dict(query or {}), **fields}
        return self._call(command, lambda result: int(result.get(key) or 0))


def request_command(worker, count=1, lifetime=None, work_specs=None, runtimes=None, available_gb=None,
                    request_id=None) -> dict[str, Any]:
    if count < 0:
        raise ValueError(f"count must not be negative: {count}")
    command: dict[str, Any] = {"command": "request_attempts", "worker": worker, "count": count}
    for key, value in (("lifetime", lifetime), ("work_specs", work_specs), ("runtimes", runtimes),
                       ("available_gb", available_gb), ("request_id", request_id)):
        if value is not None:
            command[key] = list(value) if isinstance(value, (list, tuple)) else value
    return command


def _attempt_command(name: str, attempt_id: str, data: dict | None) -> dict[str, Any]:
    command: dict[str, Any] = {"command": name, "attempt_id": attempt_id}
    if data is not None:
        command["data"] = data
    return command


def _finish_item(item: tuple[str, dict | None] | dict) -> dict[str, Any]:
    if isinstance(item, dict):
        return dict(item)
    attempt_id, data = item
    return {"attempt_id": attempt_id} if data is None else {"attempt_id": attempt_id, "data": data}


def _batches(items: list[dict]) -> list[list[dict]]:
    """Items in batches of at most 1,000 and 256 KiB of JSON (an item larger than that alone), in order."""
    batches: list[list[dict]] = []
    batch: list[dict] = []
    size = 0
    for item in items:
        item_size = len(json.dumps(item, separators=(",", ":")))
        if batch and (len(batch) >= MAX_BATCH_ITEMS or size + item_size > MAX_BATCH_BYTES):
            batches.append(batch)
            batch, size = [], 0
        batch.append(item)
        size += item_size
    if batch or not batches:
        batches.append(batch)
    return batches


def _nothing(result: dict) -> None:
    return None


def _required(namespace: str | None) -> str:
    if not namespace:
        raise ValueError("a namespace is required: give one to Client, or use in_namespace")
    return namespace
