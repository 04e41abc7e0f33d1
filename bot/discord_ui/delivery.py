"""Getting table updates to Discord within its rate limits: latest state wins, in order per message.

Discord lets a bot make about 50 REST requests a second in all (interaction responses and their
webhook follow-ups are exempt) and limits each route per channel. A busy table changes faster than
that, so nothing here sends "this move"; it marks a message as out of date and a single task per
message brings it to the table's *current* state. When the AI moves three times while an edit is in
flight, the message is edited once more, not three times, and a player never sees an older state
after a newer one. One-off messages (round summaries, race calls, warnings) keep their order in a
queue per table. A delivery that fails for a passing reason (Discord answered 429 after the
client's own retries, or a server error) is tried again after a pause, with the state current by
then, so a burst of 429s delays a hand instead of losing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable, Iterator
from typing import Any

import aiohttp
import discord

from bot.metrics import DELIVERIES_RETRIED
from bot.store import StoreError

log = logging.getLogger(__name__)

GLOBAL_RATE = 40.0
GLOBAL_BURST = 5.0
"""Requests per second (and at once) this bot allows itself on rate-limited routes. A token bucket
lets ``burst + rate`` requests into any one second: 45, under Discord's global limit of 50 with a
margin for the way there: Discord counts a request when it arrives, the budget when it leaves."""


EXEMPT_PATHS = ("/interactions/", "/webhooks/")
"""Paths under the API that Discord's global limit does not count: interaction callbacks and the
interaction webhooks (follow-ups and edits through an interaction's token)."""

FRESH = 0.1
"""Seconds a token taken before discord.py's wait for the route's bucket stays good for its
request. Spent within it, no second carries more than ``burst + rate * (1 + FRESH)`` = 49
requests; a request that waited longer pays again as it leaves."""

_THEN: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar("then", default=None)
_PAID: contextvars.ContextVar[float | None] = contextvars.ContextVar("paid", default=None)
# The route and channel (or server) of the request under way, for the answer's window to be noted.
_WINDOW: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar("window", default=None)


def counts_globally(url: str) -> bool:
    """Whether a request to ``url`` counts against the bot's global limit: anything under the
    API but the exempt paths (the gateway's socket is elsewhere)."""
    base = discord.http.Route.BASE  # read at each call: tests aim it at the stand-in
    return url.startswith(base + "/") and not url[len(base):].startswith(EXEMPT_PATHS)


class RestBudget:
    """A token bucket shared by every request subject to Discord's global rate limit.

    The bot's HTTP client pays for each such request itself (:meth:`pace`): a token before
    discord.py's wait for the route's bucket, so that a request discord.py lets through goes
    out at once (its count of a route's requests in flight assumes so), and another as it
    leaves when it waited there longer than :data:`FRESH`, or is a retry after a 429 (taken
    without waiting, the requests after it wait longer). A token spent late lands in a second
    whose tokens were all handed out already, and the bot goes over the limit it keeps under.
    Interaction responses and webhook edits, which the limit does not count, take none."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: float = GLOBAL_BURST,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._stamp = clock()
        self._lock = asyncio.Lock()
        self.waited = 0  # requests that had to wait for a token (a sign of saturation)
        self.paid_again = 0  # requests that left too long after their token (or retried)

    @classmethod
    def share_of_the_bot(cls, share: float) -> RestBudget:
        """The budget of one process running ``share`` of a bot's shards (the limit is the
        bot's, shared by all its processes)."""
        return cls(rate=GLOBAL_RATE * share, burst=max(1.0, GLOBAL_BURST * share))

    def pace(self, http: Any) -> None:
        """Make discord.py's HTTP client ``http`` take a token for each request the global limit
        counts, before its wait for the route's bucket."""
        request = http.request

        async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
            if not counts_globally(route.url):
                return await request(route, **kwargs)
            await self.acquire()
            paid = _PAID.set(self._clock())
            then = _THEN.get()
            if then is not None:
                then()
            try:
                return await request(route, **kwargs)
            finally:
                _PAID.reset(paid)

        http.request = paced

    def trace(self) -> aiohttp.TraceConfig:
        """The hook to give the same client (discord.py's ``http_trace``): it sees each request
        leave, after every wait, retries included."""
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._before_request)
        return config

    async def _before_request(self, session: Any, context: Any,
                              params: aiohttp.TraceRequestStartParams) -> None:
        if not counts_globally(str(params.url)):
            return
        paid = _PAID.get()
        if paid is None or self._clock() - paid > FRESH:
            self.charge()
        _PAID.set(None)  # a retry of this request pays again

    @staticmethod
    @contextlib.contextmanager
    def then(callback: Callable[[], None]) -> Iterator[None]:
        """Call ``callback`` once a request made inside the block has its token, before
        discord.py's wait for the route's bucket (a table gives its turn up then: neither a busy
        channel nor Discord's answer holds up the other tables)."""
        reset = _THEN.set(callback)
        try:
            yield
        finally:
            _THEN.reset(reset)

    def charge(self) -> None:
        """Take a token now, waiting for none: the tokens may go below zero, and the requests
        after this one wait until they are back."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate) - 1
        self._stamp = now
        self.paid_again += 1

    async def acquire(self) -> None:
        """Take a token, waiting for one (first come, first served)."""
        async with self._lock:
            await self._refill()
            self._tokens = max(0.0, self._tokens - 1)

    async def ready(self) -> None:
        """Wait, in the same queue, until a token is there, and leave it for the request that
        follows: a caller that may drop its request after a wait looks again first."""
        async with self._lock:
            await self._refill()

    async def _refill(self) -> None:
        """Return once at least one token is there (the caller holds the lock)."""
        while True:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            if self._tokens >= 1 - 1e-9:  # rounding must not leave a request waiting forever
                return
            self.waited += 1
            await self._sleep((1 - self._tokens) / self.rate)


class RouteTurns:
    """One request at a time on each route of each channel (or guild, or webhook).

    discord.py counts each bucket's requests itself, and that count holds only while no request
    waits inside it: one that waits there wakes on a timer of its own and starts the bucket
    afresh, and one that comes in after the bucket's reset but before the sleep of the request
    that emptied it is over makes the sleeper start it afresh a second time, so a window takes
    more requests than Discord allows and the one too many is refused (a 429). Here a request
    waits, in order, until the one before it on its route and channel left discord.py, which
    sleeps out the bucket's reset as it leaves; discord.py then never holds two requests of one
    bucket and its count stays Discord's. Routes without a major parameter (a DM's opening,
    the bot's own user) keep discord.py's own wait: their buckets are the whole bot's and wide."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._turns: dict[tuple[str, str], asyncio.Lock] = {}
        self._users: dict[tuple[str, str], int] = {}
        self._clock = clock
        self._sleep = sleep
        self._held: dict[tuple[str, str], float] = {}  # windows a previous run spent: their ends
        self._held_until = 0.0  # when the last of them ends

    def hold(self, windows: dict[tuple[str, str], float]) -> None:
        """Make the first request on each route and channel of ``windows`` wait until its
        window ends (on this object's clock): windows a previous run of the bot spent, which
        Discord would answer with a 429 (see :class:`SpentWindows`)."""
        now = self._clock()
        self._held.update({key: end for key, end in windows.items() if end > now})
        self._held_until = max(self._held.values(), default=0.0)

    def held(self) -> int:
        """Routes and channels whose first request still waits for a previous run's window."""
        if self._held and self._clock() >= self._held_until:
            self._held.clear()
        return len(self._held)

    def keep(self, http: Any) -> None:
        """Make discord.py's HTTP client ``http`` send one request at a time per route and
        major parameter (wrap it before :meth:`RestBudget.pace`, so a request pays its token
        and gives its table's turn up before it waits here)."""
        request = http.request

        async def in_turn(route: discord.http.Route, **kwargs: Any) -> Any:
            major = route.major_parameters
            if not major:
                return await request(route, **kwargs)
            key = (route.key, major)
            async with self.turn(key):
                if self._held:
                    await self._wait_out(key)
                # A token must never reach the store: only a channel's or a server's window is noted.
                noted = None if route.webhook_token is not None else _WINDOW.set(key)
                try:
                    return await request(route, **kwargs)
                finally:
                    if noted is not None:
                        _WINDOW.reset(noted)

        http.request = in_turn

    async def _wait_out(self, key: tuple[str, str]) -> None:
        """The first request on ``key`` since the start waits for the previous run's window (it
        holds the turn meanwhile: the requests after it wait behind it)."""
        end = self._held.pop(key, None)
        if end is None:
            self.held()  # drops the rest once the last window ended
            return
        if (delay := end - self._clock()) > 0:
            await self._sleep(delay)

    @contextlib.asynccontextmanager
    async def turn(self, key: tuple[str, str]) -> AsyncIterator[None]:
        """Hold ``key``'s turn for the block; the lock is dropped once nobody holds or awaits it
        (a bot sees many DM channels once each)."""
        lock = self._turns.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._turns[key]

    def __len__(self) -> int:
        """Routes and channels with a request going or waiting."""
        return len(self._turns)


