"""The words each command-line option accepts, in English and Dutch, and argparse types that check them.

The settings' options come from ``engine.settings.SETTINGS`` and their words from the text catalog
(``bot.texts.catalog.SETTING_TEXTS``), so the terminal, Discord and the command line read and show the same
words; every value maps to the one word the engine and the AI players take.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.texts.catalog import SETTING_TEXTS
from engine.ai.players import PLAYER_KINDS
from engine.errors import SettingsError
from engine.settings import MAX_MATCH_HANDS, MAX_MATCH_TARGET, MIN_MATCH_TARGET, SETTINGS, Setting, parse_length


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # what the program takes
    dutch: tuple[str, ...] = ()  # other words accepted for it (the first is shown in help)
    meaning: str = ""

    def words(self) -> tuple[str, ...]:
        return (self.value, *self.dutch)


def setting_choices(setting: Setting) -> tuple[Choice, ...]:
    """The choices of ``setting``: each value with its catalog Dutch word and the setting's other words for it."""
    texts = SETTING_TEXTS[setting.name]
    return tuple(Choice(value, tuple(dict.fromkeys(
        word for word in (texts.words_nl[value], *(w for w, v in setting.aliases if v == value)) if word != value)),
        texts.meanings[value][0] if value in texts.meanings else "")
        for value in setting.values)


# The choices of every setting that has a list of values (the length is typed freely), by its name.
SETTING_CHOICES = {setting.name: setting_choices(setting) for setting in SETTINGS if setting.values}
RULES = SETTING_CHOICES["rules"]
UNDERTRUMP = SETTING_CHOICES["undertrump"]
BIDDING = SETTING_CHOICES["bidding"]
FORCED = SETTING_CHOICES["forced"]
ROEM = SETTING_CHOICES["roem"]
STUK = SETTING_CHOICES["stuk"]
LEVEL = SETTING_CHOICES["ai"]
LANGUAGE = SETTING_CHOICES["language"]
# The duel takes the players by kind too; the levels are the same players under their table names.
PLAYERS = (*(Choice(kind.name, (), kind.about) for kind in PLAYER_KINDS if not kind.level), *LEVEL)
# The spellings the command line had for two options before they took the settings' names.
OLDER_FLAGS = {"ai": "--level", "language": "--lang"}


def lookup(choices: tuple[Choice, ...]) -> dict[str, str]:
    """Every accepted word, lower case, to its value."""
    return {word.lower(): choice.value for choice in choices for word in choice.words()}


def listing(choices: tuple[Choice, ...]) -> str:
    """``rotterdam (rotterdams), amsterdam (amsterdams)``: what help and errors show."""
    return ", ".join(choice.value + (f" ({'/'.join(choice.dutch)})" if choice.dutch else "") for choice in choices)


def described(choices: tuple[Choice, ...]) -> str:
    """``rotterdam (rotterdams): void in the led suit: always trump; ...`` for option help."""
    parts = []
    for choice in choices:
        name = choice.value + (f" ({'/'.join(choice.dutch)})" if choice.dutch else "")
        parts.append(f"{name}: {choice.meaning}" if choice.meaning else name)
    return "; ".join(parts)


def word_type(choices: tuple[Choice, ...]) -> Callable[[str], str]:
    """An argparse type: any accepted word, any case, becomes its value; anything else is refused with
    the list of words, and argparse puts the option's name in front."""
    words: Mapping[str, str] = lookup(choices)

    def parse(text: str) -> str:
        value = words.get(" ".join(text.split()).lower())
        if value is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not one of: {listing(choices)}")
        return value

    return parse


def player_type(text: str) -> str:
    """A player kind in any accepted spelling, or a variant of one (``pimc:prune=off``): the kind's word is checked
    now, the settings when the player is made (``engine.ai.players.parse_variant``)."""
    name, colon, settings = text.partition(":")
    return word_type(PLAYERS)(name) + colon + settings


def length_type(text: str) -> str:
    """``16``, ``8`` (hands) or ``to1001`` (a target), checked now so the error names ``--length``."""
    try:
        parse_length(text)
    except SettingsError:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a match length: give a number of hands from 1 to {MAX_MATCH_HANDS} (16, 8) or a "
            f"target from {MIN_MATCH_TARGET} to {MAX_MATCH_TARGET} points (to1001)") from None
    return text


def whole_number(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


def at_least_zero(unit: str) -> Callable[[str], float]:
    """A finite amount of ``unit`` (milliseconds, seconds), 0 or more."""
    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        if not math.isfinite(value) or value < 0:
            raise argparse.ArgumentTypeError(f"must be a number of {unit}, 0 or more, not {text!r}")
        return value

    return parse


def seconds(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value
