"""The links Discord's buttons carry to the web table: signed for one person and one table; and where the "Play
here" button may launch the table as an Activity.

A link is signed as of the start of the hour, so the hand's message shows the same link all hour: a changed link
would be a changed message, and an edit more to Discord for nothing."""

from __future__ import annotations

import time
from urllib.parse import urlencode

from bot.tables.model import Table, TableStatus
from bot.web.config import WebConfig
from bot.web.tokens import ANYONE, REPLAY_TTL, SEAT_TTL, WATCH_TTL, TokenKind, sign

HOUR = 3600


def _signed_at(now: float | None) -> float:
    now = time.time() if now is None else now
    return now - now % HOUR


def seat_link(config: WebConfig, table_id: int, person: int, now: float | None = None) -> str:
    """The page at the person's seat of that table, good for at least ``SEAT_TTL`` from now."""
    token = sign(config.secret, person, TokenKind.SEAT, table_id, ttl=SEAT_TTL + HOUR, now=_signed_at(now))
    return config.link(urlencode({"t": token}))



def watch_link(config: WebConfig, table_id: int, person: int = ANYONE, now: float | None = None) -> str:
    """The page showing that table's public view (what its thread shows), good for at least ``WATCH_TTL``.
    ``person``: who asked for it, or ``ANYONE`` for the table message's link (the thread's audience)."""
    token = sign(config.secret, person, TokenKind.WATCH, table_id, ttl=WATCH_TTL + HOUR, now=_signed_at(now))
    return config.link(urlencode({"watch": token}))


def activity_here(web: WebConfig | None, table: Table, channel_id: int | None) -> bool:
    """Whether the table can open as an Activity launched in this channel: the web table is set up with the
    Activity's login (the client secret), and the channel is where the Activity finds the table (its thread, or
    the lobby's channel while it is a lobby: ``bot.web.sessions``)."""
    if web is None or not web.client_secret or channel_id is None:
        return False
    return channel_id == table.thread_id or (table.status is TableStatus.LOBBY and channel_id == table.channel_id)


def replay_link(config: WebConfig, table_id: int, person: int, now: float | None = None) -> str:
    """The page replaying a match that is over (with its review), for this person: given only where
    ``bot.access.record_refusal`` lets them see the record, and asked again when the page opens it."""
    token = sign(config.secret, person, TokenKind.REPLAY, table_id, ttl=REPLAY_TTL, now=_signed_at(now))
    return config.link(urlencode({"replay": token}))
