"""The AI's roem claims (roem: declared): every AI player claims what its team is owed, at once.

One policy for every front end: the bot's service and the terminal ask ``claim_for`` for each seat an
AI plays after a trick, instead of deciding from the trick themselves.
"""

from __future__ import annotations

from engine.actions import Claim
from engine.view import SeatView


def claim_for(view: SeatView) -> Claim | None:
    """The claim ``view.seat`` makes now: one whenever a claim by its team would score, else None."""
    if view.can_claim and view.claim_value(view.team) > 0:
        return Claim(view.seat)
    return None
