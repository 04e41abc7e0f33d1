"""Names on the boards the bot draws as pictures (the leaderboard, the deal of the day's board,
a season's honours): a picture cannot show a mention, so each row needs a name, found without a
request to Discord.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.i18n import t
from bot.store import Store
from bot.store.models import former_member, is_pseudonym

__all__ = ["Known", "board_names", "known_names"]

Known = Callable[[int], "str | None"]


def known_names(interaction: discord.Interaction) -> Known:
    """A lookup of the names Discord has already given this bot without a request: the asker's
    own, and members in the cache (the bot has no members intent, so mostly those who spoke to
    it lately). Others are named from their latest game here, see :func:`board_names`."""
    guild, asker = interaction.guild, interaction.user

    def name(user_id: int) -> str | None:
        if user_id == asker.id:
            return asker.display_name
        member = guild.get_member(user_id) if guild is not None else None
        return member.display_name if member is not None else None

    return name


async def board_names(store: Store, guild_id: int, user_ids: list[int], known: Known) -> dict[int, str]:
    """A name for each player of a page, with no request to Discord: "a former member" for one
    who asked to be forgotten, the name Discord gave (``known``), else the one they had at their
    latest table on this server (one query for the page), else "Player 1234"."""
    names = {u: former_member() for u in user_ids if is_pseudonym(u)}
    names |= {u: n for u in user_ids if u not in names and (n := known(u))}
    missing = [u for u in user_ids if u not in names]
    stored = await store.latest_names(guild_id, missing) if missing else {}
    return {u: names.get(u) or stored.get(u) or t("Player {number}", number=u % 10000)
            for u in user_ids}
