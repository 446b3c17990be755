"""The double-dummy solver against a plain minimax written here, on small endings.

The minimax below is deliberately naive: every legal card of every seat, no pruning, no merging of
equivalent cards; only a memo on complete positions (which changes nothing but speed). It states
the scoring on its own (points, last-trick 10, roem per trick to the winner, pit) and uses the
engine's Python rule functions, which the game itself uses.
"""

from __future__ import annotations

import os
import random
from functools import cache
from pathlib import Path

import pytest

from engine import rulebook
from engine.ai.solver import DoubleDummy, pit_state
from engine.ai.tricks import PIT_EW, PIT_MIXED, PIT_NONE, PIT_NS, Position, SolveRules
from engine.cards import Seat
from engine.game import random_deal

RULE_SETS = [SolveRules(amsterdam, forced, stuk) for amsterdam in (False, True) for forced in (True, False)
             for stuk in (True, False)]


@cache
def _value(hands: tuple[int, int, int, int], trick: tuple[int, ...], leader: int, done: int, pit: int, trump: int,
           rules: SolveRules) -> int:
    """Exact value (NS minus EW) of the rest of the hand: best of the values of every legal card."""
    results = _card_values(hands, trick, leader, done, pit, trump, rules).values()
    return max(results) if (leader + len(trick)) & 1 == 0 else min(results)


def _card_values(hands: tuple[int, int, int, int], trick: tuple[int, ...], leader: int, done: int, pit: int,
                 trump: int, rules: SolveRules) -> dict[int, int]:
    seat = (leader + len(trick)) & 3
    padded = (*trick, 0, 0, 0)
    legal = rulebook.legal_mask(hands[seat], padded[0], padded[1], padded[2], len(trick), trump,
                            rules.amsterdam, rules.undertrump_forced)
    results = {}
    for card in range(32):
        if not legal >> card & 1:
            continue
        after = list(hands)
        after[seat] ^= 1 << card
        left = (after[0], after[1], after[2], after[3])
        cards = (*trick, card)
        if len(cards) < 4:
            results[card] = _value(left, cards, leader, done, pit, trump, rules)
            continue
        c0, c1, c2, c3 = cards
        winner = (leader + rulebook.trick_winner(c0, c1, c2, c3, trump)) & 3
        team = winner & 1
        gain = (rulebook.trick_points(c0, c1, c2, c3, trump)
                + rulebook.trick_roem(c0, c1, c2, c3, trump, rules.stuk_in_trick))
        won_all = pit in (PIT_NONE, PIT_NS if team == 0 else PIT_EW)
        new_pit = (PIT_NS if team == 0 else PIT_EW) if won_all else PIT_MIXED
        if done == 7:
            gain += 10 + (100 if won_all else 0)
        signed = gain if team == 0 else -gain
        rest = 0 if done == 7 else _value(left, (), winner, done + 1, new_pit, trump, rules)
        results[card] = signed + rest
    return results


def random_position(rng: random.Random, tricks_left: int) -> Position:
    """Play random legal cards from a random deal until ``tricks_left`` remain, plus 0-3 cards."""
    rules = SolveRules()  # play rules only shape the random play-out
    trump = rng.randrange(4)
    hands = list(random_deal(rng, Seat.N).hands)
    leader = rng.randrange(4)
    winners: list[int] = []
    extra = rng.randrange(4)
    trick: list[int] = []
    while len(winners) < 8 - tricks_left or len(trick) < extra:
        if len(winners) == 8 - tricks_left and len(trick) == extra:
            break
        seat = (leader + len(trick)) & 3
        padded = (*trick, 0, 0, 0)
        legal = rulebook.legal_mask(hands[seat], padded[0], padded[1], padded[2], len(trick), trump, rules.amsterdam,
                                rules.undertrump_forced)
        card = rng.choice([c for c in range(32) if legal >> c & 1])
        hands[seat] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + rulebook.trick_winner(*trick, trump)) & 3
            winners.append(leader)
            trick = []
    return Position((hands[0], hands[1], hands[2], hands[3]), trump, leader, tuple(trick), len(winners),
                    pit_state(winners))


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"ams={r.amsterdam}-forced={r.undertrump_forced}-"
                                                           f"stuk={r.stuk_in_trick}")
