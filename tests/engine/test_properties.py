"""Property tests over random games and random settings (hypothesis; seeded, bounded)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from klaverjas_test_helpers import notation

from engine.actions import Claim, Decline
from engine.cards import Seat
from engine.events import Event, HandSettled
from engine.game import Game, Phase
from engine.record import export_record, game_from_record, score_record
from engine.settings import RoemMode, Rules
from engine.view import seat_view
from tests.referee import referee

RULES = st.fixed_dictionaries(
    {},
    optional={
        "play": st.sampled_from(["rotterdam", "amsterdam"]),
        "undertrump": st.sampled_from(["forced", "forbidden"]),
        "bidding": st.sampled_from(["vrij", "verplicht", "draaien"]),
        "forced": st.sampled_from(["elder", "dealer"]),
        "roem": st.sampled_from(["auto", "declared"]),
        "stuk": st.sampled_from(["trick", "held"]),
        "length": st.one_of(st.builds(lambda n: {"hands": n}, st.integers(1, 3)),
                            st.builds(lambda n: {"target": n}, st.sampled_from([100, 300, 700]))),
    },
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def play(rng: random.Random, rules: Rules, stop: int, events: list[Event] | None = None) -> Game:
    """Random legal play through the public API, checking each step against the referee."""
    game = Game(rules)
    raw_rules = rules.to_dict()
    steps = 0
    seen = events if events is not None else []
    while game.phase is not Phase.OVER and steps < stop:
        steps += 1
        if game.phase is Phase.DEAL:
            seen.extend(game.deal_random(rng))
            continue
        if game.phase is Phase.TURN_UP:
            seen.extend(game.turn_up_random(rng))
            continue
        assert game.to_act is not None
        legal = game.legal_actions()
        assert legal, "the seat to act has no legal action"
        if game.phase is Phase.PLAY:
            hand = game.hand
            assert hand is not None and hand.trump is not None
            expected = referee.legal_cards(notation(game.cards_in_hand(game.to_act)),
                                           [notation([c])[0] for c in seat_view(game, game.to_act).trick],
                                           hand.trump.letter, raw_rules["play"], raw_rules["undertrump"])
            assert sorted(notation(legal)) == sorted(expected)
        if rules.roem is RoemMode.DECLARED and game.can_claim() and rng.random() < 0.4:
            claimer = Seat(rng.randrange(4))
            hand = game.hand
            if hand is None or all(seat.team is not claimer.team for seat in hand.declined):
                seen.extend(game.apply(Claim(claimer)))
                continue
        seen.extend(game.apply(rng.choice(legal), game.to_act))
    return game


def close_claim_window(game: Game) -> None:
    """Decline while the claim phase asks: what replaying a record does, which keeps no declines."""
    while game.phase is Phase.CLAIM and game.to_act is not None:
        game.apply(Decline(game.to_act), game.to_act)


def views(game: Game) -> list[Any]:
    """Per-seat views, with the rules compared by meaning (see test_rebuilt_rules_equal_original)."""
    return [dataclasses.replace(view, rules=view.rules.resolved()) for view in
            (seat_view(game, seat) for seat in Seat)]


@SETTINGS
@given(raw=RULES, seed=st.integers(0, 2**32 - 1), stop=st.integers(1, 400))
def test_random_games(raw: dict[str, Any], seed: int, stop: int) -> None:
    rules = Rules.from_dict(raw)
    game = play(random.Random(seed), rules, stop)

    for hand in game.hands:
        if not hand.complete:
            continue
        assert sum(t.points for t in hand.tricks) == 162
        assert sorted(hand.plays) == list(range(32)), "every card played exactly once"
        for trick in hand.tricks:
            for seat, card in trick.plays:
                assert hand.deal[seat] >> card & 1, f"{seat} played {card} it was not dealt"
        if hand.result is None:  # every last trick opens the claim window under declared roem
            assert hand is game.hands[-1] and game.phase is Phase.CLAIM
            continue
        assert sum(hand.result.points) == 162

    record = export_record(game)
    close_claim_window(game)
    assert export_record(game) == record
    rebuilt = game_from_record(record)
    assert export_record(rebuilt) == record
    assert views(rebuilt) == views(game)
    assert (rebuilt.phase, rebuilt.to_act, rebuilt.totals, rebuilt.winner) == (
        game.phase, game.to_act, game.totals, game.winner)
    clone = game.clone()
    assert export_record(clone) == record and views(clone) == views(game)

    assert score_record(record) == referee.score_record(record)


@SETTINGS
@given(raw=RULES, seed=st.integers(0, 2**32 - 1))
def test_whole_matches_end_by_the_rules(raw: dict[str, Any], seed: int) -> None:
    rules = Rules.from_dict(raw)
    game = play(random.Random(seed), rules, 100_000)
    assert game.finished
    ns, ew = game.totals
    length = rules.length
    if length.hands is not None:
        assert len(game.hands) == length.hands
    else:
        assert max(ns, ew) >= length.target and ns != ew
        # no earlier hand ended it: before the last hand, nobody was at the target unless totals were equal
        before = [sum(h.result.score[t] for h in game.hands[:-1] if h.result) for t in (0, 1)]
        assert max(before) < length.target or before[0] == before[1]
    assert game.winner is (None if ns == ew else (Seat.N.team if ns > ew else Seat.E.team))


def test_rebuilt_rules_equal_original() -> None:
    game = Game(Rules())
    game.deal_random(random.Random(1), Seat.N)
    rebuilt = game_from_record(export_record(game))
    assert rebuilt.rules == game.rules


def test_rules_round_trip_by_meaning() -> None:
    for raw in ({}, {"play": "amsterdam"}, {"play": "amsterdam", "undertrump": "forced"},
                {"bidding": "draaien", "roem": "declared", "stuk": "held", "length": {"target": 1001}}):
        rules = Rules.from_dict(raw)
        assert Rules.from_dict(rules.to_dict()).resolved() == rules.resolved()
        assert Rules.from_dict(rules.to_dict()).to_dict() == rules.to_dict()


ALL_RULE_SETS = [
    {"play": play, "undertrump": under, "bidding": bidding, "forced": forced, "roem": roem, "stuk": stuk,
     "length": {"hands": 2}}
    for play, under, bidding, forced, roem, stuk in itertools.product(
        ("rotterdam", "amsterdam"), ("forced", "forbidden"), ("vrij", "verplicht", "draaien"), ("elder", "dealer"),
        ("auto", "declared"), ("trick", "held"))
]


@pytest.mark.parametrize("raw", ALL_RULE_SETS,
                         ids=lambda raw: "-".join(str(v) for v in raw.values() if isinstance(v, str)))
def test_every_hand_is_settled_exactly_once(raw: dict[str, Any]) -> None:
    """Claims included (the last trick's claim phase under declared roem): one HandSettled per hand."""
    for seed in range(3):
        events: list[Event] = []
        # Seeded by the rule set too: rule sets that agree on a hand would otherwise play the same games.
        game = play(random.Random(f"{sorted(raw.items())}:{seed}"), Rules.from_dict(raw), 100_000, events)
        assert game.finished
        settled = [event.hand for event in events if isinstance(event, HandSettled)]
        assert settled == [0, 1]
        assert [event.result for event in events if isinstance(event, HandSettled)] == game.results
