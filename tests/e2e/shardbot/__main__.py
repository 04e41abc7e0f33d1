"""One process of a sharded bot, for the end-to-end test of several processes: the real
HanafudaBot with its settings from the environment (``SHARDS``, ``SHARD_COUNT``,
``DATABASE_URL``...), aimed at the test's stand-in.

    HANAFUDA_STANDIN_API      discord.py's REST base (http://127.0.0.1:PORT/api/v10)
    HANAFUDA_STANDIN_GATEWAY  the gateway URL (ws://127.0.0.1:PORT/gateway)
    HANAFUDA_SYNC             "1": publish the slash commands globally once connected
    HANAFUDA_AI_DELAY         the AI's pause before a move, seconds
    HANAFUDA_RACE_SECONDS     how long a First Bloom slap race stays open, seconds

It writes one JSON object per line on stdout: ``{"event": "ready", "guilds": [...], "shards":
[...], "resumed": [...]}`` once connected, and ``{"event": "exit", "drove": [...], "relayed":
N}`` when stopped with SIGTERM (a clean stop: ``HanafudaBot.shutdown``): the games it played
moves of, and the presses it took from the other processes. Logs go to stderr, with the shard and game of each line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys

import discord
import yarl

from bot import eventloop, logcontext
from bot.assembly import assemble
from bot.config import load_settings
from bot.discord_ui.client import HanafudaBot


def emit(event: str, **fields: object) -> None:
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


class ShardBot(HanafudaBot):
    """The production bot, recording which games it drives."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        assert self.tables is not None
        self.tables.ai_delay = float(os.environ.get("HANAFUDA_AI_DELAY", "0.01"))
        if "HANAFUDA_RACE_SECONDS" in os.environ:
            self.tables.race_seconds = float(os.environ["HANAFUDA_RACE_SECONDS"])
        self.resumed = sorted(self.tables.tables)
        self.drove: set[int] = set()
        act = self.tables.act

        async def recorded(table, *args, **kwargs):
            self.drove.add(table.game_id)
            return await act(table, *args, **kwargs)

        self.tables.act = recorded  # type: ignore[method-assign]
        if os.environ.get("HANAFUDA_SYNC") == "1":
            await self.tree.sync()


async def run() -> int:
    discord.http.Route.BASE = os.environ["HANAFUDA_STANDIN_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["HANAFUDA_STANDIN_GATEWAY"])
    settings = load_settings(dotenv=None, require_token=False)  # the stand-in's token
    bot = assemble(settings, ShardBot)
    bot._connection.guild_ready_timeout = 0.05  # the stand-in sends every guild at once
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Future] = []
    loop.add_signal_handler(signal.SIGTERM, lambda: stopping.append(asyncio.ensure_future(bot.shutdown())))

    async def announce_ready() -> None:
        await bot.wait_until_ready()
        emit("ready", guilds=sorted(g.id for g in bot.guilds), shards=sorted(bot.shards),
             resumed=bot.resumed, loop=type(asyncio.get_running_loop()).__module__.split(".")[0])

    async with bot:
        ready = asyncio.create_task(announce_ready())
        try:
            await bot.start(settings.token, reconnect=True)
        finally:
            ready.cancel()
            if stopping:  # the gateway closes first: the stop still closes the pools and the store
                await stopping[0]
            emit("exit", drove=sorted(bot.drove), relayed=bot.relay.played if bot.relay else 0)
    return 0


def main() -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(where)s%(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        logcontext.install(handler)
    return eventloop.run(run())  # the production loop (uvloop where installed)


if __name__ == "__main__":
    raise SystemExit(main())
