"""A refusal that carries its facts, the base of the engine's and the store's errors.

Neither layer writes a sentence for a player: an error names what went wrong (``code``, or its
class) and holds the facts as keywords, and the layer that shows it phrases them in the reader's
language (:mod:`bot.presenters.problems`, :mod:`bot.refusal_text`). ``str()`` is a plain
English line for the logs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refusal"]


class Refusal(Exception):
    """An error whose ``code`` (the class's, unless given) and keyword facts say what happened;
    each fact is an attribute too, and ``facts`` holds them all."""

    code: str = ""

    def __init__(self, message: str = "", /, *, code: str = "", **facts: Any) -> None:
        self.code = code or type(self).code
        self.facts = facts
        for name, value in facts.items():
            setattr(self, name, value)
        if not message:
            shown = ", ".join(f"{name}={value!r}" for name, value in facts.items())
            message = f"{self.code} ({shown})" if shown else self.code
        super().__init__(message)
