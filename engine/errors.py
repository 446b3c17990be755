"""Typed errors. Every message is a sentence a player or a record author can act on.

As in python-chess, "badly written" (ParseError) is kept apart from "not allowed here"
(IllegalActionError); all are ValueErrors so callers can catch the family at once.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Why the engine refused an action; front ends word each code in their own language."""

    ILLEGAL = "illegal"
    NOT_AN_ACTION = "not_an_action"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    DEALER = "dealer"
    DEAL = "deal"
    TURN = "turn"  # a suit that may not be turned up now
    BAD_CALL = "bad_call"
    NOT_IN_HAND = "not_in_hand"
    FOLLOW_SUIT = "follow_suit"
    OVERTRUMP = "overtrump"
    MUST_TRUMP = "must_trump"
    NO_UNDERTRUMP = "no_undertrump"
    CLAIM_AUTO = "claim_auto"
    CLAIM_LATE = "claim_late"
    CLAIM_DECLINED = "claim_declined"  # the claim phase: the claimer's team declined to claim the last trick


class KlaverjasError(ValueError):
    """Base of every error the engine raises on bad input."""


class ParseError(KlaverjasError):
    """Text that is not a card, suit, seat, call or setting."""


class SettingsError(KlaverjasError):
    """A table setting that does not exist or has a bad value."""


class IllegalActionError(KlaverjasError):
    """An action that the rules do not allow now; the game is unchanged.

    ``reason`` is the bare rule ("must follow suit (D)"), ``seat`` the seat that tried it and
    ``action`` the action's notation, so front ends can phrase it in their own language.
    """

    def __init__(self, reason: str, *, seat: str | None = None, action: str | None = None,
                 code: ErrorCode = ErrorCode.ILLEGAL, params: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.action = action
        self.code = code
        self.params = params or {}


class NotYourTurnError(IllegalActionError):
    """A seat tried to act while another seat is to act."""


class RecordError(KlaverjasError):
    """A game record that cannot be replayed; carries where it went wrong."""

    def __init__(self, reason: str, *, hand: int | None = None, play: int | None = None,
                 card: str | None = None, seat: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.hand = hand
        self.play = play
        self.card = card
        self.seat = seat

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.play is not None:
            out["play"] = self.play
        if self.card is not None:
            out["card"] = self.card
        if self.seat is not None:
            out["seat"] = self.seat
        out["reason"] = self.reason
        return out
