"""A table's life through the offline harness: where a table may open, what is left when its
first answer fails, lobbies that expire, the mentions of the lobby answer, tables leaving memory once
over, the indexes that find them, and hints that never hold up an AI move."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import discord
import pytest
from faults import FaultyDiscord
from harness import CHANNEL_ID, GUILD_ID, FakeDiscord, Harness, Request, User, _error
from test_discord import ANNA, BERT, CHRIS, button, hand_message, lobby, open_table, play_turn

from bot.discord_app import announcer
from bot.discord_app.client import KlaverjasBot
from bot.discord_app.config import ConfigError, load_config
from bot.tables import thinking
from bot.tables.errors import ServiceError
from bot.tables.model import Actor, SeatInfo, SeatKind, Table, TableSettings, TableStatus
from bot.tables.service import ServiceConfig, TableService
from bot.texts.language import Language
from engine.cards import Seat
from engine.view import SeatView

QUICK = dict(ai_pause=0.0, deal_pause=0.0, turn_time=600.0)
UNKNOWN_TABLE = "That table no longer exists."
HANG_GUARD = 300.0  # seconds: ends a wait that only a broken bot would make endless


def bot_of(h: Harness) -> KlaverjasBot:
    assert h.bot is not None
    return h.bot


# ------------------------------------------------------------------ a fake Discord that fails on demand


@dataclass
class Fault:
    """The next ``times`` requests matching ``method`` and ``path`` (a route template) fail with ``error``."""

    method: str
    path: str
    error: Callable[[], discord.HTTPException]
    times: int = 1


@dataclass
class FailingDiscord(FakeDiscord):
    faults: list[Fault] = field(default_factory=list)

    def fail(self, method: str, path: str, error: Callable[[], discord.HTTPException], times: int = 1) -> None:
        self.faults.append(Fault(method, path, error, times))

    async def answer(self, request: Request) -> Any:
        for fault in self.faults:
            if fault.times and fault.method == request.method and fault.path == request.path:
                fault.times -= 1
                self.requests.append(request)
                raise fault.error()
        return await super().answer(request)


CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
CHANNEL_POST = "/channels/{channel_id}/messages"
MESSAGE_EDIT = "/channels/{channel_id}/messages/{message_id}"


def unknown_interaction() -> discord.HTTPException:
    return _error(discord.NotFound, 404, 10062, "Unknown interaction")


def server_error() -> discord.HTTPException:
    return _error(discord.DiscordServerError, 503, 0, "Service Unavailable")


def missing_permissions() -> discord.HTTPException:
    return _error(discord.Forbidden, 403, 50013, "Missing Permissions")


def missing_access() -> discord.HTTPException:
    return _error(discord.Forbidden, 403, 50001, "Missing Access")


def unknown_message() -> discord.HTTPException:
    return _error(discord.NotFound, 404, 10008, "Unknown Message")


# ------------------------------------------------------------------ helpers


async def stored_tables(h: Harness) -> list[tuple[int, str]]:
    async with bot_of(h).store.db.execute("SELECT id, status FROM tables ORDER BY id") as cursor:
        return [(row["id"], row["status"]) for row in await cursor.fetchall()]


async def start_table(h: Harness, host: User, guests: tuple[User, ...] = (), **options: str) -> Table:
    table_id = await open_table(h, host, **options)
    for guest in guests:
        await h.click(guest, lobby(h), f"kj:l:{table_id}:join")
    await h.click(host, lobby(h), f"kj:l:{table_id}:start")
    table = bot_of(h).service.get(table_id)
    assert table.running and table.thread_id is not None
    return table


async def play_through(h: Harness, table: Table, users: list[User]) -> None:
    """Play the match out through the players' buttons; the table may leave memory as soon as it ends."""
    for _ in range(400):
        await h.settle()
        if not table.running:
            return
        for user in users:
            if table.running and table.game.to_act is table.seat_of(user.id):
                with contextlib.suppress(ServiceError):  # the match just ended and the table left memory
                    await play_turn(h, table.id, user)
    raise AssertionError("the match did not end")


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait (in small steps) for a timer of the bot; the timers in these tests are short."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


# ------------------------------------------------------------------ 1. one table per thread, one lobby per channel


