"""What the stand-in Discord knows: users, guilds, channels, messages and interactions.

Everything is kept as Python objects and rendered to Discord's JSON shapes on demand, so tests can
ask what a given user would see (`World.visible_to`) instead of inspecting raw requests.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from .layouts import MESSAGE_FLAG_COMPONENTS_V2, resolved

DISCORD_EPOCH_MS = 1420070400000

# Permission bits used by the defaults below (Discord's documented values).
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add_reactions
    | (1 << 10)  # view_channel
    | (1 << 11)  # send_messages
    | (1 << 14)  # embed_links
    | (1 << 15)  # attach_files
    | (1 << 16)  # read_message_history
    | (1 << 18)  # use_external_emojis
    | (1 << 31)  # use_application_commands
    | (1 << 38)  # send_messages_in_threads
)

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7

CHANNEL_TEXT = 0
CHANNEL_DM = 1
CHANNEL_GROUP_DM = 3

USE_EXTERNAL_APPS = 1 << 50  # members may use apps the server never installed (user installs)

# Where an interaction comes from (Discord's interaction context types).
CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1
CONTEXT_PRIVATE_CHANNEL = 2


def as_permissions(value: Any) -> int:
    """Accept an int or anything with `.value` (e.g. `discord.Permissions`)."""
    return int(getattr(value, "value", value) or 0)


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).isoformat()


class Snowflakes:
    """Monotonic snowflakes with a real timestamp, as discord.py derives `created_at` from them."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard: int, shard_count: int) -> int:
        """The next snowflake that Discord's formula for a guild puts on ``shard``: its
        timestamp moved forward to the next millisecond with ``ms % shard_count == shard``."""
        ms = (self.next() >> 22) + 1
        ms += (shard - ms) % shard_count
        self._last = ms << 22
        return self._last


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    refuses_dms: bool = False
    locale: str = "en-US"  # the language of their Discord client, sent with each interaction

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild: Guild | None = None
    recipient: User | None = None
    position: int = 0
    recipients: list[User] = field(default_factory=list)  # a group DM's members
    owner_id: int | None = None
    # Whether members may use external (user-installed) apps here: a server can turn it off.
    external_apps: bool = True

    def payload(self) -> dict[str, Any]:
        if self.type == CHANNEL_GROUP_DM:
            return {
                "id": str(self.id),
                "type": CHANNEL_GROUP_DM,
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id),
                "recipients": [u.payload() for u in self.recipients],
                "last_message_id": None,
                "flags": 0,
            }
        if self.type == CHANNEL_DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        data = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        return data


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = field(default_factory=time.time)

    @property
    def permissions(self) -> int:
        """Guild-level permissions as Discord computes them (no channel overwrites are modelled)."""
        if self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"  # the server's language (its "preferred_locale", "guild_locale")
    system_channel_id: int | None = None  # where Discord greets new members

    def payload(self) -> dict[str, Any]:
        """A full GUILD_CREATE: discord.py builds its cache (and permission checks) from this."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "system_channel_id": str(self.system_channel_id) if self.system_channel_id else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [self.everyone.payload()] + [r.payload() for r in self.roles],
            "channels": [
                {k: v for k, v in c.payload().items() if k != "guild_id"} for c in self.channels
            ],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso(time.time()),
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.content_type:
            data["content_type"] = self.content_type
        return data


@dataclass
class Revision:
    """One earlier state of an edited message."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[str]
    flags: int
    at: float


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    nonce: str | None = None
    ephemeral_for: User | None = None
    interaction: InteractionRecord | None = None
    history: list[Revision] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment file names mapped to their bytes."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def laid_out(self) -> bool:
        """Sent as one container of components (Components V2), not content and embeds."""
        return bool(self.flags & MESSAGE_FLAG_COMPONENTS_V2)

    def text(self) -> str:
        """Everything the message says in words, whichever way it is made: its content, its
        embeds' titles, descriptions, fields and footers, its text displays and the
        descriptions of its pictures."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        for comp in walk_components(self.components):
            parts.append(comp.get("content") or "")
            parts += [item.get("description") or "" for item in comp.get("items") or []]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next(
            (c for c in walk_components(self.components) if c.get("custom_id") == custom_id), None
        )

    def is_visible_to(self, user: User) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_for is not None:
            return self.ephemeral_for is user
        if self.channel.type == CHANNEL_DM:
            return self.channel.recipient is user
        if self.channel.type == CHANNEL_GROUP_DM:
            return user in self.channel.recipients
        guild = self.channel.guild
        return guild is not None and user.id in guild.members

    def remember_revision(self) -> None:
        self.history.append(
            Revision(
                content=self.content,
                embeds=copy.deepcopy(self.embeds),
                components=copy.deepcopy(self.components),
                attachments=[a.filename for a in self.attachments],
                flags=self.flags,
                at=self.edited_at or self.created_at,
            )
        )

    def payload(self, base_url: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base_url, self.channel.id) for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": resolved(
                self.components,
                {a.filename: a.payload(base_url, self.channel.id) for a in self.attachments},
            ),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.interaction is not None:
            inter = self.interaction
            data["webhook_id"] = str(inter.application_id)
            data["application_id"] = str(inter.application_id)
            data["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.integration_owners(),
            }
        return data


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """All components, depth first (rows, containers and sections nest others)."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(walk_components(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            out.extend(walk_components([comp["accessory"]]))
    return out


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give components Discord's numeric `id`s where the bot left them out, as Discord does."""
    components = copy.deepcopy(components)
    counter = itertools.count(1)
    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    for comp in walk_components(components):
        if not isinstance(comp.get("id"), int):
            comp["id"] = next(n for n in counter if n not in used)
    return components


