"""Members' data: what /privacy shows, the export, and forgetting a member on one server, on
SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from bot.replay import Replay, export_document, player_names
from bot.store import EVERY_SERVER, MemberBusy, SeatResult, UserLanguage
from bot.store.db import IntegrityError
from bot.store.lobbies import LobbyRefused

from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD, write_directly
from .refusals import refused
from .test_records import play_game

pytestmark = pytest.mark.asyncio


async def rows(store, sql, params=()):
    return [tuple(r) for r in await store._db.fetchall(sql, params)]


async def holders(store, guild, user):
    """Every row of ``guild`` that still holds ``user``'s id, table by table."""
    games = [r for r in await rows(store, "SELECT game_id, players, state FROM games "
                                          "WHERE guild_id = ?", (guild,))
             if user in json.loads(r[1]) or json.loads(r[2]).get("host_id") == user]
    found = {
        "accounts": await rows(store, "SELECT account_id FROM accounts WHERE guild_id = ? AND "
                                      "user_id = ?", (guild, user)),
        "transfers": await rows(store, "SELECT transfer_id FROM transfers WHERE guild_id = ? AND "
                                       "(actor = ? OR idem_key LIKE ?)",
                                (guild, user, f"%:{user}%")),
        "results": await rows(store, "SELECT game_id FROM results WHERE guild_id = ? AND "
                                     "user_id = ?", (guild, user)),
        "ratings": await rows(store, "SELECT game FROM ratings WHERE guild_id = ? AND user_id = ?",
                              (guild, user)),
        "game_events": await rows(store, "SELECT e.game_id FROM game_events e JOIN games g ON "
                                         "g.game_id = e.game_id WHERE g.guild_id = ? AND "
                                         "e.actor = ?", (guild, str(user) if
                                                         store.dialect == "postgresql" else user)),
        "lobbies": await rows(store, "SELECT lobby_id FROM lobbies WHERE guild_id = ? AND "
                                     "(host_id = ? OR opponent_id = ? OR humans LIKE ?)",
                              (guild, user, user, f"%{user}%")),
        "seasons": await rows(store, "SELECT season FROM seasons WHERE guild_id = ? AND "
                                     "started_by = ?", (guild, user)),
        "games": games,
        "tournaments": await rows(store, "SELECT tournament_id FROM tournaments WHERE guild_id = ? "
                                         "AND created_by = ?", (guild, user)),
        "tournament_entrants": await rows(
            store, "SELECT e.tournament_id FROM tournament_entrants e JOIN tournaments t ON "
                   "t.tournament_id = e.tournament_id WHERE t.guild_id = ? AND e.user_id = ?",
            (guild, user)),
    }
    return {table: found_rows for table, found_rows in found.items() if found_rows}


async def server_text(store, guild):
    """Every stored text of a server where a member's name could be."""
    games = await rows(store, "SELECT state, end_reason FROM games WHERE guild_id = ?", (guild,))
    reasons = await rows(store, "SELECT reason FROM transfers WHERE guild_id = ?", (guild,))
    entrants = await rows(store, "SELECT e.name FROM tournament_entrants e JOIN tournaments t ON "
                                 "t.tournament_id = e.tournament_id WHERE t.guild_id = ?", (guild,))
    return json.dumps([games, reasons, entrants])


async def a_server_with_alice(store, guild, partner, clock):
    """Alice's life on one server: a staked game with ``partner``, one against the AI, a daily
    claim, a gift, a season she started, a game she cancelled and a tournament she created and
    entered (its fee paid, then refunded when it was called off)."""
    for user in (ALICE, partner):
        await store.open_account(guild, user)
    await store.start_season(guild, "Spring", actor=ALICE, key=f"season-{guild}")
    staked, _ = await play_game(store, guild, "koikoi", [ALICE, partner], ["alice", "partner"],
                                seed=3, rounds=2, stake=50)
    vs_ai, _ = await play_game(store, guild, "koikoi", [ALICE, "ai:normal"], ["alice", "AI"],
                               seed=4)
    await store.claim_daily(guild, ALICE)
    await store.transfer(guild, ALICE, partner, 25, key=f"gift-{guild}", reason="gift from alice")
    cancelled, _ = await play_game(store, guild, "koikoi", [partner, "ai:easy"],
                                   ["partner", "AI"], seed=5, stake=10, finish=False)
    await store.cancel_game(cancelled, actor=ALICE, reason="cancelled by alice from /games")
    cup = await store.create_tournament(guild, 5, created_by=ALICE, game="koikoi", format="swiss",
                                        rules={"rounds": 1}, fee=20, key=f"cup-{guild}")
    for user, name in ((ALICE, "alice"), (partner, "partner")):
        await store.join_tournament(cup.tournament_id, guild, user, name)
    await store.cancel_tournament(cup.tournament_id, guild, actor=ALICE)
    return staked, vs_ai, cancelled


