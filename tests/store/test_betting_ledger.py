"""A betting game (Seotda) stored by the older code, which escrowed nothing at sit-down and moved
every ante and bet from the live balance into the game's escrow in the transaction that stored the
move, paying every pot out at its showdown. Such a game, running when the bot is upgraded, resumes
and plays to its end the way it was made, the ledger audit holding after every hand; on both
databases. (Games started now escrow the buy-in: tests/store/test_seotda_stakes.py.)"""

from __future__ import annotations

import json

import pytest

from bot.games import seotda
from bot.games.rng import Rng
from bot.settlement import chip_moves, escrowed
from bot.store import EVERY_SERVER, DuplicateAction
from bot.store.errors import InsufficientFunds
from bot.store.models import SeatResult
from bot.tables import Table, TableError, TableManager

from .conftest import ALICE, BOB, GUILD
from .test_seotda_stakes import Quiet

pytestmark = pytest.mark.asyncio

PLAYERS = [ALICE, BOB, "ai:normal"]
RULES = seotda.Rules(buy_in=30, ante=2, rounds=6, max_raises=3)


async def escrow_balance(store, game_id: int) -> int:
    row = await store._db.fetchone(
        "SELECT balance FROM accounts WHERE kind = 'escrow' AND game_id = ?", (game_id,))
    return 0 if row is None else row[0]


async def start(store, seed: int):
    # Dealt with shuffle 1, for which the seeds below were picked (redeals, ties, side pots).
    match = seotda.new_match(len(PLAYERS), RULES, seed, shuffle=1)
    record = await store.create_game(
        GUILD, 1, "seotda", rules=RULES.to_dict(), players=PLAYERS, seed=seed,
        state_json=json.dumps(match.to_dict()), state_version=1, moves=chip_moves(match.intro_events))
    return match, record.game_id


async def test_every_hand_settles_exactly_and_the_audit_holds_after_each(funded):
    before = {u: await funded.balance(GUILD, u) for u in (ALICE, BOB)}
    match, game_id = await start(funded, seed=9)  # this deal and play: redeals, ties, side pots
    rng, seq, hands, seen = Rng(2), 0, 0, {"redeal": 0, "split": 0, "side pot": 0}
    while not match.is_over:
        legal = match.legal_actions()
        action = legal[rng.below(len(legal))]
        events = match.apply(action)
        seq += 1
        moves = chip_moves(events)
        await funded.record_action(game_id, seq, "test", str(action), events, json.dumps(match.to_dict()), 1,
                                   moves)
        with pytest.raises(DuplicateAction):  # a retried move moves no chip twice
            await funded.record_action(game_id, seq, "test", str(action), events, "{}", 1, moves)
        seen["redeal"] += sum(e["type"] == "redeal" for e in events)
        pots = [e["pots"] for e in events if e["type"] == "pot"]
        if not pots:
            continue
        hands += len(pots)
        seen["split"] += sum(len(p["winners"]) > 1 for pot in pots for p in pot)
        seen["side pot"] += sum(len(pot) > 1 for pot in pots)
        in_pot = [0] * 3 if match.is_over else match.round.in_pot
        assert await escrow_balance(funded, game_id) == sum(in_pot)  # only the next hand's antes
        for seat, user in enumerate(PLAYERS[:2]):
            assert await funded.balance(GUILD, user) == before[user] + match.scores[seat] - in_pot[seat]
        assert (await funded.audit()).ok
    assert hands >= 4 and all(seen.values()), seen
    results = [SeatResult(seat=s, points=p, outcome="won" if p == max(match.scores) else "lost")
               for s, p in enumerate(match.scores)]
    await funded.finish_game(game_id, results)
    for seat, user in enumerate(PLAYERS[:2]):
        assert await funded.balance(GUILD, user) == before[user] + match.scores[seat]
    assert await escrow_balance(funded, game_id) == 0
    assert (await funded.audit()).ok


