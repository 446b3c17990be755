"""Where a click or command comes from, through the offline harness: a table's buttons act only in the table's own
server, or in a DM only in the clicker's own DM with the bot for their seat (their hand). From another server, or
from any other DM or group DM, a button of a valid table id (forged: the id is only a request) is refused privately
as for a table that does not exist (from a DM: as for someone not at the table), and nothing changes; the commands
find only this server's tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import ALL_PERMISSIONS, Harness, Request, StoredMessage, User, next_id
from test_discord import ANNA, BERT, enabled_cards, hand_message, lobby, open_table
from test_hostile import seat_turn
from test_replay import OTHER_GUILD, finished_match
from test_scenarios import bot_of, started, thread_of, until
from test_tournaments import create

from bot.tables.model import Table
from bot.tournaments.model import TournamentStatus

OLAF = User(1066, "Olaf")  # sits at none of the tables, unless said
CARL = User(1067, "Carl")
OTHER_CHANNEL = 920000000000000777  # a channel of the other server
NO_TABLE = "That table no longer exists."
NOT_HERE = "Use this in a server channel."
NOT_SEATED = "You do not sit at this table."


def no_match(table_id: int) -> str:
    return f"There is no match #{table_id} in this server."


def carrying(channel_id: int, custom_id: str, dm_user: int | None, select: bool = False) -> StoredMessage:
    """A message with one button (or seat menu) of ``custom_id``: what a client that forged the id presents."""
    component: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    if select:
        component = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                     "options": [{"label": s, "value": s} for s in "NESW"]}
    return StoredMessage(next_id(), channel_id, "x", [{"type": 1, "components": [component]}], 0, [],
                         dm_user=dm_user)


async def click_from(h: Harness, where: str, user: User, custom_id: str, values: list[str] | None = None) -> str:
    """``user`` clicks ``custom_id`` in another server (``where == "guild"``) or in a DM that is not their own
    DM for the table (a group DM, or another DM conversation): its token."""
    select = values is not None
    if where == "guild":
        message = carrying(OTHER_CHANNEL, custom_id, None, select)
        payload = h.interactions.select(user, message, custom_id, values or []) if select \
            else h.interactions.click(user, message, custom_id)
        payload["guild_id"] = str(OTHER_GUILD)
        payload["channel"]["guild_id"] = str(OTHER_GUILD)
    else:
        message = carrying(next_id(), custom_id, user.id, select)
        payload = h.interactions.select(user, message, custom_id, values or []) if select \
            else h.interactions.click(user, message, custom_id)
    return await h.feed(payload)


def state(h: Harness) -> list[Any]:
    """Everything a click could change about the tables: their status, version, seats and rematch."""
    def of(table: Table) -> tuple[Any, ...]:
        return (table.id, table.status, table.version, table.rematch_id, table.host_id,
                [(s.kind, s.user_id, s.pending_user_id, s.away, s.delivery) for s in table.seats])
    return [of(table) for table in sorted(bot_of(h).service.tables.values(), key=lambda t: t.id)]


def assert_refused(h: Harness, token: str, before: int, answer: str, what: str) -> None:
    assert [text for text in h.private_replies(token) if text] == [answer], what  # (after a private "thinking")
    new: list[Request] = h.fake.requests[before:]
    assert new and all(token in r.url for r in new), (what, [r.url for r in new])  # nothing else was sent
    assert not any(r.files for r in new), what


@pytest.mark.parametrize("where", ["guild", "dm"], ids=["another server", "a DM that is not the seat's"])
async def test_every_table_button_from_elsewhere_is_refused_and_changes_nothing(tmp_path: Path, where: str) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        done = await finished_match(h, ANNA, [])  # Anna played it: a rematch, a replay, a review are hers to ask
        running = await started(h, CARL, [])  # AI players in three seats: one Olaf could take over
        await until(h, lambda: seat_turn(h, running, CARL), [CARL])
        table = bot_of(h).service.get(running)
        version = table.version
        card = enabled_cards(hand_message(h, running, CARL))[0].rsplit(":", 1)[1]
        waiting = await open_table(h, ANNA)
        await h.click(BERT, lobby(h), f"kj:l:{waiting}:join")
        # (who clicks, the id, the seat menu's choice, the refusal): the lobby's host and guest, the running
        # table's player whose turn it is, the finished match's player, and an outsider.
        cases: list[tuple[User, str, list[str] | None, str]] = [
            (OLAF, f"kj:l:{waiting}:join", None, NO_TABLE),
            (OLAF, f"kj:seat:{waiting}", ["E"], NO_TABLE),
            (BERT, f"kj:l:{waiting}:leave", None, NO_TABLE),
            (ANNA, f"kj:l:{waiting}:ai", None, NO_TABLE),
            (ANNA, f"kj:l:{waiting}:start", None, NO_TABLE),
            (OLAF, f"kj:take:{running}", None, NO_TABLE),
            (OLAF, f"kj:seat:{running}", ["E"], NO_TABLE),
            (CARL, f"kj:c:{running}:{version}:{card}", None, NO_TABLE),
            (CARL, f"kj:b:{running}:{version}:pass", None, NO_TABLE),
            (CARL, f"kj:r:{running}:{version}", None, NO_TABLE),
            (CARL, f"kj:nr:{running}:{version}", None, NO_TABLE),
            (CARL, f"kj:h:{running}", None, NO_TABLE),
            (CARL, f"kj:back:{running}", None, NO_TABLE),
            (ANNA, f"kj:rm:{done}", None, NO_TABLE),
            (ANNA, f"kj:ms:{done}", None, NO_TABLE),
            (ANNA, f"kj:rp:{done}", None, no_match(done)),
            (ANNA, f"kj:ex:{done}", None, no_match(done)),
            (ANNA, f"kj:rv:{done}", None, no_match(done)),
            (ANNA, f"kj:rs:{done}:{ANNA.id}:0-1:nt", None, no_match(done)),
        ]
        if where == "dm":  # no table: a server's figures, which a DM has none of
            cases += [(ANNA, f"kj:ss:u:{ANNA.id}", None, NOT_HERE), (ANNA, "kj:lb:s:all:0", None, NOT_HERE)]
        seen = state(h)
        for user, custom_id, values, answer in cases:
            if where == "dm" and answer != NOT_HERE:
                answer = NOT_SEATED  # as to a player who left and clicks their old hand
            before = len(h.fake.requests)
            token = await click_from(h, where, user, custom_id, values)
            assert_refused(h, token, before, answer, custom_id)
            assert state(h) == seen, custom_id
        stored = await bot_of(h).store.load_table(waiting)
        assert stored is not None and [s.user_id for s in stored.seats] == [s.user_id for s in
                                                                            bot_of(h).service.get(waiting).seats]
        # The buttons where they belong still work: Carl's card from his own DM hand, Olaf's Join on the lobby.
        await h.click(CARL, hand_message(h, running, CARL), f"kj:c:{running}:{version}:{card}")
        assert table.version > version
        await h.click(OLAF, lobby(h), f"kj:l:{waiting}:join")
        assert bot_of(h).service.get(waiting).seat_of(OLAF.id) is not None


async def test_an_outsiders_own_dm_reaches_no_table(tmp_path: Path) -> None:
    """Olaf has a DM with the bot (her hand at a table of her own); a Join, a seat or a Take seat for another table
    forged there seats her nowhere."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        running = await started(h, CARL, [])
        mine = await open_table(h, OLAF)
        await h.click(OLAF, lobby(h), f"kj:l:{mine}:start")
        info = bot_of(h).service.get(mine).seats[bot_of(h).service.get(mine).seat_of(OLAF.id)]  # type: ignore[index]
        assert info.dm_channel_id is not None
        seen = state(h)
        for custom_id, values in ((f"kj:take:{running}", None), (f"kj:seat:{running}", ["W"])):
            message = carrying(info.dm_channel_id, custom_id, OLAF.id, values is not None)
            before = len(h.fake.requests)
            token = await (h.select(OLAF, message, custom_id, values) if values else h.click(OLAF, message, custom_id))
            assert_refused(h, token, before, NOT_SEATED, custom_id)
            assert state(h) == seen


