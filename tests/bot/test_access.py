"""The one information policy (bot.access): its decisions, and that the code building answers asks it.

Two kinds of check look for the next hole: every answer builder that takes tournament standings is run, whatever
it is called, for a reader who may see nothing yet and must show no figure; and a scan of the bot's source finds
any place that reads a seat's private view or a match's record without going through the policy.
"""

from __future__ import annotations

import ast
import inspect
from functools import partial
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from bot import access
from bot.discord_app import tournament_messages
from bot.discord_app.messages import Payload
from bot.tables.errors import ServiceErrorCode
from bot.tables.model import SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.texts.language import Language
from bot.tournaments.model import Entry, Tournament, TournamentStatus
from bot.tournaments.standings import Standings, standings
from engine.cards import Seat

ROOT = Path(__file__).resolve().parents[2]
ANNA, BERT, EVA = 101, 102, 999  # Eva has no entry
# Figures that appear nowhere else in a standings text (no id, time or count is one of them).
SCORES = {ANNA: (731, 419), BERT: (517,)}


def entries() -> list[Entry]:
    return [Entry(1, 1, ANNA, "Anna", 0.0, table_id=11, finished=True, total=sum(SCORES[ANNA]),
                  hand_scores=SCORES[ANNA]),
            Entry(2, 1, BERT, "Bert", 0.0, table_id=12)]


def tournament(status: TournamentStatus) -> Tournament:
    return Tournament(1, 9, 9, "Kerst", 1, TableSettings().with_changes(length="2"), 5, 0.0, 3600.0,
                      status=status)


def full() -> Standings:
    return standings(2, entries(), {2: SCORES[BERT]})


def hidden_figures() -> set[str]:
    return {str(n) for n in (731, 419, 517, 731 + 419, 624, 575)}  # scores, totals, best and averages


def test_the_policy_decides_what_a_tournament_reader_sees() -> None:
    final = full()
    open_ = TournamentStatus.OPEN
    assert access.hands_seen(final, EVA, open_) == 0 and access.hands_seen(final, None, open_) == 0
    assert access.hands_seen(final, BERT, open_) == 1 and access.hands_seen(final, ANNA, open_) == 2
    assert access.hands_seen(final, None, TournamentStatus.CLOSED) == 2
    assert access.hands_seen(final, EVA, TournamentStatus.CLOSING) == 0  # closing is not closed
    bert = access.tournament_figures(final, BERT, open_)
    assert bert.counted == 1 and bert.solo.best == (731, None) and bert.solo.average == (624, None)
    anna = bert.solo.row_of(1)
    assert anna is not None and anna.total == 731 and anna.entry.hand_scores == (731,) and anna.entry.total == 731
    eva = access.tournament_figures(final, EVA, open_)
    assert [(r.entry.name, r.rank, r.total, r.hands_played) for r in eva.solo.rows] == [("Anna", 1, 0, 2),
                                                                                        ("Bert", 2, 0, 1)]
    assert all(not r.entry.hand_scores for r in eva.solo.rows) and set(eva.solo.best) == {None}
    assert access.tournament_figures(final, EVA, TournamentStatus.CLOSED) is final


def test_the_policy_decides_records_views_and_statistics() -> None:
    table = Table(7, ANNA, TableSettings(), 1, tournament_id=1)
    table.seats = [SeatInfo() for _ in Seat]
    table.seats[Seat.S] = SeatInfo(kind=SeatKind.HUMAN, user_id=ANNA, name="Anna")
    table.seats[Seat.N] = SeatInfo(kind=SeatKind.AI)
    finished, open_ = TableStatus.FINISHED, TournamentStatus.OPEN
    assert access.record_refusal(ANNA, table, TableStatus.PLAYING, None) is ServiceErrorCode.MATCH_NOT_OVER
    assert access.record_refusal(EVA, table, finished, None) is None
    assert access.record_refusal(EVA, table, finished, open_) is ServiceErrorCode.TOURNAMENT_SEALED
    assert access.record_refusal(None, table, finished, open_) is ServiceErrorCode.TOURNAMENT_SEALED
    assert access.record_refusal(ANNA, table, finished, open_) is None  # she played all of it
    assert access.record_refusal(ANNA, table, TableStatus.STOPPED, open_) is ServiceErrorCode.TOURNAMENT_SEALED
    assert access.record_refusal(EVA, table, finished, TournamentStatus.CLOSED) is None
    assert access.private_seat(table, ANNA) is Seat.S and access.private_seat(table, EVA) is None
    assert access.private_view(table, EVA) is None
    with pytest.raises(PermissionError):
        access.seat_view(table, Seat.N)  # an AI's hand is sent to nobody
    assert access.counts_in_stats(None) and access.counts_in_stats(TournamentStatus.CLOSED)
    assert not access.counts_in_stats(open_) and not access.counts_in_stats(TournamentStatus.CLOSING)