async def test_a_bet_beyond_the_balance_is_refused_and_a_cancel_refunds_the_pot(funded):
    match, game_id = await start(funded, seed=3)
    assert await escrow_balance(funded, game_id) == 3 * RULES.ante
    seat = match.current_player
    user = PLAYERS[seat] if isinstance(PLAYERS[seat], int) else None
    if user is None:  # let the AI seat check so a member is to act
        events = match.apply(seotda.CHECK if "check" in match.round.costs(seat) else seotda.DIE)
        await funded.record_action(game_id, 1, "ai", "x", events, json.dumps(match.to_dict()), 1,
                                   chip_moves(events))
        seat = match.current_player
        user = PLAYERS[seat]
    seq = (await funded.load_game(game_id, scope=EVERY_SERVER, with_events=False)).last_seq
    other = BOB if user == ALICE else ALICE
    await funded.transfer(GUILD, user, other, await funded.balance(GUILD, user), key="drain")
    snapshot = match.to_dict()
    raise_kind = next(k for k in (seotda.BBING, seotda.HALF, seotda.DDADANG, seotda.CALL)
                      if k in match.round.costs(seat))
    events = match.apply(raise_kind)
    with pytest.raises(InsufficientFunds):
        await funded.record_action(game_id, seq + 1, user, raise_kind, events, json.dumps(match.to_dict()), 1,
                                   chip_moves(events))
    stored = await funded.load_game(game_id, scope=EVERY_SERVER, with_events=False)
    assert stored.last_seq == seq and json.loads(stored.state_json) == snapshot  # nothing changed
    assert await funded.balance(GUILD, user) == 0
    match = seotda.match_from_dict(snapshot)
    house_before = await funded._db.fetchone("SELECT balance FROM accounts WHERE kind = 'house' AND guild_id = ?",
                                             (GUILD,))
    outcome = await funded.cancel_game(game_id, escrow_refunds=escrowed(match.round.in_pot))
    assert outcome.payouts == {0: RULES.ante, 1: RULES.ante, 2: RULES.ante}
    assert await funded.balance(GUILD, user) == RULES.ante
    house_after = await funded._db.fetchone("SELECT balance FROM accounts WHERE kind = 'house' AND guild_id = ?",
                                            (GUILD,))
    assert house_after[0] == house_before[0] + RULES.ante  # the AI seat's ante back to the house
    assert await escrow_balance(funded, game_id) == 0 and (await funded.audit()).ok


def older_table(match, game_id: int = 0) -> Table:
    """A staked table of the older code: the buy-in in its state, its bets from the balances."""
    return Table(game_id=game_id, guild_id=GUILD, channel_id=1, game="seotda", players=PLAYERS,
                 names=["a", "b", "c"], host_id=ALICE, stake=RULES.buy_in, match=match,
                 timeouts=[0, 0, 0], bets_from_balance=True)


async def start_older(store, seed: int) -> Table:
    """A staked Seotda table as the older code started it: no stake in its row (nothing
    escrowed), the first antes moved from the balances, the buy-in kept in its state."""
    table = older_table(seotda.new_match(len(PLAYERS), RULES, seed, shuffle=1))
    record = await store.create_game(
        GUILD, 1, "seotda", rules=RULES.to_dict(), players=PLAYERS, seed=seed,
        state_json=table.state_json(), state_version=1,
        moves=chip_moves(table.match.intro_events))
    table.game_id = record.game_id
    return table


async def older_move(store, table: Table, action) -> list[dict]:
    """A move as the older code stored it, its bets and pots moved through the ledger."""
    events = table.match.apply(action)
    table.seq += 1
    await store.record_action(table.game_id, table.seq, "test", str(action), events,
                              table.state_json(), 1, chip_moves(events))
    return events


async def test_the_table_refuses_a_bet_beyond_the_balance_with_a_clear_message(funded):
    match, game_id = await start(funded, seed=3)
    while not isinstance(PLAYERS[match.current_player], int):  # the AI checks: a member to act
        match.apply(seotda.CHECK)
    table = older_table(match, game_id)
    seat = match.current_player
    user = PLAYERS[seat]
    await funded.transfer(GUILD, user, BOB if user == ALICE else ALICE, await funded.balance(GUILD, user),
                          key="spent elsewhere")
    state = match.to_dict()
    bet = next(k for k in (seotda.BBING, seotda.CALL) if k in match.round.costs(seat))
    with pytest.raises(TableError, match="too few for this bet"):
        await TableManager(funded, Quiet()).act(table, seat, bet, user)
    assert table.seq == 0 and table.match.to_dict() == state  # nothing changed, in memory or stored
    assert (await funded.load_game(game_id, scope=EVERY_SERVER, with_events=False)).last_seq == 0
    assert await funded.balance(GUILD, user) == 0 and (await funded.audit()).ok


async def test_a_forfeit_mid_hand_gives_the_forfeiters_pot_chips_to_the_others(funded):
    before = {u: await funded.balance(GUILD, u) for u in (ALICE, BOB)}
    match, game_id = await start(funded, seed=3)
    publisher = Quiet()
    tables = TableManager(funded, publisher)
    await tables.forfeit(older_table(match, game_id), 0, "forfeited")
    assert publisher.ended["outcome"].payouts == {1: RULES.ante + 1, 2: RULES.ante + 1}
    assert await funded.balance(GUILD, ALICE) == before[ALICE] - RULES.ante
    assert await funded.balance(GUILD, BOB) == before[BOB] + RULES.ante // 2  # half of her ante
    assert await escrow_balance(funded, game_id) == 0 and (await funded.audit()).ok


