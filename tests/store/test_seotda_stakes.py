"""A staked Seotda table holds its buy-ins in escrow: every seat escrows the buy-in when it sits
down (one buy-in, one table), antes and bets move inside that escrow, and whatever a player does
with their live balance meanwhile (give it all away) never makes a move of theirs unpayable.
Driven through the table manager against a real store, on both databases."""

from __future__ import annotations

import pytest

from bot.discord_ui.errors import told
from bot.games import seotda
from bot.games.rng import Rng
from bot.store.errors import InsufficientFunds, InvalidGame, InvalidResult
from bot.tables import Refused, TableManager

from .conftest import ALICE, BOB, CAROL, GUILD
from .refusals import refused

pytestmark = pytest.mark.asyncio


class Quiet:
    """The Discord side of a table manager, showing nothing: these tests read the store."""

    def describe(self, table, events):
        return []

    async def post_table(self, table, via=None):
        pass

    def deliver_hands(self, table):
        pass

    def show_last_move(self, table, events):
        pass

    def show_move(self, table, events):
        pass

    def show_end(self, table, events=()):
        self.ended = table.closing

    def refresh(self, table):
        pass

    def post_owed(self, table, moves):
        pass

    def warn(self, table, seat, seconds):
        pass


@pytest.fixture
async def tables(funded):
    manager = TableManager(funded, Quiet())
    # every move here is made by the test, the AI seats' too: no timer or AI turn may beat it
    manager.ai_delay = manager.timeout_override = 24 * 3600.0
    yield manager
    manager.close()


async def start(tables, players, rules, seed=1):
    return await tables.start(guild_id=GUILD, channel_id=1, game="seotda", players=players,
                              names=[f"seat {s}" for s in range(len(players))], host_id=ALICE,
                              rules=rules, stake=rules.buy_in, seed=seed)


async def balance(store, account: int | str) -> int:
    if account == "house":
        row = await store._db.fetchone(
            "SELECT balance FROM accounts WHERE kind = 'house' AND guild_id = ?", (GUILD,))
        return 0 if row is None else row[0]
    return await store.balance(GUILD, account)


async def escrow_balance(store, game_id: int) -> int:
    row = await store._db.fetchone(
        "SELECT balance FROM accounts WHERE kind = 'escrow' AND game_id = ?", (game_id,))
    return 0 if row is None else row[0]


async def give_all_away(store, users, to: int, key: str) -> None:
    """Each of ``users`` gives their whole live balance to ``to``, as ``/chips give`` does."""
    for user in users:
        chips = await store.balance(GUILD, user)
        if chips:
            await store.transfer(GUILD, user, to, chips, key=f"{key}:{user}")


async def test_a_player_who_gave_every_chip_away_can_still_die_and_play_on(tables, funded):
    """The issue's table: `/seotda ai:normal stake:40`, then `/chips give` of the whole balance.
    Dying ended the hand, the next hand's ante was taken from the empty balance, and the whole
    move was refused ("You have 0, too few for this bet of 1"): the table froze."""
    rules = seotda.Rules(buy_in=40, ante=1, rounds=3)
    table = await start(tables, [ALICE, "ai:normal"], rules)
    await give_all_away(funded, [ALICE], BOB, "gift")
    assert await balance(funded, ALICE) == 0
    hands = 0
    while not table.finished:
        seat = table.match.current_player
        if seat == 0:
            events = await tables.act(table, 0, seotda.DIE, ALICE)  # never refused
            assert any(e["type"] == "pot" for e in events)  # two seats: dying ends the hand
            hands += 1
        else:
            legal = table.match.legal_actions()
            await tables.act(table, seat, next(a for a in legal if a.kind != seotda.DIE), "ai:normal")
    assert hands and table.closing["outcome"].status == "finished"
    stacks = table.match.round.stacks
    assert await balance(funded, ALICE) == stacks[0] == rules.buy_in + table.match.scores[0]
    assert await escrow_balance(funded, table.game_id) == 0 and (await funded.audit()).ok


async def test_one_buy_in_seats_a_player_at_one_table(tables, funded):
    rules = seotda.Rules(buy_in=600, ante=5)
    table = await start(tables, [ALICE, "ai:easy"], rules)
    assert await balance(funded, ALICE) == 400  # the buy-in is escrowed at sit-down
    assert await escrow_balance(funded, table.game_id) == 2 * rules.buy_in
    with pytest.raises(Refused) as caught:  # the same chips cannot seat her again
        await start(tables, [ALICE, BOB], rules, seed=2)
    assert isinstance(caught.value.refusal, InsufficientFunds) and caught.value.refusal.balance == 400
    assert "400" in told(caught.value)
    assert list(tables.tables) == [table.game_id] and await balance(funded, BOB) == 1000
    assert (await funded._db.fetchone("SELECT COUNT(*) FROM games"))[0] == 1
    assert (await funded.audit()).ok


