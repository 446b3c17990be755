"""Duplicate duels: same deal both ways round, deterministic, independent of the worker count."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Callable, Iterable, Iterator

import pytest

from bot.cli.duel import run, run_duel
from engine.ai.base import Player
from engine.ai.duel import DealOutcome, duel, play_deal
from engine.ai.players import make_player
from engine.settings import Rules


def test_duel_is_deterministic_and_reports_its_figures() -> None:
    first = duel("heuristic", "random", deals=12, seed=3)
    second = duel("heuristic", "random", deals=12, seed=3)
    assert first == second
    assert first.deals == 12
    low, high = first.ci95
    assert low <= first.diff_per_hand <= high
    assert first.side_a.hands == first.side_b.hands == 24
    assert first.side_a.played + first.side_b.played == 24
    # Each side's points a hand: their difference is the duel's, and together they hold every hand's points.
    assert first.side_a.points_per_hand - first.side_b.points_per_hand == pytest.approx(first.diff_per_hand)
    assert first.side_a.points_per_hand + first.side_b.points_per_hand >= 162
    data = first.to_dict()
    assert {"deals", "diff_per_hand", "ci95"} <= set(data)
    assert "points per hand" in first.describe()
    assert f"{first.side_a.points_per_hand:.1f} points a hand" in first.describe()


def test_order_of_the_map_does_not_matter() -> None:
    def backwards(fn: Callable[[int], DealOutcome], items: Iterable[int]) -> Iterator[DealOutcome]:
        return iter([fn(i) for i in reversed(list(items))])

    assert duel("easy", "random", deals=6, seed=8, map_fn=backwards) == duel("easy", "random", deals=6, seed=8)


def test_a_player_against_itself_scores_exactly_zero() -> None:
    # The same deal, dealer and seat seeds both ways round: the two games mirror each other.
    result = duel("heuristic", "heuristic", deals=8, seed=5)
    assert result.diff_per_hand == 0 and result.ci95 == (0.0, 0.0)


def test_swapping_the_players_negates_the_difference() -> None:
    ab = duel("normal", "random", deals=6, seed=2, rules=Rules().with_changes(bidding="draaien"))
    ba = duel("random", "normal", deals=6, seed=2, rules=Rules().with_changes(bidding="draaien"))
    assert ab.diff_per_hand == -ba.diff_per_hand


def test_each_deal_is_played_with_the_seats_swapped() -> None:
    outcome = play_deal(lambda s: make_player("heuristic", s), lambda s: make_player("random", s), Rules(), 1, 0)
    first, second = outcome.games
    assert first.a_score + first.b_score >= 162 and second.a_score + second.b_score >= 162


def test_worker_count_does_not_change_the_result() -> None:
    rules = Rules()
    assert run("heuristic", "random", 8, 4, rules, workers=2) == run("heuristic", "random", 8, 4, rules, workers=1)


def test_cli_json() -> None:
    out = io.StringIO()
    args = argparse.Namespace(a="heuristic", b="random", deals=4, seed=1, json=True, rules="amsterdam",
                              bidding="verplicht", workers=1, untimed=False)
    assert run_duel(args, out) == 0
    data = json.loads(out.getvalue())
    assert data["deals"] == 4 and len(data["ci95"]) == 2 and isinstance(data["diff_per_hand"], float)


def test_cli_rejects_an_unknown_player() -> None:
    args = argparse.Namespace(a="heuristic", b="genius", deals=4, seed=1, json=False, rules="rotterdam",
                              bidding="vrij", workers=1, untimed=False)
    assert run_duel(args, io.StringIO()) == 2


@pytest.mark.parametrize("untimed", [False, True])
def test_cli_untimed_takes_the_strong_players_time_cap_away(untimed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--untimed`` reaches every player the duel makes, and the JSON says which way it ran."""
    from bot.cli import duel as cli

    made: list[bool] = []

    def recording(kind: str, seed: int = 0, *, timed: bool = True) -> Player:
        made.append(timed)
        return make_player(kind, seed, timed=timed)

    monkeypatch.setattr(cli, "make_player", recording)
    out = io.StringIO()
    args = argparse.Namespace(a="heuristic", b="random", deals=2, seed=1, json=True, rules="rotterdam",
                              bidding="vrij", workers=1, untimed=untimed)
    assert run_duel(args, out) == 0
    assert made and set(made[2:]) == {not untimed}  # the first two only check the kinds, in this process
    assert json.loads(out.getvalue())["timed"] is not untimed