async def test_show_and_export_hold_the_members_own_rows_of_this_server_only(store, clock):
    staked, vs_ai, cancelled = await a_server_with_alice(store, GUILD, BOB, clock)
    elsewhere, _, _ = await a_server_with_alice(store, OTHER_GUILD, CAROL, clock)
    await store.save_user_language(UserLanguage(ALICE, seen="ja"))

    data = await store.member_data(GUILD, ALICE)
    assert data.games == {"finished": 2} and data.latest_game.game_id == vs_ai
    assert (data.results, data.wins + data.draws + data.losses) == (2, 2)
    assert data.balance == await store.balance(GUILD, ALICE)
    assert data.ledger_entries == await store.history_count(GUILD, ALICE)
    assert {game for game, *_ in data.ratings} == {"koikoi"}
    assert data.seasons_started == 1 and data.language.seen == "ja"
    assert data.transfers_caused == 3  # the refunds of the game and the tournament she called off
    assert data.stored_here

    doc = await store.export_member(GUILD, ALICE)
    json.dumps(doc)  # plain JSON
    assert doc["server_id"] == str(GUILD) and doc["user_id"] == str(ALICE)
    assert [g["game_id"] for g in doc["games"]] == [staked, vs_ai]
    assert sorted(r["game_id"] for r in doc["results"]) == [staked, vs_ai]
    assert len(doc["ledger"]) == data.ledger_entries
    assert {"open", "stake", "daily", "transfer"} <= {line["kind"] for line in doc["ledger"]}
    assert [s["name"] for s in doc["seasons_started"]] == ["Spring"]
    assert {t["game_id"] for t in doc["chips_moved_for_others"]} == {cancelled, None}  # None: the cup
    assert [(t["entry"], t["fee_paid"]) for t in doc["tournaments"]] == [("in", 0)]  # refunded
    # her own moves only: each is a move the game log credits to her
    for game in doc["games"]:
        record = await store.load_game(game["game_id"], scope=EVERY_SERVER)
        mine = [[e.seq, e.action] for e in record.events if e.actor == ALICE]
        assert [m[:2] for m in game["your_moves"]] == mine and mine
        assert game["your_seat"] == 0
    assert elsewhere not in {g["game_id"] for g in doc["games"]}
    assert {line["counterparty"] for line in doc["ledger"]} <= {str(BOB), "house", "escrow"}
    here = {r[0] for r in await rows(store, "SELECT game_id FROM games WHERE guild_id = ?", (GUILD,))}
    assert {line["game_id"] for line in doc["ledger"]} - {None} <= here


