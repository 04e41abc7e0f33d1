"""The deal of the day in the store: one deal per server, game and UTC day, its rules fixed at
the first look, its seed sealed until the day is over; one entry per member, scored by the
transaction that finishes its game, in its day only; the day's board; a forgotten member."""

from __future__ import annotations

import json

import pytest

from bot.fairness import commitment_of, derive_seed
from bot.games import game_module
from bot.store import EVERY_SERVER, SeatResult
from bot.store.daily import DAY_MS, DailyRecord, day_end, day_of

from .conftest import ALICE, BOB, CAROL, GUILD

pytestmark = pytest.mark.asyncio

OTHER = 901
RULES = {"rounds": 1, "preset_name": "modern"}


async def start_entry(store, user, *, game="koikoi", guild=GUILD, day=None):
    """A member's game of today's deal, created as the bot creates it: claimed, then started
    under the entry's key, dealt from the day's seed."""
    day = day or store.daily_deal_day()
    deal = await store.daily_deal(guild, game, day, dealing=True,
                                  rules=RULES if game == "koikoi" else {"rounds": 1})
    entry = await store.claim_daily_deal(guild, game, day, user)
    fair = deal.fair_deal()
    rules = game_module(game).Rules.from_dict(deal.rules)
    match = game_module(game).new_match(2, rules, fair.seed)
    record = await store.create_game(
        guild, 5, game, rules=deal.rules, players=[user, "ai:hard"], seed=fair.seed,
        state_json=json.dumps({"match": match.to_dict(), "names": ["m", "AI"]}), state_version=1,
        key=entry.key, deal=fair)
    return entry, record


async def finish(store, game_id, mine, ai):
    return await store.finish_game(game_id, [
        SeatResult(0, mine, "won" if mine > ai else "lost" if mine < ai else "draw"),
        SeatResult(1, ai, "won" if ai > mine else "lost" if ai < mine else "draw")])


async def test_a_day_has_one_deal_per_game_its_rules_fixed_by_the_first_look(store, clock):
    day = store.daily_deal_day()
    assert day == day_of(int(clock.now * 1000))
    assert await store.daily_deal(GUILD, "koikoi", day) is None  # nobody looked yet
    first = await store.daily_deal(GUILD, "koikoi", day, rules=RULES, dealing=True)
    again = await store.daily_deal(GUILD, "koikoi", day, rules={"rounds": 1, "preset_name": "nintendo"},
                                   dealing=True)
    assert again == first and again.rules == RULES  # staff changing the rules meanwhile change nothing
    assert first.commitment == commitment_of(first.server_seed)
    assert (await store.daily_deal(GUILD, "koikoi", day)).server_seed is None  # sealed today
    other_game = await store.daily_deal(GUILD, "gostop", day, rules=RULES, dealing=True)
    other_server = await store.daily_deal(OTHER, "koikoi", day, rules=RULES, dealing=True)
    assert len({first.server_seed, other_game.server_seed, other_server.server_seed}) == 3
    # a past day without a deal is not drawn after the fact
    assert await store.daily_deal(GUILD, "koikoi", store.daily_deal_day(1), rules=RULES) is None
    clock.advance(DAY_MS / 1000)
    revealed = await store.daily_deal(GUILD, "koikoi", day)
    assert revealed.server_seed == first.server_seed  # the day is over: its seed is everyone's


async def test_every_member_gets_the_same_cards_and_one_game_a_day(store, clock):
    alice, game_a = await start_entry(store, ALICE)
    bob, game_b = await start_entry(store, BOB)
    assert game_a.seed == game_b.seed  # the same deal
    assert game_a.seed == derive_seed((await store.daily_deal(
        GUILD, "koikoi", store.daily_deal_day(), dealing=True)).server_seed, [])
    again = await store.claim_daily_deal(GUILD, "koikoi", store.daily_deal_day(), ALICE)
    assert again.key == alice.key and again.game_id == game_a.game_id  # one entry, its game found
    # each key random, no member's id in it: the day, the game, 16 hex digits
    day = store.daily_deal_day()
    assert alice.key != bob.key and alice.key.startswith(f"daily:koikoi:{day}:")
    assert int(alice.key.rsplit(":", 1)[1], 16) >= 0 and len(alice.key.rsplit(":", 1)[1]) == 16
    # a start retried under the entry's key finds the game it created
    retried = await store.create_game(GUILD, 5, "koikoi", rules=RULES, players=[ALICE, "ai:hard"],
                                      seed=game_a.seed, state_json=game_a.state_json,
                                      state_version=1, key=alice.key)
    assert retried.game_id == game_a.game_id


