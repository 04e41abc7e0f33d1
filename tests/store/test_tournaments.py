"""Tournaments in the store, on both databases: idempotent create, sign-up with the fee escrowed,
leave and cancel refunding, rounds and results that change once, prizes paid to the chip."""

from __future__ import annotations

import pytest

from bot.store import EVERY_SERVER, InvalidInput, Scope
from bot.store.tournaments import TournamentError, Weekly

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD, OTHER_GUILD
from .refusals import refused

CHANNEL = 77


async def new(store, fmt="swiss", fee=100, key="cmd-1"):
    return await store.create_tournament(GUILD, CHANNEL, created_by=ALICE, game="koikoi",
                                         format=fmt, rules={"rounds": 1}, fee=fee, key=key)


async def test_fees_in_refunds_and_prizes_out_balance_to_the_chip(funded):
    store = funded
    tour = await new(store)
    assert (await new(store)).tournament_id == tour.tournament_id  # a retried command
    tid = tour.tournament_id
    for user in (ALICE, BOB, CAROL, DAVE):
        tour = await store.join_tournament(tid, GUILD, user, f"user {user}")
    with refused(TournamentError, "already signed up"):
        await store.join_tournament(tid, GUILD, BOB, "bob")
    assert tour.pot == 400 and await store.balance(GUILD, BOB) == 900
    await store.leave_tournament(tid, GUILD, DAVE)
    await store.join_tournament(tid, GUILD, DAVE, "dave again")  # a new sign-up: a new fee
    await store.leave_tournament(tid, GUILD, DAVE)
    assert await store.balance(GUILD, DAVE) == 1000
    tour = await store.add_tournament_ai(tid, GUILD, "normal", "AI (normal)")
    with pytest.raises(TournamentError):  # another server cannot touch it
        await store.join_tournament(tid, OTHER_GUILD, DAVE, "dave")
    tour = await store.start_tournament(tid, GUILD)
    with refused(TournamentError, "already started"):
        await store.start_tournament(tid, GUILD)
    with refused(TournamentError, "closed"):
        await store.join_tournament(tid, GUILD, DAVE, "dave")
    assert [e.seed for e in tour.seeded] == [1, 2, 3, 4] and tour.rounds == 2 and tour.pot == 300

    tour = await store.begin_tournament_round(tid, 1, [(1, 2), (3, 4)], [])
    again = await store.begin_tournament_round(tid, 1, [(1, 3), (2, 4)], [])  # kept as it was
    assert [(p.a, p.b) for p in again.round_pairings(1)] == [(1, 2), (3, 4)]
    await store.record_tournament_result(tid, 1, 1, 1)
    tour = await store.record_tournament_result(tid, 1, 1, 2)  # a recorded result stays
    assert tour.round_pairings(1)[0].winner == 1 and tour.round_status[1][0] == "playing"
    tour = await store.record_tournament_result(tid, 1, 2, None)
    assert tour.round_status[1] == ("done", False)
    assert await store.mark_tournament_round_announced(tid, 1)
    assert not await store.mark_tournament_round_announced(tid, 1)
    with refused(TournamentError, "every entrant"):
        await store.finish_tournament(tid, [1, 2])
    tour = await store.finish_tournament(tid, [1, 4, 2, 3])  # 1st ALICE, 2nd the AI, 3rd BOB
    assert [(e.place, e.prize) for e in tour.seeded] == [(1, 180), (3, 30), (4, 0), (2, 90)]
    assert (await store.finish_tournament(tid, [1, 4, 2, 3])).status == "finished"
    assert await store.balance(GUILD, ALICE) == 1080 and await store.balance(GUILD, BOB) == 930
    # the winner is a champion, once, with the tournament that made them one
    [crown] = [e for e in await store.achievements(GUILD, ALICE) if e.code == "champion"]
    assert (crown.tournament_id, crown.game_id) == (tid, None)
    assert not any(e.code == "champion" for e in await store.achievements(GUILD, BOB))
    moved = await store.tournament_ledger(tid)
    # fees in = refunds + prizes paid + the AI's prize, which the house keeps
    assert moved["stake"] == 500 and moved["refund"] == 200 and moved["payout"] == 210
    assert moved["stake"] - moved["refund"] - moved["payout"] == 90
    assert (await store.audit()).ok


async def test_cancel_refunds_every_fee_and_drop_before_the_start_is_a_refund(funded):
    store = funded
    tid = (await new(store, fmt="single_elimination", fee=50)).tournament_id
    for user in (ALICE, BOB, CAROL):
        await store.join_tournament(tid, GUILD, user, "x")
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    carol = next(e for e in tour.entrants if e.user_id == CAROL)
    await store.drop_tournament_entrant(tid, GUILD, carol.entrant, actor=ALICE)
    assert await store.balance(GUILD, CAROL) == 1000
    await store.start_tournament(tid, GUILD)
    tour, bob = await store.drop_tournament_entrant(tid, GUILD, 2, actor=ALICE)
    assert bob.user_id == BOB and tour.active_seeds == [1] and tour.dropped_seeds == [2]
    tour = await store.cancel_tournament(tid, GUILD, actor=ALICE)
    assert tour.status == "cancelled" and tour.pot == 0
    for user in (ALICE, BOB, CAROL):
        assert await store.balance(GUILD, user) == 1000
    with refused(TournamentError, "over"):
        await store.cancel_tournament(tid, GUILD, actor=ALICE)
    assert (await store.audit()).ok


