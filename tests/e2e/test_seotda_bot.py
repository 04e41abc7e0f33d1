"""Seotda end to end: two members and an AI at a staked table with its own ante and raise limit,
the bot restarted while the lobby is open and again in the middle of a betting round, played to
the end, every chip accounted for in the ledger; a member who gives every chip away after sitting
down plays on, and a rematch escrows the buy-in again."""

from __future__ import annotations

import functools

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.store import EVERY_SERVER
from tests.discord_standin.state import walk_components
from tests.e2e.playing import (
    Player,
    controls,
    game_over,
    hand_message,
    is_closed,
    move_of,
    play_out,
    reply_text,
    small_print,
    table_messages,
    table_posted,
)
from tests.e2e.test_games_bot import cid
from tests.e2e.test_lobby_display import fields

pytestmark = pytest.mark.asyncio

BUY_IN = 40
ANTE, MAX_RAISES = 3, 2  # the table's own, over the house rules (ante 1, 3 raises)


def make_bot(standin, db, guild_id: int) -> HanafudaBot:
    return HanafudaBot(Settings(token=standin.token, database_path=db, dev_guild_id=guild_id))


async def escrow(store, game_id: int) -> int:
    row = await store._db.fetchone(
        "SELECT balance FROM accounts WHERE kind = 'escrow' AND game_id = ?", (game_id,))
    return 0 if row is None else row[0]


async def check_chips(store, guild: int, table, before: dict[int, int]) -> None:
    """Each member holds their chips before the game less the buy-in, which the escrow holds for
    every seat whatever the hands did with it; the ledger audit passes."""
    for user in table.players[:2]:
        assert await store.balance(guild, user) == before[user] - BUY_IN
    assert await escrow(store, table.game_id) == BUY_IN * len(table.players)
    hand = table.match.round
    assert sum(hand.stacks) + sum(hand.in_pot) == BUY_IN * len(table.players)
    assert (await store.audit()).ok


def labels(message) -> list[str]:
    return [c["label"] for c in walk_components(message.components) if c.get("type") == 2]


