"""Which failures of a request to Discord a delivery tries again, and the nonces that keep a
post sent twice (after a cut connection, or a stop) a single message."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import aiohttp
import discord

from bot.discord_ui.delivery import fixed_nonce, passing
from bot.discord_ui.hands import hand_nonce


def http_error(status: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="no"), "no")


def test_a_cut_connection_passes_and_a_refusal_does_not():
    """Another try later for what may pass (a 429, a server error, a connection reset, refused
    or timed out); none for what Discord refused (a 4xx), nor for a fault of the bot's own."""
    for failure in (http_error(429), http_error(500), http_error(503), aiohttp.ServerDisconnectedError(),
                    aiohttp.ClientConnectorError(SimpleNamespace(ssl=None, host="d", port=443),
                                                 OSError(111, "refused")),
                    ConnectionResetError(), TimeoutError()):
        assert passing(failure), failure
    for failure in (http_error(400), http_error(403), http_error(404), ValueError("a bug"), KeyError("x")):
        assert not passing(failure), failure


def test_a_fixed_nonce_is_short_stable_and_names_its_message():
    assert fixed_nonce("ht", 1, 2) == fixed_nonce("ht", 1, 2)
    assert len({fixed_nonce("ht", 1, 2), fixed_nonce("ht", 1, 3), fixed_nonce("ha", 1, 2)}) == 3
    assert len(fixed_nonce("ha", 10**12, 7, 10**6, None, 10**4)) <= 25  # Discord's limit
    # a hand's nonce is what it was before the kit held it: a start after an upgrade finds its DM
    assert hand_nonce(12, 1, 345) == "hh" + hashlib.blake2b(b"12.1.345", digest_size=10).hexdigest()
