"""Double-dummy solver: the exact outcome of a Klaverjas hand when all four hands are known.

Alpha-beta over card plays with a transposition table at trick boundaries, move ordering and
equivalent cards merged. The rules are not restated here: the search calls ``engine.rulebook``'s
``legal_mask``, ``trick_winner``, ``trick_points`` and ``trick_roem`` compiled by numba, so the solver
and the game share one statement of every rule.

Values are card points + roem (last-trick 10 and pit included) of the rest of the hand, as a
difference between the two teams. Roem: declared is searched as if it were auto (a perfect player
claims everything). Stuk: held is not part of the search: a player holding both K and Q of trump
will play both whatever happens, so it is a constant the caller adds (``held_stuk_bonus``); with
stuk: held, trick roem is searched without the trick stuk.

numba's cache keys each compiled function on its own source file only, so a solver compiled before
``engine/rulebook.py`` or ``engine/ai/tricks.py`` changed would keep the old rules: ``warm_up()``, which every
process that solves calls first (the install step, the tests, the bot's AI workers), deletes solver cache files
older than either (``engine.ai.tricks.drop_stale_caches``) before anything is loaded from the cache, and
the solver is compiled afresh. Importing this module touches no file.
"""

from __future__ import annotations

import mmap
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from engine import rulebook
from engine.ai.horizon import Horizon
from engine.ai.horizon import warm_up as _horizon_warm_up
from engine.ai.tricks import (
    PIT_EW,
    PIT_MIXED,
    PIT_NONE,
    PIT_NS,
    Position,
    SolveRules,
    drop_stale_caches,
    finish_trick,
    follow_key,
    legal_mask,
    lowest_bit,
    trick_outcome,
    trick_points,
    trick_winner,
)

INF = 1 << 20
NO_CARD = -1


def _ranks_by_strength(strength: tuple[int, ...]) -> tuple[int, ...]:
    order = [0] * 8
    for rank, value in enumerate(strength):
        order[value] = rank
    return tuple(order)


# Ranks from weakest to strongest, within trump and within a plain suit (derived from fast's tables).
_TRUMP_ORDER = _ranks_by_strength(rulebook.TRUMP_STRENGTH)
_PLAIN_ORDER = _ranks_by_strength(rulebook.PLAIN_STRENGTH)
_FOUR_ROEM = rulebook.FOUR_OF_A_KIND_ROEM
_CARD_POINTS = rulebook.CARD_POINTS
_TRUMP_STRENGTH = rulebook.TRUMP_STRENGTH
_PLAIN_STRENGTH = rulebook.PLAIN_STRENGTH
_LAST_BONUS = rulebook.LAST_TRICK_BONUS
_PIT_BONUS = rulebook.PIT_BONUS
_RANK_KING = rulebook.RANK_KING
_RANK_QUEEN = rulebook.RANK_QUEEN
_STUK_ROEM = rulebook.STUK_ROEM
_VIERKAART_ROEM = rulebook.VIERKAART_ROEM

# What a nested-loop ending costs, in nodes of the general search (measured): the node limit is a time cap.
_NESTED_THREE_COST = 5
_NESTED_TWO_COST = 1

# Layout of the per-call statistics array.
_NODES, _LIMIT, _ABORTED, _BEST_MOVE = 0, 1, 2, 3

# Per-ply fields of the search stack (one row per ply).
_MOVES = 0  # 0..7: the moves, best first
_MERGED = 8  # 8..15: mask of the cards each move stands for
_KEYS = 16  # 16..23: ordering keys
_N, _IDX, _ALPHA, _BETA, _BEST, _BEST_CARD = 24, 25, 26, 27, 28, 29
_C0, _C1, _C2, _COUNT, _LEADER, _DONE, _PIT, _SIGNED = 30, 31, 32, 33, 34, 35, 36, 37
_SLOT, _K1, _K2, _META, _ALPHA0, _BETA0, _REM, _ROEM_BOUND = 38, 39, 40, 41, 42, 43, 44, 45
_SCOUT = 46  # 1: the move at _IDX is being searched with a null window first (principal variation search)
_FIELDS = 64  # columns: 47 serve a ply, the ending cache (below) fills whole rows
_BOSS_BONUS = 64  # above any lead's static key: see _gen_moves
_WINDOW = 32  # first aspiration window of _mtdf (points): the fewest nodes of those tried
_ROOT_ROW = 33  # rows 0..32 serve the alpha-beta plies, this one the root's moves
_HISTORY = 34  # rows 34..37: history scores by seat and card (kept in the stack: one array fewer to pass)
_KILLERS = 38  # rows 38..41 by seat: the last two leads that cut off, by tricks done (columns 0..7, 8..15)
_ENDS = 42  # rows 42..: exact values of two-trick endings (_two_exact), _FIELDS a row
_ENDS_BITS = 16  # 2^16 entries (512 KB): a deal meets up to ~16,000 endings
_ENDS_KEY = (1 << 49) - 1  # the position's bits of an entry; the value + _ENDS_OFFSET above them
_ENDS_OFFSET = 1 << 14
_TT_FIELD = (1 << 22) - 1  # a bound + INF in a table entry's packed word


@njit(cache=True, nogil=True)
def _last_two_ab(h: Any, leader: int, pit: int, alpha: int, beta: int, trump: int, amsterdam: bool,
                 undertrump_forced: bool, stuk: bool) -> int:  # pragma: no cover - compiled
    """Value of the last two tricks (two cards a hand, ``h`` a 4-tuple of masks by seat), fail-soft alpha-beta.

    Nested loops, no table: at most 16 ways to play, and most nodes of a full search lie here.
    """
    roem = _roem_bound(h[0] | h[1] | h[2] | h[3], 2, trump, stuk) > 0
    return _last_two(h, leader, pit, alpha, beta, trump, amsterdam, undertrump_forced, stuk, roem)


@njit(cache=True, nogil=True)
def _last_two(h: Any, leader: int, pit: int, alpha: int, beta: int, trump: int, amsterdam: bool,
              undertrump_forced: bool, stuk: bool, roem: bool) -> int:  # pragma: no cover - compiled
    """``_last_two_ab``; ``roem`` False: the cards left can make no roem (``_roem_bound`` 0), none is counted."""
    s0 = leader
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    max0 = (s0 & 1) == 0
    a0 = alpha
    b0 = beta
    best0 = -INF if max0 else INF
    m0 = h[s0]
    while m0:
        a = lowest_bit(m0)
        m0 &= m0 - 1
        a1 = a0
        b1 = b0
        best1 = INF if max0 else -INF
        m1 = legal_mask(h[s1], a, 0, 0, 1, trump, amsterdam, undertrump_forced)
        while m1:
            b = lowest_bit(m1)
            m1 &= m1 - 1
            a2 = a1
            b2 = b1
            best2 = -INF if max0 else INF
            m2 = legal_mask(h[s2], a, b, 0, 2, trump, amsterdam, undertrump_forced)
            while m2:
                c = lowest_bit(m2)
                m2 &= m2 - 1
                a3 = a2
                b3 = b2
                best3 = INF if max0 else -INF
                m3 = legal_mask(h[s3], a, b, c, 3, trump, amsterdam, undertrump_forced)
                while m3:
                    d = lowest_bit(m3)
                    m3 &= m3 - 1
                    winner, new_pit, first = trick_outcome(a, b, c, d, leader, 6, pit, trump, stuk, roem)
                    # The last trick plays itself: each seat's other card, from the winner on.
                    r0 = lowest_bit(h[s0] ^ (1 << a))
                    r1 = lowest_bit(h[s1] ^ (1 << b))
                    r2 = lowest_bit(h[s2] ^ (1 << c))
                    r3 = lowest_bit(h[s3] ^ (1 << d))
                    rest = (r0, r1, r2, r3)
                    p = (winner - leader) & 3
                    _, _, last = trick_outcome(rest[p], rest[(p + 1) & 3], rest[(p + 2) & 3], rest[(p + 3) & 3],
                                         winner, 7, new_pit, trump, stuk, roem)
                    v = first + last
                    if max0:
                        if v < best3:
                            best3 = v
                            b3 = min(b3, v)
                    elif v > best3:
                        best3 = v
                        a3 = max(a3, v)
                    if a3 >= b3:
                        break
                if max0:
                    if best3 > best2:
                        best2 = best3
                        a2 = max(a2, best3)
                elif best3 < best2:
                    best2 = best3
                    b2 = min(b2, best3)
                if a2 >= b2:
                    break
            if max0:
                if best2 < best1:
                    best1 = best2
                    b1 = min(b1, best2)
            elif best2 > best1:
                best1 = best2
                a1 = max(a1, best2)
            if a1 >= b1:
                break
        if max0:
            if best1 > best0:
                best0 = best1
                a0 = max(a0, best1)
        elif best1 < best0:
            best0 = best1
            b0 = min(b0, best1)
        if a0 >= b0:
            break
    return best0


