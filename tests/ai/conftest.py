"""Compile (or load from numba's cache) the solver once for the test session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _solver_compiled() -> None:
    from engine.ai.pimc import warm_up

    warm_up()
