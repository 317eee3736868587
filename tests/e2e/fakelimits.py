"""Discord's limits for the loopback fake (``tests/e2e/fakediscord.py``): rate limits, invalid
requests, and the faults a test can schedule on the REST side.

Everything here runs on a :class:`Clock`: the monotonic time plus an offset a test may advance
(:meth:`Clock.advance`), so that a test can jump 15 minutes ahead instead of sleeping.

Rate limits, as Discord documents them (https://discord.com/developers/docs/topics/rate-limits):

* every route belongs to a bucket, and a bucket's count is kept per *major parameter* (the
  channel, the guild, or the webhook id with its token) in a fixed window that starts with the
  window's first request; each answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``
  (a unix time), ``-Reset-After`` (seconds) and ``-Bucket``;
* a request over its bucket's limit is answered 429 with ``retry_after`` (seconds), ``global``,
  ``message`` and ``code`` in the body and the headers ``Retry-After`` (whole seconds, rounded
  up) and ``X-RateLimit-Scope: user`` (``shared`` for a resource's own limit, see
  :meth:`RateLimits.share_limit`);
* all requests made with the bot's token count against the global limit of 50 a second; the
  interaction endpoints (callbacks, and the follow-up webhooks under an interaction's token) do
  not ("Interaction endpoints are not bound to the bot's Global Rate Limit"); over it the answer
  is a 429 with ``global: true``, ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``;
* 401, 403 and 429 answers (except those of scope ``shared``) are *invalid requests*; Discord
  bans an IP for a while after 10,000 of them in 10 minutes (:meth:`RateLimits.invalid_last`).

Discord names only the global limit in its documentation; the per-route values below are those
its headers show, taken on the strict side where they vary (:data:`ROUTE_BUCKETS`,
:data:`BUCKET_LIMITS`). Any of them can be changed per fake (``FakeDiscord(bucket_limits=...)``).
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass
from typing import Any


class Clock:
    """Monotonic seconds plus an offset that tests advance instead of sleeping; a frozen clock
    (:meth:`freeze`) moves only when advanced, for tests that count within a window."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.frozen: float | None = None

    def __call__(self) -> float:
        return self.frozen if self.frozen is not None else time.monotonic() + self.offset

    def wall(self) -> float:
        """Unix time on this clock (for ``X-RateLimit-Reset``)."""
        return time.time() + self() - time.monotonic()

    def advance(self, seconds: float) -> None:
        """Jump ahead: interactions age, buckets and fault stretches run out."""
        self.offset += seconds
        if self.frozen is not None:
            self.frozen += seconds

    def freeze(self) -> None:
        """Stop the clock (until :meth:`advance` moves it)."""
        self.frozen = self()


@dataclass(frozen=True)
class Limit:
    """``count`` requests per ``per`` seconds."""

    count: int
    per: float


