"""engine/ stays pure: no I/O frameworks, no image library, no module-level random (issue 2)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("discord", "PIL", "asyncio", "aiosqlite", "sqlite3", "random")


def forbidden_imports(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):  # ast.walk also reaches imports inside functions
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] in FORBIDDEN:
                found.append(f"line {node.lineno}: {name}")
    return found


def test_engine_files_exist() -> None:
    assert len(list(ENGINE.rglob("*.py"))) >= 5


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_is_pure(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    "import random", "from random import Random", "import discord.ext", "from PIL import Image",
    "def f():\n    import asyncio", "class C:\n    def m(self):\n        import sqlite3", "import aiosqlite as db",
])
def test_checker_catches(source: str) -> None:
    assert forbidden_imports(source)


@pytest.mark.parametrize("source", ["from engine.randomness import RandomSource", "import randomness",
                                    "from . import random"])
def test_checker_allows(source: str) -> None:
    assert not forbidden_imports(source)
