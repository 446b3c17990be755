"""Discord's slowness and failures, injected into the offline harness, never freeze a table,
lose an announcement or cost a player their turn; the announcer forgets ended tables.

The outbox itself (order, coalescing, retries, time per request) is tested first, without Discord.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
from faults import FaultyDiscord, edits_of, missing_permissions, posts_in, rate_limited, server_error, with_buttons
from harness import CHANNEL_ID, Harness, Request, StoredMessage, User, discord_error, next_id
from test_discord import ANNA, BERT, CHRIS, SEED, enabled_cards, hand_message, lobby, open_table, play_to_end, play_turn
from test_scenarios import EVA, bot_of, started, thread_of, until, wait_for, with_button

from bot.discord_app import announcer as announcer_module
from bot.discord_app.messages import reminder_message
from bot.discord_app.outbox import DeliveryConfig, Job, Outbox, Undelivered
from bot.tables.model import Actor, Delivery, SeatInfo, Table, TableStatus
from bot.tables.service import ServiceConfig
from engine.actions import Call
from engine.cards import Seat
from engine.game import Phase

FAST = DeliveryConfig(request_timeout=5.0, attempts=3, backoff=(0.001,), max_retry_after=0.05)


# ------------------------------------------------------------------ the outbox alone


async def drained(outbox: Outbox) -> None:
    for _ in range(1000):
        if not outbox.tables:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"the outbox did not drain: {outbox.tables}")


async def test_jobs_run_in_order_and_a_newer_edit_replaces_a_queued_one() -> None:
    outbox = Outbox(FAST)
    ran: list[str] = []
    gate = asyncio.Event()

    async def first() -> None:
        await gate.wait()
        ran.append("first")

    def job(name: str, key: str | None = None) -> Job:
        async def run() -> None:
            ran.append(name)
        return Job(run, key)

    outbox.put(1, Job(first))
    outbox.put(1, job("table image v1", "table"))
    outbox.put(1, job("trick 1"))
    outbox.put(1, job("table image v2", "table"))  # takes the place of v1, after trick 1
    outbox.put(1, job("trick 2"))
    outbox.put(2, job("other table"))  # not behind table 1's stalled job
    await asyncio.sleep(0.01)
    assert ran == ["other table"] and outbox.pending(1) == 3  # "first" runs, three wait
    gate.set()
    await drained(outbox)
    assert ran == ["other table", "first", "trick 1", "table image v2", "trick 2"]


async def test_a_failed_job_goes_again_after_the_next_action_and_a_last_time_at_retirement() -> None:
    outbox = Outbox(FAST)
    tries: list[str] = []
    forgotten: list[int] = []

    def failing(name: str) -> Job:
        async def run() -> None:
            tries.append(name)
            raise Undelivered(name)
        return Job(run)

    outbox.put(7, failing("trick"))
    await asyncio.sleep(0.01)
    assert tries == ["trick"] and outbox.pending(7) == 1  # set aside, not lost

    async def next_action() -> None:
        tries.append("next")

    outbox.put(7, Job(next_action))
    await asyncio.sleep(0.01)
    assert tries == ["trick", "trick", "next"]  # what failed goes first
    outbox.retire(7, lambda: forgotten.append(7))
    await drained(outbox)
    assert tries == ["trick", "trick", "next", "trick"] and forgotten == [7]
    assert outbox.tables == set()


async def test_a_failed_edit_is_not_set_aside_beside_a_newer_one_for_the_same_message() -> None:
    """An edit that fails while a newer edit of its message waits is dropped: the newer one says what it would."""
    outbox = Outbox(FAST)
    tries: list[str] = []
    trying = asyncio.Event()
    release = asyncio.Event()

    def failing(name: str) -> Job:
        async def run() -> None:
            tries.append(name)
            trying.set()
            await release.wait()
            raise Undelivered(name)
        return Job(run, "table")

    outbox.put(3, failing("v1"))
    await trying.wait()
    outbox.put(3, failing("v2"))  # queued while v1 is being tried
    release.set()
    for _ in range(100):
        if len(tries) == 2:
            break
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.01)
    assert tries == ["v1", "v2"] and outbox.pending(3) == 1  # v2 alone waits for the next try
    outbox.retire(3, lambda: None)
    await drained(outbox)
    assert tries == ["v1", "v2", "v2"]


async def test_a_failed_job_goes_again_a_while_later_when_no_action_comes() -> None:
    outbox = Outbox(DeliveryConfig(backoff=(0.001,), later_delay=0.02, later_rounds=2))
    tries: list[float] = []

    async def run() -> None:
        tries.append(asyncio.get_running_loop().time())
        raise Undelivered("prompt")

    outbox.put(3, Job(run, "prompt"))
    await drained(outbox)
    assert len(tries) == 3 and tries[2] - tries[1] >= 0.02  # its first run, then two later rounds; given up


async def test_a_request_gets_bounded_time_and_refusals_are_not_repeated() -> None:
    outbox = Outbox(DeliveryConfig(request_timeout=0.01, attempts=3, backoff=(0.001,)))
    calls: list[str] = []

    async def stalls() -> None:
        calls.append("stall")
        await asyncio.sleep(3600)

    with pytest.raises(Undelivered):
        await outbox.attempt(stalls, "stalling")
    assert calls == ["stall"] * 3

    async def forbidden() -> None:
        calls.append("403")
        raise missing_permissions()

    with pytest.raises(discord.Forbidden):
        await outbox.attempt(forbidden, "forbidden")
    assert calls.count("403") == 1


# ------------------------------------------------------------------ helpers


def table_of(h: Harness, table_id: int) -> Table:
    return bot_of(h).service.get(table_id)


async def click_current(h: Harness, table: Table, user: User) -> str:
    """``user`` takes the first legal action with a button of the current state, as if its message (a DM
    edit, a prompt) had arrived: the click itself must not need the announcements of earlier actions."""
    action = table.game.legal_actions()[0]
    kind = "b" if isinstance(action, Call) else "c"
    value = action.value if isinstance(action, Call) else action.notation
    custom_id = f"kj:{kind}:{table.id}:{table.version}:{value}"
    message = StoredMessage(next_id(), table.thread_id or CHANNEL_ID, "", [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "·", "custom_id": custom_id}]}], 0, [])
    return await h.click(user, message, custom_id)


async def act_for(h: Harness, table: Table, users: list[User], condition: Callable[[], bool]) -> list[str]:
    """The humans act (with current buttons) until ``condition()``; the interaction tokens of their clicks."""
    tokens = []
    for _ in range(200):
        await h.settle()
        if condition() or not table.running:
            return tokens
        user = next((u for u in users if table.seat_of(u.id) is table.game.to_act), None)
        assert user is not None, (table.game.phase, table.game.to_act)
        tokens.append(await click_current(h, table, user))
    raise AssertionError("the condition never held")


def answered(h: Harness, token: str) -> bool:
    """The click was acknowledged (a deferred update, or the clicked message's update: Discord shows no failure)."""
    return any(r.json is not None and r.json.get("type") in (6, 7) for r in h.responses_to(token))


# ------------------------------------------------------------------ a stalled Discord


@dataclass
class StalledRun:
    posts: list[tuple[str, list[str]]]  # thread 1's messages in order: text and attachments
    edits: int  # PATCH requests for table 1's table message and DM hands
    held_while: dict[str, object]  # what was true while Discord held a request


async def match_with_a_stall(db: Path, stall: bool) -> StalledRun:
    """Anna and Bert play a seeded hand, always the first legal action. With ``stall``, Discord holds
    table 1's first request after the first card until two tricks later, and Eva opens a table meanwhile."""
    fake = FaultyDiscord()
    async with Harness(db, fake, delivery=FAST) as h:
        bot_of(h).service.new_seed = lambda: SEED
        table_id = await started(h, ANNA, [BERT])
        table = table_of(h, table_id)
        await act_for(h, table, [ANNA, BERT], lambda: table.game.phase is Phase.PLAY)
        thread = thread_of(h, table_id)
        channels = {thread} | {s.dm_channel_id for s in table.seats if s.dm_channel_id is not None}
        fault = fake.hold(lambda r: any(f"/channels/{c}/" in r.url for c in channels)) if stall else None
        version = table.version
        tokens = await act_for(h, table, [ANNA, BERT], lambda: len(table.game.hand.tricks) >= 2)  # type: ignore[union-attr]
        second = await open_table(h, EVA)
        await h.click(EVA, lobby(h), f"kj:l:{second}:start")
        other = table_of(h, second)
        eva_hand = other.seats[other.seat_of(EVA.id)].hand_message_id  # type: ignore[index]
        held_while = {
            "held": bool(fake.held),
            "actions": table.version - version,
            "clicks answered": all(answered(h, token) for token in tokens) and len(tokens) >= 2,
            "queued": bot_of(h).announcer.outbox.pending(table_id),
            "other table announced": other.table_message_id in fake.messages and eva_hand in fake.messages,
        }
        if fault is not None:
            fault.release.set()
        await act_for(h, table, [ANNA, BERT], lambda: not table.running)
        assert table.status is TableStatus.FINISHED
        hands = {s.hand_message_id for s in table.seats if s.hand_message_id is not None}
        edits = sum(1 for r in fake.requests if r.method == "PATCH" and (
            edits_of(lambda: table.table_message_id)(r) or any(edits_of(lambda m=m: m)(r) for m in hands)))
        posts = [(m.content, m.attachments) for m in fake.in_channel(thread)]
        return StalledRun(posts, edits, held_while)


async def test_a_stalled_request_blocks_no_click_and_no_other_table(tmp_path: Path) -> None:
    run = await match_with_a_stall(tmp_path / "k.sqlite3", stall=True)
    seen = run.held_while
    assert seen["held"], "Discord was holding table 1's request all along"
    assert isinstance(seen["actions"], int) and seen["actions"] >= 8  # two tricks, humans and AI alike
    assert seen["clicks answered"]
    assert isinstance(seen["queued"], int) and seen["queued"] > 0
    assert seen["other table announced"]


async def test_a_stall_keeps_the_order_of_posts_and_coalesces_edits(tmp_path: Path) -> None:
    plain = await match_with_a_stall(tmp_path / "plain.sqlite3", stall=False)
    stalled = await match_with_a_stall(tmp_path / "stalled.sqlite3", stall=True)
    # The same actions were announced in the same order, each post once.
    assert stalled.posts == plain.posts
    # The tricks are told under the match's result (a table with people at it posts none of its own).
    [end] = [text for text, _ in stalled.posts if " win " in text or "draw" in text.lower()]
    tricks = [int(line.split(".")[0]) for line in end.splitlines() if line.split(".")[0].isdigit()]
    assert tricks == list(range(1, 9))
    # While Discord was stalled, only the newest table image and hands were sent.
    assert stalled.edits < plain.edits - 5, (stalled.edits, plain.edits)


async def test_stop_goes_through_while_discord_stalls_and_its_messages_follow(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=FAST) as h:
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        thread = thread_of(h, table_id)
        fault = fake.hold(lambda r: f"/channels/{thread}/" in r.url, times=None)
        await act_for(h, table, [ANNA], lambda: fault.hits >= 1)
        token = await h.command(ANNA, "stop", channel_id=thread)
        assert table.status is TableStatus.STOPPED and h.responses_to(token) and fake.held
        fault.release.set()
        await h.settle()
        assert fake.in_channel(thread)[-1].content == "The table was stopped."
        assert bot_of(h).announcer.outbox.tables == set()


async def test_a_request_that_never_answers_is_given_up_and_tried_again(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=DeliveryConfig(request_timeout=0.05,
                                                                               backoff=(0.001,))) as h:
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        message = table.table_message_id
        fault = fake.hold(edits_of(lambda: message))  # the first edit never gets an answer
        await act_for(h, table, [ANNA], lambda: fault.hits == 1)
        await wait_for(h, lambda: not fake.held, seconds=2)
        assert message is not None and fake.messages[message].edits >= 1  # the next try went through
        assert table.table_message_id == message and not fault.release.is_set()


# ------------------------------------------------------------------ failing requests


async def test_a_prompt_that_fails_with_5xx_is_posted_on_a_later_try(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=FAST) as h:
        fake.fail(lambda r: bool(fake.threads) and posts_in(lambda: fake.threads[-1])(r) and with_buttons("kj:b:")(r),
                  server_error, times=2)
        table_id = await started(h, ANNA, [BERT, CHRIS, EVA], bidding="verplicht")
        table = table_of(h, table_id)
        [prompt] = with_button(h, thread_of(h, table_id), "kj:b:")
        assert len(fake.failed) == 2 and table.prompt_message_id == prompt.id
        seat = table.game.to_act
        assert seat is not None and table.turn_prompts[seat] == (table.version, True)  # delivered: a miss would count
        mover = next(u for u in (ANNA, BERT, CHRIS, EVA) if table.seat_of(u.id) is seat)
        await h.click(mover, prompt, prompt.custom_ids()[0])
        assert table.game.phase is Phase.PLAY and prompt.custom_ids() == []


async def test_a_prompt_that_fails_every_try_is_posted_again_within_the_turn(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    delivery = DeliveryConfig(request_timeout=5.0, attempts=3, backoff=(0.001,), later_delay=0.05)
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=delivery) as h:
        fake.fail(lambda r: bool(fake.threads) and posts_in(lambda: fake.threads[-1])(r) and with_buttons("kj:b:")(r),
                  server_error, times=delivery.attempts)
        table_id = await started(h, ANNA, [BERT, CHRIS, EVA], bidding="verplicht")
        table = table_of(h, table_id)
        version = table.version
        assert not with_button(h, thread_of(h, table_id), "kj:b:") and len(fake.failed) == delivery.attempts
        await wait_for(h, lambda: bool(with_button(h, thread_of(h, table_id), "kj:b:")), seconds=2)
        assert table.version == version and table.prompt_message_id is not None  # nobody had to act first
        seat = table.game.to_act
        assert seat is not None and table.turn_prompts[seat] == (version, True)


async def test_a_post_that_fails_every_try_is_posted_after_the_next_action(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=FAST) as h:
        table_id = await started(h, ANNA, [], length="2")
        thread = thread_of(h, table_id)
        fake.fail(posts_in(lambda: thread, "Hand 1:"), server_error, times=FAST.attempts)
        await play_to_end(h, table_id, [ANNA])
        assert len(fake.failed) == FAST.attempts
        texts = [m.content for m in fake.in_channel(thread)]
        assert sum(text.startswith("Hand 1:") for text in texts) == 1


def playable_hand(r: Request) -> bool:
    """An edit of a hand with cards to play (its DM, or the clicked hand through the click): Anna's, the one
    human hand, at her turn."""
    return r.method == "PATCH" and any(b.get("custom_id", "").startswith("kj:c:") and not b.get("disabled")
                                       for row in r.data.get("components") or [] for b in row.get("components", []))


async def at_annas_first_card(h: Harness) -> tuple[int, Table, Seat, SeatInfo]:
    """A four-hand match of Anna's against the AI, at her first card to play: the table's id, the table, her seat
    and its info."""
    table_id = await started(h, ANNA, [], length="4")
    table = table_of(h, table_id)
    seat = table.seat_of(ANNA.id)
    assert seat is not None
    await until(h, lambda: table.game.phase is Phase.PLAY and table.game.to_act is seat, [ANNA])
    return table_id, table, seat, table.seats[seat]


async def play_until_a_hand_fails(h: Harness, table_id: int, fake: FaultyDiscord) -> None:
    """Anna plays her turn, and her next ones while none of her hands failed to arrive: when she takes the trick
    and leads, the answer to her click shows her next turn too, and that turn is hers to play."""
    table = table_of(h, table_id)
    assert await play_turn(h, table_id, ANNA)
    await h.settle()
    while not fake.failed and table.game.to_act is table.seat_of(ANNA.id):
        assert await play_turn(h, table_id, ANNA)
        await h.settle()


async def test_a_dm_hand_that_cannot_be_delivered_falls_back_to_the_thread_and_costs_no_turn(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3.0)  # Anna answers her other turns in time, busy or not
    async with Harness(tmp_path / "k.sqlite3", fake, config=config, delivery=FAST) as h:
        table_id, table, _, info = await at_annas_first_card(h)
        fake.fail(playable_hand, server_error, times=None)  # her turn's hand, every try
        await play_until_a_hand_fails(h, table_id, fake)  # her current DM still works; her next turn's does not
        await wait_for(h, lambda: Actor.TIMER in table.actors)
        assert len(fake.failed) == FAST.attempts
        assert info.delivery is Delivery.THREAD and info.misses == 0 and not info.away
        thread = thread_of(h, table_id)
        [fallback] = [m for m in fake.in_channel(thread) if "could not be delivered" in m.content]
        assert f"<@{ANNA.id}>" in fallback.content and fallback.custom_ids() == [f"kj:h:{table_id}"]
        [ping] = [r for r in fake.requests if r.content == fallback.content]
        assert ping.json is not None and ping.json["allowed_mentions"]["users"] == [ANNA.id]
        # Her next turn's ping reaches her in the thread: that turn, run out, does count.
        await wait_for(h, lambda: table.actors.count(Actor.TIMER) == 2)
        assert info.misses == 1 and not info.away


def announce_turns_late(h: Harness, monkeypatch: pytest.MonkeyPatch, seat: Seat,
                        until: Callable[[], bool]) -> list[asyncio.Task[None]]:
    """The announcer hears of ``seat``'s turns to play only once ``until()`` holds (its hand, synced as the
    table is now, may show a turn before the turn's announcement comes): the delayed announcements' tasks."""
    announcer = bot_of(h).announcer
    announce, late = announcer.queue_prompt, []

    def when_until_holds(table: Table) -> None:
        if table.game.to_act is not seat or table.game.phase is not Phase.PLAY or until():
            announce(table)
            return

        async def announce_late() -> None:
            while not until():
                await asyncio.sleep(0.01)
            announce(table)
        late.append(asyncio.create_task(announce_late()))

    monkeypatch.setattr(announcer, "queue_prompt", when_until_holds)
    return late


async def test_a_turn_announced_after_its_hand_fell_back_is_not_pinged_again_and_costs_no_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FaultyDiscord()
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=3.0)
    # A reminder at half a turn says "your turn" too, and on a busy machine one comes (of her call, or of this
    # turn) before the hand has fallen back: marked, reminders are told apart from the turn's ping, which this
    # test is about.
    monkeypatch.setattr(announcer_module, "reminder_message", lambda table_, user_id: dataclasses.replace(
        reminder_message(table_, user_id), content="(reminder)"))
    async with Harness(tmp_path / "k.sqlite3", fake, config=config, delivery=FAST) as h:
        table_id, table, seat, info = await at_annas_first_card(h)
        late = announce_turns_late(h, monkeypatch, seat, lambda: info.delivery is Delivery.THREAD)
        fake.fail(playable_hand, server_error, times=None)
        await play_until_a_hand_fails(h, table_id, fake)
        await wait_for(h, lambda: bool(late) and all(task.done() for task in late))
        # Anna has been told once: that her cards are in the thread.
        thread = thread_of(h, table_id)
        told = [m.content for m in fake.in_channel(thread) if m.content.startswith(f"<@{ANNA.id}>, your")]
        assert len(told) == 1 and "could not be delivered" in told[0]
        await wait_for(h, lambda: Actor.TIMER in table.actors)
        assert info.delivery is Delivery.THREAD and info.misses == 0 and not info.away


