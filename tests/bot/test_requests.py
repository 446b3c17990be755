"""How many Discord requests a trick costs at a table with one human, and the one request that both
answers a card or bid click and updates the clicked hand or prompt (with what happens when Discord refuses it).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest
from harness import Harness, Request, StoredMessage, next_id
from test_discord import ANNA, SEED, enabled_cards, hand_message, play_turn
from test_scenarios import bot_of, started, thread_of, until

from bot.discord_app.announcer import Announcer
from bot.discord_app.messages import Payload
from bot.tables.model import Table
from engine.game import Phase

MAX_REQUESTS_PER_TRICK = 6
UPDATE_MESSAGE = 7  # the interaction callback that edits the clicked message
DEFERRED_UPDATE = 6


def table_of(h: Harness, table_id: int) -> Table:
    return bot_of(h).service.get(table_id)


def requests_of(h: Harness, table: Table) -> list[Request]:
    """Every request about the table: in its channel, its thread and its humans' DMs, answers to clicks
    there included."""
    places = {table.channel_id, table.thread_id} | {s.dm_channel_id for s in table.seats if s.dm_channel_id}
    return [r for r in h.fake.requests if h.fake._channel_of(r) in places]


def callbacks(h: Harness, token: str) -> list[Request]:
    return [r for r in h.responses_to(token) if r.path.endswith("/callback")]


def patches_of(h: Harness, message_id: int, since: int) -> list[Request]:
    return [r for r in h.fake.requests[since:] if r.method == "PATCH" and r.url.endswith(f"/messages/{message_id}")]


@pytest.mark.parametrize("seed", [SEED, SEED + 1, SEED + 2])
async def test_a_trick_at_a_one_human_table_costs_at_most_six_requests(tmp_path: Path, seed: int) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: seed
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        turns = 0
        while table.running:
            await h.settle()
            if table.running and table.game.to_act is table.seat_of(ANNA.id) and table.game.phase is Phase.PLAY:
                # What Anna sees on her turn: the table message shows the trick so far and names her, and her
                # hand offers her legal cards.
                table_message = h.fake.messages[table.table_message_id]  # type: ignore[index]
                assert "Anna to play" in table_message.content and table_message.attachments == ["table.png"]
                turns += 1
            await play_turn(h, table_id, ANNA)
        await h.settle()
        tricks = len(table.game.hands[-1].tricks)
        assert tricks == 8 and turns == 8
        # Nothing players see was dropped: a message with its image per trick, the end with the last hand's
        # result and the sheet, the table message and the hand at the end.
        thread = h.fake.in_channel(thread_of(h, table_id))
        assert [m.content.split(":")[0] for m in thread if m.attachments == ["trick.png"]] == \
            [f"Trick {n}" for n in range(1, 9)]
        [end] = [m for m in thread if m.attachments == ["sheet.png"]]
        assert end.content.startswith("Hand 1: NS") and (" win " in end.content or "draw" in end.content.lower())
        assert "match over" in h.fake.messages[table.table_message_id].content  # type: ignore[index]
        assert "the match is over" in hand_message(h, table_id, ANNA).content
        requests = requests_of(h, table)
        assert len(requests) / tricks <= MAX_REQUESTS_PER_TRICK, [f"{r.method} {r.path}" for r in requests]


async def test_a_card_click_is_answered_with_the_hand_it_leaves(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await until(h, lambda: table.game.phase is Phase.PLAY and table.game.to_act is table.seat_of(ANNA.id), [ANNA])
        await h.settle()
        hand = hand_message(h, table_id, ANNA)
        card = enabled_cards(hand)[0]
        since = len(h.fake.requests)
        token = await h.click(ANNA, hand, card)
        [answer] = callbacks(h, token)
        assert answer.json is not None and answer.json["type"] == UPDATE_MESSAGE
        assert answer.files == ["hand.png"] and not answer.ephemeral
        # The hand shows the card gone, and no separate edit was needed for it: any edit of the hand since is a
        # later turn of Anna's, with cards to play.
        assert card.rsplit(":", 1)[1] not in [i.rsplit(":", 1)[1] for i in hand.custom_ids()]
        for edit in patches_of(h, hand.id, since):
            assert any(not b.get("disabled") for row in edit.data["components"] for b in row["components"])


@pytest.mark.parametrize("status, code", [(404, 10062), (503, 0)], ids=["unknown-interaction", "server-error"])
async def test_a_refused_click_answer_leaves_the_hand_to_the_announcer(tmp_path: Path, status: int,
                                                                      code: int) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await until(h, lambda: table.game.phase is Phase.PLAY and table.game.to_act is table.seat_of(ANNA.id), [ANNA])
        await h.settle()
        hand = hand_message(h, table_id, ANNA)
        card = enabled_cards(hand)[0]
        version = table.version
        h.fake.fail_next(lambda r: r.path.endswith("/callback") and (r.json or {}).get("type") == UPDATE_MESSAGE,
                         status, code)
        await h.click(ANNA, hand, card)
        assert table.version > version  # the card was played: Discord refused only the answer
        # The hand was updated all the same, by an edit of its own.
        assert card.rsplit(":", 1)[1] not in [i.rsplit(":", 1)[1] for i in hand.custom_ids()]
        assert hand.edits >= 1 and hand.attachments == ["hand.png"]


async def test_a_card_clicked_on_another_message_gets_a_plain_answer(tmp_path: Path) -> None:
    """Hostile: a current card button on a message that is not Anna's hand (a forged message in her DM)."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await until(h, lambda: table.game.phase is Phase.PLAY and table.game.to_act is table.seat_of(ANNA.id), [ANNA])
        await h.settle()
        hand = hand_message(h, table_id, ANNA)
        card = enabled_cards(hand)[0]
        forged = StoredMessage(next_id(), hand.channel_id, "x" * 3000, hand.components, 0, [], dm_user=ANNA.id)
        token = await h.click(ANNA, forged, card)
        [answer] = callbacks(h, token)
        assert answer.json is not None and answer.json["type"] == DEFERRED_UPDATE
        assert forged.edits == 0
        assert card.rsplit(":", 1)[1] not in [i.rsplit(":", 1)[1] for i in hand.custom_ids()]  # the real hand


