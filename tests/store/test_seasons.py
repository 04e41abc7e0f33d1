"""Seasons: staff start one by name; games then belong to it, boards and records read one
season (the current one unless asked) or all of them, and ratings start afresh in each."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import InvalidInput, SeatResult
from bot.store.models import ALL_SEASONS
from bot.store.ratings import INITIAL
from bot.store.seasons import next_start, period_start

from .conftest import ALICE, BOB, CAROL, DAVE, GUILD
from .refusals import refused

OTHER_GUILD = GUILD + 1


async def _play(store, players, winner, game="koikoi", guild=GUILD):
    g = await store.create_game(guild, 1, game, rules={}, players=players, seed=1,
                                state_json="{}", state_version=1)
    results = [SeatResult(s, 10 if s == winner else 1, "won" if s == winner else "lost")
               for s in range(len(players))]
    return await store.finish_game(g.game_id, results)


async def _board(store, metric, **kw):
    page = await store.leaderboard(GUILD, metric, **kw)
    return [(r.user_id, r.value) for r in page.rows]


async def test_a_new_season_starts_empty_boards_and_fresh_ratings(funded):
    await _play(funded, [ALICE, BOB], 0)
    await _play(funded, [ALICE, BOB], 0)
    before = await _board(funded, "rating", game="koikoi")
    assert before[0][0] == ALICE and before[0][1] > INITIAL.display

    spring = await funded.start_season(GUILD, "  Spring   2027 ", actor=ALICE, key="i-1")
    assert (spring.season, spring.name, spring.started_by) == (1, "Spring 2027", ALICE)
    assert await _board(funded, "wins", game="koikoi") == []
    assert await _board(funded, "rating", game="koikoi") == []
    assert (await funded.user_stats(GUILD, ALICE)).games == 0

    out = await _play(funded, [BOB, ALICE], 0)  # Bob wins the season's first game
    assert out.results[0].rating_before == INITIAL.display  # afresh, though he lost twice before
    assert await _board(funded, "wins", game="koikoi") == [(BOB, 1), (ALICE, 0)]
    assert [u for u, _ in await _board(funded, "rating", game="koikoi")] == [BOB, ALICE]

    # The past season is kept as it was, and all seasons together on request.
    assert await _board(funded, "wins", game="koikoi", season=0) == [(ALICE, 2), (BOB, 0)]
    assert await _board(funded, "rating", game="koikoi", season=0) == before
    assert await _board(funded, "wins", game="koikoi", season=ALL_SEASONS) == [(ALICE, 2), (BOB, 1)]
    stats = await funded.user_stats(GUILD, ALICE, season=ALL_SEASONS)
    assert (stats.games, stats.wins) == (3, 2)
    assert [r.rating for r in stats.ratings] == [out.results[1].rating_after]  # the latest season
    old = await funded.user_stats(GUILD, ALICE, season=0)
    assert (old.games, old.wins, old.ratings[0].rating) == (2, 2, before[0][1])
    assert (await funded.user_rank(GUILD, ALICE, "wins", game="koikoi", season=0)).rank == 1


async def test_starting_a_season_is_idempotent_and_seasons_are_listed_newest_first(funded):
    first = await funded.start_season(GUILD, "One", actor=ALICE, key="k1")
    again = await funded.start_season(GUILD, "One", actor=ALICE, key="k1")
    assert again == first
    second = await funded.start_season(GUILD, "Two", actor=BOB, key="k2")
    assert second.season == 2
    assert [s.name for s in await funded.seasons(GUILD)] == ["Two", "One"]
    with refused(InvalidInput, "another season"):
        await funded.start_season(GUILD, "Three", actor=ALICE, key="k1")
    assert await funded.seasons(OTHER_GUILD) == []  # one server never sees another's seasons
    await funded.start_season(OTHER_GUILD, "Elsewhere", actor=CAROL, key="k1")  # its own key
    assert [s.season for s in await funded.seasons(OTHER_GUILD)] == [1]
    assert len(await funded.seasons(GUILD)) == 2


@pytest.mark.parametrize("name", ["", "   ", "x" * 65])
async def test_a_bad_season_name_is_refused_and_starts_nothing(funded, name):
    with pytest.raises(InvalidInput):
        await funded.start_season(GUILD, name, actor=ALICE, key="bad")
    assert await funded.seasons(GUILD) == []


async def test_a_season_not_reached_or_no_season_for_ratings_is_refused(funded):
    with refused(InvalidInput, "no season 1"):
        await funded.leaderboard(GUILD, "wins", season=1)
    with refused(InvalidInput, "per season"):
        await funded.leaderboard(GUILD, "rating", game="koikoi", season=ALL_SEASONS)
    with pytest.raises(InvalidInput):
        await funded.user_stats(GUILD, ALICE, season=-2)


async def test_chips_carry_over_seasons(funded):
    await funded.transfer(GUILD, BOB, ALICE, 100, key="t")
    await funded.start_season(GUILD, "New", actor=ALICE, key="s")
    rows = await _board(funded, "chips")
    assert rows[0] == (ALICE, 1100)


async def test_seasons_are_never_changed_or_removed(funded, database):
    await funded.start_season(GUILD, "Kept", actor=ALICE, key="s")
    for sql in ("UPDATE seasons SET name = 'x'", "DELETE FROM seasons"):
        with pytest.raises(Exception, match="immutable"):
            await funded._db.transact(lambda conn, sql=sql: conn.execute(sql))
    assert [s.name for s in await funded.seasons(GUILD)] == ["Kept"]


async def test_a_seasons_honours_are_read_from_its_own_boards(funded):
    """As a season ends: its podium of wins, its longest run of wins and each game's best
    rating, of that season alone and of this server alone."""
    for winner in (ALICE, ALICE, ALICE, BOB):  # alice wins three in a row, then bob
        loser = BOB if winner == ALICE else ALICE
        await _play(funded, [winner, loser], 0)
    await _play(funded, [CAROL, BOB], 0, game="gostop")
    await _play(funded, [DAVE, ALICE], 1, game="gostop")  # alice's fourth win, in Go-Stop
    await _play(funded, [ALICE, BOB], 0, guild=OTHER_GUILD)  # another server's: not counted
    before = await funded.season_honours(GUILD, 0)
    assert [(r.user_id, r.value) for r in before.wins] == [(ALICE, 4), (BOB, 1), (CAROL, 1)]
    assert (before.streak.user_id, before.streak.value) == (ALICE, 3)
    assert set(before.ratings) == {"koikoi", "gostop"}
    assert before.ratings["koikoi"].user_id == ALICE
    assert before.ratings["gostop"].rank == 1 and not before.empty

    await funded.start_season(GUILD, "Spring", actor=ALICE, key="s1")
    assert await funded.season_honours(GUILD, 0) == before  # a season ended stays as it was
    spring = await funded.season_honours(GUILD, 1)
    assert spring.empty and spring.wins == [] and spring.streak is None and spring.ratings == {}
    await _play(funded, [BOB, ALICE], 0)  # one win is no run
    spring = await funded.season_honours(GUILD, 1)
    assert [(r.user_id, r.value) for r in spring.wins] == [(BOB, 1)] and spring.streak is None
    with refused(InvalidInput, "no season 2"):
        await funded.season_honours(GUILD, 2)
    with pytest.raises(InvalidInput):
        await funded.season_honours(GUILD, ALL_SEASONS)


# -- schedules ---------------------------------------------------------------------------------
def _ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def test_a_schedules_periods_begin_at_utc_midnight_on_mondays_and_the_1st():
    wednesday = _ms("2026-12-30T17:45:00")
    assert period_start("weekly", wednesday) == _ms("2026-12-28T00:00:00")
    assert next_start("weekly", wednesday) == _ms("2027-01-04T00:00:00")
    assert period_start("monthly", wednesday) == _ms("2026-12-01T00:00:00")
    assert next_start("monthly", wednesday) == _ms("2027-01-01T00:00:00")
    monday = _ms("2027-01-04T00:00:00")  # a period's first moment is its own
    assert period_start("weekly", monday) == monday
    assert next_start("monthly", _ms("2027-01-31T23:59:59")) == _ms("2027-02-01T00:00:00")
    with pytest.raises(InvalidInput):
        period_start("daily", monday)


async def test_a_schedule_starts_one_season_per_period_and_owes_its_announcement(funded, clock):
    clock.now = _ms("2026-12-15T12:00:00") / 1000
    plan = await funded.set_season_schedule(GUILD, "monthly", 555)
    assert (plan.cadence, plan.channel_id, plan.owed, plan.undelivered) == ("monthly", 555, None, None)
    now = int(clock.now * 1000)
    assert await funded.due_season_schedules(now) == []  # December began before it was set
    assert await funded.start_scheduled_season(GUILD, "December 2026", now) is None

    january = _ms("2027-01-01T00:00:05")
    assert [p.guild_id for p in await funded.due_season_schedules(january)] == [GUILD]
    season = await funded.start_scheduled_season(GUILD, "January 2027", january)
    assert (season.season, season.name, season.started_by) == (1, "January 2027", 0)
    assert int(season.started_at.timestamp() * 1000) == january
    assert [(p.guild_id, p.owed) for p in await funded.owed_season_announcements()] == [(GUILD, 1)]
    # a second pass, or a second process, in the same month starts nothing more
    assert await funded.due_season_schedules(january + 3_600_000) == []
    assert await funded.start_scheduled_season(GUILD, "January 2027", january + 3_600_000) is None
    assert [s.season for s in await funded.seasons(GUILD)] == [1]

    await funded.season_announced(GUILD, 1, delivered=True)
    assert await funded.owed_season_announcements() == []
    await funded.season_announced(GUILD, 1, delivered=True)  # noted again: nothing changes
    assert (await funded.season_schedule(GUILD)).owed is None

    # the bot was away from March to May: one season starts, for May, not one per month missed
    may = _ms("2027-05-02T08:00:00")
    assert await funded.start_scheduled_season(GUILD, "May 2027", may) is not None
    assert await funded.start_scheduled_season(GUILD, "June 2027", may) is None
    assert [s.name for s in await funded.seasons(GUILD)] == ["May 2027", "January 2027"]


async def test_a_season_staff_start_in_a_period_stands_for_the_scheduled_one(funded, clock):
    clock.now = _ms("2026-11-30T09:00:00") / 1000
    await funded.set_season_schedule(GUILD, "weekly", 555)
    clock.now = _ms("2026-12-07T00:30:00") / 1000
    await funded.start_season(GUILD, "Winter cup", actor=ALICE, key="i-9")
    assert await funded.due_season_schedules(int(clock.now * 1000) + 60_000) == []
    nxt = _ms("2026-12-14T00:00:00")
    assert (await funded.start_scheduled_season(GUILD, "Week of Dec 14, 2026", nxt)).season == 2


async def test_a_schedule_turned_off_starts_nothing_but_keeps_what_it_owes(funded, clock):
    clock.now = _ms("2026-11-30T09:00:00") / 1000
    await funded.set_season_schedule(GUILD, "weekly", 555)
    monday = _ms("2026-12-07T00:00:00")
    await funded.start_scheduled_season(GUILD, "Week of Dec 7, 2026", monday)
    clock.now = monday / 1000 + 60
    off = await funded.set_season_schedule(GUILD, None, 556)
    assert (off.cadence, off.owed, off.channel_id) == (None, 1, 556)  # owed, now to 556
    assert await funded.due_season_schedules(_ms("2027-03-01T00:00:00")) == []
    assert [p.owed for p in await funded.owed_season_announcements()] == [1]


async def test_an_announcement_refused_for_good_is_noted_until_the_schedule_changes(funded, clock):
    clock.now = _ms("2026-11-30T09:00:00") / 1000
    await funded.set_season_schedule(GUILD, "monthly", 555)
    await funded.start_scheduled_season(GUILD, "December 2026", _ms("2026-12-01T00:00:00"))
    await funded.season_announced(GUILD, 1, delivered=False)
    plan = await funded.season_schedule(GUILD)
    assert (plan.owed, plan.undelivered) == (None, 1)
    plan = await funded.set_season_schedule(GUILD, "monthly", 557)
    assert (plan.undelivered, plan.channel_id) == (None, 557)


async def test_a_season_staff_started_unseen_is_owed_where_they_started_it(funded, clock):
    """A season whose command's answer Discord refused is owed to that command's channel: a
    server with no schedule is given one turned off, a schedule keeps its own channel, and a
    refusal there is no warning about the schedule."""
    clock.now = _ms("2026-11-30T09:00:00") / 1000
    first = await funded.start_season(GUILD, "Spring", actor=ALICE, key="i-1")
    assert await funded.owe_season_announcement(GUILD, first.season, 700)
    [plan] = await funded.owed_season_announcements()
    assert (plan.cadence, plan.channel_id, plan.owed, plan.owed_in, plan.owed_channel) == (
        None, 700, 1, 700, 700)
    await funded.season_announced(GUILD, 1, delivered=False)  # refused for good where it was used
    plan = await funded.season_schedule(GUILD)
    assert (plan.owed, plan.owed_in, plan.undelivered) == (None, None, None)

    await funded.set_season_schedule(GUILD, "weekly", 555)
    second = await funded.start_season(GUILD, "Summer", actor=ALICE, key="i-2")
    assert await funded.owe_season_announcement(GUILD, second.season, 701)
    plan = await funded.season_schedule(GUILD)
    assert (plan.cadence, plan.channel_id, plan.owed, plan.owed_channel) == ("weekly", 555, 2, 701)
    assert not await funded.owe_season_announcement(GUILD, first.season, 702)  # out of date
    assert (await funded.season_schedule(GUILD)).owed_channel == 701
    await funded.season_announced(GUILD, 2, delivered=True)
    assert await funded.owed_season_announcements() == []

    # the schedule's next season is owed to its own channel again
    monday = _ms("2026-12-07T00:00:00")
    await funded.start_season(GUILD, "Autumn", actor=ALICE, key="i-3")
    await funded.owe_season_announcement(GUILD, 3, 703)
    third = await funded.start_scheduled_season(GUILD, "Week of Dec 14, 2026", monday + 7 * 86_400_000)
    [plan] = await funded.owed_season_announcements()
    assert (plan.owed, plan.owed_channel) == (third.season, 555)
    assert (await funded.season_schedule(OTHER_GUILD)) is None


async def test_a_bad_schedule_is_refused_and_changes_nothing(funded):
    with refused(InvalidInput, "every week or every month"):
        await funded.set_season_schedule(GUILD, "daily", 555)
    assert await funded.season_schedule(GUILD) is None
    assert await funded.season_schedule(OTHER_GUILD) is None
