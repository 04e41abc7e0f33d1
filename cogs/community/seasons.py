"""The ``season`` option of ``/leaderboard`` and ``/stats``: its words, its parsing and its
choices."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.discord_ui.cog import store_of
from bot.discord_ui.text import BadOption, choice, season_label
from bot.i18n import t
from bot.store import ALL_SEASONS, CURRENT_SEASON, Season, StoreError
from bot.store.models import SeasonChoice

_SEASON_OPTION = re.compile(r"^(?:current|all|[0-9]{1,6})$")
SEASON_OPTION_LENGTH = 16  # "current", "all" or a number; typed names find their number


def season_option(text: str | None) -> SeasonChoice:
    """The ``season`` option of /leaderboard and /stats: "current" (or none), "all" or a number."""
    text = (text or "current").strip().lower()
    if not _SEASON_OPTION.match(text):
        raise BadOption(t("Pick a season from the list offered."))
    return CURRENT_SEASON if text == "current" else ALL_SEASONS if text == "all" else int(text)


def season_number(choice: SeasonChoice, seasons: list[Season]) -> int | None:
    """The season a choice stands for now (None: all of them)."""
    if choice == CURRENT_SEASON:
        return seasons[0].season if seasons else 0
    return choice


async def season_autocomplete(interaction: discord.Interaction, current: str
                              ) -> list[app_commands.Choice[str]]:
    """The current season, all seasons, then each season of the server, newest first."""
    try:
        seasons = await store_of(interaction).seasons(interaction.guild_id)
    except StoreError:
        seasons = []
    now = season_number(CURRENT_SEASON, seasons)
    options = [(t("Current season ({label})", label=season_label(now, seasons, plain=True))
                if seasons else t("Current season"), "current"), (t("All seasons"), "all")]
    options += [(season_label(s.season, seasons, plain=True), str(s.season)) for s in seasons]
    if seasons:
        options.append((t("Before the first season"), "0"))
    typed = current.strip().lower()
    found = (choice(name, value) for name, value in options
             if typed in name.lower() or typed == value)
    return [c for c in found if c is not None][:25]