async def test_a_bid_click_takes_the_prompts_buttons_away_in_its_answer(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED + 1  # a deal where Anna is asked before an AI player calls
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await h.settle()
        thread = thread_of(h, table_id)
        prompts = [m for m in h.fake.in_channel(thread) if f"<@{ANNA.id}>" in m.content and
                   any(i.startswith("kj:b:") for i in m.custom_ids())]
        assert prompts, "Anna is asked to bid"
        prompt = prompts[-1]
        since = len(h.fake.requests)
        call = next(i for i in prompt.custom_ids() if i.startswith(f"kj:b:{table_id}:{table.version}:"))
        token = await h.click(ANNA, prompt, call)
        [answer] = callbacks(h, token)
        assert answer.json is not None and answer.json["type"] == UPDATE_MESSAGE
        assert answer.data["components"] == [] and prompt.custom_ids() == []
        assert patches_of(h, prompt.id, since) == []  # no second request to take them away


def pid_image() -> bytes:
    return str(os.getpid()).encode()


async def test_announcement_images_are_drawn_in_a_process_of_their_own_and_answers_in_this_one(
        tmp_path: Path) -> None:
    # Pillow holds the GIL: drawn in a thread, a start burst's images kept the event loop waiting.
    async with Harness(tmp_path / "k.sqlite3", drawing_workers=1) as h:
        announcer = bot_of(h).announcer
        drawn = await announcer.drawn(Payload("x", draw=partial(pid_image)))
        assert drawn.draw is None and drawn.image is not None and int(drawn.image) != os.getpid()
        answer = await Announcer.answer_drawn(Payload("x", draw=partial(pid_image)))
        assert answer.image == str(os.getpid()).encode()  # a click's answer takes no process hop
        here = os.getpid()
        local = await announcer.drawn(Payload("x", draw=lambda: str(here).encode()))  # a lambda does not pickle
        assert local.image == str(here).encode() and local.draw is None


async def test_a_game_with_a_drawing_process_sends_real_images_all_drawn_there(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3", drawing_workers=1) as h:
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await until(h, lambda: table.game.hand is not None and len(table.game.hand.tricks) >= 1, [ANNA])
        await h.settle()
        images = [data for r in h.fake.requests for data in r.file_data]
        assert len(images) >= 3 and all(data.startswith(b"\x89PNG") for data in images)
    # Every announcement's drawing travels to the process: none fell back to a thread.
    assert not [r for r in caplog.records if "instead of the drawing lane" in r.getMessage()]
