"""Discord's rate limits and interaction deadlines, as the stand-in enforces them.

Discord answers every bucketed request with its bucket's state (X-RateLimit-Limit, -Remaining,
-Reset, -Reset-After, -Bucket) so clients can wait before overflowing, and refuses an overflow
with 429 and a JSON body {message, retry_after, global}. There is a global limit per bot token
(50 requests/s; interaction callbacks and interaction webhooks are exempt) and per-route buckets
keyed by the route and its major parameter (channel, guild or webhook). Each `StandIn` has its
own `RateLimits`, with Discord's values as defaults, so a test may tighten or loosen them.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass, field

# Requests outside the global limit: interaction callbacks and interaction webhooks (followups).
GLOBAL_EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
MAJOR_PARAMS = ("channel_id", "guild_id", "webhook_id")


@dataclass(frozen=True)
class RouteLimit:
    """`limit` requests per `per` seconds for each major parameter value of a route."""

    limit: int
    per: float


# Discord's per-channel message bucket: 5 per 5 s for creating, editing and deleting messages.
MESSAGE_BUCKET = RouteLimit(5, 5.0)
DEFAULT_ROUTE_LIMITS = {
    ("POST", "/channels/{channel_id}/messages"): MESSAGE_BUCKET,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): MESSAGE_BUCKET,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): MESSAGE_BUCKET,
}
# Routes not listed above: a bucket Discord would not make a careful bot hit.
OTHER_ROUTES = RouteLimit(50, 1.0)


@dataclass
class Bucket:
    """A fixed window: the first request opens it, `per` seconds later it refills."""

    limit: int
    per: float
    remaining: int = 0
    resets_at: float = 0.0
    opened_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.resets_at:
            self.remaining, self.resets_at, self.opened_at = self.limit, now + self.per, now
        if self.remaining == 0:
            return False
        self.remaining -= 1
        return True


@dataclass
class Verdict:
    """What the limiter says about one request: allowed or not, and the headers to send."""

    allowed: bool = True
    scope: str | None = None  # "global" or "user" when refused
    retry_after: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    window_opened: float = 0.0  # when the refusing bucket's window opened


@dataclass
class RateLimits:
    """The limits one stand-in enforces; `enabled=False` turns them all off."""

    global_per_second: int = 50
    routes: dict[tuple[str, str], RouteLimit] = field(
        default_factory=lambda: dict(DEFAULT_ROUTE_LIMITS)
    )
    other_routes: RouteLimit = OTHER_ROUTES
    enabled: bool = True
    _buckets: dict[tuple[str, str, str], Bucket] = field(default_factory=dict)
    _recent: deque[float] = field(default_factory=deque)  # admitted global-limited requests

    @staticmethod
    def counts_globally(path: str) -> bool:
        return not path.startswith(GLOBAL_EXEMPT_PREFIXES)

    @staticmethod
    def bucket_hash(method: str, template: str) -> str:
        return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]

    def check(
        self, method: str, path: str, template: str, params: dict[str, str], now: float, wall: float
    ) -> Verdict:
        """Admit or refuse one request at monotonic time `now` (`wall`: epoch seconds)."""
        if not self.enabled or template.startswith("/interactions/"):
            return Verdict()
        counted = self.counts_globally(path)
        if counted:
            while self._recent and self._recent[0] <= now - 1.0:
                self._recent.popleft()
            if len(self._recent) >= self.global_per_second:
                wait = self._recent[0] + 1.0 - now
                return Verdict(False, "global", wait, {"X-RateLimit-Global": "true"})
        rule = self.routes.get((method, template), self.other_routes)
        major = next((params[p] for p in MAJOR_PARAMS if p in params), "")
        if major and template.startswith("/webhooks/"):
            major += "/" + params.get("webhook_token", "")
        key = (method, template, major)
        bucket = self._buckets.setdefault(key, Bucket(rule.limit, rule.per))
        allowed = bucket.take(now)
        reset_after = max(bucket.resets_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.remaining),
            "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.bucket_hash(method, template),
        }
        if not allowed:
            return Verdict(False, "user", reset_after, headers, bucket.opened_at)
        if counted:
            self._recent.append(now)
        return Verdict(True, None, 0.0, headers)


def peak_in_window(times: list[float], window: float = 1.0) -> int:
    """The most of `times` (sorted) that fall in any half-open interval of `window` seconds."""
    best = 0
    for end, at in enumerate(times):
        start = bisect_left(times, at - window + 1e-9, 0, end + 1)
        best = max(best, end - start + 1)
    return best
