"""The bot's REST budget is paid by its HTTP client: a token before discord.py's wait for the
route's bucket, and another as the request leaves when it waited there, or for a retry. Past its
token a request waits for the one before it on its route and channel."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from tests.discord_standin.limits import RouteLimit

pytestmark = pytest.mark.asyncio

SEND = "POST /channels/{channel_id}/messages"


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "b.sqlite3",
                                                dev_guild_id=world.guild.id)))


def log_tokens(bot: HanafudaBot) -> list[tuple[str, float]]:
    """Each token of the bot's budget as it is handed out: taken before the route's wait
    ("before") or paid again as the request leaves ("again"), with when (monotonic)."""
    budget, taken = bot.rest_budget, []
    acquire, charge = budget.acquire, budget.charge

    async def logged_acquire() -> None:
        await acquire()
        taken.append(("before", asyncio.get_running_loop().time()))

    def logged_charge() -> None:
        charge()
        taken.append(("again", asyncio.get_running_loop().time()))

    budget.acquire, budget.charge = logged_acquire, logged_charge  # type: ignore[method-assign]
    return taken


async def test_a_send_that_waited_for_its_channels_bucket_pays_again_as_it_leaves(hbot, standin, world):
    """Three posts at once into a channel that takes one a moment: each takes a token before
    discord.py's wait for the channel, and the two that discord.py held until the bucket
    refilled pay again as they leave, so no request goes out on a token from an earlier
    second. The bucket's count of requests in flight stays right: 0 x 429 (checked at teardown)."""
    standin.limits.routes[tuple(SEND.split(" ", 1))] = RouteLimit(1, 0.2)
    taken = log_tokens(hbot)
    channel = hbot.get_partial_messageable(world.channel.id)
    await asyncio.gather(*(channel.send(f"post {i}") for i in range(3)))
    arrived = sorted(r.arrived for r in standin.requests_to(SEND))
    before = [at for kind, at in taken if kind == "before"]
    again = [at for kind, at in taken if kind == "again"]
    assert len(arrived) == 3 and len(before) == 3 and len(again) == 2
    assert max(before) < arrived[0]  # all three paid before the first went out
    assert arrived[0] < again[0] < arrived[1] < again[1] < arrived[2]


async def test_a_retry_after_a_429_pays_again_and_an_interactions_answer_pays_nothing(hbot, standin, world):
    taken = log_tokens(hbot)
    standin.fail_next(SEND, channel_id=world.channel)
    await hbot.get_partial_messageable(world.channel.id).send("once refused")
    assert len(standin.requests_to(SEND)) == 2  # the refused try and the retry
    assert [kind for kind, _ in taken] == ["before", "again"]
    record = await world.player.slash(world.channel, "rules")  # answered through its interaction
    await standin.answered(record)
    assert len(taken) == 2


EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_a_channels_edits_go_one_at_a_time_in_the_order_they_were_made(hbot, standin, world):
    """Eighteen edits at once into each of two channels whose buckets take five a half-second.
    discord.py's count of a bucket goes wrong when requests wait in it: a window then takes a
    sixth (a 429, checked at teardown) and a later edit of a message can land before an earlier
    one. The bot lets discord.py hold one request per route and channel, so every message ends
    with its last edit, and the two channels still go side by side."""
    standin.limits.routes[tuple(SEND.split(" ", 1))] = RouteLimit(50, 1.0)
    standin.limits.routes[tuple(EDIT.split(" ", 1))] = RouteLimit(5, 0.5)
    other = standin.create_channel(world.guild, "hanafuda")
    posted = {}
    for channel in (world.channel, other):
        partial = hbot.get_partial_messageable(channel.id)
        posted[channel.id] = [await partial.send(f"message {i}") for i in range(6)]
    await asyncio.gather(*(message.edit(content=f"edit {wave}")
                           for wave in range(3) for messages in posted.values() for message in messages))
    edits = standin.requests_to(EDIT)
    assert len(edits) == 36 and {r.status for r in edits} == {200}
    for messages in posted.values():
        assert {standin.message(m.id).content for m in messages} == {"edit 2"}
    first, second = ([r.arrived for r in edits if f"/{c.id}/" in r.path] for c in (world.channel, other))
    assert first[0] < second[-1] and second[0] < first[-1]  # neither channel waited for the other
    assert len(hbot.route_turns) == 0  # nothing kept for a channel once its requests went


async def test_a_window_the_last_run_spent_is_waited_out_not_met_with_a_429(start_bot, standin, world,
                                                                            tmp_path):
    """Discord says what is left of a window only in its answers, so a restarted bot cannot ask:
    its previous run noted each window it spent and when it ends, and the new run's first
    request there waits for that end instead of drawing a 429 Discord counts against the bot."""
    standin.limits.routes[tuple(EDIT.split(" ", 1))] = RouteLimit(5, 2.0)

    def bot() -> HanafudaBot:
        return HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "b.sqlite3",
                                    dev_guild_id=world.guild.id))

    first = await start_bot(bot())
    message = await first.get_partial_messageable(world.channel.id).send("hello")
    edits = [asyncio.create_task(message.edit(content=f"edit {i}")) for i in range(5)]
    await first.spent_windows.noted.wait()  # the fifth edit's answer: the window is spent
    await first.close()  # the bot stops before the window ends (its last edit waits in discord.py)
    for edit in edits:
        edit.cancel()
    await asyncio.gather(*edits, return_exceptions=True)
    second = await start_bot(bot())
    await second.get_partial_messageable(world.channel.id).get_partial_message(message.id).edit(content="after")
    sent = standin.requests_to(EDIT)
    assert [r.status for r in sent] == [200] * 6 and standin.count_429() == 0  # nothing refused
    assert sent[-1].arrived >= sent[0].arrived + 2.0  # the new run's edit waited for the window's end
    assert standin.message(message.id).content == "after" and second.route_turns.held() == 0
