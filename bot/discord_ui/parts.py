"""The pieces every message of the bot is made of: its colour, pictures to upload, and views of
controls that are sent and forgotten.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.i18n import t
from bot.words import shorten

ACCENT = discord.Colour.from_rgb(196, 48, 43)


BUTTON_LABEL = 80  # Discord's limits, in characters


OPTION_LABEL = 100


PLACEHOLDER = 150


def button_label(text: str) -> str:
    """A button's label within Discord's limit, shortened at a word (never cut mid-word)."""
    return shorten(text, BUTTON_LABEL)


class PngFile(discord.File):
    """An image to upload that is freed as soon as it is sent.

    While sending, discord.py stubs the buffer's ``close`` and afterwards puts the buffer's own
    bound method back on it: buffer -> method -> buffer, a cycle that only a full collection
    of the garbage collector frees, holding the picture's bytes until then and adding to that
    collection's pause. Taking the method off again ends the cycle (``close`` is the class's)."""

    __slots__ = ()

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)


def png(data: bytes, name: str) -> discord.File:
    return PngFile(io.BytesIO(data), filename=name)


def controls(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of dynamic items, to be sent and forgotten.

    discord.py routes presses on dynamic items by their custom id alone, so a message's view
    needs no listening copy in the client's view store. Stopped before it is sent, the view is
    only serialized: no registration per edit, and one fewer object graph held per message.
    Nor do its items point back at it (a press builds its own item from the custom id): a view
    and its items pointing at each other are a cycle, left to the garbage collector's full
    collections, which every hand update would otherwise feed with a few dozen objects.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    for item in view.children:
        item._update_view(None)  # what discord.py's own clear_items does to a removed item
    return view


def rematch_face(game_id: int) -> discord.ui.Button:
    """The Rematch button of a finished match's final table: drawn by the table's surface, its
    presses handled by the rematch extension, which matches the same custom id."""
    return discord.ui.Button(label=t("Rematch"), emoji="🔁", style=discord.ButtonStyle.success,
                             custom_id=f"hf:rematch:{game_id}")


def share_face(game_id: int) -> discord.ui.Button:
    """Share on the final table of a game of the deal of the day: drawn by the table's surface,
    its presses handled by the deal of the day's extension, which matches the same custom id."""
    return discord.ui.Button(label=t("Share my result"), emoji="📣", style=discord.ButtonStyle.primary,
                             custom_id=f"hf:dshare:{game_id}")


BOT_PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                      attach_files=True, read_message_history=True)
"""What the bot needs where it plays (117760): see the channel, post and edit its tables (embeds,
pictures) and read back the messages it answers on."""


def install_links(application_id: int) -> discord.ui.View:
    """Link buttons that add the app: to a server (the bot, with :data:`BOT_PERMISSIONS`) or to
    the presser's own account (a user install: their DMs, group DMs and any server)."""
    server = discord.utils.oauth_url(application_id, permissions=BOT_PERMISSIONS,
                                     scopes=("bot", "applications.commands"))
    mine = (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            "&integration_type=1&scope=applications.commands")
    return controls(
        discord.ui.Button(style=discord.ButtonStyle.link, url=server,
                          label=button_label(t("Add to a server"))),
        discord.ui.Button(style=discord.ButtonStyle.link, url=mine,
                          label=button_label(t("Add to my apps"))))