async def test_too_few_chips_signs_nobody_up_and_full_is_full(funded):
    store = funded
    tid = (await new(store, fmt="round_robin", fee=2000)).tournament_id
    with pytest.raises(Exception, match="chips"):
        await store.join_tournament(tid, GUILD, ALICE, "alice")
    assert not (await store.tournament(tid, scope=EVERY_SERVER)).entrants
    free = (await new(store, fmt="round_robin", fee=0, key="cmd-2")).tournament_id
    for _ in range(8):
        await store.add_tournament_ai(free, GUILD, "easy", "AI")
    with refused(TournamentError, "full"):
        await store.join_tournament(free, GUILD, ALICE, "alice")


async def test_a_member_withdraws_from_anywhere_under_the_rules(funded):
    """From a DM as from the server: before the start the fee comes back; once it runs the
    member is out of the pairings and the fee stays in the prize pot. Another server's press
    cannot withdraw anyone, and the ledger balances."""
    store = funded
    tid = (await new(store, fmt="single_elimination", fee=50)).tournament_id
    for user in (ALICE, BOB, CAROL, DAVE):
        await store.join_tournament(tid, GUILD, user, f"user {user}")
    with pytest.raises(TournamentError):  # another server's press sees no such tournament
        await store.withdraw_from_tournament(tid, BOB, scope=Scope.press(OTHER_GUILD, BOB))
    tour, gone = await store.withdraw_from_tournament(tid, BOB, scope=Scope.press(None, BOB))
    assert gone.user_id == BOB and gone.paid == 50 and tour.pot == 150
    assert await store.balance(GUILD, BOB) == 1000
    with refused(TournamentError, "not signed up"):
        await store.withdraw_from_tournament(tid, BOB, scope=Scope.press(None, BOB))
    with refused(TournamentError, "not signed up"):
        await store.withdraw_from_tournament(tid, BOB, scope=Scope.press(GUILD, BOB))

    await store.start_tournament(tid, GUILD)
    tour, gone = await store.withdraw_from_tournament(tid, CAROL, scope=Scope.press(GUILD, CAROL))
    assert gone.user_id == CAROL and CAROL not in [e.user_id for e in tour.signed_up]
    assert tour.dropped_seeds == [gone.seed] and tour.pot == 150
    assert await store.balance(GUILD, CAROL) == 950  # the fee stays in the pot after the start
    await store.cancel_tournament(tid, GUILD, actor=ALICE)
    with refused(TournamentError, "over"):
        await store.withdraw_from_tournament(tid, DAVE, scope=Scope.press(None, DAVE))
    assert (await store.audit()).ok


async def test_each_change_its_message_shows_counts_the_revision(funded):
    """Sign-ups, the start, each round and the outcome count the revision its message must show;
    results within a round (not on the message) do not, nor does a change that changes nothing."""
    store = funded
    tour = await new(store, fee=0)
    tid = tour.tournament_id
    assert tour.revision == 0
    await store.set_tournament_message(tid, 6001, shown=tour.revision)
    assert await store.unshown_tournaments() == []
    revisions = []
    for user in (ALICE, BOB, CAROL):
        revisions.append((await store.join_tournament(tid, GUILD, user, f"user {user}")).revision)
    revisions.append((await store.leave_tournament(tid, GUILD, CAROL)).revision)
    revisions.append((await store.add_tournament_ai(tid, GUILD, "easy", "AI (easy)")).revision)
    assert revisions == [1, 2, 3, 4, 5]
    assert await store.unshown_tournaments() == [tid]
    assert await store.unshown_tournaments(lambda guild_id: guild_id != GUILD) == []
    await store.tournament_shown(tid, 5)
    await store.tournament_shown(tid, 4)  # an older edit that landed late
    assert await store.unshown_tournaments() == []

    assert (await store.start_tournament(tid, GUILD)).revision == 6
    assert (await store.begin_tournament_round(tid, 1, [(1, 2)], [3])).revision == 7
    assert (await store.begin_tournament_round(tid, 1, [(1, 3)], [2])).revision == 7  # kept
    assert (await store.record_tournament_result(tid, 1, 1, 1)).revision == 7
    tour, _ = await store.drop_tournament_entrant(tid, GUILD, 4, actor=ALICE)  # the AI
    assert tour.revision == 8
    tour = await store.finish_tournament(tid, [1, 2, 3])
    assert tour.revision == 9 and (await store.finish_tournament(tid, [1, 2, 3])).revision == 9
    assert await store.unshown_tournaments() == [tid]

    cancelled = await new(store, fee=0, key="cmd-2")
    await store.set_tournament_message(cancelled.tournament_id, 6002)
    assert (await store.cancel_tournament(cancelled.tournament_id, GUILD, actor=ALICE)).revision == 1
    silent = await new(store, fee=0, key="cmd-3")  # no message yet: nothing to bring up to date
    await store.join_tournament(silent.tournament_id, GUILD, BOB, "bob")
    assert await store.unshown_tournaments() == [tid, cancelled.tournament_id]


