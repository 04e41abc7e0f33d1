"""The bot's event loop: uvloop where installed, asyncio's own on request (EVENT_LOOP)."""

from __future__ import annotations

import asyncio

import pytest

from bot import eventloop
from bot.config import ConfigError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


async def _loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_the_default_is_uvloop_where_it_is_installed():
    assert eventloop.default() == ("uvloop" if eventloop.available("uvloop") else "asyncio")
    assert load_settings({"DISCORD_TOKEN": TOKEN}, dotenv=None).event_loop == eventloop.default()
    assert eventloop.run(_loop_module()) == eventloop.default()


@pytest.mark.parametrize("name", eventloop.LOOPS)
def test_each_loop_runs_to_the_end_and_gives_the_result(name):
    if not eventloop.available(name):
        pytest.skip(f"{name} is not installed here")
    assert load_settings({"DISCORD_TOKEN": TOKEN, "EVENT_LOOP": name.upper()},
                         dotenv=None).event_loop == name
    assert eventloop.run(_loop_module(), loop=name) == name


def test_an_unknown_or_missing_loop_is_refused(monkeypatch):
    with pytest.raises(ValueError, match="unknown event loop"):
        eventloop.factory("trio")
    monkeypatch.setattr(eventloop, "available", lambda name: name == "asyncio")
    with pytest.raises(ConfigError, match="EVENT_LOOP is uvloop, which is not installed"):
        load_settings({"DISCORD_TOKEN": TOKEN, "EVENT_LOOP": "uvloop"}, dotenv=None)
