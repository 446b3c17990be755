"""Table settings (rules.md sections 3, 4, 6, 8), their record form, and ``SETTINGS``: every setting a table
offers, declared once (its name, values, default and other accepted words). The commands, the command line, the
text catalog's reading and showing of values and the README's table are made from ``SETTINGS``; the words of
each value in English and Dutch and what it means are the catalog's (``bot.texts.catalog.SETTING_TEXTS``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import SettingsError


class PlayRules(StrEnum):
    ROTTERDAM = "rotterdam"
    AMSTERDAM = "amsterdam"


class Undertrump(StrEnum):
    FORCED = "forced"
    FORBIDDEN = "forbidden"


class Bidding(StrEnum):
    VRIJ = "vrij"
    VERPLICHT = "verplicht"
    DRAAIEN = "draaien"


class ForcedSeat(StrEnum):
    ELDER = "elder"
    DEALER = "dealer"


class RoemMode(StrEnum):
    AUTO = "auto"
    DECLARED = "declared"


class StukMode(StrEnum):
    TRICK = "trick"
    HELD = "held"


class Level(StrEnum):
    """The levels a table offers for its AI players (the players themselves: ``engine.ai.players``)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class MatchLength:
    """Either a fixed number of hands or a race to a target (exactly one is set)."""

    hands: int | None = 16
    target: int | None = None

    def __post_init__(self) -> None:
        if (self.hands is None) == (self.target is None):
            raise SettingsError("match length needs either a number of hands or a target, not both")
        value = self.hands if self.hands is not None else self.target
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise SettingsError(f"match length must be a whole number of at least 1, not {value!r}")

    def to_dict(self) -> dict[str, int]:
        return {"hands": self.hands} if self.hands is not None else {"target": self.target or 0}

    @classmethod
    def from_dict(cls, data: object) -> MatchLength:
        if not isinstance(data, Mapping) or len(data) != 1 or not set(data) <= {"hands", "target"}:
            raise SettingsError('length must be {"hands": N} or {"target": N}')
        if "hands" in data:
            return cls(hands=data["hands"])
        return cls(hands=None, target=data["target"])

    def describe(self) -> str:
        return f"{self.hands} hands" if self.hands is not None else f"to {self.target} points"


