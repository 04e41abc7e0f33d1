"""Letting go of a press's interaction once nothing uses it any more.

discord.py's ``Interaction`` and its ``InteractionResponse`` point at each other, so a dropped
interaction, with the message it carries (a laid-out table is a few dozen objects), waits for a
full collection of the garbage collector, whose pause grows with all such garbage (issue 49).
A press's interaction is used by its control's callback and by the tokens the publisher keeps
to edit a hand (:class:`bot.discord_ui.publisher.Via`); each of them holds it here, and when the
callback is over and the last token is gone the pair is untied, so the interaction goes with
its last reference. Interactions no control handled (commands) are never untied: nothing here
knows when their handlers end.

A token lives up to 15 minutes, a table keeps one per player, and what it needs of the
interaction is its token and channel: the pressed message, as discord.py read it (every text,
picture and button of a laid-out hand), is let go of when the callback ends, so that the
collector's full passes do not walk it for the token's whole life.
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
    """A control's callback starts with ``interaction``; it holds it until :func:`release`."""
    extras = _extras(interaction)
    if extras is not None:
        extras[TRACKED] = True
        extras[HOLDS] = extras.get(HOLDS, 0) + 1


def handled(interaction: Any) -> None:
    """A control's callback is over: the pressed message goes, and the callback's hold."""
    if _extras(interaction) is not None:
        interaction.message = None
    release(interaction)


def hold(interaction: Any) -> None:
    """One more user of ``interaction`` (a token kept to edit a message)."""
    extras = _extras(interaction)
    if extras is not None:
        extras[HOLDS] = extras.get(HOLDS, 0) + 1


def release(interaction: Any) -> None:
    """One user less; the last one of a tracked interaction unties it."""
    extras = _extras(interaction)
    if extras is None:
        return
    holds = extras.get(HOLDS, 0) - 1
    extras[HOLDS] = holds
    if holds <= 0 and extras.get(TRACKED):
        untie(interaction)


def untie(interaction: Any) -> None:
    """Drop the interaction's cached response, the one link back to it: after this, nothing
    may answer through ``interaction.response``, which is why only :func:`release` calls it."""
    with contextlib.suppress(AttributeError):  # never answered through it, or untied already
        del interaction._cs_response
