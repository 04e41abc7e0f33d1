"""What a hand update builds and sends (its controls, its picture) is freed by reference counting
as soon as it is dropped: left in reference cycles, it would wait for the garbage collector's
full collections, whose pause grows with every such object (issue 49)."""

from __future__ import annotations

import contextlib
import gc
import weakref

import discord

from bot.discord_ui import controls as table_ui
from bot.discord_ui.controls import ActionButton, HandButton
from bot.discord_ui.parts import controls, png


@contextlib.contextmanager
def no_collector():
    """Only reference counting frees objects meanwhile."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


async def test_a_view_of_controls_goes_with_its_last_reference():
    with no_collector():
        view = controls(*(ActionButton(7, 3, f"k{i}", f"Move {i}") for i in range(8)), HandButton(7))
        components = view.to_components()
        gone = weakref.ref(view)
        item = weakref.ref(view.children[0])
        del view
        assert gone() is None and item() is None
    # and what is sent is what it was: every item, in its rows
    again = controls(*(ActionButton(7, 3, f"k{i}", f"Move {i}") for i in range(8)), HandButton(7))
    assert again.to_components() == components
    assert [c["custom_id"] for row in components for c in row["components"]][:2] == \
        ["hf:act:7:3:k0", "hf:act:7:3:k1"]


def test_a_sent_picture_goes_with_its_last_reference():
    with no_collector():
        file = png(b"\x89PNG" + bytes(100_000), "hand.png")
        buffer = weakref.ref(file.fp)
        file.reset(seek=False)
        file.close()  # what discord.py does once the request is over
        assert file.fp.read(4) == b"\x89PNG"  # closing the File leaves the buffer readable
        del file
        assert buffer() is None
    assert isinstance(png(b"x", "a.png"), discord.File)


async def test_the_view_discord_py_builds_for_a_move_press_goes_with_its_last_reference(monkeypatch):
    pressed = []

    async def press_move(interaction, gid, seq, key):
        pressed.append((gid, seq, key))

    monkeypatch.setattr(table_ui, "press_move", press_move)
    with no_collector():
        # as discord.py runs a press: the message's controls in a view, the pressed one swapped
        # for the dynamic item, which points at that view
        view = discord.ui.View(timeout=None)
        for i in range(6):
            view.add_item(discord.ui.Button(label=f"Move {i}", custom_id=f"hf:act:7:3:k{i}"))
        button = ActionButton(7, 3, "k0", "Move 0")
        view.add_item(button)
        gone = weakref.ref(view)
        await button.callback(None)
        del view, button
        assert gone() is None
    assert pressed == [(7, 3, "k0")]
