"""The order a worker's held attempts fall due for renewal, without a broker (as the Java HeldAttemptsTest)."""

from coordinate.attempt import Attempt
from coordinate.held import HeldAttempts


def attempt(attempt_id):
    return Attempt(attempt_id, "spec", "unit-" + attempt_id, {}, None)


def ids(attempts):
    return [a.id for a in attempts]


def test_renewals_fall_due_in_the_order_attempts_came_and_a_renewed_one_moves_to_the_end():
    held = HeldAttempts(15)
    for attempt_id, lease_from in (("a", 0), ("b", 5), ("c", 10)):
        held.add(attempt(attempt_id), lease_from)
    assert held.next_renewal() == 15
    assert held.due_for_renewal(14) == []
    assert ids(held.due_for_renewal(20)) == ["a", "b"]
    assert held.next_renewal() == 25  # c's
    assert ids(held.in_renewal_order()) == ["c", "a", "b"]
    assert ids(held.due_for_renewal(25)) == ["c"]
    assert held.get("a").renew_at == 35


def test_a_renewal_with_progress_moves_the_attempt_after_the_others():
    held = HeldAttempts(15)
    held.add(attempt("a"), 0)
    held.add(attempt("b"), 5)
    held.renewed(held.get("a"), 8)
    assert held.next_renewal() == 20  # b's
    assert ids(held.in_renewal_order()) == ["b", "a"]
    assert held.get("a").renew_at == 23


def test_an_attempt_of_a_slow_answer_falls_due_from_its_requests_send_not_from_its_arrival():
    held = HeldAttempts(15)
    held.add(attempt("a"), 10)
    held.add(attempt("b"), 2)  # came after a, but its request went out at 2: its lease began before a's
    assert held.next_renewal() == 17
    assert ids(held.in_renewal_order()) == ["b", "a"]
    assert ids(held.due_for_renewal(17)) == ["b"]
    assert ids(held.due_for_renewal(25)) == ["a"]
    held.pop("b")
    assert ids(held.in_renewal_order()) == ["a"]
    assert held.next_renewal() == 40


def test_a_lost_lease_is_never_renewed_again():
    held = HeldAttempts(15)
    held.add(attempt("a"), 0).lost = True
    held.add(attempt("b"), 1)
    assert held.next_renewal() == 16
    assert ids(held.due_for_renewal(100)) == ["b"]
    held.pop("b")
    assert held.next_renewal() == float("inf")
    assert len(held) == 1
