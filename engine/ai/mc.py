"""``mc``: a Monte Carlo sparring partner, of the kind other people's AIs are.

For each legal card: ``rollouts`` deals of the unseen cards drawn afresh from what the seat knows (the strong
player's knowledge, ``engine.ai.sampler.knowledge``: cards played, voids and trump limits shown, the trump length
a free bid suggests), each played to the end by a fast semi-random policy (``engine.ai.rollout``); the card with
the best mean settled score (the team's score minus the other team's after settlement: card points and roem,
nat and pit as the game scores them) is played. Every candidate card meets the same deals and random numbers.

Bidding (``BIDDING_ROLLOUTS``, the default): each trump it may name is played out by roll-outs from full deals
drawn consistently with its hand (the elder hand leading), as the playing team, and the best is named when its
mean settled score beats ``bid_margin`` (or when it must name one). ``BIDDING_HEURISTIC`` takes the heuristic's
calls instead (its hand evaluation against its threshold); they measured about as strong (see
``DEFAULT_BID_MARGIN``), and roll-out bidding makes mc a partner that does not bid as our own players do.

The player reads only its ``SeatView``; its choices depend on its seed and the view alone.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from engine import rulebook
from engine.actions import SUIT_CALLS, Call, Choice
from engine.ai.claims import claim_or_decline
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.rollout import NO_CARD, rollouts
from engine.ai.rollout import warm_up as _rollout_warm_up
from engine.ai.sampler import DealConstraints, knowledge, sample_deal
from engine.ai.solver import pit_state
from engine.cards import DECK, SUITS, Card, team_of
from engine.game import Phase
from engine.randomness import SeededRandom
from engine.settings import StukMode
from engine.view import SeatView

DEFAULT_ROLLOUTS = 1000  # a card
# The share of the policy's choices made at random among the legal cards (engine/docs/ai-experiments.md): 0.3
# against 0.1 +2.5 a hand [-2.9, +7.8], 0.0 against 0.1 -4.3 [-8.2, -0.4]; 0.2 and 0.45 about as 0.3.
DEFAULT_NOISE = 0.3
# Roll-out bidding: a trump is named when its mean settled score beats this; paired against the heuristic's
# bidding, 0 lost 12 a hand, 15 gained +1.9 [-1.2, +4.9] (draaien) and +0.9 [-2.6, +4.4] (vrij).
DEFAULT_BID_MARGIN = 15.0
BIDDING_HEURISTIC = "heuristic"
BIDDING_ROLLOUTS = "rollouts"


@functools.cache
def warm_up() -> None:
    """Compile (or load from numba's cache) the roll-outs, once a process; every player calls it when made, so a
    cache older than the rules is dropped before numba loads it (``engine.ai.tricks.drop_stale_caches``)."""
    _rollout_warm_up()


@dataclass
class MonteCarloPlayer:
    """Roll-outs a card (``rollouts``), seeded; ``bidding``: ``BIDDING_HEURISTIC`` or ``BIDDING_ROLLOUTS``."""

    rollouts: int = DEFAULT_ROLLOUTS
    seed: int = 0
    name: str = "mc"
    noise: float = DEFAULT_NOISE
    bidding: str = BIDDING_ROLLOUTS
    bid_margin: float = DEFAULT_BID_MARGIN  # ``BIDDING_ROLLOUTS``: the mean settled score a trump must beat
    _rng: SeededRandom = field(init=False, repr=False)
    _heuristic: HeuristicPlayer = field(init=False, repr=False)
    last_means: dict[int, float] = field(init=False, default_factory=dict)  # card: mean of the last decision

    def __post_init__(self) -> None:
        if self.rollouts < 1:
            raise ValueError(f"mc needs at least 1 roll-out a card, not {self.rollouts}")
        warm_up()
        self._rng = SeededRandom(self.seed)
        self._heuristic = HeuristicPlayer(seed=self.seed, name=self.name)

    def choose(self, view: SeatView) -> Choice:
        legal = view.legal
        if not legal:
            raise ValueError("mc asked to act when it is not its turn")
        if view.phase is Phase.CLAIM:
            return claim_or_decline(view)
        if view.phase is Phase.BIDDING:
            if self.bidding == BIDDING_ROLLOUTS:
                return self._bid(view)
            return self._heuristic.choose(view)
        cards = [a for a in legal if isinstance(a, Card)]
        if len(cards) == 1:
            return cards[0]
        return self._play(view)

    def _run(self, view: SeatView, know: DealConstraints, trump: int, candidates: list[int], leader: int,
             trick: tuple[int, ...], done: int, pit: int, playing: int) -> list[float]:
        """The mean settled score of the seat's team for each candidate (NO_CARD: the policy's card)."""
        seat = int(view.seat)
        played_by = know.played_by
        trump_mask = rulebook.SUIT_MASK[trump]
        played_trumps = np.array([rulebook.popcount(m & trump_mask) for m in played_by], dtype=np.int64)
        held = view.rules.stuk is StukMode.HELD
        stuk_cards = np.array([m if held else -1 for m in played_by], dtype=np.int64)
        scored = {int(s) for s in view.held_stuk}
        stuk_scored = np.array([s in scored for s in range(4)], dtype=np.bool_)
        fallback = np.array(sample_deal(know, self._rng), dtype=np.int64)
        totals = np.zeros(len(candidates), dtype=np.int64)
        padded = (*trick, 0, 0, 0)
        rules = view.rules
        rollouts(know.order, know.seat_bits, know.size_array, seat, know.own,
                 np.array(know.trump_length_hint, dtype=np.int64), played_trumps, fallback, stuk_cards, stuk_scored,
                 np.array(candidates, dtype=np.int64),
                 padded[0], padded[1], padded[2], len(trick), leader, done, pit, trump, rules.amsterdam,
                 rules.undertrump_forced, rules.stuk is StukMode.TRICK,
                 np.array(view.points, dtype=np.int64), np.array(view.roem, dtype=np.int64), playing,
                 team_of(seat), self.rollouts, int(self.noise * (1 << 31)), self._rng.getrandbits(62), totals)
        return [float(t) / self.rollouts for t in totals]

    def means(self, view: SeatView) -> dict[int, float]:
        """Each legal card's mean settled score for the seat's team (its score minus the other team's) over
        ``rollouts`` roll-outs; the play phase, on the seat's turn."""
        assert view.trump is not None and view.trick_leader is not None and view.player is not None
        candidates = [int(c) for c in view.legal if isinstance(c, Card)]
        means = self._run(view, knowledge(view), int(view.trump), candidates, int(view.trick_leader),
                          tuple(int(c) for c in view.trick), len(view.tricks),
                          pit_state(tuple(int(t.winner) for t in view.tricks)), team_of(view.player))
        return dict(zip(candidates, means, strict=True))

    def _play(self, view: SeatView) -> Card:
        self.last_means = self.means(view)
        best = max(self.last_means, key=lambda c: (self.last_means[c], -c))
        return DECK[best]

    def _bid(self, view: SeatView) -> Call:
        """Each trump the seat may name, played out from full deals as the playing team (the elder hand leading);
        the best if its mean settled score beats ``bid_margin``, else pass (when passing is allowed)."""
        legal = view.legal
        assert view.dealer is not None
        if Call.PLAY in legal:
            options = [(Call.PLAY, int(view.turned[-1]))]
        else:
            options = [(SUIT_CALLS[s], int(s)) for s in SUITS if SUIT_CALLS[s] in legal]
        know = knowledge(view)
        team = team_of(int(view.seat))
        elder = (int(view.dealer) + 1) & 3
        best_call, best_mean = options[0][0], -float("inf")
        for call, trump in options:
            mean = self._run(view, know, trump, [NO_CARD], elder, (), 0, pit_state(()), team)[0]
            if mean > best_mean:
                best_call, best_mean = call, mean
        if Call.PASS in legal and best_mean <= self.bid_margin:
            return Call.PASS
        return best_call


__all__ = ["BIDDING_HEURISTIC", "BIDDING_ROLLOUTS", "DEFAULT_BID_MARGIN", "DEFAULT_NOISE", "DEFAULT_ROLLOUTS",
           "MonteCarloPlayer", "warm_up"]
