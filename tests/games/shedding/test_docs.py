"""The examples in the docstrings stay true."""

from __future__ import annotations

import doctest

import pytest

from bot.games.shedding import game, payout


@pytest.mark.parametrize("module", [game, payout])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