def test_solver_matches_minimax_on_endings(rules: SolveRules) -> None:
    rng = random.Random(RULE_SETS.index(rules))
    solver = DoubleDummy(tt_bits=12)
    for i in range(60):
        pos = random_position(rng, tricks_left=2 + i % 3)
        expected = _card_values(pos.hands, pos.trick, pos.leader, pos.tricks_done, pos.pit, pos.trump, rules)
        sign = 1 if pos.to_move & 1 == 0 else -1  # the solver answers for the side to move by default
        result = solver.solve(pos, rules)
        assert result is not None
        assert result.value == sign * _value(pos.hands, pos.trick, pos.leader, pos.tricks_done, pos.pit,
                                             pos.trump, rules), pos
        assert sign * expected[result.card] == result.value, "the best card reaches the best value"
        values = solver.card_values(pos, rules)
        assert values == {card: sign * value for card, value in expected.items()}, pos
        # Asked for a team explicitly, the value is seen from that team.
        for_ns = solver.solve(pos, rules, team=0)
        assert for_ns is not None and for_ns.value == sign * result.value


def test_node_limit_aborts() -> None:
    from engine.ai import solver as dd

    rng = random.Random(5)
    pos = random_position(rng, tricks_left=8)
    solver = DoubleDummy(tt_bits=12)
    assert solver.solve(pos, SolveRules(), node_limit=50) is None
    assert solver.nodes <= 51 + dd._NESTED_THREE_COST  # a nested ending counts as several nodes at once
    # The solver is still usable afterwards: an aborted search leaves nothing wrong behind.
    end = random_position(rng, tricks_left=2)
    expected = _value(end.hands, end.trick, end.leader, end.tricks_done, end.pit, end.trump, SolveRules())
    result = solver.solve(end, SolveRules(), team=0)
    assert result is not None and result.value == expected


def test_a_search_runs_the_same_whatever_the_table_held() -> None:
    """Players share one solver a thread (``thread_solver``): a search must not depend on earlier ones,
    or a node-limited decision would depend on what was solved before it."""
    rng = random.Random(11)
    pos = random_position(rng, tricks_left=8)
    fresh = DoubleDummy(tt_bits=12)
    alone = fresh.card_values(pos, SolveRules())
    used = DoubleDummy(tt_bits=12)
    for _ in range(3):
        used.solve(random_position(rng, tricks_left=8), SolveRules(True, False, False))
    assert used.card_values(pos, SolveRules()) == alone
    assert used.nodes == fresh.nodes
    # Cut off at the same node, the same way.
    limit = fresh.nodes // 2
    assert fresh.card_values(pos, SolveRules(), node_limit=limit) is None
    assert used.card_values(pos, SolveRules(), node_limit=limit) is None
    assert used.nodes == fresh.nodes


def test_skipped_cards_are_not_valued_and_the_others_keep_their_exact_values() -> None:
    rng = random.Random(17)
    solver = DoubleDummy(tt_bits=16)
    checked = 0
    for i in range(40):
        pos = random_position(rng, tricks_left=4 + i % 4)
        rules = RULE_SETS[i % len(RULE_SETS)]
        full = solver.card_values(pos, rules)
        assert full is not None
        if len(set(full.values())) < 2:
            continue
        full_nodes = solver.nodes
        # Skip every card but one of the best: the best card is searched alone.
        best = max(full, key=lambda card: full[card])
        values = solver.card_values(pos, rules, skip=sum(1 << c for c in full if c != best))
        assert values is not None and values[best] == full[best]
        assert all(values[card] == full[card] for card in values)  # touching cards share their move's value
        assert solver.nodes < full_nodes
        checked += 1
    assert checked >= 20


def test_compiled_rules_are_the_engine_rules() -> None:
    """The numba-compiled legal_mask and trick functions agree with engine.rulebook run as Python."""
    from engine.ai import tricks

    rng = random.Random(11)
    for _ in range(3000):
        hand = rng.getrandbits(32)
        trick = [rng.randrange(32) for _ in range(4)]
        count = rng.randrange(4)
        trump = rng.randrange(4)
        ams, forced = rng.random() < 0.5, rng.random() < 0.5
        assert tricks.legal_mask(hand, trick[0], trick[1], trick[2], count, trump, ams, forced) == rulebook.legal_mask(
            hand, trick[0], trick[1], trick[2], count, trump, ams, forced)
        assert tricks.trick_winner(*trick, trump) == rulebook.trick_winner(*trick, trump)
        assert tricks.trick_roem(*trick, trump, ams) == rulebook.trick_roem(*trick, trump, ams)
    for _ in range(2000):  # hands of nothing but trumps: rare above, a rule of their own under amsterdam
        trump = rng.randrange(4)
        hand = (rng.getrandbits(8) | 1 << rng.randrange(8)) << (trump * 8)
        trick = [rng.randrange(32) for _ in range(3)]
        count = rng.randrange(1, 4)
        for ams, forced in ((True, False), (True, True), (False, True)):
            assert tricks.legal_mask(hand, *trick, count, trump, ams, forced) == rulebook.legal_mask(
                hand, *trick, count, trump, ams, forced)