@njit(cache=True, nogil=True, inline="always")
def _two_exact(h: Any, leader: int, pit: int, trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool,
               roem: bool, stack: Any) -> int:  # pragma: no cover - compiled
    """The exact value of the last two tricks (``_last_two``), kept in the stack's ending cache.

    A whole deal's search meets each two-trick ending about 15 times (from other orders of the
    tricks before): most are read. An entry holds the position, trump and rules with the value, so
    it stays true for any later search; and the value is exact, not a bound of some window, so the
    search runs the same whatever the cache held before.
    """
    key = 0
    for seat in range(4):
        hand = h[seat]
        key = (key << 10) | (lowest_bit(hand) << 5) | lowest_bit(hand & (hand - 1))
    rules = (int(amsterdam) << 2) | (int(undertrump_forced) << 1) | int(stuk)
    key = (key << 9) | (leader << 7) | (pit << 5) | (trump << 3) | rules
    index = ((key * 0x1E3779B97F4A7C15) >> 40) & ((1 << _ENDS_BITS) - 1)
    row = _ENDS + index // _FIELDS
    column = index % _FIELDS
    entry = stack[row, column]
    value: int
    if entry & _ENDS_KEY == key and entry != 0:
        value = ((entry >> 49) & 0x7FFF) - _ENDS_OFFSET
        return value
    value = _last_two(h, leader, pit, -INF, INF, trump, amsterdam, undertrump_forced, stuk, roem)
    stack[row, column] = key | ((value + _ENDS_OFFSET) << 49)
    return value


