"""``klaverjas bench ai`` and ``bench review``: solve, pimc decision and match review times, as JSON-ready figures.

Solver: random deals and trumps (rotterdam), solved from the first lead, and from the start of the
2nd and 3rd trick after the solver's own best play up to there. pimc: whole hands played by four
pimc players at default settings, every decision timed (forced single-card plays included, as a
table sees them); ``pimc_fallback_share``: of the card decisions with a choice, the share where too
few deals were solved and the heuristic decided; ``pimc_horizon_share``: those searched to a trick horizon
because too few deals could be solved exactly. mc (``bench_mc``): whole hands by four mc players, its card
decisions with a choice and its calls timed apart. Deals come from a fixed seed, so runs are comparable.
"""

from __future__ import annotations

import time

from engine import rulebook
from engine.ai.base import play_keyed
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.mc import MonteCarloPlayer
from engine.ai.mc import warm_up as mc_warm_up
from engine.ai.pimc import PimcPlayer, SeededRandom, warm_up
from engine.ai.review_summary import accuracy
from engine.ai.solver import DoubleDummy, pit_state
from engine.ai.tricks import Position, SolveRules
from engine.cards import SEATS, Seat
from engine.game import Game, Phase, random_deal
from engine.settings import Rules
from engine.view import seat_view

_DEFAULT_SECONDS = 20.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 2)


def _advance(pos: Position, solver: DoubleDummy, rules: SolveRules, winners: list[int]) -> Position:
    """Play one trick with the solver's best cards."""
    hands = list(pos.hands)
    leader = pos.leader
    trick: list[int] = []
    for _ in range(4):
        current = Position((hands[0], hands[1], hands[2], hands[3]), pos.trump, leader, tuple(trick),
                           pos.tricks_done, pit_state(winners))
        result = solver.solve(current, rules)
        assert result is not None
        hands[current.to_move] ^= 1 << result.card
        trick.append(result.card)
    winner = (leader + rulebook.trick_winner(trick[0], trick[1], trick[2], trick[3], pos.trump)) & 3
    winners.append(winner)
    return Position((hands[0], hands[1], hands[2], hands[3]), pos.trump, winner, (), pos.tricks_done + 1,
                    pit_state(winners))


def bench_solver(seconds: float) -> dict[str, object]:
    rng = SeededRandom(2024)
    solver = DoubleDummy()
    rules = SolveRules()
    full: list[float] = []
    second: list[float] = []
    third: list[float] = []
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop or len(full) < 5:
        deal = random_deal(rng, SEATS[rng.randrange(4)])
        trump = rng.randrange(4)
        pos = Position(deal.hands, trump, (deal.dealer + 1) & 3)
        start = time.perf_counter()
        solver.solve(pos, rules)
        full.append((time.perf_counter() - start) * 1000.0)
        winners: list[int] = []
        for times in (second, third):
            pos = _advance(pos, solver, rules, winners)
            start = time.perf_counter()
            solver.solve(pos, rules)
            times.append((time.perf_counter() - start) * 1000.0)
    return {
        "dd_deals": len(full),
        "dd_full_median_ms": _percentile(full, 0.5),
        "dd_full_p95_ms": _percentile(full, 0.95),
        "dd_full_p99_ms": _percentile(full, 0.99),
        "dd_full_max_ms": _percentile(full, 1.0),
        "dd_trick2_median_ms": _percentile(second, 0.5),
        "dd_trick3_median_ms": _percentile(third, 0.5),
    }


def bench_pimc(seconds: float) -> dict[str, object]:
    rng = SeededRandom(7)
    players = [PimcPlayer(seed=i) for i in range(4)]
    times: list[float] = []
    samples: list[int] = []
    # Card decisions with a choice, those where the heuristic decided, those searched to a horizon.
    searched = 0
    fell_back = 0
    horizon = 0
    hands = 0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop or hands < 1:
        game = Game(Rules().with_changes(length="1"))
        game.deal_random(rng, Seat.N)
        while game.phase in (Phase.BIDDING, Phase.PLAY):
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            times.append((time.perf_counter() - start) * 1000.0)
            samples.append(players[seat].last_samples)
            if game.phase is Phase.PLAY and players[seat].last_source in ("search", "heuristic"):
                searched += 1
                fell_back += players[seat].last_source == "heuristic"
                horizon += players[seat].last_horizon
            game.apply(action, seat)
        hands += 1
    return {
        "pimc_hands": hands,
        "pimc_decisions": len(times),
        "pimc_median_ms": _percentile(times, 0.5),
        "pimc_p95_ms": _percentile(times, 0.95),
        "pimc_max_ms": _percentile(times, 1.0),
        "pimc_fallback_share": round(fell_back / max(1, searched), 3),
        "pimc_horizon_share": round(horizon / max(1, searched), 3),
        "pimc_mean_samples": round(sum(samples) / max(1, len(samples)), 1),
        "pimc_samples_setting": players[0].samples,
        "pimc_time_budget_ms": players[0].time_budget_ms,
    }


