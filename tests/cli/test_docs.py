"""The documents in engine/docs say what the engine does: their tables, examples and settings are checked
against it, and the README points at them (not at files outside the repository)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.cli import words
from bot.discord_app.config import MIN_TURN_TIME, VARIABLES
from engine import rulebook
from engine.cards import Card, Suit
from engine.record import score_record
from engine.settings import RULE_KEYS, SETTINGS, Rules

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = (ROOT / "engine/docs/rules.md").read_text(encoding="utf-8")
RECORD_DOC = (ROOT / "engine/docs/record-format.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def json_blocks(text: str) -> list[Any]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)]


def table_rows(text: str, header_start: str) -> list[list[str]]:
    """The body rows of the markdown table whose header row starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


# ---------------------------------------------------------------- record-format.md


def documented_record() -> dict[str, Any]:
    record: dict[str, Any] = json_blocks(RECORD_DOC)[0]
    return record


def test_the_documented_record_scores_as_documented() -> None:
    _, result, _ = json_blocks(RECORD_DOC)
    assert score_record(documented_record()) == result


def test_the_documented_error_is_what_the_described_change_gives() -> None:
    record = documented_record()
    assert record["hands"][0]["plays"][17] == "8D"  # West's card in the fifth trick
    record["hands"][0]["plays"][17] = "TS"
    assert score_record(record) == json_blocks(RECORD_DOC)[2]


def test_the_documented_unfinished_trick() -> None:
    record = documented_record()
    record["hands"][0]["plays"] = record["hands"][0]["plays"][:6]
    match = re.search(r'`"next": (\{"hand": 0, "phase": "play".*?\})`', RECORD_DOC)
    assert match is not None
    assert score_record(record)["next"] == json.loads(match.group(1))


def test_the_documented_turned_trump_bidding() -> None:
    match = re.search(r'`("turned": \[.*?\], "bids": \[.*?\])`', RECORD_DOC)
    assert match is not None
    hand = {**documented_record()["hands"][0], "dealer": "S", **json.loads("{" + match.group(1) + "}"), "plays": []}
    record = {"format": "klaverjas-record/1", "rules": {"bidding": "draaien"}, "hands": [hand]}
    result = score_record(copy.deepcopy(record))
    assert result["ok"] is True
    assert result["hands"][0]["trump"] == "D" and result["hands"][0]["player"] == "N"


# ---------------------------------------------------------------- rules.md

STRENGTH_NAMES = {"1st": 8, "2nd": 7, "3rd": 6, "4th": 5, "5th": 4, "6th": 3, "7th": 2, "8th": 1}


def test_the_points_and_order_table_is_the_engines() -> None:
    rows = table_rows(RULES_DOC, "| card | rank among trumps")
    assert len(rows) == 8
    for card, trump_rank, trump_points, plain_rank, plain_points in rows:
        rank = "789TJQKA".index(card[0])
        assert int(trump_points) == rulebook.TRUMP_POINTS[rank], card
        assert int(plain_points) == rulebook.PLAIN_POINTS[rank], card
        # Strength tables run 0 (lowest) to 7: the 1st card has strength 7.
        assert STRENGTH_NAMES[trump_rank.split(",")[0]] - 1 == rulebook.TRUMP_STRENGTH[rank], card
        assert STRENGTH_NAMES[plain_rank.split(",")[0]] - 1 == rulebook.PLAIN_STRENGTH[rank], card
    assert "**162**" in RULES_DOC and rulebook.HAND_POINTS == 162


def cards(text: str) -> list[int]:
    return [int(Card.parse(word)) for word in text.split()]


def mask(text: str) -> int:
    return sum(1 << card for card in cards(text))


def legal(hand: str, trick: str, play: str, undertrump: str) -> set[str]:
    """The legal cards, hearts trump, written as in rules.md's examples."""
    played = [*cards(trick), 0, 0, 0]
    allowed = rulebook.legal_mask(mask(hand), played[0], played[1], played[2], len(trick.split()), Suit.H,
                                  play == "amsterdam", undertrump == "forced")
    return {word for word in hand.split() if allowed >> int(Card.parse(word)) & 1}


@pytest.mark.parametrize(("hand", "trick", "play", "undertrump", "expected"), [
    ("7H QH AD", "KS", "rotterdam", "forced", "7H QH"),
    ("7H QH AD", "KS", "amsterdam", "forbidden", "7H QH"),
    ("7H QH AD", "AS 7S", "rotterdam", "forced", "7H QH"),
    ("7H QH AD", "AS 7S", "amsterdam", "forbidden", "7H QH AD"),
    ("7H QH AD", "AS 9H", "rotterdam", "forced", "7H QH"),
    ("7H QH AD", "AS 9H", "rotterdam", "forbidden", "AD"),
    ("7H QH", "AS 9H", "rotterdam", "forbidden", "7H QH"),
    ("JH 7H AD", "AS 9H 8S", "rotterdam", "forced", "JH"),
    ("JH 7H AD", "AS 9H 8S", "amsterdam", "forbidden", "JH AD"),
    ("JH 8H AD", "9H", "rotterdam", "forced", "JH"),
    ("8H 7H AD", "9H", "amsterdam", "forbidden", "8H 7H"),
])
def test_the_legality_examples(hand: str, trick: str, play: str, undertrump: str, expected: str) -> None:
    assert legal(hand, trick, play, undertrump) == set(expected.split())


