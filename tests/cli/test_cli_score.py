"""`klaverjas score` input handling: unreadable input is status 2 with a message and no results; a byte
order mark and Windows line ends are fine; a line that is not a record says one record per line."""

from __future__ import annotations

import json
import os
import pty
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.score import score_line
from engine.game import Game, Phase
from engine.record import export_record

ROOT = Path(__file__).resolve().parents[2]


def valid_record() -> str:
    game = Game()
    rng = random.Random(5)
    game.deal_random(rng)
    for _ in range(10):
        if game.phase is Phase.TURN_UP:
            game.turn_up_random(rng)
        else:
            game.apply(game.legal_actions()[-1])
    return json.dumps(export_record(game))


def score(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bot.cli.main", "score", *args], input=stdin, capture_output=True,
                          cwd=ROOT, check=False, timeout=60)


@pytest.mark.parametrize(("data", "reason"), [
    (b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)), "it is a binary file"),
    (valid_record().encode() + b"\n{\"format\": \"caf\xe9\"}\n", "it is not UTF-8 text (byte 0xe9 on line 2)"),
    ("{\"x\": \"é\"}\n".encode("utf-16"), "it is UTF-16 text, not UTF-8"),
])
def test_unreadable_input_is_status_2_with_no_results(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(data)
    for run, name in ((score(str(path)), str(path)), (score(stdin=data), "standard input")):
        assert run.returncode == 2
        assert run.stdout == b""
        err = run.stderr.decode()
        assert f"klaverjas score: cannot read {name}: {reason}" in err
        assert "one record per line, each a JSON object" in err
        assert "Traceback" not in err


def test_a_folder_or_a_missing_file_is_status_2(tmp_path: Path) -> None:
    for target in (tmp_path, tmp_path / "missing.jsonl"):
        run = score(str(target))
        assert run.returncode == 2 and run.stdout == b"" and b"cannot read" in run.stderr


def test_a_byte_order_mark_and_windows_line_ends_are_fine(tmp_path: Path) -> None:
    record = valid_record()
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + record.encode() + b"\r\n" + record.encode() + b"\r\n")
    run = score(str(path))
    assert run.returncode == 0, run.stdout
    assert [json.loads(line)["ok"] for line in run.stdout.splitlines()] == [True, True]


def test_a_line_separator_inside_a_string_does_not_split_the_line() -> None:
    record = json.loads(valid_record())
    record["note"] = "a\u2028b\x0cc"
    run = score(stdin=json.dumps(record, ensure_ascii=False).encode() + b"\n")
    assert run.returncode == 0 and len(run.stdout.splitlines()) == 1


@pytest.mark.parametrize(("line", "start"), [
    ("[1, 2]", "a JSON array is not a record"),
    ('"klaverjas"', "a JSON string is not a record"),
    ("42", "a JSON number is not a record"),
    ("null", "a JSON null is not a record"),
    ("{", "not valid JSON"),
    ('  "format": "klaverjas-record/1",', "not valid JSON"),
    ("", "empty line"),
])
def test_a_line_that_is_not_a_record_says_one_record_per_line(line: str, start: str) -> None:
    result = score_line(line)
    assert result["ok"] is False
    assert result["error"]["reason"].startswith(start)
    assert "one record per line" in result["error"]["reason"]


def test_a_pretty_printed_record_gets_one_error_per_line_and_status_1() -> None:
    spread = json.dumps(json.loads(valid_record()), indent=2).encode()
    run = score(stdin=spread)
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 1
    assert len(results) == spread.count(b"\n") + 1
    assert all("one record per line" in result["error"]["reason"] for result in results)


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text("[]\n" * 20000)
    reader = subprocess.Popen([sys.executable, "-m", "bot.cli.main", "score", str(path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=ROOT)
    assert reader.stdout is not None and reader.stderr is not None
    first = reader.stdout.readline()
    reader.stdout.close()  # like `| head -1`
    err = reader.stderr.read()
    reader.wait(timeout=60)
    assert json.loads(first)["ok"] is False
    assert b"Traceback" not in err and b"Exception ignored" not in err


def test_no_file_on_a_terminal_says_it_reads_standard_input() -> None:
    """Run in a pseudo-terminal: without the note, `klaverjas score` would wait there without a word."""
    main_fd, terminal = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "bot.cli.main", "score"], stdin=terminal, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.write(main_fd, b"\x04")  # Ctrl-D: the end of the input
    _, err = run.communicate(timeout=60)
    os.close(main_fd)
    os.close(terminal)
    assert err.decode().startswith("klaverjas score: reading records from standard input")
    assert run.returncode == 0  # no record, none invalid
    assert score(stdin=b"").stderr == b""  # from a pipe or a file: no note
