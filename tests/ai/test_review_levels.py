"""``klaverjas bench review --levels``: each level sits in every seat and partners every other level, the
intervals are those of a ratio over matches, and the command prints one JSON object with every level's figures."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from bot.cli.main import main
from engine.actions import Deal, TurnUp
from engine.ai.base import play_keyed
from engine.ai.players import RandomPlayer
from engine.ai.review_levels import KINDS, difference_interval, ratio_interval, seating
from engine.game import Game, Phase
from engine.randomness import SeededRandom
from engine.settings import Rules


def test_each_level_sits_in_every_seat_and_partners_every_other_level() -> None:
    for first in (0, 4, 8):
        seats = [seating(match) for match in range(first, first + 4)]
        for seat in range(4):
            assert sorted(kinds[seat] for kinds in seats) == sorted(KINDS)
    partners = Counter(frozenset((kinds[0], kinds[2])) for kinds in map(seating, range(12)))
    assert len(partners) == 6 and set(partners.values()) == {2}  # every pair, as N-S and as E-W alike


def test_the_interval_of_a_ratio_over_matches() -> None:
    value, low, high = ratio_interval([(3.0, 4.0), (1.0, 4.0), (2.0, 2.0), (0.0, 2.0)])
    assert value == pytest.approx(6.0 / 12.0) and low < value < high
    # Matches that agree leave no doubt; a single match gives no interval at all.
    assert ratio_interval([(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)]) == pytest.approx((0.5, 0.5, 0.5))
    assert ratio_interval([(1.0, 4.0)]) == (0.25, 0.25, 0.25)
    assert ratio_interval([]) == (0.0, 0.0, 0.0)


def test_the_difference_between_two_kinds_is_paired_by_match() -> None:
    # Two kinds whose matches go up and down together, the second always 0.1 ahead: each one's interval is wide and
    # they overlap, but the difference has no doubt in it.
    weaker = [(1.0, 4.0), (3.0, 4.0), (1.0, 4.0), (3.0, 4.0)]
    stronger = [(1.4, 4.0), (3.4, 4.0), (1.4, 4.0), (3.4, 4.0)]
    _, _, weaker_high = ratio_interval(weaker)
    _, stronger_low, _ = ratio_interval(stronger)
    assert stronger_low < weaker_high
    assert difference_interval(weaker, stronger) == pytest.approx((0.1, 0.1, 0.1))
    # Ahead in some matches and behind in others: an interval around the difference, which may hold 0.
    value, low, high = difference_interval(weaker, [(2.0, 4.0), (2.0, 4.0), (2.0, 4.0), (3.0, 4.0)])
    assert value == pytest.approx(0.0625) and low < 0 < value < high
    assert difference_interval([(1.0, 4.0)], [(2.0, 4.0)]) == (0.25, 0.25, 0.25)


def test_the_levels_benchmark_prints_every_levels_figures_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "review", "--levels", "--matches", "1", "--hands", "1", "--seed", "5"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["matches"], result["hands"], result["seed"]) == (1, 1, 5)
    assert sorted(result["kinds"]) == sorted(KINDS)
    for figures in result["kinds"].values():
        assert figures["decisions"] == figures["cards"] + figures["calls"] >= figures["counted"] >= 0
        for name in ("cost_per_card", "cost_per_call", "accuracy", "share_accurate"):
            low, high = figures[name]["ci95"]
            assert low <= figures[name]["value"] <= high
        assert 0 <= figures["accuracy"]["value"] <= 1 and figures["cost_per_card"]["value"] >= 0
    assert sum(figures["cards"] for figures in result["kinds"].values()) > 0
    # Each kind after the first says how far it lies above the one before it.
    for weaker, stronger in itertools.pairwise(KINDS):
        ahead = result["kinds"][stronger]["ahead_of"]
        assert ahead["kind"] == weaker and ahead["ci95"][0] <= ahead["value"] <= ahead["ci95"][1]
        assert ahead["value"] == pytest.approx(result["kinds"][stronger]["accuracy"]["value"]
                                               - result["kinds"][weaker]["accuracy"]["value"], abs=0.002)
    assert "ahead_of" not in result["kinds"][KINDS[0]]


def test_a_keyed_match_names_the_seat_of_every_choice_and_no_one_for_chance() -> None:
    # Draaien, so chance turns suits as well as dealing; a whole match of two hands.
    game = Game(Rules().with_changes(bidding="draaien", length="2"))
    players = [RandomPlayer(seed) for seed in range(4)]
    keys = play_keyed(game, players, SeededRandom(7))
    assert game.phase is Phase.OVER and len(keys) == len(game.actions)
    replay = Game(game.rules)
    for action, key in zip(game.actions, keys, strict=True):
        chance = isinstance(action, Deal | TurnUp)
        assert (key is None) is chance
        if not chance:
            assert key == replay.to_act
        replay.apply(action)
    assert any(isinstance(action, TurnUp) for action in game.actions)
