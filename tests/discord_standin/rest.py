"""REST routes the stand-in implements, keyed by the spec's (method, path template).

Handlers see a request that already passed route, auth and schema checks (see `server.py`) and
answer with the JSON Discord would return, or Discord's error shape and code.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import layouts
from .layouts import MESSAGE_FLAG_COMPONENTS_V2
from .state import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    Attachment,
    Channel,
    InitialResponse,
    InteractionRecord,
    Message,
    number_components,
)

if TYPE_CHECKING:
    from .server import StandIn

SEND_MESSAGES = 1 << 11
VIEW_CHANNEL = 1 << 10

# Interaction type -> callback types Discord accepts for it.
CALLBACKS_ALLOWED = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}
LAUNCH_ACTIVITY = 12
PRIMARY_ENTRY_POINT = 4
MESSAGE_TYPE_DEFAULT = 0
NONCE_WINDOW = 180.0  # seconds a nonce stays unique ("a few minutes" in Discord's reference)
MESSAGE_TYPE_CHAT_INPUT = 20


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class Call:
    """A decoded request: spec template, path parameters, query, JSON body and uploaded files."""

    method: str
    path: str
    template: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any = None
    files: dict[int, Upload] = field(default_factory=dict)
    grant: Any = None  # the OAuth2 grant of a call made with a user's Bearer token (oauth.py)

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[["StandIn", Call], Awaitable[web.StreamResponse]]
HANDLERS: dict[tuple[str, str], Handler] = {}


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[(method, template)] = fn
        return fn

    return register


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with a Content-Type of exactly `application/json`: discord.py parses nothing else."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def discord_error(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status)


def unknown(kind: str) -> web.Response:
    codes = {
        "Channel": 10003,
        "Guild": 10004,
        "Member": 10007,
        "Message": 10008,
        "User": 10013,
        "Webhook": 10015,
        "interaction": 10062,
    }
    return discord_error(404, codes[kind], f"Unknown {kind}")


def _found(entity: Any, kind: str) -> web.Response:
    """The entity's payload, or Discord's "Unknown <kind>" 404."""
    return unknown(kind) if entity is None else json_response(entity.payload())


# -- messages -----------------------------------------------------------------------------------


def _attachments(
    si: StandIn, call: Call, body: dict[str, Any], keep: list[Attachment]
) -> list[Attachment] | web.Response:
    """Resolve `attachments` entries to kept attachments and newly uploaded `files[n]`."""
    existing = {a.id: a for a in keep}
    listed = body.get("attachments")
    result: list[Attachment] = [] if listed is not None else list(keep)
    used: set[int] = set()
    for entry in listed or []:
        ident = int(entry["id"])
        if ident in call.files and ident not in existing:
            upload = call.files[ident]
            used.add(ident)
            result.append(
                Attachment(
                    si.ids.next(),
                    entry.get("filename") or upload.filename,
                    upload.data,
                    entry.get("description"),
                    upload.content_type,
                )
            )
        elif ident in existing:
            result.append(existing[ident])
        else:
            si.violation(
                "attachment",
                call,
                f"attachment id {ident} is neither an upload nor an existing attachment",
                body,
            )
            return discord_error(
                400,
                50035,
                "Invalid Form Body",
                {
                    "attachments": {
                        "_errors": [
                            {"code": "ATTACHMENT_NOT_FOUND", "message": "Unknown attachment"}
                        ]
                    }
                },
            )
    for index, upload in sorted(call.files.items()):
        if index not in used:
            result.append(
                Attachment(si.ids.next(), upload.filename, upload.data, None, upload.content_type)
            )
    return result


def create_message(
    si: StandIn,
    call: Call,
    channel: Channel,
    body: dict[str, Any],
    *,
    interaction: InteractionRecord | None = None,
    message_type: int = MESSAGE_TYPE_DEFAULT,
    extra_flags: int = 0,
    allow_empty: bool = False,
) -> Message | web.Response:
    attachments = _attachments(si, call, body, [])
    if isinstance(attachments, web.Response):
        return attachments
    flags = int(body.get("flags") or 0) | extra_flags
    msg = Message(
        id=si.ids.next(),
        channel=channel,
        author=si.bot_user,
        content=body.get("content") or "",
        embeds=[{"type": "rich", **e} for e in body.get("embeds") or []],
        components=number_components(body.get("components") or []),
        attachments=attachments,
        flags=flags,
        type=message_type,
        interaction=interaction,
    )
    if not allow_empty and not (
        msg.content
        or msg.embeds
        or msg.components
        or msg.attachments
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        si.violation("empty-message", call, "Cannot send an empty message", body)
        return discord_error(400, 50006, "Cannot send an empty message")
    refused = _layout_refused(si, call, msg, body)
    if refused is not None:
        return refused
    if flags & MESSAGE_FLAG_EPHEMERAL:
        if interaction is None:
            msg.flags &= ~MESSAGE_FLAG_EPHEMERAL  # Discord ignores the flag outside interactions
        else:
            msg.ephemeral_for = interaction.user
    si.messages[msg.id] = msg
    return msg


def edit_message(
    si: StandIn, call: Call, msg: Message, body: dict[str, Any]
) -> Message | web.Response:
    """Apply a PATCH (or UPDATE_MESSAGE callback), keeping the previous state in `msg.history`."""
    attachments = _attachments(si, call, body, msg.attachments)
    if isinstance(attachments, web.Response):
        return attachments
    was_loading = msg.loading
    after = copy.copy(msg)  # the message as the edit would leave it, checked before it applies
    if "content" in body:
        after.content = body["content"] or ""
    if "embeds" in body:
        after.embeds = [{"type": "rich", **e} for e in body["embeds"] or []]
    if "components" in body:
        after.components = number_components(body["components"] or [])
    if body.get("flags") is not None:
        keep = msg.flags & MESSAGE_FLAG_EPHEMERAL  # ephemerality cannot change after sending
        after.flags = (int(body["flags"]) & ~MESSAGE_FLAG_EPHEMERAL & ~MESSAGE_FLAG_LOADING) | keep
    after.attachments = attachments
    refused = _layout_refused(si, call, after, body, was_v2=bool(msg.flags & MESSAGE_FLAG_COMPONENTS_V2))
    if refused is not None:
        return refused
    msg.remember_revision()
    msg.content, msg.embeds, msg.components = after.content, after.embeds, after.components
    msg.flags = after.flags & ~MESSAGE_FLAG_LOADING
    msg.attachments = attachments
    msg.edited_at = None if was_loading else time.time()
    return msg


def _layout_refused(
    si: StandIn, call: Call, msg: Message, body: dict[str, Any], *, was_v2: bool = False
) -> web.Response | None:
    """Discord's refusal of a message that breaks the rules of laid-out messages (:mod:`.layouts`)."""
    found = layouts.problem(
        flags=msg.flags,
        content=msg.content,
        embeds=msg.embeds,
        components=msg.components,
        attachment_names=[a.filename for a in msg.attachments],
        was_v2=was_v2,
    )
    if found is None:
        return None
    si.violation("components", call, found, body)
    return discord_error(400, 50035, "Invalid Form Body", {"components": {"_errors": [
        {"code": "COMPONENT_LAYOUT_INVALID", "message": found}]}})


