"""The deal of the day in the Activity, through the stand-in: the lobby deals a member their game
of today's deal, which their own pages alone show (another member's page in the same Activity
never gets a state of it), played as ``/deal play`` plays it (the day's committed deal, one
round against the hard AI, once a day, no hints), and a game started in Discord goes on in the
Activity."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.fairness import commitment_of, derive_seed
from bot.tables import HOME_PRIVATE
from tests.e2e.activity import activity_bot, joined
from tests.e2e.playing import hand_message, move_of
from tests.e2e.test_activity_lobby import base, lbot, lobby_of, play_to_the_end, send  # noqa: F401
from tests.e2e.test_deal_of_the_day import pin_the_day

pytestmark = pytest.mark.asyncio


def states_of(page, game_id: int) -> list[dict]:
    return [m for m in page.messages if m["type"] == "state" and m["game"]["id"] == game_id]


async def ask(page, **message) -> dict:
    """A read's answer (a board, or its refusal), which carries the nonce it answers."""
    page.nonce += 1
    await page.send(n=page.nonce, **message)
    return await page.next(lambda m, n=page.nonce: m.get("n") == n, f"the answer to {message}")


async def nothing_more_for(page) -> None:
    """Everything the server pushed ``page`` so far is read: the answer to a read sent now comes
    after it on the socket."""
    assert (await ask(page, type="rules", play="koikoi"))["type"] == "rules"


