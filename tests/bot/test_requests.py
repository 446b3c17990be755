"""How many Discord requests a trick costs at a table with one human, and the one request that both
answers a card or bid click and updates the clicked hand or prompt (with what happens when Discord refuses it).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest
from harness import Harness, Request, StoredMessage, next_id
from test_discord import ANNA, SEED, enabled_cards, hand_message, lobby, open_table, play_turn
from test_scenarios import bot_of, started, thread_of, until

from bot.discord_app import announcer
from bot.discord_app.announcer import Announcer
from bot.discord_app.messages import Payload
from bot.discord_app.outbox import DeliveryConfig
from bot.fake_discord.scripted import button_version
from bot.tables.model import Table, TableStatus
from engine.game import Phase

MAX_REQUESTS_PER_TRICK = 6
MAX_GLOBAL_REQUESTS_PER_TRICK = 2
QUICK = DeliveryConfig(backoff=(0.01,), max_retry_after=0.05)
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


def edits_message(h: Harness, request: Request, message_id: int) -> bool:
    """``request`` edits the message: in its channel, or through a click on it (the click's "original")."""
    if request.method != "PATCH":
        return False
    if request.url.endswith(f"/messages/{message_id}"):
        return True
    return request.url.endswith("/messages/@original") and h.fake.clicked.get(request.token or "") == message_id


def patches_of(h: Harness, message_id: int, since: int) -> list[Request]:
    return [r for r in h.fake.requests[since:] if edits_message(h, r, message_id)]


def through_click(r: Request) -> bool:
    return r.via == "webhook" and r.method == "PATCH" and r.url.endswith("/messages/@original")


async def to_annas_turn(h: Harness, table: Table) -> None:
    await until(h, lambda: table.game.phase is Phase.PLAY and table.game.to_act is table.seat_of(ANNA.id), [ANNA])
    await h.settle()


async def at_annas_first_card(h: Harness) -> tuple[Table, StoredMessage]:
    """A one-human table (SEED's deal) at Anna's first card: the table and her DM hand."""
    bot_of(h).service.new_seed = lambda: SEED
    table_id = await started(h, ANNA, [])
    table = table_of(h, table_id)
    await to_annas_turn(h, table)
    return table, hand_message(h, table_id, ANNA)


@pytest.mark.parametrize("seed", [SEED, SEED + 1, SEED + 2])
async def test_a_trick_at_a_one_human_table_costs_at_most_two_requests_against_the_global_limit(
        tmp_path: Path, seed: int) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: seed
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        turns = 0
        while table.running:
            await h.settle()
            if table.running and table.game.to_act is table.seat_of(ANNA.id) and table.game.phase is Phase.PLAY:
                # What Anna sees on her turn: the table message shows the trick so far, names her and tells the
                # last trick (or the bidding before the first), and her hand offers her legal cards.
                table_message = h.fake.messages[table.table_message_id]  # type: ignore[index]
                assert "Anna to play" in table_message.content and table_message.attachments == ["table.png"]
                hand = table.game.hand
                assert hand is not None
                told = f"Last trick: {len(hand.tricks)}. " if hand.tricks else "(trump "
                assert told in table_message.content, table_message.content
                turns += 1
            await play_turn(h, table_id, ANNA)
        await h.settle()
        tricks = len(table.game.hands[-1].tricks)
        assert tricks == 8 and turns == 8
        # Nothing players see was dropped: every trick with its cards, winner and points, the end with the last
        # hand's result and the sheet, the table message and the hand at the end.
        thread = h.fake.in_channel(thread_of(h, table_id))
        [end] = [m for m in thread if m.attachments == ["sheet.png"]]
        assert end.content.startswith("Hand 1: NS") and (" win " in end.content or "draw" in end.content.lower())
        lines = end.content.splitlines()
        for trick in table.game.hands[-1].tricks:
            [line] = [line for line in lines if line.startswith(f"{trick.index + 1}. ")]
            assert line.endswith(f", {trick.points} points")
        assert "match over" in h.fake.messages[table.table_message_id].content  # type: ignore[index]
        assert "the match is over" in hand_message(h, table_id, ANNA).content
        requests = requests_of(h, table)
        assert len(requests) / tricks <= MAX_REQUESTS_PER_TRICK, [f"{r.method} {r.path}" for r in requests]
        # Of those, the ones Discord counts against the bot's global limit: every REST request. A click's answer and
        # the edits of the clicked hand through that click are the interaction's own.
        rest = [r for r in requests if r.via == "rest"]
        assert len(rest) / tricks <= MAX_GLOBAL_REQUESTS_PER_TRICK, [h.fake.route_of(r) for r in rest]


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
        await h.settle()
        assert forged.edits == 0 and not [r for r in h.fake.requests if r.token == token and r.method == "PATCH"]
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


async def test_a_bid_clicked_before_the_prompts_post_came_back_still_takes_its_buttons_away_in_the_answer(
        tmp_path: Path) -> None:
    """A quick player (or a slow Discord): the click arrives before the bot heard back from posting the prompt."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot_of(h).service.new_seed = lambda: SEED + 1  # a deal where Anna is asked before an AI player calls
        clicks: list[str] = []

        def click_at_once(message: StoredMessage) -> None:
            calls = [i for i in message.custom_ids() if i.startswith("kj:b:")]
            if calls and f"<@{ANNA.id}>" in message.content and not clicks:
                assert bot_of(h).service.get(int(calls[0].split(":")[2])).prompt_message_id is None
                clicks.append(h.dispatch(h.interactions.click(ANNA, message, calls[0])))

        h.fake.delay = 0.05
        h.fake.watchers.append(click_at_once)
        table_id = await started(h, ANNA, [])
        await h.settle()
        table = table_of(h, table_id)
        [token] = clicks
        [answer] = callbacks(h, token)
        assert answer.json is not None and answer.json["type"] == UPDATE_MESSAGE
        prompt = h.fake.messages[h.fake.clicked[token]]
        assert answer.data["components"] == [] and prompt.custom_ids() == []
        assert [seat for seat, _ in table.game.hands[0].bids].count(table.seat_of(ANNA.id)) == 1  # counted once
        assert patches_of(h, prompt.id, 0) == []  # no second request to take the buttons away


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


async def test_after_her_first_card_her_hand_is_edited_through_her_last_click(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table, hand = await at_annas_first_card(h)
        await h.click(ANNA, hand, enabled_cards(hand)[0])
        since = len(h.fake.requests)
        await until(h, lambda: not table.running, [ANNA])
        await h.settle()
        edits = patches_of(h, hand.id, since)
        # Each later state of her hand (her turns, the end) went through one of her own clicks on it, none through
        # her DM channel, which Discord would count against the bot's global limit.
        assert len(edits) >= 5 and all(through_click(r) for r in edits)
        assert "the match is over" in hand.content


@pytest.mark.parametrize("status, code", [(401, 50027), (404, 10015), (400, 50035)],
                         ids=["invalid-token", "unknown-webhook", "bad-request"])
async def test_a_refused_edit_through_a_click_goes_through_her_dm_and_the_game_goes_on(
        tmp_path: Path, status: int, code: int) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table, hand = await at_annas_first_card(h)
        h.fake.fail_next(through_click, status, code)
        since = len(h.fake.requests)
        await h.click(ANNA, hand, enabled_cards(hand)[0])
        await to_annas_turn(h, table)
        # Her next turn reached her all the same, by an edit of her DM; the refused click is not asked again.
        assert enabled_cards(hand) and all(button_version(c) == table.version for c in enabled_cards(hand))
        edits = patches_of(h, hand.id, since)
        assert [through_click(r) for r in edits] == [True, False], [r.url for r in edits]
        await until(h, lambda: not table.running, [ANNA])
        assert table.status is TableStatus.FINISHED


@pytest.mark.parametrize("status", [429, 503])
async def test_an_edit_through_a_click_that_may_pass_is_tried_again_the_same_way(tmp_path: Path, status: int) -> None:
    async with Harness(tmp_path / "k.sqlite3", delivery=QUICK) as h:
        table, hand = await at_annas_first_card(h)
        h.fake.fail_next(through_click, status)
        since = len(h.fake.requests)
        await h.click(ANNA, hand, enabled_cards(hand)[0])
        await to_annas_turn(h, table)
        assert all(button_version(c) == table.version for c in enabled_cards(hand))
        assert [through_click(r) for r in patches_of(h, hand.id, since)] == [True, True]


async def test_a_click_whose_token_has_expired_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "TOKEN_LIFETIME", 0.0)  # Discord's 15 minutes, gone at once
    async with Harness(tmp_path / "k.sqlite3") as h:
        table, hand = await at_annas_first_card(h)
        since = len(h.fake.requests)
        await h.click(ANNA, hand, enabled_cards(hand)[0])
        await to_annas_turn(h, table)
        edits = patches_of(h, hand.id, since)
        assert edits and not any(through_click(r) for r in edits)
        assert all(button_version(c) == table.version for c in enabled_cards(hand))


@pytest.mark.parametrize("refused", [False, True], ids=["through-the-click", "refused"])
async def test_the_lobby_says_the_game_is_on_through_the_start_click(tmp_path: Path, refused: bool) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await open_table(h, ANNA)
        message = lobby(h)
        if refused:
            h.fake.fail_next(through_click, 404, 10015)
        since = len(h.fake.requests)
        await h.click(ANNA, message, f"kj:l:{table_id}:start")
        await h.settle()
        table = table_of(h, table_id)
        assert f"<#{table.thread_id}>" in message.content and not message.enabled_ids()
        edits = patches_of(h, message.id, since)
        assert [through_click(r) for r in edits] == ([True, False] if refused else [True])
