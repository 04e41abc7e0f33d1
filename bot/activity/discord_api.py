"""What the Activity asks Discord: the OAuth2 code exchange, who signed in, and who is in an
Activity instance. None of it is called per move: only when a page signs in or joins."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=10)
INSTANCE_SECONDS = 30.0
RATE_LIMIT_WAIT = 10.0
"""The longest a sign-in's call waits out Discord's rate limit in all, then gives up."""
"""How long an instance's participants are trusted before Discord is asked again (the players
of one instance join within seconds of each other: one call serves them all)."""


class DiscordRefused(Exception):
    """Discord did not confirm what was asked (a bad code, an unknown instance, an outage)."""

    def __init__(self, what: str, status: int = 0) -> None:
        super().__init__(f"{what} (HTTP {status})" if status else what)
        self.what, self.status = what, status


@dataclass(frozen=True, slots=True)
class Identity:
    """The user an access token belongs to, as Discord says."""

    user_id: int
    name: str
    locale: str


@dataclass(frozen=True, slots=True)
class Instance:
    """An Activity instance: the channel it runs in and the users in it."""

    instance_id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]
    fetched: float


def api_base() -> str:
    """Discord's REST base, read at each call (the tests aim discord.py at a stand-in)."""
    return discord.http.Route.BASE


class DiscordApi:
    """The three calls; ``bot`` gives the application id and its own REST client (bot token)."""

    def __init__(self, bot: Any, client_secret: str, *, clock=time.monotonic) -> None:
        self.bot = bot
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None
        self._instances: dict[str, Instance] = {}
        self.clock = clock

    @property
    def client_id(self) -> str:
        return str(self.bot.application_id)

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def exchange(self, code: str) -> tuple[str, int]:
        """The access token for an authorization ``code`` and its lifetime in seconds; the
        client secret goes to Discord alone."""
        form = {"client_id": self.client_id, "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        status, body = await self._call("POST", f"{api_base()}/oauth2/token", data=form)
        if status != 200 or not isinstance(body.get("access_token"), str):
            raise DiscordRefused("the code was not exchanged", status)
        if "identify" not in str(body.get("scope", "")).split():
            raise DiscordRefused("the token does not grant identify")
        return body["access_token"], int(body.get("expires_in") or 0)

    async def _call(self, method: str, url: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
        """One request as the user or the application, waiting out Discord's rate limit: many
        pages signing in at once (a busy evening, a restart) would otherwise be refused. It
        waits as long as Discord asks, up to :data:`RATE_LIMIT_WAIT` in all."""
        waited = 0.0
        while True:
            try:
                async with self._http().request(method, url, **kwargs) as response:
                    body = await _json(response)
                    if response.status != 429:
                        return response.status, body
                    wait = _retry_after(response, body)
            except aiohttp.ClientError as exc:
                raise DiscordRefused(f"Discord was not reached ({type(exc).__name__})") from None
            if waited + wait > RATE_LIMIT_WAIT:  # longer than a page should wait to sign in
                return 429, body
            waited += wait
            await asyncio.sleep(wait)

    async def identify(self, access_token: str) -> Identity:
        """Who ``access_token`` belongs to (``GET /users/@me`` as that user)."""
        headers = {"Authorization": f"Bearer {access_token}"}
        status, body = await self._call("GET", f"{api_base()}/users/@me", headers=headers)
        if status != 200 or not str(body.get("id", "")).isdigit():
            raise DiscordRefused("the user was not identified", status)
        name = body.get("global_name") or body.get("username") or str(body["id"])
        return Identity(int(body["id"]), str(name)[:80], str(body.get("locale") or ""))

    async def instance(self, instance_id: str, user_id: int) -> Instance:
        """Where an Activity instance runs and who is in it, asked with the bot's token (a
        page names its instance; only Discord says which channel that is and who may see it).
        A copy fetched moments ago serves, unless ``user_id`` joined since."""
        known = self._instances.get(instance_id)
        now = self.clock()
        if known is not None and now - known.fetched < INSTANCE_SECONDS and user_id in known.users:
            return known
        route = discord.http.Route("GET", "/applications/{application_id}/activity-instances/{instance_id}",
                                   application_id=self.client_id, instance_id=instance_id)
        waited, wait = 0.0, 0.25
        while True:
            try:
                data = await self.bot.http.request(route)
                break
            except discord.HTTPException as exc:
                # discord.py waits out a few 429s itself; pages joining by the hundred can
                # meet more, and are let in a moment later rather than turned away
                if exc.status != 429 or waited + wait > RATE_LIMIT_WAIT:
                    raise DiscordRefused("no such Activity instance", exc.status) from None
            await asyncio.sleep(wait)
            waited, wait = waited + wait, wait * 2
        try:
            location = data["location"]
            found = Instance(instance_id, int(location["channel_id"]),
                             int(location["guild_id"]) if location.get("guild_id") else None,
                             frozenset(int(u) for u in data.get("users", ())), now)
        except (KeyError, TypeError, ValueError):
            raise DiscordRefused("Discord described the instance in an unknown way") from None
        if len(self._instances) > 4096:  # forget the stale ones before the map grows further
            self._instances = {k: v for k, v in self._instances.items()
                               if now - v.fetched < INSTANCE_SECONDS}
        self._instances[instance_id] = found
        return found


def _retry_after(response: aiohttp.ClientResponse, body: dict[str, Any]) -> float:
    """Seconds Discord asks to wait before the request again (its body, else its header)."""
    for value in (body.get("retry_after"), response.headers.get("Retry-After")):
        try:
            return max(0.0, float(value))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
    return 1.0


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await response.json(content_type=None)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