def bench_mc(seconds: float) -> dict[str, object]:
    """mc's decision times: whole hands (draaien) by four mc players at default settings; cards with a choice
    (each ``rollouts`` roll-outs a card) and calls (roll-outs of every trump it may name) apart."""
    rng = SeededRandom(7)
    players = [MonteCarloPlayer(seed=i) for i in range(4)]
    cards: list[float] = []
    calls: list[float] = []
    hands = 0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop or hands < 1:
        game = Game(Rules().with_changes(length="1", bidding="draaien"))
        game.deal_random(rng, Seat.N)
        while game.phase in (Phase.BIDDING, Phase.PLAY, Phase.TURN_UP):
            if game.phase is Phase.TURN_UP:
                game.turn_up_random(rng)
                continue
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            elapsed = (time.perf_counter() - start) * 1000.0
            if game.phase is Phase.BIDDING:
                calls.append(elapsed)
            elif len(view.legal) > 1:
                cards.append(elapsed)
            game.apply(action, seat)
        hands += 1
    return {
        "mc_hands": hands,
        "mc_card_decisions": len(cards),
        "mc_card_mean_ms": round(sum(cards) / max(1, len(cards)), 2),
        "mc_card_median_ms": _percentile(cards, 0.5),
        "mc_card_p95_ms": _percentile(cards, 0.95),
        "mc_card_max_ms": _percentile(cards, 1.0),
        "mc_call_median_ms": _percentile(calls, 0.5),
        "mc_call_p95_ms": _percentile(calls, 0.95),
        "mc_rollouts_setting": players[0].rollouts,
    }


def bench_ai(seconds: float | None) -> dict[str, object]:
    """Solver, pimc and mc timings; ``seconds`` is the time spent on each of the three measurements."""
    budget = seconds if seconds is not None else _DEFAULT_SECONDS
    start = time.perf_counter()
    warm_up()
    mc_warm_up()
    result: dict[str, object] = {"warm_up_ms": round((time.perf_counter() - start) * 1000.0, 1)}
    result.update(bench_solver(budget))
    result.update(bench_pimc(budget))
    result.update(bench_mc(budget))
    return result


def review_game(hands: int, seed: int) -> tuple[Game, list[int | None]]:
    """A match of ``hands`` hands by four stand-in humans (the heuristic with a tenth of its decisions at
    random, so there are mistakes to find), and each action's player key (the seat; None for chance)."""
    humans = [HeuristicPlayer(noise=0.1, seed=seed + i) for i in range(4)]
    game = Game(Rules().with_changes(length=str(hands)))
    players = play_keyed(game, humans, SeededRandom(seed))
    return game, players


def bench_review(hands: int | None, seed: int = 3) -> dict[str, object]:
    """``review_hand_s``: CPU seconds to review one hand of four humans (``engine.ai.review``; one thread,
    so on one core: on a busy machine the wall time, also given, is longer by the waiting)."""
    from engine.ai import review

    count = hands or 4
    warm_up()
    game, players = review_game(count, seed)
    reviewer = review.Reviewer()
    laps: list[float] = []
    last = [time.process_time()]
    def lap(done: int, total: int) -> None:
        now = time.process_time()
        laps.append(now - last[0])
        last[0] = now

    wall = time.perf_counter()
    cpu = time.process_time()
    result = reviewer.review_match(game.rules, game.actions, players, seed, lap)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    cards = [d for d in result.decisions if d.trick is not None]
    early = [d.samples for d in cards if d.trick is not None and d.trick <= 1]
    replay = Game(game.rules)
    asked = 0
    for action in game.actions:
        asked += len(replay.legal_actions()) > 1
        replay.apply(action)
    return {
        "review_hand_s": round(cpu / count, 2),
        "review_hand_max_s": round(max(laps), 2),
        "review_hand_wall_s": round(wall / count, 2),
        "review_16_hands_s": round(16 * cpu / count, 1),
        "nodes_per_hand": reviewer.total_nodes // count,
        "hands": count,
        "decisions_with_a_choice": asked,
        "decisions_reviewed": len(result.decisions),
        "mean_samples": round(sum(d.samples for d in cards) / max(1, len(cards)), 1),
        "mean_samples_tricks_1_2": round(sum(early) / max(1, len(early)), 1),
        "card_samples_setting": reviewer.card_samples,
        "bid_samples_setting": reviewer.bid_samples,
        "card_node_budget": reviewer.card_node_budget,
        "accuracy": round(accuracy(result.decisions), 3),
        "lost_per_hand": round(sum(d.cost for d in result.decisions) / count / 4, 1),
    }
