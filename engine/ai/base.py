"""The interface every AI player implements.

A player is handed a ``SeatView`` (its own hand and what is public) and returns a legal call, card,
or (the claim phase) claim or decline. It never receives the ``Game``, so it cannot look at another
seat's cards.
"""

from __future__ import annotations

from typing import Protocol

from engine.actions import Choice
from engine.view import SeatView


class Player(Protocol):
    name: str

    def choose(self, view: SeatView) -> Choice:
        """A legal action for ``view.seat``; called only when ``view.my_turn``."""
        ...
