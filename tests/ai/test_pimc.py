"""The pimc player: legal actions in whole hands under every rule set, sensible bids, and a decision's
work bounded in solver nodes (so the tests do not depend on the machine's speed)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Call, Choice, Deal
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.pimc import PimcPlayer, settled_diff
from engine.cards import Card, Seat, mask_of, parse_cards
from engine.game import Game, Phase
from engine.settings import Rules
from engine.view import SeatView, seat_view

RULES = [
    Rules(),
    Rules().with_changes(play="amsterdam", bidding="draaien"),
    Rules().with_changes(play="rotterdam", undertrump="forbidden", stuk="held", bidding="verplicht"),
    Rules().with_changes(play="amsterdam", undertrump="forced", roem="declared"),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.play.value}-{r.undertrump_rule.value}-{r.bidding.value}")
def test_pimc_only_chooses_legal_actions(rules: Rules) -> None:
    rng = random.Random(3)
    players = [PimcPlayer(samples=4, time_budget_ms=60.0, seed=i) for i in range(4)]
    game = Game(rules.with_changes(length="1"))
    game.deal_random(rng)
    decisions = 0
    while game.phase is not Phase.OVER:
        if game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
            continue
        if game.phase is Phase.DEAL:
            break
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        action = players[seat].choose(view)
        assert action in view.legal
        game.apply(action, seat)
        decisions += 1
    assert decisions >= 32


def _bid_view(hand: str) -> tuple[PimcPlayer, SeatView]:
    rng = random.Random(1)
    mine = mask_of(parse_cards(hand))
    rest = [c for c in range(32) if not mine >> c & 1]
    rng.shuffle(rest)
    others = [mask_of(rest[i * 8:(i + 1) * 8]) for i in range(3)]
    game = Game(Rules())
    game.apply(Deal(Seat.W, (mine, others[0], others[1], others[2])))  # N is the elder hand
    return PimcPlayer(samples=6, time_budget_ms=3000.0, seed=2), seat_view(game, Seat.N)


def test_pimc_bids_a_strong_trump_hand_and_passes_a_weak_one() -> None:
    player, view = _bid_view("JH 9H AH TH KH QH AS AD")
    assert player.choose(view) is Call.H
    player, view = _bid_view("7C 8C 7D 8D 7H 8H 7S 9S")
    assert player.choose(view) is Call.PASS


def test_pimc_bids_jack_nine_ace_and_one_more_and_passes_junk() -> None:
    player, view = _bid_view("JS 9S AS 7S 7C 8D 9D 8H")
    assert player.choose(view) is Call.S
    player, view = _bid_view("7C 9C KC 8D QD 7H 9H 8S")
    assert player.choose(view) is Call.PASS


def _mid_hand(tricks: int, seed: int = 5) -> SeatView:
    """A view of the seat to play after ``tricks`` tricks played by heuristic players."""
    rng = random.Random(seed)
    game = Game(Rules().with_changes(length="1"))
    game.deal_random(rng)
    bots = [HeuristicPlayer(seed=i) for i in range(4)]
    while True:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if game.phase is Phase.PLAY and len(view.tricks) == tricks and len(view.legal) > 1:
            return view
        game.apply(bots[seat].choose(view), seat)


def test_a_single_legal_card_is_played_without_search() -> None:
    player = PimcPlayer(seed=1)
    rng = random.Random(2)
    game = Game(Rules().with_changes(length="1"))
    game.deal_random(rng)
    bots = [HeuristicPlayer(seed=i) for i in range(4)]
    while game.phase is not Phase.OVER and game.phase is not Phase.DEAL:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if game.phase is Phase.PLAY and len(view.legal) == 1:
            assert player.choose(view) == view.legal[0]
            assert player.last_source == "only" and player.last_nodes == 0
            return
        game.apply(bots[seat].choose(view), seat)
    raise AssertionError("no forced card in the hand")


def test_work_per_decision_stays_within_the_node_budget() -> None:
    view = _mid_hand(2)
    for budget in (50_000, 400_000):
        player = PimcPlayer(seed=3, node_budget=budget, min_samples=2, time_budget_ms=60_000.0)
        card = player.choose(view)
        assert card in view.legal
        # An aborted solve may pass its limit by a few nodes while it unwinds.
        assert player.last_nodes <= budget * 1.01 + 100


def test_the_node_budget_not_the_clock_decides() -> None:
    view = _mid_hand(3)
    runs = []
    for time_budget in (5_000.0, 60_000.0):
        player = PimcPlayer(seed=4, samples=8, node_budget=2_000_000, time_budget_ms=time_budget)
        runs.append((player.choose(view), player.last_samples, player.last_nodes, player.last_source))
    assert runs[0] == runs[1]
    assert runs[0][3] == "search" and runs[0][1] == 8


def test_too_few_deals_within_the_budget_are_searched_to_a_horizon() -> None:
    view = _mid_hand(0)
    player = PimcPlayer(seed=3, node_budget=10_000, time_budget_ms=60_000.0)
    card = player.choose(view)
    assert card in view.legal and isinstance(card, Card)
    assert player.last_source == "search" and player.last_horizon
    assert player.last_samples >= player.min_samples
    # The first deal gets a 1/min_samples share: a hopeless exact search gives up early.
    assert player.last_nodes <= 10_000 // player.min_samples + 100 + player.horizon_node_budget * 1.01


def test_every_card_of_a_hand_with_the_defaults_comes_from_search() -> None:
    # Untimed, so the node budgets alone decide (no clock in a test); the first tricks are the costliest.
    # (tricks, seed): first and second-trick views where a few exact deals, not all, fit the node budget.
    for tricks, seed in ((0, 5), (0, 6), (0, 1), (1, 2)):
        view = _mid_hand(tricks, seed)
        player = PimcPlayer(seed=1, timed=False, stop_from=0)
        card = player.choose(view)
        assert card in view.legal
        assert player.last_source == "search" and player.last_samples >= player.min_samples
        # All its deals solved exactly, or the horizon search on more (as many as its node budget allows): never a
        # handful of exact ones.
        assert (not player.last_horizon and player.last_samples == player.samples) or (
            player.last_horizon and player.samples < player.last_samples <= player.horizon_samples)
        # With the sequential stop, fewer once the best card is clear, but never fewer than it starts from.
        stopping = PimcPlayer(seed=1, timed=False)
        assert stopping.choose(view) in view.legal and stopping.last_source == "search"
        assert stopping.stop_from <= stopping.last_samples <= player.last_samples


def test_the_horizon_search_is_deterministic_for_a_seed() -> None:
    view = _mid_hand(0, 7)
    runs = []
    for _ in range(2):
        player = PimcPlayer(seed=9, node_budget=100_000, timed=False)
        runs.append((player.choose(view), player.last_samples, player.last_nodes, player.last_horizon))
    assert runs[0] == runs[1] and runs[0][3]


def test_a_budget_too_small_for_one_horizon_deal_still_searches_the_trick() -> None:
    view = _mid_hand(0)
    player = PimcPlayer(seed=3, node_budget=600, horizon_node_budget=10, time_budget_ms=60_000.0)
    card = player.choose(view)
    assert card in view.legal and player.last_source == "search" and player.last_samples == 1


def test_a_tight_clock_still_gives_a_legal_card() -> None:
    view = _mid_hand(1)
    player = PimcPlayer(seed=3, time_budget_ms=0.5)
    assert player.choose(view) in view.legal


def test_the_tally_calls_a_card_clear_only_when_it_beats_every_other_by_two_standard_errors() -> None:
    from engine.ai.pimc import Tally

    def clear(rows: list[list[int]]) -> bool:
        tally = Tally([1, 2, 3])
        for row in rows:
            values = dict(zip(tally.cards, row, strict=True))
            tally.add(values, values)
        return tally.clear()

    # Card 1 wins every deal by 10 or more: clear.
    assert clear([[40, 30, 0], [50, 20, 10], [45, 35, -20], [60, 40, 0]])
    # It leads card 2 on the mean, but by less than the deals' spread: not clear yet.
    assert not clear([[40, 30, 0], [-160, 20, 10], [200, 35, -20], [60, 40, 0]])
    # Card 2 never differs from card 1 (touching cards, say): it does not hold the decision up.
    assert clear([[40, 40, 0], [50, 50, 10], [45, 45, -20], [60, 60, 0]])
    # The best card is the one ``_play`` picks, whatever order the cards come in.
    assert clear([[0, 30, 40], [10, 20, 50], [-20, 35, 45], [0, 40, 60]])
    assert not clear([[40, 30, 0]])  # one deal tells nothing


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(-250, 250), min_size=3, max_size=3), min_size=2, max_size=60),
       st.sampled_from([0, 10, 40]))
def test_the_tallys_integer_test_is_the_textbook_one(rows: list[list[int]], spread: int) -> None:
    """Sums of squared differences kept deal by deal decide as the mean and deviation of the rows would."""
    from engine.ai.pimc import Tally

    tally = Tally([1, 2, 3])
    for row in rows:
        # Cards 1 and 2 often close together, as touching or similar cards are.
        values = {1: row[0], 2: row[0] + row[1] % (spread + 1), 3: row[2]}
        tally.add(values, values)
    table = np.array([[row[0], row[0] + row[1] % (spread + 1), row[2]] for row in rows], dtype=np.float64)
    best = tally.cards.index(tally.best())
    expected = True
    for index in range(3):
        diffs = table[:, best] - table[:, index]
        if index == best or not diffs.any():
            continue
        error = diffs.std(ddof=1) / math.sqrt(len(rows))
        if abs(diffs.mean() - 2.0 * error) < 1e-9:
            return  # on the edge, float rounding may go either way
        expected = expected and bool(diffs.mean() > 2.0 * error)
    assert tally.clear() == expected


def test_pruning_drops_the_cards_clearly_behind_and_keeps_the_close_and_the_touching_ones() -> None:
    from engine.ai.pimc import Tally

    tally = Tally([1, 2, 3, 4])
    # Card 1 leads; card 2 always by 10 or more (clearly behind), card 3 close, card 4 equal to card 1.
    for row in ([40, 30, 50, 40], [50, 20, 30, 50], [45, 35, 60, 45], [60, 40, 40, 60]):
        values = dict(zip(tally.cards, row, strict=True))
        tally.add(values, values)
    tally.prune(2.0)
    assert tally.alive == [1, 3, 4] and tally.dropped == 1 << 2
    assert not tally.clear()  # card 3 is still close
    # A dropped card is no longer asked for: later deals carry only the cards alive.
    for _ in range(3):
        tally.add({1: 100, 3: 60, 4: 100}, {1: 100, 3: 60, 4: 100})
    assert tally.best() == 1 and tally.settled[2] == 30 + 20 + 35 + 40
    tally.prune(2.0)
    assert tally.alive == [1, 4] and tally.clear()


def test_a_stricter_pruning_keeps_a_card_that_is_behind_by_fewer_standard_errors() -> None:
    from engine.ai.pimc import Tally

    def alive_after(errors: float) -> list[int]:
        tally = Tally([1, 2])
        # Card 1 leads by 10 on average, with a deviation of about 11 over 6 deals: about 2.2 standard errors.
        for first, second in ((30, 10), (30, 20), (30, 40), (30, 10), (30, 20), (30, 20)):
            tally.add({1: first, 2: second}, {1: first, 2: second})
        tally.prune(errors)
        return tally.alive

    assert alive_after(2.0) == [1]
    assert alive_after(3.0) == [1, 2]


def test_pruning_gives_the_same_card_for_less_work() -> None:
    # Pinned positions where some card falls clearly behind before the last deal.
    for tricks, seed in ((0, 2), (1, 4), (1, 5), (2, 2), (3, 6)):
        view = _mid_hand(tricks, seed)
        # Without the second opinion, which weighs whichever cards are left and so may differ by design.
        pruned = PimcPlayer(seed=1, timed=False, second_opinion=0)
        whole = PimcPlayer(seed=1, timed=False, prune=False, second_opinion=0)
        assert pruned.choose(view) == whole.choose(view)
        # The same deals, in the same order: fewer of them once the last close card drops out.
        assert pruned.last_samples <= whole.last_samples and pruned.last_nodes < whole.last_nodes


def test_ties_go_to_the_better_raw_difference_then_the_lower_card() -> None:
    from engine.ai.pimc import Tally

    tally = Tally([5, 3, 9])
    tally.add({5: 20, 3: 20, 9: 20}, {5: 20, 3: 24, 9: 24})
    assert tally.best() == 3
    tally.add({5: 0, 3: 0, 9: 1}, {5: 0, 3: 0, 9: 0})
    assert tally.best() == 9


def test_the_roll_outs_settle_a_close_call_among_the_cards_left_but_never_bring_back_a_dropped_one() -> None:
    from engine.ai.pimc import Tally, _with_second_opinion

    tally = Tally([1, 2, 3])
    for row in ([40, 38, 0], [44, 44, 2], [42, 38, 1], [40, 40, 0]):  # 1 leads 2 by 1.5 a deal; 3 far behind
        values = dict(zip(tally.cards, row, strict=True))
        tally.add(values, values)
    tally.prune(2.0)
    assert tally.alive == [1, 2] and tally.best() == 1
    # The roll-outs like card 2 better by 1 point: weighed three times, that outweighs the search's 1.5.
    rollouts = {1: 10.0, 2: 11.0, 3: 50.0}
    assert _with_second_opinion(tally, rollouts, 3.0) == 2
    assert _with_second_opinion(tally, rollouts, 1.0) == 1  # weighed once it does not
    assert _with_second_opinion(tally, rollouts, 0.0) == tally.best()
    # Card 3, dropped by the search, stays out however much the roll-outs like it.
    assert _with_second_opinion(tally, {1: 0.0, 2: 0.0, 3: 1000.0}, 3.0) == 1


def test_the_second_opinion_turns_close_calls_and_leaves_clear_ones_to_the_search() -> None:
    def both(tricks: int, seed: int) -> tuple[Choice, Choice]:
        view = _mid_hand(tricks, seed)
        return (PimcPlayer(seed=1, timed=False).choose(view),
                PimcPlayer(seed=1, timed=False, second_opinion=0).choose(view))

    for tricks, seed in ((3, 7), (4, 1)):  # one card is clearly best: the search alone decides
        with_it, without = both(tricks, seed)
        assert with_it == without
    with_it, without = both(3, 3)  # close: every deal drawn, and the roll-outs prefer another card
    assert with_it != without


def test_a_clear_decision_stops_drawing_deals_and_a_close_one_does_not() -> None:
    # Pinned positions (tricks played, deal seed), with and without the sequential stop.
    for tricks, seed in ((3, 7), (4, 1), (4, 4), (4, 9), (5, 6)):  # one card is clearly best
        view = _mid_hand(tricks, seed)
        full = PimcPlayer(seed=1, timed=False, stop_from=0)
        stopped = PimcPlayer(seed=1, timed=False, stop_from=8)
        assert full.choose(view) in view.legal and stopped.choose(view) in view.legal
        assert full.last_samples == full.samples and 8 <= stopped.last_samples < 16
        assert stopped.last_nodes < full.last_nodes
    for tricks, seed in ((3, 3), (3, 6), (4, 6)):  # close: it draws all the deals, as without the stop
        view = _mid_hand(tricks, seed)
        stopped = PimcPlayer(seed=1, timed=False, stop_from=8)
        assert stopped.choose(view) in view.legal and stopped.last_samples == stopped.samples


def test_settlement_of_an_outcome() -> None:
    assert settled_diff(20, playing=True, roem_total=0) == 20
    assert settled_diff(0, playing=True, roem_total=20) == -182  # a tie is nat
    assert settled_diff(30, playing=False, roem_total=0) == 162  # the defence beat the player
    assert settled_diff(-30, playing=False, roem_total=0) == -30


# ---------------------------------------------------------------------- the deals a review of a bid solves


def test_bidding_deals_keep_the_own_hand_and_lean_on_the_passes() -> None:
    from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
    from engine.ai.pimc import SeededRandom
    from engine.ai.sampler import sample_bidding

    _, view = _bid_view("JS 9S AS 7C 8D 9D 8H 7H")
    game = Game(Rules())
    hands = tuple(mask_of(list(range(i, 32, 4))) for i in range(4))
    game.apply(Deal(Seat.W, (hands[0], hands[1], hands[2], hands[3])))
    game.apply(Call.PASS, Seat.N)
    view = seat_view(game, Seat.E)
    rng = SeededRandom(1)
    deals = [sample_bidding(view, rng) for _ in range(20)]
    for deal in deals:
        assert deal[1] == view.hand_mask
        assert [bin(h).count("1") for h in deal] == [8, 8, 8, 8]
        assert deal[0] | deal[1] | deal[2] | deal[3] == (1 << 32) - 1
    # N passed in vrij: its sampled hands have no suit worth playing, where a few draws find one.
    weak = sum(1 for deal in deals if max(hand_evaluation(deal[0], t) for t in range(4)) < BID_THRESHOLD)
    assert weak >= 18
