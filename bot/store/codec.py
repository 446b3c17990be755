"""Actions to and from the small JSON form the store keeps.

The stored form maps 1:1 onto ``klaverjas-record/1`` (``engine.record.export_record``): a deal keeps
its dealer and the four hands in card notation, a turn its suit, a call its record value, a card its
notation, a claim its seat. A decline (the last trick's claim phase) keeps its seat
too; records hold no declines.
"""

from __future__ import annotations

import json
from typing import Any

from engine.actions import Action, Call, Claim, Deal, Decline, TurnUp
from engine.cards import SEATS, Card, Seat, Suit


def encode_action(action: Action) -> tuple[str, str]:
    """(kind, JSON data) for one action."""
    if isinstance(action, Card):
        return "card", json.dumps(action.notation)
    if isinstance(action, Call):
        return "call", json.dumps(action.value)
    if isinstance(action, Deal):
        hands = {seat.letter: [card.notation for card in action.cards(seat)] for seat in SEATS}
        return "deal", json.dumps({"dealer": action.dealer.letter, "hands": hands})
    if isinstance(action, TurnUp):
        return "turn", json.dumps(action.suit.letter)
    if isinstance(action, Claim):
        return "claim", json.dumps(action.seat.letter)
    if isinstance(action, Decline):
        return "decline", json.dumps(action.seat.letter)
    raise TypeError(f"not an action: {action!r}")


def decode_action(kind: str, data: str) -> Action:
    value: Any = json.loads(data)
    if kind == "card":
        return Card.parse(value)
    if kind == "call":
        return Call.parse(value)
    if kind == "deal":
        hands = {Seat.parse(letter): [Card.parse(c) for c in cards] for letter, cards in value["hands"].items()}
        return Deal.from_cards(Seat.parse(value["dealer"]), hands)
    if kind == "turn":
        return TurnUp(Suit.parse(value))
    if kind == "claim":
        return Claim(Seat.parse(value))
    if kind == "decline":
        return Decline(Seat.parse(value))
    raise ValueError(f"unknown stored action kind {kind!r}")
