"""The review's message within Discord's limit: with four long names and three explained mistakes, the headlines and
the mistakes stay whole and the note (the same explanation in every review) gives way to its short form rather than be
cut mid-sentence."""

from __future__ import annotations

from bot.discord_app.limits import MESSAGE_LIMIT
from bot.discord_app.messages import review_message
from bot.tables.model import ReviewStatus, SeatInfo, SeatKind, StoredReview, Table, TableSettings
from bot.texts.catalog import Language, t
from engine.actions import Call
from engine.ai.hints import Hint, HintCode
from engine.ai.review_summary import DecisionReview, MatchReview, summarise
from engine.cards import SEATS

NAME_LIMIT = 32  # characters of a Discord display name


def _review(costly: int) -> MatchReview:
    """Four people, each with one reviewed call; ``costly`` of them passed a hand worth playing, each with the
    reason, a long one (the trumps, honours and aces the hand holds)."""
    decisions = []
    for seat in SEATS:
        cost = 40.0 if int(seat) < costly else 0.0
        reason = Hint(Call.H, HintCode.BID_PLAY, {"trumps": "3", "honours": "J9AT", "aces": "2", "suit": "H"})
        decisions.append(DecisionReview(int(seat), 0, None, seat, 100 + int(seat), Call.PASS, Call.H, cost, 64,
                                        reason if cost else None, 60.0))
    players = tuple(summarise(100 + int(d.seat), d.seat, [d], hands=1, hands_played=1) for d in decisions)
    return MatchReview(1, tuple(decisions), players)


def _table(name_length: int) -> Table:
    table = Table(7, 100, TableSettings(), 1)
    table.seats = [SeatInfo(kind=SeatKind.HUMAN, user_id=100 + int(seat), name=f"{seat.letter}" * name_length)
                   for seat in SEATS]
    return table


def test_a_full_review_keeps_every_headline_and_mistake_and_shortens_the_note() -> None:
    stored = StoredReview(7, None, ReviewStatus.DONE, _review(costly=3))
    note = t("review.note", Language.NL, real="5", within="3")
    full = review_message(_table(NAME_LIMIT), stored, viewer=999, lang=Language.NL).content
    assert len(full) <= MESSAGE_LIMIT and not full.endswith("…")
    assert all(f"\n{n}. " in full for n in (1, 2, 3)) and all(seat.letter * NAME_LIMIT in full for seat in SEATS)
    assert note not in full
    assert full.endswith(t("review.note_short", Language.NL, real="5", within="3"))
    short = review_message(_table(4), stored, viewer=999, lang=Language.NL).content
    assert note in short and len(short) <= MESSAGE_LIMIT
