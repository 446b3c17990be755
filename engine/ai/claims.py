"""The AI's roem claims (roem: declared): every AI player claims what its team is owed, at once.

One policy for every front end and player: the bot's service and the terminal ask ``claim_for`` for
each seat an AI plays after a trick, instead of deciding from the trick themselves; in the claim
phase after the last trick the players answer with ``claim_or_decline``.
"""

from __future__ import annotations

from engine.actions import Claim, Decline
from engine.view import SeatView


def claim_for(view: SeatView) -> Claim | None:
    """The claim ``view.seat`` makes now: one whenever a claim by its team would score, else None."""
    if view.can_claim and view.claim_value(view.team) > 0:
        return Claim(view.seat)
    return None


def claim_or_decline(view: SeatView) -> Claim | Decline:
    """The claim phase (the seat is asked): claim what the team is owed, or let the window close."""
    claim = claim_for(view)
    return claim if claim is not None else Decline(view.seat)
