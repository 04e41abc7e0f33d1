"""``python -m bot`` runs the bot; ``python -m bot sync [--guild ID]`` publishes its slash commands;
``python -m bot db status|migrate`` shows or brings up to date the database's schema, and
``python -m bot db copy --from SRC --to URL`` moves a whole database to PostgreSQL;
``python -m bot db backup|restore PATH`` backs it up while the bot runs or restores it into an
empty database, and ``python -m bot db purge-guild ID --yes`` deletes one server's data.

Commands are not synced on every start (Discord rate-limits it): run ``sync`` once after an
update, or set DEV_GUILD_ID to sync to one test server at each start while developing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sqlite3
import sys
from pathlib import Path

import aiohttp
import discord

from bot import eventloop, logcontext
from bot.config import ConfigError, Settings, load_settings
from bot.discord_ui.errors import sentence
from bot.store import StoreError
from bot.words import plural


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Hanafuda games for Discord")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="start the bot (the default)")
    for where in (parser, run):
        where.add_argument("--shards", metavar="IDS", default=argparse.SUPPRESS,
                           help="run only these shards, e.g. 0-3 or 0,2,4-5 (default: SHARDS, else "
                                "every shard); other processes run the rest")
        where.add_argument("--shard-count", metavar="N", default=argparse.SUPPRESS,
                           help="the number of shards of the whole bot, the same in every process "
                                "(default: SHARD_COUNT, else what Discord recommends)")
    sync = sub.add_parser("sync", help="publish the slash commands to Discord, then exit")
    sync.add_argument("--guild", type=int, help="sync to this one server only (instant)")
    sync.add_argument("--dry-run", action="store_true",
                      help="print the commands as JSON, exactly as sync would send them, and send "
                           "nothing (no token or network needed)")
    db = sub.add_parser("db", help="the database: where it stands, bring it up to date")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    for name, what in (("status", "show the schema version and the migrations applied or pending"),
                       ("migrate", "apply every pending migration, each in its own transaction")):
        command = db_sub.add_parser(name, help=what)
        command.add_argument("--database-url", default=None,
                             help="a postgresql:// URL or an SQLite file (default: DATABASE_URL, "
                                  "else DATABASE_PATH, else data/hanafuda.sqlite3)")
    copy = db_sub.add_parser("copy", help="copy a whole database (SQLite or PostgreSQL) into an "
                                          "empty PostgreSQL database, then verify it")
    copy.add_argument("--from", dest="source", required=True,
                      help="sqlite:///path/to/file.sqlite3 (or a path), or a postgresql:// URL")
    copy.add_argument("--to", dest="destination", required=True, help="a postgresql:// URL")
    backup = db_sub.add_parser("backup", help="a consistent backup while the bot runs (SQLite's "
                                              "backup API; pg_dump on PostgreSQL)")
    backup.add_argument("path", help="the backup file to write (must not exist)")
    restore = db_sub.add_parser("restore", help="restore a backup into an empty database, then "
                                                "verify it (ledger, every game)")
    restore.add_argument("path", help="the backup file (an SQLite copy or a pg_dump archive)")
    purge = db_sub.add_parser("purge-guild", help="delete every row of one server at once")
    purge.add_argument("guild_id", type=int, metavar="ID", help="the server's id")
    purge.add_argument("--yes", action="store_true", help="really delete (required)")
    for command in (backup, restore, purge):
        command.add_argument("--database-url", default=None,
                             help="a postgresql:// URL or an SQLite file (default: DATABASE_URL, "
                                  "else DATABASE_PATH, else data/hanafuda.sqlite3)")
    return parser


async def _serve(bot: discord.Client, token: str) -> None:
    """Run the bot until Discord ends the session or SIGTERM or SIGINT asks it to stop (what
    systemd, Docker and Kubernetes send): then it stops cleanly (``HanafudaBot.shutdown``)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on this platform
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token, reconnect=True), name="gateway")
        stopping = asyncio.create_task(stop.wait(), name="stop signal")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            stopping.cancel()
            running.result()  # why it ended (a refused token, no network)
            return
        shutdown = getattr(bot, "shutdown", None)
        await (shutdown() if shutdown is not None else bot.close())
        with contextlib.suppress(asyncio.CancelledError):
            await running


