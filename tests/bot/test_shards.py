"""Two bot processes on one PostgreSQL database (``klaverjas bot --shards``), each running one of two shards.

This process is Discord and the people, as in the crash test (tests/bot/test_crash.py, whose scripted games this
reuses): the games are spread over servers of both shards, and each interaction goes to a random one of the two
processes, as the interactions of direct messages go to shard 0 whatever the table. Against a run of the same
games in one process on SQLite:

- every match finishes with a record identical to the one-process run;
- every card or call whose click was answered is in the store once, as that player's action;
- without kills, the channels and threads show exactly what the one-process run showed (nothing said twice,
  nothing missing), and the hands end current;
- with kills (a process dies with SIGKILL in the middle and another one starts on its shard), every message of the
  one-process run appears at least once and the hands end current.

``KLAVERJAS_SHARD_GAMES`` sets the number of games (default 6).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from pg_server import PgServer
from test_crash import (
    KILL_SEED,
    QUIET,
    RUNNER,
    STALL_SECONDS,
    Child,
    CrashRun,
    ScriptedGame,
    announcements,
    final_hands,
    records_by_game,
    stored_actions,
)

from bot.store.codec import decode_action
from engine.actions import Call
from engine.cards import Card
from engine.game import Game
from engine.record import export_record
from engine.settings import Rules

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("KLAVERJAS_SHARD_GAMES", "6"))
SHARDS = 2


def guild_of(game: ScriptedGame) -> int:
    """A server id whose shard is the game's number modulo the shard count: both processes own tables."""
    return ((1000 + game.number) << 22) | 1


class ShardRun(CrashRun):
    """The crash test's games over ``SHARDS`` bot processes on one PostgreSQL database."""

    def __init__(self, url: str, stderr_base: Path, games: int, kill_after: list[int], seed: int) -> None:
        super().__init__(stderr_base, games, 0, seed)
        self.url = url
        self.kill_after = kill_after  # kill a process once the store holds this many actions (each in turn)
        self.shards: dict[int, Child] = {}
        self.epoch = 0  # a new one after each kill: clicks not answered before it are made again, as people would
        self.died: list[int] = []

    async def spawn_shard(self, shard: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.stderr, "ab") as errors:
            process = await asyncio.create_subprocess_exec(
                sys.executable, str(RUNNER), self.url, str(shard), str(SHARDS), stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=errors, cwd=ROOT, env=env, limit=1 << 24)
        child = Child(process, self.epoch)
        self.shards[shard] = child
        self.background(self.pump(child))

    def interact(self, child: Child, payload: dict[str, Any], what: str) -> str:
        """To a random live process; a server's interaction carries its game's server id."""
        if "guild_id" in payload:
            channel = int(payload["channel_id"])
            game = self.game_of_channel[self.fake.thread_parent.get(channel, channel)]
            payload["guild_id"] = payload["channel"]["guild_id"] = str(guild_of(game))
        live = [c for c in self.shards.values() if c.ready and c.process.returncode is None]
        target = self.rng.choice(live)
        self.fake.arrived[payload["token"]] = time.perf_counter()
        self.send(target, {"kind": "interaction", "payload": payload})
        self.last_progress = time.monotonic()
        return str(payload["token"])

    async def stored_actions(self) -> int:
        conn = await asyncpg.connect(self.url)
        try:
            return int(await conn.fetchval("SELECT count(*) FROM actions"))
        finally:
            await conn.close()

    async def killer(self) -> None:
        for count in self.kill_after:
            while await self.stored_actions() < count:
                await asyncio.sleep(0.02)
            shard = self.rng.randrange(SHARDS)
            child = self.shards[shard]
            child.process.send_signal(signal.SIGKILL)
            await child.process.wait()
            self.died.append(shard)
            self.epoch += 1
            await self.spawn_shard(shard)  # its successor takes the shard over

    async def run(self) -> None:
        try:
            await self.play()
        finally:
            for child in self.shards.values():
                if child.process.returncode is None:
                    child.process.kill()
                    await child.process.wait()

    async def play(self) -> None:
        for shard in range(SHARDS):
            await self.spawn_shard(shard)
        while not all(c.ready for c in self.shards.values()):  # a shard starting late would restore the tables
            await asyncio.sleep(0.01)
        if self.kill_after:
            self.background(self.killer())
        while True:
            await asyncio.sleep(0.005)
            for shard, child in self.shards.items():
                if child.process.returncode is not None and child.process.returncode != -signal.SIGKILL:
                    raise AssertionError(f"shard {shard} exited by itself ({child.process.returncode}): see "
                                         f"{self.stderr}")
            if time.monotonic() - self.last_progress > STALL_SECONDS:
                raise AssertionError(f"no progress for {STALL_SECONDS} s: {self.describe()}\n{await self.stored()}")
            if not any(c.ready and c.process.returncode is None for c in self.shards.values()):
                continue
            cluster = Child(self.shards[0].process, self.epoch, ready=True)  # what the scripted people act on
            for game in self.games:
                if not game.done:
                    self.step_game(game, cluster)
                for user in game.humans:
                    self.step_player(user, cluster)
            if all(game.done for game in self.games) and len(self.died) == len(self.kill_after) \
                    and time.monotonic() - self.last_progress > QUIET:
                break
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.stop_children(list(self.shards.values()))

    def describe(self) -> str:
        lines = [f"game {g.number}: matches {g.matches} pending {g.pending}" for g in self.games]
        lines += [f"refused {token}: {[r.content for r in answers if r.ephemeral]}"
                  for token, answers in self.responses.items() if any(r.ephemeral for r in answers)][-20:]
        lines.append(f"offers {self.offers} done {self.done_version} pending plays {self.play_pending}")
        return "\n".join(lines)

    async def stored(self) -> str:
        conn = await asyncpg.connect(self.url)
        try:
            rows = await conn.fetch("SELECT t.id, t.status, t.revision, t.announced, (SELECT count(*) FROM actions a "
                                    "WHERE a.table_id = t.id) AS actions FROM tables t ORDER BY t.id")
            return "stored: " + "; ".join(str(dict(row)) for row in rows)
        finally:
            await conn.close()

    async def records(self) -> dict[int, list[dict[str, Any]]]:
        conn = await asyncpg.connect(self.url)
        try:
            out: dict[int, list[dict[str, Any]]] = {}
            for game in self.games:
                rows = await conn.fetch("SELECT id, settings FROM tables WHERE channel_id = $1 AND status = 'finished' "
                                        "ORDER BY id", game.channel_id)
                out[game.number] = []
                for row in rows:
                    played = Game(Rules.from_dict(json.loads(row["settings"])["rules"]))
                    actions = await conn.fetch("SELECT kind, data FROM actions WHERE table_id = $1 ORDER BY seq",
                                               row["id"])
                    played.apply_all(decode_action(a["kind"], a["data"]) for a in actions)
                    out[game.number].append(export_record(played))
            return out
        finally:
            await conn.close()

    async def check_answered_clicks(self) -> None:
        """Every answered card or call is in the store once, as that player's."""
        conn = await asyncpg.connect(self.url)
        try:
            for click in self.clicks.values():
                answer = self.answered(click.token)
                if answer is None or answer.ephemeral:
                    continue  # never answered (its process died), or refused
                rows = await conn.fetch("SELECT kind, data, user_id FROM actions WHERE table_id = $1 AND seq = $2",
                                        click.table_id, click.version)
                assert len(rows) == 1, (click, "acknowledged but not stored")
                action = Card.parse(click.action) if rows[0]["kind"] == "card" else Call.parse(click.action)
                assert rows[0]["user_id"] == click.user_id, (click, rows)
                assert decode_action(rows[0]["kind"], rows[0]["data"]) == action, (click, rows)
        finally:
            await conn.close()


