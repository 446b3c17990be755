"""A finished game step by step: each hand's deal and bidding, then each of its tricks.

A ``Replay`` is built from the rules and the game's actions (as stored, or ``Game.actions``); the
state at any step is rebuilt by applying the actions up to it, so a step costs one replay of at most
one match and nothing is kept between steps. Steps of a hand: 0 is the deal and the bidding, 1 to 8
its tricks (a hand stopped mid-trick ends with that unfinished trick).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, Deal
from engine.cards import Card
from engine.game import Game, HandState, Trick
from engine.settings import Rules
from engine.view import PublicView, public_view


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: the public view while its last card is on the table, and the hand after it."""

    hand_index: int
    step: int  # 0: the deal and the bidding; k: trick k
    view: PublicView  # the deal: after the bidding; a trick: before its last card, so the hand is still shown
    hand: HandState  # the hand once the step is over (its claims and, after the last trick, its result)
    game: Game  # the game once the step is over

    @property
    def trick(self) -> Trick | None:
        """The step's trick once complete (None for the deal, and for a trick the match stopped in)."""
        if self.step == 0 or self.step > len(self.hand.tricks):
            return None
        return self.hand.tricks[self.step - 1]


class Replay:
    """Where each hand's steps begin in a game's actions, and the game at any step."""

    def __init__(self, rules: Rules, actions: Sequence[Action]) -> None:
        self.rules = rules
        self.actions = tuple(actions)
        # Per hand: the index of its deal and of each of its cards.
        self._deals: list[int] = []
        self._cards: list[list[int]] = []
        for index, action in enumerate(self.actions):
            if type(action) is Deal:
                self._deals.append(index)
                self._cards.append([])
            elif type(action) is Card and self._cards:
                self._cards[-1].append(index)

    @property
    def hands(self) -> int:
        """Hands dealt (the last may be unfinished in a stopped match)."""
        return len(self._deals)

    def steps(self, hand: int) -> int:
        """Tricks of ``hand`` played or begun: its steps are 0 (the deal) to this number."""
        return (len(self._cards[hand]) + 3) // 4

    def valid(self, hand: int, step: int) -> bool:
        return 0 <= hand < self.hands and 0 <= step <= self.steps(hand)

    def final(self) -> Game:
        """The game after every action."""
        game = Game(self.rules)
        game.apply_all(self.actions)
        return game

    def step(self, hand: int, step: int) -> Step:
        """The game at one step; ``valid(hand, step)`` must hold."""
        if not self.valid(hand, step):
            raise ValueError(f"no step {step} in hand {hand}")
        cards = self._cards[hand]
        end_of_hand = self._deals[hand + 1] if hand + 1 < self.hands else len(self.actions)
        if step == 0:
            # After the bidding: up to the first card (or all the hand has, when it ended before one).
            shown = end = cards[0] if cards else end_of_hand
        else:
            last = cards[min(4 * step, len(cards)) - 1]
            shown = last if 4 * step <= len(cards) else last + 1
            # The step ends at the next card: a claim for this trick, or the hand's settlement, belongs to it.
            end = cards[4 * step] if 4 * step < len(cards) else end_of_hand
        game = Game(self.rules)
        game.apply_all(self.actions[:shown])
        view = public_view(game)
        game.apply_all(self.actions[shown:end])
        return Step(hand, step, view, game.hands[hand], game)
