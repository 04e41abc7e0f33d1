"""/season start and /season list, and the season option of /leaderboard and /stats, end to end
through the Discord stand-in: staff only, idempotent, announced without pings, and past seasons
kept."""

from __future__ import annotations

import pytest

from cogs.community import LeaderboardPager
from tests.e2e.community_data import (
    embed,
    field,
    finish_quick,
    footer_has,
    only_private,
    pager_ids,
    start_hbot,
    turn_page,
)
from tests.e2e.test_koikoi_bot import reply_text


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


@pytest.mark.asyncio
async def test_staff_start_a_season_and_the_boards_begin_afresh(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    alice, bob = world.admin, world.player
    await finish_quick(store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"])
    await finish_quick(store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"])

    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    assert {o["name"] for o in commands["season"]["options"]} == {"start", "schedule", "list"}
    listed = await bob.slash(world.channel, "season list")
    assert only_private(listed) and "not started a season" in reply_text(listed)

    refused = await bob.slash(world.channel, "season start", name="Spring")
    assert only_private(refused) and "Manage Server" in reply_text(refused)
    assert await store.seasons(guild) == []

    started = await alice.slash(world.channel, "season start", name="Spring @everyone")
    announcement = started.original
    assert not announcement.ephemeral
    title = embed(announcement)["title"]
    assert "Season 1: Spring @" in title and "@everyone" not in title  # shown, never a mention
    standin.assert_no_mass_mentions()
    assert [s.name for s in await store.seasons(guild)] == ["Spring @everyone"]
    # the announcement honours the games before it: alice won both, in a row, and leads Koi-Koi
    honours = field(announcement, "The honours of Before the first season").split("\n")
    assert honours[:2] == [f"🥇 <@{alice.id}> · 2 wins", f"Longest run: <@{alice.id}> · 2 wins in a row"]
    assert honours[2].startswith(f"Best Koi-Koi rating: <@{alice.id}> · ") and len(honours) == 3
    assert "season.png" in announcement.files  # the season that ended, drawn as its wins board
    sent = [body for r in standin.requests if isinstance(r.body, dict)
            for body in (r.body, r.body.get("data")) if isinstance(body, dict)
            and "The honours of" in str(body.get("embeds"))]
    assert sent and all(body["allowed_mentions"] == {"parse": []} for body in sent)  # nobody pinged

    # the new season's board is empty; the season before stays on request
    board = (await bob.slash(world.channel, "leaderboard", game="koikoi", order="wins")).original
    assert "Nobody is on this board yet" in embed(board)["description"]
    assert embed(board)["footer"]["text"].startswith("Season 1: Spring")
    before = (await bob.slash(world.channel, "leaderboard", game="koikoi", order="wins",
                              season="0")).original
    assert f"<@{alice.id}> — 2 wins" in embed(before)["description"]
    assert embed(before)["footer"]["text"].startswith("Before the first season")
    every = (await bob.slash(world.channel, "leaderboard", game="koikoi", order="rating",
                             season="all"))
    assert only_private(every) and "choose one season" in reply_text(every)
    missing = await bob.slash(world.channel, "leaderboard", game="koikoi", season="7")
    assert only_private(missing) and "no season 7" in reply_text(missing)
    odd = await bob.slash(world.channel, "stats", season="spring")
    assert only_private(odd) and "Pick a season" in reply_text(odd)

    # a game of the new season counts there; the pager keeps the season the board showed
    await finish_quick(store, guild, "koikoi", [bob.id, alice.id], ["won", "lost"])
    for other in range(7001, 7012):  # a second page
        await finish_quick(store, guild, "koikoi", [other, other + 100], ["won", "lost"])
    board = (await bob.slash(world.channel, "leaderboard", game="koikoi", order="wins")).original
    assert all(":s1:" in custom_id for custom_id in pager_ids(board).values())
    summer = await alice.slash(world.channel, "season start", name="Summer")
    honours = field(summer.original, "The honours of Season 1: Spring @\u200beveryone").split("\n")
    # twelve won one game each: three of them shown, all first (ties share a rank, by user id)
    assert honours[:3] == [f"🥇 <@{7001 + i}> · 1 win" for i in range(3)]
    assert honours[3].startswith("Best Koi-Koi rating: <@7001> · ") and len(honours) == 4
    turned = embed(await turn_page(standin, bob, board, pager_ids(board)["n"],
                                   footer_has("page 2 of 3")))
    assert turned["footer"]["text"].startswith("Season 1: Spring") and "page 2 of 3" in turned["footer"]["text"]

    stats = (await alice.slash(world.channel, "stats", season="all")).original
    assert field(stats, "Games").startswith("3 played") and embed(stats)["footer"]["text"].split("\n")[0] == "All seasons"
    now = (await alice.slash(world.channel, "stats")).original
    assert embed(now)["footer"]["text"] == "Season 2: Summer"
    assert "No finished games" in embed(now)["description"]

    # a retried command starts one season, not two; the list shows them, the newest first
    again = await store.start_season(guild, "Summer", actor=alice.id, key="retry")
    assert (await store.start_season(guild, "Summer", actor=alice.id, key="retry")) == again
    listed = await bob.slash(world.channel, "season list")
    text = embed(listed.original)["description"]
    assert only_private(listed)
    assert text.index("Season 3: Summer") < text.index("Season 2: Summer") < text.index("Season 1")
    assert "Before the first season" in text

    choices = await bob.autocomplete(world.channel, "leaderboard", "season", game="koikoi")
    values = [c["value"] for c in choices.autocomplete_choices]
    assert values == ["current", "all", "3", "2", "1", "0"]
    typed = await bob.autocomplete(world.channel, "stats", "season", season="spring")
    assert [(c["name"], c["value"]) for c in typed.autocomplete_choices] == [
        ("Season 1: Spring @everyone", "1")]  # a choice is plain text: as typed, pinging no one


def test_leaderboard_buttons_made_before_seasons_still_route():
    old = "hf:lbd:42:koikoi:wins:all:3:n"  # as buttons were made before seasons
    match = LeaderboardPager.__discord_ui_compiled_template__.fullmatch(old)
    assert match and match["season"] is None and match["page"] == "3"  # the current season
    new = LeaderboardPager.__discord_ui_compiled_template__.fullmatch(
        "hf:lbd:42:koikoi:wins:all:sa:3:n")
    assert new and new["season"] == "a"
