"""The adaptive holding of docs/client.md and the request pacing, on a clock of our own (integer nanoseconds): the
same rule, and the same values, as the Java worker's AttemptHoldingTest and RequestPacerTest."""

import math

from coordinate.pacing import Backoff, Holding, RequestPacer

MS = 1_000_000
TIMEOUT = 10_000 * MS


def measured(concurrency, handler_nanos, round_trip_nanos, lease=30.0, max_held=1000):
    holding = Holding(concurrency, lease, max_held=max_held)
    holding.handler_ran(handler_nanos)
    holding.request_answered(round_trip_nanos)
    return holding.queue()


def test_four_round_trips_of_work_are_queued():
    assert measured(8, 1 * MS, 20 * MS) == 640  # ceil(4 x 20 ms x 8 / 1 ms)
    assert measured(2, 3 * MS, 20 * MS) == 54  # ceil(4 x 20 ms x 2 / 3 ms) = ceil(53.3)


def test_short_handlers_are_capped_by_max_held():
    assert measured(8, 1 * MS, 100 * MS) == 1000
    assert measured(8, 1 * MS, 100 * MS, max_held=50) == 50


def test_a_handler_counts_as_at_least_a_tenth_of_a_millisecond():
    assert measured(8, 0, 20 * MS, max_held=100_000) == 6400  # ceil(4 x 20 ms x 8 / 0.1 ms), not unbounded


def test_the_queue_drains_within_a_quarter_of_the_lease():
    # Four round trips of 2 s would be 640 units of 100 ms; a quarter of the lease's work is 7.5 s x 8 / 100 ms.
    assert measured(8, 100 * MS, 2000 * MS) == 600
    # Handlers of 10 minutes hold nothing extra: floor(7.5 s x 8 / 600 s) = 0.
    assert measured(8, 600_000 * MS, 100 * MS) == 0


def test_until_both_are_measured_the_queue_is_the_concurrency():
    holding = Holding(8, 30.0)
    assert holding.queue() == 8
    assert holding.capacity() == 16
    holding.handler_ran(1 * MS)
    assert holding.queue() == 8
    holding.request_answered(20 * MS)
    assert holding.queue() == 640
    assert holding.capacity() == 648
    assert Holding(8, 30.0, max_held=3).queue() == 3


def test_each_measurement_moves_the_average_by_a_fifth():
    holding = Holding(8, 30.0)
    holding.request_answered(10 * MS)
    holding.handler_ran(1 * MS)
    assert holding.queue() == 320  # 4 x 10 x 8 / 1
    holding.handler_ran(2 * MS)  # H = 1 + 0.2 x (2 - 1) = 1.2 ms
    assert math.isclose(holding.handler_nanos, 1.2 * MS)
    assert holding.queue() == 267  # ceil(320 / 1.2)
    holding.request_answered(60 * MS)  # R = 10 + 0.2 x (60 - 10) = 20 ms
    assert math.isclose(holding.round_trip_nanos, 20 * MS)
    assert holding.queue() == 534  # ceil(640 / 1.2)


def test_a_prefetch_is_fixed():
    holding = Holding(8, 30.0, prefetch=200)
    assert holding.queue() == 200
    holding.handler_ran(600_000 * MS)
    holding.request_answered(20 * MS)
    assert holding.queue() == 200
    assert holding.capacity() == 208
    assert Holding(8, 30.0, prefetch=2000, max_held=1000).queue() == 2000  # max_held bounds only the adaptive Q


def pacer():
    """A worker of 16 handlers and no prefetch, backing off from 100 ms to 5 s, started at time 0."""
    return RequestPacer(Holding(16, 30.0, prefetch=0), Backoff(0.1, 5.0), TIMEOUT / 1e9, 0)


def test_holding_nothing_it_asks_for_every_slot_at_once():
    p = pacer()
    assert p.to_ask(0, 0) == 16
    p.asked("r1", 16, 0)
    assert p.free(0) == 0  # all reserved by the request
    assert p.to_ask(0, 1 * MS) == 0


