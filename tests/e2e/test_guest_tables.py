"""Games where the app is only a guest, through a user's own install: a group DM and a server
that never added the bot. The app may only answer interactions there; the stand-in refuses and
records every other request, and the fixture fails a test that made one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time

import discord
import pytest

from bot.config import Settings
from bot.discord_ui import feeds
from bot.discord_ui.client import HanafudaBot
from bot.store import EVERY_SERVER
from tests.discord_standin.server import WaitTimeout
from tests.e2e.playing import (
    controls,
    hand_message,
    is_closed,
    move_of,
    play_out,
    reply_text,
    section,
    table_messages,
    table_move,
)
from tests.e2e.test_koikoi_bot import HUMAN_FIRST_SEED

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def gbot(start_bot, standin, tmp_path):
    bot = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=tmp_path / "g.sqlite3")))
    await bot.tree.sync()  # the commands users install are global
    bot.tables.ai_delay = 0.01
    return bot


def cid(message, prefix):
    return next(c for c in message.custom_ids() if c.startswith(prefix))


async def steady_koikoi(bot, place) -> None:
    """Koi-Koi in ``place`` that lasts long enough to press in: no dealt-hand yaku ending the
    round at the deal, and a deal where the player who starts moves first (as the server tests
    pin it; a guest place keeps its house rules under its own id)."""
    await bot.store.set_house_rules(place.id, "koikoi", {"teyaku": "off"})
    bot.tables.new_seed = lambda: HUMAN_FIRST_SEED


async def test_two_friends_play_koikoi_to_the_end_in_a_group_dm(gbot, standin):
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)  # bob never installed the app: he only presses alice's buttons
    group = standin.create_group_dm("friends", alice, bob)
    await steady_koikoi(gbot, group)
    record = await alice.slash(group, "koikoi", opponent=bob, rounds=1)
    challenge = record.messages[0]
    assert not challenge.ephemeral and f"<@{bob.id}>" in challenge.content
    await bob.click(challenge, cid(challenge, "hf:ch:accept:"))
    table = await standin.wait_for(
        lambda: "table.png" in standin.message(challenge.id).files and standin.message(challenge.id),
        "the challenge turned into the table", channels=[group])
    assert table_messages(standin, group) == [table]  # one message: the challenge became the table
    # bob's hand came with his press; alice opens hers from the table
    await standin.wait_for(lambda: any("hand.png" in m.files for m in standin.ephemerals(bob)),
                           "bob's private hand")
    opened = await alice.click(table, cid(table, "hf:hand:"))
    assert opened.response_type == 6  # an update of the table: its token keeps the table shown
    hand = await standin.wait_for(
        lambda: next((m for m in standin.ephemerals(alice) if "hand.png" in m.files), None),
        "alice's private hand")
    assert hand.ephemeral and not hand.is_visible_to(bob)
    player = await play_out(standin, group, [alice, bob])
    assert player.moves > 4
    final = table_messages(standin, group)
    assert final == [table]  # still one table message, now the final table
    page = await gbot.store.game_history(group.id)
    record = await gbot.store.load_game(page.rows[0].game_id, scope=EVERY_SERVER)
    assert record.guild_id == group.id and record.stake == 0 and record.status == "finished"
    board = await alice.slash(group, "leaderboard")  # this group DM's board: its own games only
    text = " ".join(str(e.get("description", "")) for m in board.messages for e in m.embeds)
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text and "1 game" in text
    stats = await alice.slash(group, "stats")
    assert any("stats" in name or "card" in name for m in stats.messages for name in m.files)


async def test_a_solo_game_against_the_ai_in_a_server_without_the_bot(gbot, standin):
    alice = standin.create_user("alice")
    standin.install_for(alice)
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice)
    street = standin.create_channel(elsewhere, "street")
    # A chongtong dealt to either seat would end the round before alice has a hand to play; the
    # rules of a guest place are kept under its channel (nobody can set them there but a test).
    await gbot.store.set_house_rules(street.id, "gostop", {"chongtong": "off"})
    record = await alice.slash(street, "gostop", ai="easy", rounds=1)
    table = record.messages[0]
    assert "table.png" in table.files and not table.ephemeral
    assert gbot.tables.get(1).match.rules.chongtong == "off"
    hand = await standin.wait_for(lambda: hand_message(standin, alice), "alice's first hand")
    assert hand.ephemeral and move_of(hand) is not None
    await play_out(standin, street, [alice])
    assert [m.id for m in table_messages(standin, street)] == [table.id]


async def test_where_only_private_answers_are_allowed_the_ai_game_is_private(gbot, standin):
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    elsewhere = standin.create_guild("Quiet", with_bot=False)
    for user in (alice, bob):
        standin.add_member(elsewhere, user)
    street = standin.create_channel(elsewhere, "street")
    street.external_apps = False
    refused = await alice.slash(street, "koikoi", opponent=bob)
    assert "Use External Apps" in reply_text(refused) and refused.messages[0].ephemeral
    refused = await alice.slash(street, "koikoi", ai="easy", stake=5)
    assert "without chips" in reply_text(refused)
    record = await alice.slash(street, "koikoi", ai="easy", rounds=1)
    table = record.messages[0]
    assert table.ephemeral and "table.png" in table.files
    await play_alone(standin, table.id, alice)
    assert all(m.ephemeral for m in standin.visible_to(alice, street))
    assert standin.channel_messages(street) == []  # nothing anyone else can see


class Later:
    """Monotonic time a test can move forward, read by the stand-in's deadlines and by the bot's
    token ages alike: twenty minutes pass at once."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


