"""The one error path: a failure nobody expected, in a click or a command, is logged and answered privately."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from harness import Harness
from test_discord import ANNA, lobby, open_table

from bot.tables.model import Table

UNKNOWN = "Something went wrong; nothing was changed. Please try again."


def broken(*args: object, **kwargs: object) -> Table:
    raise RuntimeError("boom")


async def test_an_unexpected_failure_in_a_click_is_logged_and_answered_privately(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        table_id = await open_table(h, ANNA)
        monkeypatch.setattr(h.bot.service, "add_ai", broken)
        with caplog.at_level(logging.ERROR):
            token = await h.click(ANNA, lobby(h), f"kj:l:{table_id}:ai")
        assert h.private_replies(token) == [UNKNOWN]
        assert any(r.exc_info and "boom" in str(r.exc_info[1]) for r in caplog.records)


async def test_an_unexpected_failure_in_a_command_is_logged_and_answered_privately(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        monkeypatch.setattr(h.bot.service, "table_here", broken)
        with caplog.at_level(logging.ERROR):
            token = await h.command(ANNA, "rules")
        assert h.private_replies(token) == [UNKNOWN]
        assert any(r.exc_info and "boom" in str(r.exc_info[1]) for r in caplog.records)
