"""``klaverjas score [FILE]``: replay JSON Lines records, one result line per input line.

The whole input is read and decoded before the first record is scored, so input that is not UTF-8
text ends the run with status 2 and prints no results at all, rather than half of them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.record import score_record

ONE_PER_LINE = "expected one record per line, each a JSON object"

EXIT_ALL_VALID = 0
EXIT_SOME_INVALID = 1
EXIT_UNREADABLE = 2


class UnreadableInput(Exception):
    """The input is not text this command can read; the message says why."""


def score_line(line: str) -> dict[str, Any]:
    if not line.strip():
        return {"ok": False, "error": {"reason": f"empty line: {ONE_PER_LINE}"}}
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": {"reason": f"not valid JSON ({exc.msg} at column {exc.colno}): {ONE_PER_LINE}"}}
    if not isinstance(data, dict):
        return {"ok": False, "error": {"reason": f"a JSON {_json_kind(data)} is not a record: {ONE_PER_LINE}"}}
    return score_record(data)


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false value"
    return "number"


def decode(data: bytes) -> str:
    """UTF-8 text, a leading byte order mark dropped; binary or other encodings are refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # what Windows PowerShell's > writes
        raise UnreadableInput("it is UTF-16 text, not UTF-8")
    if b"\0" in data:
        raise UnreadableInput("it is a binary file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UnreadableInput(f"it is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})") from None


def split_lines(text: str) -> list[str]:
    """Lines ending in \\n or \\r\\n; not str.splitlines, which would also split on characters JSON strings
    may hold (\\u2028, form feed)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def score_text(text: str, out: TextIO) -> bool:
    """Score every line; True when all were valid records. A bad line never stops the run."""
    all_ok = True
    for line in split_lines(text):
        result = score_line(line)
        all_ok = all_ok and bool(result["ok"])
        out.write(json.dumps(result, separators=(",", ":")) + "\n")
    out.flush()
    return all_ok


def read_input(path: str) -> str:
    name = "standard input" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableInput(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        return decode(data)
    except UnreadableInput as exc:
        raise UnreadableInput(f"cannot read {name}: {exc}; give UTF-8 text with one record per line, "
                              "each a JSON object") from None


def run_score(path: str) -> int:
    if path == "-" and sys.stdin.isatty():
        # Without a file nothing seems to happen: say what it waits for.
        print("klaverjas score: reading records from standard input, one JSON object a line; end with Ctrl-D "
              "(or give a file: klaverjas score FILE; klaverjas score --help)", file=sys.stderr)
    try:
        text = read_input(path)
    except UnreadableInput as exc:
        print(f"klaverjas score: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_ALL_VALID if score_text(text, sys.stdout) else EXIT_SOME_INVALID