async def command_from(h: Harness, user: User, sub: str, channel_id: int = OTHER_CHANNEL, **options: Any) -> str:
    """A command typed in another server (in ``channel_id``, which a forged payload may name)."""
    payload = h.interactions.command(user, sub, channel_id, **options)
    payload["guild_id"] = str(OTHER_GUILD)
    payload["channel"]["guild_id"] = str(OTHER_GUILD)
    return await h.feed(payload)


async def test_commands_in_another_server_find_none_of_this_servers_tables(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        running = await started(h, CARL, [BERT])
        await until(h, lambda: seat_turn(h, running, CARL), [CARL, BERT])
        table = bot_of(h).service.get(running)
        card = enabled_cards(hand_message(h, running, CARL))[0].rsplit(":", 1)[1]
        waiting = await open_table(h, ANNA)
        seen = state(h)
        not_seated = "You are not at any table. Start one with /klaverjas start."
        no_table_here = ("There is no table here to join: use the Join button on a table's lobby message, or this "
                         "command in a table's thread.")
        cases: list[tuple[User, str, int, dict[str, Any], str]] = [
            (CARL, "play", OTHER_CHANNEL, {"card": card}, not_seated),
            (CARL, "hand", OTHER_CHANNEL, {}, not_seated),
            (CARL, "hint", OTHER_CHANNEL, {}, not_seated),
            (BERT, "leave", OTHER_CHANNEL, {}, not_seated),
            (CARL, "score", OTHER_CHANNEL, {}, not_seated),
            (CARL, "rules", OTHER_CHANNEL, {}, not_seated),
            (CARL, "stop", OTHER_CHANNEL, {}, not_seated),
            # A forged payload naming this server's thread and lobby channel from the other server.
            (OLAF, "join", thread_of(h, running), {"seat": "E"}, no_table_here),
            (OLAF, "join", lobby(h).channel_id, {}, no_table_here),
            (CARL, "stop", thread_of(h, running), {}, not_seated),
        ]
        for user, sub, channel, options, answer in cases:
            before = len(h.fake.requests)
            token = await command_from(h, user, sub, channel, **options)
            assert_refused(h, token, before, answer, sub)
            assert state(h) == seen, sub
        assert bot_of(h).service.get(waiting).seat_of(OLAF.id) is None and table.running


async def test_matches_and_tournaments_named_from_another_server_are_not_found(tmp_path: Path) -> None:
    """The commands that name a match or a tournament by its number: another server's is unknown there, as a
    number nobody used is."""
    async with Harness(tmp_path / "k.sqlite3") as h:
        done = await finished_match(h, ANNA, [])
        tournament = await create(h)
        unused = done + 100
        cases: list[tuple[str, dict[str, Any], str]] = [
            (sub, {"match": str(number)}, no_match(number))
            for sub in ("replay", "export", "review") for number in (done, unused)]
        cases += [(sub, {"tournament": str(number)}, f"There is no tournament {number} in this server.")
                  for sub in ("tournament standings", "tournament join", "tournament close")
                  for number in (tournament.id, tournament.id + 100)]
        seen = state(h)
        for sub, options, answer in cases:
            before = len(h.fake.requests)
            payload = h.interactions.command(ANNA, sub, OTHER_CHANNEL, permissions=ALL_PERMISSIONS, **options)
            payload["guild_id"] = str(OTHER_GUILD)
            payload["channel"]["guild_id"] = str(OTHER_GUILD)
            token = await h.feed(payload)
            assert_refused(h, token, before, answer, f"{sub} {options}")
        assert state(h) == seen
        kept = await bot_of(h).tournaments.store.tournament(tournament.id)
        assert kept is not None and kept.status is TournamentStatus.OPEN
        assert await bot_of(h).tournaments.store.entry_of(tournament.id, ANNA.id) is None