@pytest.mark.parametrize(("trick", "roem"), [
    ("7S 8S 9S AD", 20), ("TC JC QC KC", 50), ("JH QH KH 7D", 40), ("JH QH KH AH", 70),
    ("AC AD AH AS", 100), ("TC TD TH TS", 100), ("JC JD JH JS", 200), ("9C 9D 9H 9S", 0),
])
def test_the_roem_examples(trick: str, roem: int) -> None:
    c0, c1, c2, c3 = cards(trick)
    assert rulebook.trick_roem(c0, c1, c2, c3, Suit.H, True) == roem


def test_the_worked_settlement_examples() -> None:
    assert rulebook.settle(0, 95, 67, 20, 50) == (0, 232, True)
    assert rulebook.settle(0, 95, 67, 0, 70) == (0, 232, True)
    assert rulebook.settle(0, 162, 0, 120, 0) == (282, 0, False)


def test_every_setting_is_listed_with_its_default_and_its_command_line_words() -> None:
    rows = {row[0].strip("`"): row for row in table_rows(RULES_DOC, "| setting | values")}
    assert set(rows) == set(RULE_KEYS)
    defaults = Rules().to_dict()
    option_words = {setting.key: words.SETTING_CHOICES[setting.name] for setting in SETTINGS
                    if setting.is_rule and setting.values}
    for key, (_, values, default, option) in rows.items():
        if key == "undertrump":
            assert "follows `play`" in default
        elif key == "length":
            assert json.loads(default.strip("`")) == defaults[key]
        else:
            assert default == f"`{defaults[key]}`"
        if key in option_words:
            accepted = words.lookup(option_words[key])
            own_values = re.split(r"[:(]", values)[0]  # the values, not the words of their explanation
            for value in re.findall(r"`([a-z]+)`", own_values):
                assert accepted[value] == value
            dutch = re.search(r"\((.*)\)", option)
            for word in re.findall(r"`([a-z ]+)`", dutch.group(1) if dutch else ""):
                assert word in accepted, (key, word)


# ---------------------------------------------------------------- README


def test_the_readme_links_the_documents_and_nothing_outside_the_repository() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    pointing_out = []
    for name in tracked.splitlines():
        path = ROOT / name
        if path.suffix not in {".png", ".ttf"} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            pointing_out += [name for line in text.splitlines() if re.search(r"(^|[\s(`'\"])(\.\./)*shared/", line)]
    assert pointing_out == [], "these files point at the shared folder, which is not part of the repository"
    for target in ("engine/docs/rules.md", "engine/docs/record-format.md"):
        assert f"]({target})" in README
        assert (ROOT / target).is_file()


# An issue or a pull request by its number, or an issue spoken of as if the reader had it open.
NAMES_AN_ISSUE = re.compile(r"\b(?:[Ii]ssues?|PR|[Pp]ull request) #?\d|\b[Tt](?:he|his) issue\b")


def test_no_code_or_test_names_an_issue_number() -> None:
    """An issue number means nothing to a reader of the repository: comments and docstrings say what and why."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    naming = [f"{name}:{number}" for name in tracked.splitlines()
              if Path(name).suffix in {".py", ".sql", ".js", ".sh", ".md", ".toml"} or name in {"Makefile", ".ci/run"}
              for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), start=1)
              if NAMES_AN_ISSUE.search(line)]
    assert naming == []
    issue = "issue"  # the examples are put together, so this file does not name one itself
    assert NAMES_AN_ISSUE.search(f"# see {issue} 12") and NAMES_AN_ISSUE.search("(P" "R #7)")
    assert NAMES_AN_ISSUE.search(f"The {issue}'s fourth figure") and not NAMES_AN_ISSUE.search("match #12")


def test_every_fitting_script_says_what_it_writes_and_how_to_rerun_it() -> None:
    """The scripts that make the engine's fitted tables are listed in their README, with the command that reruns
    them, which their own docstring gives too."""
    readme = (ROOT / "data/fitting/README.md").read_text(encoding="utf-8")
    scripts = sorted((ROOT / "data/fitting").glob("*.py"))
    assert len(scripts) >= 3
    for script in scripts:
        command = f"python -m data.fitting.{script.stem}"
        assert f"`{script.name}`" in readme and command in readme, script.name
        assert command in script.read_text(encoding="utf-8"), script.name


def test_the_readme_lists_every_bot_variable_and_the_turn_time_minimum() -> None:
    for variable in VARIABLES:
        assert f"`{variable.name}`" in README
    assert f"at least {MIN_TURN_TIME:g} seconds" in README


def code_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def make_targets_that_do_something() -> set[str]:
    """The Makefile's targets with a recipe or with prerequisites (a name in .PHONY alone does nothing)."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    return {match.group(1) for line, after in zip(lines, [*lines[1:], ""], strict=True)
            if (match := re.match(r"([a-z][\w-]*):(.*)", line)) and (match.group(2).strip() or after.startswith("\t"))}


def test_every_python_block_in_the_readme_runs() -> None:
    blocks = code_blocks("python")
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # an example that fails raises here


def test_every_command_in_the_readme_blocks_exists() -> None:
    """Each `make` target has a recipe, and each klaverjas command line is one the parser takes."""
    from bot.cli.main import build_parser

    lines = [line.split("#")[0].strip() for block in code_blocks("sh") for line in block.splitlines()]
    lines += [line.removeprefix("ExecStart=") for block in code_blocks("ini") for line in block.splitlines()
              if line.startswith("ExecStart=")]
    targets = make_targets_that_do_something()
    commands = 0
    for line in filter(None, lines):
        words_ = line.replace("%i", "0-3").split()
        if words_[0] == "make":
            assert words_[1] in targets, line
        else:
            assert words_[0].endswith("klaverjas"), line
            build_parser().parse_args(words_[1:])  # exits (status 2) on a command it does not take
        commands += 1
    assert commands >= 4
