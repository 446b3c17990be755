"""The strong player's bidding table: features, contexts, bids in every bidding mode, and the fit that makes it."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from data.fitting import make_bidding_weights
from engine.actions import Call, Deal
from engine.ai.bidding import (
    FEATURE_NAMES,
    PLAY_RATES,
    PLAY_THRESHOLDS,
    TURNED_SUIT_RAISE,
    WEIGHTS,
    Context,
    PlayedDeal,
    bidding_context,
    choose_bid,
    expected_score,
    fit,
    hand_features,
    play_out_deals,
    training_rows,
)
from engine.ai.heuristic import BID_THRESHOLD, hand_evaluation
from engine.cards import Seat, mask_of, parse_cards
from engine.game import Game, Phase
from engine.settings import Rules
from engine.view import SeatView, seat_view

SPADES = 3


def _hand(text: str) -> int:
    return mask_of(parse_cards(text))


def _features(text: str, trump: int) -> dict[str, float]:
    return dict(zip(FEATURE_NAMES, hand_features(_hand(text), trump), strict=True))


def test_features_read_trumps_and_side_suits() -> None:
    f = _features("JS 9S QS KS AH TH 7C 8C", SPADES)
    assert f["bias"] == 1 and f["trump_jack"] == f["trump_9"] == f["trump_queen"] == f["trump_king"] == 1
    assert f["trump_ace"] == 0 and f["trumps_over_3"] == 1 and f["trump_stuk"] == 1 and f["trump_jack_nine"] == 1
    assert f["side_aces"] == 1 and f["side_ace_tens"] == 1 and f["side_voids"] == 1  # diamonds
    assert f["side_tens_guarded"] == f["side_tens_bare"] == 0
    # The same cards with hearts as trump: spades is now a side suit without its ace.
    g = _features("JS 9S QS KS AH TH 7C 8C", 2)
    assert g["trump_ace"] == g["trump_10"] == 1 and g["trump_jack"] == 0 and g["side_kings"] == 1


def test_the_shipped_table_has_a_row_per_context_and_ranks_hands() -> None:
    assert len(WEIGHTS) == len(Context) and all(len(row) == len(FEATURE_NAMES) for row in WEIGHTS)
    assert len(PLAY_THRESHOLDS) == len(Context)
    strong, weak = _hand("JS 9S AS TS AH TH AD 7C"), _hand("7C 8C 7D 8D 7H 8H 7S 8S")
    for context in Context:
        assert expected_score(strong, SPADES, context) > PLAY_THRESHOLDS[context]
        assert expected_score(weak, SPADES, context) < PLAY_THRESHOLDS[context]
        # The trump jack is worth more than the trump seven, in every place.
        assert expected_score(_hand("JS 8S AH 7C 8C 7D 8D 9D"), SPADES, context) > \
            expected_score(_hand("7S 8S AH 7C 8C 9C 8D 9D"), SPADES, context)


def _vrij_view(hand: str, passes: int, rules: Rules | None = None) -> SeatView:
    """The seat that speaks after ``passes`` passes (N is the elder hand), holding ``hand``."""
    mine = _hand(hand)
    rest = [c for c in range(32) if not mine >> c & 1]
    random.Random(1).shuffle(rest)
    seat = Seat(passes % 4)
    hands = [0, 0, 0, 0]
    hands[seat] = mine
    others = [s for s in range(4) if s != seat]
    for i, other in enumerate(others):
        hands[other] = mask_of(rest[i * 8:(i + 1) * 8])
    game = Game(rules or Rules())
    game.apply(Deal(Seat.W, (hands[0], hands[1], hands[2], hands[3])))
    for _ in range(passes):
        to_act = game.to_act
        assert to_act is not None
        game.apply(Call.PASS, to_act)
    assert game.to_act is seat
    return seat_view(game, seat)


def test_the_context_is_the_place_in_the_bidding_and_the_elder_forced_after_four_passes() -> None:
    for passes, context in enumerate((Context.FIRST, Context.SECOND, Context.THIRD, Context.FOURTH, Context.FORCED)):
        view = _vrij_view("7C 8C 7D 8D 7H 8H 7S 8S", passes)
        assert bidding_context(view) is context
    forced = _vrij_view("7C 8C 7D 8D 7H 8H 7S 8S", 4)
    assert Call.PASS not in forced.legal
    call = choose_bid(forced)  # junk, but the elder must name a suit: the best by the forced row
    scores = [expected_score(forced.hand_mask, s, Context.FORCED) for s in range(4)]
    assert call in (Call.C, Call.D, Call.H, Call.S) and scores.index(max(scores)) == (Call.C, Call.D, Call.H,
                                                                                        Call.S).index(call)


def test_bids_follow_the_threshold_of_the_place() -> None:
    hand = "JS 9S 7S AH 7C 8D 9D 8H"
    for passes in range(4):
        view = _vrij_view(hand, passes)
        context = bidding_context(view)
        best = max(expected_score(view.hand_mask, s, context) for s in range(4))
        assert (choose_bid(view) is Call.S) == (best >= PLAY_THRESHOLDS[context])
        assert choose_bid(view) in (Call.S, Call.PASS)


def test_draaien_plays_or_passes_on_the_turned_suit_and_plays_when_it_must() -> None:
    rules = Rules().with_changes(bidding="draaien")
    rng = random.Random(5)
    seen_play = seen_pass = raised = False
    for _ in range(60):
        game = Game(rules)
        game.deal_random(rng)
        while game.phase in (Phase.TURN_UP, Phase.BIDDING):
            if game.phase is Phase.TURN_UP:
                game.turn_up_random(rng)
                continue
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            call = choose_bid(view)
            assert call in view.legal
            if Call.PASS not in view.legal:
                assert call is Call.PLAY
            else:
                # The turned suit needs more than vrij's bar for the place: a pass there leaves more.
                threshold = PLAY_THRESHOLDS[bidding_context(view)]
                score = expected_score(view.hand_mask, int(view.turned[-1]), bidding_context(view))
                assert (call is Call.PLAY) == (score >= threshold + TURNED_SUIT_RAISE)
                raised |= threshold <= score < threshold + TURNED_SUIT_RAISE
            seen_play |= call is Call.PLAY
            seen_pass |= call is Call.PASS
            game.apply(call, seat)
    assert seen_play and seen_pass and raised


def test_verplicht_names_the_best_suit_at_once() -> None:
    view = _vrij_view("JH 9H AH 7H AC TC 8D 7S", 0, Rules().with_changes(bidding="verplicht"))
    assert Call.PASS not in view.legal and bidding_context(view) is Context.FIRST
    assert choose_bid(view) is Call.H


# ---------------------------------------------------------------------- the fit


def _random_deal(rng: random.Random, value: int) -> PlayedDeal:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = tuple(mask_of(cards[i * 8:(i + 1) * 8]) for i in range(4))
    return PlayedDeal((hands[0], hands[1], hands[2], hands[3]), (value, -value, value + 10, 0))


def test_training_rows_take_each_place_after_passes_and_score_nat_as_the_whole_hand() -> None:
    rng = random.Random(2)
    deals = [_random_deal(rng, rng.randrange(-80, 80)) for _ in range(200)]
    rows = training_rows(deals)
    assert len(rows[Context.FIRST][1]) == 4 * len(deals)
    expected_second = 4 * sum(1 for d in deals if max(hand_evaluation(d.hands[0], s) for s in range(4)) < BID_THRESHOLD)
    assert len(rows[Context.SECOND][1]) == expected_second
    assert len(rows[Context.SECOND][1]) > len(rows[Context.THIRD][1]) > len(rows[Context.FOURTH][1]) > 0
    # Seat 0 plays the deal's value; a value of 0 or less is nat, the whole hand to the defence.
    first_scores = rows[Context.FIRST][1]
    for i, deal in enumerate(deals[:20]):
        for trump, value in enumerate(deal.values):
            assert first_scores[4 * i + trump] == (value if value > 0 else -162)


def test_fit_minimises_the_squared_error_and_needs_enough_deals() -> None:
    rng = random.Random(3)
    deals = [_random_deal(rng, rng.randrange(-40, 120)) for _ in range(400)]
    result = fit(deals)
    assert result.rows == tuple(len(training_rows(deals)[c][1]) for c in Context)
    features, scores = training_rows(deals)[Context.FIRST]
    x, y = np.array(features), np.array(scores)
    best = np.array(result.weights[Context.FIRST])
    error = float(((x @ best - y) ** 2).sum())
    for i in (0, 5, 12):
        for step in (-2.0, 2.0):
            moved = best.copy()
            moved[i] += step
            assert float(((x @ moved - y) ** 2).sum()) > error
    with pytest.raises(ValueError, match="too few deals"):
        fit(deals[:3])


def test_the_fitted_thresholds_keep_the_play_rate_of_each_place() -> None:
    rng = random.Random(6)
    deals = [_random_deal(rng, rng.randrange(-60, 140)) for _ in range(1000)]
    result = fit(deals)
    rows = training_rows(deals)
    for context in (Context.FIRST, Context.SECOND):
        features = rows[context][0]
        hands = [features[i:i + 4] for i in range(0, len(features), 4)]
        best = [max(sum(w * f for w, f in zip(result.weights[context], row, strict=True)) for row in hand)
                for hand in hands]
        share = sum(score >= result.thresholds[context] for score in best) / len(best)
        assert share == pytest.approx(PLAY_RATES[context], abs=0.02)  # the threshold is rounded to 0.1


def test_played_deals_are_a_pure_function_of_seed_and_index() -> None:
    rules = Rules()
    together = play_out_deals(7, 0, 2, rules, rollouts=20)
    apart = play_out_deals(7, 0, 1, rules, rollouts=20) + play_out_deals(7, 1, 1, rules, rollouts=20)
    assert together == apart
    for deal in together:
        assert sorted(bin(h).count("1") for h in deal.hands) == [8, 8, 8, 8]
        assert deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3] == (1 << 32) - 1
        for value in deal.values:  # card points and roem: 162 between the teams, roem in tens, pit 100
            assert value % 2 == 0 and -162 - 400 <= value <= 162 + 400
    assert together[0].hands != together[1].hands != play_out_deals(8, 0, 1, rules, rollouts=20)[0].hands


def test_a_deal_is_valued_for_seats_0_and_2_under_each_trump_in_order() -> None:
    # The team strong in a trump makes more with it: each value leans the way the two teams' hands do.
    deals = play_out_deals(5, 0, 24, Rules(), rollouts=20)
    lean = 0.0
    for deal in deals:
        for trump, value in enumerate(deal.values):
            ours = hand_evaluation(deal.hands[0], trump) + hand_evaluation(deal.hands[2], trump)
            theirs = hand_evaluation(deal.hands[1], trump) + hand_evaluation(deal.hands[3], trump)
            lean += value * (ours - theirs)
    assert lean > 0


def test_the_printed_table_is_the_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    deals = [_random_deal(rng, rng.randrange(-40, 120)) for _ in range(400)]
    monkeypatch.setattr(make_bidding_weights, "played", lambda seed, count, workers: deals)
    out = io.StringIO()
    assert make_bidding_weights.main(["400", "3"], out) == 0
    namespace: dict[str, object] = {}
    exec(out.getvalue(), namespace)  # the text pasted into engine/ai/bidding.py
    assert namespace["WEIGHTS"] == fit(deals).weights
    assert namespace["PLAY_THRESHOLDS"] == fit(deals).thresholds
    assert "make_bidding_weights 400 3" in out.getvalue()


def test_too_few_deals_are_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert make_bidding_weights.main(["2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "give more deals" in captured.err
