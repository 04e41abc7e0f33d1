"""What an operator sees: /metrics counts the moves, acknowledgements, images, 429s and database
failures of a bot playing in the stand-in, and /healthz says whether it can serve."""

from __future__ import annotations

import logging

import aiohttp

from bot import metrics
from bot.config import load_settings
from bot.metrics import MetricsServer
from bot.store.errors import StoreUnavailable
from tests.e2e.playing import controls, hand_message, table_posted
from tests.e2e.test_koikoi_bot import hbot  # noqa: F401  (the bot fixture)


def sample(text: str, name: str, labels: str = "") -> float:
    """The value of one sample in Prometheus' text format (0 when absent)."""
    prefix = f"{name}{{{labels}}} " if labels else f"{name} "
    return next((float(line.split()[-1]) for line in text.splitlines() if line.startswith(prefix)), 0.0)


async def scrape(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def test_metrics_count_a_table_at_play_and_health_says_ok(hbot, standin, world):  # noqa: F811
    server = MetricsServer(hbot, 0)
    await server.start()
    try:
        _, before = await scrape(server.port, "/metrics")
        await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
        await table_posted(standin, world.channel)
        msg = await standin.wait_for(lambda: hand_message(standin, world.admin), "the admin's moves")
        await world.admin.click(msg, controls(msg)[0])
        def counted() -> bool:  # the press acknowledged, then its move stored
            now = metrics.generate_latest(metrics.REGISTRY).decode()
            return (sample(now, "hanafuda_ack_seconds_count") > sample(before, "hanafuda_ack_seconds_count")
                    and sample(now, "hanafuda_actions_total", 'game="koikoi"')
                    > sample(before, "hanafuda_actions_total", 'game="koikoi"'))

        await standin.wait_for(counted, "the press and its move counted")
        status, text = await scrape(server.port, "/metrics")
        assert status == 200
        assert sample(text, "hanafuda_tables_running", 'game="koikoi"') == 1
        assert sample(text, "hanafuda_actions_total", 'game="koikoi"') > \
            sample(before, "hanafuda_actions_total", 'game="koikoi"')
        assert sample(text, "hanafuda_render_seconds_count") > sample(before, "hanafuda_render_seconds_count")
        assert "hanafuda_gateway_latency_seconds" in text
        assert await scrape(server.port, "/healthz") == (200, "ok\n")

        logging.getLogger("discord.http").warning(  # discord.py's own words for a 429
            "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
            "PATCH", "/channels/1/messages/2", 0.5)
        # corruption never heals by itself while the bot runs: the check keeps saying so
        hbot.store._db.health.failed("write", StoreUnavailable("corrupt", "malformed"))
        _, after = await scrape(server.port, "/metrics")
        assert sample(after, "hanafuda_discord_rate_limited_total") == \
            sample(text, "hanafuda_discord_rate_limited_total") + 1
        assert sample(after, "hanafuda_db_errors_total", 'problem="corrupt"') >= 1
        status, why = await scrape(server.port, "/healthz")
        assert status == 503 and "database" in why
    finally:
        await server.close()


def test_the_metrics_port_is_off_unless_set_and_checked():
    assert load_settings(env={"DISCORD_TOKEN": ""}, require_token=False, dotenv=None).metrics_port is None
    on = load_settings(env={"METRICS_PORT": "9102"}, require_token=False, dotenv=None)
    assert on.metrics_port == 9102 and on.metrics_host == "127.0.0.1"
    for bad in ("http", "0", "70000"):
        try:
            load_settings(env={"METRICS_PORT": bad}, require_token=False, dotenv=None)
        except Exception as exc:
            assert "METRICS_PORT" in str(exc)
        else:
            raise AssertionError(f"METRICS_PORT={bad} was accepted")