@pytest.mark.parametrize("tricks_left", [2, 3])
def test_nested_endings_match_minimax_in_any_window(tricks_left: int) -> None:
    """The nested-loop endings are fail-soft: exact inside the window, a true bound outside it."""
    from engine.ai import solver as dd

    rng = random.Random(100 + tricks_left)
    ending = dd._last_two_ab if tricks_left == 2 else dd._last_three_ab
    for i in range(150):
        rules = RULE_SETS[i % len(RULE_SETS)]
        pos = random_position(rng, tricks_left=tricks_left)
        while pos.trick:
            pos = random_position(rng, tricks_left=tricks_left)
        exact = _value(pos.hands, (), pos.leader, pos.tricks_done, pos.pit, pos.trump, rules)
        for _ in range(4):
            alpha = rng.randrange(-150, 150)
            beta = alpha + rng.choice([1, 2, 20, 400])
            got = ending(pos.hands, pos.leader, pos.pit, alpha, beta, pos.trump, rules.amsterdam,
                         rules.undertrump_forced, rules.stuk_in_trick)
            if got <= alpha:
                assert exact <= got, pos
            elif got >= beta:
                assert exact >= got, pos
            else:
                assert exact == got, pos


def test_mtdf_is_exact_from_any_guess() -> None:
    """From a guess far off either side, or a proved bound, the widening windows end on the exact value."""
    import numpy as np

    from engine.ai import solver as dd

    rng = random.Random(31)
    solver = DoubleDummy(tt_bits=12)
    for i in range(40):
        rules = RULE_SETS[i % len(RULE_SETS)]
        pos = random_position(rng, tricks_left=4)
        exact = _value(pos.hands, pos.trick, pos.leader, pos.tricks_done, pos.pit, pos.trump, rules)
        trick = (*pos.trick, 0, 0, 0)
        # A guess alone, then a proved lower or upper bound (the test at the root proves one).
        starts = [(guess, -dd.INF, dd.INF) for guess in (exact - 500, exact - 3, exact, exact + 1, exact + 64,
                                                          exact + 500)]
        starts += [(b, b, dd.INF) for b in (exact - 200, exact - 2, exact)]
        starts += [(b, -dd.INF, b) for b in (exact, exact + 2, exact + 200)]
        for guess, lo, hi in starts:
            solver._gen += 1  # a fresh table: no bound left by another guess
            solver._stats[:] = 0
            solver._stats[dd._LIMIT] = 1 << 62
            hands = np.array(pos.hands, dtype=np.int64)
            got = dd._mtdf(hands, trick[0], trick[1], trick[2], len(pos.trick), pos.leader, pos.tricks_done,
                           pos.pit, guess, lo, hi, pos.trump, rules.amsterdam, rules.undertrump_forced,
                           rules.stuk_in_trick, solver._tt, solver._gen, solver._stack, solver._stats)
            assert got == exact, (pos, guess)
            assert list(hands) == list(pos.hands), "the search leaves the hands as it found them"


def test_stale_solver_cache_is_dropped(tmp_path: Path) -> None:
    """Solver cache files older than the rules file go; newer ones and other modules' stay."""
    from engine.ai.tricks import drop_stale_cache

    rules = tmp_path / "rulebook.py"
    rules.write_text("")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    files = [cache / name for name in ("solver._kernel-1.py311.nbi", "solver._kernel-1.py311.1.nbc",
                                       "rulebook.legal_mask-89.py311.nbi")]
    for path in files:
        path.write_text("")
    assert not drop_stale_cache(cache, [rules], "solver")  # as new as the rules: kept
    old = rules.stat().st_mtime - 100
    os.utime(files[0], (old, old))
    assert drop_stale_cache(cache, [rules], "solver")
    assert [path.exists() for path in files] == [False, False, True]
    assert not drop_stale_cache(tmp_path / "missing", [rules], "solver")


