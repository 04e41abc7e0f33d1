"""Simulated users: they run slash commands, autocomplete, click buttons and pick select options.

Each action sends an INTERACTION_CREATE shaped like Discord's (fresh id and token, `member` in a
guild or `user` in DMs, `app_permissions`, `context`, ...) and waits until the bot acknowledged it
(and, when it deferred with "thinking", until the answer replaced the "thinking" message), then
returns the `InteractionRecord`. Anything the bot does later (followups, edits of other messages)
a test waits for with `StandIn.wait_for` / `StandIn.answered`. `press` only sends the click.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .state import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    EVERYONE_PERMISSIONS,
    Channel,
    InteractionRecord,
    Message,
    Role,
    User,
)

if TYPE_CHECKING:
    from .server import StandIn

INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4

OPTION_SUBCOMMAND = 1
OPTION_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_USER = 6
OPTION_CHANNEL = 7
OPTION_ROLE = 8
OPTION_NUMBER = 10

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def _infer_option_type(value: Any) -> int:
    """Option type for a value when the bot has not synced the command's declaration."""
    # bool before int: bool is an int subclass.
    for cls, kind in (
        (bool, OPTION_BOOLEAN),
        (int, OPTION_INTEGER),
        (float, OPTION_NUMBER),
        (User, OPTION_USER),
        (Channel, OPTION_CHANNEL),
        (Role, OPTION_ROLE),
    ):
        if isinstance(value, cls):
            return kind
    return OPTION_STRING


