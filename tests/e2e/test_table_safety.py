"""Nothing at a table is lost or abused (issue 17): matches decided by the deal are settled, a team
win is named, every legal move is reachable, hands are brought up to date after a crash, nobody is
mentioned by a name, and a forged press cannot borrow another server's permissions."""

from __future__ import annotations

import discord
import pytest

from bot import presenter
from bot.discord_ui.controls import CancelButton
from bot.games import game_module
from bot.games.rng import Rng
from bot.store import EVERY_SERVER
from bot.store.errors import StoreUnavailable
from bot.tables import STATE_VERSION, Table, TableManager
from tests.e2e.playing import section, small_print
from tests.e2e.test_koikoi_bot import make_bot

pytestmark = pytest.mark.asyncio

WAIT = 60.0  # generous: only a real hang reaches it


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "safety.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    return bot


def tables_in(standin, channel):
    return [m for m in standin.channel_messages(channel) if any(a.filename == "table.png" for a in m.attachments)]


def result_of(message) -> str:
    return section(message, "Result") or ""


def move_controls(message, gid: int, seq: int) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith((f"hf:act:{gid}:{seq}:", f"hf:mv:{gid}:{seq}:"))]


def live_hand(standin, user, gid: int, seq: int):
    for m in reversed(standin.dms(user) + standin.ephemerals(user)):
        if move_controls(m, gid, seq):
            return m
    return None


async def start(bot, world, game, players, names, rules, seed, stake=0):
    return await bot.tables.start(guild_id=world.guild.id, channel_id=world.channel.id, game=game,
                                  players=players, names=names, host_id=world.admin.id, rules=rules,
                                  stake=stake, seed=seed)


async def play_out(bot, standin, user, table) -> None:
    """``user`` presses the first move each time their hand offers one, until the match is over."""
    while not table.finished:
        await standin.wait_until(
            lambda: table.finished or (table.match.current_player == table.seat_of(user.id)
                                       and live_hand(standin, user, table.game_id, table.seq) is not None),
            timeout=WAIT)
        if table.finished:
            break
        hand = live_hand(standin, user, table.game_id, table.seq)
        await user.click(hand, move_controls(hand, table.game_id, table.seq)[0])
    await bot.publisher.drain()


@pytest.mark.parametrize(("game", "preset", "seed"), [("koikoi", "nintendo", 126), ("gostop", "seed", 88)])
async def test_a_match_decided_by_the_deal_is_settled_at_once(hbot, standin, world, game, preset, seed):
    module = game_module(game)
    rules = module.Rules.preset(preset, rounds=1)
    assert module.new_match(2, rules, seed).is_over  # the premise: the deal alone ends this match
    await hbot.store.open_account(world.guild.id, world.admin.id)
    before = await hbot.store.balance(world.guild.id, world.admin.id)
    table = await start(hbot, world, game, [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                        rules, seed, stake=10)
    await hbot.publisher.drain()
    assert table.finished and not hbot.tables.tables
    assert not await hbot.store.list_running_games(EVERY_SERVER)
    outcome = await hbot.store.game_outcome(table.game_id, guild_id=world.guild.id)
    assert outcome is not None
    [final] = tables_in(standin, world.channel)
    # the result, and no control of the game left (only Rematch)
    assert result_of(final) and final.custom_ids() == [f"hf:rematch:{table.game_id}"]
    assert (await hbot.store.audit()).ok
    after = await hbot.store.balance(world.guild.id, world.admin.id)
    won = table.match.winners() == [0]
    assert (after > before) if won else (after <= before)


async def test_a_match_left_over_by_a_crash_is_settled_on_resume(start_bot, standin, world, tmp_path):
    db = tmp_path / "resume.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    module = game_module("koikoi")
    rules = module.Rules.preset("nintendo", rounds=1)
    match = module.new_match(2, rules, 126)  # over at the deal, stored as running (the crash)
    table = Table(game_id=0, guild_id=world.guild.id, channel_id=world.channel.id, game="koikoi",
                  players=[world.admin.id, "ai:normal"], names=["alice", "AI (normal)"],
                  host_id=world.admin.id, stake=0, match=match, timeouts=[0, 0])
    record = await first.store.create_game(
        world.guild.id, world.channel.id, "koikoi", rules=rules.to_dict(), players=table.players,
        seed=126, state_json=table.state_json(), state_version=STATE_VERSION, stake=0, actor=world.admin.id)
    await first.close()
    second = await start_bot(make_bot(standin, db, world.guild.id))
    await second.publisher.drain()
    assert not await second.store.list_running_games(EVERY_SERVER)
    assert not second.tables.tables
    [final] = tables_in(standin, world.channel)
    assert result_of(final)
    assert (await second.store.game_outcome(record.game_id, guild_id=world.guild.id)) is not None


async def test_a_team_win_names_the_team(hbot, standin, world):
    module = game_module("sakura")
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=1, teams="pairs")
    players = [world.admin.id, "ai:easy", "ai:easy", "ai:easy"]
    names = ["alice", "AI 1 (easy)", "AI 2 (easy)", "AI 3 (easy)"]
    table = await start(hbot, world, "sakura", players, names, rules, 7)
    # Seats 0 and 2 are partners: give them a lead no single round can undo.
    table.match.scores = [1000, 0, 1000, 0]
    await play_out(hbot, standin, world.admin, table)
    final = tables_in(standin, world.channel)[-1]
    assert "Team alice & AI 2 (easy) wins" in result_of(final)
    assert "tie" not in result_of(final)
    log = presenter.log_lines("sakura", table.recent, names)
    assert any("Team alice & AI 2 (easy) wins the match" in line for line in log)
    history = await world.admin.slash(world.channel, "history")
    await standin.wait_until(lambda: any(m.embeds for m in history.messages), timeout=WAIT)
    listed = " ".join(e.get("description") or "" for m in history.messages for e in m.embeds)
    assert "🏆 Team alice & AI 2 \\(easy\\)" in listed or "🏆 Team alice & AI 2 (easy)" in listed


