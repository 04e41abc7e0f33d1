"""Bot settings from the environment or a ``.env`` file (see ``.env.example``)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot import eventloop
from bot.shards import ShardPlan, parse_shards
from bot.store.target import TargetError, parse_target
from bot.words import plural

# Discord bot tokens are three base64url segments joined by dots: the bot's id (18 characters or
# more), a timestamp and an HMAC (together about 70 characters).
_FOREIGN = re.compile(r"[^A-Za-z0-9_.-]")
_SEGMENT_MIN = (18, 4, 20)
_TOKEN_MIN = sum(_SEGMENT_MIN) + 2
_AGAIN = "copy it again from the Bot page of the Discord developer portal"
_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
MAX_WORKERS = 64


def cpu_count() -> int:
    """CPUs this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


DEFAULT_NICENESS = 5
"""How much lower than the bot's own the workers' CPU priority is (Unix nice): acks come first."""


DEFAULT_GRACE_DAYS = 30.0
"""How long a server that removed the bot keeps its data before it is purged."""
DEFAULT_BACKUP_KEEP = 7
"""How many scheduled backups are kept (the oldest beyond are removed)."""


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    database_url: str | None = None  # PostgreSQL (postgresql://...): used instead of the file
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    cjk_font: Path | None = None
    render_workers: int = field(default_factory=cpu_count)
    ai_workers: int = field(default_factory=lambda: max(1, cpu_count() - 1))
    worker_niceness: int = DEFAULT_NICENESS
    metrics_port: int | None = None  # Prometheus /metrics and /healthz; off unless set
    metrics_host: str = "127.0.0.1"
    shards: ShardPlan = field(default_factory=ShardPlan)  # the shards this process runs
    event_loop: str = field(default_factory=eventloop.default)  # "uvloop" or "asyncio"
    departed_grace_days: float = DEFAULT_GRACE_DAYS  # a removed server's data is kept this long
    backup_interval_hours: float | None = None  # scheduled backups; off unless set
    backup_keep: int = DEFAULT_BACKUP_KEEP
    backup_dir: Path = Path("data/backups")
    activity_port: int | None = None  # the Activity's web server (bot.activity); off unless set
    activity_host: str = "127.0.0.1"
    client_secret: str = ""  # the OAuth2 client secret the Activity's sign-in needs
    # The coach's rollouts per candidate move (None: bot.ai.coach's budgets); tests make them small.
    review_rollouts: int | None = None
    hint_rollouts: int | None = None


def _int(name: str, raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a Discord id (a whole number), got {raw!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be a positive Discord id, got {raw!r}")
    return value


def _workers(name: str, raw: str, default: int) -> int:
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of worker processes (a whole number), "
                          f"got {raw!r}") from None
    if not 1 <= value <= MAX_WORKERS:
        raise ConfigError(f"{name} must be between 1 and {MAX_WORKERS} worker processes, "
                          f"got {raw!r}")
    return value


def _niceness(raw: str) -> int:
    if not raw:
        return DEFAULT_NICENESS
    if not raw.isdigit() or int(raw) > 19:
        raise ConfigError(f"WORKER_NICENESS must be a whole number from 0 (the bot's own CPU "
                          f"priority) to 19 (the lowest), got {raw!r}")
    return int(raw)


def check_token(token: str) -> None:
    """Refuse what cannot be a bot token, naming what is wrong with it (one sentence)."""
    if token.lower().startswith("bot "):
        raise ConfigError(f"DISCORD_TOKEN starts with 'Bot ': put the token alone, without that word ({_AGAIN})")
    if _FOREIGN.search(token):
        raise ConfigError("DISCORD_TOKEN contains characters a bot token never has (only letters, digits, "
                          f"'-', '_' and two dots): {_AGAIN}")
    parts = token.split(".")
    if len(parts) != 3:
        raise ConfigError(f"DISCORD_TOKEN has {plural(len(parts), 'dot-separated part')} where a bot token "
                          f"has three: {_AGAIN}")
    if len(token) < _TOKEN_MIN:
        raise ConfigError(f"DISCORD_TOKEN is too short to be a bot token ({plural(len(token), 'character')}, "
                          f"where a bot token has at least {_TOKEN_MIN}, usually about 70): {_AGAIN}")
    for place, part, low in zip(("first", "second", "third"), parts, _SEGMENT_MIN, strict=True):
        if len(part) < low:
            raise ConfigError(f"The {place} part of DISCORD_TOKEN is too short for a bot token "
                              f"({plural(len(part), 'character')}, where it has at least {low}): {_AGAIN}")


def _number(name: str, raw: str, default: float | None, low: float, high: float,
            what: str) -> float | None:
    """A setting that is a number of days or hours from ``low`` to ``high`` (empty: default)."""
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:  # also refuses nan and inf
        raise ConfigError(f"{name} must be a number of {what} from {low:g} to {high:g}, got {raw!r}")
    return value


def _backup_keep(raw: str) -> int:
    if not raw:
        return DEFAULT_BACKUP_KEEP
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ConfigError(f"BACKUP_KEEP must be how many backups to keep, a whole number from 1 "
                          f"to 1000, got {raw!r}")
    return int(raw)


def _database(values: Mapping[str, str]) -> tuple[Path, str | None]:
    """The SQLite file and the PostgreSQL URL (or None) of DATABASE_URL, else DATABASE_PATH, each
    read as every entry point reads a database (:func:`bot.store.target.parse_target`)."""
    path = Path(__file__).resolve().parent.parent / "data" / "hanafuda.sqlite3"
    url = None
    for name in ("DATABASE_PATH", "DATABASE_URL"):  # the URL, set, wins over the path
        raw = values.get(name, "").strip()
        if not raw:
            continue
        try:
            target = parse_target(raw, name)
        except TargetError as exc:
            raise ConfigError(str(exc)) from None
        if target.is_postgres:
            url = target.location
        else:
            path, url = Path(target.location), None
    return path, url


def _activity(values: Mapping[str, str]) -> tuple[int | None, str]:
    """ACTIVITY_PORT and the DISCORD_CLIENT_SECRET it needs (the Activity is off without a port)."""
    port = values.get("ACTIVITY_PORT", "").strip()
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    if not port:
        return None, secret
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"ACTIVITY_PORT must be a port number from 1 to 65535, got {port!r}")
    if not secret:
        raise ConfigError("ACTIVITY_PORT is set but DISCORD_CLIENT_SECRET is not: copy the client "
                          "secret from the OAuth2 page of the Discord developer portal")
    return int(port), secret


