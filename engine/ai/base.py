"""The interface every AI player implements.

A player is handed a ``SeatView`` (its own hand and what is public) and returns a legal call, card,
or (the claim phase) claim or decline. It never receives the ``Game``, so it cannot look at another
seat's cards.

``play_keyed`` plays a game to its end with one player a seat, as the benchmarks that review whole matches need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.actions import Choice
from engine.game import Game, Phase
from engine.randomness import RandomSource
from engine.view import SeatView, seat_view


class Player(Protocol):
    name: str

    def choose(self, view: SeatView) -> Choice:
        """A legal action for ``view.seat``; called only when ``view.my_turn``."""
        ...


def play_keyed(game: Game, players: Sequence[Player], rng: RandomSource) -> list[int | None]:
    """Play ``game`` to its end, ``players[seat]`` deciding for each seat and ``rng`` dealing (and, in draaien,
    turning the suits): each action's player key, the seat that chose it, or None for chance's, as the review
    takes them (``engine.ai.review.review_match``)."""
    keys: list[int | None] = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
            keys.append(None)
        elif game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
            keys.append(None)
        else:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(seat_view(game, seat)), seat)
            keys.append(int(seat))
    assert len(keys) == len(game.actions), "one key per action"
    return keys
