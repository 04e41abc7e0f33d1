"""What the bot's code at each released schema level wrote, in that level's own SQL.

``LEVELS[n]`` fills a database that was just migrated to level ``n`` with the rows the code of
that level wrote: what the level introduced and more of the older kinds (games, the ledger,
results and ratings, settings). A database "at level N" is built by migrating to 1 and filling,
migrating to 2 and filling, ... up to N, as a bot that lived through those versions would hold;
the test then upgrades it to the latest and checks that nothing was lost.

A new migration adds its level here, and the test fails until it does. Each filler is a
generator of :mod:`bot.store.steps` requests (the same SQL runs on SQLite and PostgreSQL);
``ids`` carries what earlier levels created (game and account ids) to later ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import Any

from bot.fairness import commitment_of, derive_seed
from bot.store.ledger import scoped_key
from bot.store.ratings import INITIAL, Placing, Skill, rate
from bot.store.steps import ExecuteMany, Fetch

from .played import Played, play

G1, G2 = 7, 8  # two servers
U1, U2, U3 = 101, 102, 103  # three members
T0 = 1_700_000_000_000  # ms

Fill = Callable[[dict[str, Any]], Generator[Any, Any, None]]

FINISHED = play([U1, U2], 11)
RUNNING = play([U2, U3], 12, moves=4)
RUNNING_AI = play([U1, "ai:easy"], 13, moves=1)
FINISHED_2 = play([U2, U3], 14)
STAKED_RUNNING = play([U1, U3], 15, moves=2)
STAKED_FINISHED = play([U1, U2], 16)
SEASON_GAME = play([U1, U3], 17)
OPENSKILL_GAME = play([U2, U1], 18)
UNSHOWN_GAME = play([U3, U1], 19)
UNPOSTED_GAME = play([U1, U2], 20, moves=6)
NOTED_GAME = play([U2, U1], 21, moves=3)
# Games dealt from a committed server seed and the presses that seated their players.
FAIR_SEEDS = ("5e" * 32, "a7" * 32, "0c" * 32)
FAIR_INPUTS = [{"role": "join", "id": "1200000000000000001"}, {"role": "start", "id": "1200000000000000002"}]
FAIR_IDS = [i["id"] for i in FAIR_INPUTS]
FAIR_RUNNING = play([U1, U3], derive_seed(FAIR_SEEDS[0], FAIR_IDS), moves=3)
FAIR_FINISHED = play([U3, U2], derive_seed(FAIR_SEEDS[1], FAIR_IDS))
# Games where the app was a guest, kept under their channel's id (a group DM's, a DM's).
GROUP_DM, DM = 4_400_000_000_000_001, 4_400_000_000_000_002
STREET, ELSEWHERE = 4_400_000_000_000_003, 4_400_000_000_000_004  # a server's channel, a guest
OLD_STREET = 4_400_000_000_000_005  # a server's channel noted as a guest place before 031
GUEST_FINISHED = play([U1, U2], 22)
GUEST_NOTED = play([U1, U3], 23)
GUEST_RUNNING = play([U2, U3], 24, moves=2)
STREET_RUNNING = play([U3, U1], 25, moves=1)


def as_guest(played: Played) -> Played:
    """``played`` as a guest table stores it: its home in its state."""
    return replace(played, state_json=json.dumps({**json.loads(played.state_json), "home": "guest"},
                                                 separators=(",", ":")))


def _game(guild: int, played: Played, at: int, *, stake: int = 0, payouts: str | None = None,
          channel: int = 55):
    """A game as the code stored it: the row, then its actions; its id."""
    running = not played.over
    rows = yield Fetch(
        "INSERT INTO games (guild_id, channel_id, message_id, game, rules, players, stake, status, "
        "state, state_version, last_seq, seed, payouts, end_reason, created_at, updated_at, "
        "ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
        (guild, channel, at + 1, played.game, json.dumps(played.rules), json.dumps(played.players), stake,
         "running" if running else "finished", played.state_json, len(played.actions),
         json.dumps(played.seed), None if running else payouts or "{}",
         None if running else "match over", at, at + len(played.actions), None if running else at + 99))
    game_id = rows[0][0]
    if played.actions:
        yield ExecuteMany(
            "INSERT INTO game_events (game_id, seq, actor, action, events, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, seq, actor, action, json.dumps(events), at + seq)
             for seq, (actor, action, events) in enumerate(played.actions, 1)])
    return game_id


def _results(game_id: int, guild: int, played: Played, at: int, ratings: list[tuple[float, float]],
             season: int | None = None):
    """Its results, one per human seat, rated with (before, after) per seat."""
    columns = "game_id, seat, guild_id, game, user_id, points, outcome, rated, rating_before, " \
              "rating_after, finished_at" + (", season" if season is not None else "")
    rows = []
    for result, (before, after) in zip(played.results(), ratings, strict=True):
        row = (game_id, result.seat, guild, played.game, played.players[result.seat], result.points,
               result.outcome, 1, before, after, at + 99)
        rows.append(row + ((season,) if season is not None else ()))
    marks = ", ".join("?" * len(rows[0]))
    yield ExecuteMany(f"INSERT INTO results ({columns}) VALUES ({marks})", rows)


def _account(guild: int, kind: str, at: int, *, user: int | None = None, game: int | None = None):
    rows = yield Fetch("INSERT INTO accounts (guild_id, kind, user_id, game_id, created_at) "
                       "VALUES (?, ?, ?, ?, ?) RETURNING account_id", (guild, kind, user, game, at))
    return rows[0][0]


def _move(guild: int, kind: str, src: int, dst: int, amount: int, at: int, *, key: str,
          actor: int = 0, game: int | None = None):
    """A transfer as the ledger wrote it: both balances, then the row (its entries by trigger)."""
    yield ExecuteMany("UPDATE accounts SET balance = balance + ? WHERE account_id = ?",
                      [(-amount, src), (amount, dst)])
    yield ExecuteMany(
        "INSERT INTO transfers (idem_key, guild_id, kind, from_account, to_account, amount, actor, "
        "reason, game_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(f"{guild}:{kind}:{key}", guild, kind, src, dst, amount, actor, f"{kind} {key}", game, at)])


def level_1(ids: dict[str, Any]):
    """Settings and games with their action logs: finished, running, with an AI seat."""
    yield ExecuteMany("INSERT INTO guild_settings (guild_id, currency_name, turn_timeout_s, "
                      "house_rules, updated_at) VALUES (?, ?, ?, ?, ?)",
                      [(G1, "petals", 300, '{"koikoi": {"teyaku": "off"}}', T0)])
    ids["finished"] = yield from _game(G1, FINISHED, T0 + 1000)
    ids["running"] = yield from _game(G1, RUNNING, T0 + 2000)
    ids["running_ai"] = yield from _game(G2, RUNNING_AI, T0 + 3000)


def level_2(ids: dict[str, Any]):
    """Results and Elo ratings of the finished game, and one more such game."""
    yield from _results(ids["finished"], G1, FINISHED, T0 + 1000, [(1500.0, 1516.0), (1500.0, 1484.0)])
    ids["finished_2"] = yield from _game(G2, FINISHED_2, T0 + 4000)
    yield from _results(ids["finished_2"], G2, FINISHED_2, T0 + 4000, [(1500.0, 1516.0), (1500.0, 1484.0)])
    winner, loser = (U1, U2) if FINISHED.scores[0] >= FINISHED.scores[1] else (U2, U1)
    yield ExecuteMany(
        "INSERT INTO ratings (guild_id, game, user_id, rating, games, wins, losses, updated_at) "
        "VALUES (?, 'koikoi', ?, ?, 1, ?, ?, ?)",
        [(G1, winner, 1516.0, 1, 0, T0 + 1099), (G1, loser, 1484.0, 0, 1, T0 + 1099),
         (G2, U2, 1516.0, 1, 0, T0 + 4099), (G2, U3, 1484.0, 0, 1, T0 + 4099)])


def level_3(ids: dict[str, Any]):
    """The ledger: house and member accounts, opening grants, a daily, a transfer, a grant and
    a revoke, and games with stakes in escrow: one running, one paid out."""
    for guild in (G1, G2):
        house = yield from _account(guild, "house", T0 + 5000)
        ids[("house", guild)] = house
        for user in (U1, U2, U3):
            account = yield from _account(guild, "user", T0 + 5000, user=user)
            ids[(guild, user)] = account
            yield from _move(guild, "open", house, account, 1000, T0 + 5000, key=f"open:{user}")
        yield from _move(guild, "daily", house, ids[(guild, U1)], 100, T0 + 5100, key="daily:101")
        yield from _move(guild, "transfer", ids[(guild, U1)], ids[(guild, U2)], 250, T0 + 5200,
                         key="gift", actor=U1)
    yield from _move(G1, "grant", ids[("house", G1)], ids[(G1, U3)], 500, T0 + 5300, key="g1", actor=U1)
    yield from _move(G1, "revoke", ids[(G1, U3)], ids[("house", G1)], 200, T0 + 5400, key="r1", actor=U1)
    for name, played, stake in (("staked_running", STAKED_RUNNING, 30),
                                ("staked_finished", STAKED_FINISHED, 40)):
        game_id = yield from _game(G1, played, T0 + 6000, stake=stake,
                                   payouts=json.dumps({"0" if played.scores[0] >= played.scores[1] else "1": 2 * stake}))
        ids[name] = game_id
        escrow = yield from _account(G1, "escrow", T0 + 6000, game=game_id)
        for seat, user in enumerate(played.players):
            yield from _move(G1, "stake", ids[(G1, user)], escrow, stake, T0 + 6000,
                             key=f"{game_id}:{seat}", game=game_id)
        if played.over:
            yield from _results(game_id, G1, played, T0 + 6000, [(1500.0, 1500.0)] * 2)
            winner = 0 if played.scores[0] >= played.scores[1] else 1
            yield from _move(G1, "payout", escrow, ids[(G1, played.players[winner])], 2 * stake,
                             T0 + 6099, key=f"{game_id}:{winner}", game=game_id)


def level_4(ids: dict[str, Any]):
    """Lobbies: one open, one started (its game), an expired challenge."""
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, message_id, host_id, opponent_id, "
        "game, stake, min_seats, max_seats, humans, ais, status, game_id, expires_at, created_at, "
        "updated_at) VALUES (?, ?, ?, 55, 77, ?, ?, 'koikoi', ?, 2, 2, ?, '[]', ?, ?, ?, ?, ?)",
        [("open-lobby-000000001", "lobby", G1, U1, None, 0, "[101]", "open", None, None, T0, T0),
         ("started-lobby-000001", "lobby", G1, U2, None, 0, "[102, 103]", "started", ids["running"],
          None, T0, T0),
         ("expired-challenge-01", "challenge", G2, U1, U2, 10, "[101]", "expired", None, T0 + 60_000,
          T0, T0 + 60_000)])


def level_5(ids: dict[str, Any]):
    """A rematch of the finished game waiting for its second player."""
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, game, stake, min_seats, "
        "max_seats, humans, ais, status, source_game_id, created_at, updated_at) "
        "VALUES (?, 'rematch', ?, 55, ?, 'koikoi', 0, 2, 2, ?, '[]', 'open', ?, ?, ?)",
        [("rematch-0000000000001", G1, U1, "[101]", ids["finished"], T0 + 7000, T0 + 7000)])


def level_6(ids: dict[str, Any]):
    """Languages: a server's tables in Japanese, members' seen and chosen languages."""
    yield ExecuteMany("INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, ?, ?)",
                      [(G2, "ja", T0 + 8000)])
    yield ExecuteMany("INSERT INTO user_languages (user_id, seen, chosen, updated_at) VALUES (?, ?, ?, ?)",
                      [(U1, "ko", "", T0 + 8000), (U2, "en", "ja", T0 + 8000)])


def level_7(ids: dict[str, Any]):
    """A press relayed to the process driving the running game."""
    yield ExecuteMany("INSERT INTO relayed_presses (shard, game_id, press, created_at) VALUES (?, ?, ?, ?)",
                      [(1, ids["running"], json.dumps({"custom_id": "hf:hand:2", "user": U2}), T0 + 9000)])


def level_8(ids: dict[str, Any]):
    """A season on the first server, and a game finished and rated in it."""
    yield ExecuteMany("INSERT INTO seasons (guild_id, season, name, started_at, started_by, idem_key) "
                      "VALUES (?, 1, 'Spring', ?, ?, ?)", [(G1, T0 + 10_000, U1, f"{G1}:season:1")])
    game_id = yield from _game(G1, SEASON_GAME, T0 + 11_000)
    ids["season_game"] = game_id
    yield from _results(game_id, G1, SEASON_GAME, T0 + 11_000, [(1500.0, 1516.0), (1500.0, 1484.0)], season=1)
    winner = 0 if SEASON_GAME.scores[0] >= SEASON_GAME.scores[1] else 1
    yield ExecuteMany(
        "INSERT INTO ratings (guild_id, game, season, user_id, rating, games, wins, losses, updated_at) "
        "VALUES (?, 'koikoi', 1, ?, ?, 1, ?, ?, ?)",
        [(G1, user, 1516.0 if seat == winner else 1484.0, int(seat == winner), int(seat != winner),
          T0 + 11_099) for seat, user in enumerate(SEASON_GAME.players)])


def level_9(ids: dict[str, Any]):
    """A game rated by OpenSkill: mu and sigma beside the shown rating, as apply_ratings wrote."""
    game_id = yield from _game(G2, OPENSKILL_GAME, T0 + 12_000)
    ids["openskill_game"] = game_id
    rows = yield Fetch("SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND season = 0",
                       (G2,))
    before = {user: Skill(mu, sigma) for user, mu, sigma in rows}
    placings = [Placing(OPENSKILL_GAME.players[r.seat], r.outcome, r.points)
                for r in OPENSKILL_GAME.results()]
    after = rate(before, placings)
    yield from _results(game_id, G2, OPENSKILL_GAME, T0 + 12_000,
                        [(before.get(p.user_id, INITIAL).display, after[p.user_id].display)
                         for p in placings], season=0)
    yield ExecuteMany(
        "INSERT INTO ratings (guild_id, game, season, user_id, rating, mu, sigma, games, wins, "
        "losses, draws, updated_at) VALUES (?, 'koikoi', 0, ?, ?, ?, ?, 1, ?, ?, 0, ?) "
        "ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET rating = excluded.rating, "
        "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
        "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
        "updated_at = excluded.updated_at",
        [(G2, p.user_id, after[p.user_id].display, after[p.user_id].mu, after[p.user_id].sigma,
          int(p.outcome == "won"), int(p.outcome == "lost"), T0 + 12_099) for p in placings])


def level_10(ids: dict[str, Any]):
    """The second server removed the bot (its data kept through the grace period)."""
    yield ExecuteMany("INSERT INTO departed_guilds (guild_id, departed_at) VALUES (?, ?)",
                      [(G2, T0 + 13_000)])


def level_11(ids: dict[str, Any]):
    """A running Swiss tournament on the first server: two members who paid the entry fee into
    the house's pot and an AI entrant; round 1 pairs the members at the running game and gives
    the AI the bye."""
    fee = 25
    rows = yield Fetch(
        "INSERT INTO tournaments (guild_id, channel_id, message_id, created_by, game, format, rules, "
        "fee, pot, status, round, rounds, idem_key, created_at, updated_at) VALUES (?, 55, 78, ?, "
        "'koikoi', 'swiss', '{}', ?, ?, 'running', 1, 2, ?, ?, ?) RETURNING tournament_id",
        (G1, U1, fee, 2 * fee, scoped_key(G1, "tournament", "create-1"), T0 + 14_000, T0 + 14_100))
    tour = rows[0][0]
    ids["tournament"] = tour
    house = ids[("house", G1)]
    for user in (U2, U3):
        key = scoped_key(G1, "stake", f"tournament {tour}:{user}:1")
        yield ExecuteMany("UPDATE accounts SET balance = balance + ? WHERE account_id = ?",
                          [(-fee, ids[(G1, user)]), (fee, house)])
        yield ExecuteMany(
            "INSERT INTO transfers (idem_key, guild_id, kind, from_account, to_account, amount, "
            "actor, reason, game_id, created_at) VALUES (?, ?, 'stake', ?, ?, ?, ?, ?, NULL, ?)",
            [(key, G1, ids[(G1, user)], house, fee, user, f"entry fee of tournament #{tour}",
              T0 + 14_000)])
    yield ExecuteMany(
        "INSERT INTO tournament_entrants (tournament_id, entrant, user_id, ai_level, name, seed, "
        "paid, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(tour, 1, U2, None, "Hanako", 1, fee, T0 + 14_000),
         (tour, 2, U3, None, "Taro", 2, fee, T0 + 14_000),
         (tour, 3, None, "hard", "AI (hard)", 3, 0, T0 + 14_000)])
    yield ExecuteMany("INSERT INTO tournament_rounds (tournament_id, round, started_at) "
                      "VALUES (?, 1, ?)", [(tour, T0 + 14_100)])
    yield ExecuteMany(
        "INSERT INTO tournament_pairings (tournament_id, round, board, a, b, game_id, status, "
        "winner) VALUES (?, 1, ?, ?, ?, ?, ?, ?)",
        [(tour, 1, 1, 2, ids["running"], "pending", None), (tour, 2, 3, None, None, "done", 3)])


def level_12(ids: dict[str, Any]):
    """An open Seotda lobby with its own ante and raise limit over the house rules."""
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, game, stake, min_seats, "
        "max_seats, humans, ais, status, created_at, updated_at, options) "
        "VALUES (?, 'lobby', ?, 55, ?, 'seotda', 200, 2, 6, ?, '[\"normal\"]', 'open', ?, ?, ?)",
        [("seotda-lobby-0000001", G1, U3, "[103]", T0 + 15_000, T0 + 15_000,
          json.dumps({"ante": 5, "max_raises": 2}, sort_keys=True))])


def level_13(ids: dict[str, Any]):
    """A game that ended just before the process stopped: its end is stored, its final table and
    hands not yet shown (the next start shows them)."""
    game_id = yield from _game(G1, UNSHOWN_GAME, T0 + 16_000)
    yield ExecuteMany("UPDATE games SET final_shown = 0 WHERE game_id = ?", [(game_id,)])


def level_14(ids: dict[str, Any]):
    """A running game whose last moves' posts (round summaries) had not gone out."""
    game_id = yield from _game(G1, UNPOSTED_GAME, T0 + 17_000)
    yield ExecuteMany("UPDATE games SET posted_seq = 2 WHERE game_id = ?", [(game_id,)])


