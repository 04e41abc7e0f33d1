"""Signed-in pages: a session binds a random token to the Discord user that Discord confirmed,
and expires. Kept in memory: a page whose session is gone (expired, or the bot restarted) signs
in again, silently, through the SDK."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SESSION_SECONDS = 3600.0
"""A session's life from its sign-in; the page signs in again when it ends."""
SESSIONS_PER_USER = 8
"""At most this many live sessions per user (pages, devices): the oldest goes first."""


@dataclass(eq=False)
class Session:
    token: str
    user_id: int
    name: str
    language: str
    expires: float
    sockets: set[Any] = field(default_factory=set)  # the open pages signed in with it


class Sessions:
    """Every live session of this process, by token."""

    def __init__(self, lifetime: float = SESSION_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = lifetime
        self.clock = clock
        self._by_token: dict[str, Session] = {}
        self._by_user: dict[int, list[Session]] = {}

    def __len__(self) -> int:
        return len(self._by_token)

    def create(self, user_id: int, name: str, language: str) -> Session:
        self._sweep()
        session = Session(secrets.token_urlsafe(32), user_id, name, language, self.clock() + self.lifetime)
        self._by_token[session.token] = session
        mine = self._by_user.setdefault(user_id, [])
        mine.append(session)
        while len(mine) > SESSIONS_PER_USER:
            self.revoke(mine[0])
        return session

    def get(self, token: str) -> Session | None:
        """The live session of ``token`` (None: unknown or expired, and then forgotten)."""
        session = self._by_token.get(token)
        if session is not None and self.expired(session):
            self.revoke(session)
            return None
        return session

    def expired(self, session: Session) -> bool:
        return self.clock() >= session.expires

    def revoke(self, session: Session) -> None:
        """End a session: its token stops working (its sockets are closed by their owner)."""
        self._by_token.pop(session.token, None)
        mine = self._by_user.get(session.user_id, [])
        if session in mine:
            mine.remove(session)
        if not mine:
            self._by_user.pop(session.user_id, None)

    def _sweep(self) -> None:
        """Forget expired sessions, so the map holds only live ones."""
        now = self.clock()
        for session in [s for s in self._by_token.values() if now >= s.expires]:
            self.revoke(session)


TICKET_SECONDS = 30.0
"""How long a ticket a process wrote may open a socket at the owner of the page's table."""


def write_ticket(secret: str, fields: dict[str, Any], now: float) -> str:
    """What one process of a sharded bot tells the process that drives a page's table when it
    passes the page's socket on: the session and instance it checked, signed with the secret
    every process holds (the client secret), so a page cannot write one."""
    body = base64.urlsafe_b64encode(json.dumps({**fields, "exp": now + TICKET_SECONDS},
                                               separators=(",", ":")).encode()).decode()
    return body + "." + hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()


def read_ticket(secret: str, ticket: str, now: float) -> dict[str, Any] | None:
    """The fields of a ticket this secret signed and that has not expired; else None."""
    body, _, mac = ticket.partition(".")
    wanted = hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()
    if not secret or not hmac.compare_digest(mac, wanted):
        return None
    try:
        fields = json.loads(base64.urlsafe_b64decode(body.encode()))
    except ValueError:
        return None
    if not isinstance(fields, dict) or not isinstance(fields.get("exp"), int | float) or now >= fields["exp"]:
        return None
    return fields