async def test_a_game_stored_by_the_older_code_resumes_and_plays_to_its_end_as_it_was_made(funded):
    before = {u: await funded.balance(GUILD, u) for u in (ALICE, BOB)}
    older = await start_older(funded, seed=9)
    rng = Rng(4)
    for _ in range(3):  # moves the older code made before the upgrade
        legal = older.match.legal_actions()
        await older_move(funded, older, legal[rng.below(len(legal))])
    starter = TableManager(funded, Quiet())
    starter.ai_delay = starter.timeout_override = 24 * 3600.0
    newer = await starter.start(guild_id=GUILD, channel_id=1, game="seotda", players=PLAYERS,
                                names=["a", "b", "c"], host_id=ALICE, rules=RULES,
                                stake=RULES.buy_in, seed=3)
    starter.close()

    tables = TableManager(funded, Quiet())  # the upgraded bot starts
    tables.ai_delay = tables.timeout_override = 24 * 3600.0
    assert await tables.resume_all() == 2
    resumed, fresh = tables.tables[older.game_id], tables.tables[newer.game_id]
    assert resumed.bets_from_balance and resumed.bets_chips and resumed.seq == 3
    assert not fresh.bets_from_balance and not fresh.bets_chips
    while not resumed.finished:  # its bets still move from the balances, as they were made
        seat = resumed.match.current_player
        legal = resumed.match.legal_actions()
        await tables.act(resumed, seat, legal[rng.below(len(legal))], PLAYERS[seat])
        in_pot = resumed.in_pot()
        assert await escrow_balance(funded, older.game_id) == sum(in_pot)
        for s, user in enumerate(PLAYERS[:2]):  # less the buy-in the newer game holds
            assert await funded.balance(GUILD, user) == (
                before[user] + resumed.match.scores[s] - in_pot[s] - RULES.buy_in)
    moved = await funded._db.fetchone(
        "SELECT COUNT(*) FROM transfers WHERE game_id = ? AND kind = 'stake'", (older.game_id,))
    assert moved[0] > len(PLAYERS)  # more than the first antes: every bet of the game
    assert (await funded.load_game(older.game_id, scope=GUILD, with_events=False)).status == "finished"
    await tables.cancel(fresh, ALICE, "cancelled")  # the newer game: each buy-in back
    for s, user in enumerate(PLAYERS[:2]):
        assert await funded.balance(GUILD, user) == before[user] + resumed.match.scores[s]
    assert await escrow_balance(funded, older.game_id) == 0
    assert await escrow_balance(funded, newer.game_id) == 0 and (await funded.audit()).ok
    tables.close()


async def test_an_older_game_that_no_table_drives_is_cancelled_with_its_pot_refunded(funded):
    """A game of the older code that could not be resumed (the bot left the server, say) is
    cancelled by the store alone: it refunds what each seat has in the pot under way, read from
    the ledger, since the escrow holds only that pot."""
    older = await start_older(funded, seed=9)
    rng = Rng(12)  # two hands paid out, the third with a bet: a pot after payouts
    hands = 0
    while hands < 2 or not any(older.match.round.round_bets):  # a later hand with bets in it
        legal = [a for a in older.match.legal_actions() if a.kind != seotda.DIE]
        events = await older_move(funded, older, legal[rng.below(len(legal))])
        hands += sum(e["type"] == "pot" for e in events)
        assert not older.match.is_over
    in_pot = older.in_pot()
    assert await escrow_balance(funded, older.game_id) == sum(in_pot) > 3 * RULES.ante
    house = await funded._db.fetchone(
        "SELECT balance FROM accounts WHERE kind = 'house' AND guild_id = ?", (GUILD,))
    balances = {u: await funded.balance(GUILD, u) for u in (ALICE, BOB)}
    outcome = await funded.cancel_game(older.game_id, reason="the bot was removed from the server")
    assert outcome.payouts == escrowed(in_pot)
    for s, user in enumerate(PLAYERS[:2]):
        assert await funded.balance(GUILD, user) == balances[user] + in_pot[s]
    after = await funded._db.fetchone(
        "SELECT balance FROM accounts WHERE kind = 'house' AND guild_id = ?", (GUILD,))
    assert after[0] == house[0] + in_pot[2]  # the AI seat's bets back to the house
    assert await escrow_balance(funded, older.game_id) == 0 and (await funded.audit()).ok
