"""The results of a match review (``engine.ai.review`` computes them): each decision's cost and each
person's summary. Kept apart from the computation, which loads the solver, so front ends can read and
store reviews without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, Call, Deal
from engine.ai.hints import Hint
from engine.cards import Card, Seat
from engine.game import Game
from engine.settings import Rules

# A decision within this many points (``hand_value``, on average) of the best is accurate:
# sampling noise and double dummy's optimism make smaller differences meaningless.
ACCURATE_WITHIN = 3.0
WORST = 3  # costliest decisions listed per player


def accuracy_of(accurate: int, decisions: int) -> float:
    """Share of decisions within ``ACCURATE_WITHIN`` of the best (1.0 with no decisions)."""
    return accurate / decisions if decisions else 1.0


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One human decision: what was chosen, the strong choice, and what the difference cost."""

    index: int  # the action's index in the match
    hand: int
    trick: int | None  # None: a call in the bidding
    seat: Seat
    player: int  # the caller's key of the person who decided (a user id)
    choice: Card | Call
    best: Card | Call
    cost: float  # mean points (``hand_value``) lost against ``best``; 0 when ``choice`` is best
    samples: int  # deals the numbers rest on (0: the strong player's own call, nothing to compare)
    reason: Hint | None  # why ``best`` is better (the hint's code and params); None when nothing was lost

    @property
    def accurate(self) -> bool:
        return self.cost <= ACCURATE_WITHIN


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One person's decisions of a match, summed up."""

    player: int
    seat: Seat
    decisions: int
    accurate: int
    lost: float  # points lost in all: a sum of decisions' costs, which overlap, so no figure to show on its own
    hands: int  # hands in which this person acted
    # Per hand of the match, the points lost per decision (0 where they decided nothing or lost nothing). Each
    # decision's cost is measured against the best play from that moment on, so costs of one hand overlap and
    # their sum can exceed what a hand is worth; their average cannot.
    lost_by_hand: tuple[float, ...]
    worst: tuple[DecisionReview, ...]  # the costliest decisions that cost anything, costliest first

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.accurate, self.decisions)

    @property
    def lost_per_decision(self) -> float:
        """The review's headline besides accuracy: points lost per decision, comparable between matches."""
        return self.lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class MatchReview:
    hands: int
    decisions: tuple[DecisionReview, ...]
    players: tuple[PlayerReview, ...]


def summarise(player: int, seat: Seat, decisions: Sequence[DecisionReview], hands: int,
              hands_played: int) -> PlayerReview:
    """One person's summary of a match of ``hands`` hands, of which they played ``hands_played``."""
    by_hand = [0.0] * hands
    counts = [0] * hands
    for decision in decisions:
        by_hand[decision.hand] += decision.cost
        counts[decision.hand] += 1
    by_hand = [lost / count if count else 0.0 for lost, count in zip(by_hand, counts, strict=True)]
    worst = sorted((d for d in decisions if d.cost > 0), key=lambda d: (-d.cost, d.index))[:WORST]
    return PlayerReview(player, seat, len(decisions), sum(1 for d in decisions if d.accurate),
                        round(sum(d.cost for d in decisions), 1), hands_played,
                        tuple(round(x, 1) for x in by_hand), tuple(worst))


def hand_count(actions: Sequence[Action]) -> int:
    """How many hands the actions deal."""
    return sum(1 for action in actions if isinstance(action, Deal))


def match_summary(rules: Rules, actions: Sequence[Action], players: Sequence[int | None],
                  decisions: Sequence[DecisionReview]) -> MatchReview:
    """The match's review from its reviewed decisions (of every hand): a summary per person who decided
    anything, in seat order, counting the hands in which they made a call or played a card."""
    game = Game(rules)
    acted: dict[int, set[int]] = {}
    seat_of: dict[int, Seat] = {}
    for action, player in zip(actions, players, strict=True):
        if player is not None and game.to_act is not None and isinstance(action, Card | Call):
            acted.setdefault(player, set()).add(game.hand_number)
            seat_of.setdefault(player, game.to_act)
        game.apply(action)
    hands = len(game.hands)
    ordered = tuple(sorted(decisions, key=lambda d: d.index))
    return MatchReview(hands, ordered, tuple(
        summarise(player, seat_of[player], [d for d in ordered if d.player == player], hands, len(acted[player]))
        for player in sorted(acted, key=lambda p: (seat_of[p], p))))
