"""``klaverjas bench web``: the pages play their matches to the end and the JSON has its figures."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path

import pytest

from bot.cli.bench_web import SLOW_CLICK_MS, STALL_MS, ServerStalls, WebLoadOptions, WebLoadRun
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
    assert figures["loop_lag_max_ms"] >= figures["loop_lag_p99_ms"] >= 0
    assert figures["slow_clicks_during_collection"] <= figures["slow_clicks"] <= figures["clicks"]
    assert figures["slow_clicks_during_loop_stall"] <= figures["slow_clicks"]


async def test_the_server_stalls_are_recorded_and_a_blocked_loop_shows() -> None:
    stalls = ServerStalls()
    stalls.start()
    await asyncio.sleep(0)  # the probe's sleep is under way
    time.sleep(0.1)  # the event loop blocked, as by a long collection
    await asyncio.sleep(0.05)
    gc.collect()
    await stalls.stop()
    assert len(stalls.pauses) >= 1 and gc.callbacks.count(stalls._collected) == 0
    figures = stalls.figures([])
    assert figures["loop_lag_max_ms"] > 70 and figures["gc_pauses"] == len(stalls.pauses)
    assert figures["slow_clicks"] == 0


def test_a_slow_click_is_told_apart_by_what_it_waited_through() -> None:
    stalls = ServerStalls()
    stalls.pauses = [(10.0, 0.080)]  # a collection from 10.00 to 10.08
    stalls.lags = [(10.0, 0.085), (20.0, 0.001), (30.0, 0.5 * STALL_MS / 1000)]  # one stall; two small lags
    slow = SLOW_CLICK_MS / 1000 + 0.01
    clicks = [(9.99, slow), (19.99, slow), (10.2, slow), (29.99, slow), (10.0, 0.001)]
    figures = stalls.figures(clicks)
    assert figures["slow_clicks"] == 4  # the last one was quick
    assert figures["slow_clicks_during_collection"] == 1  # only the first overlaps 10.00-10.08
    assert figures["slow_clicks_during_loop_stall"] == 1  # a lag under STALL_MS is no stall
    assert figures["gc_pauses"] == 1 and figures["gc_pause_max_ms"] == 80.0


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