def level_15(ids: dict[str, Any]):
    """A running game whose messages the Discord surface noted in rows of its own: the table,
    a hand by direct message, a hand read privately and the turn alert."""
    game_id = yield from _game(G2, NOTED_GAME, T0 + 18_000)
    yield ExecuteMany(
        "INSERT INTO surface_notes (game_id, surface, seat, notes, updated_at) VALUES (?, 'discord', ?, ?, ?)",
        [(game_id, -1, json.dumps({"table": [55, 9001]}), T0 + 18_001),
         (game_id, 0, json.dumps({"hand": [600, 9002], "alert": {"seat": 0, "since": 3, "warned": None,
                                                                 "channel": 600, "message": 9003}}), T0 + 18_002),
         (game_id, 1, json.dumps({"private": True}), T0 + 18_003)])


def level_16(ids: dict[str, Any]):
    """Games dealt from a commitment, one running and one finished, each with its server seed
    and inputs in a row of its own, and an open lobby that committed to its secret and noted the
    Join press of the member who took a seat."""
    rows = []
    for guild, played, server_seed, at in ((G1, FAIR_RUNNING, FAIR_SEEDS[0], T0 + 19_000),
                                            (G2, FAIR_FINISHED, FAIR_SEEDS[1], T0 + 20_000)):
        game_id = yield from _game(guild, played, at)
        rows.append((game_id, server_seed, commitment_of(server_seed), json.dumps(FAIR_INPUTS), at))
    yield ExecuteMany("INSERT INTO game_deals (game_id, server_seed, commitment, inputs, derivation, "
                      "created_at) VALUES (?, ?, ?, ?, 1, ?)", rows)
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, game, stake, min_seats, "
        "max_seats, humans, ais, status, created_at, updated_at, server_seed, commitment, "
        "seat_presses) VALUES (?, 'lobby', ?, 55, ?, 'koikoi', 0, 2, 2, ?, '[]', 'open', ?, ?, ?, ?, ?)",
        [("fair-lobby-00000001", G1, U1, json.dumps([U1, U2]), T0 + 21_000, T0 + 21_000,
          FAIR_SEEDS[2], commitment_of(FAIR_SEEDS[2]), json.dumps([[U2, "1200000000000000003"]]))])
    # A game played in a group DM where the app was a guest: its records under the channel's id.
    game_id = yield from _game(GROUP_DM, as_guest(GUEST_FINISHED), T0 + 22_000, channel=GROUP_DM)
    ids["guest_finished"] = game_id
    yield from _results(game_id, GROUP_DM, GUEST_FINISHED, T0 + 22_000, [(25.0, 26.0), (25.0, 24.0)],
                        season=0)


