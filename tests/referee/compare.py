"""Compare the engine's `klaverjas score` with the independent referee on random records.

    python -m tests.referee.compare N SEED [--show K]

Prints a summary and the first disagreements (record, engine output, referee output); exit status 1
when any line disagrees.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from bot.cli.score import score_line as engine_score_line
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


def disagreements(texts: list[str]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    found = []
    for text in texts:
        engine = engine_score_line(text)
        referee = referee_score_line(text)
        differs = comparable(engine) != comparable(referee)
        if differs:
            found.append((text, engine, referee))
    return found


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 3
    texts = lines(count, seed)
    found = disagreements(texts)
    valid = sum(1 for t in texts if referee_score_line(t)["ok"])
    print(f"{count} records (seed {seed}; {valid} valid, {count - valid} invalid): {len(found)} disagreements")
    for text, engine, referee in found[:show]:
        print("record:  ", text)
        print("engine:  ", json.dumps(engine))
        print("referee: ", json.dumps(referee))
        print()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