@dataclass
class InitialResponse:
    """The bot's one allowed callback for an interaction."""

    type: int
    body: dict[str, Any]
    at: float
    message: Message | None = None


@dataclass(eq=False)
class InteractionRecord:
    """One interaction a simulated user triggered, and everything the bot answered to it.

    `initial` is the callback (or None if the bot never acked), `original` the message the
    callback created or updated, `followups` the webhook messages sent with the token.
    """

    id: int
    token: str
    type: int
    application_id: int
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    target: Message | None = None
    initial: InitialResponse | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    late_callbacks: int = 0
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    # Where it came from and through which installs (set when it is sent): a place the app is
    # not a member of only lets it answer, within the limits Discord sets there.
    context: int = CONTEXT_GUILD
    owners: dict[str, str] = field(default_factory=dict)
    app_permissions: int = 0
    foreign: bool = False

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def response_type(self) -> int | None:
        return self.initial.type if self.initial else None

    @property
    def messages(self) -> list[Message]:
        """Messages this interaction produced (original response first), deleted ones excluded."""
        found = ([self.original] if self.original is not None else []) + self.followups
        return [m for m in found if not m.deleted]

    @property
    def autocomplete_choices(self) -> list[dict[str, Any]]:
        if self.initial is None or self.initial.type != 8:
            return []
        return list((self.initial.body.get("data") or {}).get("choices") or [])

    def integration_owners(self) -> dict[str, str]:
        if self.owners:
            return dict(self.owners)
        guild = self.channel.guild
        return {"0": str(guild.id) if guild else "0"}

    @property
    def public_allowed(self) -> bool:
        """Whether the app may answer where everyone sees it (always where it is a member)."""
        return not self.foreign or bool(self.app_permissions & USE_EXTERNAL_APPS)


@dataclass
class Violation:
    """Something Discord would have refused, or that a user would have seen as a failure."""

    kind: str
    method: str
    path: str
    detail: str
    body: Any = None

    def __str__(self) -> str:
        return f"[{self.kind}] {self.method} {self.path}: {self.detail}"
