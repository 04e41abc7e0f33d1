"""Shared by every test package: the slow tests start first, and the throwaway PostgreSQL server
is stopped at the end."""

from __future__ import annotations

import os

from tests import pgserver


def pytest_collection_modifyitems(config, items):
    """Start each slow test first on a worker of its own.

    pytest-xdist's work stealing hands each worker an equal run of the collection, in order, and
    moves the back of a long queue to a worker that ran dry. A test of minutes met at the end of a
    run keeps one worker busy while the others wait; placed at the front of a run, it overlaps
    with everything else. So the slow tests are dealt round-robin to the fronts of the runs the
    workers will get (every worker collects alike, so all agree on the order)."""
    slow = [item for item in items if item.get_closest_marker("slow")]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not slow or workers < 2:
        return
    rest = [item for item in items if not item.get_closest_marker("slow")]
    runs: list[list] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    # longest first, each to the least loaded run: ``slow(seconds=...)`` says about how long
    for item in sorted(slow, key=lambda item: -_seconds(item)):
        k = loads.index(min(loads))
        runs[k].append(item)
        loads[k] += _seconds(item)
    # the runs the scheduler cuts: each idle worker gets what is left divided by the workers left
    left = len(items)
    ordered: list = []
    for i, run in enumerate(runs):
        size = left // (workers - i)
        ordered += run + rest[:max(0, size - len(run))]
        rest = rest[max(0, size - len(run)):]
        left -= size
    items[:] = ordered + rest


def _seconds(item) -> float:
    return float(item.get_closest_marker("slow").kwargs.get("seconds", 60))


def pytest_sessionfinish(session, exitstatus):
    pgserver.stop()
