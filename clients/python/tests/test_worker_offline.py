"""A worker against a fake client: what it sends when an answer is lost, without a broker."""

import time
from concurrent.futures import Future

from coordinate import FinishedAttempts, Worker
from coordinate.pacing import Backoff, RequestPacer, nanos
from test_reports import answered


class FakeConnection:
    def __init__(self):
        self.sent = []
        self.sink = None

    def watch(self, worker, sink):
        self.sink = sink
        return answered(None)

    def unwatch(self, worker):
        self.sink = None

    def send(self, namespace, command):
        self.sent.append(command)


class FakeClient:
    """Answers the worker's commands at once; request_attempts is answered by the test, on the assignments."""

    namespace = "ns"
    timeout = 0.3

    def __init__(self):
        self.connection = FakeConnection()
        self.finished = []

    def worker_heartbeat_future(self, *args):
        return answered(None)

    def deactivate_worker_future(self, worker):
        return answered(None)

    def finish_attempts_future(self, items):
        self.finished.extend(items)
        return answered(FinishedAttempts(len(items), []))

    def renew_attempt_future(self, *args):
        return Future()


def test_a_request_without_answer_is_sent_again_with_its_id_and_its_attempts_run_once():
    client = FakeClient()
    runs = []
    worker = Worker(client, specs=["s"], handler=lambda attempt: runs.append(attempt.id) or {"ok": True},
                    concurrency=1, close_timeout=0.5).start()
    try:
        deadline = time.monotonic() + 5
        while len(client.connection.sent) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        first, again = client.connection.sent[:2]
        assert first == again
        assert (first["command"], first["worker"], first["count"], first["work_specs"], first["lifetime"]) == (
            "request_attempts", worker.name, 2, ["s"], 30.0)
        client.connection.sink(answer(worker, first["request_id"], "7"))
        while worker.finished < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        client.connection.sink(answer(worker, first["request_id"], "7"))  # the answer to the copy, once it ran
        latest = client.connection.sent[-1]
        assert latest["request_id"] != first["request_id"]
        client.connection.sink(answer(worker, latest["request_id"], "8"))  # taken after the copy's
        while worker.finished < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        worker.stop()
    assert (runs, [item["attempt_id"] for item in client.finished]) == (["7", "8"], ["7", "8"])


def test_an_answers_attempt_falls_due_half_a_lease_after_its_requests_send_however_late_it_came():
    client = FakeClient()
    worker = Worker(client, specs=["s"], handler=lambda attempt: None, lease=30.0)
    worker._pacer = RequestPacer(worker.holding, Backoff(0.1, 5.0), client.timeout, 0)
    worker._ask(1, 7.0, nanos(7.0))  # the loop thread's part, on a clock of our own: sent at 7 s
    worker._on_assignment(answer(worker, client.connection.sent[0]["request_id"], "7"))  # came much later
    assert (worker.held, worker._held.get("7").renew_at) == (1, 22.0)


def answer(worker, request_id, attempt_id):
    return {"namespace": "ns", "worker": worker.name, "request_id": request_id,
            "attempts": [{"attempt_id": attempt_id, "work_spec_name": "s", "work_unit_name": "u" + attempt_id}]}