async def test_seotda_with_a_stake_survives_a_restart_mid_betting_and_settles_exactly(
        start_bot, standin, world, tmp_path):
    db = tmp_path / "seotda.sqlite3"
    opener = await start_bot(make_bot(standin, db, world.guild.id))
    store, guild = opener.store, world.guild.id
    users = [world.admin, world.player]
    before = {u.id: (await store.open_account(guild, u.id))[0] for u in users}
    opened = await world.admin.slash(world.channel, "seotda", rounds=2, stake=BUY_IN, ante=ANTE,
                                     max_raises=MAX_RAISES)
    lobby = opened.original
    assert fields(lobby)["Bets"] == f"ante {ANTE} · buy-in {BUY_IN} · {MAX_RAISES} raises a betting round"
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    await opener.close()  # the lobby's options are stored, not held by the process

    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 0.01
    store = first.store
    await world.admin.select(lobby, cid(lobby, "hf:lbai:"), ["normal"])
    await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    await table_posted(standin, world.channel)
    [table] = first.tables.tables.values()
    rules = table.match.rules
    assert table.players[2] == "ai:normal" and (rules.buy_in, rules.ante, rules.max_raises) == (
        BUY_IN, ANTE, MAX_RAISES)
    assert "buy-in" in small_print(table_messages(standin, world.channel)[0])
    stakes = await store._db.fetchall(  # the buy-ins, escrowed at sit-down; the antes bet inside
        "SELECT a.kind, a.user_id, t.amount FROM transfers t JOIN accounts a ON a.account_id = "
        "t.from_account WHERE t.game_id = ? AND t.kind = 'stake'", (table.game_id,))
    assert sorted(tuple(r) for r in stakes if r[0] == "user") == sorted(("user", u.id, BUY_IN) for u in users)
    assert [tuple(r) for r in stakes if r[0] == "house"] == [("house", None, BUY_IN)]  # the AI's seat
    # every seat antes; the AI may already have bet (it acts at once), the members have not
    assert sorted(table.match.round.in_pot)[:2] == [ANTE, ANTE] and min(table.match.round.in_pot) == ANTE
    await check_chips(store, guild, table, before)
    player = Player(standin, world.channel, users)
    while True:  # play until a member is to act in a betting round someone has already bet in
        kind, what = await standin.wait_for(player.next_step, "a move or the end", channels=[world.channel])
        assert kind != "over", "the game ended before a member acted after another seat"
        hand = table.match.round
        if kind == "move" and what[0] == table.seq and hand.phase == "bet" and hand.history:
            break
        await player.step()
    seq, user, offer = what
    priced = [label for label in labels(offer) if "chip" in label]  # "Call (4 chips)", "Bbing (2 chips)"
    assert priced or labels(offer)[0] == "Check", labels(offer)
    await check_chips(store, guild, table, before)
    await first.close()

    second = await start_bot(make_bot(standin, db, world.guild.id))
    second.tables.ai_delay = 0.01
    [resumed] = second.tables.tables.values()
    assert resumed.seq == seq and resumed.match.round.history == hand.history
    await check_chips(second.store, guild, resumed, before)
    await player.play()
    record = await second.store.load_game(resumed.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and not second.tables.tables
    assert (record.rules["ante"], record.rules["max_raises"]) == (ANTE, MAX_RAISES)  # what a rematch replays
    scores = resumed.match.scores
    for seat, member in enumerate(users):
        assert await second.store.balance(guild, member.id) == before[member.id] + scores[seat]
    assert await escrow(second.store, resumed.game_id) == 0 and (await second.store.audit()).ok
    bets = await second.store._db.fetchall(
        "SELECT kind, SUM(amount) FROM transfers WHERE game_id = ? GROUP BY kind ORDER BY kind",
        (resumed.game_id,))
    staked = {r[0]: r[1] for r in bets}
    assert staked["stake"] == staked["payout"] == 3 * BUY_IN  # every stack paid back at the end


async def test_three_card_seotda_against_the_ai_keeps_two_of_three(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "three.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await world.admin.slash(world.channel, "seotda", ai="hard", rounds=2, preset="three_card")
    await table_posted(standin, world.channel)
    [table] = bot.tables.tables.values()
    await play_out(standin, world.channel, [world.admin])
    record = await bot.store.load_game(table.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and table.match.rules.cards == 3
    kept = [e for e in record.events if e.action.startswith("keep:")]
    assert kept and any(e.actor == world.admin.id for e in kept)  # the admin chose two of three


async def test_a_bad_ante_is_refused_and_nothing_is_created(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bad-ante.sqlite3", world.guild.id))
    store, guild = bot.store, world.guild.id
    balance = (await store.open_account(guild, world.admin.id))[0]
    too_big = await world.admin.slash(world.channel, "seotda", stake=BUY_IN, ante=BUY_IN // 2 + 1)
    assert "the buy-in must be at least twice the ante" in reply_text(too_big)
    crafted = await world.admin.slash(world.channel, "seotda", ai="normal", ante=5000)  # outside 1-1000
    assert "ante must be a whole number from 1 to 1000" in reply_text(crafted)
    for record in (too_big, crafted):  # told privately
        assert record.original.ephemeral_for is not None
    assert not table_messages(standin, world.channel)
    assert not bot.tables.tables and await store.balance(guild, world.admin.id) == balance
    assert (await store._db.fetchone("SELECT COUNT(*) FROM lobbies"))[0] == 0


async def test_a_member_who_gives_every_chip_away_still_dies_and_the_table_plays_on(
        start_bot, standin, world, tmp_path):
    """The issue's steps: `/seotda ai:normal stake:40`, `/chips give` of the whole balance, then
    Die. The table used to take the next hand's ante from the empty balance and refuse the Die
    ("You have 0, too few for this bet of 1"), for good."""
    bot = await start_bot(make_bot(standin, tmp_path / "gift.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    store, guild, admin = bot.store, world.guild.id, world.admin
    await store.open_account(guild, admin.id)
    await admin.slash(world.channel, "seotda", ai="normal", stake=BUY_IN, rounds=3)
    await table_posted(standin, world.channel)
    [table] = bot.tables.tables.values()
    everything = await store.balance(guild, admin.id)
    gift = await admin.slash(world.channel, "chips give", user=world.player, amount=everything)
    assert "gave" in reply_text(gift) and await store.balance(guild, admin.id) == 0
    def next_step(press, after: int):
        """What the last Die press led to: a refusal (answered to it), the end, or a newer hand."""
        if press is not None and press.followups:
            return "refused", reply_text(press)
        tables = table_messages(standin, world.channel)
        if tables and is_closed(tables[-1]):
            return "over", None
        hand = hand_message(standin, admin)
        return ("hand", hand) if hand is not None and move_of(hand) > after else None

    press, pressed = None, -1
    while True:  # Die at every turn of hers; each ends its hand and the next one is dealt
        kind, what = await standin.wait_for(functools.partial(next_step, press, pressed),
                                            f"a hand newer than move {pressed}, or the end",
                                            channels=[world.channel])
        assert kind != "refused", what  # was: "You have 0, too few for this bet of 1", for good
        if kind == "over":
            break
        pressed = move_of(what)
        press = await admin.click(what, next(c for c in controls(what) if c.endswith(":die")))
    await game_over(standin, world.channel)
    record = await store.load_game(table.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and record.stake == BUY_IN  # the buy-in, escrowed
    died = [e for e in record.events if e.actor == admin.id]
    assert died and all(e.action == "die" for e in died)
    stack = table.match.round.stacks[0]
    assert stack == BUY_IN + table.match.scores[0]
    assert await store.balance(guild, admin.id) == stack  # paid back from the escrow alone
    assert await escrow(store, table.game_id) == 0 and (await store.audit()).ok

    # a rematch escrows the buy-in again, from chips she holds now; a cancel gives it back
    final = table_messages(standin, world.channel)[-1]
    await world.player.slash(world.channel, "chips give", user=admin, amount=100)
    held = await store.balance(guild, admin.id)
    await admin.click(final, cid(final, "hf:rematch:"))
    second = (await table_posted(standin, world.channel, count=2))[-1]
    [again] = bot.tables.tables.values()
    assert await store.balance(guild, admin.id) == held - BUY_IN
    assert await escrow(store, again.game_id) == 2 * BUY_IN
    await admin.click(second, cid(second, "hf:cancel:"))
    await game_over(standin, world.channel)
    assert await store.balance(guild, admin.id) == held and await escrow(store, again.game_id) == 0
    assert (await store.audit()).ok
