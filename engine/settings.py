"""Table settings (rules.md sections 3, 4, 6, 8) and their record form."""

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
        return cls(
            play=_enum_value(PlayRules, "play", data.get("play", "rotterdam")),
            undertrump=_enum_value(Undertrump, "undertrump", data["undertrump"]) if "undertrump" in data else None,
            bidding=_enum_value(Bidding, "bidding", data.get("bidding", "vrij")),
            forced=_enum_value(ForcedSeat, "forced", data.get("forced", "elder")),
            roem=_enum_value(RoemMode, "roem", data.get("roem", "auto")),
            stuk=_enum_value(StukMode, "stuk", data.get("stuk", "trick")),
            length=MatchLength.from_dict(data["length"]) if "length" in data else MatchLength(),
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
