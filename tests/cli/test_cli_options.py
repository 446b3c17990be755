"""Options of the `klaverjas` command: English and Dutch words, defaults in the help, and bad values refused
with the option's own name on standard error before anything runs."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import words
from bot.cli.main import build_parser, main
from bot.discord_app.config import MIN_TURN_TIME, VARIABLES
from bot.terminal.game import build_rules
from engine.settings import Bidding, ForcedSeat, MatchLength, PlayRules, RoemMode, StukMode, Undertrump

ROOT = Path(__file__).resolve().parents[2]


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of a command line argparse refuses; nothing may reach standard output."""
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


def test_play_defaults() -> None:
    args = parse("play")
    assert (args.rules, args.undertrump, args.bidding, args.forced, args.roem, args.stuk, args.length, args.ai,
            args.language, args.seed) == ("rotterdam", None, "vrij", "elder", "auto", "trick", "16", "hard", "en", None)


@pytest.mark.parametrize(("option", "word", "dest", "value"), [
    ("--rules", "amsterdams", "rules", "amsterdam"),
    ("--rules", "AMSTERDAM", "rules", "amsterdam"),
    ("--undertrump", "verplicht", "undertrump", "forced"),
    ("--undertrump", "verboden", "undertrump", "forbidden"),
    ("--bidding", "draaien", "bidding", "draaien"),
    ("--forced", "deler", "forced", "dealer"),
    ("--forced", "voorhand", "forced", "elder"),
    ("--roem", "melden", "roem", "declared"),
    ("--roem", "automatisch", "roem", "auto"),
    ("--stuk", "in de hand", "stuk", "held"),
    ("--stuk", "slag", "stuk", "trick"),
    ("--ai", "makkelijk", "ai", "easy"),
    ("--level", "normaal", "ai", "normal"),  # the options' earlier spellings still work
    ("--level", "Moeilijk", "ai", "hard"),
    ("--lang", "nederlands", "language", "nl"),
    ("--language", "dutch", "language", "nl"),
])
def test_play_takes_dutch_and_english_words(option: str, word: str, dest: str, value: str) -> None:
    assert getattr(parse("play", option, word), dest) == value


def test_dutch_words_make_the_engines_rules() -> None:
    args = parse("play", "--rules", "amsterdams", "--undertrump", "verplicht", "--bidding", "verplicht",
                 "--forced", "deler", "--roem", "melden", "--stuk", "hand", "--length", "to1001")
    rules = build_rules(args)
    assert (rules.play, rules.undertrump, rules.bidding, rules.forced, rules.roem, rules.stuk, rules.length) == (
        PlayRules.AMSTERDAM, Undertrump.FORCED, Bidding.VERPLICHT, ForcedSeat.DEALER, RoemMode.DECLARED,
        StukMode.HELD, MatchLength(hands=None, target=1001))


@pytest.mark.parametrize(("argv", "option"), [
    (["play", "--rules", "utrecht"], "--rules"),
    (["play", "--undertrump", "maybe"], "--undertrump"),
    (["play", "--bidding", "free"], "--bidding"),
    (["play", "--forced", "north"], "--forced"),
    (["play", "--roem", "never"], "--roem"),
    (["play", "--stuk", "both"], "--stuk"),
    (["play", "--length", "0"], "--length"),
    (["play", "--length", "to"], "--length"),
    (["play", "--level", "genius"], "--ai/--level"),  # named by both spellings
    (["play", "--lang", "fr"], "--language/--lang"),
    (["play", "--seed", "x"], "--seed"),
    (["duel", "heuristic", "random", "--deals", "0"], "--deals"),
    (["duel", "heuristic", "random", "--workers", "none"], "--workers"),
    (["duel", "heuristic", "random", "--rules", "utrecht"], "--rules"),
    (["duel", "heuristic", "random", "--bidding", "x"], "--bidding"),
    (["duel", "genius", "random"], "A"),
    (["bench", "engine", "--seconds", "-1"], "--seconds"),
    (["bench", "load", "--discord-delay-ms", "-1"], "--discord-delay-ms"),
    (["bench", "load", "--think-ms", "-5"], "--think-ms"),
    (["bench", "load", "--ramp-seconds", "-5"], "--ramp-seconds"),
    (["bench", "load", "--ramp-seconds", "inf"], "--ramp-seconds"),
    (["bench", "engine", "--tables", "3"], "--tables"),
    (["bench", "review", "--db", "x.db"], "--db"),
    (["bench", "stats", "--hands", "3"], "--hands"),
    (["bench", "load", "--seconds", "3"], "--seconds"),
    (["bench", "review", "--matches", "2"], "--matches"),  # only with --levels
    (["bench", "review", "--seed", "2"], "--seed"),
    (["bench", "review", "--levels", "--matches", "0"], "--matches"),
    (["bench", "engine", "--levels"], "--levels"),
    (["bench", "disk"], "BENCHMARK"),
])
def test_a_bad_value_names_its_option(capsys: pytest.CaptureFixture[str], argv: list[str], option: str) -> None:
    err = refused(capsys, *argv)
    assert f"error: argument {option}:" in err


