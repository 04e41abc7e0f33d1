"""Delivery mechanics of table updates: latest state wins per message, order per table, and a
client-side share of Discord's global rate limit."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import aiohttp
import discord
import pytest
import yarl

from bot.discord_ui.delivery import (
    STILL_FAILING_EVERY,
    Coalescer,
    RefusedForGood,
    RestBudget,
    Retry,
    RouteTurns,
    Sequencer,
    SpentWindows,
    counts_globally,
    dm_owed,
    post_owed,
    settle_owed,
)
from bot.store import StoreUnavailable

pytestmark = pytest.mark.asyncio


async def test_marks_during_a_running_job_run_the_latest_job_once_more():
    coalescer = Coalescer()
    release = asyncio.Event()
    started = asyncio.Event()
    ran: list[str] = []

    def job(name: str):
        async def run() -> None:
            ran.append(name)
            started.set()
            if name == "first":
                await release.wait()
        return run

    coalescer.mark("table", job("first"))
    await started.wait()
    for name in ("second", "third", "fourth"):  # three states while the first edit is in flight
        coalescer.mark("table", job(name))
    release.set()
    await coalescer.drain()
    assert ran == ["first", "fourth"]  # one more edit, with the latest state


async def test_a_failing_job_does_not_stop_later_updates():
    coalescer = Coalescer()
    ran: list[int] = []

    async def boom() -> None:
        raise RuntimeError("Discord said no")

    async def fine() -> None:
        ran.append(1)

    coalescer.mark("hand", boom)
    await coalescer.drain()
    coalescer.mark("hand", fine)
    await coalescer.drain()
    assert ran == [1]


async def test_posts_of_a_table_keep_their_order():
    sequencer = Sequencer()
    gates = [asyncio.Event() for _ in range(3)]
    done: list[int] = []

    def post(i: int):
        async def run() -> None:
            await gates[i].wait()
            done.append(i)
        return run

    for i in range(3):
        sequencer.queue("table", post(i))
    for gate in reversed(gates):  # released in reverse, delivered in order all the same
        gate.set()
    await sequencer.drain()
    assert done == [0, 1, 2]


async def test_the_budget_spreads_requests_at_its_rate():
    now = [0.0]
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:  # a controllable clock: no wall-clock waiting
        slept.append(seconds)
        now[0] += seconds

    budget = RestBudget(rate=50.0, burst=50, clock=lambda: now[0], sleep=fake_sleep)
    for _ in range(150):
        await budget.acquire()
    # 50 at once (the burst), then one every 1/50 s: 100 more take two seconds.
    assert now[0] == pytest.approx(2.0)
    assert budget.waited == 100
    assert max(slept) <= 1 / 50 + 1e-9


async def test_requests_under_the_api_count_against_the_global_limit_but_interactions_and_webhooks():
    base = discord.http.Route.BASE
    assert counts_globally(f"{base}/channels/5/messages")
    assert counts_globally(f"{base}/users/@me/channels")
    assert not counts_globally(f"{base}/interactions/9/token/callback")
    assert not counts_globally(f"{base}/webhooks/1/token/messages/@original")
    assert not counts_globally("wss://gateway.discord.gg/?v=10")
    assert not counts_globally(base + "extra/channels/5")  # another path that merely starts alike


class FakeHTTP:
    """discord.py's HTTP client as the budget sees it: ``request`` waits ``route_wait`` seconds
    of the budget's clock for the route's bucket, then the request leaves (the trace hook)."""

    def __init__(self, budget: RestBudget, now: list[float]) -> None:
        self.budget, self.now, self.route_wait = budget, now, 0.0

    async def request(self, route: discord.http.Route, **kwargs) -> None:
        self.now[0] += self.route_wait
        await self.budget._before_request(None, None, SimpleNamespace(url=yarl.URL(route.url)))


async def test_a_request_pays_before_its_routes_wait_and_again_only_after_a_long_one():
    now = [0.0]

    async def fake_sleep(seconds: float) -> None:
        now[0] += seconds

    budget = RestBudget(rate=10.0, burst=2, clock=lambda: now[0], sleep=fake_sleep)
    http = FakeHTTP(budget, now)
    budget.pace(http)
    left: list[float] = []
    send = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=5)
    with budget.then(lambda: left.append(now[0])):
        await http.request(send)  # a token of the burst, and straight out
        http.route_wait = 0.5  # held by discord.py until the channel's bucket refilled
        await http.request(send)  # the second token of the burst, and another as it leaves
        http.route_wait = 0.0
        await http.request(discord.http.Route("POST", "/webhooks/{webhook_id}/{webhook_token}",
                                              webhook_id=1, webhook_token="t"))  # pays nothing
    # each paid (and called back) before the route's wait; the one held there paid again after
    assert left == [0.0, 0.0] and budget.paid_again == 1
    assert budget.waited == 0  # the burst and the half second's refill paid for all three
    await budget._before_request(None, None, SimpleNamespace(url=yarl.URL(send.url)))  # unpaid
    assert budget.paid_again == 2


async def test_ready_waits_for_a_token_and_leaves_it_to_the_request_that_follows():
    now = [0.0]

    async def fake_sleep(seconds: float) -> None:
        now[0] += seconds

    budget = RestBudget(rate=10.0, burst=1, clock=lambda: now[0], sleep=fake_sleep)
    await budget.acquire()
    await budget.ready()  # the bucket is empty: waits for the next token
    assert now[0] == pytest.approx(0.1)
    await budget.acquire()  # the token ready() waited for is still there
    assert now[0] == pytest.approx(0.1)


class HeldHTTP:
    """discord.py's HTTP client holding each request until the test lets it go."""

    def __init__(self) -> None:
        self.going: list[str] = []  # requests that reached discord.py and are not back yet
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.changed = asyncio.Condition()

    async def request(self, route: discord.http.Route, *, name: str) -> str:
        gate = self.gates.setdefault(name, asyncio.Event())
        async with self.changed:
            self.going.append(name)
            self.started.append(name)
            self.changed.notify_all()
        try:
            await gate.wait()
        finally:
            self.going.remove(name)
        return name

    def release(self, *names: str) -> None:
        for name in names:
            self.gates.setdefault(name, asyncio.Event()).set()

    async def until_started(self, *names: str) -> None:
        async with self.changed:
            await self.changed.wait_for(lambda: set(names) <= set(self.started))