def crowded_first_bloom() -> tuple[dict, int]:
    """A First Bloom position whose player has more legal moves than buttons fit (29 > 25)."""
    module = game_module("shedding")
    match = module.new_match(4, module.Rules(), 28, shuffle=1)  # a rare position: this seed's, dealt so
    rng = Rng(28)
    for _ in range(65):
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))], match.current_player)
    assert len(match.legal_actions()) > 25
    return match.to_dict(), match.current_player


async def test_every_one_of_thirty_moves_can_be_played(hbot, standin, world):
    hbot.tables.ai_delay = 3600  # the AIs wait: this test plays one move of the human
    state, seat = crowded_first_bloom()
    players: list[int | str] = ["ai:easy"] * 4
    players[seat] = world.admin.id
    names = [f"AI {i}" for i in range(4)]
    names[seat] = "alice"
    module = game_module("shedding")
    table = await start(hbot, world, "shedding", players, names, module.Rules(), 28)
    await hbot.publisher.drain()
    table.match = module.match_from_dict(state)
    hbot.tables._schedule(table)
    hbot.publisher.refresh(table)
    await hbot.publisher.drain()
    legal = [str(a) for a in table.match.legal_actions()]
    hand = live_hand(standin, world.admin, table.game_id, table.seq)
    menus = [c for c in hand.custom_ids() if c.startswith("hf:mv:")]
    offered = [o["value"] for c in menus for o in hand.find_component(c)["options"]]
    assert len(offered) == len(legal) > 25
    last = offered[-1]  # the move a 25-button hand used to drop
    await world.admin.select(hand, menus[-1], [last])  # acknowledged first, then played
    await standin.wait_until(lambda: table.seq == 1, "the chosen move stored", timeout=WAIT)
    await hbot.publisher.drain()
    stored = await hbot.store.load_game(table.game_id, scope=EVERY_SERVER, with_events=True)
    assert stored.events[-1].action == legal[-1]


