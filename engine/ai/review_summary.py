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

# A decision within this many points (``hand_value``, on average) of the best is no mistake worth listing:
# sampling noise and double dummy's optimism make smaller differences meaningless.
ACCURATE_WITHIN = 3.0
# Accuracy counts a decision only when its best and its worst option lie at least this far apart (on the
# sampled deals): below it the choice hardly mattered (a forced or nearly forced card, a call any way of which
# scores alike), and counting it would call a random player's cards accurate two times in three.
REAL_CHOICE = 5.0
# A call's stake counts three times a card's. A call decides the hand on its own, while the stakes of a player's
# cards in one hand overlap (each is measured from its moment to the end of the hand), and a call is weighed against
# one other call only, a card against the worst card. Measured (``klaverjas bench review --levels``): with one or two
# the random player's wrong calls hardly show and random and easy overlap; with three the levels come apart.
CALL_WEIGHT = 3.0
WORST = 3  # costliest decisions listed per player


def accuracy_of(kept: float, stake: float) -> float:
    """Accuracy: the share of the points at stake that the decisions kept (1.0 when nothing was at stake). The one
    definition of the figure the review and ``/stats`` show."""
    return kept / stake if stake > 0 else 1.0


def accuracy_percent(value: float) -> int:
    """An accuracy as the review and ``/stats`` print it: a whole percentage."""
    return round(100 * value)


def accuracy(decisions: Sequence[DecisionReview]) -> float:
    """The accuracy of ``decisions`` (see ``DecisionReview.stake``)."""
    return accuracy_of(sum(d.kept for d in decisions), sum(d.stake for d in decisions))


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
    samples: int  # deals the numbers rest on
    reason: Hint | None  # why ``best`` is better (the hint's code and params); None when nothing was lost
    # Mean points between the best and the worst option weighed (every legal card; for a call, the call made and
    # the strong call, or the strong call and the other way): how much the decision could matter.
    spread: float

    @property
    def accurate(self) -> bool:
        """Within ``ACCURATE_WITHIN`` of the best: not listed among the costliest decisions."""
        return self.cost <= ACCURATE_WITHIN

    @property
    def call(self) -> bool:
        return self.trick is None

    @property
    def stake(self) -> float:
        """The points at stake: the spread between the best and the worst option, when that makes it a real choice
        (``REAL_CHOICE``), else 0; a call's counted ``CALL_WEIGHT`` times."""
        if self.spread < REAL_CHOICE:
            return 0.0
        return self.spread * (CALL_WEIGHT if self.call else 1.0)

    @property
    def kept(self) -> float:
        """The part of the stake the choice kept: all of it for the best option, none for the worst."""
        stake = self.stake
        return stake * (1.0 - min(1.0, self.cost / self.spread)) if stake else 0.0


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One person's decisions of a match, summed up."""

    player: int
    seat: Seat
    decisions: int
    stake: float  # points at stake in the decisions that were a real choice (``DecisionReview.stake``)
    kept: float  # and the part of them the decisions kept
    lost: float  # points lost in all: a sum of decisions' costs, which overlap, so no figure to show on its own
    hands: int  # hands in which this person acted
    # Per hand of the match, the points lost per decision (0 where they decided nothing or lost nothing). Each
    # decision's cost is measured against the best play from that moment on, so costs of one hand overlap and
    # their sum can exceed what a hand is worth; their average cannot.
    lost_by_hand: tuple[float, ...]
    worst: tuple[DecisionReview, ...]  # the costliest decisions that cost anything, costliest first
    calls: int  # of ``decisions``, the calls in the bidding
    call_lost: float  # points lost in all by them

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.kept, self.stake)

    @property
    def cards(self) -> int:
        return self.decisions - self.calls

    @property
    def lost_per_decision(self) -> float:
        """Points lost per decision, comparable between matches (the chart's figure)."""
        return self.lost / self.decisions if self.decisions else 0.0

    @property
    def lost_per_card(self) -> float:
        return (self.lost - self.call_lost) / self.cards if self.cards else 0.0

    @property
    def lost_per_call(self) -> float:
        return self.call_lost / self.calls if self.calls else 0.0


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
    calls = [d for d in decisions if d.call]
    return PlayerReview(player, seat, len(decisions), sum(d.stake for d in decisions),
                        sum(d.kept for d in decisions), round(sum(d.cost for d in decisions), 1),
                        hands_played, tuple(round(x, 1) for x in by_hand), tuple(worst), len(calls),
                        round(sum(d.cost for d in calls), 1))


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
