"""The chat's ways into the web table: ``/klaverjas web`` and the Open in browser button on the hand, each a link
signed for that person and table; the table message's and an onlooker's link to the table's public view; nothing
when the web table is not configured or the person not at that table or its thread."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from harness import CHANNEL_ID, Harness, StoredMessage
from test_discord import ANNA, BERT, CHRIS, open_table
from test_hostile import any_callback
from test_scenarios import bot_of, started, thread_of

from bot.tables.errors import ServiceErrorCode
from bot.tables.model import TableSettings, TableStatus
from bot.texts.catalog import error_text, t
from bot.web.config import WebConfig
from bot.web.tokens import ANYONE, TokenError, TokenKind, verify

OTHER_GUILD = 915000000000000001
DM_CHANNEL = 960000000000000002
WEB = WebConfig(secret="harness-secret-0123456789", public_url="https://kj.example/play", client_id="42")


def link_buttons(components: list[dict[str, Any]]) -> list[str]:
    return [c["url"] for row in components for c in row.get("components", []) if c.get("style") == 5]


def token_of(url: str, key: str = "t") -> str:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://kj.example/play/"
    [token] = parse_qs(parts.query)[key]
    return token


def table_message_links(h: Harness, table_id: int) -> list[str]:
    table = bot_of(h).service.get(table_id)
    assert table.table_message_id is not None
    return link_buttons(h.fake.messages[table.table_message_id].components)


async def test_without_the_web_table_the_command_says_so_and_hands_have_no_link(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        token = await h.command(ANNA, "web")
        assert h.private_replies(token) == [t("web.not_configured", "en")]
        await h.settle()
        assert all(link_buttons(m.components) == [] for m in h.fake.dms_of(ANNA.id))
        assert bot_of(h).service.get(table_id).running


async def test_a_seated_player_gets_their_own_signed_link_and_the_hand_carries_one(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        table_id = await started(h, ANNA, [BERT])
        token = await h.command(BERT, "web")
        [answer] = [r for r in h.responses_to(token) if r.ephemeral]
        assert answer.content == t("web.link", "en", table=table_id)
        [url] = link_buttons(answer.data["components"])
        seat = verify(WEB.secret, token_of(url), TokenKind.SEAT, table_id)
        assert seat.person == BERT.id
        token = await h.command(BERT, "hand")  # the private hand in the thread has one too
        [followup] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.url]
        [url] = link_buttons(followup.data["components"])
        assert verify(WEB.secret, token_of(url), TokenKind.SEAT, table_id).person == BERT.id
        await h.settle()
        hands = [m for m in h.fake.dms_of(ANNA.id) if link_buttons(m.components)]
        assert hands, "the hand in Anna's DMs has an Open in browser button"
        for hand in hands:
            [url] = link_buttons(hand.components)
            assert verify(WEB.secret, token_of(url), TokenKind.SEAT, table_id).person == ANNA.id


async def test_nobody_gets_a_link_to_a_table_they_do_not_sit_at_here(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        await started(h, ANNA, [])
        token = await h.command(CHRIS, "web")  # seated nowhere
        [refusal] = h.private_replies(token)
        assert refusal == t("error.not_seated_anywhere", "nl")
        # Chris sits at a table of another server: from this one he gets no link to it.
        service = bot_of(h).service
        await service.create_table(host_id=CHRIS.id, host_name="Chris", settings=TableSettings(), guild_id=999,
                                   channel_id=4242)
        token = await h.command(CHRIS, "web")
        assert [r for r in h.responses_to(token) if link_buttons(r.data.get("components") or [])] == []
        [refusal] = h.private_replies(token)
        assert refusal == t("error.not_seated_anywhere", "nl")


async def test_the_table_message_links_to_the_public_view_only_with_the_web_table(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await started(h, ANNA, [])
        await h.settle()
        assert table_message_links(h, table_id) == []
    async with Harness(tmp_path / "w.sqlite3", web=WEB) as h:
        table_id = await started(h, ANNA, [])
        await h.settle()
        [url] = table_message_links(h, table_id)
        watch = verify(WEB.secret, token_of(url, "watch"), TokenKind.WATCH, table_id)
        assert watch.person == ANYONE  # the thread's readers, whoever they are
        try:
            verify(WEB.secret, token_of(url, "watch"), TokenKind.SEAT, table_id)
        except TokenError:
            pass
        else:
            raise AssertionError("a watch link opens no seat")


async def test_an_onlooker_in_the_thread_gets_a_watch_link_and_a_player_there_their_seat(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        table_id = await started(h, ANNA, [BERT])
        thread = thread_of(h, table_id)
        token = await h.command(CHRIS, "web", thread)  # in the table's thread, not at the table
        [answer] = [r for r in h.responses_to(token) if r.ephemeral]
        assert answer.content == t("web.watch_link", "nl", table=table_id)
        [url] = link_buttons(answer.data["components"])
        assert "t" not in parse_qs(urlsplit(url).query)
        assert verify(WEB.secret, token_of(url, "watch"), TokenKind.WATCH, table_id).person == CHRIS.id
        token = await h.command(BERT, "web", thread)  # a player in the same thread gets their seat
        [answer] = [r for r in h.responses_to(token) if r.ephemeral]
        [url] = link_buttons(answer.data["components"])
        assert verify(WEB.secret, token_of(url), TokenKind.SEAT, table_id).person == BERT.id


def play_here(components: list[dict[str, Any]]) -> list[str]:
    return [c["custom_id"] for row in components for c in row.get("components", [])
            if c.get("custom_id", "").startswith("kj:act:")]


async def test_play_here_launches_the_activity_in_the_tables_thread_only(tmp_path: Path) -> None:
    activity = replace(WEB, client_secret="harness-client-secret")
    async with Harness(tmp_path / "k.sqlite3", web=activity) as h:
        table_id = await started(h, ANNA, [BERT])
        thread = thread_of(h, table_id)
        for user in (BERT, CHRIS):  # a player, an onlooker: the Activity opens the seat or the public view
            token = await h.command(user, "web", thread)
            message = h.fake.messages[h.fake.originals[token]]
            [custom_id] = play_here(message.components)
            assert custom_id == f"kj:act:{table_id}"
            token = await h.click(user, message, custom_id)
            [callback] = [r for r in h.responses_to(token) if any_callback(r)]
            assert callback.json is not None and callback.json["type"] == 12  # LAUNCH_ACTIVITY
        # Outside the thread the Activity would find no table: no button, and an old one is refused.
        token = await h.command(BERT, "web", CHANNEL_ID)
        assert play_here(h.fake.messages[h.fake.originals[token]].components) == []
        message.channel_id = CHANNEL_ID
        token = await h.click(BERT, message, f"kj:act:{table_id}")
        assert h.private_replies(token) == [t("web.no_activity_here", "en")]
        assert all(r.json is None or r.json.get("type") != 12 for r in h.responses_to(token))


async def test_no_play_here_without_the_activitys_login(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:  # no client secret: the Activity cannot log in
        table_id = await started(h, ANNA, [BERT])
        token = await h.command(BERT, "web", thread_of(h, table_id))
        message = h.fake.messages[h.fake.originals[token]]
        assert link_buttons(message.components) and play_here(message.components) == []


def lobby_message(h: Harness, table_id: int) -> StoredMessage:
    lobby_id = bot_of(h).service.get(table_id).lobby_message_id
    assert lobby_id is not None
    return h.fake.messages[lobby_id]


def launched(h: Harness, token: str) -> bool:
    """Whether the click was answered with Discord's launch of the Activity (callback type 12)."""
    return any(r.json is not None and r.json.get("type") == 12 for r in h.responses_to(token) if any_callback(r))


