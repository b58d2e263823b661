"""The adaptive holding of docs/client.md and the request pacing, on a clock of our own."""

from coordinate.pacing import Backoff, Holding, RequestPacer


def test_the_queue_is_the_concurrency_until_both_times_are_measured():
    holding = Holding(concurrency=8, lease=30.0)
    assert holding.queue() == 8
    holding.handler_ran(0.001)
    assert holding.queue() == 8
    holding.request_answered(0.05)
    # two round trips of work: ceil(2 * 0.05 * 8 / 0.001)
    assert holding.queue() == 800
    assert holding.capacity() == 808


def test_moving_averages_weigh_the_latest_sample_a_fifth():
    holding = Holding(concurrency=1, lease=30.0)
    holding.handler_ran(0.010)
    holding.handler_ran(0.020)
    holding.request_answered(0.100)
    holding.request_answered(0.050)
    assert abs(holding.handler_seconds - 0.012) < 1e-12
    assert abs(holding.round_trip_seconds - 0.090) < 1e-12


def test_short_handlers_count_as_a_tenth_of_a_millisecond_and_max_held_caps():
    holding = Holding(concurrency=16, lease=30.0)
    holding.handler_ran(0.000001)
    holding.request_answered(0.05)
    assert holding.queue() == 1000  # ceil(2 * 0.05 * 16 / 0.0001) = 16000, capped by max_held
    small = Holding(concurrency=16, lease=30.0, max_held=50)
    small.handler_ran(0.000001)
    small.request_answered(0.05)
    assert small.queue() == 50


def test_the_queue_drains_within_a_quarter_of_the_lease():
    holding = Holding(concurrency=2, lease=4.0)
    holding.handler_ran(0.1)
    holding.request_answered(2.0)
    # wanted ceil(2 * 2.0 * 2 / 0.1) = 40; a quarter lease of work: floor(1.0 * 2 / 0.1) = 20
    assert holding.queue() == 20


def test_long_handlers_hold_nothing_extra():
    holding = Holding(concurrency=4, lease=30.0)
    holding.handler_ran(60.0)
    holding.request_answered(0.05)
    assert holding.queue() == 0
    assert holding.capacity() == 4


def test_a_prefetch_is_fixed():
    holding = Holding(concurrency=4, lease=30.0, prefetch=3)
    holding.handler_ran(0.000001)
    holding.request_answered(0.2)
    assert holding.queue() == 3


def pacer(concurrency=4, prefetch=0, now=100.0):
    return RequestPacer(Holding(concurrency, 30.0, prefetch), Backoff(0.1, 5.0), 30.0, now)


def test_asks_for_everything_when_holding_nothing_then_waits_for_half_the_capacity():
    p = pacer(concurrency=4, prefetch=4)
    assert p.to_ask(0, 100.0) == 8
    p.asked("r1", 8, 100.0)
    assert p.to_ask(0, 100.0) == 0
    assert p.answered("r1", False, None, 100.05) is True
    assert p.to_ask(5, 100.05) == 0  # 3 free of 8, all handlers busy
    assert p.to_ask(4, 100.06) == 4  # half free


def test_a_free_handler_waits_twenty_milliseconds_for_others():
    p = pacer(concurrency=2, prefetch=8)  # capacity 10: asks at once when 5 are free
    p.asked("r1", 10, 100.0)
    p.answered("r1", False, None, 100.0)
    assert p.to_ask(6, 100.0) == 0  # 4 free, both handlers busy
    p.asked("r2", 5, 100.0)  # 5 reserved by a request in flight
    assert p.to_ask(1, 100.0) == 0  # a handler idle, 4 free: it waits for others
    assert abs(p.next_wake_up(1, 100.0) - 100.02) < 1e-9
    assert p.to_ask(1, 100.019) == 0
    assert p.to_ask(1, 100.021) == 4


def test_empty_answers_back_off_doubling_and_work_resets():
    p = pacer(concurrency=1, prefetch=0, now=0.0)
    now = 0.0
    waits = []
    for i in range(8):
        assert p.to_ask(0, now) == 1
        p.asked(f"r{i}", 1, now)
        p.answered(f"r{i}", True, None, now)
        wake = p.next_wake_up(0, now)
        assert p.to_ask(0, wake - 0.001) == 0
        waits.append(round(wake - now, 6))
        now = wake
    assert waits == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0]
    p.asked("w", 1, now)
    p.answered("w", False, None, now)
    p.asked("x", 1, now)
    p.answered("x", True, None, now)
    assert p.to_ask(0, now + 0.1) == 1


def test_a_rate_limited_answer_waits_its_retry_after_at_most_the_maximum_backoff():
    p = pacer(concurrency=1)
    p.asked("r1", 1, 0.0)
    p.answered("r1", True, 0.3, 0.0)
    assert p.to_ask(0, 0.29) == 0
    assert p.to_ask(0, 0.3) == 1
    p.asked("r2", 1, 0.3)
    p.answered("r2", True, 60.0, 0.3)
    assert p.to_ask(0, 5.29) == 0
    assert p.to_ask(0, 5.3) == 1


def test_an_unanswered_request_is_overdue_after_the_timeout_and_its_copy_measures_nothing():
    p = pacer(concurrency=1)
    p.asked("r1", 1, 0.0)
    assert p.overdue(29.9) == []
    assert p.overdue(30.0) == ["r1"]
    assert p.overdue(59.9) == []
    assert p.answered("r1", False, None, 31.0) is True
    assert p.holding.round_trip_seconds is None
    assert p.answered("r1", False, None, 31.1) is False
    assert p.answered("unknown", False, None, 31.1) is False
