"""The work runs without the GIL, and Ctrl-C stops it."""

import _thread
import threading
import time

import pytest

import dgnkit

EVERY = range(0, 10**12)


def test_python_runs_while_a_search_does():
    done = threading.Event()
    counted = []

    def search():
        dgnkit.find("bigrm and oracle.depth == 5", seeds=range(0, 1_500_000), limit=10**9)
        done.set()

    t = threading.Thread(target=search)
    t.start()
    n = 0
    while not done.is_set():
        n += 1
    t.join()
    counted.append(n)
    # Held for the whole search, the GIL would have let this loop run a
    # few switch intervals at most.
    assert n > 200_000


def test_two_searches_at_once_agree_with_one():
    alone = dgnkit.find("oracle.depth == 5", seeds=range(0, 200_000), count=True)
    results = [None, None]

    def search(i):
        results[i] = dgnkit.find("oracle.depth == 5", seeds=range(0, 200_000), count=True)

    threads = [threading.Thread(target=search, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [alone, alone]


@pytest.mark.parametrize(
    "call",
    [
        lambda: dgnkit.find("bigrm and medusa.depth == 30", seeds=EVERY),
        lambda: dgnkit.stats(game="nethack-3.6", sample=True, samples=10**12),
        lambda: all(dgnkit.layouts(EVERY)),
    ],
)
def test_ctrl_c_stops_a_long_run(call):
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        call()
    timer.cancel()
    assert time.monotonic() - start < 30
    # The package still answers.
    assert dgnkit.find("bigrm", seeds=range(0, 10), count=True)["seeds"] == 10
