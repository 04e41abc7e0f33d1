"""``/help``: the commands the asker can use where they ask, each a link that opens it; and the
hello a server gets when it adds the bot, which points to it.

The page is read from the command tree: each command's translated description and where Discord
offers it, so a command added to the bot is on the page without anyone writing it there twice.
:data:`SECTIONS` only says which heading a command sits under (a test holds every command of
the tree to exactly one). Staff commands are shown to members who can use them; in a DM, a
group DM or a server that never added the bot, only the commands offered there.

When a server adds the bot, it says hello once in the server's system channel (where Discord
greets new members), in the server's language: the game commands and ``/help`` as links. A
server with no system channel, or one the bot may not post in, gets nothing: the bot never
looks for another channel to post in uninvited.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import answers, send
from bot.discord_ui.cog import anywhere, is_manager
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.parts import ACCENT, install_links
from bot.discord_ui.places import can_post, place_of
from bot.discord_ui.text import NO_PINGS, fit_embed
from bot.games.descriptor import descriptors
from bot.i18n import N_, speaking, t, tp
from bot.store import StoreError

log = logging.getLogger(__name__)

STAFF = N_("Staff (Manage Server)")
HOW_TO_START = N_("Start a game with its command: name an opponent to challenge them, choose an "
                  "AI level to play at once, or neither to open a lobby others can join.")

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Play"), (*(d.command for d in descriptors()), "deal", "rules", "games")),
    (N_("Your games"), ("stats", "history", "replay", "review", "verify", "export")),
    (N_("This server"), ("leaderboard", "season", "tournament", "chips")),
    (N_("For you"), ("language", "privacy", "help")),
    (STAFF, ("settings", "chips-admin", "privacy-admin")),
)
"""Headings and the top-level commands under each, in the order shown."""


def offered_here(command: app_commands.Command | app_commands.Group,
                 interaction: discord.Interaction) -> bool:
    """Whether Discord offers ``command`` where ``interaction`` was made (as synced; a
    subcommand is held to its group's places, and to places of its own when it names them)."""
    top = command.parent is None
    if not top and not offered_here(command.parent, interaction):
        return False
    contexts = command.allowed_contexts
    if contexts is None:
        return not top or interaction.guild_id is not None  # unsaid: servers only
    if interaction.guild_id is None:
        return bool(contexts.dm_channel if interaction.context.dm_channel else contexts.private_channel)
    if not contexts.guild:
        return False
    # Where the app is there through the user's own install: a top-level command's installs, or
    # those a subcommand names of its own (a server's staff part of a group offered anywhere).
    if (top or command.allowed_installs is not None) and place_of(interaction).guest:
        installs = command.allowed_installs
        return bool(installs is not None and installs.user)
    return True


def line(command: app_commands.Command | app_commands.Group, ids: dict[str, int],
         interaction: discord.Interaction) -> str:
    """One command as a line: its link (each subcommand's offered here, for a group), then
    what it does."""
    if isinstance(command, app_commands.Group):
        links = " ".join(mention(sub.qualified_name, ids) for sub in command.walk_commands()
                         if isinstance(sub, app_commands.Command) and offered_here(sub, interaction))
    else:
        links = mention(command.qualified_name, ids)
    return f"{links} {tp('command description', command.description)}"


def help_embed(tree: app_commands.CommandTree, interaction: discord.Interaction,
               ids: dict[str, int]) -> discord.Embed:
    """The page for ``interaction``'s asker, in the language being spoken."""
    staff = interaction.guild_id is not None and not place_of(interaction).guest \
        and is_manager(interaction)
    found = {c.name: c for c in tree.get_commands(type=discord.AppCommandType.chat_input)}
    watch = t("Your hand comes to you privately; the table is one message everyone can watch.")
    parts = [f"{t(HOW_TO_START)} {watch}"]
    for heading, names in SECTIONS:
        if heading == STAFF and not staff:
            continue
        lines = [line(found[name], ids, interaction) for name in names
                 if name in found and offered_here(found[name], interaction)]
        if lines:
            parts.append(f"**{t(heading)}**\n" + "\n".join(lines))
    if interaction.guild_id is None or place_of(interaction).guest:
        parts.append(t("Chips, seasons, tournaments and a server's own records are in the "
                       "servers that added the bot."))
    embed = discord.Embed(title=t("Hanafuda: the commands"), description="\n\n".join(parts),
                          colour=ACCENT)
    return fit_embed(embed)


def welcome_embed(ids: dict[str, int]) -> discord.Embed:
    """The hello to a server that added the bot, in the language being spoken."""
    games = ", ".join(mention(d.command, ids) for d in descriptors())
    text = " ".join((
        t("Thanks for adding me. The games: {games}.", games=games), t(HOW_TO_START),
        t("Every day {play} deals everyone here the same cards against the AI, and {board} ranks "
          "them.", play=mention("deal play", ids), board=mention("deal board", ids)),
        t("{help} lists every command; staff choose the house rules, stakes and language with "
          "{settings}.", help=mention("help", ids), settings=mention("settings show", ids))))
    return fit_embed(discord.Embed(title=t("Hanafuda is here"), description=text, colour=ACCENT))


class HelpCog(commands.Cog):
    """``/help``: the commands, grouped, each a link; the hello to a server that adds the bot."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @answers(private=True)
    @anywhere
    @app_commands.command(name="help", description="What the bot can do: every command, as a link")
    async def help(self, interaction: discord.Interaction) -> None:
        ids = await links_for(interaction)
        embed = help_embed(self.bot.tree, interaction, ids)
        await send(interaction, embed=embed, ephemeral=True, allowed_mentions=NO_PINGS,
                   view=install_links(interaction.application_id))

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot: hello, once, where Discord greets its new members."""
        channel = guild.system_channel
        if channel is None:
            return
        if not can_post(channel.permissions_for(guild.me)):
            return
        try:
            language = await self.bot.languages.of_guild(guild.id, guild.preferred_locale)
        except StoreError:  # the server's own choice cannot be read: its Discord locale
            language = self.bot.languages.of_guild_now(guild.id, guild.preferred_locale)
        ids = await self.bot.command_ids.of(guild.id)
        with speaking(language):
            embed = welcome_embed(ids)
        try:
            await channel.send(embed=embed, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:  # a hello is not worth a retry after discord.py's own
            log.info("could not greet server %s: %s", guild.id, exc)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