EDIT_5 = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=5, message_id=1)
EDIT_5B = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=5, message_id=2)
SEND_5 = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=5)
EDIT_6 = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=6, message_id=3)
OPEN_DM = discord.http.Route("POST", "/users/@me/channels")


async def test_a_route_of_a_channel_takes_one_request_at_a_time_in_order():
    http, turns = HeldHTTP(), RouteTurns()
    turns.keep(http)
    first = asyncio.create_task(http.request(EDIT_5, name="first"))
    await http.until_started("first")
    # another message's edit in the same channel queues behind it, in the order of asking
    queued = [asyncio.create_task(http.request(EDIT_5B, name=n)) for n in ("second", "third")]
    # other routes, other channels and routes without a channel go beside it
    beside = [asyncio.create_task(http.request(route, name=name))
              for route, name in ((SEND_5, "post"), (EDIT_6, "other channel"), (OPEN_DM, "dm"), (OPEN_DM, "dm 2"))]
    await http.until_started("post", "other channel", "dm", "dm 2")
    assert "second" not in http.started and "third" not in http.started
    http.release("post", "other channel", "dm", "dm 2")
    await asyncio.gather(*beside)
    assert len(turns) == 1  # only the busy channel's edits are still waiting or going
    http.release("first")
    await http.until_started("second")
    assert http.going == ["second"] and await first == "first"
    http.release("second")
    await http.until_started("third")
    http.release("third")
    assert [await task for task in queued] == ["second", "third"]
    assert [n for n in http.started if n in ("first", "second", "third")] == ["first", "second", "third"]
    assert len(turns) == 0


async def test_a_request_given_up_while_it_waits_leaves_the_queue_to_the_next():
    http, turns = HeldHTTP(), RouteTurns()
    turns.keep(http)
    first = asyncio.create_task(http.request(EDIT_5, name="first"))
    await http.until_started("first")
    dropped = asyncio.create_task(http.request(EDIT_5, name="dropped"))
    last = asyncio.create_task(http.request(EDIT_5, name="last"))
    probe = asyncio.create_task(http.request(EDIT_6, name="probe"))
    await http.until_started("probe")  # the two made before it are queued behind the first
    dropped.cancel()
    http.release("first", "last", "probe")
    assert await first == "first" and await last == "last"
    await probe
    assert dropped.cancelled() and "dropped" not in http.started and len(turns) == 0


