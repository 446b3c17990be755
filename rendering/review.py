"""The match review chart: for every hand a bar per player of the points their decisions lost, the big
mistakes marked. A pure function of plain data to PNG bytes; every word on it comes from the caller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rendering.draw import canvas, fit_text, font, paste_round
from rendering.encode import to_png
from rendering.theme import GOLD, MUTED, RGB, TEXT, Theme

# One colour a player (legend order), bright enough on every felt and apart from the gold marks.
PLAYER_COLOURS: tuple[RGB, ...] = ((120, 190, 255), (255, 140, 120), (140, 230, 160), (220, 160, 255))
MARK: RGB = GOLD

REVIEW_W_MIN, REVIEW_W_MAX = 1200, 1800
REVIEW_H = 640
LEFT, RIGHT, TOP, BOTTOM = 96, 40, 150, 96  # the plot's margins
GROUP_MIN = 44  # pixels a hand takes at least


@dataclass(frozen=True, slots=True)
class ReviewChart:
    """What the chart shows. ``lost[p][h]``: points player ``p`` lost in hand ``h``; ``marks``: (player,
    hand) of the big mistakes. The words (title, caption, legend lines, axis numbers aside) are the caller's."""

    title: str
    caption: str
    legend: tuple[str, ...]  # one line a player: name and summary, in the caller's words
    lost: tuple[tuple[float, ...], ...]
    marks: frozenset[tuple[int, int]] = frozenset()

    def __post_init__(self) -> None:
        if not 1 <= len(self.legend) <= len(PLAYER_COLOURS) or len(self.lost) != len(self.legend):
            raise ValueError(f"a review chart shows 1 to {len(PLAYER_COLOURS)} players, each with a legend line")
        if len({len(row) for row in self.lost}) > 1:
            raise ValueError("every player needs a number for every hand")

    @property
    def hands(self) -> int:
        return len(self.lost[0])


def _step(top: float) -> int:
    """A round grid step that puts three to six lines under ``top``."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        if top / step <= 6:
            return step
    return 1000


def render_review(chart: ReviewChart, *, theme: Theme) -> bytes:
    """The chart as PNG bytes (drawn at twice the size a desktop shows, as the other images)."""
    hands = max(1, chart.hands)
    players = len(chart.legend)
    width = min(REVIEW_W_MAX, max(REVIEW_W_MIN, LEFT + RIGHT + hands * GROUP_MIN))
    img, d = canvas(width, REVIEW_H, theme)
    paste_round(img, (12, 12, width - 12, REVIEW_H - 12), 18, theme.panel_rgb)
    title, small, tiny = font(34), font(19), font(17)
    d.text((32, 44), fit_text(chart.title, title, width - 64), font=title, fill=TEXT, anchor="lm")
    # Legend: a swatch and a line a player, two to a row.
    column = (width - 64) // (2 if players > 1 else 1)
    for i, line in enumerate(chart.legend):
        x = 32 + (i % 2) * column
        y = 88 + (i // 2) * 28
        paste_round(img, (x, y - 9, x + 18, y + 9), 4, PLAYER_COLOURS[i])
        d.text((x + 28, y), fit_text(line, small, column - 40), font=small, fill=TEXT, anchor="lm")

    plot_left, plot_right = LEFT, width - RIGHT
    plot_top, plot_bottom = TOP, REVIEW_H - BOTTOM
    highest = max((value for row in chart.lost for value in row), default=0.0)
    step = _step(max(highest, 1.0))
    top_value = max(step, math.ceil(highest / step) * step)
    scale = (plot_bottom - plot_top - 24) / top_value  # room above the highest bar for its mark
    for grid in range(0, top_value + 1, step):
        y = plot_bottom - round(grid * scale)
        d.line([(plot_left, y), (plot_right, y)], fill=theme.line_rgb, width=1 if grid else 3)
        d.text((plot_left - 12, y), str(grid), font=tiny, fill=MUTED, anchor="rm")

    group = (plot_right - plot_left) / hands
    bar = max(3.0, min(22.0, (group - 10) / players))
    for h in range(hands):
        centre = plot_left + group * (h + 0.5)
        left = centre - bar * players / 2
        for p in range(players):
            value = chart.lost[p][h]
            x0 = round(left + p * bar)
            x1 = max(x0 + 1, round(left + (p + 1) * bar) - 2)
            y0 = plot_bottom - max(2, round(value * scale)) if value > 0 else plot_bottom - 2
            d.rectangle([x0, y0, x1, plot_bottom - 1], fill=PLAYER_COLOURS[p])
            if (p, h) in chart.marks:
                # A gold triangle pointing down at the bar: a decision that cost a lot.
                mid = (x0 + x1) / 2
                d.polygon([(mid - 9, y0 - 20), (mid + 9, y0 - 20), (mid, y0 - 5)], fill=MARK)
        if hands <= 24 or h % 2 == 0:
            d.text((round(centre), plot_bottom + 18), str(h + 1), font=tiny, fill=MUTED, anchor="mm")
    d.text((width // 2, REVIEW_H - 44), fit_text(chart.caption, small, width - 64), font=small, fill=MUTED,
           anchor="mm")
    return to_png(img)
