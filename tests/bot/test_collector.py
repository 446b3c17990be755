"""The garbage collector's settings for the bot's process (``bot.collector``)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import bot.discord_app.client
import bot.discord_app.main
from bot.collector import MIDDLE_THRESHOLD, OLDEST_THRESHOLD, YOUNG_THRESHOLD, quiet_collector
from bot.discord_app.config import BotConfig
from bot.discord_app.main import EXIT_FAILED, run_bot


def test_what_the_process_holds_at_start_is_left_out_of_collections_and_young_ones_wait_longer() -> None:
    before = gc.get_threshold()
    held_before = gc.get_freeze_count()
    try:
        quiet_collector()
        assert gc.get_freeze_count() > held_before
        assert gc.get_threshold() == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_bot_sets_its_collector_after_its_imports_and_before_it_loads_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("KLAVERJAS_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("KLAVERJAS_AI_WORKERS", "0")
    steps: list[str] = []

    async def no_database(config: BotConfig) -> None:
        steps.append("tables")
        raise OSError("disk gone")

    monkeypatch.setattr(bot.discord_app.main, "quiet_collector", lambda: steps.append("collector"))
    monkeypatch.setattr(bot.discord_app.client, "create_bot", no_database)
    assert run_bot() == EXIT_FAILED
    assert steps == ["collector", "tables"]
