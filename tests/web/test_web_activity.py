"""The Activity's hello: a table opens only for a person in an Activity instance that Discord says runs in that
table's channel; whatever the page claims, and whatever Discord's lookup does (404, 429, 500, silence)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from web_kit import BOT_TOKEN, HOST, SECRET, Rig, fake_instances, rig, web_config

from bot.texts.catalog import t
from bot.web.instances import ActivityInstance, InstanceGuard, InstanceRefused
from bot.web.sessions import CLOSE_NOT_HERE, CLOSE_TRY_LATER
from bot.web.tokens import TokenKind, sign

GUEST = 2002
STRANGER = 3003
THREAD = 600
OTHER_THREAD = 700
ACTIVITY = {"Origin": "https://123456.discordsays.com"}
INSTANCES = {"i-here": (THREAD, (HOST, GUEST)), "i-there": (OTHER_THREAD, (STRANGER,)),
             "i-without-guest": (THREAD, (HOST,))}


def session(person: int) -> str:
    return sign(SECRET, person, TokenKind.SESSION, ttl=60)


async def thread_table(r: Rig, thread: int = THREAD) -> int:
    """A started table whose thread is ``thread``."""
    table_id = await r.table()
    table = r.service.get(table_id)
    await r.service.keep_discord(table, lambda: setattr(table, "thread_id", thread))
    await r.service.idle()
    return table_id


async def refusal(r: Rig, **hello: Any) -> tuple[str, str, int | None]:
    """The error frame's code and message a hello gets, and the code the socket is then closed with."""
    page = await r.socket(ACTIVITY)
    answer, state = await page.hello(**hello)
    assert answer["type"] == "error" and state == {}, answer
    with pytest.raises(ConnectionError):
        while True:
            await page.next(timeout=5)
    return answer["code"], answer["message"], page.closed_with


async def test_a_person_in_the_instance_of_the_tables_thread_gets_their_seat_and_a_reconnect_asks_discord_nothing(
        ) -> None:
    async with fake_instances(**INSTANCES) as (fake, api), rig(web_config(api_url=api)) as r:
        table_id = await thread_table(r)
        page = await r.socket(ACTIVITY)
        welcome, state = await page.hello(token=session(HOST), instance_id="i-here", channel_id=str(THREAD))
        assert welcome["table"] == table_id and welcome["seat"] == "S" and state["view"]["me"]["seat"] == "S"
        assert fake.asked == [("i-here", f"Bot {BOT_TOKEN}")]
        again = await r.socket(ACTIVITY)  # a reconnect: the verified instance is remembered for a while
        welcome, _ = await again.hello(token=session(HOST), instance_id="i-here", channel_id=THREAD)
        assert welcome["seat"] == "S" and len(fake.asked) == 1
        onlooker = await r.socket(ACTIVITY)  # another person in the same instance: Discord is asked about them
        welcome, state = await onlooker.hello(token=session(GUEST), instance_id="i-here")
        assert welcome["table"] == table_id and welcome["seat"] is None and "me" not in state["view"]
        assert len(fake.asked) == 2


async def test_naming_another_tables_channel_opens_nothing() -> None:
    async with fake_instances(**INSTANCES) as (_, api), rig(web_config(api_url=api)) as r:
        await thread_table(r, THREAD)
        # The stranger's instance runs in another thread: naming this table's thread gets them nothing.
        code, message, closed = await refusal(r, token=session(STRANGER), instance_id="i-there",
                                              channel_id=str(THREAD))
        assert (code, closed) == ("wrong_instance", CLOSE_NOT_HERE)
        assert message == t("web.error.wrong_instance", "en")
        # Nor naming this thread's instance, which they are not in.
        code, _, closed = await refusal(r, token=session(STRANGER), instance_id="i-here", channel_id=str(THREAD))
        assert (code, closed) == ("not_in_instance", CLOSE_NOT_HERE)
        # A seated player in an instance of this thread they are not in: no seat either.
        code, _, _ = await refusal(r, token=session(GUEST), instance_id="i-without-guest")
        assert code == "not_in_instance"
        # Without naming a channel, their own instance opens its own channel's table: here none.
        page = await r.socket(ACTIVITY)
        answer, _ = await page.hello(token=session(STRANGER), instance_id="i-there")
        assert answer["code"] == "no_table_here"
        assert r.server.hub.count == 0