class SpentWindows:
    """Discord's rate-limit windows this run spent, written to the store for the next start.

    Discord says what is left of a window only in its answers to that window's requests, so a
    bot started again within a window its previous run spent cannot know it, and its first
    request there draws a 429 that Discord counts against the bot (too many and Discord shuts
    the bot out for an hour). Each answer that says its window is spent (none left, or a 429)
    is noted here with when the window ends, by route and channel (or server; never a token),
    and written to the store a moment later, several in one write (:meth:`keep`); a clean stop
    writes the rest (:meth:`flush`). The next start reads those still open
    (:meth:`still_open`) and hands them to :meth:`RouteTurns.hold`. A crash loses at most the
    last :data:`WRITE_EVERY` seconds of them: those windows draw their 429 as before."""

    WRITE_EVERY = 0.25
    RETRY_AFTER = 5.0

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock  # wall time: the next start may be another process
        self._new: dict[tuple[str, str], int] = {}  # noted since the last write: ends in ms
        self.noted = asyncio.Event()  # set while a window is noted and not yet written
        self.written = 0  # windows written so far

    def trace(self, config: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
        """Hook ``config`` (discord.py's ``http_trace``) to see every answer, retries included."""
        config.on_request_end.append(self._after_request)
        return config

    async def _after_request(self, session: Any, context: Any,
                             params: aiohttp.TraceRequestEndParams) -> None:
        key = _WINDOW.get()
        if key is None:
            return
        headers = params.response.headers
        if headers.get("X-RateLimit-Remaining") != "0" and params.response.status != 429:
            return
        if headers.get("X-RateLimit-Global") or headers.get("X-RateLimit-Scope") == "shared":
            return  # not this bot's window of this route
        try:
            reset_after = float(headers.get("X-RateLimit-Reset-After") or headers.get("Retry-After") or "")
        except ValueError:
            return
        self.note(key, reset_after)

    def note(self, key: tuple[str, str], reset_after: float) -> None:
        """The window of ``key`` is spent and ends ``reset_after`` seconds from now."""
        end = int((self._clock() + reset_after) * 1000) + 1
        if end > self._new.get(key, 0):
            self._new[key] = end
        self.noted.set()

    async def keep(self, store: Any) -> None:
        """Write what is noted, :data:`WRITE_EVERY` seconds after the first of it, for ever (a
        write that fails is tried again :data:`RETRY_AFTER` seconds later)."""
        while True:
            await self.noted.wait()
            await asyncio.sleep(self.WRITE_EVERY)
            if not await self.flush(store):
                await asyncio.sleep(self.RETRY_AFTER)

    async def flush(self, store: Any) -> bool:
        """Write what is noted now; False when the store could not take it (it is kept)."""
        self.noted.clear()
        spent, self._new = self._new, {}
        if not spent:
            return True
        try:
            await store.note_rest_windows(spent, int(self._clock() * 1000))
        except (StoreError, asyncio.CancelledError) as exc:  # the store logs its own trouble
            for key, end in spent.items():  # kept for the next write (a stop's last one)
                self._new[key] = max(end, self._new.get(key, 0))
            self.noted.set()
            if isinstance(exc, asyncio.CancelledError):
                raise
            log.info("the spent rate-limit windows wait for the next write: %s", exc)
            return False
        self.written += len(spent)
        return True

    async def still_open(self, store: Any, clock: Callable[[], float] = time.monotonic
                         ) -> dict[tuple[str, str], float]:
        """The windows a previous run left open, with their ends on ``clock`` (for
        :meth:`RouteTurns.hold`)."""
        now = self._clock()
        found = await store.rest_windows(int(now * 1000))
        base = clock()
        return {key: base + (end / 1000 - now) for key, end in found.items()}


RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Pauses before each new try of a delivery that failed for a passing reason; past the last one
the delivery is tried again after the last pause for as long as it fails so."""

STILL_FAILING_EVERY = 20
"""Past the listed pauses, a delivery that still fails is logged again once in this many tries
(every ten minutes at 30 s), so that a long outage says it lasts without a line per table and try."""


def fixed_nonce(kind: str, *parts: object) -> str:
    """A message's nonce fixed by what the message is (``kind`` and ``parts``: a game, a seat,
    a turn, the message it replaces), within Discord's 25 characters: the same post sent again
    (a retry after a cut connection, a start after a stop) is kept once by Discord, which returns
    the message first sent under it."""
    digest = hashlib.blake2b(".".join(map(str, parts)).encode(), digest_size=10).hexdigest()
    return f"{kind[:5]}{digest}"


UNDELIVERED = (discord.HTTPException, aiohttp.ClientError, OSError)
"""What a request to Discord raises when it did not go through: Discord's refusal, or the
connection's failure (which discord.py passes on as it is; Discord may have taken the request)."""