async def press_first_move(standin, user, after: int) -> int:
    hand = await standin.wait_for(
        lambda: (h := hand_message(standin, user)) is not None and move_of(h) > after and h,
        f"{user.name}'s hand offering a move after move {after}")
    await user.click(hand, next(c for c in hand.custom_ids() if c.startswith("hf:act:")))
    return move_of(hand)


async def test_a_table_left_for_twenty_minutes_shows_again_on_the_next_press(gbot, standin, monkeypatch):
    clock = Later()
    standin.deadline_clock = clock
    monkeypatch.setattr(feeds, "token_clock", clock)
    alice = standin.create_user("alice")
    standin.install_for(alice)
    group = standin.create_group_dm("solo", alice, standin.create_user("bob"))
    await steady_koikoi(gbot, group)
    record = await alice.slash(group, "koikoi", ai="easy", rounds=1)
    table = record.messages[0]
    pressed = await press_first_move(standin, alice, -1)
    pressed = await press_first_move(standin, alice, pressed)
    await standin.wait_for(lambda: table_move(standin.message(table.id)) > pressed,
                           "the table showing the second move")
    await gbot.guest.drain()  # nothing in flight: the twenty minutes pass while all is quiet
    clock.skipped += 20 * 60  # every token of the table has expired
    pressed = await press_first_move(standin, alice, pressed)  # a new press brings its own token
    game = next(iter(gbot.tables.tables.values()))
    await gbot.guest.drain()
    assert table_move(standin.message(table.id)) < game.seq  # no token could show the table
    await alice.click(standin.message(table.id), cid(standin.message(table.id), "hf:hand:"))
    await standin.wait_for(lambda: table_move(standin.message(table.id)) == game.seq or is_closed(
        standin.message(table.id)), "the table shown again at the stored move")
    await play_alone(standin, table.id, alice, pressed)