def shard_plan(shards: str, count: str) -> ShardPlan:
    """SHARDS (``0-3``, ``0,2,4-5``; empty: every shard) of SHARD_COUNT, checked."""
    shards, count = shards.strip(), count.strip()
    if count and not count.isdigit():
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, got {count!r}")
    if shards and not count:
        raise ConfigError("SHARDS needs SHARD_COUNT, the number of shards of the whole bot "
                          "(every process of the bot sets the same count)")
    try:
        return ShardPlan(parse_shards(shards) if shards else None, int(count) if count else None)
    except ValueError as exc:
        raise ConfigError(f"SHARDS/SHARD_COUNT: {exc}") from None


def load_settings(env: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env",
                  require_token: bool = True) -> Settings:
    """Read the settings; the process environment wins over the ``.env`` file."""
    values: dict[str, str] = {}
    if dotenv is not None and Path(dotenv).is_file():
        values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
    values.update(os.environ if env is None else env)
    token = values.get("DISCORD_TOKEN", "").strip()
    if require_token:
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put the bot token from the Discord "
                              "developer portal in the environment or in .env (see .env.example)")
        check_token(token)
    dev = values.get("DEV_GUILD_ID", "").strip()
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in _LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, got {level!r}")
    font = values.get("CJK_FONT", "").strip()
    if font and not Path(font).is_file():
        raise ConfigError(f"CJK_FONT points to {font!r}, which is not a file")
    database_path, url = _database(values)
    metrics_port = values.get("METRICS_PORT", "").strip()
    if metrics_port and (not metrics_port.isdigit() or not 1 <= int(metrics_port) <= 65535):
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535, got {metrics_port!r}")
    shards = shard_plan(values.get("SHARDS", ""), values.get("SHARD_COUNT", ""))
    activity_port, client_secret = _activity(values)
    if not shards.whole and not url:
        raise ConfigError(f"{shards.describe()} shares the bot with other processes, which need "
                          "one database they all reach: set DATABASE_URL to a PostgreSQL database")
    loop = values.get("EVENT_LOOP", "").strip().lower() or eventloop.default()
    if loop not in eventloop.LOOPS:
        raise ConfigError(f"EVENT_LOOP must be one of {', '.join(eventloop.LOOPS)}, got {loop!r}")
    if not eventloop.available(loop):
        raise ConfigError(f"EVENT_LOOP is {loop}, which is not installed (pip install {loop})")
    cpus = cpu_count()
    backups = values.get("BACKUP_DIR", "").strip()
    return Settings(
        token=token,
        database_path=database_path,
        database_url=url or None,
        metrics_port=int(metrics_port) if metrics_port else None,
        metrics_host=values.get("METRICS_HOST", "").strip() or "127.0.0.1",
        shards=shards,
        event_loop=loop,
        dev_guild_id=_int("DEV_GUILD_ID", dev) if dev else None,
        log_level=level,
        cjk_font=Path(font) if font else None,
        render_workers=_workers("RENDER_WORKERS", values.get("RENDER_WORKERS", "").strip(), cpus),
        ai_workers=_workers("AI_WORKERS", values.get("AI_WORKERS", "").strip(),
                            max(1, cpus - 1)),
        worker_niceness=_niceness(values.get("WORKER_NICENESS", "").strip()),
        departed_grace_days=_number("DEPARTED_GRACE_DAYS", values.get("DEPARTED_GRACE_DAYS", "").strip(),
                                    DEFAULT_GRACE_DAYS, 0, 3650, "days"),
        backup_interval_hours=_number("BACKUP_INTERVAL_HOURS",
                                      values.get("BACKUP_INTERVAL_HOURS", "").strip(), None,
                                      0.25, 24 * 366, "hours"),
        backup_keep=_backup_keep(values.get("BACKUP_KEEP", "").strip()),
        backup_dir=Path(backups) if backups else database_path.parent / "backups",
        activity_port=activity_port,
        activity_host=values.get("ACTIVITY_HOST", "").strip() or "127.0.0.1",
        client_secret=client_secret,
    )
