"""``klaverjas bench review --levels``: does the match review tell players of known strength apart?

Matches between the AI levels ``random``, ``easy``, ``normal`` and ``hard`` (untimed, so a seed gives the same
matches on any machine), one of each at the table. The seats are rotated so that each kind sits in every seat
once in four matches, and the partnerships change every four matches (each kind partners each other kind). Every
call and card of every player is then reviewed with ``engine.ai.review`` as if a person had made it, and the
figures the review shows a person are summed up per kind, each with a 95% interval.

The intervals treat a match as the unit of sampling (a ratio estimator's interval over the matches): the
decisions of one match hang together (one bad contract makes several costly cards), so counting them as
independent would make the intervals too narrow (measured: for easy and normal, by a factor of 1.3 to 1.9 in
variance). Whether a kind ranks above the one before it is a question about their difference, and the kinds play
the same matches at the same table, so ``ahead_of`` gives that difference with its own interval, paired by match;
two separate intervals that overlap say less (their errors share the deals).

Each match is a pure function of (seed, match, hands), so the matches may be spread over processes (``map_fn``)
without changing a figure.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from engine.ai.base import play_keyed
from engine.ai.duel import _mix
from engine.ai.players import make_player
from engine.ai.review import review_match
from engine.ai.review_summary import ACCURATE_WITHIN, DecisionReview
from engine.game import Game
from engine.randomness import SeededRandom
from engine.settings import Rules

KINDS = ("random", "easy", "normal", "hard")
# Kinds by seat (N, E, S, W) before rotating: N and S are partners, so these are the three partnerships.
PARTNERSHIPS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))
Z95 = 1.96

MatchMap = Callable[[Callable[[int], "LevelMatch"], Iterable[int]], Iterator["LevelMatch"]]


def seating(match: int) -> tuple[str, str, str, str]:
    """The kinds by seat in match ``match``: a partnership for four matches, rotated one seat each match."""
    base = PARTNERSHIPS[(match // 4) % len(PARTNERSHIPS)]
    shift = match % 4
    kinds = tuple(KINDS[base[(seat - shift) % 4]] for seat in range(4))
    return kinds[0], kinds[1], kinds[2], kinds[3]


@dataclass(frozen=True, slots=True)
class LevelMatch:
    """One match's reviewed decisions, each with the kind that made it."""

    match: int
    kinds: tuple[str, str, str, str]  # by seat
    decisions: tuple[DecisionReview, ...]  # every reviewed decision (the player key is the seat)

    def kind_of(self, decision: DecisionReview) -> str:
        return self.kinds[decision.player]


def play_match(seed: int, match: int, hands: int) -> tuple[Game, list[int | None]]:
    """Match ``match`` of seed ``seed`` between the levels, seated by ``seating``: the game, and each action's
    player key (the seat; None for chance's deals and turned suits)."""
    kinds = seating(match)
    players = [make_player(kinds[seat], _mix(seed, match, 10 + seat), timed=False) for seat in range(4)]
    game = Game(Rules().with_changes(length=str(hands)))
    keys = play_keyed(game, players, SeededRandom(_mix(seed, match, 1)))
    return game, keys


def review_level_match(seed: int, hands: int, match: int) -> LevelMatch:
    """Play match ``match`` and review every decision of every seat."""
    game, keys = play_match(seed, match, hands)
    review = review_match(game.rules, game.actions, keys, _mix(seed, match, 2))
    return LevelMatch(match, seating(match), review.decisions)