async def test_a_turn_announced_after_its_hand_arrived_counts_when_missed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FaultyDiscord()
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=1.0)
    async with Harness(tmp_path / "k.sqlite3", fake, config=config, delivery=FAST) as h:
        table_id, table, seat, info = await at_annas_first_card(h)
        announcer = bot_of(h).announcer
        sync_hand, shown = announcer.sync_hand, set()

        async def sync_and_note(table_: Table, seat_: Seat) -> None:  # notes the turns her hand showed
            version = table_.version
            await sync_hand(table_, seat_)
            if seat_ is seat and table_.version == version and table_.game.to_act is seat \
                    and enabled_cards(hand_message(h, table_id, ANNA)):
                shown.add(version)

        monkeypatch.setattr(announcer, "sync_hand", sync_and_note)
        late = announce_turns_late(h, monkeypatch, seat, lambda: table.version in shown)
        assert await play_turn(h, table_id, ANNA)
        await wait_for(h, lambda: Actor.TIMER in table.actors)
        assert late, "no turn of hers was announced after her hand showed it"
        assert info.misses == 1  # her cards were there to play: the turn she let run out counts


async def test_a_rate_limited_post_waits_and_keeps_its_place(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=FAST) as h:
        table_id = await started(h, ANNA, [], length="3")
        thread = thread_of(h, table_id)
        fake.fail(posts_in(lambda: thread, "Hand 1:"), lambda: rate_limited(0.02))
        await play_to_end(h, table_id, [ANNA])
        texts = [m.content for m in fake.in_channel(thread)]
        assert [int(t.split(":")[0].split()[1]) for t in texts if re.match(r"Hand \d+:", t)] == [1, 2, 3]
        [(failed_at, _, _)] = [e for e in fake.log if e[1] == "failed"]
        [posted_at] = [at for at, what, r in fake.log if what == "ok" and r.content.startswith("Hand 1:")]
        assert posted_at - failed_at >= 0.02  # Discord's retry_after, not the backoff


