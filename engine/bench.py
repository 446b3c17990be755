"""``klaverjas bench engine``: complete random-legal hands per second, public API and fast path.

Benchmarks, not tests: they print figures. The generator is seeded, so runs are repeatable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import rulebook
from engine.game import Game, Phase
from engine.randomness import RandomSource
from engine.settings import MatchLength, Rules


def _api_hands(rng: RandomSource, seconds: float) -> tuple[int, float]:
    """Whole hands through Game: deal, bidding, 32 plays with legal actions before each, settlement."""
    rules = Rules(length=MatchLength(hands=1_000_000))
    hands = 0
    game = Game(rules)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game.deal_random(rng)
        while game.phase is not Phase.DEAL:
            if game.phase is Phase.TURN_UP:
                game.turn_up_random(rng)
                continue
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
        hands += 1
        if hands % 16 == 0:
            if time.perf_counter() > deadline:
                break
            game = Game(rules)  # keep the action history short, as a real match is
    return hands, time.perf_counter() - start


def random_hand_fast(masks: list[int], leader: int, trump: int, amsterdam: bool, undertrump_forced: bool,
                     rng: RandomSource) -> tuple[int, int]:
    """Play one hand of random legal cards on masks; returns the points (with roem) of NS and EW."""
    score = [0, 0]
    legal_mask = rulebook.legal_mask
    for trick_index in range(8):
        seat = leader
        # Pick the k-th set bit, k uniform: strip the k lowest bits first.
        legal = masks[seat]
        for _ in range(int(rng.random() * legal.bit_count())):
            legal &= legal - 1
        c0 = (legal & -legal).bit_length() - 1
        masks[seat] ^= 1 << c0
        seat = (seat + 1) & 3
        legal = legal_mask(masks[seat], c0, 0, 0, 1, trump, amsterdam, undertrump_forced)
        for _ in range(int(rng.random() * legal.bit_count())):
            legal &= legal - 1
        c1 = (legal & -legal).bit_length() - 1
        masks[seat] ^= 1 << c1
        seat = (seat + 1) & 3
        legal = legal_mask(masks[seat], c0, c1, 0, 2, trump, amsterdam, undertrump_forced)
        for _ in range(int(rng.random() * legal.bit_count())):
            legal &= legal - 1
        c2 = (legal & -legal).bit_length() - 1
        masks[seat] ^= 1 << c2
        seat = (seat + 1) & 3
        legal = legal_mask(masks[seat], c0, c1, c2, 3, trump, amsterdam, undertrump_forced)
        for _ in range(int(rng.random() * legal.bit_count())):
            legal &= legal - 1
        c3 = (legal & -legal).bit_length() - 1
        masks[seat] ^= 1 << c3
        winner = (leader + rulebook.trick_winner(c0, c1, c2, c3, trump)) & 3
        points = rulebook.trick_points(c0, c1, c2, c3, trump) + rulebook.trick_roem(c0, c1, c2, c3, trump, True)
        if trick_index == 7:
            points += rulebook.LAST_TRICK_BONUS
        score[winner & 1] += points
        leader = winner
    return score[0], score[1]


def _fast_hands(rng: RandomSource, seconds: float) -> tuple[int, float]:
    deck = list(range(32))
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(64):
            rng.shuffle(deck)
            masks = [0, 0, 0, 0]
            for i, card in enumerate(deck):
                masks[i >> 3] |= 1 << card
            trump = rng.randrange(4)
            ns, ew = random_hand_fast(masks, rng.randrange(4), trump, False, True, rng)
            rulebook.settle(rng.randrange(2), ns, ew, 0, 0)
            hands += 1
        if time.perf_counter() > deadline:
            break
    return hands, time.perf_counter() - start


def bench_engine(make_rng: Callable[[int], RandomSource], seconds: float = 3.0) -> dict[str, Any]:
    """``make_rng(seed)`` gives a seeded generator (``random.Random``): the engine never seeds one itself."""
    api_hands, api_time = _api_hands(make_rng(1), seconds)
    fast_hands, fast_time = _fast_hands(make_rng(2), seconds)
    result: dict[str, Any] = {
        "api_hands_per_s": round(api_hands / api_time),
        "fast_hands_per_s": round(fast_hands / fast_time),
        "api_hands": api_hands,
        "fast_hands": fast_hands,
        "seconds": seconds,
    }
    return result