def level_17(ids: dict[str, Any]):
    """A guest place noted as its table started (a DM with the bot), and its game."""
    yield ExecuteMany("INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, 'dm', ?)",
                      [(DM, T0 + 23_000)])
    game_id = yield from _game(DM, as_guest(GUEST_NOTED), T0 + 23_000, channel=DM)
    yield from _results(game_id, DM, GUEST_NOTED, T0 + 23_000, [(25.0, 26.0), (25.0, 24.0)], season=0)


def level_18(ids: dict[str, Any]):
    """The two processes of a sharded bot, each noting where it serves the Activity."""
    yield ExecuteMany(
        "INSERT INTO activity_addresses (shard, address, updated_at) VALUES (?, ?, ?)",
        [(0, "10.0.0.1:8780", T0 + 21_000), (1, "10.0.0.2:8780", T0 + 21_001)])


def level_19(ids: dict[str, Any]):
    """A server that turned the Hint button of casual games off."""
    yield ExecuteMany("UPDATE guild_settings SET hints = 0 WHERE guild_id = ?", [(G2,)])


BEHIND_LOBBY = "behind-lobby-000001"
BEHIND_TOURNAMENT = 900


def level_20(ids: dict[str, Any]):
    """Two open lobbies with a message: one whose message shows its latest change, one a stop
    left behind (changed twice since its message was last drawn); and a tournament whose last
    sign-up its message does not show yet."""
    yield ExecuteMany(
        "INSERT INTO tournaments (tournament_id, guild_id, channel_id, message_id, created_by, game, "
        "format, rules, fee, idem_key, created_at, updated_at, revision, shown) "
        "VALUES (?, ?, 55, 9003, ?, 'koikoi', 'swiss', '{}', 0, ?, ?, ?, 2, 1)",
        [(BEHIND_TOURNAMENT, G1, U1, scoped_key(G1, "tournament", "behind"), T0 + 26_000,
          T0 + 26_500)])
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, message_id, host_id, game, stake, "
        "min_seats, max_seats, humans, ais, status, created_at, updated_at, revision, shown) "
        "VALUES (?, 'lobby', ?, 55, ?, ?, 'koikoi', 0, 2, 4, ?, '[]', 'open', ?, ?, ?, ?)",
        [("shown-lobby-0000001", G1, 9001, U1, json.dumps([U1, U2]), T0 + 24_000, T0 + 24_500, 1, 1),
         (BEHIND_LOBBY, G2, 9002, U2, json.dumps([U2, U1, U3]), T0 + 25_000, T0 + 25_500, 3, 1)])


