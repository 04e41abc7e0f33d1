"""One-message layouts (Discord's Components V2): a picture, its words and its controls in one
container, so a channel shows one message per table and a player one message per hand.

A :class:`Card` is written like an embed (a title, a description, fields, a footer, a picture)
and laid out by :func:`layout` as a stopped :class:`discord.ui.LayoutView`; code that fills
embeds (:func:`bot.discord_ui.fair.add_deal`) fills a card the same way. A card keeps within
Discord's limits for such a message: 40 components in all, 4000 characters of text, and
whoever reads it with a screen reader hears the picture described.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui.text import FIELD_NAME, FIELD_VALUE, TITLE, clip

COMPONENTS = 40
"""Components Discord allows in one message, counting every nested one."""
TEXT = 4000
"""Characters Discord allows across all the text displays of one message."""
ALT = 1024
"""Characters of a picture's description (its alternative text)."""
ROW = 5
"""Buttons in one action row."""
ROWS = 5
"""Action rows a card lays out: with 5 buttons each, the 25 moves a hand can offer at most."""


@dataclass
class Field:
    name: str
    value: str
    inline: bool = True


@dataclass
class Card:
    """What one message shows, before it is laid out (see the module's docstring)."""

    title: str = ""
    description: str = ""
    colour: discord.Colour | None = None
    fields: list[Field] = field(default_factory=list)
    footer: str = ""
    image: str = ""  # an attachment's file name, shown in a media gallery
    alt: str = ""  # the picture in words

    # The parts of discord.Embed's interface that code filling either one uses.
    def add_field(self, *, name: str, value: str, inline: bool = True) -> Card:
        self.fields.append(Field(name, value, inline))
        return self

    def set_footer(self, *, text: str) -> Card:
        self.footer = text
        return self

    def texts(self) -> list[str]:
        """The card's text displays, in order, within :data:`TEXT` characters together: the
        heading and description, the fields (consecutive inline fields share a line, the others
        are headed sections), the
        footer in small print. The description gives way first, then the last fields."""
        heading = f"## {clip(self.title, TITLE)}" if self.title else ""
        lines: list[str] = []
        inline: list[str] = []
        for f in self.fields:
            name, value = clip(f.name, FIELD_NAME), clip(f.value, FIELD_VALUE)
            if f.inline:
                inline.append(f"**{name}** {value}")
                continue
            if inline:
                lines.append(" · ".join(inline))
                inline = []
            lines.append(f"### {name}\n{value}")
        if inline:
            lines.append(" · ".join(inline))
        footer = "\n".join(f"-# {line}" for line in self.footer.splitlines() if line.strip())
        description = self.description
        fixed = len(heading) + len(footer) + 2
        while lines and fixed + len("\n".join(lines)) > TEXT:
            lines.pop()
        room = TEXT - fixed - len("\n".join(lines)) - 1
        if len(description) > room:
            description = clip(description, max(room, 0))
        top = "\n".join(part for part in (heading, description) if part)
        return [part for part in (top, "\n".join(lines), footer) if part]


def layout(card: Card, items: Sequence[discord.ui.Item[Any]] = ()) -> discord.ui.LayoutView:
    """The card and its controls as one container, to be sent and forgotten.

    Buttons go five to a row in the order given (a button's ``row``, when set, starts a new row
    where it changes); each menu takes a row of its own. Like :func:`bot.discord_ui.parts.controls`,
    the view is stopped and its items let go of it and of each other once laid out: presses are
    routed by custom id, and a view whose items point back at it would be a cycle for the garbage
    collector's full collections."""
    texts = card.texts()
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(texts[0])] if texts else []
    if card.image:
        gallery = discord.ui.MediaGallery()
        gallery.add_item(media=f"attachment://{card.image}",
                         description=clip(card.alt, ALT) if card.alt else None)
        children.append(gallery)
    children += [discord.ui.TextDisplay(text) for text in texts[1:]]
    children += action_rows(items)
    container = discord.ui.Container(*children, accent_colour=card.colour)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()
    for item in [container, *container.walk_children()]:
        item._view = None
        item._parent = None
    return view


def action_rows(items: Iterable[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow]:
    rows: list[discord.ui.ActionRow] = []
    current: discord.ui.ActionRow | None = None
    last_row: int | None = None
    for item in items:
        wide = isinstance(item, discord.ui.Select) or isinstance(getattr(item, "item", None), discord.ui.Select)
        row = getattr(item, "row", None)
        if wide or current is None or len(current.children) >= ROW or (row is not None and row != last_row):
            current = discord.ui.ActionRow()
            rows.append(current)
        last_row = row
        item.row = None  # a layout's rows are its action rows
        current.add_item(item)
        if wide:
            current = None
    if len(rows) > ROWS:
        raise ValueError(f"{len(rows)} rows of controls; a card lays out at most {ROWS}")
    return rows


def text_of(components: Iterable[dict[str, Any]]) -> str:
    """The words of a laid-out message's components (its text displays and picture
    descriptions), in order: what a screen reader reads of it."""
    out: list[str] = []
    for comp in components:
        if comp.get("type") == discord.ComponentType.text_display.value:
            out.append(comp.get("content") or "")
        for item in comp.get("items") or ():
            if item.get("description"):
                out.append(item["description"])
        out.append(text_of(comp.get("components") or ()))
    return "\n".join(part for part in out if part)


def components_of(message: discord.Message) -> Iterator[discord.Component]:
    """Every component a message holds, however deeply laid out (rows, containers, sections)."""
    found = list(message.components)
    while found:
        component = found.pop()
        found += getattr(component, "children", None) or []
        if (accessory := getattr(component, "accessory", None)) is not None:
            found.append(accessory)
        yield component
