"""User-supplied text in the bot's messages: escaped, clipped to Discord's limits, never pinging.

Anything a member typed or chose as a name (display names, the currency name, reasons, preset or
option values) goes through :func:`shown` before it is put in content or an embed, so it cannot
ping ``@everyone`` or a role, cannot change the message's markdown, and cannot push the message
past what Discord accepts (which the user would see as "This interaction failed").
String options are declared with :class:`Text`, which tells Discord the length limit and refuses
a longer value that reaches the bot anyway, in one sentence naming the limit.
"""

from __future__ import annotations

from typing import Any

import discord
from babel.dates import get_day_names
from discord import app_commands

from bot.discord_ui.answer import send_private
from bot.discord_ui.command_links import mention
from bot.i18n import N_, current, number, t
from bot.store.daily import DailyPost
from bot.store.models import Season, SeasonSchedule
from bot.store.seasons import next_start
from bot.store.tournaments import Weekly
from bot.words import NAME, day_text
from rendering.view import GAME_NAMES

__all__ = [
    "AUTHOR", "CHOICE", "CONTENT", "DESCRIPTION", "EMBED_TOTAL", "FIELD_NAME", "FIELD_VALUE",
    "FOOTER", "NO_PINGS", "TITLE", "BadOption", "Text", "choice", "clip", "fit_embed", "refuse",
    "shown",
]

# Discord's limits, in characters.
CONTENT = 2000
TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author together
CHOICE = 100  # an autocomplete or fixed choice: name and value alike

NO_PINGS = discord.AllowedMentions.none()
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its start and an ellipsis."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def shown(text: Any, limit: int | None = None) -> str:
    """User text as it may appear in a message: no mentions, no markdown, at most ``limit``."""
    safe = discord.utils.escape_markdown(discord.utils.escape_mentions(str(text)))
    return safe if limit is None else clip(safe, limit)



def safe_name(name: Any) -> str:
    """A name fit for a message: bounded, with no mentions and no markdown."""
    return shown(str(name)[:NAME])


def choice(name: str, value: str) -> app_commands.Choice[str] | None:
    """An autocomplete choice within Discord's limits (None when the value itself is too long to
    offer: a clipped value would be a different one)."""
    if not value or len(value) > CHOICE:
        return None
    return app_commands.Choice(name=clip(name, CHOICE) or value, value=value)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part of ``embed`` to its own limit, then the description and the last fields
    until the whole is within :data:`EMBED_TOTAL` (a safety net over per-part clipping)."""
    if embed.title:
        embed.title = clip(embed.title, TITLE)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION)
    for index, field in enumerate(embed.fields):
        embed.set_field_at(index, name=clip(field.name or "\u200b", FIELD_NAME) or "\u200b",
                           value=clip(field.value or "\u200b", FIELD_VALUE) or "\u200b",
                           inline=field.inline)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    excess = len(embed) - EMBED_TOTAL
    if excess > 0 and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - excess))
        excess = len(embed) - EMBED_TOTAL
    while excess > 0 and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
        excess = len(embed) - EMBED_TOTAL
    return embed


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral refusal that pings nobody and fits Discord, answered or not yet."""
    await send_private(interaction, clip(message, CONTENT), allowed_mentions=NO_PINGS)


class BadOption(app_commands.AppCommandError):
    """An option value the command refuses before doing anything; the message is for the user."""


class Text(app_commands.Transformer):
    """A string option of ``min_length`` to ``max_length`` characters, declared so to Discord and
    checked again on arrival (a client that ignores the declaration gets a clear refusal).
    Surrounding spaces are removed first."""

    def __init__(self, max_length: int, what: str = N_("That text"), min_length: int = 1) -> None:
        super().__init__()
        self.min_length, self.max_length, self.what = min_length, max_length, what

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return self.min_length

    @property
    def max_value(self) -> int:
        return self.max_length

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> str:
        text = str(value).strip()
        if not self.min_length <= len(text) <= self.max_length:
            raise BadOption(t("{what} must have {least} to {most} characters (you sent {sent}).",
                              what=t(self.what), least=self.min_length, most=self.max_length,
                              sent=number(len(text))))
        return text


def season_label(number: int | None, seasons: list[Season], *, plain: bool = False
                 ) -> str | None:
    """How a board or record names its season; None on a server that never started one.
    ``plain``: the name as typed, for a list of choices (which shows no markdown and pings no
    one); else escaped for a message."""
    if not seasons:
        return None
    if number is None:
        return t("All seasons")
    if number == 0:
        return t("Before the first season")
    name = next((s.name for s in seasons if s.season == number), "")
    return t("Season {number}: {name}", number=number, name=name if plain else shown(name, 64))


def schedule_text(plan: SeasonSchedule | None, now_ms: int) -> str | None:
    """A server's schedule as ``/season list`` states it (None: it has none)."""
    if plan is None or plan.cadence is None:
        return None
    when = int(next_start(plan.cadence, now_ms) / 1000)
    every = (t("A new season starts every Monday at 00:00 UTC") if plan.cadence == "weekly"
             else t("A new season starts on the 1st of every month at 00:00 UTC"))
    return t("{every}, announced in {channel}; the next <t:{when}:R>.", every=every,
             channel=f"<#{plan.channel_id}>", when=when)


def weekday_name(day: int) -> str:
    """A day of the week (0: Monday) as the language spoken names it."""
    return get_day_names("wide", locale=current())[day]


def weekly_text(plan: Weekly) -> str:
    """A channel's weekly tournament in a line ("#cups: Koi-Koi every Friday at 19:00 UTC")."""
    return t("{channel}: {game} every {day} at {hour}:00 UTC", channel=f"<#{plan.channel_id}>",
             game=GAME_NAMES.get(plan.game, plan.game), hour=f"{plan.hour:02d}",
             day=weekday_name(plan.weekday))


def daily_post_text(plan: DailyPost | None, links: dict[str, int]) -> str:
    """Where the server's new deals are posted, as ``/deal announce`` and ``/settings show``
    state it."""
    if plan is None:
        return t("The new deals are not posted in a channel; {announce} posts them in one every "
                 "day.", announce=mention("deal announce", links))
    text = t("The new deals are posted in {channel} every day at 00:00 UTC, with yesterday's "
             "podiums.", channel=f"<#{plan.channel_id}>")
    if plan.refused_day is not None:
        text += " " + t("The post of {day} could not be made there: give me Send Messages and "
                        "Embed Links in that channel, or set it again.", day=day_text(plan.refused_day))
    return text