def level_21(ids: dict[str, Any]):
    """A /review a stop cut short: the player's request, in the language they asked in."""
    yield ExecuteMany("INSERT INTO pending_reviews (guild_id, game_id, user_id, language, asked_at) "
                      "VALUES (?, ?, ?, 'ja', ?)", [(G1, ids["finished"], U1, T0 + 27_000)])


def level_22(ids: dict[str, Any]):
    """A window of a channel's message edits that a stop left open, and one that ended."""
    yield ExecuteMany("INSERT INTO rest_windows (route, major, until_ms) VALUES (?, ?, ?)",
                      [("PATCH /channels/{channel_id}/messages/{message_id}", "55", T0 + 28_000),
                       ("POST /channels/{channel_id}/messages", "55", T0 + 27_500)])


def level_23(ids: dict[str, Any]):
    """Seats opened from an Activity's page for the players of a finished game, to play it again."""
    yield ExecuteMany(
        "INSERT INTO lobbies (lobby_id, kind, guild_id, channel_id, host_id, game, stake, min_seats, "
        "max_seats, humans, ais, status, created_at, updated_at, replays_game_id) "
        "VALUES (?, 'lobby', ?, 55, ?, 'koikoi', 0, 2, 2, ?, '[]', 'open', ?, ?, ?)",
        [("replay-lobby-000001", G1, U1, json.dumps([U1]), T0 + 29_000, T0 + 29_000, ids["finished"])])


