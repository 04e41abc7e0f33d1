"""The stand-in's registry of entities, and the questions tests ask about it.

Creation helpers announce late additions over the gateway (`_emit`), so a test may add a channel
or member after the bot connected and discord.py's cache still learns of it.
"""

from __future__ import annotations

import copy
from typing import Any

from .state import (
    ADMINISTRATOR,
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    CHANNEL_TEXT,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    EVERYONE_PERMISSIONS,
    USE_EXTERNAL_APPS,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    Message,
    Role,
    Snowflakes,
    User,
    Violation,
    as_permissions,
    number_components,
)

BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13)  # + manage_messages, like a typical bot invite
# What an app may do where it is not a member: embed links, attach files, external emojis.
GUEST_APP_PERMISSIONS = (1 << 14) | (1 << 15) | (1 << 18)


def snowflake_of(obj: Any) -> int:
    """Accept stand-in objects, discord.py objects (anything with `.id`) or raw ids."""
    return int(getattr(obj, "id", obj))


class Messages(dict):
    """Every message by id, also listed by channel and by the user a DM or an ephemeral is
    for: a test that looks at a channel or a player's messages after every request (the crash
    test does, over thousands of messages) reads only those, not every message made so far."""

    def __init__(self) -> None:
        super().__init__()
        self.in_channel: dict[int, list[Message]] = {}
        self.to_user: dict[int, list[Message]] = {}

    def __setitem__(self, key: int, message: Message) -> None:
        if key not in self:
            self.in_channel.setdefault(message.channel.id, []).append(message)
            for user in {message.ephemeral_for, message.channel.recipient} - {None}:
                self.to_user.setdefault(user.id, []).append(message)
        super().__setitem__(key, message)


