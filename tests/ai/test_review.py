"""The match review: a thrown-away sure trick is a costly mistake, the strong choice costs nothing, the
numbers are the same on every review, and the what-if machinery it rests on (``Game.with_hands``,
``DoubleDummy.line``) agrees with the engine and the solver."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import rulebook
from engine.actions import Action, Call, Card, Deal
from engine.ai.heuristic import HeuristicPlayer
from engine.ai.review import MIN_SAMPLES, Reviewer, decision_seed
from engine.ai.review_summary import (
    ACCURATE_WITHIN,
    CALL_WEIGHT,
    REAL_CHOICE,
    DecisionReview,
    accuracy,
    accuracy_of,
    summarise,
)
from engine.ai.sampler import knowledge, sample_deal
from engine.ai.solver import DoubleDummy, after
from engine.ai.tricks import Position, SolveRules
from engine.cards import Seat, parse_cards
from engine.game import Game, Phase
from engine.randomness import SeededRandom
from engine.settings import Rules
from engine.view import seat_view

# Fewer deals than the defaults: the properties hold for any number, and the tests stay quick.
SMALL = {"card_samples": 8, "bid_samples": 4, "card_node_budget": 1_500_000}

Chooser = Callable[[Game, int], Action]


def _play(rules: Rules, seed: int, human: Seat, choose: Chooser) -> tuple[Game, list[int | None]]:
    """A match with ``choose(game, index)`` deciding for ``human`` and heuristic players elsewhere; the
    review's player keys (``human``'s seat number on its own actions)."""
    rng = random.Random(seed)
    others = [HeuristicPlayer(seed=seed + i) for i in range(4)]
    game = Game(rules)
    players: list[int | None] = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DEAL:
            game.deal_random(rng)
            players.append(None)
            continue
        if game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
            players.append(None)
            continue
        seat = game.to_act
        assert seat is not None
        index = len(game.actions)
        action = choose(game, index) if seat is human else others[seat].choose(seat_view(game, seat))
        game.apply(action, seat)
        players.append(int(seat) if seat is human else None)
    return game, players


def _heuristic(seat: Seat) -> Chooser:
    player = HeuristicPlayer(seed=99)
    return lambda game, _: player.choose(seat_view(game, seat))


# S is last to the first trick and holds the ace of the suit led: the ace takes the ten for sure.
SURE_TRICK_DEAL = {Seat.S: "AS 7S JH 9H AH TH AC AD", Seat.W: "TS KS QS 7H 8H 7C 8C 9C",
                   Seat.N: "8S QH KH TC JC QC 7D 8D", Seat.E: "9S JS KC 9D TD JD QD KD"}


def test_throwing_away_a_sure_trick_is_a_costly_mistake() -> None:
    rules = Rules().with_changes(length="1")
    game = Game(rules)
    game.apply(Deal.from_cards(Seat.S, {seat: parse_cards(cards) for seat, cards in SURE_TRICK_DEAL.items()}))
    for call in (Call.PASS, Call.PASS, Call.PASS, Call.H):  # W, N and E pass, S plays hearts
        game.apply(call)
    for card in ("TS", "8S", "9S"):
        game.apply(Card.parse(card))
    thrown = len(game.actions)
    game.apply(Card.parse("7S"))  # S lets the ten go, the ace in hand
    players = [None] * len(game.actions)
    players[thrown] = int(Seat.S)
    others = [HeuristicPlayer(seed=i) for i in range(4)]
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(others[seat].choose(seat_view(game, seat)), seat)
        players.append(None)
    (decision,) = Reviewer().review_match(rules, game.actions, players, seed=7).decisions
    assert decision.index == thrown and decision.trick == 0 and decision.seat is Seat.S
    assert decision.choice == Card.parse("7S") and decision.best == Card.parse("AS")
    assert decision.samples >= MIN_SAMPLES
    # At least the ten it gave away: the trick's points change sides.
    assert decision.cost >= 10 > ACCURATE_WITHIN and not decision.accurate
    assert decision.spread >= decision.cost  # the worst card loses at least as much: a real choice
    assert decision.reason is not None and decision.reason.action == Card.parse("AS")


def test_a_players_worst_decisions_and_accuracy_come_from_the_costs() -> None:
    rules = Rules().with_changes(length="2")
    game, players = _play(rules, 5, Seat.S, _heuristic(Seat.S))
    review = Reviewer(**SMALL).review_match(rules, game.actions, players, seed=7)
    (summary,) = review.players
    costs = [d.cost for d in review.decisions]
    assert summary.decisions == len(costs) and summary.lost == pytest.approx(sum(costs), abs=0.2)
    # Accuracy: the points at stake in real choices that the decisions kept; a card never loses more than its
    # spread (the worst card's loss), and a decision without a real choice puts nothing at stake.
    assert all(d.cost <= d.spread + 0.1 for d in review.decisions if d.trick is not None)
    real = [d for d in review.decisions if d.spread >= REAL_CHOICE]
    weight = {True: CALL_WEIGHT, False: 1.0}
    stake = sum(d.spread * weight[d.trick is None] for d in real)
    kept = sum((d.spread - min(d.cost, d.spread)) * weight[d.trick is None] for d in real)
    assert stake > 0 and summary.accuracy == pytest.approx(kept / stake) == pytest.approx(accuracy(review.decisions))
    assert summary.calls == sum(1 for d in review.decisions if d.trick is None)
    assert [d.cost for d in summary.worst] == sorted((c for c in costs if c > 0), reverse=True)[:3]
    assert summary.hands == 2 and len(summary.lost_by_hand) == 2
    assert all(d.reason is not None for d in review.decisions if d.cost > 0)


def _strong(reviewer: Reviewer, human: Seat, seed: int) -> Chooser:
    """The strong choice as the review makes it for this decision (its own deals); the heuristic where
    the review would leave the decision out."""
    fallback = HeuristicPlayer(seed=1)

    def choose(game: Game, index: int) -> Action:
        view = seat_view(game, human)
        if game.phase is Phase.BIDDING:
            return reviewer.strong_call(view)
        if game.phase is Phase.PLAY and len(view.legal) > 1:  # the claim phase is no card decision
            card = reviewer.strong_card(game, decision_seed(seed, index))
            if card is not None:
                return card
        return fallback.choose(view)

    return choose


@pytest.mark.parametrize("rules", [
    Rules().with_changes(length="1"),
    Rules().with_changes(length="1", play="amsterdam", bidding="draaien", roem="declared", stuk="held"),
], ids=["rotterdam", "amsterdam-draaien-declared-held"])
def test_the_strong_players_own_choices_cost_nothing(rules: Rules) -> None:
    seed = 11
    reviewer = Reviewer(**SMALL)
    game, players = _play(rules, 3, Seat.E, _strong(reviewer, Seat.E, seed))
    review = Reviewer(**SMALL).review_match(rules, game.actions, players, seed)
    assert len(review.decisions) >= 4
    assert all(d.cost == 0 and d.best == d.choice and d.reason is None for d in review.decisions)
    (summary,) = review.players
    assert summary.seat is Seat.E and summary.accuracy == 1.0 and summary.lost == 0 and not summary.worst


def test_a_card_is_measured_against_the_strong_players_choice_not_the_best_mean(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the roll-outs' second opinion sways the strong player from the best mean, the card it plays costs
    # nothing, a card with a better mean costs nothing either, and every other card costs its distance from it.
    from engine.ai import review as review_module
    from engine.ai.pimc import Tally

    def second_best(tally: Tally, *_: object) -> int:
        return sorted(tally.cards, key=lambda c: (tally.settled[c], -c))[-2]

    monkeypatch.setattr(review_module, "strong_choice", second_best)
    rules = Rules().with_changes(length="1")
    game, _ = _play(rules, 6, Seat.N, _heuristic(Seat.N))
    replay = Game(rules)
    checked = 0
    reviewer = Reviewer(**SMALL)
    for index, action in enumerate(game.actions):
        legal = [a for a in replay.legal_actions() if isinstance(a, Card)]
        if replay.phase is Phase.PLAY and len(replay.hands[-1].tricks) >= 3 and len(legal) >= 3 and checked < 3:
            evaluation = reviewer.card_values(replay, seed=index)
            values = evaluation.values
            strong = evaluation.strong
            assert strong is not None and values[strong] == sorted(values.values())[-2]
            for card in legal:
                result = reviewer.review_card(replay, card, seed=index)
                assert result is not None
                best, cost, _, _ = result
                if values[card] >= values[strong]:
                    assert (best, cost) == (card, 0.0)
                else:
                    assert best == strong and cost == pytest.approx(values[strong] - values[card]) and cost > 0
            checked += 1
        replay.apply(action)
    assert checked == 3


def test_a_review_is_the_same_every_time_and_each_decision_on_its_own() -> None:
    rules = Rules().with_changes(length="1", bidding="draaien", roem="declared")
    game, _ = _play(rules, 8, Seat.N, _heuristic(Seat.N))
    players = _everyone(game)
    first = Reviewer(**SMALL).review_match(rules, game.actions, players, seed=4)
    second = Reviewer(**SMALL).review_match(rules, game.actions, players, seed=4)
    assert first == second
    assert any(d.cost > 0 for d in first.decisions)
    # One decision reviewed alone (a solver that reviewed others before) gives the same numbers.
    reviewer = Reviewer(**SMALL)
    reviewer.review_match(rules, game.actions, players, seed=9)
    late = first.decisions[-1]
    alone = [p if i == late.index else None for i, p in enumerate(players)]
    (again,) = reviewer.review_match(rules, game.actions, alone, seed=4).decisions
    assert again == late
    other_seed = Reviewer(**SMALL).review_match(rules, game.actions, players, seed=5)
    assert [d.index for d in other_seed.decisions] != [] and other_seed != first


def _everyone(game: Game) -> list[int | None]:
    """Player keys with all four seats human: 100 + the seat on every call and card."""
    replay = Game(game.rules)
    players: list[int | None] = []
    for action in game.actions:
        players.append(100 + int(replay.to_act) if isinstance(action, Card | Call) and replay.to_act else None)
        replay.apply(action)
    return players


def _decision(index: int, hand: int, cost: float, spread: float, call: bool = False) -> DecisionReview:
    if call:
        return DecisionReview(index, hand, None, Seat.S, 7, Call.S, Call.PASS, cost, 6, None, spread)
    return DecisionReview(index, hand, 3, Seat.S, 7, Card.parse("7H"), Card.parse("AH"), cost, 12, None, spread)


def test_summary_counts_accuracy_and_the_costliest_decisions() -> None:
    decisions = [_decision(1, 0, 0.0, 20.0), _decision(2, 0, 12.5, 25.0), _decision(3, 1, 2.0, 10.0),
                 _decision(4, 1, 40.0, 40.0), _decision(5, 1, 7.0, 14.0), _decision(6, 1, 3.5, 7.0)]
    summary = summarise(7, Seat.S, decisions, hands=3, hands_played=2)
    assert summary.decisions == 6 and summary.calls == 0 and summary.cards == 6
    # Of 116 points at stake the decisions kept 20 + 12.5 + 8 + 0 + 7 + 3.5.
    assert summary.stake == pytest.approx(116.0) and summary.kept == pytest.approx(51.0)
    assert summary.accuracy == pytest.approx(51.0 / 116.0) == pytest.approx(accuracy(decisions))
    assert summary.lost == pytest.approx(65.0)
    assert summary.lost_per_decision == pytest.approx(65.0 / 6) == pytest.approx(summary.lost_per_card)
    # Per hand, per decision: 52.5 lost in hand 2 over four decisions is 13.1 a decision. A hand's costs overlap
    # (each is measured against the best play from its moment on), so their sum is no figure to show.
    assert summary.lost_by_hand == (6.2, 13.1, 0.0)
    assert [d.index for d in summary.worst] == [4, 2, 5]


def test_a_decision_without_a_real_choice_is_not_counted() -> None:
    played = [_decision(1, 0, 0.0, 20.0), _decision(2, 0, 10.0, 20.0)]
    base = accuracy(played)
    # The best of options that lie close together, or a poor one of them: the figure does not move either way.
    for cost in (0.0, REAL_CHOICE - 1):
        near = _decision(3, 0, cost, REAL_CHOICE - 0.5)
        assert near.stake == 0 and near.kept == 0
        assert accuracy([*played, near]) == pytest.approx(base)
    # The same choices with their options far apart do count.
    assert accuracy([*played, _decision(3, 0, 0.0, 30.0)]) > base
    assert accuracy([*played, _decision(3, 0, 4.0, 8.0)]) < base
    # Nothing at stake at all: nothing to hold against anyone.
    assert accuracy([_decision(1, 0, 0.0, 0.0)]) == accuracy_of(0.0, 0.0) == 1.0


def test_a_costly_call_lowers_the_headline_more_than_a_card() -> None:
    cards = [_decision(i, 0, 0.0, 20.0) for i in range(6)]
    summary = summarise(7, Seat.S, cards, hands=1, hands_played=1)
    assert summary.accuracy == 1.0
    # A call that went nat (it lost all it put at stake) against a card that lost as much of the same stake.
    wrong_call = _decision(9, 0, 60.0, 60.0, call=True)
    wrong_card = _decision(9, 0, 60.0, 60.0)
    with_call = summarise(7, Seat.S, [*cards, wrong_call], hands=1, hands_played=1)
    with_card = summarise(7, Seat.S, [*cards, wrong_card], hands=1, hands_played=1)
    assert with_call.accuracy < with_card.accuracy < summary.accuracy
    assert with_call.calls == 1 and with_call.lost_per_call == 60.0 and with_call.lost_per_card == 0.0
    # The strong call made: it keeps its whole stake and weighs as much the other way.
    right_call = _decision(9, 0, 0.0, 60.0, call=True)
    mixed = summarise(7, Seat.S, [_decision(1, 0, 10.0, 20.0), right_call], hands=1, hands_played=1)
    assert mixed.accuracy > accuracy([_decision(1, 0, 10.0, 20.0), _decision(9, 0, 0.0, 60.0)])


def test_with_hands_places_the_unseen_cards_and_leaves_the_game_alone() -> None:
    rng = random.Random(2)
    game = Game(Rules().with_changes(length="1"))
    game.deal_random(rng)
    players = [HeuristicPlayer(seed=i) for i in range(4)]
    while len(game.hands[-1].plays) < 9:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(seat_view(game, seat)), seat)
    view = seat_view(game, game.to_act)  # type: ignore[arg-type]
    hands = sample_deal(knowledge(view), SeededRandom(5))
    before = (list(game.hands[-1].hands), list(game.actions))
    what_if = game.with_hands(hands)
    assert tuple(what_if.hands[-1].hands) == hands
    assert (list(game.hands[-1].hands), list(game.actions)) == before  # the real game is untouched
    rebuilt = Game(game.rules)
    rebuilt.apply_all(what_if.actions)  # its actions replay to it: the sampled deal is consistent
    assert tuple(rebuilt.hands[-1].hands) == hands
    assert seat_view(rebuilt, view.seat).legal == view.legal
    with pytest.raises(ValueError):
        game.with_hands((hands[1], hands[0], hands[2], hands[3]) if hands[0] != hands[1] else (0, 0, 0, 0))


def test_a_line_is_a_best_play_of_the_rest() -> None:
    rng = SeededRandom(21)
    solver = DoubleDummy()
    rules = SolveRules()
    for _ in range(6):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = tuple(sum(1 << c for c in cards[i * 8:(i + 1) * 8]) for i in range(4))
        pos = Position((hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), rng.randrange(4))
        for _ in range(9):  # into the hand, so positions start mid-trick too
            legal = rulebook.legal_mask(pos.hands[pos.to_move], *(*pos.trick, 0, 0, 0)[:3], len(pos.trick),
                                        pos.trump, False, True)
            pos = after(pos, rulebook.lowest_card(legal))
        solution = solver.solve(pos, rules, team=0)
        assert solution is not None
        line = solver.line(pos, rules, keep=False)
        assert line is not None and len(line) == 32 - 4 * pos.tricks_done - len(pos.trick)
        # Played out, the line scores exactly the solved value (NS minus EW).
        assert _line_value(pos, line) == solution.value


def _line_value(pos: Position, line: list[int]) -> int:
    """Card points, roem, last trick and pit of the line, NS minus EW, by the engine's rulebook."""
    value = 0
    trick = list(pos.trick)
    leader = pos.leader
    done = pos.tricks_done
    pit = pos.pit
    for card in line:
        trick.append(card)
        if len(trick) < 4:
            continue
        winner = (leader + rulebook.trick_winner(trick[0], trick[1], trick[2], trick[3], pos.trump)) & 3
        gain = rulebook.trick_points(*trick, pos.trump) + rulebook.trick_roem(*trick, pos.trump, True)
        team_pit = 1 + (winner & 1)
        pit = team_pit if pit in (0, team_pit) else 3
        if done == 7:
            gain += rulebook.LAST_TRICK_BONUS + (rulebook.PIT_BONUS if pit == team_pit else 0)
        value += gain if winner & 1 == 0 else -gain
        trick, leader, done = [], winner, done + 1
    return value


