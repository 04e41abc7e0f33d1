"""Shared by every test package: the throwaway PostgreSQL server is stopped at the end."""

from __future__ import annotations

from tests import pgserver


def pytest_sessionfinish(session, exitstatus):
    pgserver.stop()