SWEEP_PLAYERS = [ALICE, BOB, "ai:normal", "ai:easy"]
SWEEP_RULES = seotda.Rules(buy_in=10, ante=2, rounds=0, max_raises=3)  # until a stack is empty
# Deals picked for what they bring, the first twelve for the common points: a stack all in on the
# ante, a call, a raise or an all-in that empties it, a die that ends a hand (the next hand's antes
# in the same move), a last chip lost; 190 an ante larger than the stack; 9 and 267 a gusa and a
# meongteongguri-gusa redeal with a player all in.
SWEEP_SEEDS = [*range(12), 190, 267]


def seen_in(move, events, table) -> set[str]:
    """The points of a hand where a stack runs out that this move went through."""
    kind, seat, stack, cost = move
    hand = table.match.round
    seen = set()
    if cost and cost == stack:
        seen.add(f"stack spent on {kind}")
    for event in events:
        if event["type"] == "ante" and any(c < SWEEP_RULES.ante for c in event["antes"].values()):
            seen.add("ante larger than the stack")
    types = [e["type"] for e in events]
    if not table.match.is_over and "ante" in types and any(
            s == 0 and live for s, live in zip(hand.stacks, hand.live, strict=True)):
        seen.add("stack spent on the ante")
    if "redeal" in types and "pot" not in types[types.index("redeal"):] and any(hand.all_in):
        seen.add(f"redeal after {next(e for e in events if e['type'] == 'redeal')['reason']}, all in")
    if kind == seotda.DIE and "pot" in types:
        seen.add("die ends the hand" + (", next antes taken" if "ante" in types else ""))
    if table.match.is_over and 0 in hand.stacks:
        seen.add("last chip lost at the hand's end")
    return seen


async def test_a_sweep_of_stacks_running_out_everywhere_with_every_chip_given_away(tables, funded):
    """Every move is taken and a die is always accepted, though the members hold no chip of
    their own from the first move to the last (each gives the whole balance away before every
    move); the escrow holds every buy-in until the end, then pays each seat its stack."""
    members = [p for p in SWEEP_PLAYERS if isinstance(p, int)]
    accounts = [*members, CAROL, "house"]
    total = sum([await balance(funded, a) for a in accounts])
    seen: set[str] = set()
    gifts = 0
    for seed in SWEEP_SEEDS:
        for member in members:  # enough for this table's buy-in, given away again at once
            await funded.transfer(GUILD, CAROL, member, SWEEP_RULES.buy_in, key=f"{seed}:{member}")
        table = await start(tables, SWEEP_PLAYERS, SWEEP_RULES, seed=seed)
        escrowed = len(SWEEP_PLAYERS) * SWEEP_RULES.buy_in
        rng = Rng(1000 + seed)
        while not table.finished:
            await give_all_away(funded, members, CAROL, f"gift {gifts}")
            gifts += 1
            assert [await balance(funded, m) for m in members] == [0] * len(members)
            hand, seat = table.match.round, table.match.current_player
            legal = table.match.legal_actions()
            dies = [a for a in legal if a.kind == seotda.DIE]
            if dies and rng.below(3) == 0:
                action = dies[0]
            else:
                rest = [a for a in legal if a.kind != seotda.DIE] or legal
                action = rest[rng.below(len(rest))]
            cost = hand.costs(seat).get(action.kind, 0) if hand.phase == seotda.BET else 0
            move = (action.kind, seat, hand.stacks[seat], cost)
            before = table.seq
            events = await tables.act(table, seat, action, SWEEP_PLAYERS[seat])
            assert table.seq == before + 1  # taken and stored
            seen |= seen_in(move, events, table)
            if not table.finished:
                assert await escrow_balance(funded, table.game_id) == escrowed
                hand = table.match.round
                assert sum(hand.stacks) + sum(hand.in_pot) == escrowed  # no chip made or lost
            if any(e["type"] == "pot" for e in events):
                assert (await funded.audit()).ok
        assert table.closing["outcome"].status == "finished"
        stacks = table.match.round.stacks
        for seat, member in enumerate(members):  # paid back from escrow, nothing else
            assert await balance(funded, member) == stacks[seat]
        assert await escrow_balance(funded, table.game_id) == 0
    assert sum([await balance(funded, a) for a in accounts]) == total
    assert (await funded.audit()).ok
    assert seen >= {
        "stack spent on the ante", "ante larger than the stack", "stack spent on call",
        "stack spent on allin", "die ends the hand, next antes taken",
        "last chip lost at the hand's end", "redeal after gusa, all in",
        "redeal after meongteongguri_gusa, all in",
    }, seen