def _bot_can_send(si: StandIn, channel: Channel) -> bool:
    if channel.guild is None:
        return True
    perms = channel.guild.members[si.bot_user.id].permissions
    return bool(perms & VIEW_CHANNEL and perms & SEND_MESSAGES)


@route("POST", "/channels/{channel_id}/messages")
async def post_channel_message(si: StandIn, call: Call) -> web.StreamResponse:
    channel = si.channels.get(int(call.params["channel_id"]))
    if channel is None:
        return unknown("Channel")
    if (
        channel.type == CHANNEL_DM
        and channel.recipient is not None
        and channel.recipient.refuses_dms
    ):
        refused = Message(
            si.ids.next(),
            channel,
            si.bot_user,
            content=call.body.get("content") or "",
            deleted=True,
        )
        si.refused_dms.append(refused)
        return discord_error(403, 50007, "Cannot send messages to this user")
    if _left(si, channel):
        return _missing_access(si, call, channel)
    if not _bot_can_send(si, channel):
        si.violation("permissions", call, f"bot lacks send_messages in #{channel.name}", call.body)
        return discord_error(403, 50013, "Missing Permissions")
    nonce = call.body.get("nonce")
    if nonce is not None and call.body.get("enforce_nonce"):
        # Discord keeps a nonce unique per author for a few minutes: the same send again
        # returns the message the first one created instead of creating another.
        earlier = next((m for m in reversed(si.messages.values())
                        if m.channel is channel and m.nonce == str(nonce) and m.author is si.bot_user and not m.deleted
                        and time.time() - m.created_at < NONCE_WINDOW), None)
        if earlier is not None:
            return json_response(earlier.payload(si.base_url))
    msg = create_message(si, call, channel, call.body)
    if isinstance(msg, web.Response):
        return msg
    msg.nonce = None if nonce is None else str(nonce)
    return json_response(msg.payload(si.base_url))


