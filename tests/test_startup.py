"""Starting the bot: a bad token or no way to Discord ends in one sentence and exit code 2.

The bot runs as ``python -m bot`` would, in a child process whose REST base points at a port on
127.0.0.1 where nothing listens (a bound socket that never accepts), so no test reaches a network.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
RUN = ("import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
       "from bot.__main__ import main; raise SystemExit(main(sys.argv[2:]))")


@pytest.fixture
def closed_port():
    """A local port that refuses connections: bound (so nobody else takes it), never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def environment(tmp_path: Path, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(DISCORD_TOKEN=token, DATABASE_PATH=str(tmp_path / "bot.sqlite3"), LOG_LEVEL="INFO",
               PYTHONPATH=str(ROOT), RENDER_WORKERS="1", AI_WORKERS="1")
    return env


def start(tmp_path: Path, token: str, port: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, f"http://127.0.0.1:{port}/api/v10", *args],
                          cwd=tmp_path, env=environment(tmp_path, token), capture_output=True, text=True,
                          check=False)


def errors(stderr: str) -> list[str]:
    """stderr without the timestamped log records the bot writes at INFO level."""
    return [line for line in stderr.splitlines() if line and not line[:4].isdigit()]


def test_a_short_token_is_named_too_short(tmp_path, closed_port):
    run = start(tmp_path, "MTIz.abc.def", closed_port)
    assert run.returncode == 2
    assert errors(run.stderr) == [
        "error: DISCORD_TOKEN is too short to be a bot token (12 characters, where a bot token has "
        "at least 44, usually about 70): copy it again from the Bot page of the Discord developer portal"]


@pytest.mark.parametrize("args", [[], ["sync"]])
def test_no_way_to_discord_is_one_sentence_without_a_traceback(tmp_path, closed_port, args):
    run = start(tmp_path, TOKEN, closed_port, *args)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert errors(run.stderr) == [
        f"error: cannot reach Discord (127.0.0.1:{closed_port}: connection refused); check the "
        "network connection and start the bot again"]
    assert run.stderr.rstrip().splitlines()[-1] == errors(run.stderr)[0]


async def test_a_token_discord_refuses_is_one_sentence(tmp_path):
    """A local server answers the login as Discord does for a revoked token: 401."""
    async def unauthorized(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", unauthorized)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN, f"http://127.0.0.1:{port}/api/v10", cwd=tmp_path,
            env=environment(tmp_path, TOKEN), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await child.communicate()
    finally:
        await runner.cleanup()
    stderr = err.decode()
    assert child.returncode == 2 and "Traceback" not in stderr
    assert errors(stderr) == ["error: Discord refused the token (DISCORD_TOKEN); reset it on the Bot page of "
                              "the developer portal and put the new one in the environment or .env"]


def test_the_voice_library_notices_are_silenced(tmp_path, closed_port):
    run = start(tmp_path, TOKEN, closed_port)
    assert "voice will NOT be supported" not in run.stderr
    assert "PyNaCl" not in run.stderr and "davey" not in run.stderr
    assert "logging in using static token" in run.stderr  # discord.py's other records still pass


def test_the_voice_filter_drops_only_the_voice_notices():
    import logging

    from bot.__main__ import VOICE_NOTICE

    def record(level: int, msg: str) -> logging.LogRecord:
        return logging.LogRecord("discord.client", level, __file__, 1, msg, None, None)

    assert not VOICE_NOTICE.filter(record(logging.WARNING, "PyNaCl is not installed, voice will NOT be supported"))
    assert not VOICE_NOTICE.filter(record(logging.WARNING, "davey is not installed, voice will NOT be supported"))
    assert VOICE_NOTICE.filter(record(logging.WARNING, "Shard ID None has stopped responding"))
    assert VOICE_NOTICE.filter(record(logging.ERROR, "Ignoring exception in on_ready"))
