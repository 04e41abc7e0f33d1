"""RENDER_WORKERS and AI_WORKERS: defaults from the CPU count, bad values named clearly."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, cpu_count, load_settings


def test_defaults_follow_the_cpus():
    s = load_settings({}, dotenv=None, require_token=False)
    assert s.render_workers == cpu_count()
    assert s.ai_workers == max(1, cpu_count() - 1)


def test_explicit_counts():
    s = load_settings({"RENDER_WORKERS": " 3 ", "AI_WORKERS": "1"}, dotenv=None,
                      require_token=False)
    assert (s.render_workers, s.ai_workers) == (3, 1)


@pytest.mark.parametrize("name", ["RENDER_WORKERS", "AI_WORKERS"])
@pytest.mark.parametrize("raw, message", [
    ("two", "must be a number of worker processes"),
    ("0", "must be between 1 and 64"),
    ("-1", "must be between 1 and 64"),
    ("65", "must be between 1 and 64"),
])
def test_bad_counts_are_named(name, raw, message):
    with pytest.raises(ConfigError, match=f"{name} {message}"):
        load_settings({name: raw}, dotenv=None, require_token=False)


def test_worker_niceness_default_and_bounds():
    assert load_settings({}, dotenv=None, require_token=False).worker_niceness == 5
    assert load_settings({"WORKER_NICENESS": "0"}, dotenv=None, require_token=False).worker_niceness == 0
    for raw in ("-1", "20", "low"):
        with pytest.raises(ConfigError, match="WORKER_NICENESS must be a whole number from 0"):
            load_settings({"WORKER_NICENESS": raw}, dotenv=None, require_token=False)