async def test_the_finish_scores_the_entry_and_places_it_on_the_board(store, clock):
    _, a = await start_entry(store, ALICE)
    _, b = await start_entry(store, BOB)
    _, c = await start_entry(store, CAROL)
    day = store.daily_deal_day()
    out = await finish(store, a.game_id, 6, 0)
    assert (out.daily.margin, out.daily.place, out.daily.finished) == (6, 1, 1)
    clock.advance(60)
    out = await finish(store, b.game_id, 0, 4)
    assert (out.daily.margin, out.daily.place, out.daily.finished) == (-4, 2, 2)
    clock.advance(60)
    out = await finish(store, c.game_id, 6, 0)
    assert (out.daily.margin, out.daily.place, out.daily.finished) == (6, 1, 3)  # a tie shares it
    board = await store.daily_deal_board(GUILD, "koikoi", day)
    assert [(r.user_id, r.margin) for r in board.rows] == [(ALICE, 6), (CAROL, 6), (BOB, -4)]
    assert (board.started, board.finished) == (3, 3) and board.deal.server_seed is None
    # the outcome read again (a restart showing the end) places it the same way
    again = await store.finish_game(c.game_id, [SeatResult(0, 6, "won"), SeatResult(1, 0, "lost")])
    assert again.replayed and (again.daily.margin, again.daily.place) == (6, 1)
    assert await store.daily_deal_board(OTHER, "koikoi", day) is None  # another server's: none


async def test_an_ordinary_game_is_no_entry(store, clock):
    record = await store.create_game(GUILD, 5, "koikoi", rules=RULES, players=[ALICE, "ai:hard"],
                                     seed=3, state_json='{"names": []}', state_version=1)
    out = await finish(store, record.game_id, 6, 0)
    assert out.daily is None
    assert (await store.load_game(record.game_id, scope=GUILD)).sealed_until is None


async def test_the_cards_stay_sealed_until_the_day_is_over(store, clock):
    _, a = await start_entry(store, ALICE)
    await finish(store, a.game_id, 2, 0)
    end = day_end(store.daily_deal_day())
    record = await store.load_game(a.game_id, scope=GUILD)
    assert record.status == "finished" and record.sealed_until == end
    deal = await store.fair_deal(a.game_id, scope=GUILD)
    assert deal.server_seed is None and deal.reveal_at == end  # finished, yet not revealed
    clock.now = end / 1000
    record = await store.load_game(a.game_id, scope=GUILD)
    assert record.sealed_until is None and record.deal.server_seed is not None
    assert record.deal.seed == record.seed


async def test_a_game_finished_after_its_day_counts_for_nothing(store, clock):
    _, a = await start_entry(store, ALICE)
    day = store.daily_deal_day()
    clock.now = day_end(day) / 1000 + 5
    out = await finish(store, a.game_id, 9, 0)
    assert out.daily.margin is None and out.daily.place is None
    board = await store.daily_deal_board(GUILD, "koikoi", day)
    assert board.rows == [] and (board.started, board.finished) == (1, 0)
    assert board.deal.server_seed is not None  # yesterday's: revealed


async def test_a_cancelled_game_keeps_its_entry_unscored(store, clock):
    alice, a = await start_entry(store, ALICE)
    await store.cancel_game(a.game_id, actor=ALICE)
    entry = await store.claim_daily_deal(GUILD, "koikoi", store.daily_deal_day(), ALICE)
    assert entry.game_id == a.game_id and entry.margin is None
    record = await store.load_game(a.game_id, scope=EVERY_SERVER)
    assert record.status == "cancelled"


