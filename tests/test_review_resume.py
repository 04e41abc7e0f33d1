"""A review a stop cut short, made again at start: a database away keeps the request for the
next start, a game gone takes it off (the player asks again)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.store import StoreUnavailable, UnknownGame
from bot.store.reviews import PendingReview
from cogs.coach import CoachCog

pytestmark = pytest.mark.asyncio

REQUEST = PendingReview(guild_id=10, game_id=7, user_id=5, language="en", asked_at=0)


def cog_reading(error: Exception) -> CoachCog:
    async def load_game(game_id, *, scope, with_events):
        raise error

    return CoachCog(SimpleNamespace(store=SimpleNamespace(load_game=load_game)))


async def test_a_database_away_keeps_the_request_for_the_next_start():
    assert await cog_reading(StoreUnavailable("the database is away"))._send_again(REQUEST) is False


async def test_a_game_gone_takes_the_request_off():
    assert await cog_reading(UnknownGame("no such game"))._send_again(REQUEST) is True
