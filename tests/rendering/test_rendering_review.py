"""The review chart: a PNG whose width follows the match's length, and refused data said plainly."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.texts.labels import table_theme
from rendering import ReviewChart, render_review


def chart(hands: int, players: int = 2, **changes: object) -> ReviewChart:
    lost = tuple(tuple(float((p * 7 + h * 13) % 40) for h in range(hands)) for p in range(players))
    fields: dict[str, object] = {"title": "Match #1", "caption": "hands", "lost": lost,
                                 "legend": tuple(f"P{p}" for p in range(players)), "marks": frozenset({(0, 0)})}
    fields.update(changes)
    return ReviewChart(**fields)  # type: ignore[arg-type]


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.size


def test_a_long_match_gets_a_wider_chart_and_the_words_fit() -> None:
    theme = table_theme("navy", True, "nl")
    short = size(render_review(chart(1), theme=theme))
    long = size(render_review(chart(40, players=4, legend=("x" * 500,) * 4), theme=theme))
    assert short[1] == long[1] and long[0] > short[0]


@pytest.mark.parametrize("changes", [{"legend": ()}, {"legend": ("a",) * 5, "lost": ((0.0,),) * 5},
                                     {"lost": ((1.0, 2.0), (1.0,))}], ids=["nobody", "five", "ragged"])
def test_a_chart_that_cannot_be_drawn_is_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        chart(2, **changes)
