"""Where an Activity really runs. The page names its Activity instance; Discord, asked with the bot's token, says
which channel that instance runs in and who is in it. A session opens the table of that channel only, and only for
a person in the instance: a page cannot reach another channel's table by naming that channel.

The HTTP request itself is the server's (``bot.web.server``): this module checks its answers, remembers a person's
verified instance for a short while (a reconnect asks Discord nothing) and keeps the bot from flooding Discord.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.web.limits import RateLimit

log = logging.getLogger(__name__)

# Discord's instance ids are short ASCII ("i-1234…-gc-…"); anything else is not one, and never reaches a URL.
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
VERIFIED_TTL = 60.0  # seconds a verified (instance, person) is taken without asking Discord again
VERIFIED_LIMIT = 10_000  # remembered at most; the oldest go first
LOOKUPS_PER_SECOND = 5.0  # requests to Discord a second, all sockets together
LOOKUP_BURST = 50
MAX_BACKOFF = 60.0  # the longest Discord's 429 keeps the bot from asking again


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    instance_id: str
    channel_id: int
    users: frozenset[int]


class InstanceRefused(Exception):
    """The hello is refused: ``code`` is ``web.error.<code>`` in the catalog. ``retry``: Discord could not answer
    now (busy, down, slow): the page may try again later; otherwise the answer is no."""

    def __init__(self, code: str, *, retry: bool = False) -> None:
        super().__init__(code)
        self.code = code
        self.retry = retry


class DiscordUnavailable(Exception):
    """Discord did not answer the lookup (a 429, a 5xx, a timeout, nonsense): nothing is known."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


# The instance Discord knows by that id; None when it knows none (404). Raises DiscordUnavailable, or
# InstanceRefused when the lookup cannot be made at all (no bot token).
Fetch = Callable[[str], Awaitable[ActivityInstance | None]]


def _snowflake(value: object) -> int | None:
    if isinstance(value, str) and value.isdigit() and len(value) <= 20:
        return int(value)
    return None


def parse_instance(data: object, instance_id: str, application_id: str) -> ActivityInstance:
    """Discord's answer, checked: it is about this instance of this application, with a channel and its users."""
    if not isinstance(data, dict):
        raise DiscordUnavailable("the answer is not an object")
    location: Any = data.get("location")
    channel = _snowflake(location.get("channel_id")) if isinstance(location, dict) else None
    users = data.get("users")
    if data.get("instance_id") != instance_id or str(data.get("application_id")) != application_id \
            or channel is None or not isinstance(users, list):
        raise DiscordUnavailable("the answer is not this instance's")
    people = {_snowflake(user) for user in users}
    return ActivityInstance(instance_id, channel, frozenset(p for p in people if p is not None))


def asked_channel(value: object) -> int | None:
    """The channel the page says it runs in (a hint only: the instance's channel is the one taken)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    found = _snowflake(value)
    if found is None:
        raise InstanceRefused("bad_instance")
    return found


class InstanceGuard:
    """Says which channel a person's Activity instance runs in, or refuses (``InstanceRefused``)."""

    def __init__(self, fetch: Fetch, *, ttl: float = VERIFIED_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self.ttl = ttl
        self.clock = clock
        self._verified: dict[tuple[str, int], tuple[int, float]] = {}  # (instance, person) -> (channel, until)
        self._limit = RateLimit(LOOKUPS_PER_SECOND, LOOKUP_BURST, clock)
        self._blocked_until = 0.0  # Discord's 429 said to wait
        self.lookups = 0  # requests made to Discord

    async def channel_for(self, instance_id: object, person: int, asked: object = None) -> int:
        """The channel of ``instance_id`` when ``person`` is in it (and it is ``asked``, when the page names one)."""
        if not isinstance(instance_id, str) or not INSTANCE_ID.fullmatch(instance_id):
            raise InstanceRefused("bad_instance")
        wanted = asked_channel(asked)
        key = (instance_id, person)
        now = self.clock()
        remembered = self._verified.get(key)
        if remembered is not None and remembered[1] > now:
            channel = remembered[0]
        else:
            instance = await self._lookup(instance_id)
            if instance is None:
                raise InstanceRefused("no_instance")
            if person not in instance.users:
                raise InstanceRefused("not_in_instance")
            channel = instance.channel_id
            self._remember(key, channel, self.clock())
        if wanted is not None and wanted != channel:
            raise InstanceRefused("wrong_instance")
        return channel

    async def _lookup(self, instance_id: str) -> ActivityInstance | None:
        if self.clock() < self._blocked_until or not self._limit.allow():
            raise InstanceRefused("discord_busy", retry=True)
        self.lookups += 1
        try:
            return await self._fetch(instance_id)
        except DiscordUnavailable as error:
            if error.retry_after is not None:
                self._blocked_until = self.clock() + min(max(error.retry_after, 0.0), MAX_BACKOFF)
            log.warning("Discord did not say where Activity instance %s runs: %s", instance_id, error)
            raise InstanceRefused("discord_busy", retry=True) from None

    def _remember(self, key: tuple[str, int], channel: int, now: float) -> None:
        self._verified.pop(key, None)
        if len(self._verified) >= VERIFIED_LIMIT:
            for old in [k for k, (_, until) in self._verified.items() if until <= now]:
                del self._verified[old]
            while len(self._verified) >= VERIFIED_LIMIT:
                del self._verified[next(iter(self._verified))]
        self._verified[key] = (channel, now + self.ttl)
