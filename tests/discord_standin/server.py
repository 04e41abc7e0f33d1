"""The stand-in server: aiohttp on 127.0.0.1 serving Discord's REST API v10 and the gateway.

Every REST request goes through one pipeline: the route must exist in the spec, bot routes need
the bot token, the body must validate against the spec, then injected faults (429/5xx) apply,
and only then the handler in `rest.py` runs. Anything Discord would refuse is recorded as a
`Violation` and answered with Discord's error shape, so the bot sees what it would see live.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from . import rest
from .clocks import RunningClock
from .gateway import Gateway
from .limits import RateLimits, Verdict, peak_in_window
from .oauth import OAuth
from .rest import Call, Upload, discord_error, json_response
from .spec import Operation, SpecIndex
from .state import CHANNEL_GROUP_DM, Channel, InteractionRecord, Message, User, Violation
from .users import SimUser, interaction_payload, new_record
from .world import World

API_PREFIX = "/api/v10"
UNAUTHENTICATED_PREFIXES = ("/webhooks/", "/interactions/")
WAIT_ENV = "HANAFUDA_E2E_WAIT"
# How long a test waits for something it expects. Only a hang reaches it: a slow or busy machine
# takes longer for everything, but a wait ends on the event it waits for, never on the clock.
DEFAULT_WAIT_SECONDS = float(os.environ.get(WAIT_ENV) or 60.0)
# After Discord's 3 s acknowledgement window, how much longer to watch for a (late) callback
# before recording that the bot never answered.
ACK_GRACE_SECONDS = 0.5

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """What a test waited for never happened; the message says what it saw last."""


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
    where: Callable[[Call], bool] | None = None
    drop: str | None = None  # "before" / "after" the request is handled: the connection is cut

    def matches(self, call: Call) -> bool:
        return (
            self.remaining > 0
            and self.method == call.method
            and self.template == call.template
            and all(call.params.get(k) == v for k, v in self.params.items())
            and (self.where is None or bool(self.where(call)))
        )


@dataclass
class RequestLog:
    """One request the bot made and the status it got (faults and rate limits included).

    `at` is the wall-clock time, `arrived` the stand-in's clock (monotonic) on arrival;
    `global_limited` whether it counts against the global limit; `scope` of a 429 ("global",
    "user", or "injected" for a `fail_next` fault)."""

    method: str
    path: str
    template: str | None
    status: int
    body: Any
    at: float
    arrived: float = 0.0
    global_limited: bool = False
    scope: str | None = None
    limit_headers: dict[str, str] | None = None
    provoked: bool = False  # a 429 a test caused on purpose
    # a 429 of a bucket whose window a previous client opened: a client that logged in since
    # cannot know it (Discord tells the remaining count only in answers to that bucket)
    inherited: bool = False


class StandIn(World):
    """A local Discord for one test: start it, point discord.py at it, drive users, inspect.

    Tests wait on events: every change of the stand-in's world (a request served, which covers
    messages created, edited and deleted and interactions acknowledged; a gateway session opened
    or closed) wakes `wait_for`, which re-checks the test's condition. `wait_timeout` only bounds
    a hang. `ack_deadline` is Discord's 3 s window for the initial interaction response; tests may
    lower it to exercise late answers quickly. `settle_quiet` is the silence `settle` requires.
    """

    def __init__(self, spec: SpecIndex, *, host: str = "127.0.0.1") -> None:
        super().__init__()
        self.spec = spec
        self.host = host
        self.port = 0
        self.last_login = float("-inf")  # when a client last logged in (GET /users/@me)
        self.ack_deadline = 3.0
        self.followup_deadline = 15 * 60.0  # an interaction token's lifetime for webhook calls
        self.limits = RateLimits()
        self.settle_quiet = 0.15
        self.wait_timeout = DEFAULT_WAIT_SECONDS
        # The stand-in's clock for rate-limit windows (real time: Discord counts requests as
        # they arrive) and the one for the interaction deadlines (time this process could run,
        # see RunningClock); a test may inject either one it advances itself.
        self.clock: Callable[[], float] = time.monotonic
        self.deadline_clock: Callable[[], float] = RunningClock()
        self.changes = 0
        self._changed = asyncio.Event()
        self.faults: list[Fault] = []
        self.requests: list[RequestLog] = []
        self.gateway = Gateway(self)
        self.oauth = OAuth(self, spec)  # an Activity's sign-in and its instances
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
        where: Callable[[Call], bool] | None = None,
        drop: str | None = None,
        **params: Any,
    ) -> Fault:
        """Answer the next `times` requests to `route` ("POST /channels/{channel_id}/messages")
        with `status` (429 with Discord's rate-limit body and headers, or a 5xx), optionally only
        where path parameters equal `params` (e.g. channel_id=channel.id) and `where(call)` holds
        (a request's body, e.g. one message among the channel's). With `drop` the connection is
        cut instead of answering: "before" Discord took the request, or "after" (it took it,
        and the answer is lost on the way: the bot cannot tell which)."""
        if drop not in (None, "before", "after"):
            raise ValueError(f"drop is 'before' or 'after', not {drop!r}")
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
            where,
            drop,
        )
        self.faults.append(fault)
        return fault

    def requests_to(self, route: str) -> list[RequestLog]:
        method, template = route.split(" ", 1)
        return [r for r in self.requests if r.method == method and r.template == template]

    def rate_limited(self, scope: str | None = None) -> list[RequestLog]:
        """Requests answered 429 (of one scope: "global", "user", "injected")."""
        return [
            r for r in self.requests if r.status == 429 and (scope is None or r.scope == scope)
        ]

    def count_429(self, scope: str | None = None) -> int:
        return len(self.rate_limited(scope))

    def global_request_times(self) -> list[float]:
        """Arrival times (the stand-in's clock) of the requests that count against the global
        limit, in order."""
        return sorted(r.arrived for r in self.requests if r.global_limited)

    def peak_requests(self, window: float = 1.0) -> int:
        """The most global-limited requests that arrived within any `window` seconds."""
        return peak_in_window(self.global_request_times(), window)

    def accept_rate_limits(self) -> int:
        """Mark the 429s so far as provoked by the test (`assert_no_rate_limits` skips them)."""
        hits = self.rate_limited()
        for r in hits:
            r.provoked = True
        return len(hits)

    def assert_no_rate_limits(self) -> None:
        """No request overflowed a limit (injected faults, provoked 429s and a restarted bot's
        first meeting with a window its previous run opened aside)."""
        hits = [r for r in self.rate_limited()
                if r.scope != "injected" and not r.provoked and not r.inherited]
        if hits:
            lines = "\n".join(f"  {r.method} {r.path} ({r.scope})" for r in hits[:10])
            raise AssertionError(f"the bot was rate limited {len(hits)} time(s):\n{lines}")

    def checked_answer(self, call: Call, body: Any) -> web.Response:
        """A 200 answer whose body the spec's response schema must accept (a stand-in that
        answers what Discord never would is recorded as a violation)."""
        found = self.spec.find(call.method, call.path)
        problem = self.spec.validate_response(found[0], body) if found else "no such route"
        if problem:
            self.violation("invalid-response", call, problem, body)
        return json_response(body)

    def violation(self, kind: str, call: Call | None, detail: str, body: Any = None) -> None:
        self.violations.append(
            Violation(kind, call.method if call else "-", call.path if call else "-", detail, body)
        )

    # -- waiting on events -------------------------------------------------------------------

    def notify_change(self) -> None:
        """Wake every `wait_for`: something in the stand-in's world changed."""
        self.changes += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def mass_mentions(self) -> list[str]:
        """Requests whose text Discord would let ping @everyone, @here or roles: a message with
        content but without allowed_mentions (Discord's default parses everything), or one whose
        allowed_mentions parse everyone or roles."""
        found = []
        for r in self.requests:
            bodies = [r.body] if isinstance(r.body, dict) else []
            if bodies and isinstance(bodies[0].get("data"), dict):  # an interaction callback
                bodies.append(bodies[0]["data"])
            for body in bodies:
                if not body.get("content"):
                    continue
                mentions = body.get("allowed_mentions")
                parse = (mentions or {}).get("parse", [])
                if mentions is None or "everyone" in parse or "roles" in parse:
                    found.append(f"{r.method} {r.path}: {str(body.get('content'))[:60]!r} "
                                 f"allowed_mentions={mentions}")
        return found

    def assert_no_mass_mentions(self) -> None:
        found = self.mass_mentions()
        if found:
            lines = "\n".join(f"  {f}" for f in found[:10])
            raise AssertionError(f"{len(found)} message(s) could ping everyone or a role:\n{lines}")

    async def wait_for(
        self,
        condition: Callable[[], T],
        what: str,
        *,
        timeout: float | None = None,
        channels: Any = (),
    ) -> T:
        """Return `condition()` once it is true, re-checking it after every change of the world.

        `condition` must depend on what the stand-in holds, or on bot state that the bot changes
        before its next request (each request wakes this wait). On timeout (`wait_timeout`, 60 s:
        only a hang) it fails with `what` and the last requests and messages of `channels`.
        """
        limit = self.wait_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            found = condition()
            if found:
                return found
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise WaitTimeout(self.report_wait(what, limit, channels))
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except TimeoutError:
                continue

    async def wait_until(self, condition: Callable[[], Any], what: str = "a condition", **kw: Any) -> Any:
        """`wait_for` under its older name."""
        return await self.wait_for(condition, what, **kw)

    def report_wait(self, what: str, waited: float, channels: Any = ()) -> str:
        """The failure text of a wait: what was awaited, the last requests and messages seen."""
        if not isinstance(channels, list | tuple | set):
            channels = [channels]
        lines = [f"waited {waited:.0f}s for {what}; last requests:"]
        lines += [f"  {r.method} {r.path} -> {r.status}" for r in self.requests[-8:]] or ["  none"]
        shown = (
            [m for c in channels for m in self.channel_messages(c, include_ephemeral=True)[-5:]]
            if channels
            else sorted(self.messages.values(), key=lambda m: m.edited_at or m.created_at)[-5:]
        )
        lines.append("last messages:" if shown else "no messages")
        for m in shown:
            embed = m.embeds[0] if m.embeds else {}
            footer = (embed.get("footer") or {}).get("text", "")
            lines.append(
                f"  #{m.channel.name or 'dm'} {m.id}{' (deleted)' if m.deleted else ''}"
                f"{' (loading)' if m.loading else ''}: {m.content[:80]!r} "
                f"{embed.get('title', '')!r} {footer!r} {m.custom_ids()}"
            )
        return "\n".join(lines)

    async def settle(self, quiet: float | None = None, timeout: float | None = None) -> None:
        """Wait until no request is in flight and none arrived for `quiet` seconds.

        This is a timing assumption (the bot might act after the silence), so it only serves a
        test that must show that something does NOT happen; every other wait names its event.
        """
        quiet = self.settle_quiet if quiet is None else quiet
        limit = self.wait_timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self._inflight == 0 and time.monotonic() - self._last_activity >= quiet:
                return
            await asyncio.sleep(0.02)
        raise WaitTimeout(self.report_wait(f"{quiet}s without requests", limit))

    async def drop_gateway(self) -> None:
        """Close the bot's socket with a resumable code; discord.py reconnects and RESUMEs."""
        await self.gateway.drop_connections()

    async def dispatch_interaction(
        self,
        user: User,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        *,
        target: Message | None = None,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE and return its record at once (see `finish_interaction`)."""
        if not self.gateway.connected:
            raise RuntimeError("no bot is connected to the stand-in gateway")
        await self.flush_events()
        if channel.guild is not None and user.id not in channel.guild.members:
            raise AssertionError(f"{user.name} is not a member of {channel.guild.name}")
        if channel.type == CHANNEL_GROUP_DM and user not in channel.recipients:
            raise AssertionError(f"{user.name} is not in the group DM {channel.name}")
        member_here = self.is_member_in(channel)
        owners: dict[str, str] = {}
        if kind in (2, 4):  # a command or its autocomplete
            command = self.find_command(str(data.get("name")), channel.guild if member_here else None)
            if command is not None:
                owners = self.installs_for(user, channel, command)
                if not owners:
                    raise CommandHidden(
                        f"{user.name} cannot see /{command['name']} here (contexts "
                        f"{command.get('contexts')}, installs {command.get('integration_types')})")
                if "0" in owners and channel.guild is not None \
                        and not self.can_use_command(user, channel.guild, command):
                    raise CommandHidden(
                        f"{user.name} cannot see /{command['name']} in {channel.guild.name} "
                        f"(default_member_permissions {command.get('default_member_permissions')})"
                    )
        elif target is not None and target.interaction is not None:
            owners = target.interaction.integration_owners()  # the installs that made the message
        record = new_record(self, user, channel, kind, data, target)
        record.context = self.context_of(channel)
        record.owners = owners
        record.app_permissions = self.app_permissions_in(channel)
        record.foreign = not member_here
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        payload = interaction_payload(self, record)
        record.created_at = self.deadline_clock()
        self._last_activity = time.monotonic()
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    async def finish_interaction(
        self, record: InteractionRecord, *, reply: bool = True
    ) -> InteractionRecord:
        """Wait for the acknowledgement and, if the bot deferred with "thinking", for the answer
        that replaces it (what the user waits for); with `reply=False`, for the ack only.

        No acknowledgement within `ack_deadline` (plus a grace for a late one, which the callback
        route refuses) is recorded as a "no-ack" violation, as Discord would show "The application
        did not respond".
        """
        name = record.data.get("name") or record.data.get("custom_id")
        window = self.ack_deadline + ACK_GRACE_SECONDS
        left = window
        while left > 0:  # the window is measured on the deadline clock, as the callback is judged
            before = self.deadline_clock()
            try:
                await self.wait_for(
                    lambda: record.initial is not None or record.late_callbacks,
                    f"the acknowledgement of interaction {record.id} ({name})",
                    timeout=left,
                )
                break
            except WaitTimeout:
                if self.deadline_clock() == before:  # a test's clock that only it moves
                    break
                left = window - (self.deadline_clock() - record.created_at)
        if record.initial is None:
            self.violation(
                "no-ack",
                None,
                f"interaction {record.id} ({name}) was not acknowledged within {self.ack_deadline:.1f}s",
            )
            return record
        if reply and record.initial.type == 5:
            await self.wait_for(
                lambda: record.original is not None
                and (record.original.deleted or not record.original.loading),
                f"the answer to the deferred interaction {record.id} ({name})",
                channels=[record.channel],
            )
        return record

    async def run_interaction(
        self,
        user: User,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        *,
        target: Message | None = None,
        reply: bool = True,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE and wait for its ack (and deferred answer, see above)."""
        record = await self.dispatch_interaction(user, channel, kind, data, target=target)
        return await self.finish_interaction(record, reply=reply)

    async def answered(self, record: InteractionRecord, count: int = 1) -> list[Message]:
        """The interaction's messages once it has `count` of them with content (not "thinking")."""

        def ready() -> list[Message] | None:
            shown = [m for m in record.messages if not m.loading]
            return shown if len(shown) >= count else None

        name = record.data.get("name") or record.data.get("custom_id")
        return await self.wait_for(
            ready, f"{count} answer(s) to interaction {record.id} ({name})", channels=[record.channel]
        )

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
        path = request.path[len(API_PREFIX) :]
        log = RequestLog(
            request.method,
            path,
            None,
            0,
            None,
            time.time(),
            self.clock(),
            RateLimits.counts_globally(path),
        )
        try:
            response = await self._pipeline(request, log)
        except ConnectionResetError:  # the bot went away mid-request (a test killed it)
            response = web.Response(status=499)  # Discord never took such a request: nobody reads this
        except Exception as exc:  # a stand-in bug must fail the test, not hang the bot
            self.violations.append(Violation("standin-error", request.method, log.path, repr(exc)))
            response = discord_error(500, 0, "500: Internal Server Error (stand-in)")
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
        log.status = response.status
        if log.limit_headers:
            for name, value in log.limit_headers.items():
                response.headers.setdefault(name, value)
        self.requests.append(log)
        self.notify_change()
        return response

    async def _pipeline(self, request: web.Request, log: RequestLog) -> web.StreamResponse:
        method, path = request.method, log.path
        if method == "POST" and path == self.oauth.token_path:  # named by the spec's OAuth2 scheme
            log.template = self.oauth.token_path
            return await self.oauth.token(request, log)
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
        authorization = request.headers.get("Authorization", "")
        if path.startswith(UNAUTHENTICATED_PREFIXES):
            pass
        elif authorization.startswith("Bearer "):  # a user's OAuth2 token, as the spec allows
            grant = self.oauth.bearer(call, op, authorization)
            if isinstance(grant, web.Response):
                return grant
            call.grant = grant
        elif authorization != f"Bot {self.token}":
            self.violation("unauthorized", call, "missing or wrong bot token")
            return discord_error(401, 0, "401: Unauthorized")
        problem = await self._read_body(request, call, op)
        log.body = call.body
        if problem is not None:
            return problem
        dropped = None
        for fault in self.faults:
            if fault.matches(call):
                fault.remaining -= 1
                if fault.drop is None:
                    log.scope = "injected" if fault.status == 429 else None
                    return self._fault_response(fault, method, op.template)
                dropped = fault.drop
                break
        if dropped == "before":
            return _cut(request)
        if method == "GET" and op.template == "/users/@me" and call.grant is None:  # discord.py's login
            self.last_login = log.arrived
        verdict = self.limits.check(method, path, op.template, params, log.arrived, log.at)
        log.limit_headers = verdict.headers
        if not verdict.allowed:
            log.scope = verdict.scope
            log.inherited = verdict.scope == "user" and verdict.window_opened < self.last_login
            return rate_limited(verdict)
        handler = rest.HANDLERS.get((method, op.template))
        if handler is None:
            self.violation(
                "unimplemented",
                call,
                "route exists in Discord but not in the stand-in; extend rest.py",
                call.body,
            )
            return discord_error(501, 0, "Not implemented by the stand-in")
        response = await handler(self, call)
        return _cut(request) if dropped == "after" else response

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

    def _fault_response(self, fault: Fault, method: str, template: str) -> web.Response:
        if fault.status != 429:
            return discord_error(fault.status, 0, f"{fault.status}: Server error (injected)")
        if fault.is_global:
            return rate_limited(
                Verdict(False, "global", fault.retry_after, {"X-RateLimit-Global": "true"})
            )
        headers = {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            # The route's own bucket, as Discord's 429 names it: another hash would make
            # discord.py move the route to a new bucket and forget what each channel has left.
            "X-RateLimit-Bucket": RateLimits.bucket_hash(method, template),
        }
        return rate_limited(Verdict(False, "user", fault.retry_after, headers))


def rate_limited(verdict: Verdict) -> web.Response:
    """Discord's 429: the JSON body, Retry-After and the scope headers."""
    retry_after = round(verdict.retry_after, 3)
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": verdict.scope == "global",
    }
    headers = {
        **verdict.headers,
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
        "X-RateLimit-Scope": verdict.scope or "user",
    }
    return json_response(body, 429, headers)


def _cut(request: web.Request) -> web.Response:
    """Cut the request's connection with no answer, as a network failure does (status 499 in
    the stand-in's own log: nobody reads the response)."""
    if request.transport is not None:
        request.transport.abort()
    return web.Response(status=499)
