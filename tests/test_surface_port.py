"""The Discord table publisher implements the surface port the table manager talks to, method
for method and parameter for parameter (bot.surface)."""

from __future__ import annotations

import inspect

from bot.discord_ui.publisher import TablePublisher
from bot.surface import TableSurface


def port_methods() -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in vars(TableSurface).items()
            if inspect.isfunction(member) and not name.startswith("_")}


def test_the_publisher_has_every_method_of_the_port_with_its_parameters():
    methods = port_methods()
    assert set(methods) == {"post_table", "deliver_hands", "pressed", "show_move", "show_end",
                            "refresh", "warn", "post_owed"}
    for name, port in methods.items():
        implemented = inspect.signature(getattr(TablePublisher, name))
        assert list(implemented.parameters) == list(port.parameters), name
        for parameter, spec in port.parameters.items():
            assert (implemented.parameters[parameter].default is inspect.Parameter.empty) == \
                (spec.default is inspect.Parameter.empty), (name, parameter)
        assert inspect.iscoroutinefunction(getattr(TablePublisher, name)) == \
            inspect.iscoroutinefunction(getattr(TableSurface, name)), name


def test_the_manager_narrates_nothing_through_its_surface():
    source = inspect.getsource(__import__("bot.tables", fromlist=["TableManager"]).TableManager)
    calls = {line.split("self.publisher.", 1)[1].split("(", 1)[0]
             for line in source.splitlines() if "self.publisher." in line}
    assert calls <= set(port_methods()), calls - set(port_methods())