def test_a_bad_setting_lists_what_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "play", "--rules", "utrecht")
    assert "'utrecht' is not one of: rotterdam (rotterdams), amsterdam (amsterdams)" in err


def help_of(command: str) -> str:
    run = subprocess.run([sys.executable, "-m", "bot.cli.main", command, "--help"], capture_output=True, text=True,
                         cwd=ROOT, check=True, env={**os.environ, "COLUMNS": "200"})
    return run.stdout


@pytest.mark.parametrize("command", ["play", "duel", "bench"])
def test_every_option_has_its_default_in_the_help(command: str) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    for action in sub._actions:
        if action.option_strings and action.nargs != 0:  # an option that takes a value
            assert action.help is not None and "default" in action.help, action.dest


def test_the_play_help_lists_every_word() -> None:
    text = " ".join(help_of("play").split())
    for choices in (words.RULES, words.UNDERTRUMP, words.BIDDING, words.FORCED, words.ROEM, words.STUK, words.LEVEL,
                    words.LANGUAGE):
        for choice in choices:
            for word in choice.words():
                assert word in text, word


def test_the_score_help_has_the_exit_statuses_and_the_format() -> None:
    text = help_of("score")
    assert "0  every line was a valid record" in text
    assert "1  at least one line was not" in text
    assert "2  the input could not be read" in text
    assert "engine/docs/record-format.md" in text


def test_the_bot_help_lists_every_variable() -> None:
    text = help_of("bot")
    for variable in VARIABLES:
        assert variable.name in text
    assert f"at least {MIN_TURN_TIME:g}" in text
    assert "data/klaverjas.sqlite3" in text


def test_duel_takes_dutch_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "makkelijk", "random", "--deals", "1", "--workers", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deals"] == 1


def test_ctrl_c_is_status_130_without_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main as cli_main

    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "dispatch", interrupted)
    assert main(["score"]) == 130


def test_render_needs_a_folder_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render", "--out", ""]) == 2
    assert capsys.readouterr().err == "klaverjas render: --out: give a folder name (it is made if missing)\n"
    assert list(tmp_path.iterdir()) == []  # no image written into the current folder


@pytest.mark.parametrize("what", ["load", "stats"])
def test_bench_db_must_be_a_new_file_in_a_folder_that_exists(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             what: str) -> None:
    assert main(["bench", what, "--db", str(tmp_path / "missing" / "k.sqlite3")]) == 2
    assert capsys.readouterr().err == (f"klaverjas bench: --db: the folder {tmp_path / 'missing'} does not exist; "
                                       "create it first or choose a file in another folder\n")
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(("where", "problem"), [
    ("missing/x.jsonl", "the folder {path.parent} does not exist"),
    (".", "it is a folder; give a file name")])
def test_a_record_path_that_cannot_be_written_is_refused_before_the_first_deal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, problem: str) -> None:
    path = tmp_path / where
    assert main(["play", "--record", str(path), "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was dealt
    assert err == f"klaverjas play: --record {path}: {problem.format(path=path)}\n"


@pytest.mark.parametrize("command", ["play", "duel heuristic random", "bench engine", "score", "render --out x",
                                     "bot"])
def test_an_unknown_option_shows_the_commands_own_usage(capsys: pytest.CaptureFixture[str], command: str) -> None:
    err = refused(capsys, *command.split(), "--bogus")
    name = command.split()[0]
    assert err.startswith(f"usage: klaverjas {name} ")
    assert f"klaverjas {name}: error: unrecognized arguments: --bogus" in err
