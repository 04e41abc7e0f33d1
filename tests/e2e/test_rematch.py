"""Rematch from the final table: the same players and settings again, each human confirming,
stakes escrowed again, one match however many presses, nothing for outsiders or cancelled games.
The real bot against the Discord stand-in."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from bot.discord_ui.starting import lobby_lock
from bot.store import EVERY_SERVER
from cogs.rematch import REMATCH_SECONDS
from tests.e2e.playing import (
    answer_fault,
    game_over,
    play_out,
    section,
    table_messages,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first, reply_text
from tests.e2e.test_start_safety import (
    CALLED_OFF,
    cid,
    count,
    forged_press,
    make_bot,
    posts_a_message,
    private,
    watch_calls,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "rematch.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await standin.settle()
    return bot


async def stakes_of(bot, game_id):
    return await count(bot, "SELECT count(*) FROM transfers WHERE kind = 'stake' AND game_id = ?", game_id)


def game_id_of(table_message) -> int:
    return int(cid(table_message, "hf:rematch:").rsplit(":", 1)[1])


async def challenge_played(standin, world):
    """The final table of a one-round Koi-Koi challenge the admin and the player played out."""
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1)
    await world.player.click(record.original, cid(record.original, "hf:ch:accept:"))
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin, world.player])
    return await game_over(standin, world.channel)


async def test_a_rematch_plays_the_same_match_again(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    await store.set_house_rules(guild, "koikoi", {"teyaku": "off", "preset_name": "modern"})
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1,
                                     stake=40)
    await world.player.click(record.original, cid(record.original, "hf:ch:accept:"))
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin, world.player])
    final = await game_over(standin, world.channel)
    first_id = game_id_of(final)
    balances = {u.id: await store.balance(guild, u.id) for u in (world.admin, world.player)}
    # the house rules change meanwhile: the rematch still plays the first game's rules
    await store.set_house_rules(guild, "koikoi", {"teyaku": "off", "preset_name": "nintendo"})

    outsider = await world.shy.click(final, cid(final, "hf:rematch:"))
    assert private(outsider) and "Only the players" in reply_text(outsider)
    asked = await world.admin.click(final, cid(final, "hf:rematch:"))
    request = asked.original
    assert not request.ephemeral and "rematch" in request.embeds[0]["title"]
    assert f"<@{world.player.id}>" in request.content  # the one asked is notified
    fields = {f["name"]: f["value"] for f in request.embeds[0]["fields"]}
    assert fields["Rules"] == "Modern (Fuda Wiki)" and fields["Match"] == "1 round"
    again = await world.admin.click(final, cid(final, "hf:rematch:"))
    assert private(again) and "waiting for" in reply_text(again)
    stranger = await world.shy.click(request, cid(request, "hf:rm:accept:"))
    assert private(stranger) and "Only the players" in reply_text(stranger)
    assert len(table_messages(standin, world.channel)) == 1

    accepted = await world.player.click(request, cid(request, "hf:rm:accept:"))
    await standin.wait_until(lambda: "rematch is on" in reply_text(accepted), timeout=10)
    await table_posted(standin, world.channel, count=2)
    await standin.wait_until(lambda: "started" in standin.message(request).embeds[0]["title"], timeout=10)
    assert not standin.message(request).components
    [second] = await store.list_running_games(guild)
    first = await store.load_game(first_id, scope=EVERY_SERVER, with_events=False)
    assert second.game_id != first_id
    assert second.rules == first.rules and second.rules["preset_name"] == "modern"
    assert (second.game, second.stake, second.players) == (first.game, first.stake, first.players)
    assert second.state["host_id"] == first.state["host_id"] and second.state["stake"] == 40
    # the stakes were escrowed again, through the same ledger path as the first game
    assert await stakes_of(hbot, first_id) == 2 and await stakes_of(hbot, second.game_id) == 2
    for user in (world.admin, world.player):
        assert await store.balance(guild, user.id) == balances[user.id] - 40
    await play_out(standin, world.channel, [world.admin, world.player])
    assert (await store.load_game(second.game_id, scope=EVERY_SERVER, with_events=False)).status == "finished"
    assert (await store.audit()).ok
    # the second final table tallies the series the two games make, by each game's result
    assert "Series" not in section(final, "Result")
    ended = await standin.wait_for(
        lambda: (m := standin.message(table_messages(standin, world.channel)[-1]))
        and "Series of 2 games:" in (section(m, "Result") or "") and m, "the series on the second end")
    outcomes = [await store.ended_outcome(g) for g in (first_id, second.game_id)]
    wins = {u.id: sum(r.outcome == "won" for o in outcomes for r in o.results if r.user_id == u.id)
            for u in (world.admin, world.player)}
    draws = sum(all(r.outcome == "draw" for r in o.results) for o in outcomes)
    line = next(x for x in section(ended, "Result").splitlines() if x.startswith("Series of 2 games:"))
    assert line.startswith(f"Series of 2 games: alice {wins[world.admin.id]} · bob {wins[world.player.id]}")
    assert line.endswith(" drawn") == bool(draws)


async def test_twenty_presses_against_the_ai_start_one_match(hbot, standin, world):
    store = hbot.store
    await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=1, stake=10)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    final = await game_over(standin, world.channel)
    first_id = game_id_of(final)
    presses = await asyncio.gather(*(world.admin.click(final, cid(final, "hf:rematch:"))
                                     for _ in range(20)))
    await table_posted(standin, world.channel, count=2)
    await standin.wait_until(lambda: any("rematch is on" in reply_text(p) for p in presses), timeout=10)
    assert await count(hbot, "SELECT count(*) FROM games") == 2
    assert sum("rematch is on" in reply_text(p) for p in presses) == 1
    refused = [p for p in presses if "already started" in reply_text(p)]
    assert len(refused) == 19 and all(private(p) for p in refused)
    games = await count(hbot, "SELECT max(game_id) FROM games")
    second = await store.load_game(games, scope=EVERY_SERVER, with_events=False)
    first = await store.load_game(first_id, scope=EVERY_SERVER, with_events=False)
    assert second.players == first.players == [world.admin.id, "ai:easy"]
    assert second.rules == first.rules and second.stake == first.stake == 10
    assert await stakes_of(hbot, first_id) == await stakes_of(hbot, second.game_id) == 2
    assert (await store.audit()).ok


async def test_a_player_short_of_chips_is_told_privately_and_nothing_starts(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=1, stake=300)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    final = await game_over(standin, world.channel)
    balance = await store.balance(guild, world.admin.id)
    await store.revoke(guild, world.admin.id, balance - 100, key="drain", actor=world.admin.id,
                       reason="test")
    refused = await world.admin.click(final, cid(final, "hf:rematch:"))
    assert private(refused) and "You have 100 chips" in reply_text(refused)
    assert "300" in reply_text(refused)
    assert await count(hbot, "SELECT count(*) FROM games") == 1
    assert await count(hbot, "SELECT count(*) FROM lobbies WHERE kind = 'rematch'") == 0


async def test_a_cancelled_game_offers_no_rematch(hbot, standin, world):
    await world.admin.slash(world.channel, "koikoi", ai="easy", rounds=3)
    [table] = await table_posted(standin, world.channel)
    cancel = cid(table, "hf:cancel:")
    game_id = int(cancel.rsplit(":", 1)[1])
    await world.admin.click(table, cancel)
    final = await game_over(standin, world.channel)
    assert not any(c.startswith("hf:rematch:") for c in final.custom_ids())
    # a Rematch press forged with the cancelled game's id is refused too
    forged = await forged_press(standin, world.admin, final, f"hf:rematch:{game_id}")
    assert private(forged) and "cancelled" in reply_text(forged)
    assert (await hbot.store.load_game(game_id, scope=EVERY_SERVER, with_events=False)).status == "cancelled"
    assert await count(hbot, "SELECT count(*) FROM games") == 1


async def test_a_rematch_can_be_declined_or_expire(hbot, standin, world):
    store = hbot.store
    final = await challenge_played(standin, world)
    request = (await world.player.click(final, cid(final, "hf:rematch:"))).original
    declined = await world.admin.click(request, cid(request, "hf:rm:decline:"))
    assert private(declined)
    await standin.wait_until(lambda: "declined" in standin.message(request).embeds[0]["title"], timeout=10)
    assert not standin.message(request).components
    # asked again, and left unanswered past its expiry
    request = (await world.player.click(final, cid(final, "hf:rematch:"))).original
    lobby_id = cid(request, "hf:rm:accept:").rsplit(":", 1)[1]
    async with store._db.write() as conn:  # the bot's own writer: no second writer to wait for
        await conn.execute("UPDATE lobbies SET expires_at = ? WHERE lobby_id = ?",
                           (int(time.time() * 1000) - 1000, lobby_id))
    late = await world.admin.click(request, cid(request, "hf:rm:accept:"))
    assert private(late)
    await standin.wait_until(lambda: "expired" in standin.message(request).embeds[0]["title"].lower(),
                             timeout=10)
    assert await count(hbot, "SELECT count(*) FROM games") == 1


@pytest.mark.usefixtures("no_late_acks")
async def test_a_decline_whose_answer_discord_refuses_still_shows_on_the_request(hbot, standin, world):
    """The decline is stored before its private answer, which Discord refuses (the press's token
    gone): the request's message shows it declined all the same."""
    final = await challenge_played(standin, world)
    request = (await world.player.click(final, cid(final, "hf:rematch:"))).original
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=lambda call: "You declined" in str(call.body))
    await world.admin.press(request, cid(request, "hf:rm:decline:"))
    await standin.wait_for(lambda: "declined" in standin.message(request).embeds[0]["title"],
                           "the request shown declined", channels=[world.channel])
    assert answer.remaining == 0 and not standin.message(request).components


