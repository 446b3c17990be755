"""``klaverjas bench review --levels``: each level sits in every seat and partners every other level, the
intervals are those of a ratio over matches, and the command prints one JSON object with every level's figures."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.cli.main import main
from engine.actions import Deal, TurnUp
from engine.ai.base import play_keyed
from engine.ai.players import RandomPlayer
from engine.ai.review_levels import KINDS, ratio_interval, seating
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
