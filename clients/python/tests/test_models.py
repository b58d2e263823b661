"""Typed replies and refusals, from the app's JSON, without a broker."""

import socket
import time
from concurrent.futures import Future
from datetime import datetime, timezone

import pytest

from coordinate import (AddedUnits, AssignedAttempt, Assignment, AttemptInfo, Client, CommandRefused,
                        CoordinateUnreachable, FinishedAttempts, RefusedFinish, WorkSpec, WorkUnit)
from coordinate.client import _batches


class FakeConnection:
    """Answers every call with the reply it was given."""

    reply_to = "client-test"

    def __init__(self, reply):
        self.reply = reply
        self.sent = []

    def call(self, namespace, command, timeout=None):
        self.sent.append((namespace, command))
        answer = Future()
        answer.set_result(self.reply)
        return answer


def client_answering(reply):
    return Client(namespace="ns", _connection=FakeConnection(reply))


def test_a_refusal_raises_command_refused_with_the_code():
    client = client_answering({"request_id": "1", "ok": False,
                               "error": {"code": "no_such_work_spec", "message": 'no work spec "nope"'}})
    with pytest.raises(CommandRefused) as refused:
        client.add_work_units("nope", ["u1"])
    assert (refused.value.code, refused.value.message) == ("no_such_work_spec", 'no work spec "nope"')
    assert client.connection.sent == [("ns", {"command": "add_work_units", "work_spec_name": "nope",
                                              "work_units": [{"name": "u1"}]})]


def test_an_assignment_is_typed():
    client = client_answering({"ok": True, "result": {
        "namespace": "ns", "worker": "w1", "request_id": "r1", "retry_after_ms": 250,
        "attempts": [{"attempt_id": "1", "work_spec_name": "s", "work_unit_name": "u1", "data": {"k": 1},
                      "start_time": "2026-11-22T15:23:56.734Z", "expiration_time": "2026-11-22T15:33:56.734Z"}]}})
    assignment = client.request_attempts("w1", count=2, lifetime=600, work_specs=["s"], request_id="r1")
    start = datetime(2026, 11, 22, 15, 23, 56, 734000, tzinfo=timezone.utc)
    end = datetime(2026, 11, 22, 15, 33, 56, 734000, tzinfo=timezone.utc)
    assert assignment == Assignment("ns", "w1", "r1", [AssignedAttempt("1", "s", "u1", {"k": 1}, start, end)], 250)
    assert client.connection.sent[0][1] == {"command": "request_attempts", "worker": "w1", "count": 2,
                                            "lifetime": 600, "work_specs": ["s"], "request_id": "r1"}


def test_attempt_info_added_units_and_finished_attempts_are_typed():
    info = AttemptInfo.from_json({"attempt_id": "3", "work_spec_name": "s", "work_unit_name": "u2", "worker": "w1",
                                  "status": "retryable", "data": {"traceback": "later"},
                                  "start_time": "2026-11-22T15:23:59.151Z", "expiration_time": None,
                                  "end_time": "2026-11-22T15:23:59.398Z", "active": False})
    assert (info.status, info.active, info.end_time.microsecond, info.expiration_time) == (
        "retryable", False, 398000, None)
    assert AddedUnits.from_json({"added": 2, "work_unit_names": ["a", "b"]}) == AddedUnits(2, ["a", "b"])
    assert AddedUnits.from_json({"added": ["a"], "replaced": ["b"], "kept": ["c"],
                                 "work_unit_names": ["a", "b", "c"]}) == AddedUnits(2, ["a", "b", "c"], ["a"],
                                                                                    ["b"], ["c"])
    assert FinishedAttempts.from_json({"finished": 2, "errors": [
        {"attempt_id": "9", "code": "no_such_attempt", "message": 'no attempt "9"'}]}) == FinishedAttempts(
        2, [RefusedFinish("9", "no_such_attempt", 'no attempt "9"')])


def test_inputs_as_the_wire_has_them():
    assert WorkSpec("s", max_retries=3, retry={"max_attempts": 2}).json() == {
        "name": "s", "max_retries": 3, "retry": {"max_attempts": 2}}
    assert WorkUnit("u", {"a": 1}, priority=5, parent=("p", "u0")).json() == {
        "name": "u", "data": {"a": 1}, "priority": 5, "parent": {"work_spec_name": "p", "work_unit_name": "u0"}}


def test_large_lists_go_in_batches_of_a_thousand_and_256_kib():
    assert [len(b) for b in _batches([{"name": str(i)} for i in range(2500)])] == [1000, 1000, 500]
    big = {"data": {"x": "y" * 100_000}}
    assert [len(b) for b in _batches([big, big, big, {"name": "z"}])] == [2, 2]


def test_a_client_fails_at_once_when_nothing_listens():
    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    began = time.monotonic()
    with pytest.raises(CoordinateUnreachable) as unreachable:
        Client(bootstrap_servers=f"127.0.0.1:{port}", namespace="ns", timeout=30.0)
    assert str(unreachable.value).startswith(f"cannot reach Kafka at 127.0.0.1:{port}: 127.0.0.1:{port}: ")
    assert "Connection refused" in str(unreachable.value)
    assert time.monotonic() - began < 5