async def test_only_the_copy_of_a_hand_last_used_takes_moves(gbot, standin, monkeypatch):
    """My hand sends a newer copy of the hand: the older loses its controls. A press on the older
    copy that came before it lost them (the player saw it a moment earlier) makes it the hand
    again, and the newer one loses its controls instead: the copy the player reads last never
    offers an old move."""
    alice = standin.create_user("alice")
    standin.install_for(alice)
    group = standin.create_group_dm("solo", alice, standin.create_user("bob"))
    await steady_koikoi(gbot, group)
    table = (await alice.slash(group, "koikoi", ai="easy", rounds=1)).messages[0]
    first = await standin.wait_for(lambda: hand_message(standin, alice), "alice's first hand")
    offered = move_of(first)
    reached, release = asyncio.Event(), asyncio.Event()
    apply = gbot.guest._apply

    async def held(feed, message_id, update, via, target, turn=None):
        if message_id == first.id and "hf:act:" not in json.dumps(update.view.to_components()):
            reached.set()  # the first copy is about to lose its controls: hold it there
            await release.wait()
        return await apply(feed, message_id, update, via, target, turn)

    monkeypatch.setattr(gbot.guest, "_apply", held)
    await alice.click(standin.message(table.id), cid(standin.message(table.id), "hf:hand:"))
    await reached.wait()
    newer = hand_message(standin, alice)
    assert newer.id != first.id and move_of(newer) == offered
    assert move_of(standin.message(first.id)) == offered  # two copies offer the same move
    older = standin.message(first.id)
    await alice.click(older, next(c for c in older.custom_ids() if c.startswith("hf:act:")))
    release.set()
    await gbot.guest.drain()
    moved = standin.message(newer.id)
    assert not controls(moved) and "this copy no longer takes moves" in moved.text()
    # The AI answers the press after the drain may have returned: its move and the press show
    # together on the pressed copy, which is the hand again.
    again = await standin.wait_for(lambda: (h := hand_message(standin, alice)) is not None
                                   and move_of(h) > offered and h, "the pressed copy with new moves")
    assert again.id == first.id
    await alice.click(standin.message(table.id), cid(standin.message(table.id), "hf:hand:"))
    newest = await standin.wait_for(lambda: (h := hand_message(standin, alice)) is not None and h.id > newer.id and h,
                                    "the hand My hand sent again")
    await gbot.guest.drain()
    assert not controls(standin.message(first.id))  # the newest copy is the hand again
    assert move_of(standin.message(newest.id)) > offered
    await play_alone(standin, table.id, alice, offered)


async def test_a_game_that_ended_while_no_token_could_show_it_shows_its_end_on_the_next_press(
        gbot, standin, monkeypatch):
    clock = Later()
    standin.deadline_clock = clock
    monkeypatch.setattr(feeds, "token_clock", clock)
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    group = standin.create_group_dm("friends", alice, bob)
    await steady_koikoi(gbot, group)
    challenge = (await alice.slash(group, "koikoi", opponent=bob, rounds=1)).messages[0]
    await bob.click(challenge, cid(challenge, "hf:ch:accept:"))
    table = await standin.wait_for(lambda: "table.png" in standin.message(challenge.id).files
                                   and standin.message(challenge.id), "the table")
    await gbot.guest.drain()
    clock.skipped += 20 * 60  # every token of the table has expired
    forfeit = cid(table, "hf:forfeit:")
    asked = await bob.click(standin.message(table.id), forfeit)
    await bob.click(asked.messages[0], forfeit + ":sure")
    await standin.wait_for(lambda: not gbot.tables.tables, "the game over")
    await gbot.guest.drain()
    assert not is_closed(standin.message(table.id))  # no token could show the end
    record = await alice.click(standin.message(table.id), cid(standin.message(table.id), "hf:hand:"))
    final = await standin.wait_for(lambda: is_closed(m := standin.message(table.id)) and m,
                                   "the final table shown by the press")
    assert section(final, "Result").startswith("**bob forfeited; alice wins**")
    assert not reply_text(record)  # answered by the table itself, with nothing else


async def friends_in_a_group_dm(start_bot, standin, db, ai_delay: float):
    """A first bot on ``db`` and alice (who installed the app) and bob in a group DM, where
    Koi-Koi lasts long enough to press in."""
    first = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=db)))
    await first.tree.sync()
    first.tables.ai_delay = ai_delay
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    group = standin.create_group_dm("friends", alice, bob)
    await steady_koikoi(first, group)
    return first, alice, bob, group


