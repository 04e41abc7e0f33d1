"""The stand-in's own checks, driven with raw HTTP: it must refuse what Discord refuses, in
Discord's error shape, and record each refusal as a violation; and the spec gate must fail in CI."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import time
from pathlib import Path

import aiohttp
import pytest

from tests.discord_standin import SpecIndex, StandIn
from tests.discord_standin.clocks import ManualClock, RunningClock
from tests.discord_standin.spec import REQUIRE_ENV, SPEC_ENV
from tests.discord_standin.testing import spec_or_skip
from tests.discord_standin.users import new_record

BURN_SECONDS = 1.0


def burn(seconds: float) -> None:
    """Keep a CPU busy for ``seconds`` of this process's own CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


QUIET = {"allowed_mentions": {"parse": []}}  # these raw requests ping nobody, as the bot never does


@pytest.fixture
async def http(standin: StandIn):
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {standin.token}"}) as session:
        yield session


@pytest.fixture
def channel(standin: StandIn):
    return standin.create_channel(standin.create_guild("Checks"), "general")


def _body(spec: SpecIndex, method: str, path: str, body: object):
    op, _ = spec.find(method, path)
    return spec.validate_body(op, "application/json", body)


def test_valid_bodies_pass_and_snowflake_integers_are_accepted(discord_spec: SpecIndex) -> None:
    message = {
        "content": "Koi-Koi!",
        "embeds": [
            {
                "title": "Round 1",
                "description": "d" * 4096,
                "timestamp": "2024-05-01T12:00:00+00:00",
                "url": "https://example.org/x",
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "Draw", "custom_id": "draw"}],
            }
        ],
        "allowed_mentions": {"parse": [], "users": [123456789012345678]},
        "attachments": [{"id": 0, "filename": "hand.png"}],
    }
    assert _body(discord_spec, "POST", "/channels/1/messages", message) is None
    assert _body(discord_spec, "POST", "/users/@me/channels", {"recipient_id": 42}) is None


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"embeds": [{"description": "x" * 7000}]}, "embeds/0/description"),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 9, "custom_id": "a"}]}
                ]
            },
            "components/0/components/0/style",
        ),
        ({"content": "x" * 4001}, "content"),
        ({"embeds": [{"url": "not a url"}]}, "embeds/0/url"),
        ({"embeds": [{"timestamp": "yesterday"}]}, "embeds/0/timestamp"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds"),
    ],
)
def test_malformed_bodies_are_pinpointed(discord_spec: SpecIndex, body: dict, where: str) -> None:
    error = _body(discord_spec, "POST", "/channels/1/messages", body)
    assert error is not None and error.summary.startswith(where + ":")
    node = error.errors
    for key in where.split("/"):
        node = node[key]
    assert node["_errors"][0]["code"].startswith(("BASE_TYPE", "NUMBER_TYPE"))


def test_interaction_callback_union_reports_the_inner_field(discord_spec: SpecIndex) -> None:
    error = _body(
        discord_spec,
        "POST",
        "/interactions/1/tok/callback",
        {"type": 4, "data": {"embeds": [{"description": "x" * 7000}]}},
    )
    assert error is not None and error.summary.startswith("data/embeds/0/description:")
    error = _body(
        discord_spec,
        "POST",
        "/interactions/1/tok/callback",
        {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}] * 26}},
    )
    assert error is not None and error.summary.startswith("data/choices:")


LAYOUT = {  # a one-message table as the bot lays it out (Components V2)
    "flags": 1 << 15,
    "components": [{"type": 17, "accent_color": 0xB22222, "components": [
        {"type": 12, "items": [{"media": {"url": "attachment://table.png"}, "description": "t"}]},
        {"type": 10, "content": "**Your turn**"},
        {"type": 14, "divider": True, "spacing": 1},
        {"type": 9, "components": [{"type": 10, "content": "Hand"}],
         "accessory": {"type": 2, "style": 2, "label": "Rules", "custom_id": "hf:r"}},
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Play", "custom_id": "hf:p"},
                                   {"type": 3, "custom_id": "hf:s",
                                    "options": [{"label": "a", "value": "a"}]}]},
    ]}],
    "attachments": [{"id": 0, "filename": "table.png"}],
}


