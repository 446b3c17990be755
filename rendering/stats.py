"""The ``/stats`` card: a player's figures, their rating over time and their points per hand by month.

A pure function from plain data to PNG bytes; every word (the title, each figure's label and value, the
charts' captions) comes from the caller, in the reader's language, and the colours from the table themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import ImageDraw

from rendering.draw import canvas, fit_text, font, paste_round
from rendering.encode import to_png
from rendering.theme import GOLD, MUTED, TEXT, Theme

WIDTH = 1200
MARGIN = 36
ROW_H = 44
CHART_H = 300
TITLE_H = 92


@dataclass(frozen=True, slots=True)
class StatsCard:
    """What the card shows, worded by the caller."""

    title: str
    figures: Sequence[tuple[str, str]]  # (label, value), in reading order
    rating_caption: str
    ratings: Sequence[float] = field(default_factory=tuple)  # oldest first: the rating after each rated match
    monthly_caption: str = ""
    months: Sequence[tuple[str, float]] = field(default_factory=tuple)  # (label, points per hand), oldest first
    empty: str = ""  # a chart's text when it has nothing to draw


def render_stats(card: StatsCard, theme: Theme) -> bytes:
    rows = (len(card.figures) + 1) // 2
    height = TITLE_H + rows * ROW_H + 24 + CHART_H + MARGIN
    img, d = canvas(WIDTH, height, theme)
    d.text((MARGIN, TITLE_H // 2 + 6), fit_text(card.title, font(44), WIDTH - 2 * MARGIN), font=font(44), fill=GOLD,
           anchor="lm")
    column = (WIDTH - 2 * MARGIN) // 2
    label_font, value_font = font(24, condensed=True), font(26)
    for index, (label, value) in enumerate(card.figures):
        x = MARGIN + (index % 2) * column
        y = TITLE_H + (index // 2) * ROW_H
        paste_round(img, (x, y, x + column - 12, y + ROW_H - 6), 10, theme.panel_rgb)
        # The value first (at most 60% of the box), the label in what is left.
        value_text = fit_text(value, value_font, int(column * 0.6))
        label_room = column - 64 - int(value_font.getlength(value_text))
        d.text((x + 14, y + (ROW_H - 6) // 2), fit_text(label, label_font, label_room), font=label_font,
               fill=MUTED, anchor="lm")
        d.text((x + column - 26, y + (ROW_H - 6) // 2), value_text, font=value_font, fill=TEXT, anchor="rm")
    top = TITLE_H + rows * ROW_H + 24
    half = (WIDTH - 2 * MARGIN - 24) // 2
    _line_chart(d, (MARGIN, top, MARGIN + half, top + CHART_H), card.rating_caption, card.ratings, card.empty, theme)
    _bar_chart(d, (MARGIN + half + 24, top, WIDTH - MARGIN, top + CHART_H), card.monthly_caption, card.months,
               card.empty, theme)
    return to_png(img)


Box = tuple[int, int, int, int]


def _frame(d: ImageDraw.ImageDraw, box: Box, caption: str, theme: Theme) -> Box:
    """The chart's panel and caption; the box left for the plot."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 16, fill=theme.panel_rgb)
    d.text((x0 + 18, y0 + 26), fit_text(caption, font(24), x1 - x0 - 36), font=font(24), fill=TEXT, anchor="lm")
    return x0 + 60, y0 + 56, x1 - 20, y1 - 40


def _line_chart(d: ImageDraw.ImageDraw, box: Box, caption: str, values: Sequence[float], empty: str,
                theme: Theme) -> None:
    x0, y0, x1, y1 = _frame(d, box, caption, theme)
    if not values:
        d.text(((x0 + x1) // 2, (y0 + y1) // 2), empty, font=font(22), fill=MUTED, anchor="mm")
        return
    if len(values) == 1:  # the first rated match: its point, no line yet
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        d.ellipse([x - 6, y - 6, x + 6, y + 6], fill=GOLD)
        d.text((x, y - 14), f"{values[0]:.0f}", font=font(18), fill=TEXT, anchor="mb")
        return
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    small = font(18)
    for value in (low, high):
        y = _scale(value, low, high, y1, y0)
        d.line([(x0, y), (x1, y)], fill=theme.line_rgb, width=1)
        d.text((x0 - 8, y), f"{value:.0f}", font=small, fill=MUTED, anchor="rm")
    step = (x1 - x0) / (len(values) - 1)
    points = [(x0 + i * step, _scale(v, low, high, y1, y0)) for i, v in enumerate(values)]
    d.line(points, fill=GOLD, width=4, joint="curve")
    last = points[-1]
    d.ellipse([last[0] - 6, last[1] - 6, last[0] + 6, last[1] + 6], fill=GOLD)


def _bar_chart(d: ImageDraw.ImageDraw, box: Box, caption: str, months: Sequence[tuple[str, float]], empty: str,
               theme: Theme) -> None:
    x0, y0, x1, y1 = _frame(d, box, caption, theme)
    if not months:
        d.text(((x0 + x1) // 2, (y0 + y1) // 2), empty, font=font(22), fill=MUTED, anchor="mm")
        return
    high = max(max(v for _, v in months), 1.0)
    slot = (x1 - x0) / len(months)
    width = max(6, int(slot * 0.6))
    small = font(16, condensed=True)
    d.line([(x0, y1), (x1, y1)], fill=theme.line_rgb, width=2)
    for i, (label, value) in enumerate(months):
        cx = x0 + slot * (i + 0.5)
        top = _scale(max(value, 0.0), 0.0, high, y1, y0 + 22)
        d.rectangle([cx - width / 2, top, cx + width / 2, y1], fill=GOLD)
        d.text((cx, top - 4), f"{value:.0f}", font=small, fill=TEXT, anchor="mb")
        d.text((cx, y1 + 6), label, font=small, fill=MUTED, anchor="mt")


def _scale(value: float, low: float, high: float, bottom: float, top: float) -> float:
    return bottom - (value - low) / (high - low) * (bottom - top)