async def test_a_request_pays_its_token_and_gives_its_turn_up_before_it_waits_for_its_channel():
    http, turns = HeldHTTP(), RouteTurns()
    turns.keep(http)
    now = [0.0]
    budget = RestBudget(rate=10.0, burst=5, clock=lambda: now[0])
    budget.pace(http)  # the budget outside, the channel's turn inside
    first = asyncio.create_task(http.request(EDIT_5, name="first"))
    await http.until_started("first")
    given_up = asyncio.Event()
    with budget.then(given_up.set):
        second = asyncio.create_task(http.request(EDIT_5B, name="second"))
    await given_up.wait()  # the table's turn is over while its edit waits for the channel
    assert "second" not in http.started
    http.release("first", "second")
    assert (await first, await second) == ("first", "second")


class HeldSleep:
    """A pause the test ends: each is recorded, and returns when the test says."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.asked_changed = asyncio.Event()
        self.over = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.asked_changed.set()
        await self.over.wait()


async def test_the_first_request_on_a_window_a_previous_run_spent_waits_for_its_end():
    http, now, sleep = HeldHTTP(), [100.0], HeldSleep()
    turns = RouteTurns(clock=lambda: now[0], sleep=sleep)
    turns.keep(http)
    turns.hold({(EDIT_5.key, "5"): 104.0, (SEND_5.key, "5"): 99.0, (EDIT_6.key, "6"): 102.5})
    assert turns.held() == 2  # the window that had ended is not waited for
    first = asyncio.create_task(http.request(EDIT_5, name="first"))
    await sleep.asked_changed.wait()
    assert sleep.asked == [4.0] and "first" not in http.started
    # the same channel's next edit queues behind it; another route of the channel goes at once
    second = asyncio.create_task(http.request(EDIT_5B, name="second"))
    post = asyncio.create_task(http.request(SEND_5, name="post"))
    http.release("post")
    assert await post == "post" and sleep.asked == [4.0]
    now[0] = 104.0
    sleep.over.set()
    await http.until_started("first")
    assert "second" not in http.started
    http.release("first", "second")
    assert (await first, await second) == ("first", "second")
    assert sleep.asked == [4.0]  # only the first request on the window waited
    assert turns.held() == 0  # the last window ended: nothing is kept for channel 6


class FakeResponse:
    def __init__(self, status: int, headers: dict[str, str]) -> None:
        self.status, self.headers = status, headers


async def answered(windows: SpentWindows, turns: RouteTurns, route: discord.http.Route,
                   status: int, headers: dict[str, str]) -> None:
    """``route`` sent through ``turns`` and answered with ``status`` and ``headers``, as
    discord.py's client and the trace see it."""
    config = windows.trace(aiohttp.TraceConfig())

    class Client:
        async def request(self, route, **kwargs):
            for hook in config.on_request_end:
                await hook(None, None, SimpleNamespace(response=FakeResponse(status, headers)))

    client = Client()
    turns.keep(client)
    await client.request(route)


class FakeStore:
    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], int] = {}
        self.writes: list[dict[tuple[str, str], int]] = []
        self.written = asyncio.Event()
        self.down = False

    async def note_rest_windows(self, spent, now_ms):
        if self.down:
            raise StoreUnavailable("the database is down")
        self.writes.append(dict(spent))
        self.rows = {k: v for k, v in self.rows.items() if v >= now_ms} | dict(spent)
        self.written.set()

    async def rest_windows(self, now_ms):
        return {k: v for k, v in self.rows.items() if v > now_ms}