async def test_a_forgotten_member_leaves_a_place_without_a_name(store, clock):
    _, a = await start_entry(store, ALICE)
    await finish(store, a.game_id, 3, 0)
    exported = await store.export_member(GUILD, ALICE)
    assert [(d["game"], d["margin"]) for d in exported["deals_of_the_day"]] == [("koikoi", 3)]
    await store.forget_member(GUILD, ALICE, names=["alice"])
    board = await store.daily_deal_board(GUILD, "koikoi", store.daily_deal_day())
    [row] = board.rows
    assert row.user_id != ALICE and row.margin == 3
    # an entry whose game never started holds the member's id too: /privacy counts and forgets it
    await store.claim_daily_deal(GUILD, "koikoi", store.daily_deal_day(), BOB)
    data = await store.member_data(GUILD, BOB)
    assert data.stored_here and data.deals_of_the_day == 1
    assert await store.forget_member(GUILD, BOB, names=["bob"]) is not None
    assert (await store.member_data(GUILD, BOB)).deals_of_the_day == 0


async def test_a_guest_places_deal_is_its_own_and_reached_by_a_forget(store, clock):
    group = 7_700_000_000_000_001  # a group DM, where the app is a guest
    await store.note_guest_place(group, "group_dm")
    day = store.daily_deal_day()
    mine = await store.daily_deal(group, "koikoi", day, rules=RULES, dealing=True)
    assert mine.server_seed != (await store.daily_deal(GUILD, "koikoi", day, rules=RULES,
                                                       dealing=True)).server_seed
    await store.claim_daily_deal(group, "koikoi", day, ALICE)  # claimed; its start never came
    assert await store.guest_places_of(ALICE) == [group]
    assert (await store.guest_member_data(ALICE)).deals_of_the_day == 1
    exported = await store.export_guest_member(ALICE)
    assert [d["game"] for d in exported["places"][0]["deals_of_the_day"]] == ["koikoi"]
    assert await store.forget_guest_member(ALICE, names=["alice"])
    assert await store.guest_places_of(ALICE) == []  # nothing there holds her id now


async def test_a_result_is_shared_once_by_its_member_on_its_server(store, clock):
    _, a = await start_entry(store, ALICE)
    assert await store.share_daily_deal(GUILD, a.game_id, ALICE) == (None, False)  # not scored yet
    await finish(store, a.game_id, 5, 1)
    place, first = await store.share_daily_deal(GUILD, a.game_id, ALICE)
    assert first and (place.margin, place.place, place.finished) == (4, 1, 1)
    assert await store.share_daily_deal(GUILD, a.game_id, ALICE) == (place, False)  # once
    assert await store.share_daily_deal(GUILD, a.game_id, BOB) == (None, False)  # not theirs
    assert await store.share_daily_deal(OTHER, a.game_id, ALICE) == (None, False)  # not from elsewhere
    await store.unshare_daily_deal(a.game_id, ALICE)  # the post did not go out
    assert (await store.share_daily_deal(GUILD, a.game_id, ALICE))[1]


async def test_a_streak_counts_the_days_in_a_row_a_member_finished_a_deal(store, clock):
    streaks = []
    for gap in (0, 1, 1, 2, 1):  # days since the last: a day skipped breaks the run
        clock.advance(gap * DAY_MS / 1000)
        _, game = await start_entry(store, ALICE, game="koikoi" if gap != 1 else "gostop")
        streaks.append((await finish(store, game.game_id, 1, 0)).daily.streak)
    assert streaks == [1, 2, 3, 1, 2]
    _, other = await start_entry(store, BOB)
    assert (await finish(store, other.game_id, 0, 1)).daily.streak == 1  # a member's own run
    _, late = await start_entry(store, CAROL)
    clock.advance(DAY_MS / 1000)
    assert (await finish(store, late.game_id, 3, 0)).daily.streak == 0  # past its day: none


async def test_a_members_record_counts_days_places_and_runs(store, clock):
    assert await store.daily_record(GUILD, ALICE) == DailyRecord()  # never played
    first_day = store.daily_deal_day()
    _, a = await start_entry(store, ALICE)
    _, b = await start_entry(store, BOB)
    _, c = await start_entry(store, CAROL)
    for game, mine in ((a, 2), (b, 5), (c, 2)):
        await finish(store, game.game_id, mine, 0)
    await start_entry(store, ALICE, game="gostop")  # started, never finished: not counted
    clock.advance(DAY_MS / 1000)
    for gap, mine in ((0, 4), (1, 1)):  # two days in a row on top of a board of one
        clock.advance(gap * DAY_MS / 1000)
        _, game = await start_entry(store, ALICE)
        await finish(store, game.game_id, mine, 0)
    record = await store.daily_record(GUILD, ALICE)
    assert (record.days, record.deals, record.firsts) == (3, 3, 2)
    assert (record.run, record.best_run) == (3, 3)
    latest = store.daily_deal_day()
    assert (record.best.day, record.best.place, record.best.finished) == (latest, 1, 1)
    assert (await store.daily_record(GUILD, BOB)).best.day == first_day  # first of three
    carol = await store.daily_record(GUILD, CAROL)
    assert (carol.best.place, carol.best.finished, carol.firsts) == (2, 3, 0)  # a tie with alice
    clock.advance(DAY_MS / 1000)  # today still open: the run lives
    assert (await store.daily_record(GUILD, ALICE)).run == 3
    clock.advance(DAY_MS / 1000)  # a day missed: the run is over, the best one stays
    after = await store.daily_record(GUILD, ALICE)
    assert (after.run, after.best_run, after.days) == (0, 3, 3)
    assert await store.daily_record(OTHER, ALICE) == DailyRecord()  # another server's: none


