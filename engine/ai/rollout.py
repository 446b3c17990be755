"""Roll-outs for the Monte Carlo player (``engine.ai.mc``): deals drawn and hands played to the end by a fast
semi-random policy, compiled by numba.

A roll-out draws the unseen cards afresh from what the seat knows (``engine.ai.sampler.DealConstraints``: the
sizes of the hands, the cards each seat cannot hold; the trump length the bidding suggests as a soft tilt, as
the sampler's), then every seat plays by ``_policy`` until the hand is over, and the hand is settled as the
game settles it (nat, pit, roem; held stuk still to score). Each candidate card of one roll-out starts from the
same deal and the same random numbers, so the cards' means differ by the card, not by the luck of the draws.

The policy follows the rules (``engine.rulebook.legal_mask``) and plays plausible cards: the highest card of a
suit still out when leading, if it has one; the partner's won trick gets points, a trick it can win is taken
(with its highest card of the suit led, its lowest winning trump when ruffing), a lost trick gets its cheapest
card; and a share ``noise`` of its choices is any legal card at random.

The generator is a 64-bit linear congruential one on int64 (numba wraps on overflow), its high bits used, seeded
by the caller: no global state, so a roll-out depends on its seed alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine import rulebook
from engine.ai.tricks import (
    PIT_EW,
    PIT_MIXED,
    PIT_NONE,
    PIT_NS,
    drop_stale_caches,
    legal_mask,
    lowest_bit,
    trick_points,
    trick_roem,
    trick_winner,
)

_MUL = 6364136223846793005
_ADD = 1442695040888963407
_CARD_POINTS = np.array(rulebook.CARD_POINTS, dtype=np.int64)
_SUIT_MASK = rulebook.SUIT_MASK
_LAST_BONUS = rulebook.LAST_TRICK_BONUS
_PIT_BONUS = rulebook.PIT_BONUS
_HAND_POINTS = rulebook.HAND_POINTS
_STUK_ROEM = rulebook.STUK_ROEM
_GREEDY_TRIES = 64
_HINT_DRAWS = 4  # deals drawn at most to find one where the player holds the trumps its bid suggests
NO_CARD = -1

@njit(cache=True, nogil=True, inline="always")
def _count(mask: int) -> int:  # pragma: no cover - compiled
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _below(state: int, n: int) -> int:  # pragma: no cover - compiled
    """A number in 0..n-1 from the generator's state (its 31 high bits)."""
    return (((state >> 33) & 0x7FFFFFFF) * n) >> 31


@njit(cache=True, nogil=True, inline="always")
def _nth(mask: int, k: int) -> int:  # pragma: no cover - compiled
    """The ``k``-th lowest card of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest_bit(mask)


@njit(cache=True, nogil=True)
def _policy(hand: int, out: int, c0: int, c1: int, c2: int, count: int, trump: int, amsterdam: bool,
            undertrump_forced: bool, noise: int, state: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The card the roll-out plays from ``hand`` (``out``: every card not yet played) and the generator's new state.

    ``noise``: out of 2^31, the share of choices made at random among the legal cards."""
    legal = legal_mask(hand, c0, c1, c2, count, trump, amsterdam, undertrump_forced)
    if legal & (legal - 1) == 0:
        return lowest_bit(legal), state
    state = state * _MUL + _ADD
    if ((state >> 33) & 0x7FFFFFFF) < noise:
        state = state * _MUL + _ADD
        return _nth(legal, _below(state, _count(legal))), state
    if count == 0:
        # Lead a card that is the highest of its suit still out, if any (it wins unless trumped), else any.
        bosses = 0
        for suit in range(4):
            rest = out & _SUIT_MASK[suit]
            if rest == 0:
                continue
            top = -1
            top_strength = -1
            for rank in range(8):
                if (rest >> (suit * 8 + rank)) & 1:
                    s = rulebook.card_power(suit * 8 + rank, trump, suit)
                    if s > top_strength:
                        top_strength = s
                        top = suit * 8 + rank
            if (legal >> top) & 1:
                bosses |= 1 << top
        pool = bosses if bosses else legal
        state = state * _MUL + _ADD
        return _nth(pool, _below(state, _count(pool))), state
    led = c0 >> 3
    head_power = rulebook.card_power(c0, trump, led)
    head_pos = 0
    head = c0
    if count > 1:
        p = rulebook.card_power(c1, trump, led)
        if p > head_power:
            head_power = p
            head_pos = 1
            head = c1
    if count > 2:
        p = rulebook.card_power(c2, trump, led)
        if p > head_power:
            head_power = p
            head_pos = 2
            head = c2
    partner_heads = count >= 2 and head_pos == count - 2
    base = trump * 32
    if partner_heads:
        # Points on the partner's trick when it is sure: the last card, or the partner's card is the highest
        # of its suit still out and trumps cannot take it (trump led, or no trump still out).
        sure = count == 3
        if not sure:
            suit = head >> 3
            higher = 0
            for rank in range(8):
                card = suit * 8 + rank
                if ((out & ~hand) >> card) & 1 and rulebook.card_power(card, trump, led) > head_power:
                    higher |= 1 << card
            sure = higher == 0 and (suit == trump or out & _SUIT_MASK[trump] & ~hand == 0)
        best = NO_CARD
        best_key = -1
        m = legal
        while m:
            card = lowest_bit(m)
            m &= m - 1
            # Most points, then the weakest card (no trump given when a plain card is worth as much).
            key = (_CARD_POINTS[base + card] if sure else 32 - _CARD_POINTS[base + card]) * 32 \
                + 31 - rulebook.card_power(card, trump, led)
            if key > best_key:
                best_key = key
                best = card
        return best, state
    winners = 0
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        if rulebook.card_power(card, trump, led) > head_power:
            winners |= 1 << card
    if winners:
        ruff = led != trump and winners & _SUIT_MASK[trump] == winners
        best = NO_CARD
        best_key = -1
        m = winners
        while m:
            card = lowest_bit(m)
            m &= m - 1
            if ruff:
                key = 32 - rulebook.card_power(card, trump, led)  # the lowest trump that wins
            elif count == 3:
                key = _CARD_POINTS[base + card] * 32 + 31 - rulebook.card_power(card, trump, led)
            else:
                key = rulebook.card_power(card, trump, led)  # the highest
            if key > best_key:
                best_key = key
                best = card
        return best, state
    # The trick is lost: the cheapest card, the weakest of equal points.
    best = NO_CARD
    best_key = 1 << 30
    m = legal
    while m:
        card = lowest_bit(m)
        m &= m - 1
        key = _CARD_POINTS[base + card] * 32 + rulebook.card_power(card, trump, led)
        if key < best_key:
            best_key = key
            best = card
    return best, state