async def test_a_spent_window_is_noted_with_its_end_and_the_next_start_waits_for_it():
    wall = [1000.0]
    windows, turns = SpentWindows(clock=lambda: wall[0]), RouteTurns()
    spent = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "2.5"}
    await answered(windows, turns, EDIT_5, 200, {"X-RateLimit-Remaining": "3", "X-RateLimit-Reset-After": "4"})
    await answered(windows, turns, EDIT_5, 200, spent)
    await answered(windows, turns, EDIT_6, 429, {**spent, "X-RateLimit-Scope": "user"})
    await answered(windows, turns, OPEN_DM, 200, spent)  # no channel: discord.py's own wait
    await answered(windows, turns, discord.http.Route(  # a token's window: a token is never kept
        "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", webhook_id=1,
        webhook_token="secret"), 200, spent)
    await answered(windows, turns, SEND_5, 429, {**spent, "X-RateLimit-Global": "true"})  # not the route's
    store = FakeStore()
    assert await windows.flush(store)
    assert store.writes == [{(EDIT_5.key, "5"): 1_002_501, (EDIT_6.key, "6"): 1_002_501}]
    wall[0] = 1001.0  # the next start, a second later: the windows end 1.5 s from now
    ends = await SpentWindows(clock=lambda: wall[0]).still_open(store, clock=lambda: 50.0)
    assert ends == {key: pytest.approx(51.501) for key in store.writes[0]}


async def test_noted_windows_are_written_a_moment_later_together_and_kept_when_the_store_is_down(
        monkeypatch):
    monkeypatch.setattr(SpentWindows, "WRITE_EVERY", 0.0)
    monkeypatch.setattr(SpentWindows, "RETRY_AFTER", 0.0)
    windows, store = SpentWindows(clock=lambda: 1000.0), FakeStore()
    store.down = True
    windows.note((EDIT_5.key, "5"), 2.0)
    windows.note((EDIT_5.key, "5"), 1.0)  # an earlier end changes nothing
    assert not await windows.flush(store)  # the store is down: kept for the next write
    windows.note((EDIT_6.key, "6"), 3.0)
    store.down = False
    keeping = asyncio.create_task(windows.keep(store))
    await store.written.wait()
    keeping.cancel()
    assert store.writes == [{(EDIT_5.key, "5"): 1_002_001, (EDIT_6.key, "6"): 1_003_001}]
    assert windows.written == 2 and await windows.flush(store) and len(store.writes) == 1


class Passing(Exception):
    """A failure that may pass (as a 429 does)."""


