"""The engine's `klaverjas score` against the independent referee (tests/referee/), on random records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.score import score_line
from tests.referee import referee
from tests.referee.compare import comparable, disagreements
from tests.referee.generate import lines

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_engine_agrees_with_referee(seed: int) -> None:
    texts = lines(150, seed)
    assert sum(1 for t in texts if not referee.score_line(t)["ok"]) > 20  # invalid records are exercised
    found = disagreements(texts)
    report = [f"record: {t}\nengine: {json.dumps(e)}\nreferee: {json.dumps(r)}" for t, e, r in found[:3]]
    assert not found, "\n".join(report)


def test_illegal_card_rejected_at_its_index() -> None:
    """Every card of a valid hand swapped for an illegal one is reported at exactly that index."""
    import random

    from tests.referee.generate import _find_play_error, random_record

    rng = random.Random(99)
    checked = 0
    while checked < 60:
        rec = random_record(rng)
        if _find_play_error(rng, rec, "illegal") is None:
            continue
        engine, ref = score_line(json.dumps(rec)), referee.score_record(rec)
        assert ref["ok"] is False and ref["error"].get("play") is not None
        assert comparable(engine) == comparable(ref)
        checked += 1


def test_referee_worked_example_and_roem() -> None:
    # a sanity check that the referee itself follows rules.md, independent of the engine
    assert referee.trick_roem(["JH", "QH", "KH", "AH"], "H", True) == 70
    assert referee.trick_roem(["7C", "7D", "7H", "7S"], "H", True) == 0
    assert referee.trick_winner_index(["AC", "7H", "TC", "KC"], "H") == 1
    assert referee.legal_cards(["7H", "8H", "AD"], ["7C", "9H", "8C"], "H", "amsterdam", "forbidden") == ["AD"]


def test_score_command_lines_and_exit_status(tmp_path: Path) -> None:
    good = lines(1, 5, invalid_rate=0.0)[0]
    path = tmp_path / "records.jsonl"
    path.write_text(good + "\n{not json\n" + good + "\n")
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", "score", str(path)], capture_output=True, text=True,
                         cwd=ROOT, check=False)
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert [o["ok"] for o in out] == [True, False, True]  # goes on after the bad line
    assert out[0] == referee.score_line(good)
    assert run.returncode == 1
    path.write_text(good + "\n")
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", "score", str(path)], capture_output=True, text=True,
                         cwd=ROOT, check=False)
    assert run.returncode == 0
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", "score", str(tmp_path / "missing.jsonl")],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 2
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", "score"], input=good + "\n", capture_output=True,
                         text=True, cwd=ROOT, check=False)
    assert run.returncode == 0 and json.loads(run.stdout) == referee.score_line(good)


def _bidding_stopped_hand() -> dict:
    deck = [r + s for s in "CDHS" for r in "789TJQKA"]
    return {"dealer": "S", "deal": {seat: deck[i * 8:i * 8 + 8] for i, seat in enumerate("NESW")}, "bids": ["pass"]}


def test_claim_for_unplayed_trick_while_bidding_is_rejected() -> None:
    from engine.record import score_record

    hand = {**_bidding_stopped_hand(), "claims": [{"trick": 0, "seat": "N"}]}
    rec = {"format": "klaverjas-record/1", "rules": {"roem": "declared"}, "hands": [hand]}
    assert referee.score_record(rec)["ok"] is False
    out = score_record(rec)
    assert out["ok"] is False and out["error"]["hand"] == 0


def test_null_rule_value_is_rejected() -> None:
    from engine.record import score_record

    rec = {"format": "klaverjas-record/1", "rules": {"undertrump": None}, "hands": []}
    assert referee.score_record(rec)["ok"] is False
    assert score_record(rec)["ok"] is False