def level_24(ids: dict[str, Any]):
    """Two achievements the finished game earned its winner."""
    yield ExecuteMany(
        "INSERT INTO achievements (guild_id, user_id, code, game_id, earned_at) VALUES (?, ?, ?, ?, ?)",
        [(G1, U1, "first_win", ids["finished"], T0 + 30_000),
         (G1, U1, "five_brights", ids["finished"], T0 + 30_000)])


def level_25(ids: dict[str, Any]):
    """A monthly schedule of seasons that started the second season, whose announcement is
    still owed."""
    yield ExecuteMany("INSERT INTO seasons (guild_id, season, name, started_at, started_by, idem_key) "
                      "VALUES (?, 2, 'March 2025', ?, 0, ?)",
                      [(G1, T0 + 32_000, f"schedule:{G1}:{T0 + 32_000}")])
    yield ExecuteMany(
        "INSERT INTO season_schedules (guild_id, cadence, channel_id, set_at, owed) "
        "VALUES (?, 'monthly', 55, ?, 2)", [(G1, T0 + 31_000)])


def level_26(ids: dict[str, Any]):
    """The season's game, played again after the finished one (a rematch: a series of two)."""
    yield ExecuteMany("UPDATE games SET replays_game_id = ? WHERE game_id = ?",
                      [(ids["finished"], ids["season_game"])])