def _left(si: StandIn, channel: Any) -> bool:
    """Whether the bot is not a member where ``channel`` is: a server that removed it (or never
    added it), or a group DM. Discord refuses every request of the bot there."""
    if channel.type == CHANNEL_GROUP_DM or (channel.guild is not None
                                            and channel.guild.id in si.foreign_guilds):
        return True
    return channel.guild is not None and channel.guild.id not in si.guilds


def _missing_access(si: StandIn, call: Call, channel: Any) -> web.Response:
    """Refused as Discord does; a place the bot was never in is a fault of the bot's (it may only
    answer interactions there), a server that removed it is not."""
    if channel.type == CHANNEL_GROUP_DM or (channel.guild is not None
                                            and channel.guild.id in si.foreign_guilds):
        si.violation("missing-access", call, f"a request to #{channel.name or channel.id}, "
                     "where the app is not a member", call.body)
    return discord_error(403, 50001, "Missing Access")


FOLLOWUP_LIMIT = 5
"""Follow-ups Discord allows an app per interaction where it is not a member."""


def _refuse_public(si: StandIn, call: Call, record: InteractionRecord, flags: int) -> web.Response | None:
    """An answer everyone would see where the app is not a member needs Use External Apps."""
    if flags & MESSAGE_FLAG_EPHEMERAL or record.public_allowed:
        return None
    si.violation("external-apps", call, "a public answer where Use External Apps is off", call.body)
    return discord_error(403, 50013, "Missing Permissions")


def _channel_message(si: StandIn, call: Call) -> Message | web.Response:
    channel = si.channels.get(int(call.params["channel_id"]))
    if channel is None:
        return unknown("Channel")
    if _left(si, channel):
        return _missing_access(si, call, channel)
    msg = si.messages.get(int(call.params["message_id"]))
    if msg is None or msg.deleted or msg.channel is not channel or msg.ephemeral_for is not None:
        return unknown("Message")
    return msg


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_channel_message(si: StandIn, call: Call) -> web.StreamResponse:
    msg = _channel_message(si, call)
    return msg if isinstance(msg, web.Response) else json_response(msg.payload(si.base_url))


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def patch_channel_message(si: StandIn, call: Call) -> web.StreamResponse:
    msg = _channel_message(si, call)
    if isinstance(msg, web.Response):
        return msg
    if msg.author is not si.bot_user:
        si.violation("forbidden", call, "editing a message authored by another user", call.body)
        return discord_error(403, 50005, "Cannot edit a message authored by another user")
    result = edit_message(si, call, msg, call.body)
    return (
        result if isinstance(result, web.Response) else json_response(result.payload(si.base_url))
    )


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_channel_message(si: StandIn, call: Call) -> web.StreamResponse:
    msg = _channel_message(si, call)
    if isinstance(msg, web.Response):
        return msg
    msg.deleted = True
    return web.Response(status=204)


@route("GET", "/channels/{channel_id}/messages")
async def channel_history(si: StandIn, call: Call) -> web.StreamResponse:
    channel = si.channels.get(int(call.params["channel_id"]))
    if channel is None:
        return unknown("Channel")
    limit = int(call.query.get("limit", 50))
    found = [m for m in si.channel_messages(channel) if not m.loading]
    return json_response([m.payload(si.base_url) for m in reversed(found)][:limit])


@route("GET", "/channels/{channel_id}")
async def get_channel(si: StandIn, call: Call) -> web.StreamResponse:
    return _found(si.channels.get(int(call.params["channel_id"])), "Channel")


@route("POST", "/users/@me/channels")
async def open_dm(si: StandIn, call: Call) -> web.StreamResponse:
    user = si.users.get(int(call.body.get("recipient_id") or 0))
    if user is None or user.bot:
        return unknown("User")
    return json_response(si.dm_channel(user).payload())


