"""``klaverjas bench load`` end to end: two tables through the offline Discord, then their stored records
replayed by ``klaverjas score``."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pg_server import PgServer

from engine.game import Game
from engine.record import export_record
from engine.settings import Rules

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"tables", "interactions_per_s", "p50_ms", "p99_ms", "loop_lag_p99_ms", "mb_per_table", "db_kb_per_match",
        "requests_per_trick", "global_requests_per_trick", "tables_per_token", "requests_by_route", "latency_by_kind"}


def stored_records(db: Path) -> list[dict[str, object]]:
    """Every table's record, rebuilt from the database on its own (not through the bot's store)."""
    from bot.store.codec import decode_action

    with sqlite3.connect(db) as connection:
        tables = connection.execute("SELECT id, settings, status FROM tables ORDER BY id").fetchall()
        records = []
        for table_id, settings, status in tables:
            assert status == "finished", (table_id, status)
            game = Game(Rules.from_dict(json.loads(settings)["rules"]))
            rows = connection.execute("SELECT kind, data FROM actions WHERE table_id = ? ORDER BY seq", (table_id,))
            game.apply_all(decode_action(kind, data) for kind, data in rows)
            records.append(export_record(game))
    return records


def test_bench_load_two_tables(tmp_path: Path) -> None:
    db = tmp_path / "load.sqlite3"
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", "bench", "load", "--tables", "2",
                          "--db", str(db)], cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stderr
    [line] = run.stdout.splitlines()
    figures = json.loads(line)
    assert figures.keys() >= KEYS
    assert figures["tables"] == 2 and figures["finished"] == 2 and figures["valid_records"] == 2
    assert not figures["timed_out"]
    assert figures["p99_ms"] >= figures["p50_ms"] > 0
    assert figures["requests_per_trick"] > 0 and figures["db_kb_per_match"] > 0 and figures["interactions_per_s"] > 0
    # The routes add up to the requests a trick; only REST requests count against the global limit, the clicks'
    # answers (and the edits through them) do not.
    routes = figures["requests_by_route"]
    assert any(route.startswith("interaction ") for route in routes)
    assert sum(routes.values()) >= figures["requests_per_trick"] - 0.01
    rest = sum(count for route, count in routes.items() if route.startswith("REST "))
    assert abs(rest - figures["global_requests_per_trick"]) < 0.02 and 0 < rest < sum(routes.values())
    # Every interaction counted once, under what it was: the two starts and the clicks of the game.
    kinds = figures["latency_by_kind"]
    assert kinds["/klaverjas start"]["n"] == 2 and kinds["click c"]["n"] >= 2 * 8
    assert sum(kind["n"] for kind in kinds.values()) == figures["interactions"]
    assert all(kind["p99_ms"] >= kind["p50_ms"] > 0 for kind in kinds.values())
    # 50 requests a second, a trick every 15 s (the figure printed is rounded, the one divided by is not)
    assert abs(figures["tables_per_token"] - 50 * 15 / figures["global_requests_per_trick"]) <= 3
    # The two measured tables and the warm-up table, each a whole match (one hand), valid for `klaverjas score`.
    records = stored_records(db)
    assert len(records) == 3
    scored = subprocess.run([sys.executable, "-m", "bot.cli.main", "score"], cwd=ROOT, capture_output=True,
                            text=True, input="".join(json.dumps(r) + "\n" for r in records), check=False)
    assert scored.returncode == 0, scored.stdout
    results = [json.loads(line) for line in scored.stdout.splitlines()]
    assert all(r["ok"] and len(r["hands"]) == 1 for r in results), results


def test_bench_load_against_postgresql(pg_server: PgServer | str) -> None:
    """DATABASE_URL set and no --db: the benchmark plays on PostgreSQL and says so."""
    if isinstance(pg_server, str):
        pytest.skip(pg_server)
    url = asyncio.run(pg_server.new_database())
    try:
        run = subprocess.run([sys.executable, "-m", "bot.cli.main", "bench", "load", "--tables", "2"], cwd=ROOT,
                             env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True, timeout=240,
                             check=False)
        assert run.returncode == 0, run.stderr
        figures = json.loads(run.stdout)
        assert figures["store"] == "postgres"
        assert figures["finished"] == 2 and figures["valid_records"] == 2 and figures["db_kb_per_match"] > 0
    finally:
        asyncio.run(pg_server.drop_database(url))
