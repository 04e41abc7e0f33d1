"""Letting go of a press's interaction once its control's callback is over.

discord.py's ``Interaction`` and its ``InteractionResponse`` point at each other, so a dropped
interaction, with the message it carries (a laid-out table is a few dozen objects), waits for a
full collection of the garbage collector, whose pause grows with all such garbage (issue 49).
A press's interaction is held here while its control's callback runs; when the callback is over
the pressed message (every text, picture and button of a laid-out hand, as discord.py read it)
is let go of and the pair is untied, so the interaction goes with its last reference.
Interactions no control handled (commands) are never untied: nothing here knows when their
handlers end.

What the publisher keeps to edit a message for 15 minutes is not the interaction but its
:class:`bot.discord_ui.tokens.Token`.
"""

from __future__ import annotations

import contextlib
from typing import Any

HOLDS = "hf:holds"
"""Key in ``Interaction.extras`` (a dict discord.py keeps for the app): who still uses it."""
TRACKED = "hf:tracked"
"""Key in ``Interaction.extras``: a control's callback took the interaction, so its end is known."""


def _extras(interaction: Any) -> dict[str, Any] | None:
    extras = getattr(interaction, "extras", None)
    return extras if isinstance(extras, dict) else None


def track(interaction: Any) -> None:
    """A control's callback starts with ``interaction``; it holds it until :func:`handled`."""
    extras = _extras(interaction)
    if extras is not None:
        extras[TRACKED] = True
        extras[HOLDS] = extras.get(HOLDS, 0) + 1


def handled(interaction: Any) -> None:
    """A control's callback is over: the pressed message goes, and the callback's hold; the
    last callback of the interaction unties it."""
    extras = _extras(interaction)
    if extras is None:
        return
    interaction.message = None
    holds = extras.get(HOLDS, 0) - 1
    extras[HOLDS] = holds
    if holds <= 0 and extras.get(TRACKED):
        untie(interaction)


def untie(interaction: Any) -> None:
    """Drop the interaction's cached response, the one link back to it: after this, nothing
    may answer through ``interaction.response``, which is why only :func:`handled` calls it."""
    with contextlib.suppress(AttributeError):  # never answered through it, or untied already
        del interaction._cs_response