# -- users, guilds, application -------------------------------------------------------------------


@route("GET", "/users/@me")
async def get_me(si: StandIn, call: Call) -> web.StreamResponse:
    if call.grant is not None:  # the user a Bearer token belongs to, checked against the spec
        return si.checked_answer(call, si.oauth.me(call.grant))
    return json_response(
        {**si.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
    )


@route("GET", "/users/{user_id}")
async def get_user(si: StandIn, call: Call) -> web.StreamResponse:
    return _found(si.users.get(int(call.params["user_id"])), "User")


@route("GET", "/guilds/{guild_id}")
async def get_guild(si: StandIn, call: Call) -> web.StreamResponse:
    return _found(si.guilds.get(int(call.params["guild_id"])), "Guild")


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(si: StandIn, call: Call) -> web.StreamResponse:
    guild = si.guilds.get(int(call.params["guild_id"]))
    if guild is None:
        return unknown("Guild")
    return _found(guild.members.get(int(call.params["user_id"])), "Member")


@route("GET", "/oauth2/applications/@me")
async def get_application(si: StandIn, call: Call) -> web.StreamResponse:
    return json_response(
        {
            "id": str(si.application_id),
            "name": si.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": {
                "id": str(si.ids.next()),
                "username": "owner",
                "discriminator": "0",
                "avatar": None,
                "global_name": None,
            },
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": si.bot_user.payload(),
            "interactions_endpoint_url": None,
        }
    )


@route("GET", "/applications/{application_id}/activity-instances/{instance_id}")
async def activity_instance(si: StandIn, call: Call) -> web.StreamResponse:
    answer = si.oauth.instance(call)
    if answer.status == 200:
        si.checked_answer(call, json.loads(answer.body))
    return answer


@route("GET", "/gateway")
async def get_gateway(si: StandIn, call: Call) -> web.StreamResponse:
    return json_response({"url": si.gateway_url})


@route("GET", "/gateway/bot")
async def get_gateway_bot(si: StandIn, call: Call) -> web.StreamResponse:
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    return json_response({"url": si.gateway_url, "shards": si.shard_count, "session_start_limit": limit})


def _store_command(
    si: StandIn, guild_id: int | None, body: dict[str, Any], old: dict[str, Any] | None
) -> dict[str, Any]:
    command = copy.deepcopy(body)
    command.setdefault("type", 1)
    command.setdefault("description", "")
    command.setdefault("options", [])
    command.setdefault("default_member_permissions", None)
    if command["default_member_permissions"] is not None:  # Discord answers with a string
        command["default_member_permissions"] = str(int(command["default_member_permissions"]))
    command.setdefault("nsfw", False)
    command.update(
        id=old["id"] if old else str(si.ids.next()),
        application_id=str(si.application_id),
        version=str(si.ids.next()),
    )
    if guild_id is not None:
        command["guild_id"] = str(guild_id)
    return command


def _guild_key(si: StandIn, call: Call) -> int | None | web.Response:
    if int(call.params["application_id"]) != si.application_id:
        return discord_error(403, 50001, "Missing Access")
    if "guild_id" not in call.params:
        return None
    gid = int(call.params["guild_id"])
    return gid if gid in si.guilds else unknown("Guild")


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_commands(si: StandIn, call: Call) -> web.StreamResponse:
    key = _guild_key(si, call)
    if isinstance(key, web.Response):
        return key
    refused = _refuse_entry_points(si, call, key)
    if refused is not None:
        return refused
    old = {(c["name"], c["type"]): c for c in si.commands.get(key, [])}
    stored = [
        _store_command(si, key, c, old.get((c["name"], c.get("type", 1)))) for c in call.body or []
    ]
    si.commands[key] = stored
    return json_response(stored)


