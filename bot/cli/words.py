"""The words each command-line option accepts, in English and Dutch, and argparse types that check them.

The Dutch words are the text catalog's (``bot.texts.catalog.SETTING_WORDS_NL``), so the terminal, Discord
and the command line read and show the same words; every value maps to the one word the engine and the AI
players take.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.texts.catalog import SETTING_WORDS_NL
from engine.errors import SettingsError
from engine.settings import MAX_MATCH_HANDS, MAX_MATCH_TARGET, MIN_MATCH_TARGET, parse_length


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # what the program takes
    dutch: tuple[str, ...] = ()  # other words accepted for it (the first is shown in help)
    meaning: str = ""

    def words(self) -> tuple[str, ...]:
        return (self.value, *self.dutch)


def setting(key: str, meanings: Mapping[str, str], *synonyms: tuple[str, str]) -> tuple[Choice, ...]:
    """The choices of setting ``key``, with its catalog Dutch word and any extra ``(value, word)`` synonyms."""
    dutch = SETTING_WORDS_NL[key]
    return tuple(Choice(value, tuple(dict.fromkeys(
        word for word in (dutch[value], *(w for v, w in synonyms if v == value)) if word != value)), meaning)
        for value, meaning in meanings.items())


RULES = setting("play", {"rotterdam": "void in the led suit: always trump",
                         "amsterdam": "no need to trump while your partner heads the trick"})
UNDERTRUMP = setting("undertrump", {"forced": "unable to overtrump: still play a trump",
                                    "forbidden": "unable to overtrump: play another suit if you can"})
BIDDING = setting("bidding", {"vrij": "each seat plays (naming trump) or passes",
                              "verplicht": "the elder hand must name trump",
                              "draaien": "a turned suit is played or passed"})
FORCED = setting("forced", {"elder": "the player left of the dealer", "dealer": "the dealer"})
ROEM = setting("roem", {"auto": "counted by itself", "declared": "counts only when claimed"})
STUK = setting("stuk", {"trick": "K+Q of trump in one trick", "held": "K+Q of trump in one player's hand"},
               ("trick", "slag"), ("held", "hand"))
LEVEL = setting("ai", {"easy": "makes people's mistakes: a ten thrown onto the opponents' trick, trumps not "
                                "pulled, a signal missed, a hand over- or underbid",
                        "normal": "club-player rules",
                        "hard": "the strong player: samples the unseen cards and solves each deal exactly"})
LANGUAGE = setting("language", {"en": "", "nl": ""}, ("en", "english"), ("nl", "dutch"))
# The duel takes the players by kind too; the levels are the same players under their table names.
PLAYERS = (
    Choice("random", (), "any legal action"),
    Choice("heuristic", (), "rule-based (the normal level)"),
    Choice("pimc", (), "the strong player (the hard level)"),
    *LEVEL,
)


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
