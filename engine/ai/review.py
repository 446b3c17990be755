"""Match review: what each human decision of a finished match cost, against the strong player's choice.

For every card a human chose among two or more, the review draws deals of the unseen cards consistent
with what that seat knew at that moment (``engine.ai.sampler``, from its ``SeatView`` only) and, on
each deal, plays every legal card followed by the rest of the hand double-dummy (``DoubleDummy.line``);
the hand is then settled by the engine itself (``Game.with_hands`` and ``Game.apply``: nat, pit, roem,
stuk and claims exactly as the table scores them; with declared roem every team claims what it is
owed from there on, as the AI players do). The strong choice is the strong player's on those deals
(``engine.ai.pimc.strong_choice``): the card with the best mean value, or, among the cards a paired test
over the deals does not put clearly behind it, the best mean plus the roll-outs' second opinion, as ``pimc``
plays, on the engine's settlement. The cost of the card played is the strong choice's mean minus its own,
never below 0: the strong choice costs 0 by construction, and so does any card whose mean is as high.

Value (``hand_value``): points of the team's hand score, counted as half the settled difference
between the teams, which is what the strong player maximises. It is the team's own hand score, nat
included, whenever the two outcomes hold the same roem (a ten given away costs 10, going nat costs
all the team would have scored); roem the opponents gain counts against the team by half, as roem of
its own counts for it by half, since only the difference decides a match.

Calls: the strong player's call (its bidding table, ``engine.ai.bidding``) costs 0. The call made
and the strong call, or when they are the same the call made and the other way (``other_call``: passing
instead of playing, or playing the hand's best suit instead of passing), are played out on sampled deals
consistent with the bidding so far: the rest of the bidding by the strong player's calls (a turned suit in
draaien drawn once per deal, the same for both calls), then the whole hand played by the heuristic for every
seat, each card from that seat's own view, and the engine's settlement; the cost is how much less the human's
call scored on average than the strong call (0 when it scored as much or more: then it is the better call).
Not double dummy: a contract played as if every card were seen is made far more often than at a table, so
every sound pass would look costly (the bidding table is fitted to deals played out, not solved, for the same
reason). Claims are not reviewed: a forgotten claim is no choice between cards or calls, and is
visible on the score sheet.

Spread: how far apart the best and the worst of the candidates weighed lie (every legal card; the two
calls), which tells a real choice from a forced or nearly forced one; accuracy (``review_summary``) counts
the points at stake in real choices only.

Work is counted in solver nodes, never in time, and every decision draws from its own generator,
seeded from the match's seed and the decision's index (``decision_seed``), with a fresh solver table:
a second review gives the same numbers on any machine. Each decision has a node budget; a deal whose
solve passes what is left is dropped for every candidate alike, and a decision that cannot get
``MIN_SAMPLES`` deals solved (in the first trick or two a single deal can take millions of nodes) is
left out rather than judged on a handful. The number of deals each decision rests on is reported.
Calls need no solver: each is played out on ``BID_SAMPLES`` deals, every one of them.
Measured with ``klaverjas bench review``: about 2 to 3 seconds of one core per hand of four humans,
each card decision on 24 deals (fewer in the first tricks, down to ``MIN_SAMPLES``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine.actions import Action, Call, Claim, Decline, TurnUp
from engine.ai.heuristic import HeuristicPlayer, hand_evaluation
from engine.ai.hints import reason
from engine.ai.pimc import DEFAULT_PRUNE_ERRORS, PimcPlayer, Tally, strong_choice
from engine.ai.review_summary import DecisionReview, MatchReview, hand_count, match_summary
from engine.ai.sampler import knowledge, sample_biased, sample_bidding
from engine.ai.solver import DoubleDummy, pit_state, step
from engine.ai.tricks import Position, SolveRules
from engine.cards import SEATS, SUITS, TEAMS, Card, Seat, Suit, team_of
from engine.events import HandResult
from engine.game import Game, Phase
from engine.randomness import SeededRandom
from engine.settings import RoemMode, Rules
from engine.view import SeatView, seat_view

CARD_SAMPLES = 24  # deals per card decision
# Deals per reviewed call, each a whole hand played out two ways by the heuristic (about 2 ms a hand). Calls are
# few (one or two a player a hand), so each is judged on many deals. Measured (``klaverjas bench review --levels``,
# seeds 1 to 16): with 64 instead of 24 the levels' accuracies lie a little further apart (README, Match review).
BID_SAMPLES = 64
# Node budgets: the first trick's deals cost ~0.5M nodes each (every card valued exactly), later ones
# a few thousand; a budget keeps the first trick to a few deals so a hand of four humans stays in time.
CARD_NODE_BUDGET = 4_000_000
SOLVE_NODE_LIMIT = 2_000_000  # one deal's solve (and each line) beyond this is dropped
# Fewer deals solved: the decision is left out. A handful of deals is too noisy to call a card a mistake
# (pimc, for the same reason, lets the heuristic play when it solves fewer than six).
MIN_SAMPLES = 6

_MASK64 = (1 << 64) - 1


def decision_seed(match_seed: int, index: int) -> int:
    """The seed of the review of the match's action ``index``: the same for every review of the match."""
    return (match_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK64


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Mean ``hand_value`` of each candidate, for the team deciding, over the same deals."""

    values: dict[Card | Call, float]
    samples: int
    # Cards: the strong player's choice on these deals (``engine.ai.pimc.strong_choice``: the best mean, or the
    # roll-outs' second opinion among the cards close to it). None for calls, whose strong choice is the bidding's.
    strong: Card | Call | None = None

    @classmethod
    def of_swings(cls, totals: dict[Card | Call, int], deals: int) -> Evaluation:
        """From each candidate's swing (``_swing``: twice its hand value) summed over ``deals`` deals."""
        return cls({c: total / (2 * deals) for c, total in totals.items()} if deals else {}, deals)

    def best(self, prefer: Card | Call | None = None) -> Card | Call:
        """The highest mean; ``prefer`` when it ties with it, else the first in listing order."""
        top = max(self.values.values())
        if prefer is not None and self.values.get(prefer) == top:
            return prefer
        return next(choice for choice, value in self.values.items() if value == top)

    @property
    def spread(self) -> float:
        """How far apart the best and the worst candidate lie: whether the decision was a real choice."""
        return max(self.values.values()) - min(self.values.values()) if self.values else 0.0


class Reviewer:
    """Reviews decisions; holds one solver (its table is reused, and reset for every decision)."""

    def __init__(self, card_samples: int = CARD_SAMPLES, bid_samples: int = BID_SAMPLES,
                 card_node_budget: int = CARD_NODE_BUDGET, solve_node_limit: int = SOLVE_NODE_LIMIT) -> None:
        self.card_samples = card_samples
        self.bid_samples = bid_samples
        self.card_node_budget = card_node_budget
        self.solve_node_limit = solve_node_limit
        self._solver = DoubleDummy()  # its own: the review's lines keep their table between solves
        # The strong player's calls: the fitted bidding table, so they never depend on a clock.
        self._strong = PimcPlayer()
        self._playout = HeuristicPlayer(name="review")  # plays every seat of a reviewed call's hand
        self.nodes = 0  # solver nodes of the last card evaluation (calls need none)
        self.total_nodes = 0  # and of all so far

    def _evaluate(self, candidates: Sequence[Card | Call], samples: int, budget: int, least: int,
                  deal: Callable[[int, bool], dict[Card | Call, int] | None]) -> Evaluation:
        """The mean over up to ``samples`` deals of ``deal(cap, fresh)``: twice the hand value of every
        candidate on one newly sampled deal, or None when that needs more than ``cap`` nodes (``fresh``:
        the first deal, which starts the solver's table afresh, so no number depends on earlier work).

        Within ``budget`` nodes in all. The first deal may take a ``least``-th of it: when it cannot be
        solved in that, ``least`` deals could not fit either, and the decision is given up at once, as
        ``pimc`` does. Later deals are begun only with as many nodes left as they took on average.
        """
        totals = dict.fromkeys(candidates, 0)
        solved = 0
        self.nodes = 0
        for draw in range(2 * samples):
            left = budget - self.nodes
            if solved >= samples or left <= 0 or (solved and left < self.nodes // solved):
                break
            scores = deal(min(self.solve_node_limit, left if solved else budget // least), draw == 0)
            if scores is None:
                if not solved:
                    break
                continue
            for candidate in candidates:
                totals[candidate] += scores[candidate]
            solved += 1
        self.total_nodes += self.nodes
        return Evaluation.of_swings(totals, solved)

    # ------------------------------------------------------------------ cards

    def card_values(self, game: Game, seed: int) -> Evaluation:
        """Mean ``hand_value``, for the team of the seat to play, of each of its legal cards.

        ``game`` is the real game at the decision; only its public past and the seat's own hand are
        used (``seat_view``), every other card left is replaced by a sampled deal's.
        """
        seat = game.to_act
        assert seat is not None and game.phase is Phase.PLAY
        view = seat_view(game, seat)
        assert view.trump is not None and view.trick_leader is not None
        cards = [a for a in view.legal if isinstance(a, Card)]
        team = team_of(seat)
        sign = 1 if team == 0 else -1
        rules = SolveRules.of(view.rules)
        rng = SeededRandom(seed)
        know = knowledge(view)
        trump, leader, trick = int(view.trump), int(view.trick_leader), tuple(int(c) for c in view.trick)
        pit = pit_state(tuple(int(t.winner) for t in view.tricks))

        # The same deals as the strong player tallies them: its paired test and choice (``strong_choice``) below.
        tally = Tally([int(card) for card in cards])

        def deal(cap: int, fresh: bool) -> dict[Card | Call, int] | None:
            # Not leaning on the plays read (``ducked_below``): measured, it told the levels no further apart.
            hands = sample_biased(know, rng, view, read_plays=False)
            pos = Position(hands, trump, leader, trick, len(view.tricks), pit)
            start = self.nodes
            values = self._solver.card_values(pos, rules, team, node_limit=cap, keep=not fresh)
            self.nodes += self._solver.nodes
            if values is None:
                return None
            scores: dict[Card | Call, int] = {}
            for card in cards:
                left = start + cap - self.nodes
                if left <= 0:
                    return None
                # The rest of the hand after ``card``, from its exact value: each card found by a test.
                child, gain = step(pos, int(card), rules)
                line = self._solver.line(child, rules, node_limit=left, value=sign * values[int(card)] - gain)
                self.nodes += self._solver.nodes
                if line is None:
                    return None
                what_if = game.with_hands(hands)
                scores[card] = _swing(_play_out(what_if, [card, *(Card(c) for c in line)]), team)
            swings = {int(card): score for card, score in scores.items()}
            tally.add(swings, swings)
            return scores

        evaluation = self._evaluate(cards, self.card_samples, self.card_node_budget, MIN_SAMPLES, deal)
        if evaluation.samples < MIN_SAMPLES:
            return evaluation
        # The strong player's choice on the same deals: the cards the best does not clearly beat, weighed with the
        # roll-outs as ``pimc`` weighs them; else a card it plays for the roll-outs' sake would read as a loss.
        tally.prune(DEFAULT_PRUNE_ERRORS)
        return Evaluation(evaluation.values, evaluation.samples, Card(strong_choice(tally, view, rng)))

    def review_card(self, game: Game, choice: Card, seed: int) -> tuple[Card, float, int, float] | None:
        """(best card, cost of ``choice``, deals, spread of all the legal cards) for the seat to play; None when
        too few deals solved."""
        evaluation = self.card_values(game, seed)
        if evaluation.samples < MIN_SAMPLES:
            return None
        best = evaluation.strong
        assert isinstance(best, Card)
        cost = evaluation.values[best] - evaluation.values[choice]
        if cost <= 0:  # as good as the strong choice on these deals
            return choice, 0.0, evaluation.samples, evaluation.spread
        return best, cost, evaluation.samples, evaluation.spread

    def strong_card(self, game: Game, seed: int) -> Card | None:
        """The strong choice the review compares with (``Evaluation.strong``); None when the review would leave
        the decision out (fewer than ``MIN_SAMPLES`` deals solved)."""
        evaluation = self.card_values(game, seed)
        if evaluation.samples < MIN_SAMPLES:
            return None
        assert isinstance(evaluation.strong, Card)
        return evaluation.strong

    # ------------------------------------------------------------------ calls

    def strong_call(self, view: SeatView) -> Call:
        call = self._strong.choose(view)
        assert isinstance(call, Call)
        return call

    def call_values(self, game: Game, calls: Sequence[Call], seed: int) -> Evaluation:
        """Mean ``hand_value``, for the team of the seat to call, of each call in ``calls``, on the same
        ``bid_samples`` deals, each hand played out by the heuristic."""
        seat = game.to_act
        assert seat is not None and game.phase is Phase.BIDDING
        view = seat_view(game, seat)
        team = team_of(seat)
        rng = SeededRandom(seed)
        totals: dict[Card | Call, int] = dict.fromkeys(calls, 0)
        for _ in range(self.bid_samples):
            hands = sample_bidding(view, rng)
            order = [s for s in SUITS if s not in view.turned]
            rng.shuffle(order)  # the suits draaien would turn next, the same whatever is called
            for call in calls:
                what_if = game.with_hands(hands)
                what_if.apply(call, seat)
                self._finish_bidding(what_if, order)
                totals[call] += _swing(_play_out(what_if, _cards_of(self._playout, what_if)), team)
        return Evaluation.of_swings(totals, self.bid_samples)

    def _finish_bidding(self, game: Game, order: list[Suit]) -> None:
        """The rest of the bidding by the strong player's calls; draaien turns the suits of ``order``."""
        while game.phase in (Phase.BIDDING, Phase.TURN_UP):
            if game.phase is Phase.TURN_UP:
                turned = game.hands[-1].turned
                game.apply(TurnUp(next(suit for suit in order if suit not in turned)))
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(self.strong_call(seat_view(game, seat)), seat)

    def review_call(self, game: Game, choice: Call, seed: int) -> tuple[Call, float, int, float] | None:
        """(better call, cost of ``choice``, deals, spread); the strong player's own call costs 0. The two calls
        played out on the same deals are the two ways the choice went: the call made and the strong call, or,
        when they are the same, it and the other way (``other_call``); the spread is how far apart they lie."""
        view = seat_view(game, _to_act(game))
        strong = self.strong_call(view)
        other = other_call(view, strong) if strong is choice else strong
        evaluation = self.call_values(game, [choice, other], seed)
        if not evaluation.samples:
            return None
        if strong is choice:
            return choice, 0.0, evaluation.samples, evaluation.spread
        best = evaluation.best(prefer=choice)
        assert isinstance(best, Call)
        return best, evaluation.values[best] - evaluation.values[choice], evaluation.samples, evaluation.spread

    # ------------------------------------------------------------------ a match

    def review_match(self, rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                     progress: Callable[[int, int], None] | None = None) -> MatchReview:
        """Review every action of ``players`` (parallel to ``actions``: the person's key for a human's own
        action, None for the AI's, the timer's and chance's). ``progress(done, total)`` after each hand."""
        total = hand_count(actions)
        decisions: list[DecisionReview] = []
        for hand in range(total):
            decisions += self.review_hand(rules, actions, players, seed, hand)
            if progress is not None:
                progress(hand + 1, total)
        return match_summary(rules, actions, players, decisions)

    def review_hand(self, rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                    hand: int) -> list[DecisionReview]:
        """The reviewed decisions of hand ``hand`` of the match (see ``review_match``): a unit of work of a few
        seconds, so a worker that reviews between other jobs is never tied up for long."""
        if len(players) != len(actions):
            raise ValueError("players must run parallel to actions")
        game = Game(rules)
        decisions: list[DecisionReview] = []
        for index, (action, player) in enumerate(zip(actions, players, strict=True)):
            if len(game.hands) > hand + 1:
                break
            seat = game.to_act
            if (player is not None and seat is not None and isinstance(action, Card | Call)
                    and game.hand_number == hand):
                decision = self._review_one(game, action, seat, player, index, decision_seed(seed, index))
                if decision is not None:
                    decisions.append(decision)
            game.apply(action)
        return decisions

    def _review_one(self, game: Game, action: Card | Call, seat: Seat, player: int, index: int,
                    seed: int) -> DecisionReview | None:
        legal = game.legal_actions()
        if len(legal) < 2:
            return None  # no choice, nothing to review
        hand = game.hand_number
        if isinstance(action, Card):
            result: tuple[Card | Call, float, int, float] | None = self.review_card(game, action, seed)
            trick: int | None = len(game.hands[-1].tricks)
        else:
            result = self.review_call(game, action, seed)
            trick = None
        if result is None:
            return None
        best, cost, samples, spread = result
        cost = round(max(0.0, cost), 1)
        why = reason(seat_view(game, seat), best) if cost > 0 else None
        return DecisionReview(index, hand, trick, seat, player, action, best, cost, samples, why, round(spread, 1))


# One reviewer a thread (a solver may not be shared between threads), kept: its table is allocated once.
_reviewers = threading.local()


def review_hand(rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                hand: int) -> list[DecisionReview]:
    """``Reviewer.review_hand`` at the default settings, for workers: the reviewer is kept between calls
    (the numbers do not depend on what it reviewed before: see the module's docstring)."""
    reviewer: Reviewer | None = getattr(_reviewers, "reviewer", None)
    if reviewer is None:
        reviewer = _reviewers.reviewer = Reviewer()
    return reviewer.review_hand(rules, actions, players, seed, hand)


def review_match(rules: Rules, actions: Sequence[Action], players: Sequence[int | None], seed: int,
                 progress: Callable[[int, int], None] | None = None) -> MatchReview:
    """A review of a finished (or any) match at the default settings; see ``Reviewer.review_match``."""
    return Reviewer().review_match(rules, actions, players, seed, progress)


def other_call(view: SeatView, call: Call) -> Call:
    """The other way a call could have gone, as a club player weighs it: passing instead of playing, or playing
    (the suit the hand is best at, by the heuristic's evaluation) instead of passing."""
    legal = [c for c in view.legal if isinstance(c, Call) and c is not call]
    if call is not Call.PASS and Call.PASS in legal:
        return Call.PASS
    playing = [c for c in legal if c is not Call.PASS]
    if not playing:
        return legal[0]
    hand = view.hand_mask
    return max(playing, key=lambda c: hand_evaluation(hand, int(c.suit if c.suit is not None else view.turned[-1])))


def _to_act(game: Game) -> Seat:
    seat = game.to_act
    assert seat is not None
    return seat


def hand_value(result: HandResult, team: int) -> float:
    """What a settled hand is worth to ``team``: half the difference of the two teams' scores."""
    return _swing(result, team) / 2


def _swing(result: HandResult, team: int) -> int:
    return result.score[team] - result.score[1 - team]


def _play_out(game: Game, cards: Iterable[Card]) -> HandResult:
    """Play ``cards`` until the hand ends (every team claiming what it is owed, with declared roem); the
    hand as the engine settles it. ``cards`` is read one card at a time, after the claims of the last."""
    declared = game.rules.roem is RoemMode.DECLARED
    hand = game.hands[-1]
    for card in cards:
        game.apply(card)
        if declared and not hand.trick_cards:
            _claim_owed(game)
        if hand.result is not None:
            return hand.result
    raise AssertionError("the line did not finish the hand")


def _cards_of(player: HeuristicPlayer, game: Game) -> Iterator[Card]:
    """The cards ``player`` plays for whichever seat is to play in ``game``, each from that seat's view."""
    while True:
        card = player.choose(seat_view(game, _to_act(game)))
        assert isinstance(card, Card)
        yield card


def _claim_owed(game: Game) -> None:
    """Every claim that scores, as the AI players claim (``engine.ai.claims``); the claim phase answered."""
    while game.phase is Phase.CLAIM:
        seat = _to_act(game)
        game.apply(Claim(seat) if game.claim_value(seat.team) else Decline(seat), seat)
    for team in TEAMS:
        if game.can_claim() and game.claim_value(team):
            game.apply(Claim(SEATS[team]))

