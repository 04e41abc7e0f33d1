"""The bot process of the load benchmark: the real HanafudaBot, aimed at a local Discord stand-in.

Started by ``bot.bench.load`` as ``python -m bot.bench._loadbot`` in its own process, as in
production. Settings come from the environment:

    HANAFUDA_BENCH_API      discord.py's REST base (http://127.0.0.1:PORT/api/v10)
    HANAFUDA_BENCH_GATEWAY  the gateway URL (ws://127.0.0.1:PORT/gateway)
    HANAFUDA_BENCH_TOKEN    the stand-in's bot token
    HANAFUDA_BENCH_DB       the SQLite file (a temporary one)
    HANAFUDA_BENCH_AI_DELAY optional: the AI's pause before a move, seconds (production: 1.2)
    HANAFUDA_BENCH_LONG_GAMES
                            optional, "1": every table's token counts as expired from the start,
                            so tables are edited as the bot, as in games older than 14 minutes
    HANAFUDA_BENCH_ACTIVITY_PORT, HANAFUDA_BENCH_CLIENT_SECRET
                            optional: the Activity's server on that port (bot.bench.activity)
    WORKER_NICENESS         optional, as in production: the worker processes' CPU priority

It publishes the slash commands once at start, then writes one JSON object per line on stdout:
``{"event": "ready"}`` when connected, ``{"event": "lag", "t": unix time, "max_ms": worst loop
lag of the last interval, "gc": the collector's totals so far, "loop_thread": the loop thread's
CPU and wait for a CPU so far}`` every ``REPORT_SECONDS``,
``{"event": "stall", ...}`` for every stall of the loop over ``STALL_SECONDS`` with what held it
(:mod:`bot.stallwatch`), and ``{"event": "exit", ...}`` with the overall figures when it closes
(on SIGTERM or SIGINT). Logs go to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

import discord
import yarl

from bot import eventloop
from bot.assembly import assemble
from bot.config import DEFAULT_NICENESS, Settings
from bot.discord_ui.client import HanafudaBot
from bot.discord_ui.publisher import INTERACTION_SECONDS, TablePublisher
from bot.loopwatch import LoopWatch
from bot.stallwatch import Stall, StallRecorder
from bot.tables import Table

REPORT_SECONDS = 0.5
STALL_SECONDS = 0.05
_emitting = threading.Lock()  # stalls are emitted from the recorder's thread


def emit(event: str, **fields: object) -> None:
    line = json.dumps({"event": event, **fields}) + "\n"
    with _emitting:
        sys.stdout.write(line)
        sys.stdout.flush()


def emit_stall(stall: Stall) -> None:
    with contextlib.suppress(BrokenPipeError):  # the harness is gone; _report ends the bot
        emit("stall", **stall.describe())


class BenchBot(HanafudaBot):
    """The production bot plus one global command sync, so the stand-in knows the commands, and
    a signal that its own ``on_ready`` work (freezing the heap after a full collection) is over:
    the players start after it, so that one-off collection is not counted as a stall of the run."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.settled = asyncio.Event()

    async def on_ready(self) -> None:
        try:
            await super().on_ready()
        finally:
            self.settled.set()

    async def setup_hook(self) -> None:
        await super().setup_hook()
        delay = os.environ.get("HANAFUDA_BENCH_AI_DELAY")
        if delay and self.tables is not None:
            self.tables.ai_delay = float(delay)
        if os.environ.get("HANAFUDA_BENCH_LONG_GAMES") == "1":
            age_table_tokens(self.publisher)
        await self.tree.sync()


def age_table_tokens(publisher: TablePublisher) -> None:
    """Make each new table's token as old as Discord's limit, as if its game had run that long:
    the publisher then edits the table as the bot. The players' presses keep fresh tokens."""
    post_table = publisher.post_table

    async def aged(table: Table, via: discord.Interaction | None = None) -> None:
        await post_table(table, via)
        kept = publisher.feed(table).table_via
        if kept is not None:
            kept.since -= INTERACTION_SECONDS

    publisher.post_table = aged  # type: ignore[method-assign]


async def _report(bot: BenchBot, watch: LoopWatch, stalls: StallRecorder) -> None:
    while True:
        await asyncio.sleep(REPORT_SECONDS)
        try:
            emit("lag", t=time.time(), max_ms=round(watch.take_window_max() * 1000, 2),
                 **{key: value for key, value in stalls.report(worst=0).items()
                    if key in ("gc", "loop_thread")})
        except BrokenPipeError:  # the harness died without stopping the bot: nobody measures
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bot.close(), 15)
            os._exit(3)  # whatever the close left running (its workers end with this process)


async def run() -> int:
    env = os.environ
    discord.http.Route.BASE = env["HANAFUDA_BENCH_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(env["HANAFUDA_BENCH_GATEWAY"])
    token = env["HANAFUDA_BENCH_TOKEN"]
    # The workers' CPU priority as in production (WORKER_NICENESS), to measure its effect.
    niceness = env.get("WORKER_NICENESS", "").strip()
    activity = env.get("HANAFUDA_BENCH_ACTIVITY_PORT")
    settings = Settings(token=token, database_path=Path(env["HANAFUDA_BENCH_DB"]),
                        worker_niceness=int(niceness) if niceness else DEFAULT_NICENESS,
                        activity_port=int(activity) if activity else None,
                        client_secret=env.get("HANAFUDA_BENCH_CLIENT_SECRET", ""))
    bot = assemble(settings, BenchBot)
    # The stand-in sends every guild at once; discord.py's 2 s wait for more only delays READY.
    bot._connection.guild_ready_timeout = 0.1
    watch = LoopWatch(interval=0.02, threshold=0.05)
    stalls = StallRecorder(STALL_SECONDS, on_stall=emit_stall)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))

    async def announce_ready() -> None:
        await bot.wait_until_ready()
        await bot.settled.wait()
        watch.start()
        stalls.start()
        emit("ready", guilds=len(bot.guilds))

    async with bot:
        tasks = [asyncio.create_task(announce_ready()), asyncio.create_task(_report(bot, watch, stalls))]
        try:
            await bot.start(token, reconnect=True)
        finally:
            for task in tasks:
                task.cancel()
            watch.stop()
            stalls.stop()
            with contextlib.suppress(BrokenPipeError):
                emit("exit", loop_lag_ms_max=round(watch.max_lag * 1000, 2), blocks=watch.blocks,
                     samples=watch.samples)
    return 0


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        return eventloop.run(run())  # the bot's own loop
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
