"""Why the table service refused a request; the text catalog words each code for players."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ServiceErrorCode(StrEnum):
    ALREADY_ENTERED = "already_entered"
    ALREADY_CLAIMED = "already_claimed"
    ALREADY_RESERVED = "already_reserved"
    ALREADY_SEATED = "already_seated"
    AWAY = "away"
    BAD_LENGTH = "bad_length"
    BAD_RULES = "bad_rules"
    BAD_SEAT = "bad_seat"
    BAD_SETTING = "bad_setting"
    CLAIM_OTHER_TEAM = "claim_other_team"
    HINT_COOLDOWN = "hint_cooldown"
    HINTS_BUSY = "hints_busy"
    HOST_CANNOT_LEAVE = "host_cannot_leave"
    LOBBY_NOT_POSTED = "lobby_not_posted"
    LOBBY_OPEN_HERE = "lobby_open_here"
    MATCH_EMPTY = "match_empty"
    MATCH_NOT_OVER = "match_not_over"
    MATCH_STOPPED = "match_stopped"
    NO_AI_SEAT = "no_ai_seat"
    NO_HINT = "no_hint"
    NO_HINT_ROEM = "no_hint_roem"  # declared roem: the last trick's claim question is the player's own
    NO_MATCH = "no_match"  # no match by that number in this server
    NO_TABLE = "no_table"
    NO_TABLE_HERE = "no_table_here"
    NOBODY_TO_ACT = "nobody_to_act"
    NOT_A_MATCH = "not_a_match"
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
    REPLAY_NOT_YOURS = "replay_not_yours"
    SEAT_RESERVED = "seat_reserved"
    SEAT_TAKEN = "seat_taken"
    STALE = "stale"
    STILL_SEATED = "still_seated"
    TABLE_FULL = "table_full"
    TABLE_PLAYS_HERE = "table_plays_here"
    THREAD_HAS_TABLE = "thread_has_table"
    TOO_MANY_TABLES = "too_many_tables"  # one person opens so many tables at most (ServiceConfig)
    WHICH_TABLE = "which_table"
    # tournaments (bot.tournaments)
    BAD_TOURNAMENT_OPTION = "bad_tournament_option"
    NO_INVITE = "no_invite"
    NO_PAIRS = "no_pairs"
    NO_PLACE = "no_place"
    NO_TOURNAMENT = "no_tournament"
    NOT_ALLOWED_CLOSE = "not_allowed_close"
    NOT_ALLOWED_CREATE = "not_allowed_create"
    PARTNER_ENTERED = "partner_entered"
    PARTNER_SELF = "partner_self"
    TOURNAMENT_AUTOPLAY = "tournament_autoplay"
    TOURNAMENT_CLOSED = "tournament_closed"
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_SEALED = "tournament_sealed"
    TOURNAMENT_TABLE = "tournament_table"
    TOO_MANY_TOURNAMENTS = "too_many_tournaments"
    WHICH_TOURNAMENT = "which_tournament"


class ServiceError(Exception):
    """A request the table cannot honour; nothing changed. ``code`` and ``params`` feed ``bot.texts``."""

    def __init__(self, code: ServiceErrorCode, params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {params or {}}")
        self.code = code
        self.params = params or {}
