"""The engine's refusals of rules as a player reads them: the errors carry data, and the text a
test checks is the one the presenter layer writes from it (:func:`bot.presenters.problems.rules_problem`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.games.base import InvalidRules
from bot.presenters.problems import rules_problem


@contextmanager
def refused_rules(match: str) -> Iterator[pytest.ExceptionInfo]:
    """Like ``pytest.raises(InvalidRules, match=...)``, with ``match`` searched in the text shown."""
    with pytest.raises(InvalidRules) as info:
        yield info
    said = rules_problem(info.value)
    assert re.search(match, said), said