def test_too_few_deals_leave_a_decision_out() -> None:
    # A budget too small for the first trick's deals: those decisions are left out, not guessed.
    rules = Rules().with_changes(length="1")
    game, players = _play(rules, 4, Seat.W, _heuristic(Seat.W))
    tiny = Reviewer(card_samples=8, card_node_budget=MIN_SAMPLES * 1000)
    review = tiny.review_match(rules, game.actions, players, seed=1)
    assert all(d.trick is None or d.trick >= 2 for d in review.decisions)
    assert all(d.trick is None or d.samples >= MIN_SAMPLES for d in review.decisions)


def test_a_call_is_judged_by_the_hand_the_heuristic_plays_from_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # The deals a call is judged on are replaced by the real one, so the expected values can be worked out
    # the long way: the call, the rest of the bidding by the strong player, every seat's cards by the heuristic.
    from engine.ai import review as review_module
    from engine.ai.pimc import PimcPlayer

    rules = Rules().with_changes(length="1")
    game = Game(rules)
    game.apply(Deal.from_cards(Seat.S, {seat: parse_cards(cards) for seat, cards in SURE_TRICK_DEAL.items()}))
    real = tuple(game.hands[-1].hands)
    monkeypatch.setattr(review_module, "sample_bidding", lambda view, rng: real)
    calls = [Call.PASS, Call.S]  # W, first to call: pass, or play spades
    evaluation = Reviewer(bid_samples=3).call_values(game, calls, seed=1)
    assert evaluation.samples == 3
    strong, cards = PimcPlayer(), HeuristicPlayer()
    for call in calls:
        table = Game(rules)
        table.apply(game.actions[0])
        table.apply(call, Seat.W)
        hand = table.hands[-1]
        while hand.result is None:
            seat = table.to_act
            assert seat is not None
            player = strong if table.phase is Phase.BIDDING else cards
            table.apply(player.choose(seat_view(table, seat)), seat)
        swing = hand.result.score[1] - hand.result.score[0]  # W's team minus N-S
        assert evaluation.values[call] == swing / 2


def test_passing_a_hand_that_makes_its_contract_anywhere_is_a_costly_call() -> None:
    rules = Rules().with_changes(length="1")
    game = Game(rules)
    deal = {Seat.S: "JH 9H AH TH KH AS AC AD", Seat.W: "QH 7H 8H KS QS JS 7C 8C",
            Seat.N: "TS 9S 8S 7S TC 9C JC QC", Seat.E: "KC 7D 8D 9D TD JD QD KD"}
    game.apply(Deal.from_cards(Seat.E, {seat: parse_cards(cards) for seat, cards in deal.items()}))
    assert game.to_act is Seat.S
    review = Reviewer(**SMALL).review_call(game, Call.PASS, seed=3)
    assert review is not None
    best, cost, samples, spread = review
    assert best is Call.H and samples == SMALL["bid_samples"]
    assert cost >= 40 and spread == cost  # two calls weighed: the one made and the better one