@pytest.fixture
def pg_url(pg_server: PgServer | str) -> Any:
    if isinstance(pg_server, str):
        pytest.skip(pg_server)
    url = asyncio.run(pg_server.new_database())
    yield url
    asyncio.run(pg_server.drop_database(url))


def one_process_run(tmp_path: Path) -> CrashRun:
    plain = CrashRun(tmp_path / "plain.sqlite3", GAMES, 0, KILL_SEED)
    asyncio.run(asyncio.wait_for(plain.run(), 600))
    return plain


def sharded_run(url: str, tmp_path: Path, kill_after: list[int]) -> ShardRun:
    run = ShardRun(url, tmp_path / "shards.db", GAMES, kill_after, KILL_SEED)

    async def go() -> None:
        await asyncio.wait_for(run.run(), 600)
        records, expected = await run.records(), records_by_game(plain_db(tmp_path), run.games)
        assert records == expected, difference(records, expected)
        await run.check_answered_clicks()

    asyncio.run(go())
    return run


def difference(got: dict[int, list[dict[str, Any]]], expected: dict[int, list[dict[str, Any]]]) -> str:
    """Where the records first differ, in short."""
    for game, matches in expected.items():
        if len(got[game]) != len(matches):
            return f"game {game}: {len(got[game])} matches, expected {len(matches)}"
        for number, (mine, theirs) in enumerate(zip(got[game], matches, strict=True)):
            for key in theirs:
                if mine.get(key) != theirs[key]:
                    return f"game {game}, match {number}, {key}: {mine.get(key)} != {theirs[key]}"
    return "no difference"


def plain_db(tmp_path: Path) -> Path:
    return tmp_path / "plain.sqlite3"


def test_two_processes_play_every_game_through_random_processes(pg_url: str, tmp_path: Path) -> None:
    plain = one_process_run(tmp_path)
    sharded = sharded_run(pg_url, tmp_path, [])
    for plain_game, game in zip(plain.games, sharded.games, strict=True):
        assert announcements(sharded, game) == announcements(plain, plain_game), game.number
        assert final_hands(sharded, game) == final_hands(plain, plain_game), game.number


def test_a_process_killed_in_the_middle_is_taken_over(pg_url: str, tmp_path: Path) -> None:
    plain = one_process_run(tmp_path)
    with contextlib.closing(sqlite3.connect(plain.db)) as connection:
        total = stored_actions(connection)
    sharded = sharded_run(pg_url, tmp_path, [total // 3, 2 * total // 3])
    assert len(sharded.died) == 2
    for plain_game, game in zip(plain.games, sharded.games, strict=True):
        missing = announcements(plain, plain_game) - announcements(sharded, game)
        assert not missing, (game.number, missing)
        assert final_hands(sharded, game) == final_hands(plain, plain_game), game.number