async def test_the_lobby_has_play_here_only_where_the_activity_can_open_it(tmp_path: Path) -> None:
    for name, web in (("off", None), ("no login", WEB)):  # no web table; a web table without the client secret
        async with Harness(tmp_path / f"{name}.sqlite3", web=web) as h:
            table_id = await open_table(h, ANNA)
            await h.click(BERT, lobby_message(h, table_id), f"kj:l:{table_id}:join")
            assert play_here(lobby_message(h, table_id).components) == [], name
    async with Harness(tmp_path / "k.sqlite3", web=replace(WEB, client_secret="harness-client-secret")) as h:
        table_id = await open_table(h, ANNA)
        lobby = lobby_message(h, table_id)
        assert lobby.channel_id == CHANNEL_ID and play_here(lobby.components) == [f"kj:act:{table_id}"]
        token = await h.click(CHRIS, lobby, f"kj:act:{table_id}")  # anyone in the channel: a seat or a view
        assert launched(h, token)
        await h.click(BERT, lobby, f"kj:l:{table_id}:join")  # the lobby's edit keeps it
        assert play_here(lobby_message(h, table_id).components) == [f"kj:act:{table_id}"]
        await h.click(ANNA, lobby_message(h, table_id), f"kj:l:{table_id}:start")
        await h.settle()
        # Started: the table is in its thread now, the lobby loses its buttons, and a click on the old one is
        # refused (a button no longer on its message); the thread's own Play here is /klaverjas web's.
        assert play_here(lobby_message(h, table_id).components) == []
        token = await h.click(BERT, lobby, f"kj:act:{table_id}")
        assert not launched(h, token) and h.private_replies(token) == [t("error.invalid_button", "en")]


async def test_a_forged_play_here_or_one_from_elsewhere_gets_the_usual_refusal(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=replace(WEB, client_secret="harness-client-secret")) as h:
        table_id = await open_table(h, ANNA)
        lobby = lobby_message(h, table_id)
        for forged in (f"kj:act:{table_id + 50}", "kj:act:x", f"kj:act:{table_id}:0"):  # not on the message
            token = await h.click(BERT, lobby, forged)
            assert not launched(h, token) and h.private_replies(token) == [t("error.invalid_button", "en")], forged
        other = h.interactions.click(BERT, lobby, f"kj:act:{table_id}")  # the same button, from another server
        other["guild_id"] = other["channel"]["guild_id"] = str(OTHER_GUILD)
        token = await h.feed(other)
        assert not launched(h, token)
        assert h.private_replies(token) == [error_text(ServiceErrorCode.NO_TABLE, {"table": table_id}, "en")]
        dm = h.interactions.click(BERT, lobby, f"kj:act:{table_id}")  # and from a DM
        for key in ("guild_id", "guild_locale", "member"):
            dm.pop(key, None)
        dm.update(user=BERT.payload(), channel={"id": str(DM_CHANNEL), "type": 1}, channel_id=str(DM_CHANNEL),
                  context=1)
        h.fake.channel_of[dm["token"]] = DM_CHANNEL
        token = await h.feed(dm)
        assert not launched(h, token)
        assert h.private_replies(token) == [error_text(ServiceErrorCode.NOT_SEATED, {"table": table_id}, "en")]
        assert bot_of(h).service.get(table_id).status is TableStatus.LOBBY
