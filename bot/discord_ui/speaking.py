"""Answering each interaction in the presser's language: the command tree and the mixin of
every control enter it before the callback runs (see :mod:`bot.languages`).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.abc import Snowflake

from bot import logcontext
from bot.discord_ui.answer import watch, watch_press
from bot.discord_ui.cog import guarded
from bot.discord_ui.entry_point import entry_point_payload, is_entry_point, launch_activity
from bot.i18n import LANGUAGE_NAMES, language_of, set_language, speaking


def enter(interaction: discord.Interaction) -> str:
    """Speak the presser's language in this interaction's task (English before the bot's
    languages exist: the command-tree-only bot of ``sync``)."""
    logcontext.at_interaction(interaction)  # its log lines name the shard
    languages = getattr(interaction.client, "languages", None)
    if languages is None:
        return set_language(None)
    return languages.enter(interaction)


def server_language(interaction: discord.Interaction) -> str:
    """The language of the public messages of the interaction's server."""
    languages = getattr(interaction.client, "languages", None)
    if languages is None:
        return language_of(interaction.guild_locale)
    return languages.of_guild_now(interaction.guild_id, interaction.guild_locale)


def in_public(interaction: discord.Interaction):
    """Speak the server's language in the block: what it builds is for everyone in the channel."""
    return speaking(server_language(interaction))


def in_server(client: Any, guild_id: int, settings: Any):
    """Speak a server's language in the block where no interaction says it (what the bot edits
    by itself): ``settings.language``, else the server's Discord locale."""
    guild = client.get_guild(guild_id)
    return speaking(settings.language or language_of(guild.preferred_locale if guild else None))


def language_choices(automatic: str) -> list[app_commands.Choice[str]]:
    """The choices of a language option: ``automatic`` (value "auto"), then each language by its
    own name."""
    return [app_commands.Choice(name=automatic, value="auto"),
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items())]


class SpeakingTree(app_commands.CommandTree):
    """The bot's command tree: each command runs in its presser's language, and one that declared
    how it answers is acknowledged in Discord's time when it is slow (:mod:`bot.discord_ui.answer`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        enter(interaction)
        if is_entry_point(interaction):  # not a command of the tree: answered here, and no further
            await launch_activity(interaction)
            return False
        watch(interaction)  # a slow command is acknowledged in Discord's time
        return True

    async def payload(self, *, entry_point: bool) -> list[dict[str, Any]]:
        """The global commands as ``sync`` sends them, translated, with the Activity's Entry
        Point when asked (``python -m bot sync --dry-run`` prints this)."""
        translator = self.translator
        commands = [await command.get_translated_payload(self, translator) if translator
                    else command.to_dict(self) for command in self.get_commands()]
        return commands + ([entry_point_payload()] if entry_point else [])

    async def sync(self, *, guild: Snowflake | None = None) -> list[app_commands.AppCommand]:
        """discord.py's sync, plus the Entry Point in a global sync while the Activity is on:
        Discord keeps an app with Activities at one Entry Point, which only a global overwrite
        that carries it keeps."""
        settings = getattr(self.client, "settings", None)
        if guild is not None or settings is None or settings.activity_port is None:
            return await super().sync(guild=guild)
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        data = await self._http.bulk_upsert_global_commands(
            self.client.application_id, payload=await self.payload(entry_point=True))
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]


class Speaks:
    """Mixin of the bot's buttons and menus (before ``discord.ui.DynamicItem`` in the bases):
    their callbacks run in the presser's language; a press still unanswered when Discord's time
    is half gone (the database slow) is acknowledged as :meth:`late_answer` says
    (:func:`~bot.discord_ui.answer.watch_press`); and a failure a callback lets out is answered
    in one line (:func:`~bot.discord_ui.cog.guarded`), as a command's is: discord.py would only
    log it, and Discord show the presser "This interaction failed"."""

    #: How a slow press is acknowledged: "update" (nothing shown; its answer edits the pressed
    #: message or follows), "private" (a "thinking" only the presser sees, which its answer
    #: replaces), or None (the control answers in Discord's time by itself).
    late: ClassVar[str | None] = "update"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("callback")
        if own is not None:
            @functools.wraps(own)
            async def callback(self: Any, interaction: discord.Interaction) -> None:
                await guarded(interaction, lambda pressed: own(self, pressed))

            cls.callback = callback  # type: ignore[attr-defined]
        super().__init_subclass__(**kwargs)  # other mixins wrap the answered callback

    def late_answer(self, interaction: discord.Interaction) -> str | None:
        """How this press is acknowledged when slow (:attr:`late`; a control whose presses
        answer in different ways says which this one will)."""
        return self.late

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        enter(interaction)
        late = self.late_answer(interaction)
        if late is not None:
            watch_press(interaction, private=late == "private")
        return True