def _refuse_entry_points(si: StandIn, call: Call, key: int | None) -> web.Response | None:
    """Discord's rules of the Entry Point (type 4): one per app, global, kept by every bulk
    overwrite once made; ``handler`` belongs to it alone."""
    commands = call.body or []
    entries = [c for c in commands if c.get("type") == PRIMARY_ENTRY_POINT]
    for command in commands:
        if command.get("handler") is not None and command.get("type") != PRIMARY_ENTRY_POINT:
            si.violation("invalid-body", call, f"handler on /{command.get('name')}, not an Entry Point")
    problem = None
    if len(entries) > 1:
        problem = f"{len(entries)} Entry Point commands (an app has one)"
    elif entries and key is not None:
        problem = "an Entry Point command among a guild's commands (it is global only)"
    elif key is None and not entries and any(
            c.get("type") == PRIMARY_ENTRY_POINT for c in si.commands.get(None, [])):
        problem = "a bulk overwrite without the app's Entry Point command"
    if problem is None:
        return None
    si.violation("invalid-body", call, problem, commands)
    return discord_error(400, 50035, "Invalid Form Body", {"_errors": [
        {"code": "APPLICATION_COMMAND_ENTRY_POINT_INVALID", "message": problem}]})


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(si: StandIn, call: Call) -> web.StreamResponse:
    key = _guild_key(si, call)
    return key if isinstance(key, web.Response) else json_response(si.commands.get(key, []))


@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def upsert_command(si: StandIn, call: Call) -> web.StreamResponse:
    key = _guild_key(si, call)
    if isinstance(key, web.Response):
        return key
    commands = si.commands.setdefault(key, [])
    old = next(
        (
            c
            for c in commands
            if c["name"] == call.body["name"] and c["type"] == call.body.get("type", 1)
        ),
        None,
    )
    stored = _store_command(si, key, call.body, old)
    si.commands[key] = [c for c in commands if c is not old] + [stored]
    return json_response(stored, 200 if old else 201)


# -- interactions ---------------------------------------------------------------------------------


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(si: StandIn, call: Call) -> web.StreamResponse:
    record = si.interactions.get(int(call.params["interaction_id"]))
    if record is None or record.token != call.params["interaction_token"]:
        si.violation(
            "unknown-interaction",
            call,
            "callback for an interaction the stand-in never sent",
            call.body,
        )
        return unknown("interaction")
    kind = call.body["type"]
    if record.initial is not None:
        si.violation(
            "double-ack",
            call,
            f"second initial response (type {kind}) after type {record.initial.type}",
            call.body,
        )
        record.errors.append("already acknowledged")
        return discord_error(400, 40060, "Interaction has already been acknowledged.")
    elapsed = si.deadline_clock() - record.created_at
    if elapsed > si.ack_deadline:
        record.late_callbacks += 1
        si.violation(
            "late-ack",
            call,
            f"initial response after {elapsed:.2f}s (limit {si.ack_deadline:.1f}s)",
            call.body,
        )
        record.errors.append("unknown interaction (late)")
        return unknown("interaction")
    if kind not in CALLBACKS_ALLOWED.get(record.type, set()):
        si.violation(
            "callback-type",
            call,
            f"callback type {kind} is not valid for interaction type {record.type}",
            call.body,
        )
        return discord_error(
            400,
            50035,
            "Invalid Form Body",
            {
                "type": {
                    "_errors": [
                        {
                            "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                            "message": "Invalid interaction response type",
                        }
                    ]
                }
            },
        )
    data = call.body.get("data") or {}
    message: Message | None = None
    if kind in (4, 5):
        refused = _refuse_public(si, call, record, int(data.get("flags") or 0))
        if refused is not None:
            return refused
    if kind == 4:
        message_type = MESSAGE_TYPE_CHAT_INPUT if record.type == 2 else MESSAGE_TYPE_DEFAULT
        result = create_message(
            si, call, record.channel, data, interaction=record, message_type=message_type
        )
        if isinstance(result, web.Response):
            return result
        message = record.original = result
    elif kind == 5:
        flags = (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL) | MESSAGE_FLAG_LOADING
        result = create_message(
            si,
            call,
            record.channel,
            {},
            interaction=record,
            extra_flags=flags,
            allow_empty=True,
            message_type=MESSAGE_TYPE_CHAT_INPUT if record.type == 2 else MESSAGE_TYPE_DEFAULT,
        )
        assert isinstance(result, Message)
        message = record.original = result
    elif kind in (6, 7):
        assert record.target is not None
        record.original = record.target
        if kind == 7:
            result = edit_message(si, call, record.target, data)
            if isinstance(result, web.Response):
                return result
            message = result
    instance = si.oauth.launch(record) if kind == LAUNCH_ACTIVITY else None
    record.initial = InitialResponse(kind, copy.deepcopy(call.body), si.deadline_clock(), message)
    record.acked.set()
    if instance is not None:  # the answer names the instance the press opened or joined
        if not call.flag("with_response"):
            return web.Response(status=204)
        return si.checked_answer(call, {
            "interaction": {"id": str(record.id), "type": record.type,
                            "activity_instance_id": instance},
            "resource": {"type": kind, "activity_instance": {"id": instance}}})
    if not call.flag("with_response"):
        return web.Response(status=204)
    inter: dict[str, Any] = {"id": str(record.id), "type": record.type}
    if message is not None:
        inter.update(
            response_message_id=str(message.id),
            response_message_loading=message.loading,
            response_message_ephemeral=message.ephemeral,
        )
    answer: dict[str, Any] = {"interaction": inter, "resource": {"type": kind}}
    if kind in (4, 7) and message is not None:
        answer["resource"]["message"] = message.payload(si.base_url)
    return json_response(answer)


