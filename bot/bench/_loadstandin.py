"""The Discord stand-in of the test suite, instrumented for the load benchmark.

It serves the bot exactly as in the end-to-end tests (same routes, checks and answers) and adds
what a load run needs: the arrival time of every REST request (for requests per second and 429s),
of every interaction callback (for acknowledgement times), a hook told about every message the
bot creates or edits (for what players see), and a way to send interactions without waiting for
the whole stand-in to go quiet. To keep its own CPU cost low at hundreds of tables it forgets
what a benchmark never looks at (uploaded image bytes, message revisions, the request log) and
may check only one request body in ``validate_every`` against Discord's spec.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.discord_standin import Channel, InteractionRecord, Message, SpecIndex, StandIn, User
from tests.discord_standin.server import API_PREFIX
from tests.discord_standin.users import interaction_payload, new_record

# Requests outside Discord's global rate limit: interaction callbacks and webhook (followup) calls.
UNLIMITED_PREFIXES = ("/interactions/", "/webhooks/")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
_CHANNEL_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")
_WEBHOOK_MESSAGE = re.compile(r"/webhooks/\d+/([^/]+)(?:/messages/(@original|\d+))?")

MessageHook = Callable[[Message, float], None]
CallbackHook = Callable[[int, float, int], None]


class SampledSpec:
    """A `SpecIndex` that validates one request body (and its path ids) in ``every``."""

    def __init__(self, spec: SpecIndex, every: int) -> None:
        self._spec = spec
        self._counter = itertools.count()
        self.every = every
        self.checked = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spec, name)

    def _due(self) -> bool:
        return next(self._counter) % self.every == 0

    def validate_body(self, op: Any, content_type: str, body: Any) -> Any:
        if not self._due():
            return None
        self.checked += 1
        return self._spec.validate_body(op, content_type, body)

    def validate_path_params(self, op: Any, params: dict[str, str]) -> str | None:
        return self._spec.validate_path_params(op, params) if self._due() else None


class LoadStandIn(StandIn):
    """A `StandIn` reporting to a load driver; see the module docstring."""

    def __init__(self, spec: SpecIndex, *, validate_every: int = 1) -> None:
        super().__init__(spec)
        if validate_every > 1:
            self.spec = SampledSpec(spec, validate_every)  # type: ignore[assignment]
        # A player waits in real time, however busy the machine: the bench's deadline is the
        # wall clock (the tests' stand-in counts only the time the process could run).
        self.deadline_clock = time.monotonic
        self.rest_times: list[float] = []  # monotonic arrival of rate-limited requests
        self.rest_total = 0
        self.rate_limited = 0
        self.callback_at: dict[int, float] = {}  # interaction id -> first callback arrival
        self.on_message: MessageHook | None = None
        self.on_callback: CallbackHook | None = None
        # Discord answers from across the internet: each REST answer comes this much later
        # than it would from this machine (what the bot's requests wait for, not its acks).
        self.rest_delay = 0.0

    async def _handle_rest(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        path = request.path[len(API_PREFIX):]
        self.rest_total += 1
        callback = _CALLBACK.fullmatch(path)
        if callback is not None:
            self.callback_at.setdefault(int(callback[1]), arrived)
        elif not path.startswith(UNLIMITED_PREFIXES):
            self.rest_times.append(arrived)
        if self.rest_delay:
            await asyncio.sleep(self.rest_delay)
        response = await super()._handle_rest(request)
        if len(self.requests) > 256:  # nothing reads the log here; keep memory flat
            del self.requests[:]
        if response.status == 429:
            self.rate_limited += 1
        if callback is not None:
            if self.on_callback is not None:
                self.on_callback(int(callback[1]), arrived, response.status)
        elif response.status == 200 and request.method in ("POST", "PATCH"):
            self._after_message_write(path, request.method, response)
        return response

    def _after_message_write(self, path: str, method: str, response: web.StreamResponse) -> None:
        msg = self._webhook_target(path, method)
        found = _CHANNEL_MESSAGE.fullmatch(path) if msg is None else None
        if found is not None and method == "PATCH" and found[2]:
            msg = self.messages.get(int(found[2]))
        elif found is not None and method == "POST" and not found[2] and isinstance(response, web.Response):
            msg = self.messages.get(int(json.loads(response.body)["id"]))  # type: ignore[arg-type]
        if msg is None:
            return
        for attachment in msg.attachments:
            attachment.data = b""  # the bot never downloads them back
        msg.history.clear()
        if self.on_message is not None:
            self.on_message(msg, time.monotonic())

    def _webhook_target(self, path: str, method: str) -> Message | None:
        """The message an interaction's token wrote: the bot answers and edits tables and hands
        through interactions too (their edits are exempt from the global rate limit)."""
        found = _WEBHOOK_MESSAGE.fullmatch(path)
        record = self.interactions_by_token.get(found[1]) if found is not None else None
        if record is None:
            return None
        if found[2] == "@original":
            return record.original
        if found[2] is None:  # a followup: a new message, or the one replacing "thinking"
            return record.followups[-1] if record.followups else record.original
        return next((m for m in [record.original, *record.followups] if m is not None and m.id == int(found[2])),
                    None)

    async def send_interaction(self, user: User, channel: Channel, kind: int, data: dict[str, Any],
                               target: Message | None = None,
                               register: Callable[[InteractionRecord], None] | None = None,
                               ) -> InteractionRecord:
        """Dispatch one INTERACTION_CREATE and return its record without waiting for the bot;
        ``register`` sees the record just before it leaves."""
        record = new_record(self, user, channel, kind, data, target)
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        payload = interaction_payload(self, record)
        record.created_at = time.monotonic()
        if register is not None:
            register(record)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        for session in self.gateway.sessions.values():
            if len(session.sent) > 2000:  # kept for RESUME replays, which a load run never needs
                del session.sent[:-200]
        return record
