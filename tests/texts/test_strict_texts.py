"""``t()`` is strict: every template is well formed, every key the code asks for exists, and a text that cannot
be said fails a test (``STRICT_TEXTS``) or is logged once in production, never silently shown as ``{name}``."""

from __future__ import annotations

import ast
import logging
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.texts import catalog
from bot.texts.catalog import TEXTS, TextError, t

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "rendering", "engine")
# The calls that name a catalog key, by the called name, and what they put before the key they are given.
KEY_CALLS = {"t": "", "about": "", "text": "terminal."}


def fields(template: str) -> Iterator[tuple[str, str]]:
    """The (name, format spec) of every field of ``template``; raises ValueError where it is no template."""
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            yield name, spec or ""


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_template_is_well_formed_in_both_languages(key: str) -> None:
    for lang, template in zip(("en", "nl"), TEXTS[key], strict=True):
        named = list(fields(template))
        assert all(name.isidentifier() for name, _ in named), (key, lang, template)
        # A count's noun choice ``{hands:one|many}`` gets a whole number; any other field a word.
        params = {name: 2 if "|" in spec else "x" for name, spec in named}
        assert "{" not in t(key, lang, **params), (key, lang)


def keys_asked_for() -> Iterator[tuple[str, str, bool]]:
    """(where, key or key prefix, whether it is a prefix) of every literal key the code passes to a text call."""
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name not in KEY_CALLS or (name != "t" and not path.match("bot/terminal/*.py")):
                    continue
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    yield where, KEY_CALLS[name] + first.value, False
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    yield where, KEY_CALLS[name] + str(first.values[0].value), True


def test_every_key_the_code_names_is_in_the_catalog() -> None:
    asked = list(keys_asked_for())
    assert len(asked) > 100  # the scan found the calls
    missing = [(where, key) for where, key, prefix in asked
               if not (any(k.startswith(key) for k in TEXTS) if prefix else key in TEXTS)]
    assert not missing


def test_a_text_that_cannot_be_said_fails_under_strict_texts() -> None:
    assert catalog.STRICT_TEXTS  # tests/conftest.py sets it for every test
    with pytest.raises(TextError, match="no such text"):
        t("no.such.key", "en")
    with pytest.raises(TextError, match="no value for host"):
        t("lobby.title", "en", table=3)


def test_production_logs_a_broken_text_once_and_shows_it_as_far_as_it_goes(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(catalog, "STRICT_TEXTS", False)
    monkeypatch.setattr(catalog, "_reported_faults", set())
    monkeypatch.setitem(TEXTS, "test.broken", ("a {brace", "een {haakje"))
    with caplog.at_level(logging.ERROR, logger="bot.texts.catalog"):
        assert t("no.such.key", "en") == "no.such.key"
        assert t("lobby.title", "en", table=3) == "🃏 Klaverjas table #3 — host: {host}"
        assert t("lobby.title", "nl", table=3) == "🃏 Klaverjastafel #3 — gastheer: {host}"
        assert t("test.broken", "en") == "a {brace"
    assert [record.levelno for record in caplog.records] == [logging.ERROR] * 3
