"""The batch functions release the GIL while the engine runs: a thread
that sleeps 5 ms at a time keeps waking up during a batch. (A wake-up
needs the GIL; held by the batch, the longest gap between wake-ups would
be the batch's whole duration.) No test assumes the machine's speed: the
work doubles until it lasts long enough to tell."""

from __future__ import annotations

import threading
import time

import pytest

import redc
from redc import hashes, padding


def longest_gap(work) -> tuple:
    """The batch's duration and the longest gap between the wake-ups of a
    thread sleeping 5 ms at a time while ``work`` ran."""
    done = threading.Event()
    wakeups = []

    def tick():
        while not done.is_set():
            wakeups.append(time.perf_counter())
            time.sleep(0.005)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    start = time.perf_counter()
    work()
    end = time.perf_counter()
    done.set()
    ticker.join()
    during = [start] + [t for t in wakeups if start <= t <= end] + [end]
    return end - start, max(b - a for a, b in zip(during, during[1:]))


@pytest.fixture(scope="module")
def key():
    return redc.generate_private_key(65537, 2048)


# Long enough to tell: many times the GIL's switch interval (5 ms).
LONG = 0.2


def long_enough(work, n: int) -> tuple:
    """``longest_gap`` of ``work(n)``, with ``n`` doubled until the run
    lasts over ``LONG`` seconds, whatever the machine's speed."""
    for _ in range(16):
        duration, gap = longest_gap(lambda: work(n))
        if duration > LONG:
            return duration, gap
        n *= 2
    raise AssertionError(f"the work never lasted {LONG} s (last: {duration} s at n = {n // 2})")


def check(duration, gap):
    # The ticker never kept waiting for more than a quarter of the batch.
    assert duration > LONG, duration
    assert gap < duration / 4, (duration, gap)


def test_sign_batch_releases_the_gil(key):
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
    check(*long_enough(lambda n: key.sign_batch([b"m%d" % i for i in range(n)], pss, hashes.SHA256()), 1000))


def test_modexp_batch_releases_the_gil():
    p = 2**4253 - 1
    check(*long_enough(lambda n: redc.modexp_batch(list(range(2, 2 + n)), p - 2, p), 16))


def test_the_check_catches_a_held_gil():
    """Control: pure-Python work that keeps the GIL in one bytecode (a
    big integer power) fails the same check."""
    p = 2**4253 - 1
    # One bytecode whose work grows with n: an exponent of n times the bits.
    duration, gap = long_enough(lambda n: pow(3, (p - 2) ** n, p), 1)
    assert duration > LONG, duration
    assert gap >= duration / 4, (duration, gap)
