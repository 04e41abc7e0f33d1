"""A message edit whose connection is cut may have been taken by Discord: the picture it carried
replaced the message's attachment, so the next edit must not keep the old attachment by id
(Discord refuses an unknown attachment, and the hand or table would stay behind for good).
(bot.discord_ui.publisher: what a message shows is forgotten while its edit is on its way.)"""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.discord_ui.feeds import Feed, Shown, Update, _hash
from bot.discord_ui.publisher import TablePublisher

pytestmark = pytest.mark.asyncio

MESSAGE = 7
OLD, NEW = b"the hand before the move", b"the hand after the move"


class Hand:
    """A private hand reached through its press's token; Discord takes every edit, and the
    answer to the first is lost on the way back."""

    def __init__(self) -> None:
        self.edits: list[list] = []
        self.attachment = 1

    async def ready(self) -> bool:
        return True

    async def edit(self, *, attachments, **fields):
        self.edits.append(attachments)
        self.attachment += 1  # Discord keeps a kept attachment, and gives an upload a new id
        if len(self.edits) == 1:
            raise aiohttp.ServerDisconnectedError()
        return SimpleNamespace(id=MESSAGE, attachments=[SimpleNamespace(id=self.attachment)])


def update(feed: Feed, picture: bytes) -> Update:
    return Update(discord.ui.LayoutView(), draw=None, model=picture, filename="hand.png", feed=feed)


async def test_an_edit_cut_on_its_way_keeps_no_attachment_it_may_have_replaced():
    publisher = SimpleNamespace(draw=lambda u: _drawn(u), _updates=SimpleNamespace(release=lambda turn: None))
    feed, hand = Feed(), Hand()
    feed.shown[MESSAGE] = Shown("before", _hash(OLD), SimpleNamespace(id=1))
    with pytest.raises(aiohttp.ServerDisconnectedError):  # Discord took it: its picture is NEW now
        await TablePublisher._apply(publisher, feed, MESSAGE, update(feed, NEW), hand, None)
    # The next state's picture is the old one again: it goes up anew, not as attachment 1.
    assert await TablePublisher._apply(publisher, feed, MESSAGE, update(feed, OLD), hand, None) == MESSAGE
    kept = hand.edits[1][0]
    assert isinstance(kept, discord.File) and kept.fp.read() == OLD
    assert feed.shown[MESSAGE].attachment.id == hand.attachment


async def _drawn(update: Update) -> bytes:
    return update.model
