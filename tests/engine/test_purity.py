"""engine/ stays pure: no I/O frameworks, no image library, no module-level random; and the
layers only import downwards: engine imports neither rendering nor bot, rendering does not import bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
RENDERING = ROOT / "rendering"
FORBIDDEN = ("discord", "PIL", "asyncio", "aiosqlite", "sqlite3", "random", "rendering", "bot")
FORBIDDEN_IN_RENDERING = ("bot",)


def forbidden_imports(source: str, forbidden: tuple[str, ...] = FORBIDDEN) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):  # ast.walk also reaches imports inside functions
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] in forbidden:
                found.append(f"line {node.lineno}: {name}")
    return found


def test_engine_files_exist() -> None:
    assert len(list(ENGINE.rglob("*.py"))) >= 5
    assert len(list(RENDERING.rglob("*.py"))) >= 3


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_is_pure(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", sorted(RENDERING.rglob("*.py")), ids=lambda p: str(p.relative_to(RENDERING)))
def test_rendering_module_does_not_import_the_bot(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8"), FORBIDDEN_IN_RENDERING) == []


@pytest.mark.parametrize("source", [
    "import random", "from random import Random", "import discord.ext", "from PIL import Image",
    "def f():\n    import asyncio", "class C:\n    def m(self):\n        import sqlite3", "import aiosqlite as db",
    "from rendering import render_table", "import rendering.images", "def f():\n    from bot.tables import service",
    "import bot",
])
def test_checker_catches(source: str) -> None:
    assert forbidden_imports(source)


@pytest.mark.parametrize("source", [
    "from bot.texts.catalog import t", "import bot.store", "def f():\n    from bot import cli",
])
def test_rendering_checker_catches(source: str) -> None:
    assert forbidden_imports(source, FORBIDDEN_IN_RENDERING)


@pytest.mark.parametrize("source", ["from engine.randomness import RandomSource", "import randomness",
                                    "from . import random", "import bottle", "from renderings import x",
                                    "from engine.view import PublicView"])
def test_checker_allows(source: str) -> None:
    assert not forbidden_imports(source)


@pytest.mark.parametrize("source", ["from engine.view import SeatView", "from PIL import Image", "import random",
                                    "import robot"])
def test_rendering_checker_allows(source: str) -> None:
    assert not forbidden_imports(source, FORBIDDEN_IN_RENDERING)