def level_27(ids: dict[str, Any]):
    """A tournament open for sign-up that starts by itself."""
    yield ExecuteMany(
        "INSERT INTO tournaments (guild_id, channel_id, created_by, game, format, rules, idem_key, "
        "created_at, updated_at, starts_at) VALUES (?, 55, ?, 'koikoi', 'swiss', '{}', ?, ?, ?, ?)",
        [(G1, U1, f"{G1}:tournament:timed", T0 + 40_000, T0 + 40_000, T0 + 1_840_000)])


def level_28(ids: dict[str, Any]):
    """A channel's weekly tournament: Koi-Koi on Fridays at 19:00 UTC, sign-up an hour before."""
    yield ExecuteMany(
        "INSERT INTO tournament_schedules (channel_id, guild_id, game, format, rounds, fee, preset, "
        "weekday, hour, signup_min, set_at) VALUES (55, ?, 'koikoi', 'swiss', 3, 10, NULL, 4, 19, "
        "60, ?)", [(G1, T0 + 41_000)])


def level_29(ids: dict[str, Any]):
    """A deal of the day: a member's entry, its game's row keyed by the entry, scored; and the
    channel the server's new deals are announced in."""
    seed = "5" * 64
    commitment = commitment_of(seed)
    key = scoped_key(G1, "start", "daily:koikoi:2023-11-15:00ff00ff00ff00ff")
    yield ExecuteMany(
        "INSERT INTO daily_deals (guild_id, game, day, server_seed, commitment, rules, created_at) "
        "VALUES (?, 'koikoi', '2023-11-15', ?, ?, '{\"rounds\": 1}', ?)",
        [(G1, seed, commitment, T0 + 42_000)])
    yield ExecuteMany("UPDATE games SET start_key = ? WHERE game_id = ?", [(key, ids["finished"])])
    yield ExecuteMany(
        "INSERT INTO daily_entries (guild_id, game, day, user_id, start_key, margin, finished_at, "
        "claimed_at) VALUES (?, 'koikoi', '2023-11-15', ?, ?, 6, ?, ?)",
        [(G1, U1, key, T0 + 43_000, T0 + 42_000)])
    yield ExecuteMany("INSERT INTO daily_posts (guild_id, channel_id, set_at, posted_day) "
                      "VALUES (?, 56, ?, '2023-11-15')", [(G1, T0 + 41_500)])


