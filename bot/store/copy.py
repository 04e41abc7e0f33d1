"""Moving a bot's whole history to PostgreSQL: ``python -m bot db copy --from SRC --to URL``.

Every table is copied row for row in one transaction on the destination (which must be empty and
is migrated first), with the ledger's triggers paused so that the stored entries and balances
arrive exactly as they are, not recomputed; identity counters then continue after the highest
copied ids. The copy is then verified: the same rows in every table, every account's balance,
each server's sums, and the destination's own ledger audit. The source is only read.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from . import postgres
from .db import load_migrations
from .errors import MigrationError, StoreError
from .schema import migrate_database, schema_status
from .target import operating_on, parse_target

__all__ = ["COPIED_TABLES", "CopyReport", "copy_database"]

#: Every table of the schema, parents before children (foreign keys hold at each insert).
COPIED_TABLES = ("guild_settings", "user_languages", "seasons", "games", "game_deals", "game_events",
                 "results", "ratings", "accounts", "transfers", "entries", "lobbies",
                 "relayed_presses", "departed_guilds", "tournaments", "tournament_entrants",
                 "tournament_rounds", "tournament_pairings", "surface_notes", "guest_scopes",
                 "activity_addresses", "pending_reviews", "rest_windows", "achievements",
                 "season_schedules", "tournament_schedules", "daily_deals", "daily_entries",
                 "daily_posts", "daily_reminders")
#: Columns whose values PostgreSQL numbers itself: its counters continue after the copy.
IDENTITIES = {"games": "game_id", "accounts": "account_id", "transfers": "transfer_id",
              "entries": "entry_id", "relayed_presses": "press_id",
              "tournaments": "tournament_id"}
_KEYS = {"guild_settings": "guild_id", "user_languages": "user_id",
         "seasons": "guild_id, season", "games": "game_id", "game_deals": "game_id",
         "game_events": "game_id, seq", "results": "game_id, seat",
         "ratings": "guild_id, game, season, user_id", "accounts": "account_id",
         "transfers": "transfer_id", "entries": "entry_id", "lobbies": "lobby_id",
         "relayed_presses": "press_id", "departed_guilds": "guild_id",
         "tournaments": "tournament_id", "surface_notes": "game_id, surface, seat",
         "guest_scopes": "scope_id",
         "tournament_entrants": "tournament_id, entrant",
         "tournament_rounds": "tournament_id, round",
         "tournament_pairings": "tournament_id, round, board", "activity_addresses": "shard",
         "pending_reviews": "guild_id, game_id, user_id", "rest_windows": "route, major",
         "season_schedules": "guild_id", "tournament_schedules": "channel_id",
         "achievements": "guild_id, user_id, code", "daily_deals": "guild_id, game, day",
         "daily_entries": "guild_id, game, day, user_id", "daily_posts": "guild_id",
         "daily_reminders": "guild_id, user_id"}
BATCH = 1000


class CopyError(StoreError):
    """The copy cannot be made or does not verify; nothing is left half-written."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    balances: int = 0  # accounts whose balance was compared
    chips: int = 0  # chips held outside the house accounts, on both sides

    def summary(self) -> str:
        tables = ", ".join(f"{table} {count:,}" for table, count in self.rows.items())
        return (f"copied and verified: {tables}; {self.balances:,} balances equal, "
                f"{self.chips:,} chips in members' hands and escrow on both sides")


@contextlib.contextmanager
def _reader(source: str) -> Iterator[Any]:
    """A read-only view of the source: ``rows(sql)`` returns its rows as tuples."""
    if postgres.is_postgres_url(source):
        with operating_on(source):
            connection = psycopg.connect(source)
        with connection as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield lambda sql: [tuple(row) for row in conn.execute(sql).fetchall()]
    else:
        conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            with operating_on(source):
                conn.execute("BEGIN")  # one snapshot for the whole copy
            yield lambda sql: conn.execute(sql).fetchall()
        finally:
            conn.close()


@contextlib.asynccontextmanager
async def _destination(url: str) -> AsyncIterator[psycopg.AsyncConnection]:
    with operating_on(url):
        connection = await psycopg.AsyncConnection.connect(url)
    async with connection as conn:
        yield conn


async def _table_columns(conn: psycopg.AsyncConnection, table: str) -> list[str]:
    cursor = await conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = %s ORDER BY ordinal_position", (table,))
    return [row[0] for row in await cursor.fetchall()]


def _value(table: str, column: str, value: Any) -> Any:
    if table == "game_events" and column == "actor" and value is not None:
        return str(value)  # a user id or a label: text on PostgreSQL (see games._actor_of)
    return value


