"""Rewrite the golden images of tests/rendering from rendering.examples.golden_images()
(``make golden`` runs ``python -m tests.golden.regen_images`` from the repository root).

Run after an intended change to the drawing, look at the new PNGs, and commit them with the change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.texts.labels import image_labels
from rendering.examples import golden_images

ROOT = Path(__file__).resolve().parents[2]

GOLDEN_DIR = ROOT / "tests" / "golden" / "images"


def main() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in golden_images(image_labels("en"), image_labels("nl")).items():
        path = GOLDEN_DIR / name
        path.write_bytes(data)
        print(f"{path.relative_to(ROOT)}  {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