def level_30(ids: dict[str, Any]):
    """A member's reminder of the deal of the day, last sent the day before the fixture's deal."""
    yield ExecuteMany(
        "INSERT INTO daily_reminders (guild_id, user_id, stop_key, set_at, reminded_day) "
        "VALUES (?, ?, '0123456789abcdef', ?, '2023-11-14')", [(G1, U1, T0 + 41_800)])
    # A game running in a channel of a server that never added the bot, noted without its server.
    yield ExecuteMany("INSERT INTO guest_scopes (scope_id, kind, first_seen) VALUES (?, 'server', ?)",
                      [(OLD_STREET, T0 + 42_000)])
    ids["old_street"] = yield from _game(OLD_STREET, as_guest(GUEST_RUNNING), T0 + 42_000,
                                         channel=OLD_STREET)


def level_31(ids: dict[str, Any]):
    """A channel of a server that never added the bot, noted as a guest place with its server."""
    yield ExecuteMany("INSERT INTO guest_scopes (scope_id, kind, first_seen, guild_id) "
                      "VALUES (?, 'server', ?, ?)", [(STREET, T0 + 44_000, ELSEWHERE)])


def level_32(ids: dict[str, Any]):
    """A game running in that channel, kept with the server whose shard drives it."""
    game_id = yield from _game(STREET, as_guest(STREET_RUNNING), T0 + 45_000, channel=STREET)
    yield ExecuteMany("UPDATE games SET shard_key = ? WHERE game_id = ?", [(ELSEWHERE, game_id)])