def _enum_value(enum: type[StrEnum], key: str, value: object) -> Any:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return enum(value)
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise SettingsError(f"{key} must be one of {choices}, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table setting. ``undertrump`` None means: follow the play rules' default."""

    play: PlayRules = PlayRules.ROTTERDAM
    undertrump: Undertrump | None = None
    bidding: Bidding = Bidding.VRIJ
    forced: ForcedSeat = ForcedSeat.ELDER
    roem: RoemMode = RoemMode.AUTO
    stuk: StukMode = StukMode.TRICK
    length: MatchLength = field(default_factory=MatchLength)

    @property
    def undertrump_rule(self) -> Undertrump:
        if self.undertrump is not None:
            return self.undertrump
        return Undertrump.FORCED if self.play is PlayRules.ROTTERDAM else Undertrump.FORBIDDEN

    @property
    def amsterdam(self) -> bool:
        return self.play is PlayRules.AMSTERDAM

    @property
    def undertrump_forced(self) -> bool:
        return self.undertrump_rule is Undertrump.FORCED

    def resolved(self) -> Rules:
        """The same rules with the undertrump default written out."""
        return Rules(self.play, self.undertrump_rule, self.bidding, self.forced, self.roem, self.stuk,
                     self.length)

    def to_dict(self) -> dict[str, object]:
        return {
            "play": self.play.value,
            "undertrump": self.undertrump_rule.value,
            "bidding": self.bidding.value,
            "forced": self.forced.value,
            "roem": self.roem.value,
            "stuk": self.stuk.value,
            "length": self.length.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise SettingsError("rules must be a JSON object")
        unknown = set(data) - set(RULE_KEYS)
        if unknown:
            raise SettingsError(
                f"unknown rule {sorted(unknown)[0]!r}: the rules are {', '.join(RULE_KEYS)}")
        default = cls()
        return cls(
            play=_enum_value(PlayRules, "play", data.get("play", default.play.value)),
            undertrump=_enum_value(Undertrump, "undertrump", data["undertrump"]) if "undertrump" in data else None,
            bidding=_enum_value(Bidding, "bidding", data.get("bidding", default.bidding.value)),
            forced=_enum_value(ForcedSeat, "forced", data.get("forced", default.forced.value)),
            roem=_enum_value(RoemMode, "roem", data.get("roem", default.roem.value)),
            stuk=_enum_value(StukMode, "stuk", data.get("stuk", default.stuk.value)),
            length=MatchLength.from_dict(data["length"]) if "length" in data else default.length,
        )

    def with_changes(self, **changes: object) -> Rules:
        """A copy with settings given as text (``play="amsterdam"``, ``length="8"``), validated."""
        data: dict[str, object] = self.to_dict()
        if "play" in changes and "undertrump" not in changes:
            data.pop("undertrump")  # a new rule set brings its own undertrump default
        for key, value in changes.items():
            if key == "length" and isinstance(value, str | int):
                data[key] = parse_length(str(value))
            else:
                data[key] = value
        return Rules.from_dict(data)


RULE_KEYS = ("play", "undertrump", "bidding", "forced", "roem", "stuk", "length")


# The longest match a person may ask for: 64 hands, or a race to 5,000 points (about as many hands). A longer one
# is no game people play, and every hand is work for the AI players and the store.
MAX_MATCH_HANDS = 64
MAX_MATCH_TARGET = 5000
# The shortest race: one hand can reach less (162 points, more with roem), so a smaller number is a typo for a
# number of hands (65 meant as 16?) rather than a match anyone wants.
MIN_MATCH_TARGET = 300
_LENGTH_DIGITS = len(str(max(MAX_MATCH_HANDS, MAX_MATCH_TARGET)))


def parse_length(text: str) -> dict[str, int]:
    """``16`` or ``8`` hands, or ``1001``/``to1001``/``tot1001``/``target:1601`` for a race to a target; hands
    up to ``MAX_MATCH_HANDS`` and targets up to ``MAX_MATCH_TARGET``, in ASCII digits."""
    raw = text.strip().lower().replace(",", "").replace(".", "").replace(" ", "")  # "tot 1001", as the game says
    for prefix in ("target:", "target=", "tot", "to"):  # "tot": the Dutch "to", as the option's Dutch text says
        if raw.startswith(prefix):
            raw = raw[len(prefix):]
            return {"target": _bounded(raw, text, MIN_MATCH_TARGET, MAX_MATCH_TARGET)}
    value = _bounded(raw, text, 1, MAX_MATCH_TARGET)
    # A match of more than 64 hands is not a thing people play; a number that large is a target.
    if value <= MAX_MATCH_HANDS:
        return {"hands": value}
    return {"target": _bounded(raw, text, MIN_MATCH_TARGET, MAX_MATCH_TARGET)}


def _bounded(raw: str, text: str, low: int, high: int) -> int:
    # ASCII digits only: str.isdigit() takes "²" and "١", which int() refuses or reads; and a few digits at most,
    # so a number thousands of digits long is refused before int() works on it.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= _LENGTH_DIGITS) or not low <= int(raw) <= high:
        raise SettingsError(f"match length {text[:40]!r}: give a number of hands from 1 to {MAX_MATCH_HANDS} (8, 16) "
                            f"or a target from {MIN_MATCH_TARGET} to {MAX_MATCH_TARGET} points (to1001)")
    return int(raw)


@dataclass(frozen=True, slots=True)
class Setting:
    """One table setting. ``name`` is the one name people type and read: Discord's option, the command line's
    ``--name``, the text catalog's key. ``values`` is empty for a setting typed freely (the length, read by
    ``parse_length``); ``default`` None means it follows another setting (undertrump follows the rules)."""

    name: str
    values: tuple[str, ...]
    default: str | None
    # The key in a game record's ``rules`` and in stored table settings, where it was written under another name
    # before the names were settled: records and databases already hold it, so it stays.
    record: str = ""
    # More words people type for a value, beside its English and Dutch words: (word, value).
    aliases: tuple[tuple[str, str], ...] = ()
    on_discord: bool = True  # an option of /klaverjas start and settings
    in_tournament: bool = True  # an option of /klaverjas tournament create too
    on_command_line: bool = True  # an option of klaverjas play

    @property
    def key(self) -> str:
        """The setting's key in records and in ``Rules``/``TableSettings.with_changes``."""
        return self.record or self.name

    @property
    def is_rule(self) -> bool:
        """Part of the engine's ``Rules`` (the others are the table's: AI level, felt, language)."""
        return self.key in RULE_KEYS


def _values(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


_DEFAULT_RULES = Rules()  # the rules' defaults are Rules' own, said there once
SETTINGS: tuple[Setting, ...] = (
    Setting("rules", _values(PlayRules), _DEFAULT_RULES.play.value, record="play"),
    Setting("undertrump", _values(Undertrump), None),  # follows the rules: forced with rotterdam, else forbidden
    Setting("bidding", _values(Bidding), _DEFAULT_RULES.bidding.value),
    # Who must play after four passes in vrij: on the command line; tables on Discord play the default.
    Setting("forced", _values(ForcedSeat), _DEFAULT_RULES.forced.value, on_discord=False, in_tournament=False),
    Setting("roem", _values(RoemMode), _DEFAULT_RULES.roem.value),
    Setting("stuk", _values(StukMode), _DEFAULT_RULES.stuk.value, aliases=(("slag", "trick"), ("hand", "held"))),
    # Typed freely (parse_length); a tournament has its own number of hands, so its tables take no length.
    Setting("length", (), str(_DEFAULT_RULES.length.hands), in_tournament=False),
    Setting("ai", _values(Level), Level.NORMAL.value, record="ai_level"),
    # The felt's colours are rendering's (rendering.theme.FELTS, the same keys); a terminal has no felt.
    Setting("theme", ("green", "navy", "burgundy"), "green", record="felt", on_command_line=False),
    Setting("language", ("en", "nl"), "en", aliases=(("english", "en"), ("dutch", "nl"))),
)
SETTINGS_BY_NAME = {setting.name: setting for setting in SETTINGS}


def find_setting(name: str) -> Setting:
    """The setting named ``name`` (its one name, or its record key: ``rules`` or ``play``)."""
    for setting in SETTINGS:
        if name in (setting.name, setting.key):
            return setting
    raise SettingsError(f"unknown setting {name!r}: the settings are {', '.join(SETTINGS_BY_NAME)}")