async def test_the_lobby_deals_a_member_the_day_s_deal_that_their_pages_alone_show(
        lbot, standin, world, http):  # noqa: F811
    alice, bob = world.admin, world.player
    seed = await pin_the_day(lbot, world.guild.id)
    instance = standin.oauth.open_activity(world.channel, alice, bob)
    page, _ = await joined(http, base(lbot), standin, alice, instance)
    friend, _ = await joined(http, base(lbot), standin, bob, instance)
    await lobby_of(page)
    await lobby_of(friend)
    assert (await page.next(lambda m: m["type"] == "today", "alice's standing"))["games"] == {}
    welcome = next(m for m in page.messages if m["type"] == "welcome")
    assert welcome["words"]["play_daily"] == "Play today's deal"
    assert (await send(page, type="daily", play="chess"))["text"] == "There is no such game."
    asked = len(standin.requests)

    assert (await send(page, type="daily", play="koikoi"))["type"] == "played"
    state = await page.state(lambda s: s["you"]["seat"] == 0, "alice's game of the day's deal")
    game_id = state["game"]["id"]
    table = lbot.tables.get(game_id)
    assert table.home == HOME_PRIVATE and table.players == [alice.id, "ai:hard"]
    assert table.match.rules.rounds == 1 and table.headline.startswith("Deal of the day, ")
    assert state["game"]["daily"] is True and state["hint"] is False
    assert [p["name"] for p in state["players"]] == ["alice", "AI (hard)"]
    record = await lbot.store.load_game(game_id, scope=world.guild.id)
    assert record.seed == derive_seed(seed, [])  # the day's deal, as /deal play deals it
    day = lbot.store.daily_deal_day()
    entry = await lbot.store.claim_daily_deal(world.guild.id, "koikoi", day, alice.id)
    assert entry.game_id == game_id
    # the page is at it: nothing else starts from there while it runs
    again = await send(page, type="daily", play="sakura")
    assert again["text"] == "A game is running in this channel already."
    assert len(lbot.tables.tables) == 1
    answer = await send(page, type="hint", game=game_id)
    assert answer["text"] == "The deal of the day has no hints: everyone plays it unaided."

    over = await play_to_the_end(page, state)
    # the last move reaches the page before its result, which follows once it is settled
    final = over if over["result"] else await page.state(
        lambda s: s["game"]["id"] == game_id and s["result"], "the result")
    assert final["result"]["daily"].startswith("Deal of the day: ")
    assert "against the AI, place 1 of 1 so far." in final["result"]["daily"]
    assert final["again"] is False
    await lbot.publisher.drain()
    await lbot.guest.drain()
    assert standin.requests[asked:] == []  # nothing posted or sent in Discord for it
    assert game_id not in lbot.guest._owed  # nor kept for a press in Discord that never comes
    await nothing_more_for(friend)
    assert states_of(friend, game_id) == []  # bob's page never saw alice's cards

    # the day's board, asked from the page at any time (bob's page, in the lobby, too)
    board = await ask(page, type="board", play="koikoi")
    assert board["type"] == "board" and board["title"].startswith("🌅 Deal of the day · Koi-Koi · ")
    assert board["subtitle"] == "1 player of 1 finished."
    [row] = board["rows"]
    assert row["place"] == "1" and row["name"] == "alice" and row["me"] is True
    assert row["value"] in final["result"]["daily"]
    assert commitment_of(seed) in board["seal"] and seed not in board["seal"]  # sealed today
    theirs = await ask(friend, type="board", play="koikoi")
    assert theirs["rows"] == [{**row, "me": False}]
    assert (await ask(friend, type="board", play="sakura"))["text"] == (
        "Nobody here has played today's Sakura (Higo-Bana) deal yet.")
    assert (await ask(friend, type="board", play="chess"))["text"] == "There is no such game."
    # once played: the lobby's box says how it went, and so does asking again
    assert (await send(page, type="lobby"))["type"] == "played"
    standing = await page.next(lambda m: m["type"] == "today" and m["games"], "the lobby's box")
    assert standing["games"] == {"koikoi": f"Played today: {row['value']} against the AI."}
    again = await send(page, type="daily", play="koikoi")
    assert again["text"].startswith("You played today's Koi-Koi deal: ")
    assert again["text"].endswith("against the AI. The next deal comes at midnight UTC.")
    # a game of another kind changes nothing of it: the lobby after it says the same unread
    read = lbot.store.daily_entries_today
    reads: list[int] = []

    async def counted(guild_id, user_id):
        reads.append(user_id)
        return await read(guild_id, user_id)

    lbot.store.daily_entries_today = counted
    assert (await send(page, type="ai", play="koikoi", level="easy", rounds=1))["type"] == "played"
    casual = await page.state(lambda s: s["game"]["id"] not in (game_id,) and s["you"]["seat"] == 0,
                              "a game against the AI")
    await lbot.tables.forfeit_by(casual["game"]["id"], alice.id)
    await page.state(lambda s: s["game"]["id"] == casual["game"]["id"] and s["game"]["over"], "it over")
    assert (await send(page, type="lobby"))["type"] == "played"
    said = await page.next(lambda m: m["type"] == "today" and m["games"], "the box after it")
    assert said["games"] == standing["games"] and reads == []

    # bob's game of the same deal: his alone, the same cards
    assert (await send(friend, type="daily", play="koikoi"))["type"] == "played"
    theirs = await friend.state(lambda s: s["you"]["seat"] == 0, "bob's game of the day's deal")
    assert theirs["game"]["id"] != game_id
    other = await lbot.store.load_game(theirs["game"]["id"], scope=world.guild.id)
    assert other.seed == record.seed
    await nothing_more_for(page)
    assert states_of(page, theirs["game"]["id"]) == []


async def test_a_game_of_the_day_s_deal_started_in_discord_goes_on_in_the_activity(
        lbot, standin, world, http):  # noqa: F811
    alice, bob = world.admin, world.player
    await pin_the_day(lbot, world.guild.id)
    started = await alice.slash(world.channel, "deal play", game="koikoi")
    assert any("table.png" in m.files and m.ephemeral for m in started.messages)
    await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand")
    [game_id] = list(lbot.tables.tables)
    hand = hand_message(standin, alice)
    assert not [c for c in hand.custom_ids() if c.startswith("hf:hint:")]  # no Hint on the day's deal
    # the Activity opened in another channel of the server: her page shows her game there,
    # bob's page in the same Activity the lobby
    elsewhere = standin.create_channel(world.guild, "lounge")
    instance = standin.oauth.open_activity(elsewhere, alice, bob)
    page, _ = await joined(http, base(lbot), standin, alice, instance)
    friend, _ = await joined(http, base(lbot), standin, bob, instance)
    state = await page.state(lambda s: s["game"]["id"] == game_id, "alice's game, in the Activity")
    assert state["you"]["seat"] == 0 and state["game"]["daily"] is True
    await lobby_of(friend)
    # a move made on the page is the game's move, shown in both places
    assert state["moves"] and state["hint"] is False  # the day's seed: alice moves first
    assert (await page.answer(await page.press(state)))["type"] == "played"
    await page.state(lambda s: s["game"]["seq"] > state["game"]["seq"], "the move, stored")
    await lbot.tables.forfeit_by(game_id, alice.id)
    await page.state(lambda s: s["game"]["id"] == game_id and s["game"]["over"], "the game over")
    await nothing_more_for(friend)
    assert states_of(friend, game_id) == []
    assert not [m for m in friend.messages if m["type"] == "state"]


