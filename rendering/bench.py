"""``klaverjas bench render``: median milliseconds and PNG bytes per image kind, warm caches, one thread."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from engine.cards import Team
from rendering.examples import NAMES, finished_game, later_view, playing_view
from rendering.images import render_hand, render_sheet, render_table, render_trick
from rendering.theme import Labels, Theme


def _measure(fn: Callable[[], bytes], seconds: float) -> tuple[float, int]:
    data = fn()  # warm the card and shape caches
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while len(times) < 5 or (time.perf_counter() < deadline and len(times) < 500):
        start = time.perf_counter()
        data = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(data)


def bench_render(seconds: float | None, labels: Labels) -> dict[str, object]:
    """Milliseconds and bytes per image kind, drawn with the caller's words (``labels``)."""
    budget = 1.0 if seconds is None else seconds
    theme = Theme(labels)
    view = playing_view()
    later = later_view()
    done = finished_game()
    winner = Team.NS if done.totals[0] > done.totals[1] else Team.EW
    kinds: dict[str, Callable[[], bytes]] = {
        "hand": lambda: render_hand(view, theme=theme),
        "trick": lambda: render_trick(later, NAMES, seat=later.seat, trick=later.tricks[-1], theme=theme),
        "table": lambda: render_table(later, NAMES, seat=later.seat, theme=theme),
        "sheet": lambda: render_sheet(done.results, viewer_team=Team.NS, names=NAMES,
                                      hands_total=done.rules.length.hands, finished=True, winner=winner, theme=theme),
    }
    result: dict[str, object] = {}
    for name, fn in kinds.items():
        ms, size = _measure(fn, budget)
        result[f"{name}_ms"] = round(ms, 2)
        result[f"{name}_bytes"] = size
    return result