def test_one_freed_slot_waits_for_half_the_slots_or_the_linger():
    p = pacer()
    p.asked("r1", 16, 0)
    assert p.answered("r1", False, None, 10 * MS) is True
    assert p.to_ask(15, 11 * MS) == 0  # one slot free since 11 ms
    assert p.to_ask(9, 12 * MS) == 0  # seven
    assert p.to_ask(8, 13 * MS) == 8  # half
    assert p.to_ask(15, 13 * MS) == 0
    # A lone free slot goes once it has waited the linger, 20 ms from when it was first seen free.
    assert p.next_wake_up(15, 13 * MS) == 31 * MS
    assert p.to_ask(15, 30 * MS) == 0
    assert p.to_ask(15, 31 * MS) == 1


def test_each_request_reserves_its_slots_so_several_may_be_in_flight():
    p = pacer()
    p.asked("r1", 16, 0)
    p.answered("r1", False, None, 1 * MS)
    assert p.to_ask(8, 1 * MS) == 8
    p.asked("r2", 8, 1 * MS)
    assert p.free(0) == 8  # the 8 held ended, r2 holds 8
    assert p.to_ask(0, 2 * MS) == 8
    p.asked("r3", 8, 2 * MS)
    assert p.awaits_answers()
    assert p.answered("r2", False, None, 3 * MS) is True
    assert p.answered("r3", False, None, 3 * MS) is True
    assert not p.awaits_answers()
    assert p.answered("r3", False, None, 3 * MS) is False  # answered already
    assert p.answered(None, False, None, 3 * MS) is False


def test_empty_answers_back_off_doubling_up_to_the_cap_and_work_resets_it():
    p = pacer()
    now = 0
    for wait in (100, 200, 400, 800, 1600, 3200, 5000, 5000):
        assert p.to_ask(0, now) == 16
        p.asked(f"r{now}", 16, now)
        p.answered(f"r{now}", True, None, now)
        assert p.to_ask(0, now + wait * MS - 1) == 0, f"before {wait} ms"
        assert p.next_wake_up(0, now) == now + wait * MS
        now += wait * MS
    p.asked("work", 16, now)
    p.answered("work", False, None, now)
    p.asked("empty", 16, now)
    p.answered("empty", True, None, now)
    assert p.to_ask(0, now + 99 * MS) == 0
    assert p.to_ask(0, now + 100 * MS) == 16  # from 100 ms again


def test_a_request_unanswered_past_the_timeout_is_overdue_and_keeps_its_slots():
    p = pacer()
    p.asked("r1", 16, 0)
    assert p.next_wake_up(0, 1) == TIMEOUT
    assert p.overdue(TIMEOUT - 1) == []
    assert p.overdue(TIMEOUT) == ["r1"]
    assert p.free(0) == 0  # sent again, not given up: no second request for its slots
    assert p.to_ask(0, TIMEOUT) == 0
    assert p.next_wake_up(0, TIMEOUT) == 2 * TIMEOUT
    assert p.overdue(2 * TIMEOUT - 1) == []
    assert p.answered("r1", False, None, 2 * TIMEOUT - 1) is True
    assert p.free(0) == 16
    assert p.answered("r1", False, None, 2 * TIMEOUT) is False  # the answer to the copy sent again


def test_an_answer_a_rate_limit_held_short_waits_its_retry_after_instead_of_the_backoff():
    p = pacer()
    p.asked("r1", 16, 0)
    assert p.answered("r1", True, 50 * MS, 0) is True
    assert p.next_wake_up(0, 0) == 50 * MS
    assert p.to_ask(0, 49 * MS) == 0
    assert p.to_ask(0, 50 * MS) == 16
    # the backoff did not move: the next plain empty answer still waits its first 100 ms
    p.asked("r2", 16, 50 * MS)
    p.answered("r2", True, None, 60 * MS)
    assert p.next_wake_up(0, 60 * MS) == 160 * MS
    # work held short by a limit: wait for the token too, rather than asking at once
    assert p.to_ask(0, 160 * MS) == 16
    p.asked("r3", 16, 160 * MS)
    p.answered("r3", False, 30 * MS, 170 * MS)
    assert p.next_wake_up(4, 170 * MS) == 200 * MS
    assert p.to_ask(4, 199 * MS) == 0
    assert p.to_ask(4, 200 * MS) == 12


def test_a_retry_after_longer_than_the_maximum_backoff_waits_the_maximum():
    p = pacer()
    p.asked("r1", 16, 0)
    p.answered("r1", True, 60_000 * MS, 0)
    assert p.next_wake_up(0, 0) == 5_000 * MS


