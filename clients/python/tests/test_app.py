"""The client and worker against a real broker and app (COORDINATE_BOOTSTRAP_SERVERS, COORDINATE_HTTP_URL)."""

import os
import socket
import threading
import time

import pytest

from conftest import eventually, needs_app
from coordinate import CommandRefused, FailAttempt, RetryLater, Worker, WorkSpec, WorkUnit

pytestmark = needs_app


def test_commands_answer_typed_replies(client):
    spec = client.set_work_spec(WorkSpec("fetch", max_retries=3))
    assert (spec.name, spec.data, spec.meta["max_retries"], spec.counts) == (
        "fetch", {"name": "fetch", "max_retries": 3}, 3, {})
    added = client.add_work_units("fetch", [WorkUnit("u1", {"url": "a"}), WorkUnit("u2", priority=10), "u3"])
    assert (added.added, added.work_unit_names, added.kept) == (3, ["u1", "u2", "u3"], [])
    kept = client.add_work_units("fetch", [WorkUnit("u1", {"url": "other"}), "u4"], if_exists="keep")
    assert (kept.added, kept.added_names, kept.replaced, kept.kept) == (1, ["u4"], [], ["u1"])

    assignment = client.request_attempts("w1", count=2, lifetime=600, request_id="req-1")
    assert (assignment.worker, assignment.request_id, assignment.retry_after_ms) == ("w1", "req-1", None)
    assert [(a.work_unit_name, a.data) for a in assignment.attempts] == [("u2", {}), ("u1", {"url": "a"})]
    again = client.request_attempts("w1", count=2, lifetime=600, request_id="req-1")
    assert [a.attempt_id for a in again.attempts] == [a.attempt_id for a in assignment.attempts]

    first, second = assignment.attempts
    renewed = client.renew_attempt(first.attempt_id, extend=300, progress=(0.25, "a quarter"))
    assert (renewed.status, renewed.active, renewed.progress["fraction"], renewed.progress["message"]) == (
        "pending", True, 0.25, "a quarter")
    finished = client.finish_attempt(first.attempt_id, {"size": 1})
    assert (finished.attempt_id, finished.work_unit_name, finished.worker, finished.status, finished.data) == (
        first.attempt_id, "u2", "w1", "finished", {"size": 1})
    many = client.finish_attempts([(second.attempt_id, {"size": 2}), (first.attempt_id, None), ("999", None)])
    assert (many.finished, [(e.attempt_id, e.code) for e in many.errors]) == (2, [("999", "no_such_attempt")])

    assert client.prioritize_work_units("fetch", 7, {"names": ["u3"]}) == 1
    assert client.reset_work_units("fetch", {"statuses": ["finished"]}) == 2
    assert client.cancel_work_units("fetch", {"names": ["u4"]}) == 1
    assert client.delete_work_units("fetch", {"names": ["u3"]}) == 1
    info = client.worker_heartbeat("w1", mode="idle", data={"cpus": 2}, expire=600)
    assert (info.name, info.active, info.mode, info.data, info.expired) == ("w1", True, "idle", {"cpus": 2}, False)
    assert client.deactivate_worker("w1").active is False
    assert client.set_work_spec_meta("fetch", {"paused": True}).paused is True
    assert client.delete_work_spec("fetch") is None


def test_a_refused_command_raises_its_error_code(client):
    with pytest.raises(CommandRefused) as refused:
        client.add_work_units("nope", ["u1"])
    assert (refused.value.code, refused.value.message) == ("no_such_work_spec", 'no work spec "nope"')
    with pytest.raises(CommandRefused) as refused:
        client.deactivate_worker("nobody")
    assert refused.value.code == "no_such_worker"
    client.set_work_spec(WorkSpec("s"))
    with pytest.raises(CommandRefused) as refused:
        client.finish_attempt("999")
    assert refused.value.code == "no_such_attempt"


def run_worker(client, handler, **options):
    options.setdefault("backoff", (0.05, 0.2))
    return Worker(client, specs=["s"], handler=handler, **options).start()