def ratio_interval(parts: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """(estimate, low, high): the ratio of sums of ``(total, count)`` per match, with a 95% interval that takes
    the match as the unit (the delta method's standard error of a ratio estimator)."""
    total = sum(part for part, _ in parts)
    count = sum(n for _, n in parts)
    if not count:
        return 0.0, 0.0, 0.0
    ratio = total / count
    k = len(parts)
    if k < 2:
        return ratio, ratio, ratio
    mean_count = count / k
    variance = sum((part - ratio * n) ** 2 for part, n in parts) / (k * (k - 1)) / mean_count ** 2
    half = Z95 * math.sqrt(variance)
    return ratio, ratio - half, ratio + half


def _figure(parts: Sequence[tuple[float, float]], digits: int, top: float | None = None) -> dict[str, object]:
    """The ratio and its interval, cut to what the figure can be (no cost below 0, no share above ``top``)."""
    value, low, high = ratio_interval(parts)
    low, high = max(0.0, low), high if top is None else min(top, high)
    return {"value": round(value, digits), "ci95": [round(low, digits), round(high, digits)]}


def difference_interval(first: Sequence[tuple[float, float]],
                        second: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """(estimate, low, high): ``second``'s ratio minus ``first``'s, both ``(total, count)`` per match over the same
    matches, with a 95% interval paired by match (the delta method on each match's share of either ratio's error)."""
    assert len(first) == len(second), "the same matches"
    k = len(first)
    count_a, count_b = sum(n for _, n in first), sum(n for _, n in second)
    if not count_a or not count_b:
        return 0.0, 0.0, 0.0
    ratio_a, ratio_b = sum(p for p, _ in first) / count_a, sum(p for p, _ in second) / count_b
    difference = ratio_b - ratio_a
    if k < 2:
        return difference, difference, difference
    errors = [(b - ratio_b * nb) / (count_b / k) - (a - ratio_a * na) / (count_a / k)
              for (a, na), (b, nb) in zip(first, second, strict=True)]
    half = Z95 * math.sqrt(sum(e * e for e in errors) / (k * (k - 1)))
    return difference, difference - half, difference + half


def accuracy_parts(kind: str, matches: Sequence[LevelMatch]) -> list[tuple[float, float]]:
    """Per match, the points ``kind`` kept and had at stake: the parts of its accuracy."""
    return [(sum(d.kept for d in m.decisions if m.kind_of(d) == kind),
             sum(d.stake for d in m.decisions if m.kind_of(d) == kind)) for m in matches]


def summarise_kind(kind: str, matches: Sequence[LevelMatch]) -> dict[str, object]:
    """A kind's figures: ``decisions`` reviewed (``cards``, ``calls``, and ``counted``: those that were a real choice,
    which accuracy counts), the mean cost of a card and of a call, ``accuracy`` (the review's headline) and
    ``share_accurate``: the share of every reviewed decision within ``ACCURATE_WITHIN`` of the best, the headline as
    it was before, kept to show what the definition changes."""
    mine = [[d for d in m.decisions if m.kind_of(d) == kind] for m in matches]
    cards = [[d for d in ds if not d.call] for ds in mine]
    calls = [[d for d in ds if d.call] for ds in mine]
    return {
        "decisions": sum(len(ds) for ds in mine),
        "cards": sum(len(ds) for ds in cards),
        "calls": sum(len(ds) for ds in calls),
        "counted": sum(1 for ds in mine for d in ds if d.stake > 0),
        "cost_per_card": _figure([(sum(d.cost for d in ds), len(ds)) for ds in cards], 2),
        "cost_per_call": _figure([(sum(d.cost for d in ds), len(ds)) for ds in calls], 2),
        "accuracy": _figure(accuracy_parts(kind, matches), 3, top=1.0),
        "share_accurate": _figure([(float(sum(1 for d in ds if d.cost <= ACCURATE_WITHIN)), len(ds)) for ds in mine],
                                  3, top=1.0),
    }


def review_levels(matches: int, hands: int, seed: int, map_fn: MatchMap | None = None) -> dict[str, object]:
    """Play and review ``matches`` matches of ``hands`` hands; one JSON-ready object with the figures per kind.
    ``map_fn`` plays the matches (``map`` by default, a process pool's ``imap`` for speed)."""
    runner: MatchMap = map_fn or map
    played = sorted(runner(partial(review_level_match, seed, hands), range(matches)), key=lambda m: m.match)
    return summarise_levels(played, hands, seed)


def summarise_levels(played: Sequence[LevelMatch], hands: int, seed: int) -> dict[str, object]:
    """Every kind's figures, and for each kind after the first ``ahead_of``: how far its accuracy lies above the
    kind before it (``KINDS`` runs weakest first), with a 95% interval paired by match."""
    kinds: dict[str, dict[str, object]] = {kind: summarise_kind(kind, played) for kind in KINDS}
    for weaker, stronger in itertools.pairwise(KINDS):
        value, low, high = difference_interval(accuracy_parts(weaker, played), accuracy_parts(stronger, played))
        kinds[stronger]["ahead_of"] = {"kind": weaker, "value": round(value, 3),
                                       "ci95": [round(low, 3), round(high, 3)]}
    return {"matches": len(played), "hands": hands, "seed": seed, "kinds": kinds}


__all__ = ["KINDS", "LevelMatch", "accuracy_parts", "difference_interval", "play_match", "ratio_interval",
           "review_level_match",
           "review_levels", "seating", "summarise_levels"]
