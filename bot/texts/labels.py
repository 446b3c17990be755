"""The words on the images, from the catalog, as the plain data rendering takes (``rendering.theme.Labels``), and
the players' names every front end shows."""

from __future__ import annotations

from functools import cache

from bot.tables.model import SeatKind, Table
from bot.texts.catalog import rank_letters, seat_name, t
from bot.texts.language import Language
from engine.cards import SEATS, Seat
from rendering.theme import Labels, Theme, theme_from


@cache
def _labels(lang: Language) -> Labels:
    def word(name: str) -> str:
        return t(f"label.{name}", lang)

    return Labels(ranks=rank_letters(lang), trump=word("trump"), plays=word("plays"), dealer=word("dealer"),
                  tricks=word("tricks"), points=word("points"), roem=word("roem"), hand=word("hand"),
                  total=word("total"), nat=word("nat"), pit=word("pit"), winner=word("winner"), draw=word("draw"),
                  trick=word("trick"), turned=word("turned"), bidding=word("bidding"), last=word("last"),
                  player=word("player"), we=word("we"), they=word("they"), ns=word("ns"), ew=word("ew"))


def image_labels(lang: str) -> Labels:
    """The image words in ``lang`` (``en``, ``nl``, a Language, or a locale such as ``nl-NL``)."""
    return _labels(Language.of(lang))


def table_theme(felt: str, four_colour: bool, lang: str, neutral_teams: bool = False) -> Theme:
    """A table's theme from its settings, with the image words in its language."""
    return theme_from(felt, four_colour, image_labels(lang), neutral_teams)


def names_of(table: Table, lang: Language | None = None) -> dict[Seat, str]:
    """The players' names; an AI seat is named in ``lang`` (default: the table's language)."""
    lang = lang or table.settings.language
    return {seat: (info.name if info.kind is SeatKind.HUMAN else t("ai.name", lang, seat=seat_name(seat, lang)))
            for seat, info in zip(SEATS, table.seats, strict=True)}
