"""``mc``: a Monte Carlo sparring partner, of the kind other people's AIs are.

For each legal card: ``rollouts`` deals of the unseen cards drawn afresh from what the seat knows (the strong
player's knowledge, ``engine.ai.sampler.knowledge``: cards played, voids and trump limits shown, the trump length
a free bid suggests), each played to the end by a fast semi-random policy (``engine.ai.rollout``); the card with
the best mean settled score (the team's score minus the other team's after settlement: card points and roem,
nat and pit as the game scores them) is played. Every candidate card meets the same deals and random numbers.

Bidding: ``BIDDING_HEURISTIC`` takes the heuristic's calls (its hand evaluation against its threshold);
``BIDDING_ROLLOUTS`` plays each trump it may name out by roll-outs from full deals drawn consistently with its
hand and the passes, as the playing team, and names the best where its mean settled score beats 0.

The player reads only its ``SeatView``; its choices depend on its seed and the view alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
# A share of the policy's choices made at random among the legal cards, out of 2^31.
DEFAULT_NOISE = 0.1
BIDDING_HEURISTIC = "heuristic"
BIDDING_ROLLOUTS = "rollouts"


def warm_up() -> None:
    """Compile (or load from numba's cache) the roll-outs."""
    _rollout_warm_up()


def _arrays(know: DealConstraints) -> tuple[Any, Any, Any]:
    """The unseen cards, most constrained first, the seats that may hold each (bits), and the hands' sizes."""
    cards = [c for c in range(32) if know.unseen >> c & 1]
    seats = {c: sum(1 << s for s in range(4) if s != know.seat and not know.forbidden[s] >> c & 1) for c in cards}
    cards.sort(key=lambda c: rulebook.popcount(seats[c]))
    return (np.array(cards, dtype=np.int64), np.array([seats[c] for c in cards], dtype=np.int64),
            np.array(know.sizes, dtype=np.int64))


@dataclass
class MonteCarloPlayer:
    """Roll-outs a card (``rollouts``), seeded; ``bidding``: ``BIDDING_HEURISTIC`` or ``BIDDING_ROLLOUTS``."""

    rollouts: int = DEFAULT_ROLLOUTS
    seed: int = 0
    name: str = "mc"
    noise: float = DEFAULT_NOISE
    bidding: str = BIDDING_HEURISTIC
    _rng: SeededRandom = field(init=False, repr=False)
    _heuristic: HeuristicPlayer = field(init=False, repr=False)
    last_means: dict[int, float] = field(init=False, default_factory=dict)  # card: mean of the last decision

    def __post_init__(self) -> None:
        if self.rollouts < 1:
            raise ValueError(f"mc needs at least 1 roll-out a card, not {self.rollouts}")
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
        return self._play(view, cards)

    def _run(self, view: SeatView, know: DealConstraints, trump: int, candidates: list[int], leader: int,
             trick: tuple[int, ...], done: int, pit: int, playing: int) -> list[float]:
        """The mean settled score of the seat's team for each candidate (NO_CARD: the policy's card)."""
        order, eligible, sizes = _arrays(know)
        seat = int(view.seat)
        played_by = [0, 0, 0, 0]
        for t in view.tricks:
            for s, c in t.plays:
                played_by[s] |= 1 << c
        for s, c in view.trick_plays:
            played_by[s] |= 1 << c
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
        rollouts(order, eligible, sizes, seat, know.own, np.array(know.trump_length_hint, dtype=np.int64),
                 played_trumps, fallback, stuk_cards, stuk_scored, np.array(candidates, dtype=np.int64),
                 padded[0], padded[1], padded[2], len(trick), leader, done, pit, trump, rules.amsterdam,
                 rules.undertrump_forced, rules.stuk is StukMode.TRICK,
                 np.array(view.points, dtype=np.int64), np.array(view.roem, dtype=np.int64), playing,
                 team_of(seat), self.rollouts, int(self.noise * (1 << 31)), self._rng.getrandbits(62), totals)
        return [float(t) / self.rollouts for t in totals]

    def _play(self, view: SeatView, cards: list[Card]) -> Card:
        assert view.trump is not None and view.trick_leader is not None and view.player is not None
        candidates = [int(c) for c in cards]
        means = self._run(view, knowledge(view), int(view.trump), candidates, int(view.trick_leader),
                          tuple(int(c) for c in view.trick), len(view.tricks),
                          pit_state(tuple(int(t.winner) for t in view.tricks)), team_of(view.player))
        self.last_means = dict(zip(candidates, means, strict=True))
        best = max(candidates, key=lambda c: (self.last_means[c], -c))
        return DECK[best]

    def _bid(self, view: SeatView) -> Call:
        """Each trump the seat may name, played out from full deals as the playing team; the best if its mean
        settled score beats 0, else pass (when passing is allowed)."""
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
        if Call.PASS in legal and best_mean <= 0:
            return Call.PASS
        return best_call


__all__ = ["BIDDING_HEURISTIC", "BIDDING_ROLLOUTS", "DEFAULT_NOISE", "DEFAULT_ROLLOUTS", "MonteCarloPlayer",
           "warm_up"]