async def play_until_chips_are_bet(tables, table, rng: Rng) -> None:
    """Play (never dying) until a hand after the first has bets beyond the antes in its pot."""
    while True:
        hand = table.match.round
        if hand.round_number > 1 and hand.phase == seotda.BET and any(hand.round_bets):
            return
        seat = table.match.current_player
        legal = [a for a in table.match.legal_actions() if a.kind != seotda.DIE]
        await tables.act(table, seat, legal[rng.below(len(legal))], table.players[seat])
        assert not table.finished


async def test_a_cancel_gives_back_each_stack_and_its_own_chips_in_the_pot(tables, funded):
    rules = seotda.Rules(buy_in=50, ante=2, rounds=0)
    before = {u: await balance(funded, u) for u in (ALICE, BOB, "house")}
    table = await start(tables, [ALICE, BOB, "ai:normal"], rules, seed=5)
    await play_until_chips_are_bet(tables, table, Rng(5))
    await give_all_away(funded, [ALICE, BOB], CAROL, "gift")
    hand = table.match.round
    expected = {s: hand.stacks[s] + hand.in_pot[s] for s in range(3)}
    await tables.cancel(table, ALICE, "cancelled from /games")
    outcome = tables.publisher.ended["outcome"]
    assert outcome.status == "cancelled" and outcome.payouts == {s: c for s, c in expected.items() if c}
    assert await balance(funded, ALICE) == expected[0] and await balance(funded, BOB) == expected[1]
    assert await balance(funded, "house") == before["house"] - rules.buy_in + expected[2]
    assert await escrow_balance(funded, table.game_id) == 0 and (await funded.audit()).ok


async def test_a_forfeit_keeps_the_forfeiters_stack_and_shares_their_chips_in_the_pot(tables, funded):
    rules = seotda.Rules(buy_in=50, ante=2, rounds=0)
    table = await start(tables, [ALICE, BOB, "ai:normal"], rules, seed=6)
    await play_until_chips_are_bet(tables, table, Rng(6))
    hand = table.match.round
    stacks, in_pot = list(hand.stacks), list(hand.in_pot)
    share, odd = divmod(in_pot[0], 2)
    await tables.forfeit(table, 0, "forfeited")
    outcome = tables.publisher.ended["outcome"]
    assert outcome.payouts[0] == stacks[0]
    assert outcome.payouts[1] == stacks[1] + in_pot[1] + share + (1 if odd else 0)
    assert outcome.payouts[2] == stacks[2] + in_pot[2] + share
    assert [r.outcome for r in outcome.results] == ["lost", "won"]  # the members' results
    assert sum(outcome.payouts.values()) == 3 * rules.buy_in
    assert await escrow_balance(funded, table.game_id) == 0 and (await funded.audit()).ok


async def test_a_game_that_escrowed_its_buy_ins_moves_no_chip_as_it_is_played(tables, funded):
    """Its bets move inside the escrow: a chip movement asked of the ledger for one of its moves
    is a mistake refused whole, nothing stored, rather than a bet taken twice."""
    rules = seotda.Rules(buy_in=40)
    table = await start(tables, [ALICE, BOB], rules)
    before = await balance(funded, ALICE)
    with refused(InvalidResult, "moves no chips"):
        await funded.record_action(table.game_id, 1, ALICE, "call", [], table.state_json(), 1,
                                   [("stake", 0, 5)])
    with refused(InvalidGame, "moves no chips"):
        await funded.create_game(GUILD, 1, "seotda", rules=rules.to_dict(), players=[ALICE, BOB],
                                 seed=1, state_json="{}", state_version=1, stake=40,
                                 moves=[("stake", 0, 1)])
    assert (await funded.load_game(table.game_id, scope=GUILD, with_events=False)).last_seq == 0
    assert await balance(funded, ALICE) == before and (await funded.audit()).ok