def asks_for_a_rematch(call) -> bool:
    """A request for a rematch, posted (as a press's answer or as the bot's own message)."""
    return "rematch" in str(call.body) and "hf:rm:accept:" in str(call.body)


def requests_in(standin, channel) -> list:
    return [m for m in standin.channel_messages(channel)
            if any("hf:rm:accept:" in str(row) for row in m.components)]


@pytest.mark.usefixtures("no_late_acks")
async def test_a_request_discord_refuses_as_the_answer_is_posted_by_the_bot(hbot, standin, world,
                                                                            monkeypatch):
    """Discord refuses the request as the Rematch press's answer (its token gone): the bot posts
    it in the channel itself, asking the other player, who accepts it into the match."""
    final = await challenge_played(standin, world)
    noted = watch_calls(monkeypatch, hbot.store, "set_lobby_message")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=lambda call: posts_a_message(call)
                               and asks_for_a_rematch(call))
    await world.admin.press(final, cid(final, "hf:rematch:"))
    [request] = await standin.wait_for(lambda: requests_in(standin, world.channel),
                                       "the request, posted by the bot", channels=[world.channel])
    assert answer.remaining == 0
    assert request.content == f"<@{world.player.id}>"  # the one asked is still notified
    [posted] = [r for r in standin.requests if r.method == "POST" and r.path.endswith("/messages")
                and asks_for_a_rematch(r)]
    assert [int(u) for u in posted.body["allowed_mentions"]["users"]] == [world.player.id]
    lobby_id = cid(request, "hf:rm:accept:").rsplit(":", 1)[1]
    await asyncio.wait_for(noted.wait(), standin.wait_timeout)
    assert (await hbot.store.get_lobby(lobby_id)).message_id == request.id  # shown, and expiring
    accepted = await world.player.click(request, cid(request, "hf:rm:accept:"))
    await standin.wait_until(lambda: "rematch is on" in reply_text(accepted), timeout=10)
    await table_posted(standin, world.channel, count=2)
    await standin.wait_until(lambda: "started" in standin.message(request).embeds[0]["title"], timeout=10)


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["token gone", "cut before twice"])
async def test_a_request_nobody_could_be_shown_is_withdrawn(hbot, standin, world, monkeypatch, fault):
    """Discord refuses the request as the press's answer (or the connection is cut before Discord
    took it, and again when it is sent once more) and the channel refuses the bot's post too:
    the request, shown nowhere, is withdrawn, and the next Rematch press asks afresh. Cut
    before, Discord still takes a word: the presser is told it was called off."""
    final = await challenge_played(standin, world)
    withdrawn = watch_calls(monkeypatch, hbot.store, "withdraw_lobby")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=lambda call: posts_a_message(call) and asks_for_a_rematch(call),
                               **answer_fault(fault))
    post = standin.fail_next("POST /channels/{channel_id}/messages", status=403,
                             channel_id=world.channel.id, where=asks_for_a_rematch)
    pressed = await world.admin.press(final, cid(final, "hf:rematch:"))
    await asyncio.wait_for(withdrawn.wait(), standin.wait_timeout)
    assert answer.remaining == 0 and post.remaining == 0 and not requests_in(standin, world.channel)
    if fault == "cut before twice":
        await standin.wait_for(lambda: pressed.original, "the presser's answer")
        assert pressed.original.flags & 64 and reply_text(pressed) == CALLED_OFF
    assert await count(hbot, "SELECT count(*) FROM lobbies WHERE kind = 'rematch' AND status = 'open'") == 0
    asked = (await world.admin.click(final, cid(final, "hf:rematch:"))).original
    assert not asked.ephemeral and asked.content == f"<@{world.player.id}>"
    assert requests_in(standin, world.channel) == [standin.message(asked)]


