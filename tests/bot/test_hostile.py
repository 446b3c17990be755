"""Hostile input through the offline harness (issue 10): commands from a DM, input over Discord's limits, names
that read like mentions (forged custom ids: test_custom_ids). Each with a Discord failure, and the game going on."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import GUILD_ID, Harness, Request, User
from test_discord import ANNA, CHRIS
from test_scenarios import bot_of, started, thread_of, until

from bot.tables.model import TableStatus
from engine.cards import Card

DM_CHANNEL = 940000000000000001
NOT_HERE = {"en-US": "Use this in a server channel.", "nl": "Gebruik dit in een serverkanaal."}


def any_callback(request: Request) -> bool:
    return request.via == "webhook" and request.path.endswith("/callback")


def seat_turn(h: Harness, table_id: int, user: User) -> bool:
    table = bot_of(h).service.get(table_id)
    return table.game.phase.value == "play" and table.game.to_act is table.seat_of(user.id)


# ------------------------------------------------------------------ 1. commands from a DM


async def test_the_command_group_is_declared_for_servers_only(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        # Discord fails the first sync (503): nothing is remembered, so the next start syncs again.
        h.fake.fail_next(lambda r: r.method == "PUT" and r.path.endswith("/commands"), 503, 0, "Service Unavailable")
        with pytest.raises(Exception, match="503"):
            await bot.sync_if_changed()
        assert await bot.store.get_meta("commands_hash:global") is None
        assert await bot.sync_if_changed()
        syncs = [r for r in h.fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == 2
        [group] = [c for c in syncs[-1].json or [] if c["name"] == "klaverjas"]  # type: ignore[union-attr]
        assert group["contexts"] == [0]  # guild only: no bot DM (1), no group DM (2)
        assert group["integration_types"] == [0]  # installed in servers, not as a user app
        assert group["dm_permission"] is False
        assert not await bot.sync_if_changed()  # unchanged: not synced again


async def test_every_subcommand_from_a_dm_is_refused_privately_and_changes_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        bot = bot_of(h)
        table_id = await started(h, ANNA, [])
        table = bot.service.get(table_id)
        await until(h, lambda: seat_turn(h, table_id, ANNA), [ANNA])
        legal = next(c for c in table.game.legal_actions() if isinstance(c, Card))
        tables, version, requests = len(bot.service.tables), table.version, len(h.fake.requests)
        asked = [("start", {}), ("settings", {"bidding": "draaien"}), ("join", {}), ("join", {"seat": "N"}),
                 ("leave", {}), ("stop", {}), ("rules", {}), ("hand", {}), ("hand", {"delivery": "thread"}),
                 ("play", {"card": legal.notation}), ("hint", {}), ("score", {})]
        assert {sub for sub, _ in asked} == {c.name for c in bot.klaverjas.commands}  # every subcommand
        for user in (ANNA, CHRIS):  # the host (seated, her turn) in English; someone else in Dutch
            for sub, options in asked:
                token = await h.command(user, sub, DM_CHANNEL, dm=True, **options)
                answers = h.responses_to(token)
                assert [r.content for r in answers] == [NOT_HERE[user.locale]], (sub, answers)
                assert all(r.ephemeral for r in answers)
        assert len(bot.service.tables) == tables and table.status is TableStatus.PLAYING
        assert table.version == version and table.seat_of(ANNA.id) is not None
        assert await bot.store.user_delivery(ANNA.id) is None
        assert await bot.store.guild_defaults(GUILD_ID) is None
        # Only the refusals went out: no DM, no post, no thread, no edit.
        assert all(any_callback(r) for r in h.fake.requests[requests:])
        assert await h.autocomplete(ANNA, "play", "card", "", DM_CHANNEL, dm=True) == []
        # The refusal itself can fail (the interaction expired: 10062): logged, and the game goes on.
        h.fake.fail_next(any_callback, 404, 10062, "Unknown interaction")
        await h.command(ANNA, "play", DM_CHANNEL, dm=True, card=legal.notation)
        assert table.version == version
        token = await h.command(ANNA, "play", thread_of(h, table_id), card=legal.notation)
        assert table.game.actions[version] == legal
        assert any("Played" in r for r in h.private_replies(token))
