"""Launching the Activity (docs/activity.md): the app's Entry Point command and the answer that
opens the Activity, shared by that command and the table message's "Play in the Activity" button.

discord.py's command tree knows slash and context-menu commands only, so the Entry Point
(application command type 4, PRIMARY_ENTRY_POINT) is built here as Discord takes it and added to
what ``sync`` sends, and its interaction is answered before the tree looks for a command.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.text import refuse
from bot.i18n import NP_, speaking, t, tp

__all__ = ["PRIMARY_ENTRY_POINT", "entry_point_payload", "is_entry_point", "launch_activity"]

PRIMARY_ENTRY_POINT = 4
APP_HANDLER = 1
"""The bot answers the Entry Point itself (with LAUNCH_ACTIVITY), so it can refuse when the
Activity is off, rather than Discord launching it unasked (DISCORD_LAUNCH_ACTIVITY)."""
NAME = NP_("command name", "launch")
DESCRIPTION = NP_("command description", "Open Hanafuda as an Activity: the live table of this channel, or a lobby")
LOCALES = {"ja": "ja", "ko": "ko"}
"""Discord's locale for each language the catalogs translate."""


def entry_point_payload() -> dict[str, Any]:
    """The Entry Point as ``sync`` sends it, offered wherever the games are (servers, the bot's
    DM and group DMs, through a server's or a user's install)."""
    names, descriptions = {}, {}
    for language, locale in LOCALES.items():
        with speaking(language):
            names[locale] = tp("command name", NAME)
            descriptions[locale] = tp("command description", DESCRIPTION)
    return {"type": PRIMARY_ENTRY_POINT, "handler": APP_HANDLER, "name": NAME,
            "description": DESCRIPTION, "name_localizations": names,
            "description_localizations": descriptions, "contexts": [0, 1, 2],
            "integration_types": [0, 1]}


def is_entry_point(interaction: discord.Interaction) -> bool:
    data: Any = interaction.data or {}
    return (interaction.type is discord.InteractionType.application_command
            and data.get("type") == PRIMARY_ENTRY_POINT)


async def launch_activity(interaction: discord.Interaction) -> None:
    """Answer with LAUNCH_ACTIVITY, or say why not: a button or an Entry Point from a time the
    Activity was on can reach a bot that now runs without it."""
    if getattr(interaction.client, "activity_server", None) is None:
        await refuse(interaction, t("The Activity is not turned on for this bot; play with the "
                                    "buttons and commands here."))
        return
    # Not through the kit's first_response: a launch leaves no answer Discord could be asked
    # about, so a cut one cannot be told from one never taken.
    await interaction.response.launch_activity()