def adaptive(holding):
    """A worker of 8 handlers at the defaults: its queue sized from what it measures."""
    return RequestPacer(holding, Backoff(0.1, 5.0), TIMEOUT / 1e9, 0)


def test_at_the_defaults_the_room_grows_once_the_handlers_and_the_round_trip_are_measured():
    holding = Holding(8, 30.0)
    p = adaptive(holding)
    assert p.to_ask(0, 0) == 16  # 8 handlers and a queue of 8 until measured
    p.asked("r1", 16, 0)
    assert p.answered("r1", False, None, 20 * MS) is True  # a round trip of 20 ms
    assert p.to_ask(16, 20 * MS) == 0
    holding.handler_ran(1 * MS)  # the first handler ended after 1 ms: 4 x 20 x 8 / 1 = 640 queued
    assert p.to_ask(15, 21 * MS) == 648 - 15


def test_the_round_trip_of_a_request_sent_again_is_not_measured():
    holding = Holding(8, 30.0)
    p = adaptive(holding)
    holding.handler_ran(1 * MS)
    p.asked("r1", 16, 0)
    assert p.overdue(TIMEOUT) == ["r1"]
    p.answered("r1", False, None, TIMEOUT + 5 * MS)
    assert holding.queue() == 8  # still unmeasured
    p.asked("r2", 16, TIMEOUT + 5 * MS)
    p.answered("r2", False, None, TIMEOUT + 15 * MS)
    assert holding.queue() == 320  # 4 x 10 ms x 8 / 1 ms


def test_only_a_free_handler_lingers_not_a_free_slot_of_the_queue():
    p = adaptive(Holding(8, 30.0, prefetch=8))
    p.asked("r1", 16, 0)
    p.answered("r1", False, None, 10 * MS)
    # 12 held: every handler busy, 4 queued; 4 slots free, under half of 16.
    assert p.to_ask(12, 10 * MS) == 0
    assert p.next_wake_up(12, 10 * MS) == math.inf  # nothing to wake up for
    assert p.to_ask(12, 500 * MS) == 0
    # 8 held: half free, asked at once; then 5 held with those 8 on their way: a handler is free from 501 ms,
    # and its 3 slots wait the linger for others.
    assert p.to_ask(8, 500 * MS) == 8
    p.asked("r2", 8, 500 * MS)
    assert p.to_ask(5, 501 * MS) == 0
    assert p.next_wake_up(5, 501 * MS) == 521 * MS
    assert p.to_ask(5, 521 * MS) == 3


def test_a_free_handler_with_no_room_to_ask_for_does_not_start_the_linger():
    p = adaptive(Holding(8, 30.0, prefetch=8))
    p.asked("r1", 16, 0)
    p.answered("r1", False, None, 10 * MS)
    assert p.to_ask(8, 20 * MS) == 8
    p.asked("r2", 8, 20 * MS)
    assert p.to_ask(7, 50 * MS) == 0  # a handler free with room for 1: it waits the linger
    assert p.to_ask(7, 70 * MS) == 1
    p.asked("r3", 1, 70 * MS)
    assert p.to_ask(7, 80 * MS) == 0  # a handler free, but every slot held or asked for
    # room for 1 again from 100 ms: the linger starts then, not when the handler became free
    assert p.to_ask(6, 100 * MS) == 0
    assert p.next_wake_up(6, 100 * MS) == 120 * MS
    assert p.to_ask(6, 119 * MS) == 0
    assert p.to_ask(6, 120 * MS) == 1


def test_an_idle_worker_asks_at_most_ten_times_in_its_first_second_then_once_every_five_seconds():
    p = adaptive(Holding(8, 30.0))
    sent_at_millis = []
    now = 0
    while now < 30_000 * MS:
        count = p.to_ask(0, now)
        if count > 0:
            sent_at_millis.append(now // MS)
            p.asked(f"r{now}", count, now)
            p.answered(f"r{now}", True, None, now + 5 * MS)  # empty, after a round trip of 5 ms
        now = max(now + 1, p.next_wake_up(0, now))
    assert sent_at_millis == [0, 105, 310, 715, 1520, 3125, 6330, 11335, 16340, 21345, 26350]
    assert len([t for t in sent_at_millis if t < 1000]) <= 10