def _db(args: argparse.Namespace) -> int:
    """``python -m bot db ...``: no token needed, only the database. Every failure is one
    sentence on stderr and exit code 2 (``db status``: 1 while migrations are pending)."""
    import psycopg

    # The store logs an unusable database for a running bot's operator; here the error's own
    # sentence says it, so the log's copy of it would only repeat it.
    logging.getLogger("bot.store").addHandler(logging.NullHandler())
    try:
        return _db_command(args)
    except StoreError as exc:  # refusals, and a database unreachable or unreadable, in a sentence
        print(f"error: {sentence(exc)}", file=sys.stderr)
    except (sqlite3.Error, psycopg.Error, OSError) as exc:  # a driver's failure no rule names
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: the database failed ({reason}); check it and run the command again",
              file=sys.stderr)
    return 2


def _db_target(args: argparse.Namespace) -> str:
    """The database a ``db`` command works on: --database-url, else DATABASE_URL, else
    DATABASE_PATH, else the default file, read as every entry point reads one."""
    from bot.store.db import default_db_path
    from bot.store.target import parse_target

    for source, raw in (("--database-url", args.database_url),
                        ("DATABASE_URL", os.environ.get("DATABASE_URL")),
                        ("DATABASE_PATH", os.environ.get("DATABASE_PATH"))):
        if raw is not None and raw.strip():
            return parse_target(raw, source).location
    return os.fspath(default_db_path())


def _db_command(args: argparse.Namespace) -> int:
    from bot.store.schema import migrate_database, schema_status
    from bot.store.target import parse_target

    if args.db_command == "copy":
        from bot.store.copy import copy_database

        source = parse_target(args.source, "--from").location
        destination = parse_target(args.destination, "--to").location
        print(asyncio.run(copy_database(source, destination)).summary())
        return 0
    target = _db_target(args)
    if args.db_command in _OPERATIONS:
        return asyncio.run(_OPERATIONS[args.db_command](args, target))
    if args.db_command == "migrate":
        before, after = asyncio.run(migrate_database(target))
        print(f"schema version {before} -> {after}" if after != before else
              f"schema version {after}: nothing to apply")
    status = asyncio.run(schema_status(target))
    print(status.report())
    return 0 if status.version == status.latest else 1


async def _backup(args: argparse.Namespace, target: str) -> int:
    from bot.store.backup import backup_database

    print((await backup_database(target, args.path)).summary())
    return 0


async def _restore(args: argparse.Namespace, target: str) -> int:
    from bot.checkup import check_store
    from bot.store import Store
    from bot.store.backup import restore_database
    from bot.store.target import operating_on

    version = await restore_database(args.path, target)
    with operating_on(target):
        store = await Store.open(target)
    async with store:
        print(f"restored {args.path} into {store.path} (backed up at schema version {version})")
        report = await check_store(store)
    print(report.summary())
    return 0 if report.ok else 1


async def _purge_guild(args: argparse.Namespace, target: str) -> int:
    from bot.store import Store
    from bot.store.target import operating_on

    if not args.yes:
        print(f"error: this deletes every row of server {args.guild_id} (games, ledger, ratings, "
              "settings) for good; run it again with --yes to do it", file=sys.stderr)
        return 2
    with operating_on(target):
        store = await Store.open(target)
    async with store:
        deleted = await store.purge_guild(args.guild_id)
    rows = ", ".join(f"{table} {count:,}" for table, count in deleted.items() if count)
    print(f"purged server {args.guild_id}: " + (rows or "it had no rows"))
    return 0


_OPERATIONS = {"backup": _backup, "restore": _restore, "purge-guild": _purge_guild}


@contextlib.asynccontextmanager
async def _command_tree():
    """The bot's command tree as ``sync`` sees it (cogs loaded, translator set), without logging in."""
    from bot.discord_ui.client import HanafudaBot

    bot = HanafudaBot(Settings(token="", database_path=Path(os.devnull)), sync_dev_guild=False, sync_only=True)
    async with bot:
        await bot.setup_hook()
        yield bot.tree


async def command_payload(entry_point: bool = False) -> list[dict]:
    """The slash commands as ``sync`` sends them, translations included (no login, no network);
    with the Activity's Entry Point when the Activity is on (``entry_point``)."""
    async with _command_tree() as tree:
        assert tree.translator is not None  # set by setup_hook, as for a real sync
        return await tree.payload(entry_point=entry_point)


async def command_tree_texts() -> list[tuple[str, str]]:
    """Every (context, English) of the slash commands that the catalogs translate."""
    from bot.i18n.commands import tree_texts

    async with _command_tree() as tree:
        return list(tree_texts(tree))