async def test_forget_replaces_the_member_everywhere_on_one_server(store, clock):
    staked, vs_ai, cancelled = await a_server_with_alice(store, GUILD, BOB, clock)
    await a_server_with_alice(store, OTHER_GUILD, CAROL, clock)
    bob_before = await store.user_stats(GUILD, BOB)
    balance = await store.balance(GUILD, ALICE)
    entries = await store.history_count(GUILD, ALICE)
    other_before = await store.member_data(OTHER_GUILD, ALICE)
    other_export = await store.export_member(OTHER_GUILD, ALICE)
    assert "alice" in await server_text(store, GUILD)

    await store.note_review(GUILD, staked, ALICE, "en")  # a review of hers being made
    await store.note_review(OTHER_GUILD, staked, ALICE, "en")
    done = await store.forget_member(GUILD, ALICE, names=["alice"])
    assert done.pseudonym < 0 and (done.games, done.results, done.ratings) == (2, 2, 1)
    assert [r.guild_id for r in await store.pending_reviews()] == [OTHER_GUILD]
    assert (done.balance, done.ledger_entries) == (balance, entries)

    assert await holders(store, GUILD, ALICE) == {}
    assert "alice" not in await server_text(store, GUILD)
    assert not (await store.member_data(GUILD, ALICE)).stored_here
    audit = await store.audit()
    assert audit.ok, audit.problems
    # the balance stays, with the pseudonym's account
    assert await rows(store, "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
                      (GUILD, done.pseudonym)) == [(balance,)]
    # finished games still replay to their end, the seat named as a former member
    for game_id in (staked, vs_ai):
        record = await store.load_game(game_id, scope=GUILD)
        assert record.players[0] == done.pseudonym
        assert player_names(record)[0] == "a former member"
        replay = Replay(record)
        assert replay.frame(replay.total).match.is_over
        outcome = await store.game_outcome(game_id, guild_id=GUILD)
        doc = export_document(record, outcome, title="Koi-Koi", chip_settlement="")
        assert doc["players"][0]["name"] == "a former member"
        assert {e.actor for e in record.events} <= {done.pseudonym, BOB, "ai:normal"}
    history = await store.game_history(GUILD)
    assert all("alice" not in row.names for row in history.rows)
    # the other player's record is as it was; the former member is on no board
    assert await store.user_stats(GUILD, BOB) == bob_before
    for metric in ("wins", "points", "chips"):
        board = await store.leaderboard(GUILD, metric, season=None)
        assert all(row.user_id > 0 for row in board.rows)
    with refused(LobbyRefused, "forgotten"):
        await store.request_rematch(staked, BOB, game="koikoi", stake=50, seats=2, ais=[],
                                    channel_id=5, expires_at=clock() + 300)
    # the other server is untouched
    assert await store.member_data(OTHER_GUILD, ALICE) == other_before
    again = await store.export_member(OTHER_GUILD, ALICE)
    assert {**again, "exported_at": None} == {**other_export, "exported_at": None}
    # the guards are back
    for sql in ("UPDATE results SET user_id = -5", "UPDATE transfers SET actor = -5",
                "UPDATE accounts SET user_id = -5"):
        with pytest.raises(IntegrityError):
            await write_directly(store, sql)
    # a second request finds nothing of hers, and changes nothing
    assert await store.forget_member(GUILD, ALICE, names=["alice"]) is None
    assert await rows(store, "SELECT COUNT(*) FROM accounts WHERE user_id < 0") == [(1,)]
    # she may come back as a new member: her old request keys are not hers any more
    assert await store.open_account(GUILD, ALICE) == (1000, True)
    await store.claim_daily(GUILD, ALICE)
    assert (await store.audit()).ok


async def test_a_running_game_or_an_open_lobby_refuses_and_changes_nothing(store, clock):
    await store.open_account(GUILD, ALICE)
    running, _ = await play_game(store, GUILD, "koikoi", [ALICE, BOB], ["alice", "bob"],
                                 finish=False)
    before = await store.export_member(GUILD, ALICE)
    with refused(MemberBusy, f"#{running}"):
        await store.forget_member(GUILD, ALICE)
    assert {**await store.export_member(GUILD, ALICE), "exported_at": None} == \
        {**before, "exported_at": None}
    await store.finish_game(running, [SeatResult(0, 1, "won"), SeatResult(1, 0, "lost")])
    lobby = await store.create_lobby("challenge", GUILD, 5, BOB, game="koikoi", min_seats=2,
                                     max_seats=2, opponent_id=ALICE)
    with refused(MemberBusy, "lobbies"):
        await store.forget_member(GUILD, ALICE)
    await store.close_lobby(lobby.lobby_id, ALICE)
    done = await store.forget_member(GUILD, ALICE)
    stored = await store.get_lobby(lobby.lobby_id)
    assert stored.opponent_id == done.pseudonym and stored.host_id == BOB
    assert (await store.audit()).ok


async def test_a_tournament_she_is_still_in_refuses_and_changes_nothing(store, clock):
    await store.open_account(GUILD, ALICE)
    cup = await store.create_tournament(GUILD, 5, created_by=BOB, game="koikoi", format="swiss",
                                        rules={"rounds": 1}, fee=20, key="cup")
    await store.join_tournament(cup.tournament_id, GUILD, ALICE, "alice")
    assert (await store.member_data(GUILD, ALICE)).tournaments == 1
    assert [t["fee_paid"] for t in (await store.export_member(GUILD, ALICE))["tournaments"]] == [20]
    with refused(MemberBusy, "tournaments"):
        await store.forget_member(GUILD, ALICE)
    await store.leave_tournament(cup.tournament_id, GUILD, ALICE)  # the fee comes back
    done = await store.forget_member(GUILD, ALICE, names=["alice"])
    assert await holders(store, GUILD, ALICE) == {}
    entrant = (await store.tournament(cup.tournament_id, scope=EVERY_SERVER)).entrants[0]
    assert (entrant.user_id, entrant.name) == (done.pseudonym, "a former member")
    assert (await store.audit()).ok


async def test_someone_never_seen_here_has_nothing_to_forget(store):
    await store.open_account(OTHER_GUILD, ALICE)
    assert not (await store.member_data(GUILD, ALICE)).stored_here
    assert await store.forget_member(GUILD, ALICE) is None
    assert await store.balance(OTHER_GUILD, ALICE) == 1000