@njit(cache=True, nogil=True)
def draw_deal(order: Any, eligible: Any, sizes: Any, own_seat: int, own: int, hands: Any,
              state: int) -> tuple[bool, int]:  # pragma: no cover - compiled
    """Deal the cards of ``order`` (most constrained first; ``eligible[i]``: the seats, as bits, that may hold
    ``order[i]``) into ``hands``: each card to a seat with free places, with a chance in proportion to its free
    places, cards as constrained in random order; restart on a dead end. False (``hands`` unusable) when every
    try ran into one. Also the sampler's draw (``engine.ai.sampler.sample_deal``)."""
    n = order.shape[0]
    free = np.zeros(4, dtype=np.int64)
    turn = np.empty(n, dtype=np.int64)
    for _ in range(_GREEDY_TRIES):
        # Random order among the cards with as many possible seats (a run of ``order``).
        for i in range(n):
            turn[i] = i
        low = 0
        while low < n:
            high = low + 1
            while high < n and _count(eligible[high]) == _count(eligible[low]):
                high += 1
            for i in range(high - 1, low, -1):
                state = state * _MUL + _ADD
                k = low + _below(state, i - low + 1)
                turn[i], turn[k] = turn[k], turn[i]
            low = high
        for s in range(4):
            free[s] = sizes[s]
            hands[s] = 0
        free[own_seat] = 0
        hands[own_seat] = own
        ok = True
        for i in range(n):
            card = order[turn[i]]
            seats = eligible[turn[i]]
            total = 0
            for s in range(4):
                if (seats >> s) & 1:
                    total += free[s]
            if total == 0:
                ok = False
                break
            state = state * _MUL + _ADD
            pick = _below(state, total)
            for s in range(4):
                if (seats >> s) & 1 and free[s] > 0:
                    pick -= free[s]
                    if pick < 0:
                        hands[s] |= 1 << card
                        free[s] -= 1
                        break
        if ok:
            return True, state
    return False, state


@njit(cache=True, nogil=True)
def _deal(order: Any, eligible: Any, sizes: Any, own_seat: int, own: int, hint: Any, played_trumps: Any,
          trump: int, fallback: Any, hands: Any, best: Any, state: int) -> int:  # pragma: no cover - compiled
    """One deal into ``hands``: drawn (``draw_deal``), preferring within ``_HINT_DRAWS`` draws one where every seat
    holds (with the trumps it played) the trumps ``hint`` asks; ``fallback`` (a consistent deal) if no draw succeeds."""
    fewest = 5
    for _ in range(_HINT_DRAWS):
        ok, state = draw_deal(order, eligible, sizes, own_seat, own, hands, state)
        if not ok:
            break
        misses = 0
        for s in range(4):
            if _count(hands[s] & _SUIT_MASK[trump]) + played_trumps[s] < hint[s]:
                misses += 1
        if misses < fewest:
            fewest = misses
            for s in range(4):
                best[s] = hands[s]
        if misses == 0:
            break
    if fewest == 5:
        for s in range(4):
            best[s] = fallback[s]
    for s in range(4):
        hands[s] = best[s]
    return state


