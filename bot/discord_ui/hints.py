"""The Hint button of a hand in casual games, answered privately with the move the search
prefers and why, in numbers (:mod:`bot.tables.hints` says which games offer one and prices it)."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.answer import press_defer
from bot.discord_ui.app import app
from bot.discord_ui.errors import told
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import DESCRIPTION, NO_PINGS, clip, fit_embed, refuse
from bot.i18n import t
from bot.tables import Table, TableError
from bot.tables.hints import ask, offered_at, price_turn, rollouts_for

__all__ = ["answer_hint", "offers_hint_button"]


def offers_hint_button(client: Any, table: Table) -> bool:
    """Whether ``table``'s hands carry the Hint button (:func:`bot.tables.hints.offers_hints`
    with the server's settings as the bot last read them)."""
    return offered_at(getattr(client, "store", None), table)


async def answer_hint(interaction: discord.Interaction, gid: int) -> None:
    """The Hint press: checked at once, priced in the AI workers, answered privately."""
    manager = app(interaction).tables
    try:
        table, seat = ask(manager, gid, interaction.user.id)
    except TableError as exc:
        await refuse(interaction, told(exc))
        return
    await press_defer(interaction, ephemeral=True, thinking=True)
    configured = getattr(getattr(interaction.client, "settings", None), "hint_rollouts", None)
    try:
        hint = await price_turn(manager, table, seat, rollouts_for(table.game, configured))
    except TableError as exc:
        await interaction.followup.send(told(exc), ephemeral=True, allowed_mentions=NO_PINGS)
        return
    embed = discord.Embed(title=t("💡 Hint"), colour=ACCENT,
                          description=clip("\n".join(hint.lines()), DESCRIPTION))
    embed.set_footer(text=hint.note())
    await interaction.followup.send(embed=fit_embed(embed), ephemeral=True,
                                    allowed_mentions=NO_PINGS)