async def test_a_tournament_that_starts_by_itself_is_listed_until_it_starts(funded, clock):
    store = funded
    now = int(clock.now * 1000)
    with refused(InvalidInput, "time still to come"):
        await store.create_tournament(GUILD, CHANNEL, created_by=ALICE, game="koikoi",
                                      format="swiss", rules={"rounds": 1}, fee=0, key="past",
                                      starts_at=now)
    later = await store.create_tournament(GUILD, CHANNEL, created_by=ALICE, game="koikoi",
                                          format="swiss", rules={"rounds": 1}, fee=0, key="later",
                                          starts_at=now + 3_600_000)
    sooner = await store.create_tournament(GUILD, CHANNEL, created_by=ALICE, game="koikoi",
                                           format="swiss", rules={"rounds": 1}, fee=0, key="soon",
                                           starts_at=now + 600_000)
    await new(store, key="by-staff")  # no time: staff start it
    assert sooner.starts_at == now + 600_000
    assert await store.timed_tournaments() == [(sooner.tournament_id, GUILD, now + 600_000),
                                               (later.tournament_id, GUILD, now + 3_600_000)]
    for user in (ALICE, BOB):
        await store.join_tournament(sooner.tournament_id, GUILD, user, f"user {user}")
    await store.start_tournament(sooner.tournament_id, GUILD)
    await store.cancel_tournament(later.tournament_id, GUILD, actor=ALICE)
    assert await store.timed_tournaments() == []


def test_a_weekly_tournament_opens_its_sign_up_before_each_start():
    from datetime import UTC, datetime

    def ms(text):
        return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)

    friday = Weekly(55, GUILD, "koikoi", "swiss", 3, 0, None, weekday=4, hour=19, signup_min=60)
    wednesday = ms("2026-12-02T10:00:00")
    assert friday.next_start(wednesday) == ms("2026-12-04T19:00:00")
    assert friday.due(wednesday) is None  # sign-up opens at 18:00 on Friday
    assert friday.due(ms("2026-12-04T18:00:00")) == ms("2026-12-04T19:00:00")
    assert friday.due(ms("2026-12-04T18:59:59")) == ms("2026-12-04T19:00:00")
    at_start = ms("2026-12-04T19:00:00")  # its start is past: the next week's is to come
    assert friday.next_start(at_start) == ms("2026-12-11T19:00:00") and friday.due(at_start) is None
    saturday = ms("2026-12-05T09:00:00")
    assert friday.next_start(saturday) == ms("2026-12-11T19:00:00")
    week_long = Weekly(55, GUILD, "koikoi", "swiss", 3, 0, None, weekday=0, hour=0, signup_min=10080)
    assert week_long.due(saturday) == ms("2026-12-07T00:00:00")  # its sign-up is always open


async def test_weekly_tournaments_are_set_replaced_and_stopped_per_channel(funded):
    store = funded
    plan = Weekly(55, GUILD, "koikoi", "swiss", 3, 10, None, 4, 19, 60)
    await store.set_weekly_tournament(plan)
    await store.set_weekly_tournament(Weekly(56, GUILD, "gostop", "round_robin", 1, 0, "seed", 0, 8, 30))
    again = Weekly(55, GUILD, "mushi", "single_elimination", 6, 0, None, 5, 20, 120)
    await store.set_weekly_tournament(again)  # the channel's one, replaced
    assert [w.channel_id for w in await store.weekly_tournaments(GUILD)] == [55, 56]
    assert (await store.weekly_tournaments())[0] == again
    assert await store.weekly_tournaments(OTHER_GUILD) == []
    with refused(InvalidInput, "weekday, an hour"):
        await store.set_weekly_tournament(Weekly(57, GUILD, "koikoi", "swiss", 3, 0, None, 7, 19, 60))
    assert await store.stop_weekly_tournament(OTHER_GUILD, 55) is None  # another server's channel
    assert await store.stop_weekly_tournament(GUILD, 55) == again
    assert await store.stop_weekly_tournament(GUILD, 55) is None
    assert [w.channel_id for w in await store.weekly_tournaments()] == [56]


async def test_a_tournament_the_bot_opened_is_owed_its_message_until_noted(funded, clock):
    store = funded
    now = int(clock.now * 1000)
    tour = await store.create_tournament(GUILD, CHANNEL, created_by=0, game="koikoi",
                                         format="swiss", rules={"rounds": 1}, fee=0,
                                         key="weekly:77:1", starts_at=now + 3_600_000)
    await new(store, key="staff")  # a staff's: its answer is its message
    assert await store.unposted_tournaments() == [tour.tournament_id]
    await store.set_tournament_message(tour.tournament_id, 123456789, shown=tour.revision)
    assert await store.unposted_tournaments() == []
