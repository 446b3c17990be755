"""The horizon search: exact to the horizon (so with the horizon at the end it is the solver's value),
the fitted estimate beyond, only legal cards, the node limit respected."""

from __future__ import annotations

import random

from engine import rulebook
from engine.ai.horizon import Horizon, features
from engine.ai.solver import DoubleDummy, step
from engine.ai.tricks import Position, SolveRules

RULE_SETS = [SolveRules(), SolveRules(True, False, False), SolveRules(False, False, True),
             SolveRules(True, True, False)]


def _position(seed: int, tricks: int, cards: int, rules: SolveRules) -> Position:
    """A random deal after random legal play of ``tricks`` tricks and ``cards`` cards more."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[i * 8:(i + 1) * 8]) for i in range(4))
    pos = Position((hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), rng.randrange(4))
    while pos.tricks_done < tricks or len(pos.trick) < cards:
        trick = (*pos.trick, 0, 0, 0)
        legal = rulebook.legal_mask(pos.hands[pos.to_move], trick[0], trick[1], trick[2], len(pos.trick),
                                    pos.trump, rules.amsterdam, rules.undertrump_forced)
        options = [c for c in range(32) if legal >> c & 1]
        pos, _ = step(pos, rng.choice(options), rules)
    return pos


def test_with_the_horizon_at_the_end_the_values_are_exact() -> None:
    solver = DoubleDummy()
    horizon = Horizon()
    for i, rules in enumerate(RULE_SETS * 3):
        pos = _position(i, 4, i % 4, rules)
        for team in (0, 1):
            exact = solver.card_values(pos, rules, team)
            assert exact is not None
            assert horizon.card_values(pos, rules, team, tricks=8) == exact


def test_values_cover_exactly_the_legal_cards() -> None:
    horizon = Horizon()
    for i, rules in enumerate(RULE_SETS * 2):
        pos = _position(100 + i, i % 3, i % 4, rules)
        values = horizon.card_values(pos, rules, 0, tricks=2)
        assert values is not None
        trick = (*pos.trick, 0, 0, 0)
        legal = rulebook.legal_mask(pos.hands[pos.to_move], trick[0], trick[1], trick[2], len(pos.trick), pos.trump,
                                    rules.amsterdam, rules.undertrump_forced)
        assert set(values) == {c for c in range(32) if legal >> c & 1}


def test_the_teams_values_are_opposite_and_the_node_limit_is_kept() -> None:
    horizon = Horizon()
    pos = _position(7, 0, 0, SolveRules())
    ns = horizon.card_values(pos, SolveRules(), 0, tricks=2)
    ew = horizon.card_values(pos, SolveRules(), 1, tricks=2)
    assert ns is not None and ew is not None and ns == {c: -v for c, v in ew.items()}
    assert horizon.nodes > 50
    assert horizon.card_values(pos, SolveRules(), 0, tricks=2, node_limit=50) is None
    assert horizon.nodes <= 51


def test_the_estimate_sees_who_holds_the_top_cards() -> None:
    # NS holds every trump and the aces: every feature favours NS; swapping the hands flips their signs.
    ns = (0xFF | (1 << 15), 0xFF00 & ~(1 << 15) | (1 << 23), 0xFF0000 & ~(1 << 23) | (1 << 31), 0xFF000000 & ~(1 << 31))
    f = features(ns, 0, 0)
    assert f[0] > 0 and f[1] == 8 and f[5] == 1
    swapped = features((ns[1], ns[0], ns[3], ns[2]), 1, 0)
    assert swapped == [-x for x in f]


def test_skipped_cards_are_not_searched_and_the_others_keep_their_values() -> None:
    horizon = Horizon()
    for i, rules in enumerate(RULE_SETS * 2):
        pos = _position(200 + i, i % 2, 0, rules)
        full = horizon.card_values(pos, rules, 0, tricks=2)
        assert full is not None and len(full) > 2
        full_nodes = horizon.nodes
        skipped = sorted(full)[::2]
        values = horizon.card_values(pos, rules, 0, tricks=2, skip=sum(1 << c for c in skipped))
        assert values == {card: value for card, value in full.items() if card not in skipped}
        assert horizon.nodes < full_nodes
