"""Table themes: felt colour, deck colours, language of rank letters and labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.cards import Rank, Suit

RGB = tuple[int, int, int]
Language = Literal["en", "nl"]

# Felt colours from the game manual; each comes with a darker shade for panels and a lighter one
# for lines, so every theme keeps the same contrast with the cream text.
FELTS: dict[str, tuple[RGB, RGB, RGB]] = {
    "green": ((28, 98, 60), (18, 70, 42), (60, 132, 90)),
    "navy": ((26, 44, 86), (16, 28, 58), (58, 80, 128)),
    "burgundy": ((104, 28, 44), (72, 16, 28), (140, 62, 78)),
}

RED: RGB = (206, 24, 36)
BLACK: RGB = (22, 22, 26)
GREEN: RGB = (18, 130, 48)
BLUE: RGB = (24, 84, 200)

RANK_LETTERS: dict[str, tuple[str, ...]] = {
    "en": ("7", "8", "9", "10", "J", "Q", "K", "A"),
    "nl": ("7", "8", "9", "10", "B", "V", "H", "A"),
}

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "trump": "Trump",
        "plays": "plays",
        "dealer": "D",
        "tricks": "tricks",
        "points": "points",
        "roem": "roem",
        "hand": "Hand",
        "total": "Total",
        "nat": "NAT",
        "pit": "PIT",
        "winner": "Winner",
        "draw": "Draw",
        "trick": "Trick",
        "turned": "Turned",
        "bidding": "Bidding",
        "last": "last trick",
        "player": "Player",
        "we": "Wij",
        "they": "Zij",
    },
    "nl": {
        "trump": "Troef",
        "plays": "speelt",
        "dealer": "G",
        "tricks": "slagen",
        "points": "punten",
        "roem": "roem",
        "hand": "Spel",
        "total": "Totaal",
        "nat": "NAT",
        "pit": "PIT",
        "winner": "Winnaar",
        "draw": "Gelijkspel",
        "trick": "Slag",
        "turned": "Gedraaid",
        "bidding": "Bieden",
        "last": "vorige slag",
        "player": "Speler",
        "we": "Wij",
        "they": "Zij",
    },
}


@dataclass(frozen=True, slots=True)
class Theme:
    """How a table looks. ``neutral_teams`` labels teams NS/EW instead of Wij/Zij (for observers)."""

    felt: str = "green"
    four_colour: bool = False
    language: Language = "en"
    neutral_teams: bool = False

    def __post_init__(self) -> None:
        if self.felt not in FELTS:
            raise ValueError(f"unknown felt {self.felt!r}: use one of {', '.join(FELTS)}")
        if self.language not in RANK_LETTERS:
            raise ValueError(f"unknown language {self.language!r}: use en or nl")

    @property
    def felt_rgb(self) -> RGB:
        return FELTS[self.felt][0]

    @property
    def panel_rgb(self) -> RGB:
        return FELTS[self.felt][1]

    @property
    def line_rgb(self) -> RGB:
        return FELTS[self.felt][2]

    def suit_rgb(self, suit: Suit) -> RGB:
        if self.four_colour:
            return (GREEN, BLUE, RED, BLACK)[suit]
        return (BLACK, RED, RED, BLACK)[suit]

    def suit_on_felt(self, suit: Suit) -> RGB:
        """A suit colour that stays visible on the dark felt (black spades would vanish)."""
        if self.four_colour:
            return ((96, 214, 120), (120, 170, 255), (255, 110, 110), (245, 242, 232))[suit]
        return ((245, 242, 232), (255, 110, 110), (255, 110, 110), (245, 242, 232))[suit]

    def rank_text(self, rank: Rank) -> str:
        return RANK_LETTERS[self.language][rank]

    def label(self, key: str) -> str:
        return LABELS[self.language][key]


DEFAULT_THEME = Theme()
TEXT: RGB = (246, 242, 228)  # cream text on felt
MUTED: RGB = (196, 206, 196)
GOLD: RGB = (246, 196, 58)


def theme_from(felt: str = "green", four_colour: bool = False, language: str = "en",
               neutral_teams: bool = False) -> Theme:
    """A theme from table settings; unknown values fall back to the defaults rather than fail a render."""
    felt_key = felt.strip().lower() if felt.strip().lower() in FELTS else DEFAULT_THEME.felt
    lang: Language = "nl" if language.strip().lower().startswith("nl") else "en"
    return Theme(felt=felt_key, four_colour=four_colour, language=lang, neutral_teams=neutral_teams)
