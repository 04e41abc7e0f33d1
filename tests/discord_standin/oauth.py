"""The OAuth2 side of the stand-in, for an Activity's sign-in, and the Activity instances.

An Activity signs in with the Embedded App SDK: Discord's client answers ``authorize`` with a
code (:meth:`OAuth.authorize` plays that part), the app's server exchanges the code at the
token URL with its client secret, then calls the API as the user with ``Bearer`` tokens. The
spec has no operation for the token URL: it names it in its OAuth2 security scheme, with the
flows and the scopes there are, and that is what a request is checked against here. Every API
call with a bearer token must be one whose operation the spec opens to OAuth2, with the scopes
it names; every answer here is checked against the spec's response schema.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import web

from .rest import Call, discord_error, json_response
from .spec import Operation, SpecIndex

if TYPE_CHECKING:
    from .server import RequestLog, StandIn
    from .state import Channel, InteractionRecord, User

TOKEN_SECONDS = 604800  # Discord's access tokens last a week
GRANTS = {"authorizationCode": "authorization_code", "clientCredentials": "client_credentials"}


@dataclass
class Grant:
    """A code or a token: whose it is and the scopes it holds."""

    user: User
    scopes: frozenset[str]
    issued: float = field(default_factory=time.monotonic)


@dataclass
class ActivityInstance:
    instance_id: str
    channel: Channel
    users: set[int]


class OAuth:
    """Codes, tokens and Activity instances of one stand-in, and the spec's OAuth2 scheme."""

    def __init__(self, standin: StandIn, spec: SpecIndex) -> None:
        self.standin = standin
        scheme = spec.document["components"]["securitySchemes"]["OAuth2"]
        self.flows: dict[str, Any] = scheme["flows"]
        token_url = self.flows["authorizationCode"]["tokenUrl"]
        # The spec's token URL is https://discord.com/api/oauth2/token; Discord serves it under
        # every API version too, and discord.py's base (what the bot is aimed at) has one.
        self.token_path = urlsplit(token_url).path.removeprefix("/api")
        self.client_secret = secrets.token_urlsafe(24)
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.instances: dict[str, ActivityInstance] = {}
        self.launches: dict[int, str] = {}  # interaction id -> the instance its answer launched
        self.exchanges = 0  # token requests answered 200

    # -- what Discord's client does for a test ----------------------------------------------
    def authorize(self, user: User, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code Discord's client gives the SDK's ``authorize`` for ``user`` (one use)."""
        known = self.flows["authorizationCode"]["scopes"]
        unknown = [s for s in scopes if s not in known]
        if unknown:
            raise ValueError(f"scopes {unknown} are not in the spec's OAuth2 scopes")
        code = secrets.token_urlsafe(20)
        self.codes[code] = Grant(user, frozenset(scopes))
        return code

    def open_activity(self, channel: Channel, *users: User) -> str:
        """Launch an Activity in ``channel`` with ``users`` in it: its instance id."""
        instance_id = f"i-{self.standin.ids.next()}-gc-{channel.guild.id if channel.guild else 0}-{channel.id}"
        self.instances[instance_id] = ActivityInstance(instance_id, channel, {u.id for u in users})
        return instance_id

    def join_activity(self, instance_id: str, user: User) -> None:
        self.instances[instance_id].users.add(user.id)

    def launch(self, record: InteractionRecord) -> str:
        """What Discord's client does on a LAUNCH_ACTIVITY answer: the presser joins the
        Activity running in the interaction's channel, or opens one there; recorded in
        ``launches`` by interaction id."""
        found = next((i for i in self.instances.values() if i.channel is record.channel), None)
        if found is None:
            instance_id = self.open_activity(record.channel, record.user)
        else:
            instance_id = found.instance_id
            found.users.add(record.user.id)
        self.launches[record.id] = instance_id
        return instance_id

    # -- HTTP -------------------------------------------------------------------------------
    async def token(self, request: web.Request, log: RequestLog) -> web.Response:
        """The token URL: a form with the client's credentials and the code, RFC 6749 4.1.3."""
        call = Call("POST", log.path, self.token_path, {}, dict(request.query))
        if request.content_type != "application/x-www-form-urlencoded":
            self.standin.violation("invalid-body", call, f"token request sent as {request.content_type!r}")
            return _oauth_error(400, "invalid_request", "the body must be form-encoded")
        form = dict(await request.post())
        log.body = {k: ("<secret>" if k == "client_secret" else v) for k, v in form.items()}
        grants = {GRANTS[name] for name in self.flows if name in GRANTS}
        if form.get("grant_type") not in grants:
            self.standin.violation("invalid-body", call, f"grant_type {form.get('grant_type')!r}")
            return _oauth_error(400, "unsupported_grant_type", "unsupported grant type")
        if form.get("client_id") != str(self.standin.application_id) \
                or form.get("client_secret") != self.client_secret:
            return _oauth_error(401, "invalid_client", "the client id or secret is wrong")
        grant = self.codes.pop(str(form.get("code", "")), None)
        if grant is None:  # unknown, or used before: a code works once
            return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        token = secrets.token_urlsafe(24)
        self.tokens[token] = grant
        self.exchanges += 1
        return json_response({"access_token": token, "token_type": "Bearer",
                              "expires_in": TOKEN_SECONDS, "refresh_token": secrets.token_urlsafe(24),
                              "scope": " ".join(sorted(grant.scopes))})

    def bearer(self, call: Call, op: Operation, authorization: str) -> Grant | web.Response:
        """The grant of a ``Bearer`` call, if the spec opens the operation to OAuth2 with
        scopes the token holds; else Discord's 401 or 403."""
        grant = self.tokens.get(authorization.removeprefix("Bearer "))
        if grant is None:
            self.standin.violation("unauthorized", call, "unknown bearer token")
            return discord_error(401, 0, "401: Unauthorized")
        security = self.standin.spec.document["paths"][op.template][op.method.lower()].get("security", [])
        needed = [set(entry["OAuth2"]) for entry in security if "OAuth2" in entry]
        if not needed:
            self.standin.violation("unauthorized", call, "the spec does not open this route to OAuth2")
            return discord_error(401, 0, "401: Unauthorized")
        if not any(scopes <= grant.scopes for scopes in needed):
            return discord_error(403, 50001, "Missing Access")
        return grant

    def me(self, grant: Grant) -> dict[str, Any]:
        """``GET /users/@me`` as the user a token belongs to (the spec's UserPIIResponse)."""
        user = grant.user
        return {**user.payload(), "flags": 0, "mfa_enabled": False, "locale": user.locale,
                "premium_type": 0, "verified": True}

    def instance(self, call: Call) -> web.Response:
        """``GET /applications/{application_id}/activity-instances/{instance_id}``."""
        found = self.instances.get(call.params["instance_id"])
        if found is None or call.params["application_id"] != str(self.standin.application_id):
            return discord_error(404, 10012, "Unknown Application")
        channel = found.channel
        location: dict[str, Any] = {"id": f"{'gc' if channel.guild else 'pc'}-{channel.id}",
                                    "kind": "gc" if channel.guild else "pc",
                                    "channel_id": str(channel.id)}
        if channel.guild is not None:
            location["guild_id"] = str(channel.guild.id)
        return json_response({"application_id": str(self.standin.application_id),
                              "instance_id": found.instance_id, "launch_id": found.instance_id,
                              "location": location, "users": [str(u) for u in sorted(found.users)]})


def _oauth_error(status: int, error: str, description: str) -> web.Response:
    """RFC 6749's error answer, as Discord gives it at the token URL."""
    return json_response({"error": error, "error_description": description}, status)
