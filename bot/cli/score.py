"""``klaverjas score [FILE]``: replay JSON Lines records, one result line per input line."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from engine.record import score_record


def score_line(line: str) -> dict[str, Any]:
    if not line.strip():
        return {"ok": False, "error": {"reason": "empty line: expected one JSON record per line"}}
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": {"reason": f"not valid JSON: {exc.msg} at column {exc.colno}"}}
    return score_record(data)


def score_stream(source: TextIO, out: TextIO) -> bool:
    """Score every line; True when all were valid records. A bad line never stops the run."""
    all_ok = True
    for line in source:
        result = score_line(line.rstrip("\r\n"))
        all_ok = all_ok and bool(result["ok"])
        out.write(json.dumps(result, separators=(",", ":")) + "\n")
    out.flush()
    return all_ok


def run_score(path: str) -> int:
    if path == "-":
        return 0 if score_stream(sys.stdin, sys.stdout) else 1
    try:
        source = open(path, encoding="utf-8")  # noqa: SIM115 - closed below, after a clean error for a missing file
    except OSError as exc:
        print(f"klaverjas score: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    with source:
        return 0 if score_stream(source, sys.stdout) else 1
