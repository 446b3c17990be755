"""The interface every AI player implements.

A player is handed a ``SeatView`` (its own hand and what is public) and returns a legal call or
card. It never receives the ``Game``, so it cannot look at another seat's cards.
"""

from __future__ import annotations

from typing import Protocol

from engine.actions import Call
from engine.cards import Card
from engine.view import SeatView


class Player(Protocol):
    name: str

    def choose(self, view: SeatView) -> Card | Call:
        """A legal action for ``view.seat``; called only when ``view.my_turn``."""
        ...
