"""/klaverjas forget-me through the offline harness: a confirmation button only its asker may press, no trace of the
id or name left in any table of the database, the games still valid records, other players' figures kept."""

from __future__ import annotations

import re
import sqlite3
import struct
from pathlib import Path

from harness import EPHEMERAL, Harness, StoredMessage, User
from test_custom_ids import INVALID_BUTTON
from test_discord import BERT, lobby, open_table, play_to_end
from test_hostile import any_callback
from test_replay import the_message
from test_scenarios import bot_of

from bot.tables.model import Delivery, TableStatus

ZOE = User(987654321012345678, "Zoë Zwart")  # an id and a name that cannot turn up by chance in other data
ZOE_NL = User(ZOE.id, ZOE.name, locale="nl")
DONE = "Done: you are forgotten. Your games remain, played by an anonymous player."


def traces(path: Path, *needles: str) -> list[tuple[str, str, str]]:
    """Every (table, column, value) of the database whose text holds one of ``needles`` (an id only as a number of its
    own: user 2002 is not in message 950000000000012002)."""
    patterns = [re.compile(rf"(?<![0-9]){re.escape(needle)}(?![0-9])") for needle in needles]
    found = []
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for row in db.execute(f"SELECT * FROM {table}"):
                for column, value in zip(columns, row, strict=True):
                    text = value.decode(errors="replace") if isinstance(value, bytes) else str(value)
                    if any(pattern.search(text) for pattern in patterns):
                        found.append((table, column, text[:80]))
    return found


async def played_together(h: Harness, host: User, guest: User | None) -> int:
    table_id = await open_table(h, host)
    if guest is not None:
        await h.click(guest, lobby(h), f"kj:l:{table_id}:join")
    await h.click(host, lobby(h), f"kj:l:{table_id}:start")
    await play_to_end(h, table_id, [host] + ([guest] if guest is not None else []))
    await h.settle()
    assert bot_of(h).service.get(table_id).status is TableStatus.FINISHED
    return table_id


async def asked(h: Harness, user: User) -> StoredMessage:
    token = await h.command(user, "forget-me")
    question = the_message(h, token)
    assert question.flags & EPHEMERAL and question.custom_ids() == [f"kj:fm:{user.id}"]
    return question


async def test_forget_me_leaves_no_trace_and_keeps_the_games(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        store = bot_of(h).store
        hosted = await played_together(h, ZOE, BERT)
        joined = await played_together(h, BERT, ZOE)
        await store.set_user_delivery(ZOE.id, Delivery.THREAD)
        records = {i: await store.record(i) for i in (hosted, joined)}
        bert = await store.player_stats(f"u:{BERT.id}", None)
        assert traces(path, str(ZOE.id), ZOE.name)  # the test would see them
        question = await asked(h, ZOE_NL)
        assert question.content.startswith("**Mij vergeten?**")
        # Someone else pressing it (a forged press: the question is private) changes nothing.
        token = await h.click(BERT, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content.startswith("This button is for the person who asked")
        assert traces(path, str(ZOE.id))
        token = await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content == DONE
        assert traces(path, str(ZOE.id), ZOE.name) == []
        # The games are the same records; Bert's figures are his as before, only his partner is nobody now.
        assert {i: await store.record(i) for i in (hosted, joined)} == records
        after = await store.player_stats(f"u:{BERT.id}", None)
        assert (after.played, after.won, after.hands) == (bert.played, bert.won, bert.hands)
        assert (await store.player_stats(f"u:{ZOE.id}", None)).played == 0
        # Forgetting again is harmless.
        token = await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content == DONE


async def test_forget_me_while_seated_is_refused_and_a_failed_press_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        await played_together(h, ZOE, None)
        table_id = await open_table(h, BERT)
        await h.click(ZOE, lobby(h), f"kj:l:{table_id}:join")  # a lobby she sits in
        question = await asked(h, ZOE)
        token = await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content.startswith(f"You still sit at table \\#{table_id}: leave it first")
        await h.click(ZOE, lobby(h), f"kj:l:{table_id}:leave")
        # The press expires on the way (10062): nothing is forgotten, and pressing again works.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert traces(path, str(ZOE.id))
        token = await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content == DONE
        assert traces(path, str(ZOE.id), ZOE.name) == []


async def test_forged_forget_me_ids_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        await played_together(h, ZOE, None)
        question = await asked(h, ZOE)
        for forged in (f"kj:fm:0{ZOE.id}", f"kj:fm:{ZOE.id}0", "kj:fm:", f"kj:fm:{ZOE.id}:x", "kj:fm:-1"):
            token = await h.click(ZOE, question, forged)
            assert the_message(h, token).content == INVALID_BUTTON["en-US"], forged
        assert traces(path, str(ZOE.id))


def raw_traces(path: Path, user: User) -> list[str]:
    """Which files of the SQLite database (the file, its -wal) hold the user's name or id in their raw bytes: in
    text ("u:<id>" keys), as SQLite writes an integer (8 bytes, big-endian), or the name in UTF-8."""
    needles = [str(user.id).encode(), struct.pack(">q", user.id), user.name.encode()]
    found = []
    for file in (path, path.with_name(path.name + "-wal")):
        data = file.read_bytes() if file.exists() else b""
        found += [f"{file.name}: {needle!r}" for needle in needles if needle in data]
    return found


async def test_forget_me_leaves_nothing_in_the_files_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    async with Harness(path) as h:
        await played_together(h, ZOE, BERT)
        await bot_of(h).store.set_user_delivery(ZOE.id, Delivery.THREAD)
        assert raw_traces(path, ZOE)  # the test would see them
        question = await asked(h, ZOE)
        token = await h.click(ZOE, question, f"kj:fm:{ZOE.id}")
        assert the_message(h, token).content == DONE
        # On disk when the answer comes: not in a freed part of a page, not in an old page of the WAL.
        assert raw_traces(path, ZOE) == []
        # The bot goes on writing and reading as before.
        await played_together(h, BERT, None)
