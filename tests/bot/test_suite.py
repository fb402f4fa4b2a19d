"""The suite's own order: the long tests are dealt out to the workers first, the longest first
(tests/conftest.py), so that none is left running alone on one core at the end of the run."""

from __future__ import annotations

from tests.conftest import long_first

QUICK_BENCHMARK = "tests/test_bench.py::test_quick_mode_prints_every_row"


def test_the_long_tests_come_first_the_longest_first(request):
    items = request.session.items          # the whole collection, also in a worker of pytest-xdist
    seconds = [-long_first(item) for item in items]
    longs = sorted((s for s in seconds if s), reverse=True)
    assert seconds[:len(longs)] == longs, "a long test is collected after a short one, or out of order"
    ids = [item.nodeid for item in items]
    if QUICK_BENCHMARK in ids:              # the longest of all (it runs the benchmark's quick mode)
        assert ids[0] == QUICK_BENCHMARK and len(longs) > 10


def test_the_workers_are_dealt_one_test_at_a_time(pytestconfig):
    """pytest-xdist's default chunks deal the first worker a quarter of its share at once, and with it
    every long test (pyproject.toml's ``addopts``)."""
    assert pytestconfig.getoption("maxschedchunk") == 1
