"""Refusals of the store as a user reads them: the store's errors carry data, and the sentence a
test checks is the one the Discord side writes from it (:func:`bot.discord_ui.errors.sentence`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.discord_ui.errors import sentence


@contextmanager
def refused(error: type[BaseException], match: str) -> Iterator[pytest.ExceptionInfo]:
    """Like ``pytest.raises(error, match=...)``, with ``match`` searched in the sentence shown."""
    with pytest.raises(error) as info:
        yield info
    said = sentence(info.value)
    assert re.search(match, said), said
