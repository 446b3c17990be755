"""The review joined to the rest: the match end's Review button, accuracy on /stats, and forget-me removing a
person's reviewed decisions while the others' stay."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from harness import EPHEMERAL, Harness
from test_discord import ANNA, BERT, CHRIS
from test_forget import traces
from test_hostile import any_callback
from test_replay import the_message
from test_review_command import CONFIG, finished_match
from test_scenarios import bot_of, thread_of

from engine.ai.review_summary import accuracy_percent


def figure(text: str, label: str) -> str:
    """The figure that follows ``label`` in ``text`` (``Accuracy: 57%`` gives ``57%``)."""
    found = re.search(re.escape(label) + r"(\d+%)", text)
    assert found is not None, f"no {label!r} in {text!r}"
    return found.group(1)


def review_rows(path: Path, user_id: int) -> int:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT (SELECT count(*) FROM review_decisions WHERE user_id = ?) + "
                         "(SELECT count(*) FROM review_players WHERE user_id = ?)", (user_id, user_id)).fetchone()
    return int(row[0])


async def test_the_match_end_review_button_accuracy_on_stats_and_forget_me(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path, config=CONFIG) as h:
        table_id = await finished_match(h)
        stored = await bot_of(h).store.review(table_id)
        assert stored is not None
        [end] = [m for m in h.fake.in_channel(thread_of(h, table_id)) if f"kj:rv:{table_id}" in m.custom_ids()]
        # Review on the match end: the same private review as the command, for a player or an onlooker.
        for user in (ANNA, BERT):
            token = await h.click(user, end, f"kj:rv:{table_id}")
            review = the_message(h, token)
            assert review.flags & EPHEMERAL and review.attachments == ["review.png"]
            assert f"Review of match #{table_id}" in review.content
        # 10062 on the press: nothing is posted for everyone, and pressing again works.
        posted = len(h.fake.in_channel(thread_of(h, table_id)))
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        await h.click(ANNA, end, f"kj:rv:{table_id}")
        assert len(h.fake.in_channel(thread_of(h, table_id))) == posted
        # /stats shows the accuracy of Anna's reviewed decisions (no longer "not reviewed yet"): the figure her
        # review's headline shows, in either language.
        [anna] = [p for p in stored.review.players if p.player == ANNA.id]
        stats = await bot_of(h).store.player_stats(f"u:{ANNA.id}", None)
        assert stats.accuracy == anna.accuracy
        for user, stats_label, review_label in ((ANNA, "Accuracy: ", "): accuracy "),
                                                (CHRIS, "Nauwkeurigheid: ", "): nauwkeurigheid ")):
            on_stats = figure(the_message(h, await h.click(user, end, f"kj:ms:{table_id}")).content, stats_label)
            review = the_message(h, await h.click(user, end, f"kj:rv:{table_id}")).content
            [headline] = [line for line in review.splitlines() if line.startswith(user.name)]
            assert on_stats == figure(headline, review_label)
            [mine] = [p for p in stored.review.players if p.player == user.id]
            assert on_stats == f"{accuracy_percent(mine.accuracy)}%"
        # forget-me: Anna's reviewed decisions go, Chris's stay.
        assert review_rows(path, ANNA.id) > 0 and review_rows(path, CHRIS.id) > 0
        question = the_message(h, await h.command(ANNA, "forget-me"))
        await h.click(ANNA, question, f"kj:fm:{ANNA.id}")
        assert review_rows(path, ANNA.id) == 0 and review_rows(path, CHRIS.id) > 0
        assert traces(path, "Anna") == []
