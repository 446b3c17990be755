"""A tournament's standings as an image: the ranking of each field (players alone, pairs), then hand by hand a
score against the best and the average of the field. Pure: plain data in, PNG bytes out; every word comes from
the caller (``StandingsLabels``), the colours from the table theme."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.draw import fit_text, font, paste_round
from rendering.encode import to_png
from rendering.theme import GOLD, RGB, Theme

PAPER: RGB = (250, 246, 234)
INK: RGB = (34, 34, 40)
FAINT: RGB = (150, 146, 136)
STRIPE: RGB = (242, 236, 220)
AHEAD: RGB = (206, 232, 206)  # a hand scored above the field's average
BEHIND: RGB = (244, 214, 210)  # below it

WIDTH = 900
MARGIN = 28
ROW = 40
HEAD = 96
CELL_W = 56  # a hand's column in the per-hand grid
LABEL_W = 170  # the grid's row captions
MAX_ROWS = 30  # rows drawn per field; the rest is counted below them


@dataclass(frozen=True, slots=True)
class StandingsLabels:
    """The words on the standings image, in the reader's language."""

    players: str  # the field of players alone
    pairs: str
    total: str
    hand: str
    you: str
    best: str
    average: str
    playing: str  # an entry still playing ("playing")
    by_ai: str  # finished by the AI at the closing
    more: str  # "+{n} more" is written as f"+{n} {more}"


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int | None  # None: still playing
    name: str
    total: int | None  # None: not shown (a reader who may see no figures yet)
    hands_played: int
    by_ai: bool = False
    highlight: bool = False  # the reader's own entry


def render_standings(*, title: str, fields: Sequence[tuple[str, Sequence[StandingRow]]], hands: int,
                     best: Sequence[int | None], average: Sequence[float | None],
                     you: Sequence[int | None] | None, theme: Theme, labels: StandingsLabels,
                     grid: bool = True) -> bytes:
    """``fields``: (caption, rows) of each ranking shown; ``best``, ``average`` and ``you`` (the reader's scores,
    None for an onlooker) per hand, for the grid under the rankings (``grid`` False: no grid)."""
    return to_png(render_standings_image(title=title, fields=fields, hands=hands, best=best, average=average,
                                         you=you, theme=theme, labels=labels, grid=grid))


def render_standings_image(*, title: str, fields: Sequence[tuple[str, Sequence[StandingRow]]], hands: int,
                           best: Sequence[int | None], average: Sequence[float | None],
                           you: Sequence[int | None] | None, theme: Theme, labels: StandingsLabels,
                           grid: bool = True) -> Image.Image:
    grid_rows = [(labels.best, [_num(v) for v in best]), (labels.average, [_num(v) for v in average])]
    if you is not None:
        grid_rows.insert(0, (labels.you, [_num(v) for v in you]))
    width = max(WIDTH, MARGIN * 2 + LABEL_W + hands * CELL_W + 16)
    shown = [(caption, rows[:MAX_ROWS], len(rows) - MAX_ROWS) for caption, rows in fields if rows]
    ranking_h = sum(ROW + len(rows) * ROW + (ROW if hidden > 0 else 0) + 12 for _, rows, hidden in shown)
    grid_h = ROW * (len(grid_rows) + 1) + 24 if grid else 0
    height = HEAD + ranking_h + grid_h + MARGIN
    img = Image.new("RGB", (width, height), theme.felt_rgb)
    d = ImageDraw.Draw(img)
    paste_round(img, (14, 14, width - 14, height - 14), 18, PAPER)
    big, cell, small = font(34), font(24), font(18)
    d.text((width // 2, 56), fit_text(title, big, width - 2 * MARGIN - 40), font=big, fill=INK, anchor="mm")

    y = HEAD
    for caption, rows, hidden in shown:
        d.text((MARGIN + 8, y + ROW // 2), caption, font=small, fill=FAINT, anchor="lm")
        if any(row.total is not None for row in rows):
            d.text((width - MARGIN - 12, y + ROW // 2), labels.total, font=small, fill=FAINT, anchor="rm")
        d.line([(MARGIN, y + ROW - 4), (width - MARGIN, y + ROW - 4)], fill=INK, width=2)
        y += ROW
        for index, row in enumerate(rows):
            if row.highlight:
                paste_round(img, (MARGIN, y + 2, width - MARGIN, y + ROW - 2), 10, GOLD)
            elif index % 2:
                d.rectangle([MARGIN, y, width - MARGIN, y + ROW - 1], fill=STRIPE)
            cy = y + ROW // 2
            d.text((MARGIN + 40, cy), str(row.rank) if row.rank is not None else "·", font=cell, fill=INK,
                   anchor="rm")
            mark = labels.by_ai if row.by_ai else (f"{labels.playing} {row.hands_played}/{hands}"
                                                   if row.rank is None or row.hands_played < hands else "")
            name_w = width - 2 * MARGIN - 260 - (int(small.getlength(mark)) + 20 if mark else 0)
            d.text((MARGIN + 60, cy), fit_text(row.name, cell, name_w), font=cell, fill=INK, anchor="lm")
            if mark:
                d.text((width - MARGIN - 130, cy), mark, font=small, fill=FAINT, anchor="rm")
            if row.total is not None:
                d.text((width - MARGIN - 12, cy), str(row.total), font=cell, fill=INK, anchor="rm")
            y += ROW
        if hidden > 0:
            d.text((MARGIN + 60, y + ROW // 2), f"+{hidden} {labels.more}", font=small, fill=FAINT, anchor="lm")
            y += ROW
        y += 12

    if not grid:
        return img
    # The grid: hand numbers, then a row each for the reader, the best and the average of the field.
    x0 = MARGIN + LABEL_W
    d.line([(MARGIN, y), (width - MARGIN, y)], fill=INK, width=2)
    d.text((MARGIN + 8, y + ROW // 2), labels.hand, font=small, fill=FAINT, anchor="lm")
    for hand in range(hands):
        d.text((x0 + hand * CELL_W + CELL_W // 2, y + ROW // 2), str(hand + 1), font=small, fill=FAINT, anchor="mm")
    y += ROW
    for caption, values in grid_rows:
        d.text((MARGIN + 8, y + ROW // 2), caption, font=small, fill=INK, anchor="lm")
        for hand, text in enumerate(values[:hands]):
            x = x0 + hand * CELL_W
            if caption == labels.you and you is not None and you[hand] is not None:
                shade = _shade(you[hand], best[hand], average[hand])
                if shade is not None:
                    paste_round(img, (x + 3, y + 4, x + CELL_W - 3, y + ROW - 4), 8, shade)
            d.text((x + CELL_W // 2, y + ROW // 2), text, font=small, fill=INK, anchor="mm")
        y += ROW
    return img


def _shade(score: int | None, best: int | None, average: float | None) -> RGB | None:
    """The reader's hand against the field: gold when it was the best, green above average, red below."""
    if score is None or best is None or average is None:
        return None
    if score >= best:
        return GOLD
    return AHEAD if score >= average else BEHIND


def _num(value: float | None) -> str:
    if value is None:
        return "–"
    return str(math.floor(value + 0.5))  # a half up, as people round (round() takes 6.5 to 6)
