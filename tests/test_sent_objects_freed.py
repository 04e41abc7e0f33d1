"""What a hand update builds and sends (its controls, its picture) is freed by reference counting
as soon as it is dropped: left in reference cycles, it would wait for the garbage collector's
full collections, whose pause grows with every such object (issue 49)."""

from __future__ import annotations

import contextlib
import gc
import weakref
from unittest.mock import MagicMock

import discord
import pytest

from bot.discord_ui import cog as cog_kit
from bot.discord_ui import controls as table_ui
from bot.discord_ui.controls import ActionButton, HandButton
from bot.discord_ui.parts import controls, png
from bot.discord_ui.publisher import Via
from bot.discord_ui.tokens import Token


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


@pytest.fixture
def pressed(monkeypatch) -> list[tuple[int, int, str]]:
    """The moves pressed, recorded instead of played."""
    moves: list[tuple[int, int, str]] = []

    async def press_move(interaction, gid, seq, key):
        moves.append((gid, seq, key))

    monkeypatch.setattr(table_ui, "press_move", press_move)
    return moves


async def test_the_view_discord_py_builds_for_a_move_press_goes_with_its_last_reference(pressed):
    with no_collector():
        # as discord.py runs a press: the message's controls in a view, the pressed one swapped
        # for the dynamic item, which points at that view
        view = discord.ui.View(timeout=None)
        for i in range(6):
            view.add_item(discord.ui.Button(label=f"Move {i}", custom_id=f"hf:act:7:3:k{i}"))
        button = ActionButton(7, 3, "k0", "Move 0")
        view.add_item(button)
        gone = weakref.ref(view)
        await button.callback(_interaction(901))
        del view, button
        assert gone() is None
    assert pressed == [(7, 3, "k0")]


async def test_the_layout_discord_py_builds_for_a_press_on_a_laid_out_message_goes_too(pressed):
    with no_collector():
        # as discord.py runs a press on a one-message table: a container of text, a picture and
        # rows of buttons, each pointing at its row, each row at the container, all at the view
        row = discord.ui.ActionRow(*(discord.ui.Button(label=f"Move {i}", custom_id=f"hf:act:7:3:k{i}")
                                     for i in range(5)))
        gallery = discord.ui.MediaGallery()
        gallery.add_item(media="attachment://table.png")
        container = discord.ui.Container(discord.ui.TextDisplay("## Koi-Koi"), gallery, row)
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        pressed_item = row.children[0]
        button = ActionButton(7, 3, "k0", "Move 0")
        row._swap_item(pressed_item, button, "hf:act:7:3:k0")
        button._view = view
        del pressed_item
        gone = [weakref.ref(o) for o in (view, container, row, gallery, row.children[1])]
        await button.callback(_interaction(902))
        del view, container, row, gallery, button
        assert [ref() for ref in gone] == [None] * len(gone)
    assert pressed == [(7, 3, "k0")]


async def test_every_control_lets_go_of_the_view_however_its_press_ends(monkeypatch):
    async def fails(interaction, gid, seq, key):
        raise RuntimeError("the press failed")

    answered: list[str] = []

    async def answer(interaction, error):  # keeps no traceback: its frames hold the view
        answered.append(type(error).__name__)

    monkeypatch.setattr(table_ui, "press_move", fails)
    monkeypatch.setattr(cog_kit, "reply_error", answer)
    assert all(issubclass(control, table_ui.Forgets) for control in table_ui.CONTROLS)
    with no_collector():
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Other", custom_id="hf:act:7:3:k1"))
        button = ActionButton(7, 3, "k0", "Move 0")
        view.add_item(button)
        gone = weakref.ref(view)
        await button.callback(_interaction(903))
        del view, button
        assert gone() is None
    assert answered == ["RuntimeError"]  # the failure answered, in one line, not swallowed


def _interaction(ident: int) -> discord.Interaction:
    """A real discord.py interaction of a button press (its state is a stand-in: nothing is sent)."""
    state = MagicMock()
    state._get_guild.return_value = None
    state.store_user = lambda data, cache=True: discord.User(state=state, data=data)
    data = {"id": str(ident), "type": 3, "application_id": "2", "token": "tok", "version": 1,
            "attachment_size_limit": 1000, "data": {"custom_id": "hf:act:7:3:k0", "component_type": 2},
            "user": {"id": "5", "username": "alice", "discriminator": "0", "avatar": None},
            "channel_id": "9", "app_permissions": "0", "entitlements": [],
            "authorizing_integration_owners": {}, "context": 1}
    return discord.Interaction(data=data, state=state)


def _alive(ident: int) -> bool:
    return any(type(o) is discord.Interaction and o.id == ident for o in gc.get_objects())


def _reachable(root: object, shared: object) -> list[object]:
    """Every object reachable from ``root`` without passing through ``shared``."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is shared or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


async def test_a_press_interaction_goes_once_its_callback_is_done_though_its_token_stays(monkeypatch):
    kept: dict[str, Via] = {}

    async def press_move(interaction, gid, seq, key):
        _ = interaction.response  # answered through it, which ties it to its response
        kept["hand"] = Via(Token(interaction), None)  # the token the publisher keeps for the hand

    monkeypatch.setattr(table_ui, "press_move", press_move)
    with no_collector():
        interaction = _interaction(101)
        interaction.message = pressed = weakref.WeakSet()  # stands for the pressed hand as read
        gone = weakref.ref(pressed)
        del pressed
        await ActionButton(7, 3, "k0", "Move 0").callback(interaction)
        del interaction
        assert gone() is None  # the pressed message, read while the press was handled, went
        assert not _alive(101)  # and the interaction, though its token still edits the hand
    token = kept["hand"].token
    assert (token.id, token.user_id, token.public) == (101, 5, True)
    assert (token.followup.id, token.followup.token) == (2, "tok")


def test_a_kept_token_holds_nothing_of_the_press():
    interaction = _interaction(104)
    state = interaction._state
    via = Via(Token(interaction), 77)
    held = {type(o) for o in _reachable(via, state)}
    assert not held & {discord.Interaction, discord.User, discord.Member, discord.InteractionResponse}
    assert not any(o is interaction.data for o in _reachable(via, state))


async def test_a_token_made_of_a_command_leaves_it_answerable():
    # no control handled this interaction (a command): its handler's end is unknown, so it is
    # never untied, whatever tokens of it come and go
    with no_collector():
        interaction = _interaction(103)
        response = interaction.response
        via = Via(Token(interaction), None)
        del via
        assert interaction.response is response