async def test_a_restart_in_the_middle_of_a_guest_game_loses_nothing(start_bot, standin, tmp_path):
    db = tmp_path / "restart.sqlite3"
    first, alice, bob, group = await friends_in_a_group_dm(start_bot, standin, db, 0.01)
    challenge = (await alice.slash(group, "koikoi", opponent=bob, rounds=1)).messages[0]
    await bob.click(challenge, cid(challenge, "hf:ch:accept:"))
    table = await standin.wait_for(lambda: "table.png" in standin.message(challenge.id).files
                                   and standin.message(challenge.id), "the table")
    await alice.click(table, cid(table, "hf:hand:"))
    pressed = -1
    for _ in range(3):
        pressed = max(pressed, await press_either(standin, (alice, bob), pressed))
    gid = next(iter(first.tables.tables))
    stored = first.tables.tables[gid].seq
    await first.shutdown()

    second = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=db)))
    second.tables.ai_delay = 0.01
    again = second.tables.tables[gid]
    assert again.seq == stored and again.home == "guest"
    for user in (alice, bob):  # each opens their hand again; the first press shows the table too
        await user.click(standin.message(table.id), cid(standin.message(table.id), "hf:hand:"))
    await standin.wait_for(lambda: table_move(standin.message(table.id)) == stored,
                           "the table at the stored move after the restart")
    await play_out(standin, group, [alice, bob])
    assert table_messages(standin, group) == [standin.message(table.id)]


async def test_a_crash_leaves_a_guest_table_and_hand_that_follow_the_game_unpressed(
        start_bot, standin, tmp_path):
    # The first process stops before the AI's move (its AI never moves), keeping nothing in
    # memory; the second plays it at once, and the tokens the first had the table and the hand
    # by (kept in the store for their 15 minutes) show it, with no press of anyone's.
    db = tmp_path / "crash.sqlite3"
    first, alice, _, group = await friends_in_a_group_dm(start_bot, standin, db, 3600)
    table = (await alice.slash(group, "koikoi", ai="normal", rounds=1)).messages[0]
    playing, pressed = next(iter(first.tables.tables.values())), -1
    while playing.match.current_player == 0:  # until the AI is to move
        pressed = await press_first_move(standin, alice, pressed)
    gid = playing.game_id  # the AI's move would show with alice's: neither is shown yet
    await first.guest.drain()  # the tokens kept (a crash just before is the window it leaves)
    await first.close()  # no clean stop: what it did not store is gone

    second = await start_bot(HanafudaBot(Settings(token=standin.token, database_path=db)))
    second.tables.ai_delay = 0.01
    presses = len(standin.interactions)
    hand = await standin.wait_for(
        lambda: (h := hand_message(standin, alice)) is not None and move_of(h) is not None
        and move_of(h) > pressed and h, "alice's hand offering her move after the AI's")
    stored = second.tables.tables[gid].seq
    assert move_of(hand) == stored
    await standin.wait_for(lambda: table_move(standin.message(table.id)) == stored,
                           "the table at the AI's move")
    assert len(standin.interactions) == presses  # nobody pressed anything
    assert table_messages(standin, group) == [standin.message(table.id)]
    assert len([m for m in standin.ephemerals(alice) if "hand.png" in m.files]) == 1
    await play_out(standin, group, [alice])


async def press_either(standin, users, after: int) -> int:
    """Whoever is offered a move newer than ``after`` presses its first."""
    user, hand = await standin.wait_for(
        lambda: next(((u, h) for u in users if (h := hand_message(standin, u)) is not None
                      and move_of(h) > after), None), f"a move after move {after}")
    await user.click(hand, next(c for c in hand.custom_ids() if c.startswith("hf:act:")))
    return move_of(hand)


async def play_alone(standin, table_id: int, user, pressed: int = -1) -> None:
    """``user`` presses the first move offered until the table shows the end (a table that
    only they may see, or that no channel lists)."""
    def next_step():
        if is_closed(standin.message(table_id)):
            return "over", None
        hand = hand_message(standin, user)
        return hand is not None and move_of(hand) > pressed and ("move", hand)

    while (step := await standin.wait_for(next_step, "a move to press or the end"))[0] == "move":
        pressed = move_of(step[1])
        await user.click(step[1], next(c for c in step[1].custom_ids() if c.startswith("hf:act:")))


async def steady_street(bot, standin):
    """alice, who installed the app, and #street of a server that never added the bot, where
    Koi-Koi lasts long enough to press in (:func:`steady_koikoi`)."""
    alice = standin.create_user("alice")
    standin.install_for(alice)
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice)
    street = standin.create_channel(elsewhere, "street")
    await steady_koikoi(bot, street)
    return alice, street


