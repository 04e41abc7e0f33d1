"""What an operator watches: Prometheus metrics and a health check, served on ``METRICS_PORT``
(off unless set) at ``/metrics`` and ``/healthz``.

The counters and histograms are module-level and always counted (an increment costs well under a
microsecond); the endpoint only exposes them. Tables running per game and the gateway latency are
read when Prometheus scrapes, from the bot itself.
"""

from __future__ import annotations

import logging
import time
from collections import Counter as Tally
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.store.health import failure_listeners

__all__ = ["ACK", "ACTIONS", "DB_ERRORS", "DELIVERIES_RETRIED", "RATE_LIMITED", "REGISTRY", "RENDER",
           "MetricsServer", "acknowledged", "count_rate_limits", "rendering"]

REGISTRY = CollectorRegistry()

ACTIONS = Counter("hanafuda_actions", "Moves stored (players', AI's and timed-out), by game",
                  ["game"], registry=REGISTRY)
ACK = Histogram("hanafuda_ack_seconds",
                "From a move's press or a game's start being created on Discord to the bot's acknowledgement",
                buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2, 3, 5),
                registry=REGISTRY)
RENDER = Histogram("hanafuda_render_seconds", "Drawing one image in the worker processes",
                   buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2), registry=REGISTRY)
RATE_LIMITED = Counter("hanafuda_discord_rate_limited",
                       "Discord REST requests answered 429 (rate limited)", registry=REGISTRY)
DB_ERRORS = Counter("hanafuda_db_errors", "Requests the database could not serve, by problem",
                    ["problem"], registry=REGISTRY)
DELIVERIES_RETRIED = Counter("hanafuda_deliveries_retried",
                             "Deliveries to Discord (a table, a hand, a summary, an alert, a lobby's "
                             "message) tried again after a passing failure", registry=REGISTRY)


failure_listeners.append(lambda kind, problem: DB_ERRORS.labels(problem).inc())


def acknowledged(interaction: Any) -> None:
    """Count one acknowledgement: its delay since Discord created the interaction."""
    created = getattr(interaction, "created_at", None)
    if created is not None:
        ACK.observe(max(0.0, time.time() - created.timestamp()))


@contextmanager
def rendering() -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        RENDER.observe(time.perf_counter() - start)


class _RateLimitCounter(logging.Filter):
    """Counts discord.py's own line for every 429 it receives (it retries them itself)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "responded with 429" in str(record.msg):
            RATE_LIMITED.inc()
        return True


_RATE_LIMITS = _RateLimitCounter()


def count_rate_limits() -> None:
    """Watch discord.py's HTTP log for 429s (once per process)."""
    logger = logging.getLogger("discord.http")
    if _RATE_LIMITS not in logger.filters:
        logger.addFilter(_RATE_LIMITS)


class _Live(Collector):
    """Read at each scrape: the tables running per game, the shards and their gateway latency."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily("hanafuda_tables_running", "Tables being played, by game",
                                   labels=["game"])
        manager = getattr(self.bot, "tables", None)
        counts = Tally(t.game for t in getattr(manager, "tables", {}).values() if not t.finished)
        for game, count in sorted(counts.items()):
            tables.add_metric([game], count)
        yield tables
        latency = GaugeMetricFamily("hanafuda_gateway_latency_seconds",
                                    "Heartbeat latency of each shard's gateway connection",
                                    labels=["shard"])
        for shard, seconds in _latencies(self.bot):
            if seconds == seconds and seconds != float("inf"):  # not yet measured: NaN or inf
                latency.add_metric([str(shard)], seconds)
        yield latency


def _latencies(bot: Any) -> list[tuple[int, float]]:
    latencies = getattr(bot, "latencies", None)
    if latencies is not None:  # an AutoShardedClient
        return list(latencies)
    return [(getattr(bot, "shard_id", None) or 0, getattr(bot, "latency", float("nan")))]


class MetricsServer:
    """``/metrics`` (Prometheus text format) and ``/healthz`` (200 when connected to Discord and
    the database works, else 503 with the reason) on ``host:port``."""

    def __init__(self, bot: Any, port: int, host: str = "127.0.0.1") -> None:
        self.bot, self.port, self.host = bot, port, host
        self._runner: web.AppRunner | None = None
        self._live = _Live(bot)

    async def start(self) -> None:
        REGISTRY.register(self._live)
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._health)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port bound (port 0: any free one)
        count_rate_limits()

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            REGISTRY.unregister(self._live)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        problems = []
        if not self.bot.is_ready() or self.bot.is_closed():
            problems.append("not connected to Discord")
        store = getattr(self.bot, "store", None)
        if store is None:
            problems.append("no database")
        elif not store.healthy:
            problems.append("the database is failing")
        if problems:
            return web.Response(status=503, text="; ".join(problems) + "\n")
        return web.Response(text="ok\n")
