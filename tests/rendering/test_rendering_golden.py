"""Golden images (regenerate with tests/golden/regen_images.py), thread safety, examples and bench."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.texts.labels import image_labels
from rendering import draw
from rendering.bench import bench_render
from rendering.examples import NAMES, fixed_view, golden_images, write_examples
from rendering.images import render_hand, render_trick
from rendering.theme import Theme

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "images"
# Mean absolute difference per channel (0..255). Font rasterising or palette choice may shift a few
# edge pixels between Pillow/FreeType versions; a moved card or a wrong colour costs far more.
TOLERANCE = 1.5

EN = image_labels("en")
GOLDEN = golden_images(EN, image_labels("nl"))


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_golden_image(name: str) -> None:
    path = GOLDEN_DIR / name
    assert path.exists(), f"missing {path}: run python -m tests.golden.regen_images"
    want = rgb(path.read_bytes())
    got = rgb(GOLDEN[name])
    assert got.size == want.size
    diff = mean_difference(got, want)
    assert diff <= TOLERANCE, f"{name} differs from its golden image by {diff:.2f}"


def test_golden_comparison_catches_a_real_change() -> None:
    # The tolerance must not swallow a change a person would notice: another felt, a moved card.
    want = rgb(GOLDEN["hand.png"])
    other = rgb(render_hand(fixed_view(), theme=Theme(EN, felt="navy")))
    assert mean_difference(other, want) > TOLERANCE * 4
    shifted = ImageChops.offset(want, 24, 0)
    assert mean_difference(shifted, want) > TOLERANCE


def test_rendering_from_threads_with_a_cold_cache_gives_identical_images() -> None:
    view = fixed_view()
    theme = Theme(EN, felt="burgundy", four_colour=True)
    expected = [render_hand(view, theme=theme), render_trick(view, NAMES, theme=theme)]
    draw.clear_caches()

    def work(i: int) -> bytes:
        return render_hand(view, theme=theme) if i % 2 == 0 else render_trick(view, NAMES, theme=theme)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(16)))
    for i, data in enumerate(results):
        assert data == expected[i % 2]


def test_write_examples_covers_every_kind_and_theme(tmp_path: Path) -> None:
    paths = write_examples(str(tmp_path), EN, image_labels("nl"))
    names = {Path(p).name for p in paths}
    for kind in ("hand", "trick", "trick-done", "table", "sheet"):
        for tag in ("green", "navy", "burgundy", "green-4c", "green-4c-nl"):
            assert f"{kind}-{tag}.png" in names
    for p in paths:
        assert Path(p).read_bytes()[:4] == b"\x89PNG"


def test_bench_reports_every_key() -> None:
    result = bench_render(0.01, EN)
    keys = {"hand_ms", "hand_bytes", "trick_ms", "trick_bytes", "table_ms", "sheet_ms", "sheet_bytes"}
    assert keys <= set(result)
    assert all(isinstance(result[k], int | float) and float(result[k]) > 0 for k in keys)  # type: ignore[arg-type]