#: The bucket of each route (method, path template as the fake routes it); every other route
#: of the API is in the bucket ``"default"``, per major parameter.
ROUTE_BUCKETS: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel}/messages"): "message-create",
    ("PATCH", "/channels/{channel}/messages/{message}"): "message-edit",
    ("DELETE", "/channels/{channel}/messages/{message}"): "message-delete",
    ("PUT", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me"): "reaction",
    ("DELETE", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me"): "reaction",
    ("POST", "/channels/{channel}/typing"): "typing",
    ("POST", "/interactions/{id}/{token}/callback"): "interaction-callback",
    ("POST", "/webhooks/{app}/{token}"): "webhook",
    ("GET", "/webhooks/{app}/{token}/messages/{message}"): "webhook",
    ("PATCH", "/webhooks/{app}/{token}/messages/{message}"): "webhook",
    ("DELETE", "/webhooks/{app}/{token}/messages/{message}"): "webhook",
}

#: Discord's limit of message sends per channel.
DISCORD_MESSAGE_SEND_LIMIT = Limit(5, 5.0)

#: Each bucket's limit: message sends 5 per 5 s per channel (`DISCORD_MESSAGE_SEND_LIMIT`),
#: edits 5 per 5 s per channel, deletes 5 a second,
#: a reaction every 0.25 s, a webhook (an interaction's follow-ups and edits) 5 per 2 s,
#: everything else 5 a second per major parameter.
BUCKET_LIMITS: dict[str, Limit] = {
    "message-create": DISCORD_MESSAGE_SEND_LIMIT,
    "message-edit": Limit(5, 5.0),
    "message-delete": Limit(5, 1.0),
    "reaction": Limit(1, 0.25),
    "typing": Limit(5, 5.0),
    "interaction-callback": Limit(5, 1.0),
    "webhook": Limit(5, 2.0),
    "default": Limit(5, 1.0),
}

GLOBAL_LIMIT = Limit(50, 1.0)
#: Paths (under ``/api/vN``) not bound to the global limit: the interaction endpoints.
GLOBAL_EXEMPT = ("/interactions/", "/webhooks/")
#: The route parameters that are major parameters, in Discord's order.
MAJOR_PARAMETERS = (("channel",), ("guild",), ("app", "token"), ("id", "token"))
INVALID_WINDOW_S = 600.0
#: Discord bans an IP temporarily after this many invalid requests in 10 minutes.
INVALID_BAN_THRESHOLD = 10_000
RATE_LIMITED_MESSAGE = "You are being rate limited."


@dataclass
class _Window:
    start: float
    count: int = 0


@dataclass
class Verdict:
    """What the limits say about one request: the headers of its answer and, if it may not
    be served, the 429 to answer instead (``status``, ``body``)."""

    headers: dict[str, str]
    status: int = 0
    body: dict[str, Any] | None = None
    scope: str | None = None


@dataclass
class Outage:
    """REST answers ``status`` from ``start`` to ``end`` (clock seconds) on paths starting with
    ``prefix`` (under ``/api/vN``; empty: every path)."""

    status: int
    start: float
    end: float
    prefix: str = ""


OUTAGE_MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


class RateLimits:
    """Buckets, the global limit, invalid requests and scheduled REST faults of one fake."""

    def __init__(
        self,
        clock: Clock,
        *,
        enabled: bool = True,
        bucket_limits: dict[str, Limit] | None = None,
        global_limit: Limit = GLOBAL_LIMIT,
    ) -> None:
        self.clock = clock
        self.enabled = enabled
        self.limits = {**BUCKET_LIMITS, **(bucket_limits or {})}
        self.global_limit = global_limit
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: _Window | None = None
        self._shared: dict[tuple[str, str], float] = {}  # (bucket, major) -> until
        self.outages: list[Outage] = []
        #: Every invalid request: (clock time, "METHOD path", status).
        self.invalid: deque[tuple[float, str, int]] = deque()
        #: Every 429 answered: ("METHOD path", scope, retry_after).
        self.rate_limited: list[tuple[str, str, float]] = []
        #: Every request that took the last request of its bucket's window ("METHOD path"):
        #: a client that keeps to the headers waits for the window's end before the next.
        self.exhausted: list[str] = []
        #: Every fault answered: ("METHOD path", status).
        self.faults: list[tuple[str, int]] = []

    # -- buckets -------------------------------------------------------------------------------

    @staticmethod
    def bucket_of(method: str, template: str) -> str:
        return ROUTE_BUCKETS.get((method, template), "default")

    @staticmethod
    def major(params: dict[str, str]) -> str:
        """The major parameter of a request (``""`` when it has none)."""
        for names in MAJOR_PARAMETERS:
            if all(n in params for n in names):
                return ":".join(params[n] for n in names)
        return ""

    def _window(self, key: tuple[str, str], limit: Limit, now: float) -> _Window:
        window = self._windows.get(key)
        if window is None or now >= window.start + limit.per:
            window = self._windows[key] = _Window(now)
        return window

    def _route_headers(self, bucket: str, window: _Window, limit: Limit, now: float) -> dict:
        reset_after = max(window.start + limit.per - now, 0.0)
        return {
            "X-RateLimit-Limit": str(limit.count),
            "X-RateLimit-Remaining": str(max(limit.count - window.count, 0)),
            "X-RateLimit-Reset": f"{self.clock.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    @staticmethod
    def _too_many(retry_after: float, *, is_global: bool, scope: str) -> tuple[dict, dict]:
        retry_after = round(max(retry_after, 0.001), 3)
        headers = {"Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": RATE_LIMITED_MESSAGE,
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        return headers, body

    def admit(self, method: str, template: str, path: str, params: dict[str, str]) -> Verdict:
        """Count one request (``template`` and ``path`` without the ``/api/vN`` prefix) and say
        whether it may be served."""
        if not self.enabled:
            return Verdict({})
        now = self.clock()
        what = f"{method} {path}"
        if not path.startswith(GLOBAL_EXEMPT):
            g = self.global_limit
            if self._global is None or now >= self._global.start + g.per:
                self._global = _Window(now)
            if self._global.count >= g.count:
                headers, body = self._too_many(
                    self._global.start + g.per - now, is_global=True, scope="global"
                )
                self.rate_limited.append((what, "global", body["retry_after"]))
                return Verdict(headers, 429, body, "global")
            self._global.count += 1
        bucket = self.bucket_of(method, template)
        limit = self.limits[bucket]
        key = (bucket, self.major(params))
        window = self._window(key, limit, now)
        shared_until = self._shared.get(key, 0.0)
        if now < shared_until:
            headers = self._route_headers(bucket, window, limit, now)
            extra, body = self._too_many(shared_until - now, is_global=False, scope="shared")
            self.rate_limited.append((what, "shared", body["retry_after"]))
            return Verdict({**headers, **extra}, 429, body, "shared")
        if window.count >= limit.count:
            headers = self._route_headers(bucket, window, limit, now)
            extra, body = self._too_many(
                window.start + limit.per - now, is_global=False, scope="user"
            )
            self.rate_limited.append((what, "user", body["retry_after"]))
            return Verdict({**headers, **extra}, 429, body, "user")
        window.count += 1
        if window.count == limit.count:
            self.exhausted.append(what)
        return Verdict(self._route_headers(bucket, window, limit, now))

    def share_limit(self, bucket: str, major: str, seconds: float) -> None:
        """For ``seconds``, requests of ``bucket`` on ``major`` (e.g. ``"message-create"`` and
        a channel id) hit a limit of the resource shared by every user: 429 with
        ``X-RateLimit-Scope: shared``, not counted as invalid."""
        self._shared[(bucket, major)] = self.clock() + seconds

    # -- invalid requests ----------------------------------------------------------------------

    def record(self, method: str, path: str, status: int, scope: str | None) -> None:
        """Count the answer if it makes an invalid request (401, 403, 429 not ``shared``)."""
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self.invalid.append((self.clock(), f"{method} {path}", status))

    def invalid_last(self, seconds: float = INVALID_WINDOW_S) -> int:
        """How many invalid requests were answered in the last ``seconds``."""
        since = self.clock() - seconds
        return sum(1 for when, _, _ in self.invalid if when >= since)

    # -- scheduled REST faults -----------------------------------------------------------------

    def schedule_outage(self, status: int, seconds: float, *, prefix: str = "") -> Outage:
        if status not in OUTAGE_MESSAGES:
            raise ValueError(f"no fault {status}; one of {sorted(OUTAGE_MESSAGES)}")
        now = self.clock()
        outage = Outage(status, now, now + seconds, prefix)
        self.outages.append(outage)
        return outage

    def outage(self, method: str, path: str) -> tuple[int, dict] | None:
        """The fault to answer instead of serving this request, if one is on."""
        now = self.clock()
        for outage in self.outages:
            if outage.start <= now < outage.end and path.startswith(outage.prefix):
                self.faults.append((f"{method} {path}", outage.status))
                return outage.status, {"message": OUTAGE_MESSAGES[outage.status], "code": 0}
        return None
