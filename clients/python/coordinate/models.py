"""What the client sends (WorkSpec, WorkUnit) and the typed replies it answers with (docs/reference.md, "Records")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


def parse_time(text: str | None) -> datetime | None:
    """An ISO-8601 instant of the app (``2026-11-22T15:23:56.734Z``), or None."""
    if not text:
        return None
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


@dataclass
class WorkSpec:
    """A work spec's data: ``WorkSpec("thumbnails", max_retries=3, retry={"max_attempts": 5})``.

    The keyword arguments are the spec's keys as docs/reference.md's set_work_spec lists them (``priority``,
    ``max_running``, ``then``, ``retry``, ``rate_limit``, ...).
    """

    name: str
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(self, name: str, **data: Any):
        if "name" in data:
            raise ValueError("the name is given as the first argument")
        self.name = name
        self.data = data

    def json(self) -> dict[str, Any]:
        return {"name": self.name, **self.data}


@dataclass
class WorkUnit:
    """A unit to add: its name (None for a random one), data and options (docs/reference.md, "Unit object")."""

    name: str | None = None
    data: dict[str, Any] | None = None
    priority: float | None = None
    group: str | None = None
    delay: float | None = None
    not_before: str | None = None
    parent: tuple[str, str] | None = None
    predecessor: tuple[str, str] | None = None

    def json(self) -> dict[str, Any]:
        unit: dict[str, Any] = {}
        for key in ("name", "data", "priority", "group", "delay", "not_before"):
            value = getattr(self, key)
            if value is not None:
                unit[key] = value
        for key in ("parent", "predecessor"):
            link = getattr(self, key)
            if link is not None:
                unit[key] = {"work_spec_name": link[0], "work_unit_name": link[1]}
        return unit


def unit_json(unit: WorkUnit | dict | str) -> dict[str, Any]:
    """A unit object from a WorkUnit, a dict already in the wire's form, or a bare name."""
    if isinstance(unit, WorkUnit):
        return unit.json()
    if isinstance(unit, str):
        return {"name": unit}
    return dict(unit)


@dataclass
class WorkSpecInfo:
    """A spec as the app holds it: data, metadata and its units by status (docs/reference.md, "Spec")."""

    name: str
    data: dict[str, Any]
    meta: dict[str, Any]
    counts: dict[str, int]

    @classmethod
    def from_json(cls, json: dict) -> WorkSpecInfo:
        return cls(json.get("name"), json.get("data") or {}, json.get("meta") or {}, json.get("counts") or {})

    def count(self, status: str) -> int:
        return self.counts.get(status, 0)

    @property
    def paused(self) -> bool:
        return self.meta.get("paused") is True


@dataclass
class AddedUnits:
    """The reply to add_work_units: how many units were written, their names, and with ``if_exists`` which were
    new (``added_names``), replaced and kept."""

    added: int
    work_unit_names: list[str]
    added_names: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, json: dict) -> AddedUnits:
        names = json.get("work_unit_names") or []
        added = json.get("added")
        if not isinstance(added, list):
            return cls(int(added or 0), names)
        replaced = json.get("replaced") or []
        return cls(len(added) + len(replaced), names, added, replaced, json.get("kept") or [])

    def plus(self, other: AddedUnits) -> AddedUnits:
        return AddedUnits(
            self.added + other.added,
            self.work_unit_names + other.work_unit_names,
            self.added_names + other.added_names,
            self.replaced + other.replaced,
            self.kept + other.kept,
        )


@dataclass
class AssignedAttempt:
    """An attempt handed out by request_attempts: the id to renew, finish, fail or retry it with, and its lease."""

    attempt_id: str
    work_spec_name: str
    work_unit_name: str
    data: dict[str, Any]
    start_time: datetime | None
    expiration_time: datetime | None


@dataclass
class Assignment:
    """The answer to request_attempts; no attempts means no work now. ``retry_after_ms`` is set when a spec's rate
    limit held the request short (docs/reference.md#rate-limits)."""

    namespace: str
    worker: str
    request_id: str | None
    attempts: list[AssignedAttempt]
    retry_after_ms: int | None = None

    @classmethod
    def from_json(cls, json: dict) -> Assignment:
        times: dict[str, datetime | None] = {}  # the attempts of one answer share their times: parse each once

        def time(text):
            if text not in times:
                times[text] = parse_time(text)
            return times[text]

        attempts = [
            AssignedAttempt(
                a["attempt_id"],
                a.get("work_spec_name"),
                a.get("work_unit_name"),
                a.get("data") or {},
                time(a.get("start_time")),
                time(a.get("expiration_time")),
            )
            for a in json.get("attempts") or ()
        ]
        retry_after = json.get("retry_after_ms")
        return cls(
            json.get("namespace"),
            json.get("worker"),
            json.get("request_id"),
            attempts,
            int(retry_after) if isinstance(retry_after, (int, float)) else None,
        )


@dataclass
class AttemptInfo:
    """An attempt as the app holds it after a renew, finish, fail, retry or expire (docs/reference.md, "Attempt")."""

    attempt_id: str
    work_spec_name: str
    work_unit_name: str
    worker: str | None
    status: str
    data: dict[str, Any]
    start_time: datetime | None
    expiration_time: datetime | None
    end_time: datetime | None
    active: bool
    progress: dict[str, Any] | None = None

    @classmethod
    def from_json(cls, json: dict) -> AttemptInfo:
        return cls(
            json.get("attempt_id"),
            json.get("work_spec_name"),
            json.get("work_unit_name"),
            json.get("worker"),
            json.get("status"),
            json.get("data") or {},
            parse_time(json.get("start_time")),
            parse_time(json.get("expiration_time")),
            parse_time(json.get("end_time")),
            json.get("active") is True,
            json.get("progress"),
        )


@dataclass
class RefusedFinish:
    """An item of finish_attempts that the app did not apply, with its error code."""

    attempt_id: str
    code: str
    message: str


@dataclass
class FinishedAttempts:
    """The reply to finish_attempts: the items applied (or finished already), and those refused."""

    finished: int
    errors: list[RefusedFinish]

    @classmethod
    def from_json(cls, json: dict) -> FinishedAttempts:
        errors = [RefusedFinish(e.get("attempt_id"), e.get("code"), e.get("message")) for e in json.get("errors") or ()]
        return cls(int(json.get("finished") or 0), errors)

    def plus(self, other: FinishedAttempts) -> FinishedAttempts:
        return FinishedAttempts(self.finished + other.finished, self.errors + other.errors)


@dataclass
class WorkerInfo:
    """A worker as the app holds it (docs/reference.md, "Worker")."""

    name: str
    parent: str | None
    active: bool
    mode: str
    data: dict[str, Any]
    expiration: datetime | None
    expired: bool
    active_attempts: list[str]

    @classmethod
    def from_json(cls, json: dict) -> WorkerInfo:
        return cls(
            json.get("name"),
            json.get("parent"),
            json.get("active") is True,
            json.get("mode") or "",
            json.get("data") or {},
            parse_time(json.get("expiration")),
            json.get("expired") is True,
            json.get("active_attempts") or [],
        )