async def copy_database(source: str, destination: str) -> CopyReport:
    """Copy every row of ``source`` (an SQLite file or PostgreSQL URL) into the PostgreSQL
    database ``destination`` (migrated first, and required empty), then verify the copy. Both
    are read by :func:`~bot.store.target.parse_target`."""
    origin = parse_target(source, "the source")
    target = parse_target(destination, "the destination")
    if not target.is_postgres:
        raise CopyError("the destination must be a postgresql:// URL: create an empty PostgreSQL "
                        "database and give its URL")
    source, destination = origin.location, target.location
    if not origin.is_postgres and not Path(source).is_file():
        raise CopyError(f"there is no SQLite database at {source}: give the path of the bot's "
                        "database file")
    latest = load_migrations()[-1].version
    status = await schema_status(source)
    if status.version != latest:
        raise CopyError(f"the source is at schema version {status.version}, not {latest}: run "
                        f"`python -m bot db migrate --database-url {origin.shown}` on it first")
    try:
        await migrate_database(destination)
    except MigrationError as exc:
        raise CopyError(f"the destination cannot be migrated: {exc}") from exc
    try:
        return await _copy(source, destination)
    except psycopg.Error as exc:  # nothing was committed: the copy is one transaction
        raise CopyError(f"the copy failed and left the destination empty: {exc}") from exc


async def _copy(source: str, destination: str) -> CopyReport:
    report = CopyReport()
    with _reader(source) as rows:
        async with _destination(destination) as conn:
            for table in COPIED_TABLES:
                found = await (await conn.execute(f"SELECT count(*) FROM {table}")).fetchone()
                if found[0]:
                    raise CopyError(f"the destination is not empty ({table} has {found[0]:,} rows); "
                                    "copy into a new database")
            async with conn.transaction():
                for table in COPIED_TABLES:  # the stored entries and balances, not recomputed
                    await conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                for table in COPIED_TABLES:
                    columns = await _table_columns(conn, table)
                    data = rows(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_KEYS[table]}")
                    marks = ", ".join(["%s"] * len(columns))
                    insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                    async with conn.cursor() as cursor:
                        for start in range(0, len(data), BATCH):
                            await cursor.executemany(insert, [
                                tuple(_value(table, c, v) for c, v in zip(columns, row, strict=True))
                                for row in data[start:start + BATCH]])
                    report.rows[table] = len(data)
                for table, column in IDENTITIES.items():
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                        f"coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)")
                for table in COPIED_TABLES:
                    await conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        await _verify(rows, destination, report)
    return report


async def _verify(rows, destination: str, report: CopyReport) -> None:
    """The same rows in every table, the same balances and sums, and a sound ledger."""
    from .store import Store

    async with await psycopg.AsyncConnection.connect(destination) as conn:
        async def dest(sql: str) -> list[tuple]:
            return [tuple(r) for r in await (await conn.execute(sql)).fetchall()]

        for table, count in report.rows.items():
            (copied,), = await dest(f"SELECT count(*) FROM {table}")
            if copied != count:
                raise CopyError(f"{table}: {count:,} rows in the source, {copied:,} copied")
        source_balances = dict(rows("SELECT account_id, balance FROM accounts"))
        copied_balances = dict(await dest("SELECT account_id, balance FROM accounts"))
        if source_balances != copied_balances:
            raise CopyError("the account balances differ after the copy")
        report.balances = len(copied_balances)
        sums = "SELECT guild_id, SUM(balance), COUNT(*) FROM accounts GROUP BY guild_id ORDER BY guild_id"
        if [tuple(map(int, r)) for r in rows(sums)] != [tuple(map(int, r)) for r in await dest(sums)]:
            raise CopyError("a server's ledger sums differ after the copy")
        held = "SELECT coalesce(SUM(balance), 0) FROM accounts WHERE kind <> 'house'"
        (report.chips,), = [tuple(map(int, r)) for r in await dest(held)]
        if int(rows(held)[0][0]) != report.chips:
            raise CopyError("the chips held differ after the copy")
        events = "SELECT count(*), coalesce(SUM(seq), 0) FROM game_events"
        if [tuple(map(int, r)) for r in rows(events)] != [tuple(map(int, r)) for r in await dest(events)]:
            raise CopyError("the game events differ after the copy")
    async with await Store.open(destination) as store:
        audit = await store.audit()
        if not audit.ok:
            raise CopyError(f"the copied ledger does not balance: {audit.problems}")
