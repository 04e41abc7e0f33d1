"""``python -m bot`` stops cleanly on SIGTERM and SIGINT (what systemd, Docker and Kubernetes
send): no more presses are taken, the moves under way are stored, what the tables owe Discord is
delivered, the gateway and the database are closed, and the process exits 0 in bounded time.

The bot runs as an operator starts it, in a child process whose REST base and gateway point at
the test's stand-in on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.store import EVERY_SERVER, Store
from tests.e2e.playing import hand_message, move_of, table_posted

ROOT = Path(__file__).resolve().parents[2]
RUN = ("import sys, discord.http, discord.gateway, yarl; discord.http.Route.BASE = sys.argv[1]; "
       "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2]); "
       "from bot.__main__ import main; raise SystemExit(main([]))")
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"  # shaped as Discord's
STOP_SECONDS = 30  # the bot's own grace is 20 s; a clean stop takes far less


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_ends_the_bot_cleanly_with_exit_code_0(standin, world, tmp_path, sig):
    standin.token = TOKEN  # the bot checks a token's shape before it logs in
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD", "DATABASE_"))}
    database = tmp_path / "bot.sqlite3"
    env.update(DISCORD_TOKEN=standin.token, DATABASE_PATH=str(database), LOG_LEVEL="INFO",
               DEV_GUILD_ID=str(world.guild.id), PYTHONPATH=str(ROOT), RENDER_WORKERS="1",
               AI_WORKERS="1")
    log = tmp_path / "bot.log"
    with log.open("w") as err:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN, standin.api_url, standin.gateway_url, cwd=tmp_path, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=err)
    try:
        await standin.wait_for(lambda: standin.find_command("koikoi", world.guild) is not None
                               and standin.gateway.connected,
                               "the commands published to the development server, and connected")
        # a whole match: one round can end at the deal, before a hand is ever sent
        await world.player.slash(world.channel, "koikoi", ai="normal")
        await table_posted(standin, world.channel)
        hand = await standin.wait_for(lambda: hand_message(standin, world.player), "the hand")
        child.send_signal(sig)
        code = await asyncio.wait_for(child.wait(), STOP_SECONDS)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    text = log.read_text()
    assert code == 0, text[-3000:]
    assert "Traceback" not in text, text[-4000:]
    assert "stopping: no more presses" in text and "bot.discord_ui.client: stopped" in text
    assert not standin.gateway.connected  # the gateway was closed, not dropped
    async with await Store.open(database) as store:  # the database was closed cleanly and reopens
        games = await store.list_running_games(EVERY_SERVER)
        assert len(games) == 1 and games[0].last_seq >= (move_of(hand) or 0)