async def test_a_hand_left_stale_by_a_crash_is_brought_up_to_date(start_bot, standin, world, tmp_path,
                                                                   monkeypatch):
    db = tmp_path / "stale.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    first.tables.ai_delay = 3600  # keep the AI still: the move below is the last before the crash
    module = game_module("koikoi")
    table = await start(first, world, "koikoi", [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                        module.Rules.preset("nintendo", rounds=1), 5)
    await first.publisher.drain()
    if table.match.current_player != 0:  # let the AI open, then freeze it again
        first.tables.ai_delay = 0.01
        first.tables._schedule(table)
        await standin.wait_until(lambda: table.match.current_player == 0 and table.seq > 0, timeout=WAIT)
        first.tables.ai_delay = 3600
        await first.publisher.drain()
    hand = live_hand(standin, world.admin, table.game_id, table.seq)
    # The crash: the move is stored, but the bot dies before the hand is edited.
    first.publisher._mark_hands = lambda t: None
    stored_seq = table.seq + 1
    await world.admin.click(hand, move_controls(hand, table.game_id, table.seq)[0])
    await standin.wait_until(lambda: table.seq == stored_seq, "the move stored", timeout=WAIT)
    await first.publisher.drain()
    stale = standin.message(hand)
    assert not move_controls(stale, table.game_id, stored_seq) and f"move {stored_seq}" not in small_print(stale)
    await first.close()
    # The AI still, from the restart on: its turn resumes with the delay of the moment it is
    # scheduled, so one set after the start could come too late on a busy machine.
    monkeypatch.setattr(TableManager, "ai_delay", 3600)
    second = await start_bot(make_bot(standin, db, world.guild.id))
    await second.publisher.drain()
    fresh = standin.message(hand)
    assert f"move {stored_seq}" in small_print(fresh)


async def test_a_name_never_pings_the_server(hbot, standin, world):
    rowdy = standin.create_user("@everyone")
    standin.add_member(world.guild, rowdy)
    role = standin.create_role(world.guild, "players")
    module = game_module("koikoi")
    table = await start(hbot, world, "koikoi", [rowdy.id, "ai:normal"], ["@everyone", f"<@&{role.id}>"],
                        module.Rules.preset("nintendo", rounds=1), 11)
    await play_out(hbot, standin, rowdy, table)
    texts = []
    for m in standin.channel_messages(world.channel):
        texts.append(m.content)
        for e in m.embeds:
            texts += [e.get("description") or "", *(f["name"] for f in e.get("fields", []))]
    assert any("everyone" in t for t in texts)  # the name is shown ...
    assert not any("@everyone" in t.replace("@\u200beveryone", "") for t in texts)  # ... defused
    for request in standin.requests:
        body = request.body if isinstance(request.body, dict) else {}
        parse = (body.get("allowed_mentions") or {}).get("parse", [])
        assert "everyone" not in parse and "roles" not in parse


async def test_cancel_permission_counts_only_where_the_game_is(hbot, standin, world):
    other = standin.create_guild("Elsewhere")
    channel = standin.create_channel(other, "games")
    standin.add_member(other, world.player, permissions=discord.Permissions(manage_guild=True))
    module = game_module("koikoi")
    table = await start(hbot, world, "koikoi", [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                        module.Rules.preset("nintendo", rounds=12), 3)
    await hbot.publisher.drain()
    # bob manages "Elsewhere" and presses the game's Cancel control on a message over there (a
    # forged copy: Discord only delivers presses of components that are on the message).
    view = discord.ui.View(timeout=None)
    view.add_item(CancelButton(table.game_id))
    copy = await hbot.get_partial_messageable(channel.id).send("Cancel?", view=view)
    forged = await world.player.click(standin.message(copy.id), f"hf:cancel:{table.game_id}")
    assert "Only the player who started the game" in " ".join(m.content for m in forged.messages)
    assert not table.finished and await hbot.store.list_running_games(EVERY_SERVER)


async def test_database_trouble_refuses_a_move_and_loses_nothing(hbot, standin, world, monkeypatch):
    hbot.tables.ai_delay = 3600
    module = game_module("koikoi")
    table = await start(hbot, world, "koikoi", [world.admin.id, "ai:normal"], ["alice", "AI (normal)"],
                        module.Rules.preset("nintendo", rounds=1), 5)
    await hbot.publisher.drain()
    if table.match.current_player != 0:
        hbot.tables.ai_delay = 0.01
        hbot.tables._schedule(table)
        await standin.wait_until(lambda: table.match.current_player == 0 and table.seq > 0, timeout=WAIT)
        hbot.tables.ai_delay = 3600
        await hbot.publisher.drain()
    seq, state = table.seq, table.state_json()
    hand = live_hand(standin, world.admin, table.game_id, seq)
    move = move_controls(hand, table.game_id, seq)[0]
    real = hbot.store.record_action

    async def full_disk(*args, **kwargs):
        raise StoreUnavailable("full", "database or disk is full")

    monkeypatch.setattr(hbot.store, "record_action", full_disk)
    refused = await world.admin.click(hand, move)
    [answer] = await standin.answered(refused, 1)  # the press's own answer: a private refusal
    assert answer.ephemeral and "was not played" in answer.content
    assert table.seq == seq and table.state_json() == state  # nothing changed, nothing lost
    monkeypatch.setattr(hbot.store, "record_action", real)
    await world.admin.click(hand, move)  # the same control works once the database does
    await standin.wait_until(lambda: table.seq == seq + 1, "the move stored", timeout=WAIT)
