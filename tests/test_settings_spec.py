"""Every table setting is declared once (``engine.settings.SETTINGS``) with its words in the catalog
(``bot.texts.catalog.SETTING_TEXTS``), and every AI player kind once (``engine.ai.players.PLAYER_KINDS``): these
tests hold that everything else follows, so adding a setting or a level is the declaration, its engine rule and
its texts. They check that each setting has its Discord option and choices, its command-line option, its words in
both languages that read back as the value, the defaults its owners keep, and its row in the README."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from bot.cli import words
from bot.cli.main import PLAY_DEFAULTS, build_parser
from bot.discord_app.cogs.stats import Stats
from bot.discord_app.cogs.tables import Tables
from bot.discord_app.cogs.tournaments import Tournaments
from bot.discord_app.views import LEVEL
from bot.tables.model import TableSettings
from bot.texts.catalog import (
    COMMAND_TEXTS,
    SETTING_TEXTS,
    TEXTS,
    explain_rules,
    parse_setting_value,
    setting_value,
    t,
)
from bot.texts.language import Language
from engine.ai.players import LEVELS, PLAYER_KINDS, Level, find_player_kind
from engine.errors import SettingsError
from engine.settings import SETTINGS, SETTINGS_BY_NAME, Rules, Setting, find_setting
from rendering.theme import DEFAULT_FELT, FELTS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
WITH_VALUES = [setting for setting in SETTINGS if setting.values]


def ids(setting: Setting) -> str:
    return setting.name


def test_names_are_unique_and_found_by_name_or_record_key() -> None:
    assert len(SETTINGS_BY_NAME) == len(SETTINGS)
    for setting in SETTINGS:
        assert find_setting(setting.name) is setting and find_setting(setting.key) is setting
    with pytest.raises(SettingsError, match="unknown setting 'colour'"):
        find_setting("colour")


@pytest.mark.parametrize("setting", SETTINGS, ids=ids)
def test_every_setting_has_its_words_in_both_languages(setting: Setting) -> None:
    texts = SETTING_TEXTS[setting.name]
    assert texts.option_nl and all(texts.about)
    assert set(texts.words_nl) == set(setting.values)
    for value in setting.values:
        assert texts.words_nl[value]
        meaning = texts.meanings.get(value, ("", ""))
        assert bool(meaning[0]) == bool(meaning[1]), value  # in both languages, or (a colour, a language) in neither
    assert set(SETTING_TEXTS) == set(SETTINGS_BY_NAME)


@pytest.mark.parametrize("setting", WITH_VALUES, ids=ids)
def test_every_value_and_word_reads_back_as_the_value(setting: Setting) -> None:
    for value in setting.values:
        for lang in Language:
            shown = setting_value(setting.name, value, lang)
            assert parse_setting_value(setting.name, shown) == value
            assert parse_setting_value(setting.name, f"  {shown.upper()} ") == value
    for word, value in setting.aliases:
        assert value in setting.values and parse_setting_value(setting.name, word) == value
    assert parse_setting_value(setting.name, "no such word") is None


def test_the_length_reads_hands_and_targets() -> None:
    length = find_setting("length")
    assert length.values == () and length.default == "16"
    assert [parse_setting_value("length", text) for text in ("16", "8 rondes", "tot 1001", "to1601", "lang")] == [
        "16", "8", "to1001", "to1601", None]


def test_defaults_are_the_engines_and_the_tables() -> None:
    rules, table = Rules().to_dict(), TableSettings().to_dict()
    for setting in SETTINGS:
        if setting.name == "undertrump":
            assert setting.default is None  # follows the rules
        elif setting.name == "length":
            assert rules["length"] == {"hands": int(setting.default or 0)}
        elif setting.is_rule:
            assert rules[setting.key] == setting.default
        else:
            assert table[setting.key] == setting.default, setting.name


def test_the_values_are_their_owners() -> None:
    assert find_setting("ai").values == LEVELS
    assert find_setting("theme").values == tuple(FELTS) and find_setting("theme").default == DEFAULT_FELT
    assert find_setting("language").values == tuple(language.value for language in Language)


@pytest.mark.parametrize("setting", [setting for setting in SETTINGS if setting.is_rule and setting.values], ids=ids)
def test_every_rule_value_makes_rules_and_is_explained(setting: Setting) -> None:
    for value in setting.values:
        rules = Rules().with_changes(**{setting.key: value})
        assert rules.to_dict()[setting.key] == value
        if setting.name != "forced":  # who must play after four passes is said within bidding vrij
            key = f"explain.{setting.name}.{value}"
            assert key in TEXTS
            for lang in Language:
                bullet = "• " + t(key, lang, forced=t(f"rules.forced_{rules.forced.value}", lang))
                assert bullet in explain_rules(rules, lang).splitlines()


def test_the_length_is_explained() -> None:
    assert "**Length**: 16 hands" in explain_rules(Rules(), "en")
    assert "first team to 1001 points" in explain_rules(Rules().with_changes(length="to1001"), "en")


# ---------------------------------------------------------------- Discord


def options_of(command: object) -> dict[str, object]:
    return {parameter.name: parameter for parameter in command.parameters}  # type: ignore[attr-defined]


def commands() -> dict[str, object]:
    create = next(command for command in Tournaments.tournament.commands if command.name == "create")
    return {"start": Tables.start, "settings": Tables.settings, "tournament create": create}


@pytest.mark.parametrize("setting", SETTINGS, ids=ids)
def test_every_discord_setting_is_an_option_with_its_choices_in_both_languages(setting: Setting) -> None:
    texts = SETTING_TEXTS[setting.name]
    for name, command in commands().items():
        options = options_of(command)
        offered = setting.on_discord and (setting.in_tournament or name != "tournament create")
        assert (setting.name in options) == offered, (name, setting.name)
        if not offered:
            continue
        option = options[setting.name]
        assert not option.required and str(option.description) == texts.about[0]  # type: ignore[attr-defined]
        choices = [(str(choice.name), choice.value) for choice in option.choices]  # type: ignore[attr-defined]
        assert choices == [(texts.choice_name(value), value) for value in setting.values]
    if setting.on_discord:
        assert COMMAND_TEXTS[setting.name] == texts.option_nl and COMMAND_TEXTS[texts.about[0]] == texts.about[1]
        for value in setting.values:  # English strings are the translator's keys: one Dutch word each
            assert COMMAND_TEXTS[texts.choice_name(value)] == texts.words_nl[value], value


def test_the_readme_lists_the_discord_options_in_their_order() -> None:
    start = ", ".join(setting.name for setting in SETTINGS if setting.on_discord)
    tournament = ", ".join(setting.name for setting in SETTINGS if setting.on_discord and setting.in_tournament)
    assert f"options {start}, each defaulting" in README
    assert f"the table options of `start` ({tournament})" in README


# ---------------------------------------------------------------- the command line


def play_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = sub.choices["play"]
    return parser


@pytest.mark.parametrize("setting", SETTINGS, ids=ids)
def test_every_command_line_setting_is_an_option_that_takes_every_word(setting: Setting) -> None:
    parser = play_parser()
    actions = {action.dest: action for action in parser._actions}
    assert (setting.name in actions) == setting.on_command_line
    if not setting.on_command_line:
        return
    action = actions[setting.name]
    assert f"--{setting.name}" in action.option_strings
    assert action.default == PLAY_DEFAULTS.get(setting.name, setting.default)
    for choice in words.SETTING_CHOICES.get(setting.name, ()):
        for word in choice.words():
            assert getattr(parser.parse_args([f"--{setting.name}", word]), setting.name) == choice.value
            assert word in " ".join((action.help or "").split())


def test_the_duel_takes_every_player_kind() -> None:
    assert {choice.value for choice in words.PLAYERS} == {kind.name for kind in PLAYER_KINDS}


# ---------------------------------------------------------------- AI levels and player kinds


def test_every_level_is_one_player_kind_and_a_button() -> None:
    assert [kind.name for kind in PLAYER_KINDS if kind.level] == [level.value for level in Level]
    for level in Level:
        assert find_player_kind(level.upper()).name == level
        assert re.fullmatch(LEVEL.pattern, level)
    assert re.fullmatch(LEVEL.pattern, "genius") is None
    statistics = next(parameter for parameter in Stats.stats.parameters if parameter.name == "ai")
    assert [choice.value for choice in statistics.choices] == list(LEVELS)  # /stats ai: the same levels
    for kind in PLAYER_KINDS:
        assert kind.level or kind.about  # the duel's help says what the other kinds do


# ---------------------------------------------------------------- README


def test_the_readme_settings_table_matches_the_spec() -> None:
    lines = README.splitlines()
    start = lines.index("| setting | values (default first) |")
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        name, values = (cell.strip() for cell in line.strip("|").split("|"))
        rows[name.strip("`")] = values
    rules = [setting for setting in SETTINGS if setting.is_rule]
    assert list(rows) == [setting.key for setting in rules]
    for setting in rules:
        listed = re.findall(r"`([^`]+)`", rows[setting.key])
        if setting.values:
            assert set(setting.values) <= set(listed), setting.name
            if setting.default is not None:
                assert listed[0] == setting.default, setting.name
        else:
            assert listed[0] == f'{{"hands": {setting.default}}}'


def test_the_readme_lists_every_player_kind_and_level() -> None:
    lines = README.splitlines()
    start = lines.index("| player | level | how it plays |")
    rows = lines[start + 2:]
    table = "\n".join(rows[:next(i for i, line in enumerate(rows) if not line.startswith("|"))])
    for kind in PLAYER_KINDS:
        assert f"`{kind.name}`" in table, kind.name
