"""``/deal play``, ``/deal board``, ``/deal remind`` and ``/deal announce``: the deal of the day.

Every UTC day each server has one deal of each game (and so has each place where the app is a
guest, under the channel's id as its other games are): the same cards for every member who plays
it, against the AI, under the rules the day's first look fixed (:mod:`bot.store.daily`). A
member plays it once a day; the board ranks them by how many points they came out ahead of
the AI. Nobody may see another's cards before the day is over, so the table is private (only
its player sees it: :data:`bot.tables.HOME_PRIVATE`, shown through their own interactions and on
their own pages of the Activity, whose lobby deals it too: :mod:`bot.tables.daily`), its
replay and its seed stay sealed until midnight UTC, and the day's seed, shown all day as its
SHA-256, is revealed on the day's board after it.

``/deal announce`` (staff) has the new deals posted in a channel every day at 00:00 UTC, with
yesterday's podiums: a watch looks at each UTC midnight, and each day's post is noted only once
Discord took it (with a nonce against a double post after a stop).

``/deal remind`` (a member, on a server) has the bot DM them at the hour they choose (so many
hours before the day's deals end) on days they have not played the server's deal by then: the
same watch looks, each day's reminder noted once Discord took it (a nonce against a double
send), one Discord refuses for good stopping them until the member asks again; the DM's Stop
button ends them.

``/deal play`` asked again while the game runs shows its table again (its message may be gone
from the player's screen, or its tokens expired); once played, it says how it went and when
the next deal comes.

The extension is this package, one module per concern:

- :mod:`.cog`: :class:`DailyCog`, its commands and the watch of the days;
- :mod:`.boards`: the day's board as text and picture, and the answer once a member played;
- :mod:`.share`: Share my result;
- :mod:`.reminders`: the reminder's DM and its Stop button;
- :mod:`.posts`: the daily post of the new deals.

The bot loads it by the package's name, ``cogs.daily`` (:func:`setup` is here); what other code
imports is re-exported here.
"""

from __future__ import annotations

from discord.ext import commands

from .cog import RETRY_SECONDS, DailyCog
from .reminders import StopReminderButton
from .share import ShareButton

__all__ = ["RETRY_SECONDS", "DailyCog", "ShareButton", "StopReminderButton", "setup"]


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ShareButton, StopReminderButton)
    await bot.add_cog(DailyCog(bot))
