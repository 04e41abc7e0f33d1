"""What every cog of a server shares: its store, who may use staff commands, how a failure is
answered, pages of results, and pictures drawn in the render workers.
"""

from __future__ import annotations

import io
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import CalledOff, DoneUnseen, done_pressing
from bot.discord_ui.app import app
from bot.discord_ui.background import Background, Watch
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import CALLED_OFF, DONE_UNSEEN, MAYBE_DONE, OOPS, sentence
from bot.discord_ui.text import (
    BadOption,
    refuse,
    shown,
)
from bot.games import GAMES
from bot.i18n import N_, t
from bot.rules_text import title
from bot.store import (
    Store,
    StoreError,
    StoreUnavailable,
)
from bot.workers import WorkerPool

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=title(g), value=g) for g in GAMES]




def store_of(interaction: discord.Interaction) -> Store:
    return app(interaction).store


def in_guild(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None


def is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def not_here(game_id: int, links: Mapping[str, int], in_a_server: bool = True) -> str:
    """Why a finished game cannot be read here (/replay, /export, /verify, /review)."""
    if not in_a_server:
        return t("You did not play in game #{id}; replay it from its own server.", id=game_id)
    return t("No game #{id} on this server; {history} lists this server's games.", id=game_id,
             history=mention("history", links))


def not_a_member(user: discord.abc.User) -> str | None:
    """Why ``user`` cannot take part in this server's chips (None: they can)."""
    if user.bot:
        return t("Bots have no chips; pick a member.")
    if not isinstance(user, discord.Member):
        return t("{name} is not a member of this server.", name=shown(user.display_name, 100))
    return None


def what_failed(interaction: discord.Interaction) -> str:
    """The command or the button an interaction ran, as the log names it."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    return str((interaction.data or {}).get("custom_id"))


async def reply_error(interaction: discord.Interaction, error: Exception) -> None:
    """The answer to a command or button that failed: a refused option or an unusable database
    in their own sentence (the store logs the database's trouble once), an answer Discord
    refused with a warning not to repeat what may be done, anything else logged with its
    traceback and answered in one friendly line."""
    cause = getattr(error, "original", error)  # CommandInvokeError wraps what the command raised
    if isinstance(cause, StoreUnavailable):
        text = sentence(cause)
    elif isinstance(cause, BadOption):
        text = str(cause)
    elif isinstance(cause, app_commands.TransformerError) and \
            cause.type is discord.AppCommandOptionType.user:
        name = getattr(cause.value, "display_name", None)
        text = (t("{name} is not a member of this server; pick a member.", name=shown(name, 100))
                if name else t("That user is not a member of this server; pick a member."))
    elif isinstance(cause, CalledOff):
        log.warning("%s: Discord did not take its answer, so it was called off (%s)",
                    what_failed(interaction), cause.__cause__)
        text = t(CALLED_OFF)
    elif isinstance(cause, DoneUnseen):
        log.warning("%s: Discord did not take its answer; the work stands (%s)",
                    what_failed(interaction), cause.__cause__)
        text = t(DONE_UNSEEN, done=cause.done)
    elif isinstance(cause, UNDELIVERED):  # its answer, after the work: no "try again"
        log.warning("%s: Discord did not take what it sent (%s)", what_failed(interaction), cause,
                    exc_info=not isinstance(cause, discord.HTTPException))
        text = t(MAYBE_DONE)
    else:
        log.error("%s failed", what_failed(interaction), exc_info=cause)
        text = t(OOPS)
    try:
        await refuse(interaction, text)
    except UNDELIVERED:
        log.info("could not report an error to the user")


async def answer_command_error(interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
    """The command tree's error handler, so that commands of every cog answer a failure the same
    way; a command or cog with a handler of its own has already answered."""
    command = interaction.command
    if command is not None and command._has_any_error_handlers():
        return
    await reply_error(interaction, error)


async def guarded(interaction: discord.Interaction, run) -> None:
    """Run a button's work; a failure is answered in one line (see :func:`reply_error`). Its
    late acknowledgement, not sent by then, is not needed after it."""
    try:
        await run(interaction)
    except Exception as exc:
        await reply_error(interaction, exc)
    finally:
        done_pressing(interaction)


def render_pool(client: discord.Client) -> WorkerPool:
    """The bot's image workers (started in ``setup_hook``)."""
    pool = getattr(client, "render_pool", None)
    if pool is None:
        raise RuntimeError("the bot has no render pool: images are drawn in worker processes")
    return pool


async def drawn(client: discord.Client, render, view, embed: discord.Embed, filename: str
                ) -> list[discord.File]:
    """The image of ``view`` drawn in the render workers, shown in ``embed`` (which keeps the
    text for screen readers); none when it cannot be drawn now (logged): the text still goes."""
    try:
        data = await render_pool(client).run(render, view)
    except Exception:
        log.exception("could not draw %s; answering with the text alone", filename)
        return []
    embed.set_image(url=f"attachment://{filename}")
    return [discord.File(io.BytesIO(data), filename=filename)]


def pages_of(total: int, size: int) -> int:
    return max(1, math.ceil(total / size))


def pager_buttons(make_id, page: int, pages: int, *, extra: list[discord.ui.Item] | None = None
                  ) -> discord.ui.View:
    """Previous / page counter / Next (custom ids from ``make_id(page, tag)``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("◀ Previous"), style=discord.ButtonStyle.secondary,
                                    custom_id=make_id(max(0, page - 1), "p"), disabled=page <= 0))
    view.add_item(discord.ui.Button(label=t("Next ▶"), style=discord.ButtonStyle.secondary,
                                    custom_id=make_id(page + 1, "n"), disabled=page >= pages - 1))
    for item in extra or []:
        view.add_item(item)
    return view


# -- leaderboard -----------------------------------------------------------------------------------
class Pager:
    """Mixin of the page buttons: the custom id is the whole state (they work after a restart);
    ``owner_group`` names the id's group of the member who may press, ``refusal`` what others
    are told (``{command}`` in it: a link to :attr:`command`, which shows them their own), and
    :meth:`turn` shows the page."""

    owner_group: ClassVar[str | None] = "asker"
    refusal: ClassVar[str] = ""
    command: ClassVar[str] = ""
    label: ClassVar[str] = "Page"
    server_only: ClassVar[bool] = True  # what it shows is a server's: a press from a DM is refused

    def __init__(self, custom_id: str, match: re.Match[str] | None = None) -> None:
        super().__init__(discord.ui.Button(label=self.label, custom_id=custom_id))  # type: ignore[call-arg]
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._run)

    async def _run(self, interaction: discord.Interaction) -> None:
        if self.server_only and interaction.guild_id is None:
            await refuse(interaction, t("These buttons work only in the server they were made in."))
            return
        if self.owner_group and interaction.user.id != int(self.match[self.owner_group]):
            command = mention(self.command, await links_for(interaction)) if self.command else ""
            await refuse(interaction, t(self.refusal, command=command))
            return
        try:
            await self.turn(interaction, self.match)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        raise NotImplementedError


class ServerCog(commands.Cog):
    """A cog of server commands: the bot's store, and one friendly line for any failure."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def store(self) -> Store:
        return app(self.bot).store

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await reply_error(interaction, error)


class WatchingCog(ServerCog):
    """A server cog that keeps something by time (seasons to start, the day's deals to post):
    its :class:`~bot.discord_ui.background.Watch` runs ``look`` from when the bot is ready until
    the cog unloads; ``clock`` is what "now" is to it (tests move it)."""

    def __init__(self, bot: commands.Bot, look: Callable[[], Awaitable[float]], retry: float,
                 what: str) -> None:
        super().__init__(bot)
        self._tasks = Background()
        self.clock: Callable[[], float] = time.time
        self.watch = Watch(look, retry, what)

    async def cog_load(self) -> None:
        if getattr(self.bot, "store", None) is None:  # only publishing the commands
            return
        self._tasks.start(self.watch.run(self.bot.wait_until_ready))

    async def cog_unload(self) -> None:
        await self._tasks.close()  # the store closes after this


STAFF = discord.Permissions(manage_guild=True)

# Where a command is offered. The games, their rules and a player's own records follow a user
# who installed the app into DMs, group DMs and servers without the bot; a server's staff,
# economy and records stay in the servers that added it.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SERVERS = app_commands.AppCommandContext(guild=True)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True)

C = TypeVar("C", app_commands.Command, app_commands.Group)


def anywhere(command: C) -> C:
    """Offered in servers, the bot's DM and group DMs, through a server's or a user's install."""
    command.allowed_contexts, command.allowed_installs = EVERYWHERE, BOTH_INSTALLS
    return command


def server_only(command: C) -> C:
    """Offered only in the servers that added the app."""
    command.allowed_contexts, command.allowed_installs = SERVERS, SERVER_INSTALL
    command.guild_only = True
    return command


NOT_STAFF = N_("Only members with the Manage Server permission can use this; ask a server "
               "manager.")


async def staff_only(interaction: discord.Interaction) -> bool:
    """Manage Server, checked when the command runs (Discord's default can be overridden)."""
    if interaction.guild_id is None:
        await refuse(interaction, t("Use this command in a server."))
        return False
    if not is_manager(interaction):
        await refuse(interaction, t(NOT_STAFF))
        return False
    return True


class StaffGroup(app_commands.Group):
    """A command group hidden from members by default (Manage Server)."""
