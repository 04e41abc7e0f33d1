"""Run a selection of tests many times on a loaded machine, to prove it does not flake.

    python -m pytest -q -p tests.stress --stress-runs 10 --stress-cpu 2 tests/e2e

runs every selected test 10 times (the whole selection once, then again, ...) while 2 busy
processes burn CPU, and ends with the failures per test. The busy processes stop when the session
ends, and on their own if pytest dies (they watch their parent) or after `--stress-cpu-limit`
seconds. Works with pytest-xdist (`-n 2`): the load starts once, in the controlling process.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict

import pytest

RUN_PARAM = "stress_run"
_RUN_ID = re.compile(r"(?:-)?stress\d+(?=[\]-])|\[stress\d+\]")

# A busy loop that exits when its parent is gone or its time is up (it never outlives the run).
BURNER = """
import os, sys, time
parent, until = int(sys.argv[1]), time.monotonic() + float(sys.argv[2])
n = 0
while time.monotonic() < until and os.getppid() == parent:
    for i in range(20000):
        n = (n * 31 + i) % 1000003
"""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("stress", "repeat tests under CPU load")
    group.addoption("--stress-runs", type=int, default=1, metavar="N",
                    help="run every selected test N times (default 1)")
    group.addoption("--stress-cpu", type=int, default=0, metavar="K",
                    help="keep K busy processes running meanwhile (default 0)")
    group.addoption("--stress-cpu-limit", type=float, default=3 * 3600, metavar="SECONDS",
                    help="the busy processes stop after this long in any case")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    runs = metafunc.config.getoption("stress_runs")
    if runs > 1:
        metafunc.fixturenames.append(RUN_PARAM)
        metafunc.parametrize(RUN_PARAM, range(runs), ids=[f"stress{r}" for r in range(runs)])


@pytest.fixture
def stress_run(request: pytest.FixtureRequest) -> int:
    """The index of this repetition (a parameter of every test when --stress-runs > 1)."""
    return request.param


def _run_of(item: pytest.Item) -> int:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get(RUN_PARAM, 0) if callspec else 0


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the whole selection once, then again: a repetition meets the same neighbours."""
    items.sort(key=_run_of)  # stable: the order within one run stays as collected


class StressLoad:
    """The busy processes and the tally of outcomes per test."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.burners: list[subprocess.Popen[bytes]] = []
        self.runs: dict[str, set[str]] = defaultdict(set)  # test -> its repetitions' node ids
        self.failed: dict[str, set[str]] = defaultdict(set)

    def start(self, count: int, limit: float) -> None:
        for _ in range(count):
            self.burners.append(subprocess.Popen(
                [sys.executable, "-c", BURNER, str(os.getpid()), str(limit)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self) -> None:
        for proc in self.burners:
            proc.terminate()
        for proc in self.burners:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.burners = []

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        test = _RUN_ID.sub("", report.nodeid).replace("[]", "")
        self.runs[test].add(report.nodeid)
        if report.failed:  # in setup, call or teardown: one failure per repetition
            self.failed[test].add(report.nodeid)

    @pytest.hookimpl
    def pytest_sessionfinish(self) -> None:
        self.stop()

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter) -> None:  # noqa: ANN001 - pytest's type
        runs = self.config.getoption("stress_runs")
        cpu = self.config.getoption("stress_cpu")
        write = terminalreporter.write_line
        terminalreporter.section(f"stress: {runs} run(s) with {cpu} busy process(es)")
        total = sum(len(f) for f in self.failed.values())
        write(f"{len(self.runs)} tests, {sum(len(r) for r in self.runs.values())} runs, "
              f"{total} failure(s)")
        for test, failed in sorted(self.failed.items(), key=lambda kv: -len(kv[1])):
            write(f"  {len(failed)} of {len(self.runs[test])} failed: {test}")


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller loads and reports
        return
    load = StressLoad(config)
    config.pluginmanager.register(load, "stress-load")
    load.start(config.getoption("stress_cpu"), config.getoption("stress_cpu_limit"))