class World:
    """Users, guilds, channels, messages and interactions, plus recorded violations."""

    def __init__(
        self, *, bot_name: str = "Hanafuda Test Bot", token: str = "standin.bot.token"
    ) -> None:
        self.ids = Snowflakes()
        # The shards the bot is told to run (GET /gateway/bot); a session that identifies with
        # a shard gets only the guilds Discord's formula puts there, direct messages on shard 0.
        self.shard_count = 1
        self.application_id = self.ids.next()
        self.token = token
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: Messages = Messages()
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.refused_dms: list[Message] = []
        # (guild id, command name) -> users a server allowed in its Integrations settings
        self.command_overrides: dict[tuple[int, str], set[int]] = {}
        self.user_installs: set[int] = set()  # users who added the app to their account
        self.foreign_guilds: dict[int, Guild] = {}  # servers that never added the bot

    # -- gateway hook -------------------------------------------------------------------------

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        """Overridden by the server to push an event to connected bots."""

    # -- creating things ----------------------------------------------------------------------

    def _new_user(self, name: str, *, refuses_dms: bool) -> User:
        return User(self.ids.next(), name, refuses_dms=refuses_dms)

    def create_user(self, name: str, *, refuses_dms: bool = False) -> User:
        """A human user; `refuses_dms=True` makes DMs to them fail with 50007 like Discord."""
        user = self._new_user(name, refuses_dms=refuses_dms)
        self.users[user.id] = user
        return user

    def _id_on(self, shard: int | None) -> int:
        return self.ids.next() if shard is None else self.ids.on_shard(shard, self.shard_count)

    def create_guild(
        self, name: str, *, owner: User | None = None, bot_permissions: Any = BOT_PERMISSIONS,
        shard: int | None = None, with_bot: bool = True, system_channel: str | None = None,
        locale: str = "en-US", joins: bool = False, everyone_permissions: int = EVERYONE_PERMISSIONS,
    ) -> Guild:
        """A guild the bot is in, with the bot holding a managed role of `bot_permissions`;
        with `shard`, an id that Discord's formula puts on that shard of `shard_count`. With
        `with_bot=False`, a server that never added the bot: its members reach the app only
        through their own installs, and the bot hears nothing of it. `system_channel` names a
        text channel made with the guild as its system channel (where Discord greets new
        members); `locale` is the server's language. With `joins=True` the server adds the bot
        now (GUILD_CREATE without ``unavailable``: discord.py's ``on_guild_join``), not one the
        bot was already in coming into view. `everyone_permissions`: what every member may do
        (the bot's role adds `bot_permissions`)."""
        gid = self._id_on(shard)
        everyone = Role(gid, "@everyone", as_permissions(everyone_permissions))
        guild = Guild(
            gid, name, owner_id=owner.id if owner else self.bot_user.id, everyone=everyone,
            locale=locale,
        )
        if system_channel is not None:  # there before the bot hears of the guild
            channel = Channel(self.ids.next(), CHANNEL_TEXT, name=system_channel, guild=guild, position=0)
            guild.channels.append(channel)
            self.channels[channel.id] = channel
            guild.system_channel_id = channel.id
        if not with_bot:
            self.foreign_guilds[gid] = guild
            if owner is not None:
                guild.members[owner.id] = Member(owner, guild)
            return guild
        self.guilds[gid] = guild
        bot_role = Role(
            self.ids.next(),
            self.bot_user.name,
            as_permissions(bot_permissions),
            position=1,
            managed=True,
        )
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild, [bot_role])
        if owner is not None:
            guild.members[owner.id] = Member(owner, guild)
        payload = guild.payload()
        if joins:
            payload.pop("unavailable", None)
        self._emit("GUILD_CREATE", payload)
        return guild

    def remove_bot(self, guild: Guild) -> None:
        """The server removes the bot (kicks it): GUILD_DELETE without ``unavailable``, and the
        bot can no longer reach its channels (403 Missing Access)."""
        self.guilds.pop(guild.id, None)
        self._emit("GUILD_DELETE", {"id": str(guild.id)})

    def add_bot_back(self, guild: Guild) -> None:
        """The server adds the bot again: a fresh GUILD_CREATE (discord.py: ``on_guild_join``)."""
        self.guilds[guild.id] = guild
        payload = guild.payload()
        payload.pop("unavailable", None)  # a server joined, not one coming back from an outage
        self._emit("GUILD_CREATE", payload)

    def create_channel(self, guild: Guild, name: str, *, shard: int | None = None) -> Channel:
        """A text channel; with `shard`, an id Discord's formula would put on that shard of
        `shard_count` were it a guild's (a guest place keeps its games under its channel's id)."""
        channel = Channel(
            self._id_on(shard), CHANNEL_TEXT, name=name, guild=guild, position=len(guild.channels)
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if guild.id in self.guilds:
            self._emit("CHANNEL_CREATE", channel.payload())
        return channel

    def create_group_dm(self, name: str, owner: User, *others: User, shard: int | None = None) -> Channel:
        """A group DM of `owner` and `others`; a bot is never one of its members. `shard` as
        for :meth:`create_channel`."""
        channel = Channel(self._id_on(shard), CHANNEL_GROUP_DM, name=name,
                          recipients=[owner, *others], owner_id=owner.id)
        self.channels[channel.id] = channel
        return channel

    def install_for(self, user: User) -> None:
        """`user` adds the app to their account: the commands that allow user installs follow
        them into DMs, group DMs and servers that never added the bot."""
        self.user_installs.add(user.id)

    def is_member_in(self, channel: Channel) -> bool:
        """Whether the bot is a member where `channel` is (it may post and edit there)."""
        if channel.guild is not None:
            return channel.guild.id in self.guilds
        return channel.type == CHANNEL_DM

    @staticmethod
    def context_of(channel: Channel) -> int:
        if channel.guild is not None:
            return CONTEXT_GUILD
        return CONTEXT_BOT_DM if channel.type == CHANNEL_DM else CONTEXT_PRIVATE_CHANNEL

    def installs_for(self, user: User, channel: Channel, command: dict[str, Any]) -> dict[str, str]:
        """The installs through which `user` can run `command` in `channel`, as Discord's
        `authorizing_integration_owners` (empty: the command is not offered there)."""
        contexts = command.get("contexts")
        if contexts is not None and self.context_of(channel) not in contexts:
            return {}
        types = command.get("integration_types") or [0]
        owners: dict[str, str] = {}
        if 0 in types and (channel.type == CHANNEL_DM or self.is_member_in(channel)):
            owners["0"] = str(channel.guild.id) if channel.guild is not None else "0"
        if 1 in types and user.id in self.user_installs:
            owners["1"] = str(user.id)
        return owners

    def app_permissions_in(self, channel: Channel) -> int:
        """What the app may do in `channel`: a member's role permissions, else a guest's, with
        Use External Apps where public answers are allowed."""
        if channel.guild is not None and channel.guild.id in self.guilds:
            return channel.guild.members[self.bot_user.id].permissions
        if channel.type == CHANNEL_DM:
            return EVERYONE_PERMISSIONS
        return GUEST_APP_PERMISSIONS | (USE_EXTERNAL_APPS if channel.external_apps else 0)

    def add_member(
        self, guild: Guild, user: User, *, permissions: Any = 0, nick: str | None = None
    ) -> Member:
        """Make `user` a member; extra `permissions` (e.g. manage_guild) come from a role of their own."""
        roles = []
        extra = as_permissions(permissions)
        if extra:
            role = Role(self.ids.next(), f"{user.name}-role", extra, position=1)
            guild.roles.append(role)
            self._emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
            roles.append(role)
        member = Member(user, guild, roles, nick=nick)
        guild.members[user.id] = member
        if guild.id in self.guilds:
            self._emit("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        """`user` leaves `guild` (or is kicked): they can no longer use its channels or commands.
        A bot without the members intent (as this one) is not told."""
        guild.members.pop(user.id, None)

    def bot_message(self, channel: Channel, components: list[dict[str, Any]],
                    content: str = "") -> Message:
        """A message the bot posted before this test's client ran (by an earlier version, say),
        holding `components` (action rows) as Discord keeps them."""
        message = Message(self.ids.next(), channel, self.bot_user, content=content,
                          components=number_components(components))
        self.messages[message.id] = message
        return message

    def create_role(self, guild: Guild, name: str, *, permissions: Any = 0) -> Role:
        """A plain role of `guild` (give it to members with `give_role`)."""
        role = Role(self.ids.next(), name, as_permissions(permissions), position=1)
        guild.roles.append(role)
        self._emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def give_role(self, guild: Guild, user: User, role: Role) -> Member:
        member = guild.members[user.id]
        if role not in member.roles:
            member.roles.append(role)
        self._emit("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def permit_command(self, guild: Guild, command: str, user: User) -> None:
        """Let `user` use `/command` whatever its default_member_permissions, as a server can
        in Server Settings > Integrations (so the bot's own run-time check is what stops them)."""
        self.command_overrides.setdefault((guild.id, command), set()).add(user.id)

    def can_use_command(self, user: User, guild: Guild, command: dict[str, Any]) -> bool:
        """Whether Discord shows `command` to `user` in `guild`: default_member_permissions
        (null: everyone, "0": administrators only), unless the server overrode it."""
        if user.id in self.command_overrides.get((guild.id, command["name"]), set()):
            return True
        required = command.get("default_member_permissions")
        if required is None:
            return True
        member = guild.members.get(user.id)
        if member is None:
            return False
        have = member.permissions
        if have & ADMINISTRATOR:
            return True
        need = int(required)
        return need != 0 and have & need == need

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (created once, like Discord)."""
        for channel in self.channels.values():
            if channel.type == CHANNEL_DM and channel.recipient is user:
                return channel
        channel = Channel(self.ids.next(), CHANNEL_DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    # -- queries ------------------------------------------------------------------------------

    def user(self, user: Any) -> User:
        return self.users[snowflake_of(user)]

    def message(self, message: Any) -> Message:
        return self.messages[snowflake_of(message)]

    def _live(self, messages: list[Message] | Any) -> list[Message]:
        return sorted((m for m in messages if not m.deleted), key=lambda m: m.id)

    def channel_messages(
        self, channel: Any, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in a channel as everyone sees them (ephemerals only when asked for)."""
        cid = snowflake_of(channel)
        found = [
            m
            for m in self.messages.in_channel.get(cid, ())
            if m.channel.id == cid
            and (include_deleted or not m.deleted)
            and (include_ephemeral or m.ephemeral_for is None)
        ]
        return sorted(found, key=lambda m: m.id)

    def deleted_messages(self, channel: Any | None = None) -> list[Message]:
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.deleted and (channel is None or m.channel.id == snowflake_of(channel))
            ),
            key=lambda m: m.id,
        )

    def dms(self, user: Any) -> list[Message]:
        """Messages in the bot's DM channel with `user`."""
        uid = snowflake_of(user)
        return self._live(
            m
            for m in self.messages.to_user.get(uid, ())
            if m.channel.type == CHANNEL_DM
            and m.channel.recipient
            and m.channel.recipient.id == uid
        )

    def ephemerals(self, user: Any) -> list[Message]:
        """Ephemeral interaction replies only `user` can see."""
        uid = snowflake_of(user)
        return self._live(
            m
            for m in self.messages.to_user.get(uid, ())
            if m.ephemeral_for is not None and m.ephemeral_for.id == uid
        )

    def visible_to(self, user: Any, channel: Any | None = None) -> list[Message]:
        """Everything `user` would see (guild channels they are in, their DMs and ephemerals)."""
        who = self.user(user)
        found = (
            m
            for m in self.messages.values()
            if m.is_visible_to(who) and (channel is None or m.channel.id == snowflake_of(channel))
        )
        return self._live(found)

    def last_message(self, channel: Any) -> Message | None:
        found = self.channel_messages(channel)
        return found[-1] if found else None

    def registered_commands(self, guild: Any | None = None) -> list[dict[str, Any]]:
        """Application commands the bot synced (global, or for one guild)."""
        key = None if guild is None else snowflake_of(guild)
        return copy.deepcopy(self.commands.get(key, []))

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return recorded violations (of one kind), for tests that provoke them."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def assert_no_violations(self) -> None:
        if self.violations:
            lines = "\n".join(f"  {v}" for v in self.violations)
            raise AssertionError(
                f"the bot did {len(self.violations)} thing(s) Discord would refuse:\n{lines}"
            )