async def _sync(settings, guild_id: int | None) -> int:
    from bot.discord_ui.client import HanafudaBot

    bot = HanafudaBot(settings, sync_dev_guild=False, sync_only=True)
    async with bot:
        await bot.login(settings.token)  # runs setup_hook: loads the cogs' commands
        if guild_id:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
    print(f"synced {plural(len(synced), 'command')} " + (f"to server {guild_id}" if guild_id else "globally"))
    return 0


class _NoVoiceNotice(logging.Filter):
    """Drops discord.py's start-up notices that the optional voice libraries (PyNaCl, davey) are
    missing: this bot never joins a voice channel, so they are noise. Everything else passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.WARNING
                    and str(record.msg).endswith("is not installed, voice will NOT be supported"))


VOICE_NOTICE = _NoVoiceNotice()


def quiet_voice_notices() -> None:
    """Filter the voice notices where discord.py logs them (its client, when a client is made)."""
    logger = logging.getLogger("discord.client")
    if VOICE_NOTICE not in logger.filters:
        logger.addFilter(VOICE_NOTICE)


UNREACHABLE = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.GatewayNotFound,
               discord.DiscordServerError)
"""What a start raises when Discord cannot be reached (no network, DNS, Discord down)."""


def _unreachable(exc: BaseException) -> str:
    if isinstance(exc, aiohttp.ClientConnectorError):
        cause = exc.os_error
        why = os.strerror(cause.errno) if isinstance(cause.errno, int) and cause.errno > 0 else cause.strerror
        reason = f"{exc.host}:{exc.port}: {str(why or cause).lower()}"
    elif isinstance(exc, asyncio.TimeoutError):
        reason = "no answer in time"
    else:
        reason = str(exc).strip() or type(exc).__name__
    return (f"error: cannot reach Discord ({reason}); check the network connection and start "
            "the bot again")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "db":
        return _db(args)
    if args.command == "sync" and args.dry_run:
        try:  # the Entry Point goes with the commands when the Activity is on (ACTIVITY_PORT)
            activity = load_settings(require_token=False).activity_port is not None
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        json.dump(asyncio.run(command_payload(activity)), sys.stdout, ensure_ascii=False, indent=2,
                  sort_keys=True)
        sys.stdout.write("\n")
        return 0
    env = dict(os.environ)  # the command line wins over the environment and .env
    for option, name in (("shards", "SHARDS"), ("shard_count", "SHARD_COUNT")):
        if hasattr(args, option):
            env[name] = getattr(args, option)
    try:
        settings = load_settings(env=env)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(where)s%(name)s: %(message)s")
    for handler in logging.getLogger().handlers:  # "[shard 3 game 42] " on a game's lines
        logcontext.install(handler)
    quiet_voice_notices()
    try:
        if args.command == "sync":
            return asyncio.run(_sync(settings, args.guild))
        from bot.assembly import assemble
        from bot.store.schema import schema_status

        # Read the database before Discord is contacted: a wrong path or a server that is down
        # is told at once, not after the login and the worker processes' start.
        asyncio.run(schema_status(settings.database_url or os.fspath(settings.database_path)))
        bot = assemble(settings)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: the bot closes, as Client.run does
            eventloop.run(_serve(bot, settings.token), loop=settings.event_loop)
    except discord.LoginFailure:
        print("error: Discord refused the token (DISCORD_TOKEN); reset it on the Bot page of the "
              "developer portal and put the new one in the environment or .env", file=sys.stderr)
        return 2
    except StoreError as exc:  # the database cannot be opened (setup, before the first event)
        print(f"error: {_database_failure(exc, settings)}", file=sys.stderr)
        return 2
    except UNREACHABLE as exc:
        if isinstance(exc, OSError) and exc.filename:  # a file of the bot's, not the network
            print(f"error: {_database_failure(exc, settings)}", file=sys.stderr)
        else:
            print(_unreachable(exc), file=sys.stderr)
        return 2
    return 0


def _database_failure(exc: BaseException, settings: Settings) -> str:
    """One sentence on why the bot could not open its database, and what to do."""
    from bot.store.target import unusable_message

    target = settings.database_url or os.fspath(settings.database_path)
    return unusable_message(exc, target) or (sentence(exc) if isinstance(exc, StoreError) else str(exc))


if __name__ == "__main__":
    raise SystemExit(main())