def standings_builders() -> list[tuple[str, Any]]:
    """Every answer builder of the tournament messages that takes standings, whatever its name."""
    found = []
    for name, function in inspect.getmembers(tournament_messages, inspect.isfunction):
        if function.__module__ != tournament_messages.__name__ or name.startswith("_"):
            continue
        hints = get_type_hints(function)
        if any(hint is Standings for key, hint in hints.items() if key != "return"):
            found.append((name, function))
    return found


def shown(result: Any) -> tuple[str, list[dict[str, Any]]]:
    """The text an answer says and the keywords of every image it draws."""
    if isinstance(result, str):
        return result, []
    if isinstance(result, Payload):
        text, drawn = shown(result.draw) if result.draw is not None else ("", [])
        return result.content + text, drawn
    assert isinstance(result, partial), result
    return "", [result.keywords]


@pytest.mark.parametrize("viewer", [None, EVA])
def test_no_standings_builder_shows_an_outsider_a_figure_of_an_open_tournament(viewer: int | None) -> None:
    builders = standings_builders()
    assert {name for name, _ in builders} >= {"standings_text", "standings_drawing", "standings_message",
                                              "final_message"}
    for name, builder in builders:
        parameters = inspect.signature(builder).parameters
        hints = get_type_hints(builder)
        arguments: dict[str, Any] = {}
        for key in parameters:
            hint = hints.get(key)
            if hint is Tournament:
                arguments[key] = tournament(TournamentStatus.OPEN)
            elif hint is Standings:
                arguments[key] = full()
            elif hint is Language:
                arguments[key] = Language.EN
            elif key == "viewer":
                arguments[key] = viewer
        text, drawings = shown(builder(**arguments))
        words = set(text.replace("—", " ").replace("/", " ").replace(",", " ").split())
        assert not words & hidden_figures(), (name, text)
        for drawing in drawings:
            assert not drawing["grid"] and set(drawing["best"]) == {None} and set(drawing["average"]) == {None}
            assert all(row.total is None for _, rows in drawing["fields"] for row in rows), name


def test_with_the_tournament_closed_every_builder_shows_the_figures() -> None:
    closed = tournament(TournamentStatus.CLOSED)
    text = tournament_messages.standings_text(closed, full(), Language.EN, None)
    assert "1. Anna — 1150" in text


# ------------------------------------------------------------------ the source asks the policy


def calls(path: Path) -> list[tuple[str, ast.Call]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.func.attr, node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)]


# Table.view is a seat's private view; besides the policy, only the AI reads it, for the seat it plays.
VIEW_READERS = {"bot/access.py", "bot/tables/model.py", "bot/tables/driver.py"}


def test_only_the_policy_reads_a_seats_private_view_for_a_person() -> None:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for attr, node in calls(path):
            if attr == "view" and node.args and name not in VIEW_READERS:
                found.append(f"{name}:{node.lineno}")
    assert not found, f"a seat's view read outside bot.access (use access.private_view / seat_view): {found}"


def test_every_record_and_standings_answer_goes_through_the_policy() -> None:
    """The archive's ``match`` refuses through ``access.record_refusal`` and is always asked for a viewer; the
    statistics writes and the tournament messages ask ``counts_in_stats`` and ``tournament_figures``."""
    archive = (ROOT / "bot/tables/archive.py").read_text(encoding="utf-8")
    assert "record_refusal(" in archive
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for attr, node in calls(path):
            if attr == "match" and isinstance(node.func, ast.Attribute) and "archive" in ast.unparse(node.func):
                assert len(node.args) + len(node.keywords) == 3, f"{path}:{node.lineno} names no viewer"
    stats = (ROOT / "bot/store/stats.py").read_text(encoding="utf-8")
    assert "counts_in_stats(" in stats
    messages = (ROOT / "bot/discord_app/tournament_messages.py").read_text(encoding="utf-8")
    assert messages.count("tournament_figures(") >= 3
