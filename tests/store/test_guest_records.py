"""A player's own record: their games in every place where the app is a guest (DMs, group DMs,
servers without the bot) added up, and never a server's."""

from __future__ import annotations

import pytest

from bot.store import InvalidInput, MemberBusy
from bot.store.records import GUEST_PLACES

from .conftest import ALICE, BOB, CAROL, GUILD
from .test_records import expected_yaku, play_game

GROUP_DM, DM, NO_BOT_CHANNEL = 5_100_000_000_000_001, 5_100_000_000_000_002, 5_100_000_000_000_003
UNNOTED = 5_100_000_000_000_004  # a channel id with records no guest table's start noted


async def _guest_scopes(store) -> list[tuple[int, str | None]]:
    rows = await store._db.fetchall("SELECT scope_id, kind FROM guest_scopes ORDER BY scope_id")
    return [(row[0], row[1]) for row in rows]


async def test_the_record_adds_up_every_guest_place_and_no_server(store):
    for scope, kind in ((GROUP_DM, "group_dm"), (DM, "dm"), (NO_BOT_CHANNEL, "server")):
        await store.note_guest_place(scope, kind)
    # A server's games, and records under an id never noted as a guest place, stay out.
    await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=1, rounds=2)
    await play_game(store, UNNOTED, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=2)
    played = [
        await play_game(store, GROUP_DM, "koikoi", [ALICE, BOB], ["alice", "bob"],
                        seed=3, rounds=3),
        await play_game(store, DM, "koikoi", [ALICE, "ai:normal"], ["alice", "AI"], seed=4,
                        rounds=2),
        await play_game(store, NO_BOT_CHANNEL, "mushi", [BOB, ALICE], ["bob", "alice"], seed=5),
    ]
    seats = [0, 0, 1]
    await play_game(store, DM, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=6, finish=False)

    mine = await store.guest_record(ALICE, recent=5)

    assert mine.guild_id == GUEST_PLACES and mine.user_id == ALICE
    assert mine.games == 3 and mine.games_by_game == {"koikoi": 2, "mushi": 1}
    assert mine.points == sum(m.scores[s] for (_, m), s in zip(played, seats, strict=True))
    outcomes = [_outcome(m, s) for (_, m), s in zip(played, seats, strict=True)]
    assert (mine.wins, mine.draws, mine.losses) == tuple(outcomes.count(o) for o in ("won", "draw", "lost"))
    assert [r.game_id for r in mine.recent] == [game_id for game_id, _ in reversed(played)]
    assert {g: sum(r) for g, r in mine.record_by_game.items()} == mine.games_by_game
    assert mine.ratings == []  # each place rates apart: no rating adds up across them
    want: dict[tuple[str, str], list[int]] = {}
    for (_, match), seat, game in zip(played, seats, ("koikoi", "koikoi", "mushi"), strict=True):
        for slug, points in expected_yaku(match, seat).items():
            want.setdefault((game, slug), []).extend(points)
    assert {(y.game, y.slug): (y.best_points, y.times) for y in mine.yaku} == {
        key: (max(points), len(points)) for key, points in want.items()}
    # Another player's record holds their games alone; a newcomer's is empty.
    bob = await store.guest_record(BOB, recent=0)
    assert bob.games == 2 and bob.recent == []
    assert (await store.guest_record(CAROL)).games == 0
    # The places' own records are as before: each read alone, under its own id.
    assert (await store.user_stats(GROUP_DM, ALICE)).games == 1
    assert (await store.user_stats(GUILD, ALICE)).games == 1


def _outcome(match, seat: int) -> str:
    best = max(match.scores)
    top = [s for s, v in enumerate(match.scores) if v == best]
    return ("draw" if len(top) > 1 else "won") if seat in top else "lost"


async def test_a_place_is_noted_once_and_keeps_its_first_kind_and_time(store, clock):
    await store.note_guest_place(GROUP_DM, "group_dm")
    first = await store._db.fetchone("SELECT first_seen FROM guest_scopes WHERE scope_id = ?",
                                     (GROUP_DM,))
    clock.now += 60
    await store.note_guest_place(GROUP_DM, "dm")  # a later start changes nothing
    assert await _guest_scopes(store) == [(GROUP_DM, "group_dm")]
    assert (await store._db.fetchone("SELECT first_seen FROM guest_scopes WHERE scope_id = ?",
                                     (GROUP_DM,)))[0] == first[0]


