"""A review a stop cut short, made again at start: a database away is waited out, a game gone
takes it off (the player asks again), and a DM Discord does not take for a passing reason is
tried again under one nonce with its pictures whole."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.discord_ui.parts import png
from bot.store import StoreUnavailable, UnknownGame
from bot.store.reviews import PendingReview
from bot.workers import PoolClosed
from cogs.coach import CoachCog

pytestmark = pytest.mark.asyncio

REQUEST = PendingReview(guild_id=10, game_id=7, user_id=5, language="en", asked_at=0)


def cog_reading(*answers: object, user: object = None) -> CoachCog:
    """A coach whose store answers ``load_game`` with each of ``answers`` in turn (an exception
    is raised), and whose bot knows ``user``."""
    answers_left = list(answers)
    calls: list[int] = []

    async def load_game(game_id, *, scope, with_events):
        calls.append(game_id)
        answer = answers_left.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    bot = SimpleNamespace(store=SimpleNamespace(load_game=load_game), get_user=lambda _id: user)
    cog = CoachCog(bot)
    cog.loads = calls
    return cog


async def test_a_database_away_is_waited_out_and_a_game_gone_takes_the_request_off():
    cog = cog_reading(StoreUnavailable("locked"), UnknownGame("no such game"))
    assert await cog._send_again(REQUEST) is True
    assert cog.loads == [7, 7]


async def test_a_bot_stopping_keeps_the_request_for_the_next_start():
    assert await cog_reading(PoolClosed())._send_again(REQUEST) is False


class DMs:
    """A member's DMs: the first ``failing`` sends fail as a cut connection does."""

    def __init__(self, failing: int) -> None:
        self.failing = failing
        self.sent: list[tuple[str | None, bytes]] = []

    async def send(self, *, files, nonce, **_):
        body = b"".join(f.fp.read() for f in files)
        if self.failing:
            self.failing -= 1
            raise aiohttp.ServerDisconnectedError()
        self.sent.append((nonce, body))


async def test_a_dm_cut_off_is_sent_again_under_one_nonce_with_whole_pictures(monkeypatch):
    dms = DMs(failing=2)
    cog = cog_reading(SimpleNamespace(), user=dms)

    async def made(record, user_id, progress):
        return [], [png(b"review picture", "moment-1.png")]

    pauses: list[float] = []

    async def later(delay):
        pauses.append(delay)

    monkeypatch.setattr(cog, "_made", made)
    cog.retry.sleep = later
    assert await cog._send_again(REQUEST) is True
    [(nonce, body)] = dms.sent
    assert nonce and body == b"review picture" and pauses == [1.0, 2.0]


async def test_a_player_who_takes_no_dms_takes_the_request_off(monkeypatch):
    class Closed(DMs):
        async def send(self, **_):
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "closed DMs")

    cog = cog_reading(SimpleNamespace(), user=Closed(0))

    async def made(record, user_id, progress):
        return [], []

    monkeypatch.setattr(cog, "_made", made)
    assert await cog._send_again(REQUEST) is True
