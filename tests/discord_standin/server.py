"""The stand-in server: aiohttp on 127.0.0.1 serving Discord's REST API v10 and the gateway.

Every REST request goes through one pipeline: the route must exist in the spec, bot routes need
the bot token, the body must validate against the spec, then injected faults (429/5xx) apply,
and only then the handler in `rest.py` runs. Anything Discord would refuse is recorded as a
`Violation` and answered with Discord's error shape, so the bot sees what it would see live.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import rest
from .gateway import Gateway
from .rest import Call, Upload, discord_error, json_response
from .spec import Operation, SpecIndex
from .state import Channel, InteractionRecord, Message, User, Violation
from .users import SimUser, interaction_payload, new_record
from .world import World

API_PREFIX = "/api/v10"
UNAUTHENTICATED_PREFIXES = ("/webhooks/", "/interactions/")


class CommandHidden(AssertionError):
    """The user cannot see the command (default_member_permissions), so Discord would never
    send this interaction."""


@dataclass
class Fault:
    """An injected failure for the next `remaining` requests matching `method template`."""

    method: str
    template: str
    status: int
    remaining: int
    retry_after: float
    is_global: bool
    params: dict[str, str]

    def matches(self, call: Call) -> bool:
        return (
            self.remaining > 0
            and self.method == call.method
            and self.template == call.template
            and all(call.params.get(k) == v for k, v in self.params.items())
        )


@dataclass
class RequestLog:
    """One request the bot made and the status it got (faults included)."""

    method: str
    path: str
    template: str | None
    status: int
    body: Any
    at: float


class StandIn(World):
    """A local Discord for one test: start it, point discord.py at it, drive users, inspect.

    `ack_deadline` is Discord's 3 s window for the initial interaction response; tests may lower
    it to exercise late answers quickly. `settle_quiet` is how long the bot must stay silent
    before a user action counts as finished.
    """

    def __init__(self, spec: SpecIndex, *, host: str = "127.0.0.1") -> None:
        super().__init__()
        self.spec = spec
        self.host = host
        self.port = 0
        self.ack_deadline = 3.0
        self.settle_quiet = 0.15
        self.faults: list[Fault] = []
        self.requests: list[RequestLog] = []
        self.gateway = Gateway(self)
        self._runner: web.AppRunner | None = None
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._pending_events: list[asyncio.Task[None]] = []
        missing = [
            f"{m} {t}"
            for m, t in rest.HANDLERS
            if not any(o.method == m and o.template == t for o in spec.operations)
        ]
        if missing:
            raise RuntimeError(f"stand-in routes absent from the spec: {missing}")

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        """The value for `discord.http.Route.BASE`."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`."""
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> StandIn:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_rest)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        await self.flush_events()
        await self.gateway.drop_connections(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- entities (users are SimUsers so tests can act as them) -------------------------------

    def _new_user(self, name: str, *, refuses_dms: bool) -> User:
        return SimUser(self.ids.next(), name, refuses_dms=refuses_dms, standin=self)

    def create_user(self, name: str, *, refuses_dms: bool = False) -> SimUser:
        user = super().create_user(name, refuses_dms=refuses_dms)
        assert isinstance(user, SimUser)
        return user

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        if self.gateway.sessions:
            self._pending_events.append(asyncio.ensure_future(self.gateway.dispatch(event, data)))

    async def flush_events(self) -> None:
        """Deliver gateway events queued by entity creation, so they precede what follows."""
        pending, self._pending_events = self._pending_events, []
        await asyncio.gather(*pending)

    def find_command(self, name: str, guild: Any | None) -> dict[str, Any] | None:
        """The synced command `name` the bot registered for `guild` (or globally)."""
        keys = ([guild.id] if guild is not None else []) + [None]
        for key in keys:
            for command in self.commands.get(key, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        return None

    # -- test controls ------------------------------------------------------------------------

    def fail_next(
        self,
        route: str,
        *,
        status: int = 429,
        times: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
        **params: Any,
    ) -> Fault:
        """Answer the next `times` requests to `route` ("POST /channels/{channel_id}/messages")
        with `status` (429 with Discord's rate-limit body and headers, or a 5xx), optionally only
        where path parameters equal `params` (e.g. channel_id=channel.id)."""
        method, template = route.split(" ", 1)
        if not any(o.method == method and o.template == template for o in self.spec.operations):
            raise ValueError(f"{route!r} is not a route of the Discord spec")
        fault = Fault(
            method,
            template,
            status,
            times,
            retry_after,
            is_global,
            {k: str(getattr(v, "id", v)) for k, v in params.items()},
        )
        self.faults.append(fault)
        return fault

    def requests_to(self, route: str) -> list[RequestLog]:
        method, template = route.split(" ", 1)
        return [r for r in self.requests if r.method == method and r.template == template]

    def violation(self, kind: str, call: Call | None, detail: str, body: Any = None) -> None:
        self.violations.append(
            Violation(kind, call.method if call else "-", call.path if call else "-", detail, body)
        )

    async def settle(self, quiet: float | None = None, timeout: float = 10.0) -> None:
        """Wait until no request is in flight and none arrived for `quiet` seconds."""
        quiet = self.settle_quiet if quiet is None else quiet
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._inflight == 0 and time.monotonic() - self._last_activity >= quiet:
                return
            await asyncio.sleep(0.02)
        raise TimeoutError(f"the bot kept calling the stand-in for {timeout}s")

    async def wait_until(self, predicate: Any, timeout: float = 5.0) -> None:
        """Poll `predicate()` until true, for effects that come after a delay in the bot."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError("condition not met in time")
            await asyncio.sleep(0.02)

    async def drop_gateway(self) -> None:
        """Close the bot's socket with a resumable code; discord.py reconnects and RESUMEs."""
        await self.gateway.drop_connections()

    async def run_interaction(
        self,
        user: User,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        *,
        target: Message | None = None,
        settle: float | None = None,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE, wait for the ack (≤ ack_deadline) and for the bot to go quiet."""
        if not self.gateway.connected:
            raise RuntimeError("no bot is connected to the stand-in gateway")
        await self.flush_events()
        if channel.guild is not None and user.id not in channel.guild.members:
            raise AssertionError(f"{user.name} is not a member of {channel.guild.name}")
        if kind in (2, 4) and channel.guild is not None:  # a command or its autocomplete
            command = self.find_command(str(data.get("name")), channel.guild)
            if command is not None and not self.can_use_command(user, channel.guild, command):
                raise CommandHidden(
                    f"{user.name} cannot see /{command['name']} in {channel.guild.name} "
                    f"(default_member_permissions {command.get('default_member_permissions')})"
                )
        record = new_record(self, user, channel, kind, data, target)
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        payload = interaction_payload(self, record)
        record.created_at = time.monotonic()
        self._last_activity = record.created_at
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(record.acked.wait(), self.ack_deadline + 0.5)
        except TimeoutError:
            self.violation(
                "no-ack",
                None,
                f"interaction {record.id} ({data.get('name') or data.get('custom_id')}) was not acknowledged within {self.ack_deadline:.1f}s",
            )
        await self.settle(settle)
        return record

    # -- HTTP ---------------------------------------------------------------------------------

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment_id"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        raise web.HTTPNotFound()

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        self._inflight += 1
        self._last_activity = time.monotonic()
        log = RequestLog(
            request.method, request.path[len(API_PREFIX) :], None, 0, None, time.time()
        )
        try:
            response = await self._pipeline(request, log)
        except Exception as exc:  # a stand-in bug must fail the test, not hang the bot
            self.violations.append(Violation("standin-error", request.method, log.path, repr(exc)))
            response = discord_error(500, 0, "500: Internal Server Error (stand-in)")
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
        log.status = response.status
        self.requests.append(log)
        if log.template is not None:
            bucket = hashlib.sha1(log.template.encode()).hexdigest()[:16]
            response.headers.setdefault("X-RateLimit-Bucket", bucket)
            if response.status != 429:
                response.headers.update(
                    {
                        "X-RateLimit-Limit": "50",
                        "X-RateLimit-Remaining": "49",
                        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
                        "X-RateLimit-Reset-After": "1.000",
                    }
                )
        return response

    async def _pipeline(self, request: web.Request, log: RequestLog) -> web.StreamResponse:
        method, path = request.method, log.path
        found = self.spec.find(method, path)
        bare = Call(method, path, "", {}, dict(request.query))
        if found is None:
            self.violation("unknown-route", bare, "no such route in Discord's API spec")
            return discord_error(404, 0, "404: Not Found")
        op, params = found
        call = Call(method, path, op.template, params, dict(request.query))
        log.template = op.template
        bad_param = self.spec.validate_path_params(op, params)
        if bad_param:
            self.violation("invalid-path", call, bad_param)
            return discord_error(404, 0, "404: Not Found")
        if (
            not path.startswith(UNAUTHENTICATED_PREFIXES)
            and request.headers.get("Authorization") != f"Bot {self.token}"
        ):
            self.violation("unauthorized", call, "missing or wrong bot token")
            return discord_error(401, 0, "401: Unauthorized")
        problem = await self._read_body(request, call, op)
        log.body = call.body
        if problem is not None:
            return problem
        for fault in self.faults:
            if fault.matches(call):
                fault.remaining -= 1
                return self._fault_response(fault, op.template)
        handler = rest.HANDLERS.get((method, op.template))
        if handler is None:
            self.violation(
                "unimplemented",
                call,
                "route exists in Discord but not in the stand-in; extend rest.py",
                call.body,
            )
            return discord_error(501, 0, "Not implemented by the stand-in")
        return await handler(self, call)

    async def _read_body(
        self, request: web.Request, call: Call, op: Operation
    ) -> web.Response | None:
        """Decode JSON or multipart (`payload_json` + `files[n]`) and validate against the spec."""
        ctype = request.content_type
        raw = await request.read() if ctype != "multipart/form-data" else b""
        if ctype == "multipart/form-data":
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    call.body = json.loads(data)
                elif name.startswith("files["):
                    index = int(name[len("files[") : -1])
                    call.files[index] = Upload(
                        part.filename or name, bytes(data), part.headers.get("Content-Type")
                    )  # type: ignore[union-attr]
                else:
                    self.violation("invalid-body", call, f"unexpected multipart field {name!r}")
        elif raw:
            if ctype != "application/json":
                self.violation(
                    "invalid-body", call, f"body sent as {ctype!r}, not application/json"
                )
                return discord_error(400, 50035, "Invalid Form Body")
            try:
                call.body = json.loads(raw)
            except ValueError:
                self.violation("invalid-body", call, "body is not valid JSON")
                return discord_error(400, 50109, "The request body contains invalid JSON.")
        if call.body is None:
            if op.body_required:
                self.violation("invalid-body", call, "request body is required")
                return discord_error(400, 50035, "Invalid Form Body")
            if call.files:
                call.body = {}
            return None
        error = self.spec.validate_body(
            op, "application/json" if ctype != "multipart/form-data" else ctype, call.body
        )
        if error is not None:
            self.violation("invalid-body", call, error.summary, call.body)
            return discord_error(400, 50035, "Invalid Form Body", error.errors)
        return None

    def _fault_response(self, fault: Fault, template: str) -> web.Response:
        if fault.status != 429:
            return discord_error(fault.status, 0, f"{fault.status}: Server error (injected)")
        body = {
            "message": "You are being rate limited.",
            "retry_after": fault.retry_after,
            "global": fault.is_global,
        }
        headers = {
            "Retry-After": str(math.ceil(fault.retry_after)),
            "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
            "X-RateLimit-Scope": "global" if fault.is_global else "user",
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                    "X-RateLimit-Bucket": hashlib.sha1(template.encode()).hexdigest()[:16],
                }
            )
        return json_response(body, 429, headers)