def _webhook_record(si: StandIn, call: Call) -> InteractionRecord | web.Response:
    record = si.interactions_by_token.get(call.params["webhook_token"])
    if record is None or int(call.params["webhook_id"]) != record.application_id:
        si.violation("unknown-webhook", call, "webhook token of no interaction", call.body)
        return unknown("Webhook")
    elapsed = si.deadline_clock() - record.created_at
    if elapsed > si.followup_deadline:
        si.violation(
            "late-followup",
            call,
            f"webhook call {elapsed:.0f}s after the interaction (token valid {si.followup_deadline:.0f}s)",
            call.body,
        )
        return unknown("interaction")
    if record.initial is None:
        if call.method == "GET":  # asking whether an answer landed is fair: Discord has none
            return unknown("Message")
        si.violation(
            "followup-before-ack",
            call,
            "webhook call before the interaction was acknowledged",
            call.body,
        )
        return unknown("Webhook")
    return record


def _webhook_message(si: StandIn, call: Call) -> tuple[InteractionRecord, Message] | web.Response:
    record = _webhook_record(si, call)
    if isinstance(record, web.Response):
        return record
    if call.template.endswith("@original"):
        msg = record.original
    else:
        wanted = int(call.params["message_id"])
        msg = next(
            (m for m in [record.original, *record.followups] if m is not None and m.id == wanted),
            None,
        )
    if msg is None or msg.deleted:
        return unknown("Message")
    return record, msg


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def followup(si: StandIn, call: Call) -> web.StreamResponse:
    record = _webhook_record(si, call)
    if isinstance(record, web.Response):
        return record
    original = record.original
    if record.response_type == 5 and original is not None and original.loading \
            and not original.deleted:
        # Discord: the first followup after a "thinking" defer replaces the loading message
        # (once that message is deleted, a followup is a message of its own, with its own flags).
        result = edit_message(
            si, call, original, {k: v for k, v in call.body.items() if k != "flags"}
        )
    else:
        if record.foreign and len(record.followups) >= FOLLOWUP_LIMIT:
            si.violation("followup-limit", call, f"follow-up number {len(record.followups) + 1} "
                         f"where the app is not a member (limit {FOLLOWUP_LIMIT})", call.body)
            return discord_error(400, 40094, "This interaction has hit the maximum number of "
                                 "follow up messages")
        refused = _refuse_public(si, call, record, int(call.body.get("flags") or 0))
        if refused is not None:
            return refused
        result = create_message(si, call, record.channel, call.body, interaction=record)
        if isinstance(result, Message):
            record.followups.append(result)
    if isinstance(result, web.Response):
        return result
    return (
        json_response(result.payload(si.base_url))
        if call.flag("wait")
        else web.Response(status=204)
    )


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def get_webhook_message(si: StandIn, call: Call) -> web.StreamResponse:
    found = _webhook_message(si, call)
    return (
        found if isinstance(found, web.Response) else json_response(found[1].payload(si.base_url))
    )


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def patch_webhook_message(si: StandIn, call: Call) -> web.StreamResponse:
    found = _webhook_message(si, call)
    if isinstance(found, web.Response):
        return found
    result = edit_message(si, call, found[1], call.body)
    return (
        result if isinstance(result, web.Response) else json_response(result.payload(si.base_url))
    )


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def delete_webhook_message(si: StandIn, call: Call) -> web.StreamResponse:
    found = _webhook_message(si, call)
    if isinstance(found, web.Response):
        return found
    found[1].deleted = True
    return web.Response(status=204)