def _changed(body: dict, path: list, value: object) -> dict:
    body = json.loads(json.dumps(body))
    node = body
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return body


@pytest.mark.parametrize(("path", "value"), [
    ([], None),  # the layout as it is: valid
    (["components", 0, "components", 1, "type"], 99),  # a component type of no branch
    (["components", 0, "components", 1, "type"], True),  # true is not 10, though True == 1 in Python
    (["components", 0, "components", 1, "type"], KeyError),  # no discriminator: every branch tried
    (["components", 0, "components", 1, "content"], "x" * 4001),
    (["components", 0, "components", 4, "components", 0, "style"], 9),
    (["components", 0, "components", 4, "components", 1, "type"], 2),  # a select called a button
    (["components", 0, "components", 3, "accessory", "type"], 10),
    (["components", 0, "components", 0, "items", 0, "media"], None),
    (["components", 0, "type"], 1),  # a container's children under an action row
])
def test_the_union_shortcut_judges_as_the_full_check(discord_spec: SpecIndex, path: list,
                                                     value: object) -> None:
    """The stand-in tries only the branches of a union whose type and ``type`` field fit the
    instance; its verdict and the error it reports are those of checking every branch."""
    from jsonschema import Draft202012Validator

    from tests.discord_standin import spec as spec_module

    body = _changed(LAYOUT, path, value) if path else LAYOUT
    op, _ = discord_spec.find("POST", "/channels/1/messages")
    pointer = op.pointer + "/application~1json/schema"
    full = Draft202012Validator({"$ref": spec_module.SPEC_URI + "#" + pointer},
                                registry=discord_spec._registry,
                                format_checker=discord_spec._format_checker)
    expected = spec_module._pinpoint(list(full.iter_errors(body)))
    error = _body(discord_spec, "POST", "/channels/1/messages", body)
    if not path:
        assert expected is None and error is None
        return
    assert expected is not None and error is not None
    where = "/".join(spec_module._error_path(expected)) or "<body>"
    assert error.summary == f"{where}: {spec_module._describe(expected)[1]}"


def test_route_lookup_prefers_literal_segments(discord_spec: SpecIndex) -> None:
    assert discord_spec.find("PATCH", "/webhooks/1/t/messages/@original")[0].template.endswith(
        "@original"
    )
    assert discord_spec.find("GET", "/users/@me")[0].template == "/users/@me"
    assert discord_spec.find("POST", "/channels/1/nonsense") is None