async def test_start_in_a_table_thread_is_refused_privately_in_the_users_language(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, retire_after=0.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        table = await start_table(h, ANNA, length="1")
        thread = table.thread_id
        assert thread is not None
        before = await stored_tables(h)
        posted = len(h.fake.messages)
        token = await h.command(BERT, "start", channel_id=thread)
        assert h.private_replies(token) == [
            f"This thread belongs to table #{table.id}: one table per thread. Open a new table with /klaverjas "
            "start in the channel, or press Rematch when the match is over."]
        token = await h.command(CHRIS, "start", channel_id=thread)  # Chris's Discord speaks Dutch
        [dutch] = h.private_replies(token)
        assert dutch.startswith(f"Deze draad hoort bij tafel #{table.id}: één tafel per draad.")
        # Nothing changed: no table, no public lobby, no "You joined" DM.
        assert await stored_tables(h) == before
        assert all(m.flags & 64 for m in list(h.fake.messages.values())[posted:])
        assert not h.fake.dms_of(BERT.id)
        # Still refused once the match is over and the table has left memory (the store knows the thread).
        await play_through(h, table, [ANNA])
        await until(lambda: table.id not in bot_of(h).service.tables)
        token = await h.command(BERT, "start", channel_id=thread)
        assert h.private_replies(token)[0].startswith(f"This thread belongs to table #{table.id}")
        assert len(await stored_tables(h)) == len(before)


async def test_one_open_lobby_per_channel(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        first = await open_table(h, ANNA)
        token = await h.command(BERT, "start")
        assert h.private_replies(token) == [
            f"Table #{first} (host: Anna) is already waiting for players here: one open table per channel. Join it "
            "with its Join button or /klaverjas join."]
        assert [table_id for table_id, _ in await stored_tables(h)] == [first]
        # /klaverjas join finds the one lobby.
        token = await h.command(BERT, "join")
        assert h.private_replies(token)[0].startswith("You sit")
        # Once it has started, the channel is free for the next lobby.
        await h.click(ANNA, lobby(h), f"kj:l:{first}:start")
        second = await open_table(h, CHRIS)
        assert second != first and bot_of(h).service.lobby_in_channel(CHANNEL_ID) is bot_of(h).service.get(second)


async def test_two_starts_at_once_open_one_lobby(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        tokens = await asyncio.gather(h.command(ANNA, "start"), h.command(BERT, "start"))
        assert len(await stored_tables(h)) == 1
        refused = [r for token in tokens for r in h.private_replies(token)]
        assert len(refused) == 1 and "already waiting for players here" in refused[0]


# ------------------------------------------------------------------ 2. no orphan when the first answer fails


@pytest.mark.parametrize("failure", [unknown_interaction, server_error], ids=["10062", "503"])
async def test_a_failed_first_answer_leaves_no_table(tmp_path: Path, failure: Callable[[], Any]) -> None:
    fake = FailingDiscord()
    db = tmp_path / "k.sqlite3"
    async with Harness(db, fake) as h:
        fake.fail("POST", CALLBACK, failure)
        token = await h.command(ANNA, "start")
        assert [r.path for r in h.responses_to(token)] == [CALLBACK]  # the one answer, which failed
        assert not bot_of(h).service.tables and await stored_tables(h) == []
        assert not h.fake.dms_of(ANNA.id)  # no "You joined table #…"
        # The channel is not blocked: the next start opens the one lobby, and /klaverjas join finds it.
        table_id = await open_table(h, ANNA)
        token = await h.command(BERT, "join")
        assert h.private_replies(token)[0].startswith("You sit")
        assert [table_id] == [t for t, _ in await stored_tables(h)]
    async with Harness(db, fake) as h2:
        assert list(bot_of(h2).service.tables) == [table_id]


async def store_unposted_lobby(h: Harness, channel_id: int) -> int:
    """A lobby as the bot leaves it when it stops between storing the lobby and posting its message."""
    table = Table(id=0, host_id=BERT.id, settings=TableSettings(), seed=1, guild_id=GUILD_ID,
                  channel_id=channel_id)
    table.seats[Seat.S] = SeatInfo(SeatKind.HUMAN, BERT.id, BERT.name)
    return await bot_of(h).store.create_table(table)


def lobbies_in(h: Harness, channel_id: int) -> list[int]:
    """The tables whose lobby (with its Start button) this channel shows."""
    return [int(i.split(":")[2]) for m in h.fake.in_channel(channel_id) for i in m.custom_ids()
            if i.startswith("kj:l:") and i.endswith(":start")]


async def test_a_stored_lobby_without_its_message_is_posted_at_restart(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    async with Harness(db, fake) as h:
        kept = await open_table(h, ANNA)
        unposted = await store_unposted_lobby(h, CHANNEL_ID + 1)
    async with Harness(db, fake) as h2:
        # Posted late rather than never: the channel's one lobby is one people can see, join and start.
        assert sorted(bot_of(h2).service.tables) == [kept, unposted]
        assert lobbies_in(h2, CHANNEL_ID) == [kept] and lobbies_in(h2, CHANNEL_ID + 1) == [unposted]
        token = await h2.command(ANNA, "join", channel_id=CHANNEL_ID + 1)
        assert h2.private_replies(token)[0].startswith("You sit")
        [message] = [m for m in h2.fake.in_channel(CHANNEL_ID + 1) if m.custom_ids()]
        assert "Anna" in message.content  # the lobby message follows the table
        token = await h2.command(ANNA, "start", channel_id=CHANNEL_ID + 1)
        assert "already waiting for players here" in h2.private_replies(token)[0]
    async with Harness(db, fake) as h3:  # posted once: the next restart has its id
        assert lobbies_in(h3, CHANNEL_ID + 1) == [unposted]


async def test_a_stored_lobby_without_its_message_past_its_time_is_dropped_at_restart(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    async with Harness(db, fake) as h:
        orphan = await store_unposted_lobby(h, CHANNEL_ID + 1)
    await asyncio.sleep(0.1)
    async with Harness(db, fake, config=ServiceConfig(**QUICK, lobby_timeout=0.05)) as h2:
        assert not bot_of(h2).service.tables and await bot_of(h2).store.load_table(orphan) is None
        assert not h2.fake.in_channel(CHANNEL_ID + 1)  # not posted only to say it closed


async def test_a_restored_lobby_is_posted_when_the_channel_cannot_be_read(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FailingDiscord()
    async with Harness(db, fake) as h:
        unposted = await store_unposted_lobby(h, CHANNEL_ID)
    fake.fail("GET", CHANNEL_POST, missing_access)
    async with Harness(db, fake) as h2:
        assert [r.method for r in fake.requests if r.path == CHANNEL_POST] == ["GET", "POST"]
        assert lobbies_in(h2, CHANNEL_ID) == [unposted]
        assert bot_of(h2).service.get(unposted).lobby_message_id == lobby(h2).id


@pytest.mark.parametrize("failure", [missing_permissions, server_error], ids=["50013", "503"])
async def test_a_restored_lobby_discord_will_not_post_is_dropped(tmp_path: Path,
                                                                 failure: Callable[[], Any]) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FailingDiscord()
    async with Harness(db, fake) as h:
        table = await start_table(h, ANNA, length="1")
        await play_through(h, table, [ANNA])
        # The bot made the rematch and stopped before posting its lobby.
        rematch = await bot_of(h).service.rematch(table.id, ANNA.id, ANNA.name)
    fake.fail("POST", CHANNEL_POST, failure, times=10)
    async with Harness(db, fake) as h2:
        assert not bot_of(h2).service.tables and lobbies_in(h2, CHANNEL_ID) == []
        assert await bot_of(h2).store.load_table(rematch.id) is None
        fake.faults.clear()
        # Nothing blocks the channel, and Rematch makes the rematch again.
        [end] = [m for m in h2.fake.in_channel(table.thread_id or 0) if f"kj:rm:{table.id}" in m.custom_ids()]
        token = await h2.click(ANNA, end, f"kj:rm:{table.id}")
        [again] = lobbies_in(h2, CHANNEL_ID)
        assert again != rematch.id and h2.private_replies(token)[-1].startswith(f"Rematch: table #{again} is open")


# ------------------------------------------------------------------ lobbies expire


async def test_a_lobby_nobody_starts_expires_with_a_note(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, lobby_timeout=1.0, retire_after=0.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        table_id = await open_table(h, ANNA)
        await h.click(BERT, lobby(h), f"kj:l:{table_id}:join")
        message = lobby(h)
        seen = copy.deepcopy(message)  # the lobby as a player still has it on screen
        await until(lambda: not bot_of(h).service.tables)
        assert message.content.endswith("Nobody started this table in time, so it closed. Open a new one with "
                                        "/klaverjas start.")
        assert message.custom_ids() == [] and "Bert" in message.content
        assert await stored_tables(h) == [(table_id, "stopped")]
        assert bot_of(h).service.registry.index_sizes() == (0, 0, 0)
        # A click on the old buttons is refused privately; a new lobby may open in the channel.
        token = await h.click(BERT, seen, f"kj:l:{table_id}:join")
        assert h.private_replies(token) == [UNKNOWN_TABLE]
        assert await open_table(h, BERT) != table_id


async def test_a_started_lobby_does_not_expire(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, lobby_timeout=1.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        table = await start_table(h, ANNA)
        await asyncio.sleep(1.2)  # past the lobby's time
        assert table.running and "Nobody started" not in lobby(h).content


async def test_an_expiring_lobby_whose_message_was_deleted(tmp_path: Path) -> None:
    fake = FailingDiscord()
    config = ServiceConfig(**QUICK, lobby_timeout=0.3, retire_after=0.0)
    async with Harness(tmp_path / "k.sqlite3", fake, config=config) as h:
        table_id = await open_table(h, ANNA)
        fake.fail("PATCH", MESSAGE_EDIT, unknown_message)
        await until(lambda: not bot_of(h).service.tables)
        assert await stored_tables(h) == [(table_id, "stopped")]
        assert [r for r in fake.requests if r.method == "PATCH"][-1].content.endswith("closed. Open a new one with "
                                                                                     "/klaverjas start.")


async def test_a_lobby_expires_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    fake = FakeDiscord()
    async with Harness(db, fake) as h:
        table_id = await open_table(h, ANNA)
    # Its time counts from when it opened, not from the restart.
    config = ServiceConfig(**QUICK, lobby_timeout=0.2, retire_after=0.0)
    async with Harness(db, fake, config=config) as h2:
        await until(lambda: not bot_of(h2).service.tables)
        assert await stored_tables(h2) == [(table_id, "stopped")]
        assert "Nobody started this table in time" in lobby(h2).content


# ------------------------------------------------------------------ 3. the host's name pings nobody


async def test_the_lobby_answer_pings_nobody_whatever_the_hosts_name(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        prankster = User(1066, "@everyone <@&555> <@1002>")
        token = await h.command(prankster, "start")
        [callback] = h.responses_to(token)
        assert "@everyone <@&555> <@1002>" in callback.content
        assert callback.json is not None and callback.data["allowed_mentions"] == {"parse": []}


# ------------------------------------------------------------------ 4. memory: eviction and indexes


async def test_finished_tables_leave_memory_and_rematch_still_works(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, retire_after=0.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        service = bot_of(h).service
        finished: list[Table] = []
        for _ in range(3):
            table = await start_table(h, ANNA, length="1")
            if not finished:
                old_hand = copy.deepcopy(hand_message(h, table.id, ANNA))  # with its card buttons
            await play_through(h, table, [ANNA])
            finished.append(table)
        await until(lambda: not service.tables)
        assert all(t.status is TableStatus.FINISHED for t in finished)
        assert service.registry.index_sizes() == (0, 0, 0)
        # An old hand's button answers privately; the commands find no table for Anna.
        token = await h.click(ANNA, old_hand, old_hand.custom_ids()[0])
        assert h.private_replies(token) == [UNKNOWN_TABLE]
        token = await h.command(ANNA, "hand")
        assert h.private_replies(token) == ["You are not at any table. Start one with /klaverjas start."]
        # Rematch from the first match's end message: read from the store, once.
        last = finished[0]
        [end] = [m for m in h.fake.in_channel(last.thread_id or 0) if any(i.startswith("kj:rm:") for i in
                                                                            m.custom_ids())]
        token = await h.click(ANNA, end, button(end, "kj:rm:"))
        rematch = service.lobby_in_channel(CHANNEL_ID)
        assert rematch is not None and rematch.seat_of(ANNA.id) is Seat.S
        assert h.private_replies(token)[-1].startswith(f"Rematch: table #{rematch.id} is open")
        assert last.id not in service.tables  # the match stays where it was: in the store only
        stored = await bot_of(h).store.load_table(last.id)
        assert stored is not None and stored.rematch_id == rematch.id
        token = await h.click(ANNA, end, button(end, "kj:rm:"))
        assert h.private_replies(token)[-1] == f"The rematch is already open: table #{rematch.id}."
        # Once that rematch was stopped, the button opens another.
        await h.command(ANNA, "stop")
        assert rematch.status is TableStatus.STOPPED
        await h.click(ANNA, end, button(end, "kj:rm:"))
        again = service.lobby_in_channel(CHANNEL_ID)
        assert again is not None and again.id > rematch.id
        await h.click(ANNA, lobby(h), f"kj:l:{again.id}:start")
        assert again.running


async def test_a_rematch_whose_lobby_cannot_be_posted_is_not_kept(tmp_path: Path) -> None:
    fake = FailingDiscord()
    config = ServiceConfig(**QUICK, retire_after=0.0)
    async with Harness(tmp_path / "k.sqlite3", fake, config=config) as h:
        table = await start_table(h, ANNA, length="1")
        await play_through(h, table, [ANNA])
        [end] = [m for m in h.fake.in_channel(table.thread_id or 0) if any(i.startswith("kj:rm:") for i in
                                                                             m.custom_ids())]
        fake.fail("POST", CHANNEL_POST, missing_permissions)
        token = await h.click(ANNA, end, button(end, "kj:rm:"))
        assert h.private_replies(token)[-1].startswith("The new table's message could not be posted")
        assert [t for t, _ in await stored_tables(h)] == [table.id]
        stored = await bot_of(h).store.load_table(table.id)
        assert stored is not None and stored.rematch_id is None
        # Discord lets the bot post again: the rematch opens.
        token = await h.click(ANNA, end, button(end, "kj:rm:"))
        assert "is open" in h.private_replies(token)[-1]
        assert bot_of(h).service.lobby_in_channel(CHANNEL_ID) is not None


class NoScan(dict[int, Table]):
    """A table map that fails a test which walks through all the tables."""

    def _scan(self, *args: object) -> Any:
        raise AssertionError("a lookup walked through every table")

    __iter__ = values = items = keys = _scan  # type: ignore[assignment]


async def test_lookups_use_the_indexes() -> None:
    service = TableService(None, ServiceConfig(**QUICK, retire_after=0.0))
    try:
        count = 300
        tables = [await service.create_table(host_id=10_000 + i, host_name=f"P{i}", settings=TableSettings(),
                                             channel_id=i) for i in range(count)]
        for table in tables[::3]:
            await service.keep_discord(table, partial(setattr, table, "thread_id",
                                                      50_000 + table.channel_id))  # type: ignore[operator]
        service.registry.tables = NoScan(service.registry.tables)
        for i, table in enumerate(tables):
            assert service.find_user_table(10_000 + i) is table
            assert service.lobby_in_channel(i) is table
            assert service.table_in_channel(50_000 + i) is (table if i % 3 == 0 else None)
        # Seats and status changes move the indexes with them.
        await service.join(tables[5].id, 77, "Guest")
        assert service.find_user_table(77) is tables[5]
        await service.join(tables[6].id, 77, "Guest")
        with pytest.raises(ServiceError) as which:
            service.find_user_table(77)
        assert which.value.code == "which_table"
        assert service.find_user_table(77, channel_id=6) is tables[6]
        await service.leave(tables[5].id, 77)
        assert service.find_user_table(77) is tables[6]
        await service.stop(tables[6].id, 10_006)
        with pytest.raises(ServiceError) as nowhere:
            service.find_user_table(77)
        assert nowhere.value.code == "not_seated_anywhere"
        assert service.lobby_in_channel(6) is None
        with pytest.raises(ServiceError) as opened:
            await service.create_table(host_id=1, host_name="Q", settings=TableSettings(), channel_id=7)
        assert opened.value.code == "lobby_open_here"
        await until(lambda: tables[6].id not in service.registry.tables)
        assert service.registry.index_sizes() == (count // 3 - 1, count - 1, count - 1)
    finally:
        service.registry.tables = dict(dict.items(service.registry.tables))  # a plain map again, for close()
        await service.close()


# ------------------------------------------------------------------ 5. hints: a cooldown, and a worker of their own


async def anna_to_act(h: Harness, table: Table) -> None:
    """Let the AI players act until it is Anna's turn."""
    await until(lambda: table.game.to_act is table.seat_of(ANNA.id))
    await h.settle()


# A hint as the bot words it: the action, and the reason after a colon where one can be given.
HINT = re.compile(r"^(Play \S+|Pass|Play|Trump \S+ \(\w+\)|Roem!|No roem)(: .+)?$")


async def test_hints_have_a_cooldown_per_person(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, hint_cooldown=30.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        service = bot_of(h).service
        now = [1000.0]
        service.clock = lambda: now[0]
        table = await start_table(h, ANNA)
        await anna_to_act(h, table)
        thread = table.thread_id or 0
        token = await h.command(ANNA, "hint", channel_id=thread)
        assert [r for r in h.private_replies(token) if HINT.match(r)]
        now[0] += 12.2
        version = table.version
        token = await h.command(ANNA, "hint", channel_id=thread)
        assert h.private_replies(token) == ["Wait 18 s before asking for another hint."]
        assert [r.json["type"] for r in h.responses_to(token) if r.json] == [4]  # answered at once, not deferred
        assert table.version == version and bot_of(h).thinker.hints_waiting == 0
        now[0] += 18
        token = await h.command(ANNA, "hint", channel_id=thread)
        assert [r for r in h.private_replies(token) if HINT.match(r)]
        # However many people ask, the hint worker's queue stays short.
        now[0] += 30
        bot_of(h).thinker.hints_waiting = config.hint_queue
        token = await h.command(ANNA, "hint", channel_id=thread)
        assert h.private_replies(token) == ["Many hints are being worked out right now; ask again in a moment."]
        bot_of(h).thinker.hints_waiting = 0
        token = await h.command(ANNA, "hint", channel_id=thread)
        assert [r for r in h.private_replies(token) if HINT.match(r)]  # the refusal did not start a cooldown


async def test_the_hint_cooldown_is_said_in_dutch(tmp_path: Path) -> None:
    config = ServiceConfig(**QUICK, hint_cooldown=30.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        table = await start_table(h, CHRIS)
        await until(lambda: table.game.to_act is table.seat_of(CHRIS.id))
        await h.settle()
        await h.command(CHRIS, "hint", channel_id=table.thread_id or 0)
        token = await h.command(CHRIS, "hint", channel_id=table.thread_id or 0)
        [answer] = h.private_replies(token)
        assert answer.startswith("Wacht ") and answer.endswith(" s voordat je om een nieuwe tip vraagt.")


async def test_a_slow_hint_does_not_delay_ai_moves_at_another_table(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()  # the test lets the hint finish, not a clock
    asked = threading.Event()
    answered = threading.Event()

    def held_hint(view: SeatView, lang: Language) -> str:
        asked.set()
        release.wait(HANG_GUARD)  # only so that a broken test cannot hang forever
        answered.set()
        return "Play the slow card: it took a while."

    monkeypatch.setattr(thinking, "hint_message", held_hint)
    config = ServiceConfig(**QUICK, hint_cooldown=0.0)
    async with Harness(tmp_path / "k.sqlite3", config=config) as h:
        try:
            first = await start_table(h, ANNA)
            await anna_to_act(h, first)
            before = asyncio.all_tasks()
            token = h.dispatch(h.interactions.command(ANNA, "hint", channel_id=first.thread_id or 0))
            await until(asked.is_set, HANG_GUARD)
            # The test holds the hint: meanwhile the harness does not wait for its task.
            hinting = {task for task in asyncio.all_tasks() - before if not task.done()}
            h.fake.held.update(hinting)
            # Another table's AI players play while the hint is held. Were their moves queued behind hints,
            # none would come before the release: the loop ends at the guard and the test fails.
            await h.command(CHRIS, "start", channel_id=CHANNEL_ID + 1)
            second = bot_of(h).service.find_user_table(CHRIS.id)
            start = [m for m in h.fake.in_channel(CHANNEL_ID + 1) if m.custom_ids()][-1]
            await h.click(CHRIS, start, f"kj:l:{second.id}:start")
            loop = asyncio.get_running_loop()
            guard = loop.time() + HANG_GUARD
            while second.actors.count(Actor.AI) < 3 and loop.time() < guard:
                if not await play_turn(h, second.id, CHRIS):
                    await asyncio.sleep(0.01)
            assert second.actors.count(Actor.AI) >= 3, "no AI moves while a hint was being worked out"
            # All of them while the hint was held.
            assert not answered.is_set() and "Play the slow card: it took a while." not in h.private_replies(token)
        finally:
            release.set()
        h.fake.held.difference_update(hinting)
        await h.settle()
        assert h.private_replies(token)[-1] == "Play the slow card: it took a while."


async def test_a_hint_in_its_worker_process_does_not_hold_up_moves() -> None:
    import multiprocessing

    from test_thinking import a_view

    thinker = thinking.Thinker(1, warm=False)
    with multiprocessing.Manager() as manager:
        release = manager.Event()
        try:
            busy = asyncio.ensure_future(thinker.hints.run(release.wait, 60))
            view = a_view()
            choice = await asyncio.wait_for(thinker.choose("normal", 1, view), 30)  # type: ignore[arg-type]
            assert choice == thinking.choose_action("normal", 1, view)  # type: ignore[arg-type]
            assert not busy.done()
            release.set()
            assert await busy is True
        finally:
            release.set()
            thinker.close()


def test_the_lobby_timeout_setting() -> None:
    assert load_config({}, dotenv=None).service_config().lobby_timeout == 1800
    assert load_config({"KLAVERJAS_LOBBY_TIMEOUT": "120"}, dotenv=None).service_config().lobby_timeout == 120
    with pytest.raises(ConfigError, match="KLAVERJAS_LOBBY_TIMEOUT must be at least 60 seconds"):
        load_config({"KLAVERJAS_LOBBY_TIMEOUT": "5"}, dotenv=None)


async def test_started_tables_open_a_few_at_a_time_and_one_left_waiting_opens_at_the_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of starts opens its tables (thread, table message) ``OPENINGS`` at a time, the later ones waiting
    their turn; their Start clicks are answered at once all the same. A table still waiting when the bot stops
    is stored as started: the restart opens it."""
    monkeypatch.setattr(announcer, "OPENINGS", 1)
    db = tmp_path / "k.sqlite3"
    fake = FaultyDiscord()
    channels = (CHANNEL_ID, CHANNEL_ID + 1)
    async with Harness(db, fake) as h:
        tables: list[int] = []
        for channel in channels:
            await h.command(ANNA if channel == CHANNEL_ID else BERT, "start", channel_id=channel, length="1",
                            ai="normal")
            [table_id] = [t for t in lobbies_in(h, channel) if t not in tables]
            tables.append(table_id)
        first, second = tables
        held = fake.hold(lambda r: r.method == "POST" and r.url.endswith("/threads"))  # the first opening stalls
        start_clicks = []
        for host, channel, table_id in ((ANNA, CHANNEL_ID, first), (BERT, CHANNEL_ID + 1, second)):
            [message] = [m for m in fake.in_channel(channel) if f"kj:l:{table_id}:start" in m.custom_ids()]
            start_clicks.append(h.dispatch(h.interactions.click(host, message, f"kj:l:{table_id}:start")))
            for _ in range(500):
                if bot_of(h).service.get(table_id).status is TableStatus.PLAYING and start_clicks[-1] in \
                        fake.first_response:
                    break
                await asyncio.sleep(0.01)
        assert held.hits == 1 and all(token in fake.first_response for token in start_clicks)  # both answered
        for _ in range(50):
            await asyncio.sleep(0.01)  # time enough for a second opening, were it let through
        waiting = bot_of(h).service.get(second)
        assert waiting.status is TableStatus.PLAYING and waiting.thread_id is None
        assert waiting.table_message_id is None and held.hits == 1  # not even asked for its thread
        assert (await bot_of(h).store.load_table(second)).status is TableStatus.PLAYING  # type: ignore[union-attr]
        # The bot stops: the first opening's request never comes back, the second never began.
    async with Harness(db, fake) as h2:
        await h2.settle()
        for table_id in tables:
            table = bot_of(h2).service.get(table_id)
            assert table.running and table.thread_id is not None and table.table_message_id is not None
            assert table.table_message_id in fake.messages