@njit(cache=True, nogil=True)
def _last_three_ab(h: Any, leader: int, pit: int, alpha: int, beta: int, trump: int, amsterdam: bool,
                   undertrump_forced: bool, stuk: bool) -> int:  # pragma: no cover - compiled
    """Value of the last three tricks (three cards a hand), fail-soft alpha-beta in nested loops.

    The sixth trick is played out here, the last two by ``_two_exact`` (exact values, cached): no table.
    """
    roem = _roem_bound(h[0] | h[1] | h[2] | h[3], 3, trump, stuk) > 0
    stack = np.zeros((_ENDS + (1 << _ENDS_BITS) // _FIELDS, _FIELDS), dtype=np.int64)
    return _last_three_lead(h, leader, pit, alpha, beta, trump, amsterdam, undertrump_forced, stuk, NO_CARD,
                            roem, stack)[0]


@njit(cache=True, nogil=True, inline="always")
def _last_three_lead(h: Any, leader: int, pit: int, alpha: int, beta: int, trump: int, amsterdam: bool,
                     undertrump_forced: bool, stuk: bool, prefer: int, roem: bool,
                     stack: Any) -> tuple[int, int]:  # pragma: no cover - compiled
    """``_last_three_ab``'s value and a best lead (the one that set it), leading ``prefer`` first if held.

    ``roem`` False: the cards left can make no roem (``_roem_bound`` 0), so none is counted."""
    s0 = leader
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    max0 = (s0 & 1) == 0
    a0 = alpha
    b0 = beta
    best0 = -INF if max0 else INF
    best_lead = NO_CARD
    m0 = h[s0]
    if prefer >= 0 and (m0 >> prefer) & 1:
        m0 ^= 1 << prefer
    else:
        prefer = NO_CARD
    while m0 or prefer >= 0:
        if prefer >= 0:
            a = prefer
            prefer = NO_CARD
        else:
            a = lowest_bit(m0)
            m0 &= m0 - 1
        a1 = a0
        b1 = b0
        best1 = INF if max0 else -INF
        m1 = legal_mask(h[s1], a, 0, 0, 1, trump, amsterdam, undertrump_forced)
        while m1:
            b = lowest_bit(m1)
            m1 &= m1 - 1
            a2 = a1
            b2 = b1
            best2 = -INF if max0 else INF
            m2 = legal_mask(h[s2], a, b, 0, 2, trump, amsterdam, undertrump_forced)
            while m2:
                c = lowest_bit(m2)
                m2 &= m2 - 1
                a3 = a2
                b3 = b2
                best3 = INF if max0 else -INF
                m3 = legal_mask(h[s3], a, b, c, 3, trump, amsterdam, undertrump_forced)
                while m3:
                    d = lowest_bit(m3)
                    m3 &= m3 - 1
                    winner, new_pit, first = trick_outcome(a, b, c, d, leader, 5, pit, trump, stuk, roem)
                    played = (1 << a) | (1 << b) | (1 << c) | (1 << d)
                    rest = (h[0] & ~played, h[1] & ~played, h[2] & ~played, h[3] & ~played)
                    v = first + _two_exact(rest, winner, new_pit, trump, amsterdam, undertrump_forced, stuk, roem,
                                           stack)
                    if max0:
                        if v < best3:
                            best3 = v
                            b3 = min(b3, v)
                    elif v > best3:
                        best3 = v
                        a3 = max(a3, v)
                    if a3 >= b3:
                        break
                if max0:
                    if best3 > best2:
                        best2 = best3
                        a2 = max(a2, best3)
                elif best3 < best2:
                    best2 = best3
                    b2 = min(b2, best3)
                if a2 >= b2:
                    break
            if max0:
                if best2 < best1:
                    best1 = best2
                    b1 = min(b1, best2)
            elif best2 > best1:
                best1 = best2
                a1 = max(a1, best2)
            if a1 >= b1:
                break
        if max0:
            if best1 > best0:
                best0 = best1
                best_lead = a
                a0 = max(a0, best1)
        elif best1 < best0:
            best0 = best1
            best_lead = a
            b0 = min(b0, best1)
        if a0 >= b0:
            break
    return best0, best_lead


@njit(cache=True, nogil=True)
def _roem_bound(cards: int, tricks_left: int, trump: int, stuk: bool) -> int:  # pragma: no cover - compiled
    """An upper bound of the roem the remaining ``cards`` can still make in ``tricks_left`` tricks."""
    sequences = 0
    for suit in range(4):
        byte = (cards >> (suit * 8)) & 0xFF
        if rulebook.RUN_LENGTH[byte] >= 3:
            sequences += rulebook.POPCOUNT8[byte] // 3  # a sequence takes at least three cards of its suit
    bound = _VIERKAART_ROEM * min(sequences, tricks_left)
    for rank in range(8):
        four = (1 << rank) | (1 << (8 + rank)) | (1 << (16 + rank)) | (1 << (24 + rank))
        if cards & four == four:
            bound += _FOUR_ROEM[rank]
    if stuk:
        pair = rulebook.stuk_mask(trump)
        if cards & pair == pair:
            bound += _STUK_ROEM
    return bound


def _build_in_sequence() -> tuple[bool, ...]:
    """``[others * 8 + rank]``: whether a card of ``rank`` can be part of a three-card sequence (in the
    natural order, rulebook.RUN_LENGTH's) with the cards of its suit in the byte ``others``."""
    table = []
    for others in range(256):
        for rank in range(8):
            low = rank
            while low > 0 and (others >> (low - 1)) & 1:
                low -= 1
            high = rank
            while high < 7 and (others >> (high + 1)) & 1:
                high += 1
            table.append(high - low + 1 >= 3)
    return tuple(table)


# numpy arrays, not tuples: numba indexes a global array in place but rebuilds a large tuple.
_IN_SEQUENCE = np.array(_build_in_sequence(), dtype=np.bool_)
# Per card (trump * 32 + card): a card no other card of its suit can be merged with, whatever is out:
# four-of-a-kind roem counts its rank, and trump K and Q make stuk.
_ALONE = np.array([_FOUR_ROEM[card & 7] != 0 or (card >> 3 == trump and card & 7 in (_RANK_KING, _RANK_QUEEN))
                   for trump in range(4) for card in range(32)], dtype=np.bool_)


@njit(cache=True, nogil=True, inline="always")
def _gen_moves(hands: Any, seat: int, stack: Any, ply: int, trump: int, amsterdam: bool, undertrump_forced: bool,
               tt_best: int) -> int:  # pragma: no cover - compiled
    """Fill stack row ``ply`` with the moves (legal cards, equivalent ones merged) best-first; return how many.

    Two cards of a suit in one hand are the same move when no card held by another seat (or lying
    in this trick) sits between them in the suit's order, they are worth the same points, and
    neither can change a trick's roem: no possible sequence with other seats' cards, no
    four-of-a-kind roem, not trump K or Q (stuk).
    """
    c0 = stack[ply, _C0]
    c1 = stack[ply, _C1]
    c2 = stack[ply, _C2]
    count = stack[ply, _COUNT]
    hand = hands[seat]
    legal = legal_mask(hand, c0, c1, c2, count, trump, amsterdam, undertrump_forced)
    if legal & (legal - 1) == 0:  # one legal card (often, following suit): nothing to order or merge
        stack[ply, _MOVES] = lowest_bit(legal)
        stack[ply, _MERGED] = legal
        return 1
    trick_mask = 0
    if count > 0:
        trick_mask |= 1 << c0
    if count > 1:
        trick_mask |= 1 << c1
    if count > 2:
        trick_mask |= 1 << c2
    others = ((hands[0] | hands[1] | hands[2] | hands[3]) & ~hand) | trick_mask

    # Which card heads the trick and whether it is the partner's: for move ordering only.
    led = c0 >> 3
    head_power = -1
    head_pos = 0
    if count > 0:
        head_power = rulebook.card_power(c0, trump, led)
    if count > 1:
        p = rulebook.card_power(c1, trump, led)
        if p > head_power:
            head_power = p
            head_pos = 1
    if count > 2:
        p = rulebook.card_power(c2, trump, led)
        if p > head_power:
            head_power = p
            head_pos = 2
    partner_heads = count >= 2 and head_pos == count - 2
    history = _HISTORY + seat
    killers = _KILLERS + seat
    points_base = trump * 32

    n = 0
    for suit in range(4):
        suit_legal = (legal >> (suit * 8)) & 0xFF
        if suit_legal == 0:
            continue
        suit_others = (others >> (suit * 8)) & 0xFF
        is_trump = suit == trump
        prev = -1
        boss_ours = 0
        if count == 0 and ply == _ROOT_ROW:
            # The root's leads: first those of suits whose highest card out is the leader's side's
            # (they keep the lead), so the first lead, the one valued exactly, is more often the
            # best. Only at the root: inside the search history orders leads better.
            side = hands[seat] | hands[(seat + 2) & 3]
            everyone = hands[0] | hands[1] | hands[2] | hands[3]
            for top in range(7, -1, -1):
                top_card = suit * 8 + (_TRUMP_ORDER[top] if is_trump else _PLAIN_ORDER[top])
                if (everyone >> top_card) & 1:
                    boss_ours = (side >> top_card) & 1
                    break
        left = suit_legal
        for pos in range(8):
            rank = _TRUMP_ORDER[pos] if is_trump else _PLAIN_ORDER[pos]
            if (suit_others >> rank) & 1:
                prev = -1  # an outstanding card separates the groups
                continue
            if not (left >> rank) & 1:
                continue
            left ^= 1 << rank
            card = suit * 8 + rank
            points = _CARD_POINTS[points_base + card]
            if (prev >= 0 and points == _CARD_POINTS[points_base + prev] and not _ALONE[points_base + card]
                    and not _ALONE[points_base + prev] and not _IN_SEQUENCE[suit_others * 8 + rank]
                    and not _IN_SEQUENCE[suit_others * 8 + (prev & 7)]):
                # Find the group's representative (it may have moved while sorting) and join it.
                for j in range(n):
                    if (stack[ply, _MERGED + j] >> prev) & 1:
                        stack[ply, _MERGED + j] |= 1 << card
                prev = card
                if left == 0:
                    break
                continue
            prev = card
            # Ordering key: the transposition table's move first, then cards likely to be good.
            if card == tt_best:
                key = 1 << 60
            elif count == 0 and ply != _ROOT_ROW and card == stack[killers, stack[ply, _DONE]]:
                # Killers: the last two leads that refuted a position this deep (history alone orders
                # leads worse).
                key = 1 << 59
            elif count == 0 and ply != _ROOT_ROW and card == stack[killers, 8 + stack[ply, _DONE]]:
                key = 1 << 58
            elif count == 0:
                key = (16 + _TRUMP_STRENGTH[rank]) if is_trump else (_PLAIN_STRENGTH[rank] + points)
                key += _BOSS_BONUS * boss_ours
                # Cards that refuted positions elsewhere (history heuristic) decide leads.
                key += stack[history, card] * 64
            else:
                # The history heuristic breaks ties.
                key = follow_key(card, points, trump, led, count, head_power, partner_heads) * (1 << 30) \
                    + stack[history, card]
            # Insert in order, highest key first.
            j = n
            while j > 0 and stack[ply, _KEYS + j - 1] < key:
                stack[ply, _MOVES + j] = stack[ply, _MOVES + j - 1]
                stack[ply, _KEYS + j] = stack[ply, _KEYS + j - 1]
                stack[ply, _MERGED + j] = stack[ply, _MERGED + j - 1]
                j -= 1
            stack[ply, _MOVES + j] = card
            stack[ply, _KEYS + j] = key
            stack[ply, _MERGED + j] = 1 << card
            n += 1
            if left == 0:
                break
    return n


@njit(cache=True, nogil=True, inline="always")
def _tt_bounds(packed: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The lower bound, upper bound and best move packed in a table entry's last word."""
    return (packed & _TT_FIELD) - INF, ((packed >> 22) & _TT_FIELD) - INF, (packed >> 44) - 1


@njit(cache=True, nogil=True, inline="always")
def _tt_bucket(k1: int, k2: int, meta: int, mask_tt: int) -> int:  # pragma: no cover - compiled
    """The first row of the position's bucket of two. The generation is left out: a search then runs the same
    whatever the table held before (an older generation's entry is replaced as an empty one is)."""
    h = (k1 * 0x1E3779B97F4A7C15) ^ (k2 * 0x42B2AE3D27D4EB4F) ^ ((meta & 127) * 0x165667B19E3779F9)
    h = (h ^ (h >> 32)) * 0x2545F4914F6CDD1D
    return (h >> 36) & mask_tt & ~1


@njit(cache=True, nogil=True, inline="always")
def _tt_find(tt: Any, base: int, k1: int, k2: int, meta: int) -> int:  # pragma: no cover - compiled
    """The row of the two-row bucket at ``base`` that holds this position, or -1."""
    if tt[base, 0] == k1 and tt[base, 1] == k2 and tt[base, 2] == meta:
        return base
    if tt[base + 1, 0] == k1 and tt[base + 1, 1] == k2 and tt[base + 1, 2] == meta:
        return base + 1
    return -1


@njit(cache=True, nogil=True, inline="always")
def _tt_store(tt: Any, base: int, k1: int, k2: int, meta: int, best: int, alpha: int, beta: int,
              move: int) -> None:  # pragma: no cover - compiled
    """Store what a search of window (alpha, beta) that returned ``best`` (fail-soft) proved.

    Buckets of two rows: the first keeps the entry nearest the root (most work to redo), the second
    the latest other one; the many cheap entries near the end of the hand cannot flush the first.
    """
    lo = -INF
    hi = INF
    if best <= alpha:
        hi = best
    elif best >= beta:
        lo = best
    else:
        lo = best
        hi = best
    row = _tt_find(tt, base, k1, k2, meta)
    if row >= 0:
        # Same position searched again with another window: keep what both searches proved.
        old_lo, old_hi, old_move = _tt_bounds(tt[row, 3])
        lo = max(lo, old_lo)
        hi = min(hi, old_hi)
        if move == NO_CARD:
            move = old_move
    else:
        first = tt[base, 2]
        row = base + 1
        if (first >> 7) != (meta >> 7) or ((first >> 4) & 7) >= ((meta >> 4) & 7):
            # The first row's entry (another search's, or no nearer the root): it moves down.
            for i in range(4):
                tt[base + 1, i] = tt[base, i]
            row = base
    tt[row, 0] = k1
    tt[row, 1] = k2
    tt[row, 2] = meta
    tt[row, 3] = (lo + INF) | ((hi + INF) << 22) | ((move + 1) << 44)


@njit(cache=True, nogil=True)
def _alphabeta(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int,
               alpha: int, beta: int, trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool,
               tt: Any, gen: int, stack: Any,
               stats: Any) -> int:  # pragma: no cover - compiled
    """Fail-soft alpha-beta (NS maximises) on an explicit stack; the table holds bounds per trick start.

    With a window wider than one point, every move after the first is searched with a null window
    first (principal variation search) and again with the real one only if it lands inside, which
    saves nodes and time.

    ``hands`` is changed while searching and restored. Stops early (``stats[_ABORTED]``) past the node
    limit. No recursion: numba compiles and caches recursive functions poorly.
    """
    mask_tt = tt.shape[0] - 1
    ply = 0
    stack[ply, _C0] = c0
    stack[ply, _C1] = c1
    stack[ply, _C2] = c2
    stack[ply, _COUNT] = count
    stack[ply, _LEADER] = leader
    stack[ply, _DONE] = done
    stack[ply, _PIT] = pit
    stack[ply, _ALPHA] = alpha
    stack[ply, _BETA] = beta
    in_trick = 0
    if count > 0:
        in_trick |= 1 << c0
    if count > 1:
        in_trick |= 1 << c1
    if count > 2:
        in_trick |= 1 << c2
    remaining = hands[0] | hands[1] | hands[2] | hands[3] | in_trick
    rem = 0
    for card in range(32):
        if (remaining >> card) & 1:
            rem += _CARD_POINTS[trump * 32 + card]
    stack[ply, _REM] = rem
    stack[ply, _ROEM_BOUND] = _roem_bound(remaining, 8 - done, trump, stuk)
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
            n_leader = stack[ply, _LEADER]
            n_pit = stack[ply, _PIT]
            resolved = False
            tt_best = NO_CARD
            stack[ply, _SLOT] = -1
            # What is left to win bounds the value: once the window lies beyond it, nothing below
            # this node can matter.
            rest = stack[ply, _REM] + _LAST_BONUS + stack[ply, _ROEM_BOUND]
            upper = rest + (_PIT_BONUS if n_pit in (PIT_NONE, PIT_NS) else 0)
            lower = -rest - (_PIT_BONUS if n_pit in (PIT_NONE, PIT_EW) else 0)
            if upper <= stack[ply, _ALPHA]:
                ret = upper
                resolved = True
            elif lower >= stack[ply, _BETA]:
                ret = lower
                resolved = True
            elif n_count == 0 and stack[ply, _DONE] == 6:
                stats[_NODES] += _NESTED_TWO_COST
                ret = _last_two((hands[0], hands[1], hands[2], hands[3]), n_leader, n_pit, stack[ply, _ALPHA],
                                stack[ply, _BETA], trump, amsterdam, undertrump_forced, stuk,
                                stack[ply, _ROEM_BOUND] > 0)
                resolved = True
            elif n_count == 0 and stack[ply, _DONE] == 7:
                # Last trick: every hand holds one card, nothing to choose.
                l0 = lowest_bit(hands[n_leader])
                l1 = lowest_bit(hands[(n_leader + 1) & 3])
                l2 = lowest_bit(hands[(n_leader + 2) & 3])
                l3 = lowest_bit(hands[(n_leader + 3) & 3])
                _, _, signed = finish_trick(l0, l1, l2, l3, n_leader, 7, n_pit, trump, stuk)
                ret = signed
                resolved = True
            elif n_count == 0:
                k1 = hands[0] | (hands[1] << 32)
                k2 = hands[2] | (hands[3] << 32)
                meta = (gen << 7) | (stack[ply, _DONE] << 4) | (n_leader << 2) | n_pit
                slot = _tt_bucket(k1, k2, meta, mask_tt)
                stack[ply, _SLOT] = slot
                stack[ply, _K1] = k1
                stack[ply, _K2] = k2
                stack[ply, _META] = meta
                found = _tt_find(tt, slot, k1, k2, meta)
                if found >= 0:
                    lo, hi, move = _tt_bounds(tt[found, 3])
                    if lo >= stack[ply, _BETA] or lo == hi:
                        ret = lo
                        resolved = True
                    elif hi <= stack[ply, _ALPHA]:
                        ret = hi
                        resolved = True
                    else:
                        stack[ply, _ALPHA] = max(stack[ply, _ALPHA], lo)
                        stack[ply, _BETA] = min(stack[ply, _BETA], hi)
                        tt_best = move
                if not resolved and stack[ply, _DONE] == 5:
                    # Three tricks left: nested loops (the last two tricks from the ending cache); the bound
                    # they prove goes to the table.
                    # Counted as several nodes: the node limit stands for time, and this costs that much.
                    stats[_NODES] += _NESTED_THREE_COST
                    killer = _KILLERS + n_leader
                    if tt_best == NO_CARD:
                        tt_best = stack[killer, 5]
                    ret, lead = _last_three_lead((hands[0], hands[1], hands[2], hands[3]), n_leader, n_pit,
                                                 stack[ply, _ALPHA], stack[ply, _BETA], trump, amsterdam,
                                                 undertrump_forced, stuk, tt_best, stack[ply, _ROEM_BOUND] > 0,
                                                 stack)
                    _tt_store(tt, slot, k1, k2, meta, ret, stack[ply, _ALPHA],
                              stack[ply, _BETA], lead)
                    if (ret >= stack[ply, _BETA]) if (n_leader & 1) == 0 else (ret <= stack[ply, _ALPHA]):
                        stack[killer, 5] = lead
                    resolved = True
            if not resolved and n_count == 3 and stack[ply, _DONE] <= 4:
                # The trick's last card: before searching any child, look in the table for one whose
                # bound already decides this node (enhanced transposition cutoff).
                e_seat = (n_leader + 3) & 3
                e_hand = hands[e_seat]
                e_max = (e_seat & 1) == 0
                t0 = stack[ply, _C0]
                t1 = stack[ply, _C1]
                t2 = stack[ply, _C2]
                e_legal = legal_mask(e_hand, t0, t1, t2, 3, trump, amsterdam, undertrump_forced)
                e_meta = (gen << 7) | ((stack[ply, _DONE] + 1) << 4)
                while e_legal:
                    e_card = lowest_bit(e_legal)
                    e_legal &= e_legal - 1
                    e_winner = (n_leader + trick_winner(t0, t1, t2, e_card, trump)) & 3
                    e_team = 1 + (e_winner & 1)
                    e_pit = e_team if n_pit in (PIT_NONE, e_team) else PIT_MIXED
                    hands[e_seat] = e_hand ^ (1 << e_card)
                    k1 = hands[0] | (hands[1] << 32)
                    k2 = hands[2] | (hands[3] << 32)
                    hands[e_seat] = e_hand
                    meta = e_meta | (e_winner << 2) | e_pit
                    found = _tt_find(tt, _tt_bucket(k1, k2, meta, mask_tt), k1, k2, meta)
                    if found >= 0:
                        lo, hi, move = _tt_bounds(tt[found, 3])
                        if (lo > -INF) if e_max else (hi < INF):
                            _, _, e_signed = finish_trick(t0, t1, t2, e_card, n_leader, stack[ply, _DONE], n_pit,
                                                          trump, stuk)
                            if e_max and lo + e_signed >= stack[ply, _BETA]:
                                ret = lo + e_signed
                                resolved = True
                                break
                            if not e_max and hi + e_signed <= stack[ply, _ALPHA]:
                                ret = hi + e_signed
                                resolved = True
                                break
            if resolved:
                if ply == 0:
                    return ret
                ply -= 1
                returning = True
                continue
            # The window actually searched: a result outside it is only a bound.
            stack[ply, _ALPHA0] = stack[ply, _ALPHA]
            stack[ply, _BETA0] = stack[ply, _BETA]
            seat = (n_leader + n_count) & 3
            stack[ply, _N] = _gen_moves((hands[0], hands[1], hands[2], hands[3]), seat, stack, ply, trump, amsterdam,
                                         undertrump_forced, tt_best)
            stack[ply, _IDX] = 0
            stack[ply, _BEST] = -INF if (seat & 1) == 0 else INF
            stack[ply, _BEST_CARD] = stack[ply, _MOVES]
        seat = (stack[ply, _LEADER] + stack[ply, _COUNT]) & 3
        maximise = (seat & 1) == 0
        research = False
        value = 0
        if returning:
            # A child's value came back for the move at stack[ply, _IDX].
            returning = False
            card = stack[ply, _MOVES + stack[ply, _IDX]]
            hands[seat] ^= 1 << card
            value = ret + stack[ply, _SIGNED]
            if stack[ply, _SCOUT] and stack[ply, _ALPHA] < value < stack[ply, _BETA]:
                research = True  # the null window failed inside the real one: search the move again with it
            elif maximise:
                if value > stack[ply, _BEST]:
                    stack[ply, _BEST] = value
                    stack[ply, _BEST_CARD] = card
                    if value > stack[ply, _ALPHA]:
                        stack[ply, _ALPHA] = value
            else:
                if value < stack[ply, _BEST]:
                    stack[ply, _BEST] = value
                    stack[ply, _BEST_CARD] = card
                    if value < stack[ply, _BETA]:
                        stack[ply, _BETA] = value
            if research:
                pass  # the same move again, with the real window (below)
            elif stack[ply, _ALPHA] >= stack[ply, _BETA]:
                stack[ply, _IDX] = stack[ply, _N]
                left = 8 - stack[ply, _DONE]
                stack[_HISTORY + seat, card] += left * left
                trick = stack[ply, _DONE]
                if stack[ply, _COUNT] == 0 and stack[_KILLERS + seat, trick] != card:
                    stack[_KILLERS + seat, 8 + trick] = stack[_KILLERS + seat, trick]
                    stack[_KILLERS + seat, trick] = card
            else:
                stack[ply, _IDX] += 1
        if stack[ply, _IDX] < stack[ply, _N]:
            card = stack[ply, _MOVES + stack[ply, _IDX]]
            hands[seat] ^= 1 << card
            stack[ply, _SCOUT] = 0
            n_count = stack[ply, _COUNT]
            if n_count < 3:
                stack[ply, _SIGNED] = 0
                stack[ply + 1, _REM] = stack[ply, _REM]
                stack[ply + 1, _ROEM_BOUND] = stack[ply, _ROEM_BOUND]
                stack[ply + 1, _C0] = card if n_count == 0 else stack[ply, _C0]
                stack[ply + 1, _C1] = card if n_count == 1 else stack[ply, _C1]
                stack[ply + 1, _C2] = card if n_count == 2 else stack[ply, _C2]
                stack[ply + 1, _COUNT] = n_count + 1
                stack[ply + 1, _LEADER] = stack[ply, _LEADER]
                stack[ply + 1, _DONE] = stack[ply, _DONE]
                stack[ply + 1, _PIT] = stack[ply, _PIT]
            else:
                t0 = stack[ply, _C0]
                t1 = stack[ply, _C1]
                t2 = stack[ply, _C2]
                winner, new_pit, signed = finish_trick(t0, t1, t2, card, stack[ply, _LEADER], stack[ply, _DONE],
                                                        stack[ply, _PIT], trump, stuk)
                stack[ply, _SIGNED] = signed
                if stack[ply, _DONE] == 7:
                    ret = 0  # the hand is over: nothing more to come
                    returning = True
                    continue
                stack[ply + 1, _REM] = stack[ply, _REM] - trick_points(t0, t1, t2, card, trump)
                left = hands[0] | hands[1] | hands[2] | hands[3]
                stack[ply + 1, _ROEM_BOUND] = _roem_bound(left, 7 - stack[ply, _DONE], trump, stuk)
                stack[ply + 1, _C0] = 0
                stack[ply + 1, _C1] = 0
                stack[ply + 1, _C2] = 0
                stack[ply + 1, _COUNT] = 0
                stack[ply + 1, _LEADER] = winner
                stack[ply + 1, _DONE] = stack[ply, _DONE] + 1
                stack[ply + 1, _PIT] = new_pit
            a = stack[ply, _ALPHA]
            b = stack[ply, _BETA]
            if research:
                # The null window proved a bound beyond alpha (beta): the search starts from it.
                if maximise:
                    a = max(a, value - 1)
                else:
                    b = min(b, value + 1)
            elif stack[ply, _IDX] > 0 and b - a > 1:
                stack[ply, _SCOUT] = 1
                if maximise:
                    b = a + 1
                else:
                    a = b - 1
            stack[ply + 1, _ALPHA] = a - stack[ply, _SIGNED]
            stack[ply + 1, _BETA] = b - stack[ply, _SIGNED]
            ply += 1
            entering = True
            continue
        # All moves done (or cut off): store what was proved and return the value.
        best: int = stack[ply, _BEST]
        slot = stack[ply, _SLOT]
        if slot >= 0:
            _tt_store(tt, slot, stack[ply, _K1], stack[ply, _K2], stack[ply, _META], best,
                      stack[ply, _ALPHA0], stack[ply, _BETA0], stack[ply, _BEST_CARD])
        ret = best
        if ply == 0:
            return ret
        ply -= 1
        returning = True


@njit(cache=True, nogil=True)
def _mtdf(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int, guess: int,
          lo: int, hi: int, trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, tt: Any, gen: int,
          stack: Any, stats: Any) -> int:  # pragma: no cover - compiled
    """Exact value: a zero-window test at the guess, then windows widening on the side it left open.

    Zero-window tests near the value are the costly ones (2M nodes each on the worst deals) and
    bisection needed 11-14 tests in all: a window of _WINDOW points, doubled while the value lies
    beyond it, finds the value in one or two searches that reuse every bound stored so far. A
    window open to +-INF would do it in one, but then the first move at every node below must be
    valued exactly, however bad it is.

    ``lo``/``hi``: bounds the caller already proved (+-INF if none); with one, the test is skipped.
    """
    if lo == -INF and hi == INF:
        g = _alphabeta(hands, c0, c1, c2, count, leader, done, pit, guess - 1, guess, trump, amsterdam,
                       undertrump_forced, stuk, tt, gen, stack, stats)
        if stats[_ABORTED]:
            return 0
        # Fail-soft: g >= guess proves value >= g, g < guess proves value <= g.
        if g >= guess:
            lo = g
        else:
            hi = g
    width = _WINDOW
    while lo < hi:
        alpha = lo if lo > -INF else hi - width
        beta = hi if hi < INF else lo + width
        width *= 2
        g = _alphabeta(hands, c0, c1, c2, count, leader, done, pit, alpha, beta, trump, amsterdam,
                       undertrump_forced, stuk, tt, gen, stack, stats)
        if stats[_ABORTED]:
            return 0
        if g <= alpha:
            hi = g
        elif g >= beta:
            lo = g
        else:
            return g
    return lo


@njit(cache=True, nogil=True, inline="always")
def _child(c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int, card: int, trump: int,
           stuk: bool) -> tuple[int, int, int, int, int, int, int, int]:  # pragma: no cover - compiled
    """The position one card later (trick cards, count, leader, tricks done, pit) and what it added (NS signed)."""
    if count == 0:
        return card, c1, c2, 1, leader, done, pit, 0
    if count == 1:
        return c0, card, c2, 2, leader, done, pit, 0
    if count == 2:
        return c0, c1, card, 3, leader, done, pit, 0
    winner, new_pit, signed = finish_trick(c0, c1, c2, card, leader, done, pit, trump, stuk)
    return 0, 0, 0, 0, winner, done + 1, new_pit, signed


@njit(cache=True, nogil=True, inline="always")
def _reaches(hands: Any, seat: int, card: int, target: int, c0: int, c1: int, c2: int, count: int, leader: int,
             done: int, pit: int, trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, tt: Any, gen: int,
             stack: Any, stats: Any) -> bool:  # pragma: no cover - compiled
    """Whether ``seat`` playing ``card`` reaches ``target`` (NS minus EW) for its side: one zero-window test."""
    hand = hands[seat]
    hands[seat] = hand ^ (1 << card)
    k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, signed = _child(c0, c1, c2, count, leader, done, pit, card,
                                                                         trump, stuk)
    edge = target - signed
    maximise = (seat & 1) == 0
    if k_done == 8:
        reached = (edge <= 0) if maximise else (edge >= 0)
    elif maximise:
        reached = _alphabeta(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, edge - 1, edge, trump,
                             amsterdam, undertrump_forced, stuk, tt, gen, stack, stats) >= edge
    else:
        reached = _alphabeta(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, edge, edge + 1, trump,
                             amsterdam, undertrump_forced, stuk, tt, gen, stack, stats) <= edge
    hands[seat] = hand
    return reached


@njit(cache=True, nogil=True)
def _move_kernel(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int,
                 trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, tt: Any, gen: int,
                 stack: Any, stats: Any, target: int) -> int:  # pragma: no cover - compiled
    """A best card of the seat to move, given the position's exact value ``target`` (NS minus EW).

    The moves are tried in the search's order, each with one zero-window test of whether it reaches
    ``target``; the first that does is a best card. Far cheaper than a solve, which must also prove
    that no other card is better. NO_CARD past the node limit (or if ``target`` was not the value).
    """
    seat = (leader + count) & 3
    stack[_ROOT_ROW, _C0] = c0
    stack[_ROOT_ROW, _C1] = c1
    stack[_ROOT_ROW, _C2] = c2
    stack[_ROOT_ROW, _COUNT] = count
    n = _gen_moves((hands[0], hands[1], hands[2], hands[3]), seat, stack, _ROOT_ROW, trump, amsterdam,
                   undertrump_forced, NO_CARD)
    for i in range(n):
        card = stack[_ROOT_ROW, _MOVES + i]
        reached = _reaches(hands, seat, card, target, c0, c1, c2, count, leader, done, pit, trump, amsterdam,
                           undertrump_forced, stuk, tt, gen, stack, stats)
        if stats[_ABORTED]:
            return NO_CARD
        if reached:
            return int(card)
    return NO_CARD


@njit(cache=True, nogil=True)
def _solve_kernel(hands: Any, c0: int, c1: int, c2: int, count: int, leader: int, done: int, pit: int,
                  trump: int, amsterdam: bool, undertrump_forced: bool, stuk: bool, tt: Any, gen: int,
                  stack: Any, stats: Any, values: Any, all_moves: bool, estimates: Any,
                  estimated: bool, skip: int) -> int:  # pragma: no cover - compiled
    """Value (team NS minus team EW) of the rest of the hand from a position, with perfect play.

    The root's moves are searched one by one: with ``all_moves`` each gets its exact value in
    ``values[card]``; otherwise the first move is valued exactly and the others only tested
    against the best so far with a zero window. ``stats[_BEST_MOVE]`` gets a best card: of the
    best moves, the first in ``_gen_moves``' order.

    ``estimated``: ``estimates[card]`` is an estimate of each legal card's value (NS minus EW); the
    moves are searched best estimate first, the first from its estimate. Then the moves earlier in
    ``_gen_moves``' order than the best card found are tested for reaching the best value, so the
    best card is the one a search in that order finds.

    ``skip`` (with ``all_moves``): a mask of cards not to value; a move is left out when every card it stands
    for is in it.
    """
    seat = (leader + count) & 3
    maximise = (seat & 1) == 0
    hand = hands[seat]
    stack[_ROOT_ROW, _C0] = c0
    stack[_ROOT_ROW, _C1] = c1
    stack[_ROOT_ROW, _C2] = c2
    stack[_ROOT_ROW, _COUNT] = count
    n = _gen_moves((hands[0], hands[1], hands[2], hands[3]), seat, stack, _ROOT_ROW, trump, amsterdam,
                   undertrump_forced, NO_CARD)
    order = np.arange(n)
    guess = 0
    if estimated:
        # Insertion sort, stable: moves of equal estimates keep their order.
        sign = 1 if maximise else -1
        for i in range(1, n):
            moved = order[i]
            key = sign * estimates[stack[_ROOT_ROW, _MOVES + moved]]
            j = i
            while j > 0 and sign * estimates[stack[_ROOT_ROW, _MOVES + order[j - 1]]] < key:
                order[j] = order[j - 1]
                j -= 1
            order[j] = moved
        for step in range(n):  # the first move searched starts from its estimate
            if not all_moves or stack[_ROOT_ROW, _MERGED + order[step]] & ~skip != 0:
                guess = estimates[stack[_ROOT_ROW, _MOVES + order[step]]]
                break
    best = -INF if maximise else INF
    best_card = NO_CARD
    best_rank = n
    exact = np.zeros(n, dtype=np.bool_)  # by _gen_moves' index: the move's exact value is known
    for step in range(n):
        i = order[step]
        card = stack[_ROOT_ROW, _MOVES + i]
        if all_moves and stack[_ROOT_ROW, _MERGED + i] & ~skip == 0:
            exact[i] = True  # not asked for: never the best card, never tested
            continue
        hands[seat] = hand ^ (1 << card)
        # The child position, one card later.
        k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, signed = _child(c0, c1, c2, count, leader, done, pit,
                                                                             card, trump, stuk)
        better = True
        if k_done == 8:
            value = signed
        elif all_moves or step == 0:
            value = signed + _mtdf(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, guess - signed,
                                   -INF, INF, trump, amsterdam, undertrump_forced, stuk, tt, gen, stack, stats)
        else:
            # Only a better move needs its exact value: test it first with a zero window.
            edge = best - signed
            if maximise:
                test = _alphabeta(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, edge, edge + 1,
                                  trump, amsterdam, undertrump_forced, stuk, tt, gen, stack, stats)
                better = test > edge
            else:
                test = _alphabeta(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, edge - 1, edge,
                                  trump, amsterdam, undertrump_forced, stuk, tt, gen, stack, stats)
                better = test < edge
            value = best
            if better and not stats[_ABORTED]:
                # The test proved a bound (fail-soft: beyond the edge): the search starts from it.
                value = signed + _mtdf(hands, k_c0, k_c1, k_c2, k_count, k_leader, k_done, k_pit, test,
                                       test if maximise else -INF, INF if maximise else test, trump, amsterdam,
                                       undertrump_forced, stuk, tt, gen, stack, stats)
        hands[seat] = hand
        if stats[_ABORTED]:
            return 0
        exact[i] = better
        if all_moves:
            merged = stack[_ROOT_ROW, _MERGED + i]
            for other in range(32):
                if (merged >> other) & 1:
                    values[other] = value
        guess = value
        if best_card == NO_CARD or (maximise and value > best) or (not maximise and value < best):
            best = value
            best_card = card
            best_rank = i
        elif better and value == best and i < best_rank:
            best_card = card
            best_rank = i
    # Searched out of _gen_moves' order: the best card is the first move in that order that reaches the
    # best value (a zero-window test each, for the moves not valued exactly).
    for i in range(best_rank):
        if exact[i]:
            continue  # valued exactly below the best value, or it would be the best card already
        card = stack[_ROOT_ROW, _MOVES + i]
        reached = _reaches(hands, seat, card, best, c0, c1, c2, count, leader, done, pit, trump, amsterdam,
                           undertrump_forced, stuk, tt, gen, stack, stats)
        if stats[_ABORTED]:
            return 0
        if reached:
            best_card = card
            break
    stats[_BEST_MOVE] = best_card
    return best


ROTTERDAM = SolveRules()


@dataclass(frozen=True, slots=True)
class Solution:
    value: int  # points + roem still to come, for ``team`` minus the other team
    card: int  # a best card for the seat to move
    team: int
    nodes: int


def pit_state(winners: list[int] | tuple[int, ...]) -> int:
    """The pit state after completed tricks won by the given seats."""
    teams = {seat & 1 for seat in winners}
    if not teams:
        return PIT_NONE
    if len(teams) == 2:
        return PIT_MIXED
    return PIT_NS if 0 in teams else PIT_EW


def held_stuk_bonus(original_hands: tuple[int, int, int, int], trump: int, scored: tuple[int, ...]) -> int:
    """Stuk: held, still to score (NS minus EW): seats that were dealt trump K+Q and have not scored yet.

    Every card gets played, so such a seat will score it whatever the play: a constant of the deal.
    """
    stuk = rulebook.stuk_mask(trump)
    total = 0
    for seat in range(4):
        if original_hands[seat] & stuk == stuk and seat not in scored:
            total += rulebook.STUK_ROEM if seat & 1 == 0 else -rulebook.STUK_ROEM
    return total


# Solves before the end of trick _ESTIMATE_STOP search the root's moves in the order of their horizon values
# (exact play to that trick's end, a fitted estimate beyond), the first from its value: fewer nodes early in
# a deal, where the estimate is cheap against the search; later the horizon costs more than it saves
# (measurements in engine/docs/ai-experiments.md).
_ESTIMATE_STOP = 2

# The table's size: 32 MB, where a larger table no longer saves nodes worth its memory
# (engine/docs/ai-experiments.md). Its pages are taken from the system as the search first writes them.
TABLE_BITS = 20


def _zeroed(rows: int, columns: int) -> Any:
    """A zeroed int64 array, in huge pages where the system gives them on request (Linux's transparent
    huge pages in "madvise" mode): the table's probes land anywhere in 32 MB, and with 4 KB pages
    nearly every one also missed the TLB."""
    size = rows * columns * 8
    try:
        buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buffer.madvise(mmap.MADV_HUGEPAGE)
    except (AttributeError, OSError, ValueError):  # not Linux, or no huge pages: ordinary pages
        return np.zeros((rows, columns), dtype=np.int64)
    return np.frombuffer(buffer, dtype=np.int64).reshape(rows, columns)


class DoubleDummy:
    """A solver with its own transposition table; not thread-safe, one per thread (``thread_solver``).

    The compiled search releases the GIL (nogil), so solvers in several threads run in parallel.
    """

    def __init__(self, tt_bits: int = TABLE_BITS) -> None:
        size = 1 << tt_bits
        # One row an entry (hands NS, hands EW, generation/leader/pit, bounds and move packed): a
        # probe touches one cache line, and the search gets one array to pass, not six.
        # Zeros (pages the system hands out only when first written): generations start at 1, so an
        # empty row matches no position and is replaced as an older generation's is.
        self._tt = _zeroed(size, 4)
        self._stack = np.zeros((_ENDS + (1 << _ENDS_BITS) // _FIELDS, _FIELDS), dtype=np.int64)
        self._stats = np.zeros(4, dtype=np.int64)
        self._values = np.zeros(32, dtype=np.int64)
        self._hands = np.zeros(4, dtype=np.int64)
        self._estimates = np.zeros(32, dtype=np.int64)
        self._horizon = Horizon()  # the root's move ordering (``_estimate``)
        self._gen = 0
        # The trump and rules the table's entries were searched under: a call with ``keep`` and the same
        # ones reads them (what a search proved about a position stays true), any other starts afresh.
        self._kept: tuple[int, SolveRules] | None = None
        self.nodes = 0  # nodes searched by the last call

    def _run(self, pos: Position, rules: SolveRules, node_limit: int, all_moves: bool,
             keep: bool = False, skip: int = 0) -> int | None:
        count = len(pos.trick)
        if count > 3 or not 0 <= pos.tricks_done <= 7:
            raise ValueError("a position has 0..3 cards in the trick and 0..7 completed tricks")
        cards_left = 32 - 4 * pos.tricks_done
        for i, mask in enumerate(pos.hands):
            expected = cards_left // 4 - (1 if ((i - pos.leader) & 3) < count else 0)
            if rulebook.popcount(mask) != expected:
                raise ValueError(f"seat {i} holds {rulebook.popcount(mask)} cards, expected {expected}")
        # Entries are keyed on the hands, leader and pit only, so those of another trump or rules must
        # never match: a new generation. An aborted search stores only what its finished subtrees proved.
        if not keep or self._kept != (pos.trump, rules):
            self._gen += 1
        self._kept = (pos.trump, rules)
        for i in range(4):
            self._hands[i] = pos.hands[i]
        self._stats[_NODES] = 0
        self._stats[_LIMIT] = node_limit if node_limit > 0 else 1 << 62
        self._stats[_ABORTED] = 0
        self._stats[_BEST_MOVE] = NO_CARD
        self._values.fill(-INF - 1)
        self._stack[_HISTORY:_KILLERS].fill(0)
        self._stack[_KILLERS:_ENDS].fill(NO_CARD)
        estimated = pos.tricks_done < _ESTIMATE_STOP
        if estimated and not self._estimate(pos, rules):
            self.nodes = int(self._stats[_NODES])
            return None  # past the node limit already
        trick = (*pos.trick, 0, 0, 0)
        value = int(_solve_kernel(self._hands, trick[0], trick[1], trick[2], count, pos.leader, pos.tricks_done,
                                  pos.pit, pos.trump, rules.amsterdam, rules.undertrump_forced, rules.stuk_in_trick,
                                  self._tt, self._gen, self._stack, self._stats, self._values, all_moves,
                                  self._estimates, estimated, skip))
        self.nodes = int(self._stats[_NODES])
        if self._stats[_ABORTED]:
            return None
        return value

    def _estimate(self, pos: Position, rules: SolveRules) -> bool:
        """``self._estimates``: each legal card's value by the horizon search (``engine.ai.horizon``, exact
        play to the end of trick _ESTIMATE_STOP, a fitted estimate beyond), NS minus EW; its nodes count as the
        solve's. For move ordering only: an estimate, however wrong, changes no value and no best card.
        False past the node limit."""
        estimates = self._horizon.card_values(pos, rules, 0, _ESTIMATE_STOP - pos.tricks_done,
                                              int(self._stats[_LIMIT]))
        self._stats[_NODES] = self._horizon.nodes
        if estimates is None:
            self._stats[_ABORTED] = 1
            return False
        for card, estimate in estimates.items():
            self._estimates[card] = estimate
        return True

    def _best_move(self, pos: Position, rules: SolveRules, node_limit: int, keep: bool, target: int) -> int:
        """A card of the seat to move that keeps the value ``target`` (NS minus EW); NO_CARD if not found."""
        if not keep or self._kept != (pos.trump, rules):
            self._gen += 1
        self._kept = (pos.trump, rules)
        for i in range(4):
            self._hands[i] = pos.hands[i]
        self._stats[_NODES] = 0
        self._stats[_LIMIT] = node_limit if node_limit > 0 else 1 << 62
        self._stats[_ABORTED] = 0
        self._stack[_HISTORY:_KILLERS].fill(0)
        self._stack[_KILLERS:_ENDS].fill(NO_CARD)
        trick = (*pos.trick, 0, 0, 0)
        card = int(_move_kernel(self._hands, trick[0], trick[1], trick[2], len(pos.trick), pos.leader,
                                pos.tricks_done, pos.pit, pos.trump, rules.amsterdam, rules.undertrump_forced,
                                rules.stuk_in_trick, self._tt, self._gen, self._stack, self._stats, target))
        self.nodes = int(self._stats[_NODES])
        return card

    def solve(self, pos: Position, rules: SolveRules = ROTTERDAM, team: int | None = None,
              node_limit: int = 0) -> Solution | None:
        """Best value for ``team`` (default: the side to move) and a best card; None if ``node_limit`` hit."""
        value = self._run(pos, rules, node_limit, all_moves=False)
        if value is None:
            return None
        side = pos.to_move & 1 if team is None else team
        return Solution(value if side == 0 else -value, int(self._stats[_BEST_MOVE]), side, self.nodes)

    def card_values(self, pos: Position, rules: SolveRules = ROTTERDAM, team: int | None = None,
                    node_limit: int = 0, keep: bool = False, skip: int = 0) -> dict[int, int] | None:
        """The exact value for ``team`` (default: the side to move) of each legal card of the seat to move.

        ``keep``: start from what the previous call proved (same trump and rules), as ``line`` does. ``skip``: a
        mask of cards not to value; they may be missing (a card searched as one move with one not skipped is not).
        """
        value = self._run(pos, rules, node_limit, all_moves=True, keep=keep, skip=skip)
        if value is None:
            return None
        side = pos.to_move & 1 if team is None else team
        sign = 1 if side == 0 else -1
        return {card: sign * int(v) for card, v in enumerate(self._values) if v > -INF - 1}


    def line(self, pos: Position, rules: SolveRules = ROTTERDAM, node_limit: int = 0,
             keep: bool = True, value: int | None = None) -> list[int] | None:
        """A best line: the cards played from ``pos`` to the end of the hand, each seat playing a best
        card for its team with every hand known; None past ``node_limit`` (nodes of the whole line).

        The table is kept between the line's solves and, with ``keep``, from the previous call of the
        same trump and rules: after a search of ``pos`` (``card_values`` of its parent) each solve
        mostly reads what was proved. A seat with one legal card plays it without a search. Which of
        two equally good cards is played may depend on the table, so a caller that needs the same line
        every time starts from the same calls (``keep=False`` first). ``value``: the value of ``pos``
        (NS minus EW) when known; from there each card is found by testing that it keeps the value,
        without proving that no other card does better.
        """
        cards: list[int] = []
        spent = 0
        # ``value`` follows the value of the rest (NS minus EW) down the line: a best card reaches it.
        while pos.tricks_done < 8:
            trick = (*pos.trick, 0, 0, 0)
            legal = rulebook.legal_mask(pos.hands[pos.to_move], trick[0], trick[1], trick[2], len(pos.trick),
                                        pos.trump, rules.amsterdam, rules.undertrump_forced)
            if legal & (legal - 1):
                limit = node_limit - spent if node_limit else 0
                if node_limit and limit <= 0:
                    return None
                card = NO_CARD
                if value is not None:
                    card = self._best_move(pos, rules, limit, keep, value)
                    spent += self.nodes
                    if self._stats[_ABORTED]:
                        return None
                    keep = True
                if card == NO_CARD:  # the value is not known yet: solve
                    limit = node_limit - spent if node_limit else 0
                    if node_limit and limit <= 0:
                        return None
                    value = self._run(pos, rules, limit, all_moves=False, keep=keep)
                    spent += self.nodes
                    if value is None:
                        return None
                    card = int(self._stats[_BEST_MOVE])
                    keep = True
            else:
                card = rulebook.lowest_card(legal)
            cards.append(card)
            pos, gain = step(pos, card, rules)
            if value is not None:
                value -= gain
        self.nodes = spent
        return cards


def after(pos: Position, card: int, rules: SolveRules = ROTTERDAM) -> Position:
    """The position once the seat to move has played ``card`` (a completed trick is gathered)."""
    return step(pos, card, rules)[0]


def step(pos: Position, card: int, rules: SolveRules) -> tuple[Position, int]:
    """``after``, and the value the card's trick added if the card completed it (NS minus EW; else 0)."""
    hands = list(pos.hands)
    hands[pos.to_move] ^= 1 << card
    trick = (*pos.trick, card)
    if len(trick) < 4:
        return Position((hands[0], hands[1], hands[2], hands[3]), pos.trump, pos.leader, trick, pos.tricks_done,
                        pos.pit), 0
    winner, pit, gain = finish_trick(trick[0], trick[1], trick[2], trick[3], pos.leader, pos.tricks_done, pos.pit,
                                      pos.trump, rules.stuk_in_trick)
    return Position((hands[0], hands[1], hands[2], hands[3]), pos.trump, winner, (), pos.tricks_done + 1, pit), gain


_threads = threading.local()


def thread_solver() -> DoubleDummy:
    """This thread's solver, made at its first use: players that solve one search at a time share it
    instead of filling a table of their own each (the bot builds a player for every decision).

    Sharing changes no result: a search without ``keep`` reads nothing an earlier one stored, and runs
    the same whatever the table held before.
    """
    solver: DoubleDummy | None = getattr(_threads, "solver", None)
    if solver is None:
        solver = DoubleDummy()
        _threads.solver = solver
    return solver


def _default() -> DoubleDummy:
    return thread_solver()


def solve(pos: Position, rules: SolveRules = ROTTERDAM, team: int | None = None) -> Solution:
    """Solve with a shared solver (single-threaded use)."""
    result = _default().solve(pos, rules, team)
    assert result is not None
    return result


def card_values(pos: Position, rules: SolveRules = ROTTERDAM, team: int | None = None) -> dict[int, int]:
    result = _default().card_values(pos, rules, team)
    assert result is not None
    return result


def warm_up() -> None:
    """Compile (or load from numba's cache) every solver function, so no game waits for it.

    Call it before the first solve of a process: numba reads its cache at a function's first call,
    so only a stale cache dropped before then is compiled afresh.
    """
    drop_stale_caches("solver")
    _horizon_warm_up()  # the root's move ordering (``DoubleDummy._estimate``)
    pos = Position((0x0F0F, 0xF0F0, 0x0F0F0000, 0xF0F00000), trump=0, leader=0)
    _default().solve(pos, ROTTERDAM, node_limit=2000)
    _default().card_values(pos, SolveRules(True, False, False), node_limit=2000)
    _default()._best_move(pos, ROTTERDAM, 2000, False, 0)  # the review's lines (``DoubleDummy.line``)