class FakeSleep:
    """Records the pauses asked for and returns at once: the test decides what "later" is."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


def passing_retry(sleep: FakeSleep, delays=(1.0, 2.0, 5.0)) -> Retry:
    return Retry(lambda exc: isinstance(exc, Passing), delays, sleep)


async def test_a_passing_failure_is_tried_again_later_with_the_latest_state():
    sleep = FakeSleep()
    coalescer = Coalescer(passing_retry(sleep))
    shown: list[str] = []
    failures = iter([True, True, False])

    def job(state: str):
        async def run() -> None:
            if next(failures):
                coalescer.mark("hand", job("newer"))  # the table moved on meanwhile
                raise Passing("429")
            shown.append(state)
        return run

    coalescer.mark("hand", job("first"))
    await coalescer.drain()
    assert shown == ["newer"]  # delivered once, with the state current at the last try
    assert sleep.asked == [1.0, 2.0]
    assert coalescer.retry.retried == 2


async def test_a_passing_failure_is_tried_past_the_listed_pauses_until_it_goes_through():
    """Discord away longer than the listed pauses: the delivery is not dropped but tried again
    after the last pause until it goes through; a failure for good is not tried again."""
    sleep = FakeSleep()
    coalescer = Coalescer(passing_retry(sleep))
    tries: list[str] = []
    outage = iter(range(9))

    async def hand() -> None:
        if next(outage, None) is not None:
            tries.append("503")
            raise Passing("503")
        tries.append("shown")

    async def forbidden() -> None:
        tries.append("403")
        raise RuntimeError("403 Forbidden")

    coalescer.mark("hand", hand)
    await coalescer.drain()
    assert tries == ["503"] * 9 + ["shown"]
    assert sleep.asked == [1.0, 2.0, 5.0] + [5.0] * 6
    coalescer.mark("hand", forbidden)
    await coalescer.drain()
    assert tries[10:] == ["403"] and len(sleep.asked) == 9


async def test_a_long_outage_is_logged_at_first_then_once_in_a_while(caplog):
    sleep = FakeSleep()
    retry = passing_retry(sleep, delays=(1.0, 2.0))
    with caplog.at_level(logging.WARNING, logger="bot.discord_ui.delivery"):
        for failures in range(2 + 2 * STILL_FAILING_EVERY + 1):
            assert await retry.after(Passing("503"), failures, "a hand")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 + 3 and all("a hand" in line for line in lines)
    assert [line for line in lines if "still fails" in line] == [
        f"delivering a hand still fails after {n} tries (503); trying again every 2 s until it goes through"
        for n in (3, 3 + STILL_FAILING_EVERY, 3 + 2 * STILL_FAILING_EVERY)]
    assert retry.retried == 2 + 2 * STILL_FAILING_EVERY + 1


@pytest.mark.parametrize(("failures", "delays"), [(1, (1.0, 2.0, 5.0)), (4, (1.0,))],
                         ids=["once", "past the listed pauses"])
async def test_a_retried_post_keeps_its_place_before_later_posts(failures, delays):
    sleep = FakeSleep()
    sequencer = Sequencer(passing_retry(sleep, delays))
    done: list[str] = []
    outage = iter(range(failures))

    async def summary() -> None:
        if next(outage, None) is not None:
            raise Passing("503")
        done.append("summary")

    async def race() -> None:
        done.append("race")

    sequencer.queue(7, summary)
    sequencer.queue(7, race)
    await sequencer.drain()
    assert done == ["summary", "race"] and sleep.asked == [1.0] * failures


async def test_gated_keys_take_turns_and_wait_as_keys_with_the_latest_job():
    coalescer = Coalescer(gate=2)
    gates = {name: asyncio.Event() for name in "abc"}
    started: list[str] = []
    running = asyncio.Event()

    def job(name: str, state: str):
        async def run() -> None:
            started.append(f"{name}{state}")
            if len(started) == 2:
                running.set()
            await gates[name].wait()
        return run

    before = len(asyncio.all_tasks())
    for name in "abc":
        coalescer.mark(name, job(name, "1"), gated=True)
    coalescer.mark("c", job("c", "2"), gated=True)  # c waits its turn: only its latest job runs
    await running.wait()
    assert started == ["a1", "b1"]
    assert len(asyncio.all_tasks()) == before + 2  # the waiting key has no task of its own
    assert coalescer.pending() == 3
    gates["a"].set()
    gates["c"].set()
    gates["b"].set()
    await coalescer.settle(["c"])
    assert started == ["a1", "b1", "c2"]
    await coalescer.drain()
    assert coalescer.pending() == 0


async def test_a_key_marked_while_its_gated_job_runs_queues_again_behind_the_others():
    coalescer = Coalescer(gate=1)
    first = asyncio.Event()
    release = asyncio.Event()
    ran: list[str] = []

    def job(name: str):
        async def run() -> None:
            ran.append(name)
            if name == "a1":
                first.set()
                await release.wait()
        return run

    coalescer.mark("a", job("a1"), gated=True)
    await first.wait()
    coalescer.mark("b", job("b1"), gated=True)
    coalescer.mark("a", job("a2"), gated=True)  # the table moved on while it was being drawn
    release.set()
    await coalescer.drain()
    assert ran == ["a1", "b1", "a2"]


async def test_a_gated_job_that_fails_gives_its_turn_up_for_the_pause():
    sleep = FakeSleep()
    coalescer = Coalescer(passing_retry(sleep), gate=1)
    ran: list[str] = []
    failures = iter([True, False])

    async def table() -> None:
        ran.append("table")
        if next(failures):
            raise Passing("429")

    async def other() -> None:
        ran.append("other")

    coalescer.mark("table", table, gated=True)
    coalescer.mark("other", other, gated=True)
    await coalescer.drain()
    # the other table went during the failed one's pause; then the failed one, once more
    assert ran == ["table", "other", "table"] and sleep.asked == [1.0]
    assert coalescer.pending() == 0


async def test_a_gated_job_that_gives_its_turn_up_lets_the_next_start_before_it_ends():
    coalescer = Coalescer(gate=1)
    seen: list[str] = []

    def job(name: str, state: str):
        async def run() -> None:
            seen.append(f"{name}{state} drawn")
            coalescer.release(name)  # the picture is done; the request to Discord is still to go
            coalescer.release(name)  # a second release changes nothing
            if name + state == "a1":
                seen.append("b has the turn" if "b" in coalescer._running else "b waits")
                coalescer.mark("a", job("a", "2"), gated=True)  # the table moved on meanwhile
            seen.append(f"{name}{state} sent")
        return run

    coalescer.mark("a", job("a", "1"), gated=True)
    coalescer.mark("b", job("b", "1"), gated=True)
    await coalescer.drain()
    # a's new state queued behind b, which had taken the turn a gave up
    assert seen == ["a1 drawn", "b has the turn", "a1 sent", "b1 drawn", "b1 sent", "a2 drawn", "a2 sent"]
    assert coalescer.pending() == 0 and not coalescer._turns


async def test_a_gate_read_at_each_turn_gives_no_new_turn_while_narrowed():
    turns = [2]
    coalescer = Coalescer(gate=lambda: turns[0])
    done = {name: asyncio.Event() for name in "abc"}
    started: list[str] = []
    both = asyncio.Event()

    def job(name: str):
        async def run() -> None:
            started.append(name)
            if len(started) == 2:
                both.set()
            await done[name].wait()
        return run

    for name in "abc":
        coalescer.mark(name, job(name), gated=True)
    await both.wait()
    turns[0] = 1  # something waits for a render worker: one turn fewer from now on
    done["a"].set()
    await coalescer.settle(["a"])
    assert started == ["a", "b"] and "c" in coalescer._queued  # b's turn is the only one
    turns[0] = 0  # never fewer than one turn
    assert coalescer.gate == 1
    done["b"].set()
    done["c"].set()
    await coalescer.drain()
    assert started == ["a", "b", "c"] and coalescer.pending() == 0


class OneChannel:
    """A channel whose next post fails with ``failure`` (or is taken)."""

    id = 55

    def __init__(self, failure: Exception | None = None) -> None:
        self.failure, self.sent = failure, []

    async def send(self, **message):
        if self.failure is not None:
            raise self.failure
        self.sent.append(message)
        return SimpleNamespace(id=900, **message)


def http_error(status: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="no"), "no")


async def test_an_owed_post_is_taken_asked_again_later_or_refused_for_good():
    taken = OneChannel()
    assert (await post_owed(taken, "a post", content="hi", nonce="n1")).id == 900
    assert taken.sent == [{"content": "hi", "nonce": "n1"}]
    for passing_failure in (http_error(503), http_error(429), aiohttp.ClientError("reset"), OSError("down")):
        assert await post_owed(OneChannel(passing_failure), "a post", content="hi") is None
    for refusal in (http_error(403), http_error(404)):
        with pytest.raises(RefusedForGood):
            await post_owed(OneChannel(refusal), "a post", content="hi")


class OneUser:
    """A client whose DM channel with a user opens (or fails with ``opening``), then posts into
    ``channel``."""

    def __init__(self, channel: OneChannel, opening: Exception | None = None) -> None:
        self.channel, self.opening, self.opened = channel, opening, []

        async def start_private_message(user_id: int) -> dict:
            if self.opening is not None:
                raise self.opening
            self.opened.append(user_id)
            return {"id": str(channel.id)}
        self.http = SimpleNamespace(start_private_message=start_private_message)

    def get_partial_messageable(self, channel_id: int) -> OneChannel:
        assert channel_id == self.channel.id
        return self.channel


async def test_an_owed_dm_opens_the_channel_by_the_users_id_and_is_classified_alike():
    client = OneUser(OneChannel())
    assert (await dm_owed(client, 7, "a reminder", content="hi", nonce="r1")).id == 900
    assert client.opened == [7] and client.channel.sent == [{"content": "hi", "nonce": "r1"}]
    assert await dm_owed(OneUser(OneChannel(http_error(503))), 7, "a reminder", content="hi") is None
    assert await dm_owed(OneUser(OneChannel(), opening=http_error(502)), 7, "a reminder") is None
    for refusal in (OneUser(OneChannel(http_error(403))), OneUser(OneChannel(), opening=http_error(400))):
        with pytest.raises(RefusedForGood):  # DMs closed; no such user
            await dm_owed(refusal, 7, "a reminder", content="hi")


async def test_an_owed_posts_outcome_is_noted_once_it_is_known():
    noted = []

    async def note(sent):
        noted.append(sent)

    async def taken():
        return SimpleNamespace(id=900)

    async def later():
        return None

    async def refused():
        raise RefusedForGood()

    assert await settle_owed(taken(), note) and noted[-1].id == 900
    assert await settle_owed(refused(), note) and noted[-1] is None  # refused for good: noted
    assert not await settle_owed(later(), note) and len(noted) == 2  # asked again: nothing noted