async def test_a_place_the_upgrade_noted_without_a_kind_gets_it_from_the_next_start(store):
    await store._db.transact(lambda conn: conn.execute(
        "INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, NULL, 1)", (DM,)))
    await store.note_guest_place(DM, "dm")
    assert await _guest_scopes(store) == [(DM, "dm")]


async def test_a_place_noted_without_its_kind_gets_it_and_never_loses_it(store):
    """An Activity in a private channel cannot tell a DM from a group DM: it notes the place
    without a kind, which a command there later gives, and which its next note keeps."""
    await store.note_guest_place(GROUP_DM, None)
    await store.note_guest_place(DM, "dm")
    await store.note_guest_place(DM, None)
    assert await _guest_scopes(store) == [(GROUP_DM, None), (DM, "dm")]
    await store.note_guest_place(GROUP_DM, "group_dm")
    assert await _guest_scopes(store) == [(GROUP_DM, "group_dm"), (DM, "dm")]


@pytest.mark.parametrize(("scope", "kind"), [(0, "dm"), (-5, "dm"), ("1", "dm"), (DM, "guild"),
                                             (DM, ""), (0, None)])
async def test_bad_places_are_refused(store, scope, kind):
    with pytest.raises(InvalidInput):
        await store.note_guest_place(scope, kind)
    assert await _guest_scopes(store) == []


@pytest.mark.parametrize(("user", "recent"), [(0, 5), (ALICE, -1), (ALICE, 51), (ALICE, "5")])
async def test_bad_record_requests_are_refused(store, user, recent):
    with pytest.raises(InvalidInput):
        await store.guest_record(user, recent=recent)


async def test_forgetting_a_member_reaches_every_guest_place_and_no_server(store):
    for scope, kind in ((GROUP_DM, "group_dm"), (DM, "dm"), (NO_BOT_CHANNEL, "server")):
        await store.note_guest_place(scope, kind)
    await play_game(store, GROUP_DM, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=3)
    await play_game(store, DM, "koikoi", [ALICE, "ai:normal"], ["alice", "AI"], seed=4)
    await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=5)
    await play_game(store, UNNOTED, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=6)
    await store.create_lobby("lobby", NO_BOT_CHANNEL, NO_BOT_CHANNEL, ALICE, game="koikoi",
                             min_seats=2, max_seats=2)
    await store.close_lobby((await _open_lobby(store)), ALICE)
    assert await store.guest_places_of(ALICE) == sorted([GROUP_DM, DM, NO_BOT_CHANNEL])
    bob_before = await store.guest_record(BOB)
    server_before = await store.user_stats(GUILD, ALICE)

    done = await store.forget_guest_member(ALICE, names=["alice"])

    assert len(done) == 3 and len({d.pseudonym for d in done}) == 3  # a pseudonym per place
    assert sum(d.results for d in done) == 2
    assert (await store.guest_record(ALICE)).games == 0
    assert await store.guest_places_of(ALICE) == []
    assert await store.guest_record(BOB) == bob_before  # the other players' records stay right
    assert await store.user_stats(GUILD, ALICE) == server_before  # a server's is its own
    assert (await store.user_stats(UNNOTED, ALICE)).games == 1
    names = await store._db.fetchall("SELECT state FROM games WHERE guild_id IN (?, ?)",
                                     (GROUP_DM, DM))
    assert all('"alice"' not in row[0] for row in names)
    assert await store.forget_guest_member(ALICE) == []  # nothing left: a repeat changes nothing


async def _open_lobby(store) -> str:
    row = await store._db.fetchone("SELECT lobby_id FROM lobbies WHERE status = 'open'")
    return row[0]


async def test_a_member_playing_in_a_guest_place_is_not_forgotten_anywhere(store):
    await store.note_guest_place(GROUP_DM, "group_dm")
    await store.note_guest_place(DM, "dm")
    await play_game(store, GROUP_DM, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=3)
    await play_game(store, DM, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=4, finish=False)
    with pytest.raises(MemberBusy):
        await store.forget_guest_member(ALICE)
    assert (await store.guest_record(ALICE)).games == 1  # the group DM's game kept its player


async def test_the_totals_alone_skip_the_yaku(store):
    await store.note_guest_place(DM, "dm")
    await play_game(store, DM, "koikoi", [ALICE, BOB], ["alice", "bob"], seed=3, rounds=3)
    whole = await store.guest_record(ALICE)
    totals = await store.guest_record(ALICE, recent=0, yaku=False)
    assert whole.yaku and totals.yaku == [] and totals.recent == []
    assert (totals.games, totals.wins, totals.draws, totals.losses, totals.points) == (
        whole.games, whole.wins, whole.draws, whole.losses, whole.points)