def test_warm_up_checks_the_cache_before_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stale-cache checks run in warm_up, first: the shared trick module's cache against the rules, the solver's
    against the rules and that module (numba compiles both into the solver's functions)."""
    from engine.ai import solver, tricks

    calls: list[tuple[Path, list[Path], str]] = []
    monkeypatch.setattr(tricks, "drop_stale_cache",
                        lambda cache, sources, stem: calls.append((cache, list(sources), stem)) or False)
    monkeypatch.setattr(solver, "_default", lambda: pytest.fail("solved before the cache was checked"))
    with pytest.raises(pytest.fail.Exception):
        solver.warm_up()
    cache = Path(tricks.__file__).resolve().parent / "__pycache__"
    rules, shared = Path(rulebook.__file__).resolve(), Path(tricks.__file__).resolve()
    assert calls[:2] == [(cache, [rules], "tricks"), (cache, [rules, shared], "solver")]
    assert (cache, [rules, shared], "horizon") in calls  # the root's move ordering compiles before any solve


@pytest.mark.parametrize("module", ["solver", "horizon", "tricks"])
def test_importing_the_searches_touches_no_file(module: str) -> None:
    """No statement at a search module's top level calls anything that could reach the disk."""
    import ast
    import importlib

    path = Path(importlib.import_module(f"engine.ai.{module}").__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [node for stmt in tree.body if isinstance(stmt, ast.Expr) for node in ast.walk(stmt)
             if isinstance(node, ast.Call)]
    assert [ast.unparse(call.func) for call in calls] == ["register_jitable"] * len(calls)


def test_table_entry_round_trip() -> None:
    """What a search proved (bounds up to +-INF, the best move or none) survives packing into an entry."""
    import numpy as np

    from engine.ai import solver as dd

    inf = dd.INF
    cases = [  # best, alpha, beta, move -> lower bound, upper bound, move
        ((5, 0, 5, 31), (5, inf, 31)),
        ((-7, -7, -6, dd.NO_CARD), (-inf, -7, dd.NO_CARD)),
        ((-300, -400, 400, 0), (-300, -300, 0)),
        ((inf, 0, 1, 7), (inf, inf, 7)),
        ((-inf, 0, 1, 7), (-inf, -inf, 7)),
    ]
    for (best, alpha, beta, move), expected in cases:
        tt = np.zeros((4, 4), dtype=np.int64)
        tt[:, 2] = -1
        dd._tt_store(tt, 2, 11, 22, 33, best, alpha, beta, move)
        row = dd._tt_find(tt, 2, 11, 22, 33)
        assert row in (2, 3) and dd._tt_bounds(int(tt[row, 3])) == expected
    # The same position again with another window: both proofs kept, the known move too.
    tt = np.zeros((4, 4), dtype=np.int64)
    tt[:, 2] = -1
    dd._tt_store(tt, 2, 11, 22, 33, 5, 0, 5, 3)
    dd._tt_store(tt, 2, 11, 22, 33, 9, 9, 10, dd.NO_CARD)
    assert dd._tt_bounds(int(tt[dd._tt_find(tt, 2, 11, 22, 33), 3])) == (5, 9, 3)


def test_table_buckets_keep_the_entry_nearest_the_root() -> None:
    """A bucket's first row keeps the position with the most cards left; later ones pass through the second."""
    import numpy as np

    from engine.ai import solver as dd

    def meta(gen: int, done: int) -> int:
        return (gen << 7) | (done << 4)

    tt = np.zeros((2, 4), dtype=np.int64)
    tt[:, 2] = -1
    dd._tt_store(tt, 0, 1, 1, meta(1, 2), 0, -1, 1, 0)  # trick 3: first row
    dd._tt_store(tt, 0, 2, 2, meta(1, 5), 0, -1, 1, 0)  # trick 6: second row
    dd._tt_store(tt, 0, 3, 3, meta(1, 5), 0, -1, 1, 0)  # trick 6 again: replaces the second row
    assert dd._tt_find(tt, 0, 1, 1, meta(1, 2)) == 0
    assert dd._tt_find(tt, 0, 2, 2, meta(1, 5)) == -1
    assert dd._tt_find(tt, 0, 3, 3, meta(1, 5)) == 1
    dd._tt_store(tt, 0, 4, 4, meta(1, 1), 0, -1, 1, 0)  # nearer the root: first row, the old first moves down
    assert (dd._tt_find(tt, 0, 4, 4, meta(1, 1)), dd._tt_find(tt, 0, 1, 1, meta(1, 2))) == (0, 1)
    dd._tt_store(tt, 0, 5, 5, meta(2, 6), 0, -1, 1, 0)  # a later search's entry outranks an older one's
    assert dd._tt_find(tt, 0, 5, 5, meta(2, 6)) == 0


def test_entry_points_release_the_gil() -> None:
    """The bot may solve from worker threads: the compiled search must not hold the GIL."""
    from engine.ai import solver as dd

    for kernel in (dd._solve_kernel, dd._last_two_ab, dd._last_three_ab):
        assert kernel.targetoptions.get("nogil") is True