@pytest.mark.parametrize("drop", ["before", "after"])
async def test_a_guest_table_cut_off_at_its_start_is_shown_by_the_next_try(gbot, standin, drop):
    """The start's answer that becomes a guest's table is cut off on its way: the game goes on
    and the token's next try shows the table (the app may not post one of its own)."""
    alice, street = await steady_street(gbot, standin)
    cut = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            drop=drop, where=lambda call: "table.png" in str(call.body))
    record = await alice.slash(street, "koikoi", ai="easy", rounds=1)
    await standin.wait_for(lambda: cut.remaining == 0 and table_messages(standin, street)
                           and gbot.guest.where(1), "the table, shown by the next try")
    [table] = table_messages(standin, street)
    assert table.id == record.original.id and "try again" not in reply_text(record)
    hand = await standin.wait_for(lambda: hand_message(standin, alice), "alice's first hand")
    await alice.click(hand, controls(hand)[0])
    await standin.wait_for(lambda: (table_move(standin.message(table)) or 0) > 0,
                           "the table after her move", channels=[street])


HELD = 1.0  # the longest a press's answer is held back: Discord's 3 s are not at stake


async def test_a_kept_post_waits_for_the_press_that_brought_its_token_to_be_answered(
        gbot, standin, monkeypatch):
    """A guest's post kept for want of a token (a round's summary no token could send) goes
    out as a follow-up of the next press, which Discord refuses before that press is answered.
    That press's answer is held back (as a slow network would) until a follow-up arrives or a
    second has passed: the summary must wait for the answer, not arrive first."""
    alice, street = await steady_street(gbot, standin)
    guest, starved, before = gbot.guest, [True], [0]
    sender, defer = guest._sender, discord.InteractionResponse.defer

    def no_token_yet(table):  # every token spent, until the test says otherwise
        return None if starved[0] else sender(table)

    def followups() -> int:
        return sum(r.method == "POST" and r.template == "/webhooks/{webhook_id}/{webhook_token}"
                   for r in standin.requests)

    async def held(self, *args, **kwargs):  # the press that brings a token is answered late
        if not starved[0] and before[0] >= 0:
            with contextlib.suppress(WaitTimeout):
                await standin.wait_for(lambda: followups() > before[0], "a follow-up before the answer",
                                       timeout=HELD)
            before[0] = -1  # that press only
        return await defer(self, *args, **kwargs)

    monkeypatch.setattr(guest, "_sender", no_token_yet)
    monkeypatch.setattr(discord.InteractionResponse, "defer", held)
    await alice.slash(street, "koikoi", ai="easy", rounds=3)
    pressed = -1
    while not guest._owed:  # the first round's summary, kept: no token to send it
        pressed = await press_first_move(standin, alice, pressed)
        await standin.wait_for(lambda after=pressed: guest._owed or (
            (hand := hand_message(standin, alice)) is not None and move_of(hand) > after),
            "the next move or the summary kept")
    before[0], starved[0] = followups(), False
    await press_first_move(standin, alice, pressed)  # brings a token: the summary goes through it
    await standin.wait_for(lambda: [m for m in standin.channel_messages(street) if m.embeds],
                           "the summary, posted")
    await standin.wait_for(lambda: not guest._owed, "nothing kept any more")


async def test_a_guest_challenge_s_expiry_cut_off_is_tried_again(gbot, standin, monkeypatch):
    """A guest's challenge is closed through its command's answer, the only way the app may edit
    it; the connection is cut on that edit: it is tried again, and the challenge shows expired."""
    monkeypatch.setattr(sys.modules["cogs.play.cog"], "CHALLENGE_SECONDS", 1)  # the loaded extension
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    group = standin.create_group_dm("friends", alice, bob)
    record = await alice.slash(group, "koikoi", opponent=bob, rounds=1)
    cut = standin.fail_next("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            drop="before", webhook_token=record.token)
    challenge = record.messages[0]
    await standin.wait_for(lambda: not standin.message(challenge.id).components,
                           "the challenge closed by the next try", channels=[group])
    assert cut.remaining == 0 and standin.message(challenge.id).embeds[0]["title"] == "Challenge expired"
