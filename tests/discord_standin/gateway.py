"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

A session identified with ``shard: [id, count]`` is one shard of a sharded bot, as Discord runs
them: it gets the guilds with ``(guild_id >> 22) % count == id`` and their events only; events
outside any guild (direct messages, interactions in them) go to shard 0.

Frames are sent as plain JSON text; discord.py asks for zlib/zstd transport compression but
decodes uncompressed text frames as well, so the stand-in never compresses.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import StandIn

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

HEARTBEAT_INTERVAL_MS = 41250
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_UNKNOWN_ERROR = 4000
CLOSE_INVALID_SHARD = 4010
GUILD_EVENTS_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a direct message or no guild at all)."""
    raw = data.get("id") if event in GUILD_EVENTS_BY_ID else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass(eq=False)
class Session:
    """One identified bot session; keeps sent events so a RESUME can replay what was missed."""

    id: str
    intents: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    shard: tuple[int, int] | None = None  # (id, count) when the bot identified as one shard
    presence: dict[str, Any] | None = None  # what IDENTIFY said the bot shows (its status)

    def holds(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of ``guild_id`` (None: outside guilds)."""
        if self.shard is None:
            return True
        shard, count = self.shard
        return shard == (0 if guild_id is None else (guild_id >> 22) % count)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        if self.ws is not None and not self.ws.closed:
            await self.ws.send_str(json.dumps(frame))


class Gateway:
    """Serves `/gateway` for every bot connected to one stand-in."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0

    @property
    def connected(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.ws is not None and not s.ws.closed]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the sessions of its guild's shard (every session when unsharded)."""
        guild_id = event_guild(event, data)
        for session in list(self.sessions.values()):
            if session.holds(guild_id):
                await session.dispatch(event, data)

    async def drop_connections(self, code: int = CLOSE_UNKNOWN_ERROR) -> None:
        """Close every socket with a resumable code, as Discord does on a gateway restart."""
        for session in self.connected:
            assert session.ws is not None
            await session.ws.close(code=code)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        await ws.send_json(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["standin"]},
            }
        )
        session: Session | None = None
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == OP_HEARTBEAT:
                await ws.send_json({"op": OP_HEARTBEAT_ACK})
            elif op == OP_IDENTIFY:
                session = await self._identify(ws, data)
                self.standin.notify_change()
            elif op == OP_RESUME:
                session = await self._resume(ws, data)
                self.standin.notify_change()
            elif op == OP_REQUEST_MEMBERS and session is not None:
                await self._members_chunk(session, data)
        if session is not None and session.ws is ws:
            session.ws = None
        self.standin.notify_change()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        standin = self.standin
        if data.get("token") != standin.token:
            await ws.close(code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if not 0 <= shard_id < count:
                await ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
                return None
        self.identifies += 1
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents") or 0), ws=ws,
                          shard=(shard_id, count) if shard is not None else None,
                          presence=data.get("presence"))
        self.sessions[session.id] = session
        guilds = [g for g in standin.guilds.values() if session.holds(g.id)]
        ready = {
            "v": 10,
            "user": {
                **standin.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": standin.gateway_url,
            "application": {"id": str(standin.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.standin.token:
            await ws.send_json({"op": OP_INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        session.ws = ws
        missed = [f for f in session.sent if f["s"] > int(data.get("seq") or 0)]
        for frame in missed:
            await ws.send_str(json.dumps(frame))
        await session.dispatch("RESUMED", {"_trace": ["standin"]})
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.standin.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
