"""Compare the engine's `klaverjas score` with the independent referee on random records.

    python -m tests.referee.compare N SEED [--show K]

Prints a summary and the first disagreements (record, engine output, referee output); exit status 1
when any line disagrees.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from bot.score_cli import score_line as engine_score_line
from tests.referee.generate import lines
from tests.referee.referee import score_line as referee_score_line

WHERE = ("hand", "play", "card", "seat")


def comparable(result: dict[str, Any]) -> Any:
    """Everything for valid records; for invalid ones where it went wrong, not the wording.

    record-format.md gives `hand`, `play`, `card` and `seat` "where they apply": for an error at a
    play (a card not in hand, an illegal card) all four are determined and compared. For other errors
    (deal, dealer, bids, claims) the spec does not say which seat or card applies (the dealer? the
    seat whose list holds the duplicate?), so only `hand` and `play` are compared there.
    """
    if result.get("ok"):
        return result
    error = result.get("error", {})
    if error.get("play") is None:
        return {"ok": False, "hand": error.get("hand"), "play": None}
    return {"ok": False, **{key: error.get(key) for key in WHERE}}


def known_issue(text: str, engine: dict[str, Any], referee: dict[str, Any]) -> str | None:
    """Which engine bug of DISAGREEMENTS.md a disagreement is, or None for a new one."""
    if referee.get("ok"):
        return None
    record = json.loads(text)
    rules = record.get("rules")
    if isinstance(rules, dict) and "undertrump" in rules and rules["undertrump"] is None:
        return "D2"  # the engine takes the default, then scores (or rejects) the record on its merits
    if engine.get("ok") and referee["error"]["reason"] == "claim before any trick":
        return "D1"
    return None


def disagreements(texts: list[str], include_known: bool = False) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    found = []
    for text in texts:
        engine = engine_score_line(text)
        referee = referee_score_line(text)
        differs = comparable(engine) != comparable(referee)
        if differs and (include_known or known_issue(text, engine, referee) is None):
            found.append((text, engine, referee))
    return found


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 3
    texts = lines(count, seed)
    every = disagreements(texts, include_known=True)
    found = [d for d in every if known_issue(*d) is None]
    known: dict[str, int] = {}
    for d in every:
        tag = known_issue(*d)
        if tag is not None:
            known[tag] = known.get(tag, 0) + 1
    valid = sum(1 for t in texts if referee_score_line(t)["ok"])
    print(f"{count} records (seed {seed}; {valid} valid, {count - valid} invalid): {len(found)} new disagreements; "
          f"known engine issues (DISAGREEMENTS.md): {known or 'none'}")
    for text, engine, referee in found[:show]:
        print("record:  ", text)
        print("engine:  ", json.dumps(engine))
        print("referee: ", json.dumps(referee))
        print()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