@njit(cache=True, nogil=True)
def rollouts(order: Any, eligible: Any, sizes: Any, own_seat: int, own: int, hint: Any, played_trumps: Any,
             fallback: Any, stuk_cards: Any, stuk_scored: Any, candidates: Any, c0: int, c1: int, c2: int,
             count: int, leader: int, done: int, pit: int, trump: int, amsterdam: bool, undertrump_forced: bool,
             stuk_in_trick: bool, points: Any, roem: Any, playing: int, team: int, n: int, noise: int, seed: int,
             totals: Any) -> None:  # pragma: no cover - compiled
    """``totals[j]``: the sum over ``n`` roll-outs of the settled score of ``team`` minus the other team's when the
    seat to move plays ``candidates[j]`` (NO_CARD: the policy's card) and everyone then plays by the policy.

    The position: the trick in progress (``c0..c2``, ``count`` cards, led by ``leader``), ``done`` tricks complete,
    the pit state, card ``points`` and ``roem`` so far by team, the ``playing`` team. ``stuk_cards``: stuk held,
    the seats' cards already played (a seat dealt trump K and Q scores stuk at the end unless ``stuk_scored``
    says it has), all 0 for stuk in the trick."""
    hands = np.zeros(4, dtype=np.int64)
    scratch = np.zeros(4, dtype=np.int64)
    deal = np.zeros(4, dtype=np.int64)
    stuk = (1 << (trump * 8 + 6)) | (1 << (trump * 8 + 5))
    for j in range(candidates.shape[0]):
        totals[j] = 0
    state = seed * _MUL + _ADD
    for _ in range(n):
        state = _deal(order, eligible, sizes, own_seat, own, hint, played_trumps, trump, fallback, deal, scratch,
                      state)
        extra0 = 0
        extra1 = 0
        for s in range(4):
            if stuk_cards[s] >= 0 and not stuk_scored[s] and (deal[s] | stuk_cards[s]) & stuk == stuk:
                if s & 1 == 0:
                    extra0 += _STUK_ROEM
                else:
                    extra1 += _STUK_ROEM
        start = state
        for j in range(candidates.shape[0]):
            state = start  # every card meets the same random numbers
            for s in range(4):
                hands[s] = deal[s]
            t0, t1, t2, t_count, t_leader, t_done, t_pit = c0, c1, c2, count, leader, done, pit
            p0, p1, r0, r1 = points[0], points[1], roem[0] + extra0, roem[1] + extra1
            card = candidates[j]
            while t_done < 8:
                seat = (t_leader + t_count) & 3
                if card == NO_CARD:
                    out = hands[0] | hands[1] | hands[2] | hands[3]
                    card, state = _policy(hands[seat], out, t0, t1, t2, t_count, trump, amsterdam,
                                          undertrump_forced, noise, state)
                hands[seat] ^= 1 << card
                if t_count == 0:
                    t0 = card
                elif t_count == 1:
                    t1 = card
                elif t_count == 2:
                    t2 = card
                if t_count < 3:
                    t_count += 1
                else:
                    winner = (t_leader + trick_winner(t0, t1, t2, card, trump)) & 3
                    gain = trick_points(t0, t1, t2, card, trump)
                    gained_roem = trick_roem(t0, t1, t2, card, trump, stuk_in_trick)
                    if t_done == 7:
                        gain += _LAST_BONUS
                    side = winner & 1
                    if side == 0:
                        p0 += gain
                        r0 += gained_roem
                    else:
                        p1 += gain
                        r1 += gained_roem
                    t_pit = 1 + side if t_pit == PIT_NONE or t_pit == 1 + side else PIT_MIXED
                    t_done += 1
                    t_leader = winner
                    t_count = 0
                card = NO_CARD
            if t_pit == PIT_NS:
                r0 += _PIT_BONUS
            elif t_pit == PIT_EW:
                r1 += _PIT_BONUS
            # Settled as the game settles (rulebook.settle): nat when the playing team has not more.
            ns = p0 + r0
            ew = p1 + r1
            made = ns > ew if playing == 0 else ew > ns
            if not made:
                total = _HAND_POINTS + r0 + r1
                ns, ew = (0, total) if playing == 0 else (total, 0)
            totals[j] += ns - ew if team == 0 else ew - ns


def warm_up() -> None:
    """Compile (or load from numba's cache) the roll-outs; a cache older than the rules is dropped first."""
    drop_stale_caches("rollout")
    one = np.zeros(1, dtype=np.int64)
    four = np.zeros(4, dtype=np.int64)
    hands = np.array([0xFF, 0xFF00, 0xFF0000, 0xFF000000], dtype=np.int64)
    order = np.array([c for c in range(8, 32)], dtype=np.int64)
    eligible = np.full(24, 0b1110, dtype=np.int64)
    sizes = np.full(4, 8, dtype=np.int64)
    rollouts(order, eligible, sizes, 0, 0xFF, four, four, hands, np.full(4, -1, dtype=np.int64),
             np.zeros(4, dtype=np.bool_), np.array([0], dtype=np.int64), 0, 0, 0, 0, 0, 0, PIT_NONE, 0, False, True,
             True, np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), 0, 0, 2, 1 << 28, 1, one)
    draw_deal(order, eligible, sizes, 0, 0xFF, four, 1)


__all__ = ["NO_CARD", "PIT_EW", "PIT_MIXED", "PIT_NONE", "PIT_NS", "draw_deal", "rollouts", "warm_up"]