def work_until(client, handler, done, **options):
    """Runs a worker until done(worker), then stops it."""
    worker = run_worker(client, handler, **options)
    try:
        eventually(lambda: done(worker))
    finally:
        worker.stop()
    return worker


def test_a_worker_finishes_every_unit_with_its_handlers_result(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", [WorkUnit(f"u{i}", {"n": i}) for i in range(50)])
    worker = work_until(client, lambda attempt: {"double": attempt.data["n"] * 2},
                        lambda worker: worker.finished == 50, concurrency=4)
    units = http.units("s")
    assert {name: (u["status"], u["data"], u["attempt_count"]) for name, u in units.items()} == {
        f"u{i}": ("finished", {"double": 2 * i}, 1) for i in range(50)}
    assert (worker.finished, worker.failed, worker.retried) == (50, 0, 0)
    checked_in = http.get(f"/workers/{worker.name}")
    assert (checked_in["active"], checked_in["data"]) == (False, {
        "host": socket.gethostname(), "pid": os.getpid(), "concurrency": 4, "work_specs": ["s"], "language": "python"})


def test_an_error_is_retryable_and_fail_attempt_is_permanent(client, http):
    client.set_work_spec(WorkSpec("s", retry={"max_attempts": 2, "initial_delay": 0}))
    client.add_work_units("s", ["flaky", "broken"])

    def handle(attempt):
        if attempt.unit == "flaky":
            raise RuntimeError("flaky failed")
        raise FailAttempt("broken input", {"reason": "bad"})

    worker = work_until(client, handle, lambda worker: worker.failed == 3)
    flaky = http.unit("s", "flaky")
    assert (flaky["status"], flaky["attempt_count"], [a["status"] for a in flaky["attempts"]]) == (
        "failed", 2, ["retryable", "failed"])
    assert "RuntimeError: flaky failed" in flaky["data"]["traceback"]
    broken = http.unit("s", "broken")
    assert (broken["status"], broken["attempt_count"], broken["data"]) == ("failed", 1, {"reason": "bad"})
    assert (worker.finished, worker.failed, worker.retried) == (0, 3, 0)


def test_retry_later_gives_the_unit_back_for_later(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", ["u1"])
    runs = []

    def handle(attempt):
        runs.append(time.monotonic())
        if len(runs) == 1:
            raise RetryLater("not yet", 0.5)
        return {"run": len(runs)}

    worker = work_until(client, handle, lambda worker: worker.finished == 1)
    unit = http.unit("s", "u1")
    assert (unit["status"], unit["data"], [(a["status"], a["data"]) for a in unit["attempts"]]) == (
        "finished", {"run": 2}, [("retryable", {"traceback": "not yet"}), ("finished", {"run": 2})])
    assert runs[1] - runs[0] >= 0.5
    assert (worker.finished, worker.failed, worker.retried) == (1, 0, 1)


def test_progress_shows_in_the_units_attempt(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", ["u1"])
    seen = threading.Event()

    def handle(attempt):
        attempt.progress(0.2, "started")
        attempt.progress(0.6, "most of it")  # within the second: only the latest goes out
        seen.wait(20)
        return {}

    worker = run_worker(client, handle)
    try:
        def latest_reported():
            attempts = (http.unit("s", "u1") or {}).get("attempts") or []
            progress = attempts[0].get("progress") if attempts else None
            return progress and progress["message"] == "most of it" and attempts[0]
        running = eventually(latest_reported)
        seen.set()
        eventually(lambda: worker.finished == 1)
    finally:
        seen.set()
        worker.stop()
    assert (running["status"], running["progress"]["fraction"]) == ("pending", 0.6)


def test_a_cancellation_reaches_the_handler_and_nothing_is_reported(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", ["u1"])
    running = threading.Event()
    callbacks = []
    ended = []

    def handle(attempt):
        attempt.on_cancel(lambda: callbacks.append(attempt.id))
        running.set()
        ended.append(attempt.wait(20))
        return {"late": True}

    worker = run_worker(client, handle)
    try:
        assert running.wait(20)
        assert client.cancel_work_units("s") == 1
        eventually(lambda: ended)
    finally:
        worker.stop()
    unit = http.unit("s", "u1")
    assert (ended, len(callbacks), unit["status"], unit["data"], unit["attempts"][0]["status"]) == (
        [True], 1, "cancelled", {}, "cancelled")
    assert (worker.finished, worker.failed, worker.retried) == (0, 0, 0)


def test_a_handler_longer_than_the_lease_keeps_it(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", ["u1"])
    worker = work_until(client, lambda attempt: time.sleep(3.5) or {"slow": True},
                        lambda worker: worker.finished == 1, lease=2.0)
    unit = http.unit("s", "u1")
    assert (unit["status"], unit["attempt_count"], [a["status"] for a in unit["attempts"]]) == (
        "finished", 1, ["finished"])


def test_a_graceful_stop_releases_what_it_holds_without_counting_it(client, http):
    client.set_work_spec(WorkSpec("s", retry={"max_attempts": 1}))
    client.add_work_units("s", ["u1", "u2", "u3"])
    started = threading.Event()

    def handle(attempt):
        started.set()
        attempt.wait(None)  # ends at the stop
        raise RuntimeError("interrupted by the stop")

    worker = run_worker(client, handle, prefetch=2)
    assert started.wait(20)
    eventually(lambda: worker.held == 3)
    worker.stop()
    units = http.units("s")
    assert {name: (u["status"], u["attempt_count"]) for name, u in units.items()} == {
        "u1": ("available", 0), "u2": ("available", 0), "u3": ("available", 0)}
    assert (worker.finished, worker.failed, worker.retried) == (0, 0, 3)
    assert http.get(f"/workers/{worker.name}")["active"] is False


def test_a_lost_lease_ends_the_handlers_wait_and_drops_its_result(client, http):
    client.set_work_spec(WorkSpec("s"))
    client.add_work_units("s", ["u1"])
    running = threading.Event()
    waits = []

    def handle(attempt):
        if waits:
            return {"run": 2}
        running.set()
        waits.append(attempt.wait(60))
        return {"run": 1}

    worker = run_worker(client, handle, lease=2.0)
    try:
        assert running.wait(20)
        assert client.reset_work_units("s") == 1  # the next renewal is refused: lost_lease
        eventually(lambda: worker.finished == 1)
    finally:
        worker.stop()
    unit = http.unit("s", "u1")
    assert (waits, unit["status"], unit["data"], [a["data"] for a in unit["attempts"]]) == (
        [True], "finished", {"run": 2}, [{}, {"run": 2}])
    assert (worker.finished, worker.failed, worker.retried) == (1, 0, 0)


def test_commands_go_to_the_partition_the_app_reads_their_namespace_from(client):
    from confluent_kafka import Consumer, TopicPartition

    from conftest import BOOTSTRAP
    from coordinate.partitioner import partition

    client.set_work_spec(WorkSpec("placed"))  # applied: every copy of it is on the topic now
    consumer = Consumer({"bootstrap.servers": BOOTSTRAP, "group.id": "py-placement-" + client.namespace,
                         "enable.auto.commit": False, "isolation.level": "read_committed"})
    try:
        topic = "coordinate.commands"
        count = len(consumer.list_topics(topic, timeout=10).topics[topic].partitions)
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(count)}
        consumer.assign([TopicPartition(topic, p, 0) for p in range(count) if ends[p] > 0])
        unread = {p for p in range(count) if ends[p] > 0}
        copies = []  # (partition, moved by the app) of each record of this namespace
        deadline = time.monotonic() + 20
        while unread and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None and message.key() == client.namespace.encode():
                copies.append((message.partition(), bool(message.headers())))
            # the position, not the last offset read: a transaction's marker takes an offset too
            for tp in consumer.position([TopicPartition(topic, p) for p in unread]):
                if tp.offset >= ends[tp.partition]:
                    unread.discard(tp.partition)
        assert unread == set()
        # one copy, where Kafka's Java producer would have put it: the app moved none (a moved copy has a header)
        assert copies == [(partition(client.namespace, count), False)]
    finally:
        consumer.close()