async def test_a_members_own_record_counts_the_days_of_every_guest_place_and_no_server(store,
                                                                                       clock):
    """Where the app is a guest (a DM, a group DM), a member's own record adds up their days in
    all of those places: a day played in two of them is one day and two deals; a server's days,
    and a place never noted as a guest's, stay out (and so break the run)."""
    group_dm, dm, unnoted = 5_200_000_000_000_001, 5_200_000_000_000_002, 5_200_000_000_000_003
    await store.note_guest_place(group_dm, "group_dm")
    await store.note_guest_place(dm, "dm")
    assert await store.guest_daily_record(ALICE) == DailyRecord()  # never played
    first_day = store.daily_deal_day()
    _, a = await start_entry(store, ALICE, guild=group_dm)  # alice ahead of bob in the group
    _, b = await start_entry(store, BOB, guild=group_dm)
    _, c = await start_entry(store, ALICE, guild=dm)  # and alone in her DM
    for game, mine in ((a, 4), (b, 1), (c, 0)):
        await finish(store, game.game_id, mine, 2)
    for user in (ALICE, BOB, CAROL):  # the server's board of three, alice on top
        _, game = await start_entry(store, user)
        await finish(store, game.game_id, 9 if user == ALICE else 1, 0)
    clock.advance(DAY_MS / 1000)  # the next day: a server's deal and a stranger place's only
    for scope in (GUILD, unnoted):
        _, game = await start_entry(store, ALICE, guild=scope)
        await finish(store, game.game_id, 3, 0)
    clock.advance(DAY_MS / 1000)  # today: her DM again
    _, d = await start_entry(store, ALICE, guild=dm, game="gostop")
    await finish(store, d.game_id, 1, 0)

    own = await store.guest_daily_record(ALICE)
    assert (own.days, own.deals, own.firsts) == (2, 3, 3)  # the first day once, its two deals
    assert (own.run, own.best_run) == (1, 1)  # the day between was the server's: no run
    assert (own.best.day, own.best.place, own.best.finished) == (first_day, 1, 2)  # the group's
    bob = await store.guest_daily_record(BOB)
    assert (bob.days, bob.deals, bob.firsts, bob.best.place, bob.best.finished) == (1, 1, 0, 2, 2)
    assert await store.guest_daily_record(CAROL) == DailyRecord()  # only the server's days
    server = await store.daily_record(GUILD, ALICE)  # the server's own, as before
    assert (server.days, server.deals, server.run, server.best.finished) == (2, 2, 2, 3)


async def test_the_days_board_counts_days_finished_of_any_or_one_game(store, clock):
    for day in range(3):  # alice: three days, two games on the last; bob: the last day only
        _, game = await start_entry(store, ALICE)
        await finish(store, game.game_id, 1, 0)
        if day == 2:
            _, other = await start_entry(store, ALICE, game="gostop")
            await finish(store, other.game_id, 0, 2)
            _, bobs = await start_entry(store, BOB, game="gostop")
            await finish(store, bobs.game_id, 5, 0)
            await start_entry(store, CAROL)  # started, never finished: not on it
        clock.advance(DAY_MS / 1000)
    board = await store.leaderboard(GUILD, "days")
    assert [(r.rank, r.user_id, r.value, r.games) for r in board.rows] == [(1, ALICE, 3, 4), (2, BOB, 1, 1)]
    gostop = await store.leaderboard(GUILD, "days", game="gostop")
    assert [(r.user_id, r.value) for r in gostop.rows] == [(ALICE, 1), (BOB, 1)]
    clock.advance(29 * DAY_MS / 1000)  # the window holds the last day only
    recent = await store.leaderboard(GUILD, "days", period="30d")
    assert [(r.user_id, r.value) for r in recent.rows] == [(ALICE, 1), (BOB, 1)]
    assert (await store.user_rank(GUILD, CAROL, "days")) is None
    await store.start_season(GUILD, "Spring", actor=ALICE, key="s1")  # no season starts it afresh
    assert [r.value for r in (await store.leaderboard(GUILD, "days")).rows] == [3, 1]


