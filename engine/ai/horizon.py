"""A search to a trick horizon: exact play up to it, a static estimate of the rest beyond.

pimc's double-dummy solves cost millions of nodes at the first trick or two (the opening lead: a
median of about a million nodes a deal, a tail of several), so within a live table's budget only a
deal or two could be solved there. This search plays the tricks up to ``stop`` (tricks completed)
exactly, by alpha-beta over every legal card, and values the position there by ``estimate``: a
linear function of a few features of the hands (trump strength and length, who holds each plain
suit's top card and its points, points held, the lead, ruffing chances), with weights fitted by
least squares to the exact double-dummy value of positions with as many tricks left
(``data/fitting/make_horizon_weights.py``). A few thousand nodes a deal, so pimc samples as many deals
as later in the hand, and every card is still chosen by searching sampled deals.

Values are as the solver's: card points + roem of the rest of the hand (last trick and pit
included up to the horizon), NS minus EW. The rules come from ``engine.rulebook`` compiled by numba.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine import rulebook
from engine.ai.tricks import Position, SolveRules, drop_stale_caches, finish_trick, follow_key, legal_mask

_INF = 1 << 20
_CARD_POINTS = rulebook.CARD_POINTS
_TRUMP_STRENGTH = rulebook.TRUMP_STRENGTH
_PLAIN_STRENGTH = rulebook.PLAIN_STRENGTH

# Stack layout: one row a ply.
_C0, _C1, _C2, _COUNT, _LEADER, _DONE, _PIT, _ALPHA, _BETA, _N, _IDX, _BEST, _SIGNED = range(13)
_MOVES = 13  # 13..20: the moves, best first
_KEYS = 21  # 21..28: their ordering keys
_FIELDS = 29
_PLIES = 40
_NODES, _LIMIT, _ABORTED = 0, 1, 2

N_FEATURES = 8
# Weights of ``_estimate`` by tricks left at the horizon (rows 0..8), fitted by
# data/fitting/make_horizon_weights.py; features in the order of ``_features``. The fit explains about
# three quarters of the variance of the exact value (7 tricks left: rms 53 against a spread of 113).
WEIGHTS = np.array([
    (0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000),
    (5.760, -0.629, 0.912, 5.457, -0.579, 17.196, 11.428, -0.845),
    (3.344, 10.789, 0.620, 7.463, -0.381, 18.871, 9.824, -4.776),
    (2.398, 10.877, 0.397, 3.959, 0.270, 15.064, 10.795, -3.283),
    (2.524, 7.198, 0.605, 1.075, 0.446, 13.213, 12.198, 0.394),
    (1.505, 8.882, 0.779, -1.885, 0.667, 21.609, 13.472, 6.197),
    (2.101, 6.533, 0.810, -2.156, 0.601, 27.925, 17.671, 9.513),
    (1.992, 7.590, 0.854, 1.779, 0.673, 32.599, 22.646, 18.995),
    (0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000),
], dtype=np.float64)


@njit(cache=True, nogil=True)
def _features(hands: Any, leader: int, trump: int, f: Any) -> None:  # pragma: no cover - compiled
    """NS minus EW: trump strength, trumps, plain tops' suit points, plain tops, points held, top trump,
    the lead (+1 NS), ruffing chances (a void in a plain suit still out, with a trump)."""
    for i in range(N_FEATURES):
        f[i] = 0.0
    everyone = hands[0] | hands[1] | hands[2] | hands[3]
    for seat in range(4):
        sign = 1.0 if seat & 1 == 0 else -1.0
        hand = hands[seat]
        for card in range(32):
            if (hand >> card) & 1:
                f[4] += sign * _CARD_POINTS[trump * 32 + card]
                if card >> 3 == trump:
                    f[0] += sign * (_TRUMP_STRENGTH[card & 7] + 1)
                    f[1] += sign
        if hand & rulebook.SUIT_MASK[trump]:
            for suit in range(4):
                if suit != trump and hand & rulebook.SUIT_MASK[suit] == 0 and everyone & rulebook.SUIT_MASK[suit]:
                    f[7] += sign
    for suit in range(4):
        top = -1
        top_strength = -1
        points = 0
        for rank in range(8):
            card = suit * 8 + rank
            if (everyone >> card) & 1:
                points += _CARD_POINTS[trump * 32 + card]
                strength = _TRUMP_STRENGTH[rank] if suit == trump else _PLAIN_STRENGTH[rank]
                if strength > top_strength:
                    top_strength = strength
                    top = card
        if top < 0:
            continue
        owner = 0
        for seat in range(4):
            if (hands[seat] >> top) & 1:
                owner = seat
        sign = 1.0 if owner & 1 == 0 else -1.0
        if suit == trump:
            f[5] += sign
        else:
            f[2] += sign * points
            f[3] += sign
    f[6] = 1.0 if leader & 1 == 0 else -1.0


@njit(cache=True, nogil=True)
def _estimate(hands: Any, leader: int, done: int, trump: int, weights: Any, f: Any) -> int:  # pragma: no cover
    _features(hands, leader, trump, f)
    total = 0.0
    for i in range(N_FEATURES):
        total += weights[8 - done, i] * f[i]
    return int(total + 0.5) if total >= 0 else -int(0.5 - total)  # rounded half away from zero


@njit(cache=True, nogil=True)
def _order(hands: Any, seat: int, stack: Any, ply: int, trump: int, amsterdam: bool,
           undertrump_forced: bool) -> int:  # pragma: no cover - compiled
    """Fill row ``ply`` with the legal cards, likely best first (as the solver orders); return how many."""
    c0 = stack[ply, _C0]
    count = stack[ply, _COUNT]
    legal = legal_mask(hands[seat], c0, stack[ply, _C1], stack[ply, _C2], count, trump, amsterdam,
                        undertrump_forced)
    led = c0 >> 3
    head_power = -1
    head_pos = 0
    for i in range(count):
        p = rulebook.card_power(stack[ply, _C0 + i], trump, led)
        if p > head_power:
            head_power = p
            head_pos = i
    partner_heads = count >= 2 and head_pos == count - 2
    n = 0
    for card in range(32):
        if not (legal >> card) & 1:
            continue
        rank = card & 7
        points = _CARD_POINTS[trump * 32 + card]
        if count == 0:
            key = (16 + _TRUMP_STRENGTH[rank]) if card >> 3 == trump else (_PLAIN_STRENGTH[rank] + points)
        else:
            key = follow_key(card, points, trump, led, count, head_power, partner_heads)
        j = n
        while j > 0 and stack[ply, _KEYS + j - 1] < key:
            stack[ply, _MOVES + j] = stack[ply, _MOVES + j - 1]
            stack[ply, _KEYS + j] = stack[ply, _KEYS + j - 1]
            j -= 1
        stack[ply, _MOVES + j] = card
        stack[ply, _KEYS + j] = key
        n += 1
    return n


@njit(cache=True, nogil=True)
def _search(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int, stop: int,
            alpha: int, beta: int, trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, weights: Any,
            stack: Any, stats: Any, f: Any) -> int:  # pragma: no cover - compiled
    """Fail-soft alpha-beta (NS maximises) to ``stop`` completed tricks, ``_estimate`` beyond; on an
    explicit stack (numba caches recursive functions poorly). ``hands`` is changed and restored."""
    ply = 0
    stack[0, _C0] = c0
    stack[0, _C1] = c1
    stack[0, _C2] = c2
    stack[0, _COUNT] = count
    stack[0, _LEADER] = leader
    stack[0, _DONE] = done
    stack[0, _PIT] = pit
    stack[0, _ALPHA] = alpha
    stack[0, _BETA] = beta
    entering = True
    returning = False
    ret = 0
    while True:
        if entering:
            entering = False
            stats[_NODES] += 1
            if stats[_NODES] > stats[_LIMIT]:
                stats[_ABORTED] = 1
                return 0
            n_count = stack[ply, _COUNT]
            if n_count == 0 and stack[ply, _DONE] >= stop:
                ret = _estimate(hands, stack[ply, _LEADER], stack[ply, _DONE], trump, weights, f)
                if ply == 0:
                    return ret
                ply -= 1
                returning = True
                continue
            seat = (stack[ply, _LEADER] + n_count) & 3
            stack[ply, _N] = _order(hands, seat, stack, ply, trump, amsterdam, undertrump_forced)
            stack[ply, _IDX] = 0
            stack[ply, _BEST] = -_INF if seat & 1 == 0 else _INF
        seat = (stack[ply, _LEADER] + stack[ply, _COUNT]) & 3
        maximise = seat & 1 == 0
        if returning:
            returning = False
            card = stack[ply, _MOVES + stack[ply, _IDX]]
            hands[seat] ^= 1 << card
            value = ret + stack[ply, _SIGNED]
            if maximise:
                if value > stack[ply, _BEST]:
                    stack[ply, _BEST] = value
                    stack[ply, _ALPHA] = max(stack[ply, _ALPHA], value)
            elif value < stack[ply, _BEST]:
                stack[ply, _BEST] = value
                stack[ply, _BETA] = min(stack[ply, _BETA], value)
            if stack[ply, _ALPHA] >= stack[ply, _BETA]:
                stack[ply, _IDX] = stack[ply, _N]
            else:
                stack[ply, _IDX] += 1
        if stack[ply, _IDX] < stack[ply, _N]:
            card = stack[ply, _MOVES + stack[ply, _IDX]]
            hands[seat] ^= 1 << card
            n_count = stack[ply, _COUNT]
            nxt = ply + 1
            if n_count < 3:
                stack[ply, _SIGNED] = 0
                stack[nxt, _C0] = card if n_count == 0 else stack[ply, _C0]
                stack[nxt, _C1] = card if n_count == 1 else stack[ply, _C1]
                stack[nxt, _C2] = card if n_count == 2 else stack[ply, _C2]
                stack[nxt, _COUNT] = n_count + 1
                stack[nxt, _LEADER] = stack[ply, _LEADER]
                stack[nxt, _DONE] = stack[ply, _DONE]
                stack[nxt, _PIT] = stack[ply, _PIT]
            else:
                winner, new_pit, signed = finish_trick(stack[ply, _C0], stack[ply, _C1], stack[ply, _C2], card,
                                                  stack[ply, _LEADER], stack[ply, _DONE], stack[ply, _PIT], trump,
                                                  stuk)
                stack[ply, _SIGNED] = signed
                if stack[ply, _DONE] == 7:
                    ret = 0  # the hand is over
                    returning = True
                    continue
                stack[nxt, _C0] = 0
                stack[nxt, _C1] = 0
                stack[nxt, _C2] = 0
                stack[nxt, _COUNT] = 0
                stack[nxt, _LEADER] = winner
                stack[nxt, _DONE] = stack[ply, _DONE] + 1
                stack[nxt, _PIT] = new_pit
            stack[nxt, _ALPHA] = stack[ply, _ALPHA] - stack[ply, _SIGNED]
            stack[nxt, _BETA] = stack[ply, _BETA] - stack[ply, _SIGNED]
            ply = nxt
            entering = True
            continue
        ret = stack[ply, _BEST]
        if ply == 0:
            return int(ret)
        ply -= 1
        returning = True


@njit(cache=True, nogil=True)
def _root_values(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int, stop: int,
                 trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, weights: Any, stack: Any,
                 stats: Any, values: Any, skip: int) -> None:  # pragma: no cover - compiled
    """``values[card]``: the horizon value (NS minus EW) of each legal card of the seat to move, but those
    in the mask ``skip``."""
    f = np.zeros(N_FEATURES, dtype=np.float64)
    seat = (leader + count) & 3
    legal = legal_mask(hands[seat], c0, c1, c2, count, trump, amsterdam, undertrump_forced) & ~skip
    hand = hands[seat]
    for card in range(32):
        if not (legal >> card) & 1:
            continue
        hands[seat] = hand ^ (1 << card)
        if count < 3:
            k0 = card if count == 0 else c0
            k1 = card if count == 1 else c1
            k2 = card if count == 2 else c2
            value = _search(hands, k0, k1, k2, count + 1, leader, done, pit, stop, -_INF, _INF, trump, amsterdam,
                            undertrump_forced, stuk, weights, stack, stats, f)
        else:
            winner, new_pit, signed = finish_trick(c0, c1, c2, card, leader, done, pit, trump, stuk)
            value = signed
            if done < 7:
                value += _search(hands, 0, 0, 0, 0, winner, done + 1, new_pit, stop, -_INF, _INF, trump, amsterdam,
                                 undertrump_forced, stuk, weights, stack, stats, f)
        hands[seat] = hand
        if stats[_ABORTED]:
            return
        values[card] = value


def features(hands: tuple[int, int, int, int], leader: int, trump: int) -> list[float]:
    """The features ``estimate`` weighs (NS minus EW), for fitting the weights."""
    f = np.zeros(N_FEATURES, dtype=np.float64)
    _features(np.array(hands, dtype=np.int64), leader, trump, f)
    return [float(x) for x in f]


class Horizon:
    """Horizon searches of one thread (the stack is reused); ``nodes``: those of the last call."""

    def __init__(self, weights: Any = None) -> None:
        self._weights = WEIGHTS if weights is None else np.asarray(weights, dtype=np.float64)
        self._stack = np.zeros((_PLIES, _FIELDS), dtype=np.int64)
        self._stats = np.zeros(3, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.int64)
        self._hands = np.zeros(4, dtype=np.int64)
        self.nodes = 0

    def card_values(self, pos: Position, rules: SolveRules, team: int, tricks: int,
                    node_limit: int = 0, skip: int = 0) -> dict[int, int] | None:
        """The value for ``team`` of each legal card of the seat to move: exact play until ``tricks`` more
        tricks are complete (the one in progress counts), the estimate beyond; None past ``node_limit``.
        Cards in the mask ``skip`` are not searched (no value)."""
        count = len(pos.trick)
        stop = min(8, pos.tricks_done + max(1, tricks))
        for i in range(4):
            self._hands[i] = pos.hands[i]
        self._stats[_NODES] = 0
        self._stats[_LIMIT] = node_limit if node_limit > 0 else 1 << 62
        self._stats[_ABORTED] = 0
        self._values.fill(-_INF - 1)
        trick = (*pos.trick, 0, 0, 0)
        _root_values(self._hands, trick[0], trick[1], trick[2], count, pos.leader, pos.tricks_done, pos.pit, stop,
                     pos.trump, rules.amsterdam, rules.undertrump_forced, rules.stuk_in_trick, self._weights,
                     self._stack, self._stats, self._values, skip)
        self.nodes = int(self._stats[_NODES])
        if self._stats[_ABORTED]:
            return None
        sign = 1 if team == 0 else -1
        return {card: sign * int(v) for card, v in enumerate(self._values) if v > -_INF - 1}


def warm_up() -> None:
    """Compile (or load from numba's cache) the horizon search; a cache older than the rules is dropped first."""
    drop_stale_caches("horizon")
    pos = Position((0x0F0F, 0xF0F0, 0x0F0F0000, 0xF0F00000), trump=0, leader=0)
    Horizon().card_values(pos, SolveRules(), 0, 2, node_limit=2000)
