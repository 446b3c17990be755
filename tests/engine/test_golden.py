"""Golden playthroughs: seeded matches rendered as text must match tests/golden/playthroughs/.

After an intended change of behaviour, run `make golden` (tests/golden/regen_playthroughs.py) and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import regen_playthroughs as regen

ROOT = Path(__file__).resolve().parents[2]


def test_every_golden_file_has_a_game() -> None:
    files = {p.stem for p in (ROOT / "tests" / "golden" / "playthroughs").glob("*.txt")}
    assert files == set(regen.GAMES)


@pytest.mark.parametrize("name", sorted(regen.GAMES))
def test_golden_playthrough(name: str) -> None:
    expected = (ROOT / "tests" / "golden" / "playthroughs" / f"{name}.txt").read_text(encoding="utf-8")
    assert regen.render(name) == expected, f"behaviour changed; if intended, run `make golden` and review {name}.txt"
