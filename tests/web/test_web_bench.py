"""``klaverjas bench web``: the pages play their matches to the end and the JSON has its figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.bench_web import WebLoadOptions, WebLoadRun
from bot.cli.main import main


async def test_a_small_web_load_plays_every_match_without_an_error(tmp_path: Path) -> None:
    options = WebLoadOptions(clients=3, think_ms=0, ramp_s=0, ai_pause=0)
    figures = await WebLoadRun(options, tmp_path / "w.sqlite3").run()
    assert figures["clients"] == 3 and figures["errors"] == 0
    assert figures["tricks"] == 3 * 8 and figures["clicks"] >= 3 * 8
    assert figures["click_p99_ms"] >= figures["click_p50_ms"] > 0
    assert figures["discord_requests_per_trick"] == 0
    # The pages play in a process of their own: their CPU is in the whole run's figure, not in the server's.
    assert 0 < figures["server_cpu_ms_per_click"] < figures["cpu_ms_per_click"]


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "web", "--clients", "2", "--think-ms", "0", "--ramp-seconds", "0"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {"clients", "click_p50_ms", "click_p99_ms", "mb_per_client", "discord_requests_per_trick",
            "server_cpu_ms_per_click", "cpu_ms_per_click"} <= set(figures)


def test_options_of_other_benchmarks_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "web", "--tables", "3"])
    assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["bench", "load", "--clients", "3"])
