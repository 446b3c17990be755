"""Tournament standings worked out by hand (pure: bot.tournaments.standings), and the standings image."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.discord_app import tournament_messages
from bot.discord_app.tournament_messages import created_text, standings_drawing, standings_text
from bot.tables.model import TableSettings
from bot.texts.language import Language
from bot.tournaments.model import Entry, Tournament, TournamentStatus
from bot.tournaments.standings import placing, standings


def entry(entry_id: int, name: str, scores: tuple[int, ...] | None, *, finished: bool = True, by_ai: bool = False,
          partner: str | None = None) -> Entry:
    return Entry(entry_id, 1, 100 + entry_id, name, 0.0, partner_id=200 + entry_id if partner else None,
                 partner_name=partner or "", table_id=entry_id, finished=finished, finished_by_ai=by_ai,
                 total=sum(scores) if scores and finished else None, hand_scores=scores if finished else None)


ENTRIES = [
    entry(1, "Anna", (100, 62, 0)),  # 162
    entry(2, "Bert", (40, 122, 0), by_ai=True),  # 162: shares first place
    entry(3, "Chris", (162, 0, 0)),  # 162 as well
    entry(4, "Dora", (0, 0, 90)),  # 90
    entry(5, "Eva", None, finished=False),  # playing: 2 hands so far (live)
    entry(6, "Fem", (10, 20, 30), partner="Gijs"),  # a pair: ranked among pairs
    entry(7, "Hans", (5, 5, 5), partner="Ida"),
]
UNCONFIRMED = Entry(8, 1, 108, "Jan", 0.0, partner_id=208, partner_name="Kees", confirmed=False)


def test_ranks_ties_and_fields_by_hand() -> None:
    final = standings(3, [*ENTRIES, UNCONFIRMED], {5: (150, 12)})
    solo = final.solo.rows
    # Anna, Bert and Chris all have 162: one shared first place, in entry order; Dora is fourth.
    assert [(r.entry.name, r.rank, r.total) for r in solo] == [
        ("Anna", 1, 162), ("Bert", 1, 162), ("Chris", 1, 162), ("Dora", 4, 90), ("Eva", None, 162)]
    assert solo[1].finished_by_ai and not solo[0].finished_by_ai and solo[4].hands_played == 2
    assert [r.entry.label for r in final.pairs.rows] == ["Fem & Gijs", "Hans & Ida"]
    assert [r.rank for r in final.pairs.rows] == [1, 2]
    # Per hand, over the entries of the field that played it (Eva's live hands count; the pairs do not).
    assert final.solo.best == (162, 122, 90)
    assert final.solo.average == ((100 + 40 + 162 + 0 + 150) / 5, (62 + 122 + 0 + 0 + 12) / 5, 90 / 4)
    assert final.pairs.best == (10, 20, 30) and final.pairs.average == (7.5, 12.5, 17.5)
    lines = final.hand_lines(ENTRIES[3])
    assert [(line.score, line.best) for line in lines] == [(0, 162), (0, 122), (90, 90)]
    assert placing(final, 104) == (4, 5) and placing(final, 105) is None and placing(final, 206) == (1, 2)
    assert placing(final, 108) is None  # an invitation nobody confirmed takes no place
    assert final.row_of(208) is None


def test_the_text_and_the_image_say_the_same() -> None:
    tournament = Tournament(1, 9, 9, "Kerst", 1, TableSettings().with_changes(length="3"), 5, 0.0, 3600.0,
                            status=TournamentStatus.CLOSED)
    final = standings(3, ENTRIES, {5: (150, 12)})
    text = standings_text(tournament, final, Language.EN, 104)
    assert "4. Dora — 90" in text and "2. Bert" not in text and "1. Bert — 162 (finished by the AI)" in text
    assert "· Eva — 162 after 2 hands (playing)" in text
    assert "hand 3: you 90, best 90, average 22.5" in text  # 90 / 4: a half is not rounded away (to even, 22)
    dutch = standings_text(tournament, final, Language.NL, 104)
    assert "ronde 3: jij 90, beste 90, gemiddeld 22,5" in dutch and "Paren:" in dutch
    with_lost = standings_text(tournament, final, Language.EN, 104, points_lost=(1.4, 0.0, 12.0))
    assert "hand 1: you 0, best 162, average 90.4, points lost per decision 1.4" in with_lost
    image = Image.open(io.BytesIO(standings_drawing(tournament, final, Language.EN, 104)()))
    assert image.format == "PNG" and image.width >= 900 and image.height > 400
    onlooker = Image.open(io.BytesIO(standings_drawing(tournament, final, Language.NL, None)()))
    assert onlooker.height < image.height  # no "you" row


def test_the_final_image_says_final_and_names_the_winners(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[dict[str, Any]] = []
    monkeypatch.setattr(tournament_messages, "render_standings", lambda **kwargs: drawn.append(kwargs) or b"")
    final = standings(3, ENTRIES, {5: (150, 12)})
    for status in (TournamentStatus.OPEN, TournamentStatus.CLOSED):
        tournament = Tournament(1, 9, 9, "Kerst", 1, TableSettings().with_changes(length="3"), 5, 0.0, 3600.0,
                                status=status)
        standings_drawing(tournament, final, Language.NL, 104)()
    interim, closed = (kwargs["title"] for kwargs in drawn)
    assert interim == "Kerst (#1)" and "eindstand" not in interim
    assert closed == "Kerst (#1): eindstand · winnaar Anna, Bert, Chris"  # a shared first place


def test_the_opening_message_says_the_number_of_hands_once() -> None:
    tournament = Tournament(1, 9, 9, "Kerst", 1, TableSettings().with_changes(length="2"), 2, 0.0, 3600.0)
    assert created_text(tournament).count("2 hands") == 1
