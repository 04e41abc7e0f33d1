"""Community commands: ``/leaderboard``, ``/stats`` and ``/chips`` (balance, daily, give, history).

Every query is scoped by the server of the interaction. Pagers are :class:`DynamicItem` buttons
whose custom id carries the whole request (``hf:lbd:<asker>:<game>:<order>:<period>:s<season>:
<page>``, ``hf:chh:<user>:<page>``), so they keep working after a restart; only the member who
asked may turn the pages. Boards and records are of the server's current season unless the
``season`` option asks for another or for all of them. Refusals are ephemeral, one sentence, and
say what to do.

The extension is this package, one module per concern:

- :mod:`.cog`: :class:`CommunityCog` and its commands;
- :mod:`.boards`: ``/leaderboard``'s page as text and picture, and its pager;
- :mod:`.stats`: ``/stats``, a player's record as an embed and as a card;
- :mod:`.chips`: ``/chips history``, the ledger's lines and its pager;
- :mod:`.seasons`: the ``season`` option of both boards and records.

The bot loads it by the package's name, ``cogs.community`` (:func:`setup` is here); what other
code imports is re-exported here.
"""

from __future__ import annotations

from discord.ext import commands

from bot.discord_ui.cog import answer_command_error

from .boards import LeaderboardPager, _value, leaderboard_message
from .chips import HistoryPager, history_message, ledger_line
from .cog import CommunityCog
from .seasons import season_number, season_option
from .stats import daily_words, record_line, stats_card, stats_embed

__all__ = ["CommunityCog", "HistoryPager", "LeaderboardPager", "_value", "daily_words",
           "history_message", "leaderboard_message", "ledger_line", "record_line",
           "season_number", "season_option", "setup", "stats_card", "stats_embed"]


async def setup(bot: commands.Bot) -> None:
    bot.tree.error(answer_command_error)
    bot.add_dynamic_items(LeaderboardPager, HistoryPager)
    await bot.add_cog(CommunityCog(bot))
