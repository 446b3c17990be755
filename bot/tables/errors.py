"""Why the table service refused a request; the text catalog words each code for players."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ServiceErrorCode(StrEnum):
    ALREADY_CLAIMED = "already_claimed"
    ALREADY_RESERVED = "already_reserved"
    ALREADY_SEATED = "already_seated"
    AWAY = "away"
    BAD_RULES = "bad_rules"
    BAD_SEAT = "bad_seat"
    BAD_SETTING = "bad_setting"
    CLAIM_OTHER_TEAM = "claim_other_team"
    HINT_COOLDOWN = "hint_cooldown"
    HINTS_BUSY = "hints_busy"
    HOST_CANNOT_LEAVE = "host_cannot_leave"
    LOBBY_NOT_POSTED = "lobby_not_posted"
    LOBBY_OPEN_HERE = "lobby_open_here"
    NO_AI_SEAT = "no_ai_seat"
    NO_HINT = "no_hint"
    NO_MATCH = "no_match"  # no finished match by that number in this server (/klaverjas review)
    NO_TABLE = "no_table"
    NO_TABLE_HERE = "no_table_here"
    NOBODY_TO_ACT = "nobody_to_act"
    NOT_ALLOWED_STOP = "not_allowed_stop"
    NOT_AWAY = "not_away"
    NOT_FINISHED = "not_finished"
    NOT_HERE = "not_here"
    NOT_HOST = "not_host"
    NOT_LOBBY = "not_lobby"
    NOT_PLAYING = "not_playing"
    NOT_SEATED = "not_seated"
    NOT_SEATED_ANYWHERE = "not_seated_anywhere"
    NOT_STARTED = "not_started"
    REMATCH_EXISTS = "rematch_exists"
    SEAT_RESERVED = "seat_reserved"
    SEAT_TAKEN = "seat_taken"
    STALE = "stale"
    TABLE_FULL = "table_full"
    TABLE_PLAYS_HERE = "table_plays_here"
    THREAD_HAS_TABLE = "thread_has_table"
    WHICH_TABLE = "which_table"


class ServiceError(Exception):
    """A request the table cannot honour; nothing changed. ``code`` and ``params`` feed ``bot.texts``."""

    def __init__(self, code: ServiceErrorCode, params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {params or {}}")
        self.code = code
        self.params = params or {}