async def test_unknown_forged_missing_and_malformed_instance_ids_are_refused() -> None:
    async with fake_instances(**INSTANCES) as (fake, api), rig(web_config(api_url=api)) as r:
        table_id = await thread_table(r)
        version = r.service.get(table_id).version
        code, _, closed = await refusal(r, token=session(HOST), instance_id="i-made-up", channel_id=str(THREAD))
        assert (code, closed) == ("no_instance", CLOSE_NOT_HERE)
        asked = len(fake.asked)
        malformed: dict[str, dict[str, Any]] = {
            "missing": {"channel_id": str(THREAD)}, "null": {"instance_id": None},
            "number": {"instance_id": 12345}, "list": {"instance_id": ["i-here"]},
            "object": {"instance_id": {"id": "i-here"}}, "empty": {"instance_id": ""},
            "huge": {"instance_id": "i" * 3000}, "a path": {"instance_id": "../../users/@me"},
            "a query": {"instance_id": "i-here?x=1"}, "not ascii": {"instance_id": "i-hére"},
            "channel a list": {"instance_id": "i-here", "channel_id": [THREAD]},
            "channel a word": {"instance_id": "i-here", "channel_id": "six hundred"},
            "channel true": {"instance_id": "i-here", "channel_id": True},
        }
        for name, fields in malformed.items():
            code, message, closed = await refusal(r, token=session(HOST), **fields)
            assert (code, closed) == ("bad_instance", CLOSE_NOT_HERE), name
            assert message == t("web.error.bad_instance", "en")
        assert len(fake.asked) == asked, "a malformed instance id never reaches Discord"
        # A forged session with a real instance: the token is refused before Discord is asked.
        forged = sign("another-secret-0123456789", HOST, TokenKind.SESSION, ttl=60)
        page = await r.socket(ACTIVITY)
        answer, _ = await page.hello(token=forged, instance_id="i-here")
        assert answer["code"] == "bad_token" and len(fake.asked) == asked
        assert r.service.get(table_id).version == version and r.server.hub.count == 0


@pytest.mark.parametrize("trouble", ["429", "500", "timeout"])
async def test_discord_failing_to_answer_refuses_for_now_and_changes_nothing(trouble: str) -> None:
    async with fake_instances(**INSTANCES) as (fake, api), \
            rig(web_config(api_url=api, discord_timeout=0.3)) as r:
        table_id = await thread_table(r)
        version = r.service.get(table_id).version
        if trouble == "timeout":
            fake.delay = 2.0
        else:
            fake.status = int(trouble)
        code, message, closed = await refusal(r, token=session(HOST), instance_id="i-here")
        assert (code, closed) == ("discord_busy", CLOSE_TRY_LATER)  # the page tries again after a pause
        assert message == t("web.error.discord_busy", "en") != t("web.error.discord_busy", "nl")
        assert r.service.get(table_id).version == version and r.server.hub.count == 0
        asked = len(fake.asked)
        fake.status, fake.delay = None, 0.0
        if trouble == "429":  # Discord said to wait: until then the bot does not ask again
            code, _, _ = await refusal(r, token=session(HOST), instance_id="i-here")
            assert code == "discord_busy" and len(fake.asked) == asked
            await asyncio.sleep(fake.retry_after)
        page = await r.socket(ACTIVITY)  # once Discord answers again, the page's retry gets in
        welcome, _ = await page.hello(token=session(HOST), instance_id="i-here")
        assert welcome["seat"] == "S"


async def test_without_the_bots_token_no_activity_opens() -> None:
    async with fake_instances(**INSTANCES) as (fake, api), \
            rig(web_config(api_url=api), bot_token=lambda: None) as r:
        await thread_table(r)
        code, message, closed = await refusal(r, token=session(HOST), instance_id="i-here")
        assert (code, closed) == ("activity_off", CLOSE_NOT_HERE) and fake.asked == []
        assert message == t("web.error.activity_off", "en")


async def test_a_flood_of_lookups_is_held_back() -> None:
    async with fake_instances(**INSTANCES) as (fake, api), rig(web_config(api_url=api)) as r:
        # Many made-up instance ids (each would be a request): past the burst the bot stops asking.
        codes = []
        for i in range(60):
            page = await r.socket(ACTIVITY)
            answer, _ = await page.hello(token=session(HOST), instance_id=f"i-flood-{i}")
            codes.append(answer["code"])
        assert "discord_busy" in codes and codes.count("no_instance") == len(fake.asked) < 60


async def test_a_verified_instance_is_forgotten_after_a_while() -> None:
    now = [0.0]
    asked: list[str] = []

    async def fetch(instance_id: str) -> ActivityInstance | None:
        asked.append(instance_id)
        return ActivityInstance(instance_id, THREAD, frozenset({HOST}))

    guard = InstanceGuard(fetch, ttl=60, clock=lambda: now[0])
    assert await guard.channel_for("i-here", HOST) == THREAD
    now[0] = 59.0
    assert await guard.channel_for("i-here", HOST, str(THREAD)) == THREAD and asked == ["i-here"]
    with pytest.raises(InstanceRefused) as refused:  # remembered, and still checked against the page's channel
        await guard.channel_for("i-here", HOST, OTHER_THREAD)
    assert refused.value.code == "wrong_instance"
    now[0] = 61.0
    assert await guard.channel_for("i-here", HOST) == THREAD and asked == ["i-here", "i-here"]
    with pytest.raises(InstanceRefused) as refused:
        await guard.channel_for("i-here", GUEST)
    assert refused.value.code == "not_in_instance"

