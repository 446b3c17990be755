"""/klaverjas review through the offline harness: the review privately with its chart, in English and
Dutch, for players and onlookers of the server; autocomplete of the caller's matches; forged numbers and
another server's match refused privately; "being computed" before it is ready; Discord failures."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from harness import CHANNEL_ID, EPHEMERAL, Harness, Request, StoredMessage
from test_discord import ANNA, BERT, CHRIS, open_table, play_to_end
from test_scenarios import bot_of, seat_all

from bot.tables import thinking
from bot.tables.model import ReviewStatus
from bot.tables.service import ServiceConfig

CONFIG = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=600, reviews=True)
REFUSAL_EN = "There is no match #"
REFUSAL_NL = "In deze server is er geen partij #"
JUNK_EN = "is not a match: pick one from the list"


async def finished_match(h: Harness, *, reviewed: bool = True) -> int:
    """Anna (English) and Chris (Dutch) play a one-hand match with two AI players."""
    table_id = await open_table(h, ANNA)
    await seat_all(h, table_id, [CHRIS])
    await h.click(ANNA, [m for m in h.fake.in_channel(CHANNEL_ID) if m.content.startswith("🃏")][-1],
                  f"kj:l:{table_id}:start")
    await play_to_end(h, table_id, [ANNA, CHRIS])
    if reviewed:
        await bot_of(h).service.reviews.idle()
    return table_id


def answers(h: Harness, token: str) -> list[Request]:
    return h.responses_to(token)


def the_answer(h: Harness, token: str) -> Request:
    """The one message that answers a command (after its deferral)."""
    [defer, *rest] = answers(h, token)
    assert defer.json is not None and defer.json["type"] == 5 and defer.ephemeral  # "thinking", privately
    [message] = [r for r in rest if r.method == "POST"]
    return message


async def test_the_review_in_english_and_dutch_with_its_chart(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        table_id = await finished_match(h)
        stored = await bot_of(h).store.review(table_id)
        assert stored is not None and stored.status is ReviewStatus.DONE
        assert {p.player for p in stored.review.players} == {ANNA.id, CHRIS.id}

        english = the_answer(h, await h.command(ANNA, "review", match=str(table_id)))
        assert english.ephemeral and english.files == ["review.png"]
        assert f"Review of match #{table_id}" in english.content
        assert "Anna (" in english.content and "Chris (" in english.content and "accuracy" in english.content
        assert "Your costliest decisions:" in english.content or "well played" in english.content

        dutch = the_answer(h, await h.command(CHRIS, "review", match=f"#{table_id}"))
        assert dutch.ephemeral and dutch.files == ["review.png"]
        assert f"Analyse van partij #{table_id}" in dutch.content and "nauwkeurigheid" in dutch.content
        for p in stored.review.players:  # decimals as Dutch writes them, as /stats does; the calls apart
            assert f"{p.lost_per_card:.1f} points lost per card" in english.content
            assert f"{p.lost_per_card:.1f} punten verloren per kaart".replace(".", ",") in dutch.content
            assert f"{p.lost_per_call:.1f} points lost per call" in english.content
            assert f"{p.lost_per_call:.1f} punten verloren per keuze".replace(".", ",") in dutch.content

        # Someone else of this server may look too: the match's costliest decisions, not "yours".
        onlooker = the_answer(h, await h.command(BERT, "review", match=str(table_id)))
        assert onlooker.files == ["review.png"] and "Your costliest" not in onlooker.content
        worst = max((d for d in stored.review.decisions if d.cost > 3), key=lambda d: d.cost, default=None)
        if worst is not None:
            assert "The costliest decisions:" in onlooker.content and f"{worst.cost:.0f} points" in onlooker.content


async def test_autocomplete_offers_the_callers_finished_matches(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        table_id = await finished_match(h, reviewed=False)
        [choice] = await h.autocomplete(ANNA, "review", "match", "", CHANNEL_ID)
        assert choice["value"] == str(table_id) and choice["name"].startswith(f"#{table_id} · ")
        assert "Anna" in choice["name"] and "Chris" in choice["name"] and len(choice["name"]) <= 100
        [dutch] = await h.autocomplete(CHRIS, "review", "match", f"#{table_id}", CHANNEL_ID)
        assert dutch["value"] == str(table_id) and "AI " in dutch["name"] and dutch["name"] != choice["name"]
        assert await h.autocomplete(ANNA, "review", "match", "nothing like it", CHANNEL_ID) == []
        assert await h.autocomplete(BERT, "review", "match", "", CHANNEL_ID) == []  # he did not play
        await bot_of(h).service.reviews.idle()


@pytest.mark.parametrize("typed", ["99999", "abc", "#-1", "1" * 60, "@everyone <@&5>", "12 OR 1=1", "\u200b"])
async def test_a_forged_or_unknown_match_is_refused_privately(tmp_path: Path, typed: str) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        token = await h.command(ANNA, "review", match=typed)
        message = the_answer(h, token)
        assert message.ephemeral and not message.files
        assert (REFUSAL_EN if typed.isdigit() and len(typed) < 20 else JUNK_EN) in message.content
        assert "@everyone" not in message.content.replace("\\@everyone", "").replace("@\u200beveryone", "")
        assert len(message.content) < 200


async def test_another_servers_match_and_a_running_table_are_refused(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        table_id = await finished_match(h)
        store = bot_of(h).store
        await store.db.execute("UPDATE tables SET guild_id = 1 WHERE id = ?", (table_id,))
        message = the_answer(h, await h.command(ANNA, "review", match=str(table_id)))
        assert REFUSAL_EN in message.content and not message.files
        message = the_answer(h, await h.command(CHRIS, "review", match=str(table_id)))
        assert REFUSAL_NL in message.content and not message.files
        assert await h.autocomplete(ANNA, "review", "match", "", CHANNEL_ID) == []
        # A table still playing has no review yet: refused as for a replay.
        running = await open_table(h, BERT)
        message = the_answer(h, await h.command(BERT, "review", match=str(running)))
        assert f"Match #{running} is still being played" in message.content


async def test_before_the_review_is_ready_it_says_it_is_being_computed(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = thinking.review_hand

    def slow_review(*args: Any) -> Any:
        release.wait(60)
        return real(*args)

    monkeypatch.setattr(thinking, "review_hand", slow_review)
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        try:
            table_id = await finished_match(h, reviewed=False)
            reviews = bot_of(h).service.reviews
            for _ in range(2000):  # the review has begun: it knows how many hands it has to go
                if (reviews.progress(table_id) or (0, 0))[1]:
                    break
                await asyncio.sleep(0.005)
            message = the_answer(h, await h.command(ANNA, "review", match=str(table_id)))
            assert message.ephemeral and not message.files
            assert f"The review of match #{table_id} is being computed (0 of 1 hands)" in message.content
            message = the_answer(h, await h.command(CHRIS, "review", match=str(table_id)))
            assert f"De analyse van partij #{table_id} wordt berekend" in message.content
        finally:
            release.set()
        await bot_of(h).service.reviews.idle()
        message = the_answer(h, await h.command(ANNA, "review", match=str(table_id)))
        assert message.files == ["review.png"]


def any_callback(request: Request) -> bool:
    return request.via == "webhook" and request.path.endswith("/callback")


def a_followup(request: Request) -> bool:
    return request.via == "webhook" and request.method == "POST" and not request.path.endswith("/callback")


@pytest.mark.parametrize("failure", [(any_callback, 404, 10062, "Unknown interaction"),
                                     (a_followup, 429, 0, "You are being rate limited."),
                                     (a_followup, 503, 0, "Service Unavailable")], ids=["10062", "429", "503"])
async def test_a_discord_failure_loses_nothing(tmp_path: Path, failure: tuple[Any, int, int, str]) -> None:
    async with Harness(tmp_path / "k.sqlite3", config=CONFIG) as h:
        table_id = await finished_match(h)
        store = bot_of(h).store
        before = await store.review(table_id)
        h.fake.fail_next(*failure)
        await h.command(ANNA, "review", match=str(table_id))
        assert charts(h) == []  # the answer did not get through (logged, no traceback to anyone)
        assert await store.review(table_id) == before  # and the review is kept as it was
        message = the_answer(h, await h.command(ANNA, "review", match=str(table_id)))
        assert message.files == ["review.png"] and message.flags & EPHEMERAL
        assert len(charts(h)) == 1


def charts(h: Harness) -> list[StoredMessage]:
    """The review charts Discord accepted."""
    return [m for m in h.fake.messages.values() if m.attachments == ["review.png"]]