def never(exc: Exception) -> bool:
    return False


def passing(exc: Exception) -> bool:
    """A failure worth another try later: Discord still said 429 after discord.py's own retries
    (a burst at the global limit), a server error, or the connection to Discord failed (reset,
    refused, cut, timed out), which discord.py passes on as it is. After a 429 or a server error
    Discord took nothing; after a cut connection it may have, so what is tried again must be an
    edit (the same edit again) or a post under a nonce (which Discord keeps once)."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, (aiohttp.ClientError, OSError))  # a TimeoutError is an OSError


class RefusedForGood(Exception):
    """Discord will never take this post (the channel gone, the bot shut out of it)."""


async def post_owed(channel: discord.abc.Messageable, what: str, **message: Any) -> discord.Message | None:
    """Post a message the store keeps owing until it is noted (an announcement, a sign-up the
    bot opened): the message once Discord took it; None when it should be asked again later (a
    429 or 5xx after discord.py's own retries, the network); :class:`RefusedForGood` when never.
    ``message`` carries a nonce, so a post repeated after a stop between sending and noting it
    is kept once by Discord."""
    return await _owed(channel.send(**message), what, getattr(channel, "id", "?"))


async def dm_owed(client: discord.Client, user_id: int, what: str, **message: Any
                  ) -> discord.Message | None:
    """:func:`post_owed` in the DM channel of ``user_id``, opened by the user's id alone (a
    member who shares no server with the bot, or closed their DMs, is refused for good)."""
    async def send() -> discord.Message:
        opened = await client.http.start_private_message(user_id)
        return await client.get_partial_messageable(int(opened["id"])).send(**message)
    return await _owed(send(), what, "a DM")


async def settle_owed(sending: Awaitable[discord.Message | None],
                      note: Callable[[discord.Message | None], Awaitable[Any]]) -> bool:
    """Await an owed post (:func:`post_owed`, :func:`dm_owed`) and ``note`` its outcome: the
    message Discord took, or None when it refused for good. False, with nothing noted, when
    Discord should be asked again later."""
    try:
        sent = await sending
    except RefusedForGood:
        await note(None)
        return True
    if sent is None:
        return False
    await note(sent)
    return True


async def _owed(sending: Awaitable[discord.Message], what: str, where: object
                ) -> discord.Message | None:
    try:
        return await sending
    except UNDELIVERED as exc:
        if isinstance(exc, discord.HTTPException) and not passing(exc):
            log.warning("%s cannot be posted in channel %s (%s)", what, where, exc)
            raise RefusedForGood() from exc
        log.warning("%s will be posted again later (%s)", what, exc)
        return None


class Retry:
    """When and how long to wait before trying a failed delivery again.

    ``transient(exc)`` says whether a failure may pass (the caller knows its client's errors);
    ``sleep`` is injectable so tests decide how long "later" is.
    """

    def __init__(self, transient: Callable[[Exception], bool] = never,
                 delays: tuple[float, ...] = RETRY_DELAYS,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.transient = transient
        self.delays = delays
        self.sleep = sleep
        self.retried = 0  # deliveries tried again (a sign of trouble worth a metric)

    async def after(self, exc: Exception, failures: int, what: object) -> bool:
        """Wait before try number ``failures + 1``; False when ``exc`` is final (logged here).

        A passing failure is never final: Discord away for longer than the listed pauses (an
        outage, the network cut for minutes) must not leave a table, a hand or a summary behind
        its game until a restart, so past them the delivery is tried again after the last pause
        for as long as it fails so, each try drawing the state of then. Only a refusal for good
        (a message or channel gone, the bot shut out) or a stop ends the tries."""
        if not self.transient(exc) or not self.delays:
            log.error("delivering %s failed (try %d, the last)", what, failures + 1, exc_info=exc)
            return False
        listed = len(self.delays)
        delay = self.delays[min(failures, listed - 1)]
        if failures < listed:
            log.warning("delivering %s failed (%s); trying again in %g s", what, exc, delay)
        elif (failures - listed) % STILL_FAILING_EVERY == 0:
            log.warning("delivering %s still fails after %d tries (%s); trying again every %g s "
                        "until it goes through", what, failures + 1, exc, delay)
        self.retried += 1
        DELIVERIES_RETRIED.inc()
        await self.sleep(delay)
        return True


async def delivered(job: Callable[[], Awaitable[Any]], what: object, retry: Retry | None = None) -> bool:
    """Run ``job`` (one request to Discord, or a few drawing the state of then) until it goes
    through, trying it again after ``retry``'s pauses on a passing failure; False after a refusal
    for good (logged by the retry). For the edits no table owns (a lobby's message, a challenge
    closed by its expiry), which :class:`Coalescer` and :class:`Sequencer` do not carry."""
    retry = retry or Retry(passing)
    failures = 0
    while True:
        try:
            await job()
            return True
        except UNDELIVERED as exc:
            if not await retry.after(exc, failures, what):
                return False
            failures += 1


class Coalescer:
    """Runs at most one job per key at a time; marking a key while its job runs runs the latest
    job once more afterwards, however many marks came in between.

    Keys marked ``gated`` take turns: at most :attr:`gate` of their jobs run at once, and the
    others wait in a queue, oldest first, as a key and nothing more. A job is only built and
    started when its turn comes, so what it shows is the state current by then (a table's
    pending states merge into one drawing), and a long queue holds no task, coroutine or
    future alive meanwhile for the garbage collector's full passes to walk (issue 49). A job
    gives its turn up early with :meth:`release` once what the turns ration is done (the
    drawing): the next one need not wait out its request's round trip to Discord.

    ``gate`` is the number of turns, or a function saying how many there are now (read each
    time a turn is given: a narrower gate takes no turn back, it gives no new one)."""

    def __init__(self, retry: Retry | None = None, gate: int | Callable[[], int] = 1) -> None:
        self._jobs: dict[Hashable, Callable[[], Awaitable[None]]] = {}
        self._running: dict[Hashable, asyncio.Task[None]] = {}
        self._again: set[Hashable] = set()
        self._queued: dict[Hashable, None] = {}  # gated keys waiting for their turn, oldest first
        self._failures: dict[Hashable, int] = {}  # failed tries of a gated key queued again
        self._turns: set[Hashable] = set()  # gated keys whose job holds a turn now
        self.gate = gate
        self.retry = retry or Retry()
        self.closed = False

    @property
    def gate(self) -> int:
        """The turns there are now (at least one, so that a queued key always moves on)."""
        gate = self._gate
        return max(1, gate() if callable(gate) else gate)

    @gate.setter
    def gate(self, gate: int | Callable[[], int]) -> None:
        self._gate = gate

    def mark(self, key: Hashable, job: Callable[[], Awaitable[None]], *, gated: bool = False) -> None:
        if self.closed:  # the bot is shutting down: a restart redraws every table anyway
            return
        self._jobs[key] = job
        if key in self._running:
            self._again.add(key)
        elif gated:
            self._queued.setdefault(key, None)  # a key already queued keeps its place
            self._admit()
        else:
            self._running[key] = asyncio.create_task(self._run(key, gated=False), name=f"deliver {key}")

    def _admit(self) -> None:
        """Start the oldest queued keys while a turn is free."""
        while self._queued and not self.closed and len(self._turns) < self.gate:
            key = next(iter(self._queued))
            del self._queued[key]
            self._turns.add(key)
            self._running[key] = asyncio.create_task(self._run(key, gated=True), name=f"deliver {key}")

    def release(self, key: Hashable | None) -> None:
        """Give up ``key``'s turn before its job ends (nothing when it holds none, or for None:
        a job that takes no turns)."""
        if key in self._turns:
            self._turns.discard(key)
            self._admit()

    async def _run(self, key: Hashable, gated: bool) -> None:
        failures = self._failures.pop(key, 0)
        queue_again = False
        try:
            while True:
                self._again.discard(key)
                try:
                    await self._jobs[key]()
                    failures = 0
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if gated:  # the pause before the next try holds no turn
                        self.release(key)
                        if await self.retry.after(exc, failures, key):
                            self._failures[key] = failures + 1
                            queue_again = True
                            return
                        failures = 0
                    elif await self.retry.after(exc, failures, key):
                        failures += 1
                        self._again.add(key)  # the latest job, whatever was marked meanwhile
                    else:
                        failures = 0
                if key not in self._again:
                    return
                if gated:  # marked meanwhile: it queues again, behind those waiting
                    queue_again = True
                    return
        finally:
            self._running.pop(key, None)
            self._turns.discard(key)
            if queue_again and not self.closed:
                self._queued.setdefault(key, None)
            else:
                self._jobs.pop(key, None)
            self._admit()

    async def settle(self, keys: Iterable[Hashable]) -> None:
        """Wait until none of ``keys`` has a job running or due."""
        keys = list(keys)
        while due := [k for k in keys if k in self._running or k in self._queued]:
            running = [self._running[k] for k in due if k in self._running]
            if not await self._wait(running):
                return

    async def _wait(self, tasks: list[asyncio.Task[None]]) -> bool:
        """Wait for ``tasks``, or, for a key that is only queued, for any running job (a queued
        key starts when one ends); False when nothing runs that could move the queue on."""
        if not tasks:
            self._admit()
            tasks = list(self._running.values())
        if not tasks:
            return False
        await asyncio.gather(*tasks, return_exceptions=True)
        return True

    def pending(self) -> int:
        return len(self._running) + len(self._queued)

    async def drain(self) -> None:
        """Wait until every marked job ran (new marks made meanwhile included)."""
        while self._running or self._queued:
            if not await self._wait(list(self._running.values())):
                return

    def cancel(self) -> None:
        self.closed = True
        self._queued.clear()
        for task in self._running.values():
            task.cancel()


class Sequencer:
    """One-off sends of a table, one after the other in the order they were queued."""

    def __init__(self, retry: Retry | None = None) -> None:
        self._tails: dict[Hashable, asyncio.Task[None]] = {}
        self.retry = retry or Retry()
        self.closed = False

    def queue(self, key: Hashable, job: Callable[[], Awaitable[None]]) -> None:
        if self.closed:
            return
        previous = self._tails.get(key)
        task = asyncio.create_task(self._after(previous, key, job), name=f"post {key}")
        self._tails[key] = task
        task.add_done_callback(lambda t: self._tails.get(key) is t and self._tails.pop(key, None))

    async def _after(self, previous: asyncio.Task[None] | None, key: Hashable,
                     job: Callable[[], Awaitable[None]]) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        failures = 0
        while True:  # later posts of the table wait: a retried post keeps its place
            try:
                await job()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not await self.retry.after(exc, failures, f"a post of {key}"):
                    return
                failures += 1

    async def settle(self, key: Hashable) -> None:
        """Wait until every send queued under ``key`` so far is done."""
        while (task := self._tails.get(key)) is not None and task is not asyncio.current_task():
            await asyncio.gather(task, return_exceptions=True)

    async def drain(self) -> None:
        while self._tails:
            await asyncio.gather(*list(self._tails.values()), return_exceptions=True)

    def cancel(self) -> None:
        self.closed = True
        for task in self._tails.values():
            task.cancel()
