"""``/tournament create``: Swiss, single-elimination and round-robin tournaments on a server.

Staff (Manage Server, checked when the command runs) create one; members sign up with the Join
button (the entry fee moves into the pot, :mod:`bot.store.tournaments`) and staff add AI entrants
and press Start. Each round the bot opens one table per pairing in the tournament's channel with
the same machinery as ``/koikoi`` (``TableManager.start``, keyed by tournament, round and board,
so a retry or a restart opens no table twice). Tables stay in the channel rather than threads: the
bot's invite asks for no thread permissions, and a table in the channel is where its players and
the ``/games`` list already look. AI-against-AI pairings are tables the AI plays like any other
(its moves come from the AI workers, paced by ``TableManager.ai_delay``): stored move by move,
resumed after a restart, and watchable.

When a table ends (:attr:`TableManager.end_listeners`) its tournament is advanced: results are
read from the stored game, and once every pairing of the round is done the standings are posted
(a picture drawn in the render workers, the same standings as text for screen readers) and the
next round is paired and opened. Everything is read from the store, so after a restart the bot
picks up where it was: finished games are recorded, running ones are waited for, a round not yet
announced is announced. A player who does not show up loses by the turn timeout (three timeouts
in a row forfeit). Staff can drop a player (their running game forfeited, no further pairings)
or cancel (running games cancelled, every fee refunded). A member can always withdraw, from
anywhere: Leave on the message or in the DM sent when they join, or ``/tournament leave`` (in a
DM too, so after leaving the server): refunded before the start, dropped once it runs. Buttons
carry only the tournament's number; every press is checked against the stored tournament, read
only from its own server or, from a DM, by one of its entrants.

The extension is this package, one module per concern:

- :mod:`.cog`: :class:`TournamentCog`, its commands, and what staff and members do to a
  tournament (drop, withdraw, cancel); it is put together from the mixins below;
- :mod:`.rounds`: running the rounds (pairing, opening the tables, reading the results);
- :mod:`.posts`: the tournament's message brought up to date, and the standings posted;
- :mod:`.starts`: the tournaments that start by themselves, at a chosen time or every week;
- :mod:`.presses`: the buttons and menus on the messages, and what a press does;
- :mod:`.messages`: the texts and embeds the messages show, the standings as text;
- :mod:`.options`: the commands' options (their words and choices) and the rules they make.

The bot loads it by the package's name, ``cogs.tournaments`` (:func:`setup` is here; discord.py
unloads the modules with it); what other code imports is re-exported here.
"""

from __future__ import annotations

from discord.ext import commands

from .cog import TournamentCog
from .options import WEEKDAYS
from .presses import DropSelect, TournamentAISelect, TournamentButton

__all__ = ["WEEKDAYS", "DropSelect", "TournamentAISelect", "TournamentButton", "TournamentCog",
           "setup"]


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TournamentButton, TournamentAISelect, DropSelect)
    await bot.add_cog(TournamentCog(bot))
