"""Starting games: ``/koikoi`` against a named opponent (a challenge), an open lobby, or the AI.

Lobbies and challenges are stored (:mod:`bot.store.lobbies`): their buttons carry only the
lobby's random id, and every press is checked against the stored record (server, channel,
message, host, opponent, expiry), so a crafted interaction cannot change the stake, the rules or
who hosts, and the buttons work again after a restart. Starting moves the record from ``open``
to ``starting`` in one transaction, so however many presses arrive at once, one game starts.

Every refusal is ephemeral: anything that can refuse is checked before a public response.

The extension is this package, one module per concern:

- :mod:`.cog`: :class:`PlayCog`, what a game's command does, and the challenges' expiry;
- :mod:`.commands`: each game's command, its options, and what is wrong with those sent;
- :mod:`.presses`: the buttons of a lobby and a challenge, and what a press does;
- :mod:`.messages`: what a lobby's or a challenge's message says in each state.

The bot loads it by the package's name, ``cogs.play`` (:func:`setup` is here); what other code
imports is re-exported here.
"""

from __future__ import annotations

from discord.ext import commands

from bot.discord_ui.lobby_messages import face_of
from bot.games import GAMES

from .cog import PlayCog
from .commands import DESCRIPTIONS, GAME_COMMANDS, game_command, option_problem
from .presses import ChallengeButton, LobbyAISelect, LobbyButton, lobby_message

__all__ = ["DESCRIPTIONS", "GAME_COMMANDS", "PlayCog", "option_problem", "setup"]


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, LobbyAISelect, ChallengeButton)
    face_of("lobby", lobby_message)
    face_of("challenge", lobby_message)
    cog = PlayCog(bot)
    await bot.add_cog(cog)
    for game in GAMES:
        bot.tree.add_command(game_command(cog.open_game, game), override=True)
