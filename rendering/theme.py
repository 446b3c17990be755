"""Table themes: felt colour, deck colours, and the words (labels) the caller gives in its language."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Rank, Suit

RGB = tuple[int, int, int]

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


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word an image shows, in the table's language. Rendering keeps no texts: the caller builds
    these (``bot.texts.labels.image_labels``)."""

    ranks: tuple[str, ...]  # rank letters on the cards, in engine.cards.Rank order (7 8 9 10 J Q K A)
    trump: str
    plays: str
    dealer: str  # one letter on the dealer's chip
    tricks: str
    points: str
    roem: str
    hand: str
    total: str
    nat: str
    pit: str
    winner: str
    draw: str
    trick: str
    turned: str
    bidding: str
    last: str
    player: str
    we: str
    they: str
    ns: str  # the teams by seat, for images without a viewer
    ew: str

    def __post_init__(self) -> None:
        if len(self.ranks) != 8:
            raise ValueError(f"labels need 8 rank letters, not {len(self.ranks)}")


@dataclass(frozen=True, slots=True)
class Theme:
    """How a table looks. ``neutral_teams`` labels teams NS/EW instead of Wij/Zij (for observers)."""

    labels: Labels
    felt: str = "green"
    four_colour: bool = False
    neutral_teams: bool = False

    def __post_init__(self) -> None:
        if self.felt not in FELTS:
            raise ValueError(f"unknown felt {self.felt!r}: use one of {', '.join(FELTS)}")

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
        return self.labels.ranks[rank]


TEXT: RGB = (246, 242, 228)  # cream text on felt
MUTED: RGB = (206, 214, 206)  # secondary text: at least 4.5:1 (WCAG) on every felt
GOLD: RGB = (246, 196, 58)
DEFAULT_FELT = "green"


def theme_from(felt: str, four_colour: bool, labels: Labels, neutral_teams: bool = False) -> Theme:
    """A theme from table settings; an unknown felt falls back to the default rather than fail a render."""
    felt_key = felt.strip().lower() if felt.strip().lower() in FELTS else DEFAULT_FELT
    return Theme(labels=labels, felt=felt_key, four_colour=four_colour, neutral_teams=neutral_teams)