async def test_a_press_on_an_expired_rematch_is_answered_before_its_message_is_edited(hbot, standin,
                                                                                      world):
    """The press that finds a rematch expired is answered at once; the rematch's message is shown
    expired beside it, since that edit waits for the rematch's lock (held here, as by an edit
    of it still waiting for the channel's rate limit)."""
    store = hbot.store
    await store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    final = await challenge_played(standin, world)

    @contextlib.contextmanager
    def past_expiry():
        """The store's clock past every rematch's expiry, while their timers still wait: a
        press in the moment between the two."""
        clock = store._db.clock
        store._db.clock = lambda: clock() + REMATCH_SECONDS + 1
        try:
            yield
        finally:
            store._db.clock = clock

    async def asked():
        request = (await world.player.click(final, cid(final, "hf:rematch:"))).original
        return request, cid(request, "hf:rm:accept:").rsplit(":", 1)[1]

    def shown_expired(request):
        return lambda: "expired" in standin.message(request).embeds[0]["title"].lower()

    # Accept on the expired rematch's own message
    request, lobby_id = await asked()
    async with lobby_lock(lobby_id):
        with past_expiry():
            late = await world.admin.click(request, cid(request, "hf:rm:accept:"))
        assert private(late) and "expired" in reply_text(late)
        assert not shown_expired(request)()
    await standin.wait_for(shown_expired(request), "the expired rematch shown as such")
    assert (await store.get_lobby(lobby_id)).status == "expired"

    # Rematch on the final table while the live rematch has expired: a fresh one is asked for
    request, lobby_id = await asked()
    async with lobby_lock(lobby_id):
        with past_expiry():
            fresh = (await world.admin.click(final, cid(final, "hf:rematch:"))).original
        assert not fresh.ephemeral and "rematch" in fresh.embeds[0]["title"]
        assert f"<@{world.player.id}>" in fresh.content
    await standin.wait_for(shown_expired(request), "the expired rematch shown as such")
    live = await store.live_rematch(game_id_of(final))
    assert live is not None and live.lobby_id == cid(fresh, "hf:rm:accept:").rsplit(":", 1)[1]

    # Decline on the expired fresh one
    async with lobby_lock(live.lobby_id):
        with past_expiry():
            declined = await world.player.click(fresh, cid(fresh, "hf:rm:decline:"))
        assert private(declined) and "expired" in reply_text(declined)
    await standin.wait_for(shown_expired(fresh), "the expired rematch shown as such")
    assert await store.live_rematch(game_id_of(final)) is None
    assert await count(hbot, "SELECT count(*) FROM games") == 1
