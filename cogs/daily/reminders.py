"""The reminder a member asked for (``/deal remind``): its DM, its nonce and its Stop button."""

from __future__ import annotations

from datetime import date

import discord

from bot.discord_ui.answer import press_update
from bot.discord_ui.app import app
from bot.discord_ui.errors import sentence
from bot.discord_ui.parts import controls
from bot.discord_ui.speaking import Speaks
from bot.discord_ui.text import (
    NO_PINGS,
    clip,
    refuse,
    safe_name,
)
from bot.i18n import t, tn
from bot.store import StoreError
from bot.store.reminders import Reminder


def reminder_message(reminder: Reminder, server: str, ends_at: int
                     ) -> tuple[str, discord.ui.View]:
    """A member's reminder of today's deals in ``server`` (its name), ending at ``ends_at`` (ms):
    their run of days at stake, a link to the server and the Stop button."""
    when, where, play = f"<t:{ends_at // 1000}:R>", f"**{safe_name(server)}**", "`/deal play`"
    if reminder.run:
        text = tn("🌅 Your run of {n} day on the deal of the day in {server} ends at midnight UTC, "
                  "{when}, unless you play one of today's deals: {play} there.",
                  "🌅 Your run of {n} days on the deal of the day in {server} ends at midnight UTC, "
                  "{when}, unless you play one of today's deals: {play} there.", reminder.run,
                  server=where, when=when, play=play)
    else:
        text = t("🌅 Today's deals in {server} are there until midnight UTC, {when}: {play} there.",
                 server=where, when=when, play=play)
    go = discord.ui.Button(label=t("Go to the server"), style=discord.ButtonStyle.link,
                           url=f"https://discord.com/channels/{reminder.guild_id}")
    return text, controls(go, StopReminderButton(reminder.key))


def reminder_nonce(guild_id: int, day: str) -> str:
    """A day's reminder's nonce in the member's DM (25 characters at most; a DM holds one member's
    reminders of every server, hence the server's id in it)."""
    return f"r{guild_id:x}.{date.fromisoformat(day).toordinal():x}"


class StopReminderButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                         template=r"hf:dstop:(?P<key>[0-9a-f]{16})"):
    """Stop, on a reminder's DM: no more reminders of that server's deal of the day. The custom
    id names the reminder by its random key alone; only its member's press stops it."""

    def __init__(self, key: str) -> None:
        super().__init__(discord.ui.Button(label=t("Stop these reminders"),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"hf:dstop:{key}"))
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            stopped = await app(interaction).store.stop_daily_reminder(self.key, interaction.user.id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        if not stopped:
            await refuse(interaction, t("These reminders are off already."))
            return
        said = t("Reminders of that server's deal of the day are off.")
        original = interaction.message.content if interaction.message is not None else ""
        await press_update(interaction, content=clip(f"{original}\n{said}", 2000), view=None,
                           allowed_mentions=NO_PINGS)