@pytest.mark.parametrize(("status", "sent"), [(500, 1), (502, 1), (504, 1), (503, FAST.attempts)])
async def test_a_server_error_is_tried_again_by_one_layer_only(tmp_path: Path, status: int, sent: int) -> None:
    """discord.py sends a request five times on a 500, 502, 504 or 524 before it raises (the fake answers for
    its HTTPClient.request): the outbox takes that as final, so a failing request goes out five times, not
    fifteen. What discord.py raises at once (a 503) the outbox tries ``attempts`` times."""
    fake = FaultyDiscord()
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=FAST) as h:
        client = bot_of(h)
        channel = client.get_partial_messageable(CHANNEL_ID)
        fake.fail(posts_in(lambda: CHANNEL_ID, "probe"), lambda: discord_error(status, 0, "failed"), times=None)
        with pytest.raises(Undelivered):
            await client.announcer.outbox.attempt(lambda: channel.send("probe"), "a probe")
        assert len(fake.failed) == sent


async def test_a_deleted_table_message_is_posted_again_and_remembered(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", FaultyDiscord(), delivery=FAST) as h:
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        old = table.table_message_id
        assert old is not None
        del h.fake.messages[old]  # a moderator deleted it: the next edit gets 10008
        await until(h, lambda: table.table_message_id != old, [ANNA])
        new = table.table_message_id
        assert new in h.fake.messages and h.fake.messages[new].attachments == ["table.png"]
        stored = await bot_of(h).store.load_table(table_id)
        assert stored is not None and stored.table_message_id == new
        await until(h, lambda: h.fake.messages[new].edits > 0, [ANNA])  # later edits go to the new one


async def test_a_thread_that_forbids_posting_is_left_alone_and_costs_no_turn(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    config = ServiceConfig(ai_pause=0, deal_pause=0, turn_time=0.2)
    async with Harness(tmp_path / "k.sqlite3", fake, config=config, delivery=FAST) as h:
        await h.command(ANNA, "hand", delivery="thread")  # her prompts and turn pings are all in the thread
        fake.fail(lambda r: any(f"/channels/{t}/" in r.url for t in fake.threads), missing_permissions, times=None)
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        await wait_for(h, lambda: not table.running, seconds=20)
        info = table.seats[table.seat_of(ANNA.id)]  # type: ignore[index]
        assert table.status is TableStatus.FINISHED and Actor.TIMER in table.actors
        assert info.misses == 0 and not info.away  # not one of her turns reached her
        assert len(fake.failed) == 1  # refused once, then not asked again (invalid requests earn a ban)
        assert bot_of(h).announcer.tables == {} and bot_of(h).announcer.outbox.tables == set()


# ------------------------------------------------------------------ ended tables are forgotten


async def test_a_finished_table_leaves_nothing_behind_in_the_announcer(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", FaultyDiscord(), delivery=FAST) as h:
        table_id = await started(h, ANNA, [BERT])
        announcer = bot_of(h).announcer
        await play_to_end(h, table_id, [ANNA, BERT])
        assert table_of(h, table_id).status is TableStatus.FINISHED
        assert announcer.outbox.tables == set() and announcer.tables == {}


async def test_a_stopped_table_forgets_its_roem_button(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", FaultyDiscord(), delivery=FAST) as h:
        bot_of(h).service.new_seed = lambda: SEED + 1  # a deal with roem in its one hand
        users = [ANNA, BERT, CHRIS, EVA]
        table_id = await started(h, ANNA, users[1:], roem="declared", length="1")
        announcer = bot_of(h).announcer
        await until(h, lambda: table_id in announcer.tables and announcer.tables[table_id].roem is not None, users)
        await h.command(ANNA, "stop", channel_id=thread_of(h, table_id))
        assert table_of(h, table_id).status is TableStatus.STOPPED
        assert table_id not in announcer.tables and announcer.outbox.tables == set()


async def test_a_stopped_table_gets_a_last_try_then_is_forgotten(tmp_path: Path) -> None:
    fake = FaultyDiscord()
    delivery = DeliveryConfig(request_timeout=5.0, attempts=3, backoff=(0.001,), later_rounds=100)
    async with Harness(tmp_path / "k.sqlite3", fake, delivery=delivery) as h:
        table_id = await started(h, ANNA, [])
        table = table_of(h, table_id)
        thread = thread_of(h, table_id)
        fake.fail(edits_of(lambda: table.table_message_id), server_error, times=None)
        await until(h, lambda: len(table.game.hand.tricks) == 1, [ANNA])  # type: ignore[union-attr]
        await h.settle()  # the jobs queued behind the failing edit have gone out
        announcer = bot_of(h).announcer
        assert announcer.outbox.pending(table_id) == 1  # set aside until the next action
        failed = len(fake.failed)
        await h.command(ANNA, "stop", channel_id=thread)
        assert table.status is TableStatus.STOPPED
        assert len(fake.failed) == failed + FAST.attempts  # its last try
        assert announcer.outbox.tables == set()
        assert any(m.content == "The table was stopped." for m in fake.in_channel(thread))