def level_33(ids: dict[str, Any]):
    """The second server's first season, started by staff whose answer Discord refused: its
    announcement owed to the command's channel on a schedule turned off."""
    yield ExecuteMany("INSERT INTO seasons (guild_id, season, name, started_at, started_by, idem_key) "
                      "VALUES (?, 1, 'Autumn', ?, ?, ?)", [(G2, T0 + 46_000, U2, f"{G2}:season:9")])
    yield ExecuteMany(
        "INSERT INTO season_schedules (guild_id, cadence, channel_id, set_at, owed, owed_in) "
        "VALUES (?, NULL, 66, ?, 1, 66)", [(G2, T0 + 46_000)])


LEVELS: dict[int, Fill] = {1: level_1, 2: level_2, 3: level_3, 4: level_4, 5: level_5,
                           6: level_6, 7: level_7, 8: level_8, 9: level_9, 10: level_10,
                           11: level_11, 12: level_12, 13: level_13,
                           14: level_14, 15: level_15, 16: level_16, 17: level_17,
                           18: level_18, 19: level_19, 20: level_20,
                           21: level_21, 22: level_22, 23: level_23, 24: level_24, 25: level_25, 26: level_26, 27: level_27, 28: level_28,
                           29: level_29, 30: level_30, 31: level_31, 32: level_32, 33: level_33}
