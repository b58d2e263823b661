"""The conformance runner's scripted handler, and what a worker reports of each outcome, without a broker."""

import threading

import pytest

from coordinate import Attempt, FailAttempt, RetryLater
from coordinate.outcomes import MAX_TRACEBACK_CHARS, outcome_of
from coordinate.scripted import ScriptedHandler


def attempt(data, unit="u1"):
    return Attempt("7", "spec", unit, data, None)


def test_each_run_takes_the_next_step_and_the_last_one_repeats():
    handler = ScriptedHandler()
    script = {"script": [{"outcome": "fail", "message": "boom"}, {"outcome": "retry_later", "delay_ms": 1500},
                         {"outcome": "finish", "result": {"n": 3}}]}
    with pytest.raises(RuntimeError, match="^boom$"):
        handler(attempt(script))
    with pytest.raises(RetryLater) as later:
        handler(attempt(script))
    assert later.value.delay_seconds == 1.5
    assert handler(attempt(script)) == {"n": 3}
    assert handler(attempt(script)) == {"n": 3}
    with pytest.raises(RuntimeError, match="^boom$"):
        handler(attempt(script, unit="u2"))  # runs are counted per unit


def test_no_script_finishes_with_ok_and_fail_permanent_carries_its_result():
    handler = ScriptedHandler()
    assert handler(attempt({})) == {"ok": True}
    with pytest.raises(FailAttempt) as failed:
        handler(attempt({"script": [{"outcome": "fail_permanent", "message": "bad input", "result": {"why": 1}}]}))
    assert (str(failed.value), failed.value.data, failed.value.retryable) == ("bad input", {"why": 1}, False)


def test_progress_is_reported_after_the_sleep():
    a = attempt({"script": [{"sleep_ms": 10, "progress": [0.5, "half"], "outcome": "finish"}]})
    assert ScriptedHandler()(a) == {"ok": True}
    assert a.take_progress() == (0.5, "half")


def test_a_cancellation_ends_a_hang_and_the_callbacks_run_once():
    a = attempt({"script": [{"outcome": "hang"}]})
    called = []
    a.on_cancel(lambda: called.append("cb"))
    outcome = []

    def run():
        try:
            ScriptedHandler()(a)
        except RuntimeError as e:
            outcome.append(str(e))

    thread = threading.Thread(target=run)
    thread.start()
    assert a.cancel() is True
    assert a.cancel() is False
    thread.join(5)
    assert (a.cancelled, called, outcome) == (True, ["cb"], ["cancelled"])


def test_a_stop_ends_a_sleep_early():
    a = attempt({"script": [{"sleep_ms": 60000}]})
    a.interrupt(stopping=True)
    with pytest.raises(RuntimeError, match="the worker stopped"):
        ScriptedHandler()(a)


def test_outcomes_of_what_a_handler_raises():
    assert outcome_of(FailAttempt("bad", {"x": 1}), False) == ("fail", {"x": 1}, False, False)
    assert outcome_of(FailAttempt("bad", retryable=True), False) == ("fail", {"traceback": "bad"}, True, False)
    assert outcome_of(RetryLater("later", 2.5), False) == ("retry", {"traceback": "later"}, 2.5, False)
    assert outcome_of(RetryLater("later", 2.5), True) == ("retry", {"traceback": "later"}, 2.5, True)
    assert outcome_of(FailAttempt("bad"), True) == ("retry", {"traceback": "the worker stopped: FailAttempt('bad')"},
                                                   0.0, True)
    try:
        raise ValueError("x" * 20000)
    except ValueError as e:
        kind, data, retryable, release = outcome_of(e, False)
    assert (kind, retryable, release, len(data["traceback"])) == ("fail", True, False, MAX_TRACEBACK_CHARS)
    assert data["traceback"].startswith("Traceback (most recent call last):\n")
