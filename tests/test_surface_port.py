"""The Discord table publisher implements the surface port the table manager talks to, method
for method and parameter for parameter (bot.tables.surface)."""

from __future__ import annotations

import inspect

from bot.discord_ui.app import ChannelShows, GuestShows
from bot.discord_ui.guest import GuestSurface
from bot.discord_ui.publisher import TablePublisher
from bot.tables.surface import Surfaces, TableSurface


def port_methods(port: type = TableSurface) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in vars(port).items()
            if inspect.isfunction(member) and not name.startswith("_")}


def test_the_publisher_has_every_method_of_the_port_with_its_parameters():
    methods = port_methods()
    assert set(methods) == {"shows", "owns", "post_table", "deliver_hands", "pressed",
                            "pressed_earlier", "show_move",
                            "show_last_move", "show_end", "refresh", "warn", "post_owed", "let_go"}
    for name, port in methods.items():
        for surface in (TablePublisher, Surfaces):
            assert_same(surface, name, port)


def test_the_discord_surfaces_have_what_the_controls_ask_of_them():
    """The controls reach the surfaces through bot.discord_ui.app's protocols, which name no
    surface class: each class must still offer every method, with the same parameters."""
    assert set(port_methods(ChannelShows)) == {"via_press", "show_hand_via", "render", "where"}
    assert set(port_methods(GuestShows)) == {"table_pressed", "show_hand_privately", "show_ended"}
    for port, surface in ((ChannelShows, TablePublisher), (ChannelShows, GuestSurface),
                          (GuestShows, GuestSurface)):
        for name, signature in port_methods(port).items():
            assert_same(surface, name, signature, port)


def assert_same(surface: type, name: str, port: inspect.Signature, kind: type = TableSurface) -> None:
    implemented = inspect.signature(getattr(surface, name))
    # A static method has no ``self``; what a caller passes is the same.
    assert [p for p in implemented.parameters if p != "self"] == \
        [p for p in port.parameters if p != "self"], name
    for parameter, spec in port.parameters.items():
        if parameter == "self":
            continue
        assert (implemented.parameters[parameter].default is inspect.Parameter.empty) == \
            (spec.default is inspect.Parameter.empty), (name, parameter)
    assert inspect.iscoroutinefunction(getattr(surface, name)) == \
        inspect.iscoroutinefunction(getattr(kind, name)), name


def test_the_manager_narrates_nothing_through_its_surface():
    source = inspect.getsource(__import__("bot.tables", fromlist=["TableManager"]).TableManager)
    calls = {line.split("self.publisher.", 1)[1].split("(", 1)[0]
             for line in source.splitlines() if "self.publisher." in line}
    assert calls <= set(port_methods()), calls - set(port_methods())


class Recorder:
    """A surface that notes each call it gets; it shows the tables of ``games`` and owns the
    handles of its ``name``."""

    def __init__(self, name: str, games: set[int]) -> None:
        self.name, self.games, self.calls = name, games, []

    def shows(self, table):
        return table.game_id in self.games

    def owns(self, via):
        return isinstance(via, tuple) and via[0] == self.name

    def __getattr__(self, method):
        async def posted(table, via=None):
            self.calls.append((method, table.game_id, via))

        def called(table, *args):
            self.calls.append((method, table.game_id, *args))
        return posted if method == "post_table" else called


class Game:
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id


async def test_surfaces_reach_only_those_that_show_the_table_and_a_handle_only_its_owner():
    web, chat = Recorder("web", {1, 2}), Recorder("chat", {2})
    surfaces = Surfaces(web, chat)
    await surfaces.post_table(Game(2), via=("web", "socket"))
    assert web.calls == [("post_table", 2, ("web", "socket"))]
    assert chat.calls == [("post_table", 2, None)]  # posts a message of its own
    surfaces.pressed(Game(2), 0, ("chat", "token"))
    surfaces.show_move(Game(1), [{"kind": "play"}])
    surfaces.warn(Game(2), 1, 5)
    assert web.calls[1:] == [("show_move", 1, [{"kind": "play"}]), ("warn", 2, 1, 5)]
    assert chat.calls[1:] == [("pressed", 2, 0, ("chat", "token")), ("warn", 2, 1, 5)]
    assert not surfaces.shows(Game(3)) and surfaces.owns(("chat", "x")) and not surfaces.owns("x")
    surfaces.let_go(Game(1))  # every surface forgets the table, whether it shows it or not
    assert web.calls[-1] == chat.calls[-1] == ("let_go", 1)