async def test_the_new_deals_are_posted_once_a_day_where_staff_chose(store, clock):
    assert await store.daily_post(GUILD) is None
    plan = await store.set_daily_post(GUILD, 55)
    today = store.daily_deal_day()
    assert (plan.channel_id, plan.posted_day) == (55, today)  # from tomorrow on
    assert await store.due_daily_posts() == []
    _, a = await start_entry(store, ALICE)
    _, b = await start_entry(store, BOB)
    _, c = await start_entry(store, CAROL)
    for game, mine in ((a, 3), (b, 7), (c, 1)):
        await finish(store, game.game_id, mine, 0)
    await start_entry(store, ALICE, game="gostop")  # started, never finished: no podium
    clock.advance(DAY_MS / 1000)
    tomorrow = store.daily_deal_day()
    [due] = await store.due_daily_posts()
    assert due.guild_id == GUILD
    [podium] = await store.daily_podiums(GUILD, today)
    assert podium.deal.game == "koikoi" and podium.deal.server_seed is not None  # revealed
    assert [r.user_id for r in podium.rows] == [BOB, ALICE, CAROL] and podium.finished == 3
    await store.daily_posted(GUILD, tomorrow, delivered=True)
    assert await store.due_daily_posts() == []
    await store.daily_posted(GUILD, tomorrow, delivered=False)  # a late note changes nothing
    assert (await store.daily_post(GUILD)).refused_day is None
    clock.advance(DAY_MS / 1000)
    await store.daily_posted(GUILD, store.daily_deal_day(), delivered=False)  # the channel gone
    assert (await store.daily_post(GUILD)).refused_day == store.daily_deal_day()
    again = await store.set_daily_post(GUILD, 56)  # set again: a clean slate
    assert (again.channel_id, again.refused_day) == (56, None)
    assert await store.set_daily_post(GUILD, None) is None and await store.daily_post(GUILD) is None


async def test_seven_days_in_a_row_earn_the_daybreak_regular(store, clock):
    for day in range(7):
        _, game = await start_entry(store, ALICE)
        out = await finish(store, game.game_id, 0, 2)  # a loss counts as a day played
        assert out.daily.streak == day + 1
        assert ("daily_run" in out.achievements.get(ALICE, ())) == (day == 6)
        clock.advance(DAY_MS / 1000)
    _, game = await start_entry(store, ALICE)
    assert "daily_run" not in (await finish(store, game.game_id, 1, 0)).achievements.get(ALICE, ())


async def test_a_members_entries_of_today_say_how_each_game_stands(store, clock):
    """What the Activity's deal box says under each game: scored, running, called off, and
    nothing of another member's, another place's or yesterday's."""
    await store.daily_deal(GUILD, "mushi", store.daily_deal_day(), rules={"rounds": 1}, dealing=True)
    assert await store.daily_entries_today(GUILD, ALICE) == {}
    await store.claim_daily_deal(GUILD, "mushi", store.daily_deal_day(), ALICE)  # a start that failed
    _, played = await start_entry(store, ALICE)
    await finish(store, played.game_id, 5, 2)
    _, running = await start_entry(store, ALICE, game="gostop")
    _, called = await start_entry(store, ALICE, game="sakura")
    await store.cancel_game(called.game_id)
    await start_entry(store, BOB, game="seotda")
    await start_entry(store, ALICE, game="seotda", guild=OTHER)
    assert await store.daily_entries_today(GUILD, ALICE) == {
        "koikoi": (3, "finished"), "gostop": (None, "running"), "sakura": (None, "cancelled"),
        "mushi": (None, None)}
    clock.now += DAY_MS / 1000
    assert await store.daily_entries_today(GUILD, ALICE) == {}  # a new day