async def test_bad_body_gets_discords_400_and_a_violation(standin: StandIn, http, channel) -> None:
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    async with http.post(url, json={"embeds": [{"description": "x" * 7000}]}) as resp:
        assert resp.status == 400 and resp.headers["Content-Type"] == "application/json"
        data = await resp.json()
    assert data["code"] == 50035 and data["message"] == "Invalid Form Body"
    assert (
        data["errors"]["embeds"]["0"]["description"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    )
    [violation] = standin.take_violations()
    assert violation.kind == "invalid-body" and violation.path == f"/channels/{channel.id}/messages"
    assert standin.channel_messages(channel) == []


async def test_multipart_payload_json_is_validated_and_files_stored(
    standin: StandIn, http, channel
) -> None:
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    good = aiohttp.FormData()
    good.add_field(
        "payload_json",
        json.dumps({"content": "hand", "attachments": [{"id": 0, "filename": "h.png"}],
                    "allowed_mentions": {"parse": []}}),
        content_type="application/json",
    )
    good.add_field(
        "files[0]", b"PNGDATA", filename="h.png", content_type="application/octet-stream"
    )
    async with http.post(url, data=good) as resp:
        assert resp.status == 200
        url_of_file = (await resp.json())["attachments"][0]["url"]
    assert standin.last_message(channel).files == {"h.png": b"PNGDATA"}
    async with http.get(url_of_file) as resp:
        assert await resp.read() == b"PNGDATA"
    bad = aiohttp.FormData()
    bad.add_field(
        "payload_json", json.dumps({"content": "x" * 5000, "allowed_mentions": {"parse": []}}), content_type="application/json"
    )
    async with http.post(url, data=bad) as resp:
        assert resp.status == 400
    assert [v.kind for v in standin.take_violations()] == ["invalid-body"]


async def test_unknown_route_missing_token_and_empty_message(
    standin: StandIn, http, channel
) -> None:
    async with http.get(f"{standin.api_url}/channels/{channel.id}/nonsense") as resp:
        assert resp.status == 404
    async with (
        aiohttp.ClientSession() as anonymous,
        anonymous.get(f"{standin.api_url}/users/@me") as resp,
    ):
        assert resp.status == 401
    async with http.post(f"{standin.api_url}/channels/{channel.id}/messages", json={}) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50006
    async with http.get(f"{standin.api_url}/channels/not-a-snowflake") as resp:
        assert resp.status == 404
    kinds = [v.kind for v in standin.take_violations()]
    assert kinds == ["unknown-route", "unauthorized", "empty-message", "invalid-path"]


async def test_injected_429_carries_discords_rate_limit_headers(
    standin: StandIn, http, channel
) -> None:
    standin.fail_next("POST /channels/{channel_id}/messages", retry_after=1.5, times=2)
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    for _ in range(2):
        async with http.post(url, json={"content": "hi", **QUIET}) as resp:
            assert resp.status == 429
            assert (await resp.json()) == {
                "message": "You are being rate limited.",
                "retry_after": 1.5,
                "global": False,
            }
            assert (
                resp.headers["Retry-After"] == "2" and resp.headers["X-RateLimit-Remaining"] == "0"
            )
            assert resp.headers["X-RateLimit-Reset-After"] == "1.500" and resp.headers["Via"]
    async with http.post(url, json={"content": "hi", **QUIET}) as resp:
        assert resp.status == 200 and "X-RateLimit-Bucket" in resp.headers
    with pytest.raises(ValueError, match="not a route"):
        standin.fail_next("POST /channels/{channel_id}/nonsense")


def test_missing_spec_fails_in_ci_and_skips_locally(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(SPEC_ENV, str(tmp_path / "absent.json"))
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="mandatory"):
        spec_or_skip()
    monkeypatch.delenv(REQUIRE_ENV)
    with pytest.raises(pytest.skip.Exception, match="absent.json"):
        spec_or_skip()


async def test_message_bucket_counts_down_then_refuses_until_it_resets(
    standin: StandIn, http, channel
) -> None:
    clock = ManualClock(1000.0)
    standin.clock = clock
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    seen = []
    for _ in range(5):
        async with http.post(url, json={"content": "hi", **QUIET}) as resp:
            assert resp.status == 200
            seen.append(resp.headers["X-RateLimit-Remaining"])
            assert resp.headers["X-RateLimit-Limit"] == "5"
            assert resp.headers["X-RateLimit-Reset-After"] == "5.000"
            bucket = resp.headers["X-RateLimit-Bucket"]
    assert seen == ["4", "3", "2", "1", "0"]
    async with http.post(url, json={"content": "one too many", **QUIET}) as resp:
        assert resp.status == 429
        assert await resp.json() == {
            "message": "You are being rate limited.",
            "retry_after": 5.0,
            "global": False,
        }
        assert resp.headers["X-RateLimit-Scope"] == "user"
        assert resp.headers["X-RateLimit-Bucket"] == bucket and "X-RateLimit-Global" not in resp.headers
    other = standin.create_channel(channel.guild, "other")  # another channel: its own bucket
    async with http.post(f"{standin.api_url}/channels/{other.id}/messages", json={"content": "x", **QUIET}) as resp:
        assert resp.status == 200 and resp.headers["X-RateLimit-Remaining"] == "4"
    clock.advance(5.0)
    async with http.post(url, json={"content": "later", **QUIET}) as resp:
        assert resp.status == 200 and resp.headers["X-RateLimit-Remaining"] == "4"
    assert standin.count_429() == standin.count_429("user") == 1
    assert [m.content for m in standin.channel_messages(channel)][-1] == "later"
    standin.accept_rate_limits()


async def test_a_window_opened_before_a_login_is_not_the_new_clients_fault(
    standin: StandIn, http, channel
) -> None:
    """A restarted bot cannot know the window its previous run opened (Discord tells what is
    left only in answers to that bucket): its 429 there is noted but not held against it; once
    it has seen a window of its own, a 429 counts again."""
    clock = ManualClock(1000.0)
    standin.clock = clock
    url = f"{standin.api_url}/channels/{channel.id}/messages"
    for _ in range(5):  # the previous run spends the window
        async with http.post(url, json={"content": "before", **QUIET}) as resp:
            assert resp.status == 200
    clock.advance(1.0)
    async with http.get(f"{standin.api_url}/users/@me") as resp:  # a new client logs in
        assert resp.status == 200
    async with http.post(url, json={"content": "too soon", **QUIET}) as resp:
        assert resp.status == 429
    assert standin.count_429() == 1
    standin.assert_no_rate_limits()
    clock.advance(4.0)
    for _ in range(5):  # a window the new client opened itself
        async with http.post(url, json={"content": "after", **QUIET}) as resp:
            assert resp.status == 200
    async with http.post(url, json={"content": "one too many", **QUIET}) as resp:
        assert resp.status == 429
    with pytest.raises(AssertionError, match="rate limited 1 time"):
        standin.assert_no_rate_limits()
    standin.accept_rate_limits()


async def test_global_limit_spares_interaction_routes_and_peaks_are_measured(
    standin: StandIn, http, channel
) -> None:
    clock = ManualClock(1000.0)
    standin.clock = clock
    standin.limits.global_per_second = 3
    guild_url = f"{standin.api_url}/guilds/{channel.guild.id}"
    for _ in range(3):
        async with http.get(guild_url) as resp:
            assert resp.status == 200
    async with http.get(f"{standin.api_url}/channels/{channel.id}") as resp:
        assert resp.status == 429 and resp.headers["X-RateLimit-Global"] == "true"
        assert resp.headers["X-RateLimit-Scope"] == "global"
        assert await resp.json() == {
            "message": "You are being rate limited.",
            "retry_after": 1.0,
            "global": True,
        }
    # interaction callbacks and webhooks are outside the global limit (here: unknown tokens)
    async with http.post(f"{standin.api_url}/interactions/1/tok/callback", json={"type": 6}) as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10062
    standin.take_violations("unknown-interaction")
    clock.advance(0.5)
    async with http.get(guild_url) as resp:
        assert resp.status == 429
    clock.advance(0.5)
    async with http.get(guild_url) as resp:
        assert resp.status == 200
    assert standin.count_429("global") == 2
    assert standin.peak_requests() == 5  # the three admitted and the two refused at 1000.0-1000.5
    assert len(standin.global_request_times()) == 6
    standin.accept_rate_limits()


async def test_interaction_tokens_expire_like_discords(standin: StandIn, http, channel) -> None:
    """A callback after 3 s and a followup after 15 minutes are refused with 10062."""
    clock = ManualClock(1000.0)
    standin.deadline_clock = clock
    user = standin.create_user("erin")
    standin.add_member(channel.guild, user)

    def interaction():
        record = new_record(standin, user, channel, 2, {"name": "x", "type": 1}, None)
        record.created_at = clock()
        standin.interactions[record.id] = record
        standin.interactions_by_token[record.token] = record
        return record

    late = interaction()
    clock.advance(3.01)
    async with http.post(f"{standin.api_url}/interactions/{late.id}/{late.token}/callback",
                         json={"type": 5}) as resp:
        assert resp.status == 404 and await resp.json() == {"message": "Unknown interaction", "code": 10062}
    assert late.late_callbacks == 1 and late.initial is None
    record = interaction()
    async with http.post(f"{standin.api_url}/interactions/{record.id}/{record.token}/callback",
                         json={"type": 5}) as resp:
        assert resp.status == 204
    webhook = f"{standin.api_url}/webhooks/{standin.application_id}/{record.token}"
    clock.advance(14 * 60)
    async with http.post(webhook, json={"content": "in time", **QUIET}) as resp:
        assert resp.status == 204
    clock.advance(60.01)
    async with http.patch(f"{webhook}/messages/@original", json={"content": "too late", **QUIET}) as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10062
    assert [v.kind for v in standin.take_violations()] == ["late-ack", "late-followup"]
    assert record.original.content == "in time"


async def test_an_answer_asked_for_before_any_is_unknown_and_a_followup_is_refused(
        standin: StandIn, http, channel) -> None:
    """Before an interaction is acknowledged, asking for its answer (whether one landed after a
    cut connection) gets Discord's Unknown Message and is fair; a followup is the bot's mistake."""
    user = standin.create_user("finn")
    standin.add_member(channel.guild, user)
    record = new_record(standin, user, channel, 2, {"name": "x", "type": 1}, None)
    standin.interactions[record.id] = record
    standin.interactions_by_token[record.token] = record
    webhook = f"{standin.api_url}/webhooks/{standin.application_id}/{record.token}"
    async with http.get(f"{webhook}/messages/@original") as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10008
    assert standin.take_violations() == []
    async with http.post(webhook, json={"content": "early", **QUIET}) as resp:
        assert resp.status == 404
    assert [v.kind for v in standin.take_violations()] == ["followup-before-ack"]


def test_the_deadline_clock_leaves_out_time_spent_waiting_for_a_cpu() -> None:
    clock = RunningClock()
    if clock.waited() == 0.0 and not Path("/proc/self/schedstat").exists():
        pytest.skip("this system does not report scheduler waits; the clock is plain monotonic")
    busy = [multiprocessing.get_context("spawn").Process(target=burn, args=(BURN_SECONDS,))
            for _ in range((os.cpu_count() or 1) * 2)]  # more runnable processes than CPUs
    for p in busy:
        p.start()
    try:
        wall0, clock0, waited0 = time.monotonic(), clock(), clock.waited()
        burn(BURN_SECONDS / 2)  # this thread competes with them for the CPUs
        wall, running, waited = time.monotonic() - wall0, clock() - clock0, clock.waited() - waited0
    finally:
        for p in busy:
            p.terminate()
            p.join()
    assert waited > 0  # with twice as many busy processes as CPUs, this thread had to queue
    assert running == pytest.approx(wall - waited, abs=0.01)
    assert 0 < running < wall


async def test_a_sharded_bot_gets_its_shards_guilds_and_shard_0_the_direct_messages(standin, start_bot):
    """As Discord: a session that identifies as shard k of n gets the guilds with
    (guild_id >> 22) % n == k, their events, and (shard 0 only) what happens outside guilds."""
    import discord

    standin.shard_count = 2
    guilds = [standin.create_guild(f"Guild on shard {k}", shard=k) for k in (0, 1)]
    assert [(g.id >> 22) % 2 for g in guilds] == [0, 1]
    user = standin.create_user("dan")
    seen: dict[int, list[tuple[int | None, int | None]]] = {0: [], 1: []}
    all_three = asyncio.Event()

    class Shard(discord.AutoShardedClient):
        async def on_interaction(self, interaction: discord.Interaction) -> None:
            seen[self.shard_ids[0]].append((interaction.guild_id, interaction.user.id))
            if len(seen[0]) + len(seen[1]) == 3:
                all_three.set()

    bots = [await start_bot(Shard(intents=discord.Intents(guilds=True), shard_ids=[k], shard_count=2))
            for k in (0, 1)]
    assert [[g.id for g in bot.guilds] for bot in bots] == [[guilds[0].id], [guilds[1].id]]
    for guild in guilds:
        standin.add_member(guild, user)
        channel = standin.create_channel(guild, "play")
        await standin.dispatch_interaction(user, channel, 3, {"custom_id": "x", "component_type": 2})
    await standin.dispatch_interaction(user, standin.dm_channel(user), 3, {"custom_id": "x", "component_type": 2})
    await asyncio.wait_for(all_three.wait(), standin.wait_timeout)  # the bots answer nothing
    assert seen == {0: [(guilds[0].id, user.id), (None, user.id)], 1: [(guilds[1].id, user.id)]}