class _Resolved:
    """Collects the `resolved` block Discord sends for user, channel and role options."""

    def __init__(self, channel: Channel) -> None:
        self.guild = channel.guild
        self.data: dict[str, dict[str, Any]] = {}

    def add(self, value: Any) -> str:
        if isinstance(value, User):
            self.data.setdefault("users", {})[str(value.id)] = value.payload()
            member = self.guild.members.get(value.id) if self.guild else None
            if member is not None:
                self.data.setdefault("members", {})[str(value.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
        elif isinstance(value, Channel):
            self.data.setdefault("channels", {})[str(value.id)] = {
                **value.payload(),
                "permissions": str(EVERYONE_PERMISSIONS),
            }
        elif isinstance(value, Role):
            self.data.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)


@dataclass(eq=False)
class SimUser(User):
    """A human user driven by a test. Obtain with `standin.create_user(name)`."""

    standin: StandIn | None = field(default=None, repr=False)

    def _si(self) -> StandIn:
        assert self.standin is not None, "SimUser is not attached to a stand-in"
        return self.standin

    @property
    def dm_channel(self) -> Channel:
        return self._si().dm_channel(self)

    async def slash(
        self, channel: Channel | None, command: str, *, reply: bool = True, **options: Any
    ) -> InteractionRecord:
        """Run `/command` (use "group sub" for subcommands) in `channel` (None: the bot DM).

        Option values may be str/int/float/bool or stand-in `User`/`Channel`/`Role` objects,
        which are sent as ids with their `resolved` data.
        """
        channel = channel or self.dm_channel
        data = self._command_data(channel, command, options, focused=None)
        return await self._si().run_interaction(
            self, channel, INTERACTION_APPLICATION_COMMAND, data, reply=reply
        )

    async def launch(self, channel: Channel | None) -> InteractionRecord:
        """Open the app's Entry Point command (the Activity launcher) in `channel`."""
        channel = channel or self.dm_channel
        command = next((c for c in self._si().commands.get(None, []) if c.get("type") == 4), None)
        if command is None:
            raise AssertionError("the app synced no Entry Point command")
        data = {"id": str(command["id"]), "name": command["name"], "type": 4}
        return await self._si().run_interaction(
            self, channel, INTERACTION_APPLICATION_COMMAND, data
        )

    async def autocomplete(
        self,
        channel: Channel | None,
        command: str,
        focused: str,
        *,
        reply: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """Type into option `focused` of `/command`; `record.autocomplete_choices` holds the answer."""
        channel = channel or self.dm_channel
        data = self._command_data(channel, command, options, focused=focused)
        return await self._si().run_interaction(
            self, channel, INTERACTION_AUTOCOMPLETE, data, reply=reply
        )

    async def click(
        self, message: Message | Any, custom_id: str, *, reply: bool = True
    ) -> InteractionRecord:
        """Press the button `custom_id` on a message this user can see and wait for the ack."""
        return await self._si().finish_interaction(await self.press(message, custom_id), reply=reply)

    async def press(self, message: Message | Any, custom_id: str) -> InteractionRecord:
        """Press the button `custom_id` and return at once, before the bot answered: presses of
        several users reach the bot in the order of their `press` calls."""
        msg, component = self._component(message, custom_id)
        if component.get("type") != 2:
            raise AssertionError(f"component {custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._si().dispatch_interaction(
            self, msg.channel, INTERACTION_COMPONENT, data, target=msg
        )

    async def press_gone(
        self, message: Message | Any, custom_id: str, component_type: int = 2,
        values: list[str] | None = None,
    ) -> InteractionRecord:
        """Press a control the user's client still showed though the message no longer holds it
        (removed a moment before, or never there): Discord delivers the press with the message as
        it is now. Waits for the acknowledgement, as `click` does."""
        msg = self._si().message(message)
        if not msg.is_visible_to(self):
            raise AssertionError(f"{self.name} cannot see message {msg.id}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 3:
            data["values"] = list(values or [])
        return await self._si().run_interaction(
            self, msg.channel, INTERACTION_COMPONENT, data, target=msg
        )

    async def select(
        self,
        message: Message | Any,
        custom_id: str,
        values: list[str],
        *,
        reply: bool = True,
    ) -> InteractionRecord:
        """Choose `values` in the string select menu `custom_id`."""
        msg, component = self._component(message, custom_id)
        if component.get("type") != 3:
            raise AssertionError(f"component {custom_id!r} is not a string select")
        allowed = {o["value"] for o in component.get("options", [])}
        if not set(values) <= allowed:
            raise AssertionError(
                f"values {values} are not options of {custom_id!r} ({sorted(allowed)})"
            )
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._si().run_interaction(
            self, msg.channel, INTERACTION_COMPONENT, data, target=msg, reply=reply
        )

    async def choose(self, message: Message | Any, custom_id: str, values: list[str]) -> InteractionRecord:
        """Choose `values` in the string select menu `custom_id` and return at once, as `press`
        does for a button."""
        msg, component = self._component(message, custom_id)
        if component.get("type") != 3:
            raise AssertionError(f"component {custom_id!r} is not a string select")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._si().dispatch_interaction(
            self, msg.channel, INTERACTION_COMPONENT, data, target=msg
        )

    def _component(self, message: Message | Any, custom_id: str) -> tuple[Message, dict[str, Any]]:
        msg = self._si().message(message)
        if not msg.is_visible_to(self):
            raise AssertionError(f"{self.name} cannot see message {msg.id}")
        component = msg.find_component(custom_id)
        if component is None:
            raise AssertionError(
                f"message {msg.id} has no component {custom_id!r} (has {msg.custom_ids()})"
            )
        if component.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled")
        return msg, component

    def _command_data(
        self, channel: Channel, command: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        names = command.strip().lstrip("/").split()
        definition = self._si().find_command(names[0], channel.guild)
        declared = definition.get("options", []) if definition else []
        resolved = _Resolved(channel)
        leaf: list[dict[str, Any]] = []
        for name, value in options.items():
            decl = next(
                (o for o in declared_leaf(declared, names[1:]) if o.get("name") == name), None
            )
            kind = decl["type"] if decl else _infer_option_type(value)
            entry: dict[str, Any] = {"name": name, "type": kind}
            entry["value"] = (
                resolved.add(value) if kind in (OPTION_USER, OPTION_CHANNEL, OPTION_ROLE) else value
            )
            if name == focused:
                entry["focused"] = True
                entry["value"] = str(value)
            leaf.append(entry)
        if focused is not None and focused not in options:
            leaf.append({"name": focused, "type": OPTION_STRING, "value": "", "focused": True})
        nested = leaf
        for depth, name in reversed(list(enumerate(names[1:]))):
            kind = OPTION_GROUP if depth == 0 and len(names) == 3 else OPTION_SUBCOMMAND
            nested = [{"name": name, "type": kind, "options": nested}]
        data: dict[str, Any] = {
            "id": str(definition["id"]) if definition else str(self._si().ids.next()),
            "name": names[0],
            "type": 1,
            "options": nested,
        }
        if resolved.data:
            data["resolved"] = resolved.data
        if channel.guild is not None:
            data["guild_id"] = str(channel.guild.id)
        return data


def declared_leaf(options: list[dict[str, Any]], path: list[str]) -> list[dict[str, Any]]:
    """The option declarations of the (sub)command at `path` within a synced command."""
    for name in path:
        options = next((o.get("options", []) for o in options if o.get("name") == name), [])
    return options


def interaction_payload(standin: StandIn, record: InteractionRecord) -> dict[str, Any]:
    """The INTERACTION_CREATE body for `record`, as Discord would send it."""
    channel = record.channel
    guild = channel.guild
    payload: dict[str, Any] = {
        "id": str(record.id),
        "application_id": str(record.application_id),
        "type": record.type,
        "data": record.data,
        "token": record.token,
        "version": 1,
        "channel_id": str(channel.id),
        "locale": record.user.locale,
        "entitlements": [],
        "authorizing_integration_owners": record.integration_owners(),
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "app_permissions": str(record.app_permissions),
        "context": record.context,
    }
    if guild is not None:
        member = guild.members.get(record.user.id)
        if member is None:
            raise AssertionError(f"{record.user.name} is not a member of {guild.name}")
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.locale, "features": []},
            guild_locale=guild.locale,
            member=member.payload(with_permissions=True),
            channel={**channel.payload(), "permissions": str(member.permissions)},
        )
    else:
        assert channel.type in (CHANNEL_DM, CHANNEL_GROUP_DM)
        payload.update(user=record.user.payload(), channel=channel.payload())
    if record.target is not None:
        payload["message"] = record.target.payload(standin.base_url)
    return payload


def new_record(
    standin: StandIn,
    user: User,
    channel: Channel,
    kind: int,
    data: dict[str, Any],
    target: Message | None,
) -> InteractionRecord:
    return InteractionRecord(
        id=standin.ids.next(),
        token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        type=kind,
        application_id=standin.application_id,
        user=user,
        channel=channel,
        data=data,
        created_at=standin.deadline_clock(),
        target=target,
    )