async def test_a_game_of_the_deal_started_in_the_activity_goes_on_in_discord(
        lbot, standin, world, http):  # noqa: F811
    """The other way: started from the lobby, /deal play in Discord answers with the same game's
    table and hand, private, and a move there reaches the page."""
    alice = world.admin
    await pin_the_day(lbot, world.guild.id)
    instance = standin.oauth.open_activity(world.channel, alice)
    page, _ = await joined(http, base(lbot), standin, alice, instance)
    await lobby_of(page)
    assert (await send(page, type="daily", play="koikoi"))["type"] == "played"
    state = await page.state(lambda s: s["you"]["seat"] == 0, "alice's game, from the lobby")
    asked = await alice.slash(world.channel, "deal play", game="koikoi")
    [table] = [m for m in asked.messages if "table.png" in m.files]
    assert table.ephemeral and "Deal of the day" in table.text()
    hand = await standin.wait_for(lambda: hand_message(standin, alice), "alice's hand in Discord")
    assert hand.ephemeral and list(lbot.tables.tables) == [state["game"]["id"]]
    assert move_of(hand) == state["game"]["seq"]  # its moves offered in Discord too
    await alice.click(hand, next(c for c in hand.custom_ids() if c.startswith("hf:act:")))
    await page.state(lambda s: s["game"]["seq"] > state["game"]["seq"], "the move made in Discord")


async def test_in_a_group_dm_each_member_s_game_of_the_deal_is_their_page_s_alone(
        start_bot, standin, tmp_path, http):
    """Where the app is a guest (a user's own install) the place has its own deal: a game of it
    dealt by /deal play shows on its player's page in the Activity opened there, and the
    lobby there deals the other member the same cards, each seeing only their own."""
    bot = await start_bot(activity_bot(Settings(
        token=standin.token, database_path=tmp_path / "g.sqlite3", activity_port=0,
        client_secret=standin.oauth.client_secret)))
    await bot.tree.sync()  # the commands users install are global
    bot.tables.ai_delay = 0.01
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    for user in (alice, bob):
        standin.install_for(user)
    group = standin.create_group_dm("friends", alice, bob)
    seed = await pin_the_day(bot, group.id)
    await alice.slash(group, "deal play")
    [game_id] = list(bot.tables.tables)
    assert bot.tables.get(game_id).home == HOME_PRIVATE
    instance = standin.oauth.open_activity(group, alice, bob)
    page, _ = await joined(http, base(bot), standin, alice, instance)
    friend, _ = await joined(http, base(bot), standin, bob, instance)
    state = await page.state(lambda s: s["game"]["id"] == game_id, "alice's game in the group DM")
    assert state["you"]["seat"] == 0 and state["game"]["daily"] is True and state["moves"]
    await lobby_of(friend)  # bob's page: the lobby, not alice's game
    assert (await page.answer(await page.press(state)))["type"] == "played"
    await page.state(lambda s: s["game"]["seq"] > state["game"]["seq"], "the move, stored")
    assert (await send(friend, type="daily", play="koikoi"))["type"] == "played"
    theirs = await friend.state(lambda s: s["you"]["seat"] == 0, "bob's game of the same deal")
    assert theirs["game"]["id"] != game_id
    record = await bot.store.load_game(theirs["game"]["id"], scope=group.id)
    assert record.seed == derive_seed(seed, [])  # the place's deal, as alice's
    await bot.tables.forfeit_by(game_id, alice.id)
    await page.state(lambda s: s["game"]["over"], "the game over")
    await nothing_more_for(friend)
    assert states_of(friend, game_id) == []
    await nothing_more_for(page)
    assert states_of(page, theirs["game"]["id"]) == []
