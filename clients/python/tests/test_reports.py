"""What a worker reports of its attempts' ends, against a client that records the commands."""

from concurrent.futures import Future

from coordinate import Attempt, FailAttempt, FinishedAttempts, RefusedFinish, RetryLater
from coordinate.reports import AttemptReports


def answered(value):
    future = Future()
    future.set_result(value)
    return future


class RecordingClient:
    timeout = 1.0

    def __init__(self):
        self.sent = []

    def finish_attempts_future(self, items):
        self.sent.append(("finish_attempts", items))
        return answered(FinishedAttempts(len(items) - 1, [RefusedFinish(items[-1]["attempt_id"], "cancelled", "")]))

    def fail_attempt_future(self, attempt_id, data, retryable):
        self.sent.append(("fail_attempt", attempt_id, data, retryable))
        return answered(None)

    def retry_attempt_future(self, attempt_id, data, delay, release):
        self.sent.append(("retry_attempt", attempt_id, data, delay, release))
        return answered(None)


def attempt(attempt_id):
    return Attempt(attempt_id, "s", "u" + attempt_id, {}, None)


def test_finishes_go_in_batches_of_a_hundred_or_after_twenty_milliseconds():
    client = RecordingClient()
    reports = AttemptReports(client, "w1")
    attempts = [attempt(str(i)) for i in range(101)]
    for a in attempts[:99]:
        reports.ended(a, {"n": int(a.id)} if a.id == "0" else None, None, False)
    reports.flush_if_due(reports.next_flush() - 0.001, nothing_held=False)
    assert client.sent == []
    reports.ended(attempts[99], {}, None, False)
    reports.flush_if_due(reports.next_flush() - 0.001, nothing_held=False)
    items = client.sent[0][1]
    assert (len(client.sent), len(items), items[0], items[1], items[99]) == (
        1, 100, {"attempt_id": "0", "data": {"n": 0}}, {"attempt_id": "1"}, {"attempt_id": "99", "data": {}})
    # the app refused the last one as cancelled: the attempt learns it
    assert (reports.finished, attempts[99].cancelled, attempts[98].cancelled) == (99, True, False)
    reports.ended(attempts[100], None, None, False)
    reports.flush_if_due(reports.next_flush() + 0.000001, nothing_held=False)
    assert [len(sent[1]) for sent in client.sent] == [100, 1]


def test_errors_fail_or_give_back_and_a_result_that_is_not_a_dict_fails():
    client = RecordingClient()
    reports = AttemptReports(client, "w1")
    reports.ended(attempt("1"), None, FailAttempt("bad", {"why": 1}), False)
    reports.ended(attempt("2"), None, RetryLater("later", 3.0), False)
    reports.ended(attempt("3"), None, RuntimeError("stopped"), True)
    reports.ended(attempt("4"), "a string", None, False)
    reports.release(attempt("5"), "the worker stopped before it started")
    assert client.sent[:3] == [
        ("fail_attempt", "1", {"why": 1}, False),
        ("retry_attempt", "2", {"traceback": "later"}, 3.0, False),
        ("retry_attempt", "3", {"traceback": "the worker stopped: RuntimeError('stopped')"}, 0.0, True),
    ]
    kind, attempt_id, data, retryable = client.sent[3]
    assert (kind, attempt_id, retryable) == ("fail_attempt", "4", True)
    assert data["traceback"].endswith("TypeError: the handler returned str, not a dict or None\n")
    assert client.sent[4] == ("retry_attempt", "5", {"traceback": "the worker stopped before it started"}, 0.0, True)
    assert (reports.finished, reports.failed, reports.retried) == (0, 2, 3)
