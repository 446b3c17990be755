"""The web table's HTTP side: the page and its headers, the Activity's code exchange and hello, and replays."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer
from web_kit import FAST, HOST, ORIGIN, SECRET, fake_instances, first_legal, rig, seat_token, settings, web_config

from bot.store.sqlite import SqliteStore
from bot.tables.archive import MatchArchive
from bot.tables.model import Delivery, TableSettings
from bot.tables.service import TableService
from bot.texts.language import Language
from bot.tournaments.model import TournamentStatus
from bot.web.sessions import page_texts
from bot.web.tokens import TokenKind, sign, verify
from engine.cards import Seat
from engine.settings import Rules

GUEST = 2002


async def test_without_built_assets_the_page_says_so_and_every_answer_has_the_headers(tmp_path: Path) -> None:
    async with rig(static=tmp_path / "missing") as r:
        answer = await r.client.get("/")
        assert answer.status == 200 and "make web" in await answer.text()
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        missing = await r.client.get("/app.js")
        assert missing.status == 404 and missing.headers["X-Content-Type-Options"] == "nosniff"
        refused = await r.client.get("/ws", headers={"Origin": "https://evil.example"})
        assert refused.status == 403 and "default-src 'self'" in refused.headers["Content-Security-Policy"]


async def test_the_built_page_and_its_assets_are_served_and_nothing_outside_them(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<script src='./app.js'></script>")
    (static / "app.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("no")
    async with rig(static=static) as r:
        assert "app.js" in await (await r.client.get("/")).text()
        asset = await r.client.get("/app.js")
        assert asset.status == 200 and "max-age" in asset.headers["Cache-Control"]
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/static/../../secret.txt"):
            assert (await r.client.get(path)).status == 404, path


def fake_discord(codes: dict[str, int]) -> web.Application:
    """Discord's token endpoint and /users/@me: a code gives a token, a token gives its user."""

    async def token(request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("client_secret") != "client-secret" or form.get("code") not in codes:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": f"at-{form['code']}", "token_type": "Bearer"})

    async def me(request: web.Request) -> web.Response:
        found = {f"Bearer at-{code}": user for code, user in codes.items()}
        user = found.get(request.headers.get("Authorization", ""))
        if user is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": str(user), "username": "anna"})

    app = web.Application()
    app.router.add_post("/api/oauth2/token", token)
    app.router.add_get("/api/users/@me", me)
    return app


async def test_the_activity_exchanges_its_code_and_opens_the_table_of_its_thread() -> None:
    discord = TestServer(fake_discord({"good": HOST}))
    await discord.start_server()
    # Discord's Activity instances: one in the table's thread with Anna and Bert, one in another channel.
    known = {"i-thread": (600, (HOST, GUEST)), "i-elsewhere": (999, (HOST,))}
    async with fake_instances(**known) as (fake, api):
        try:
            config = web_config(client_secret="client-secret", token_url=str(discord.make_url("/api/oauth2/token")),
                                user_url=str(discord.make_url("/api/users/@me")), api_url=api)
            async with rig(config) as r:
                answer = await r.client.post("/api/token", json={"code": "good"})
                assert answer.status == 200
                body = await answer.json()
                assert body["access_token"] == "at-good"
                assert verify(SECRET, body["session"], TokenKind.SESSION).person == HOST
                for bad in ({"code": "stolen"}, {"code": 5}, {}):
                    assert (await r.client.post("/api/token", json=bad)).status in (400, 401)
                table = await r.service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=3,
                                                     guild_id=1, channel_id=500)
                await r.service.start(table.id, HOST)
                await r.service.keep_discord(table, lambda: setattr(table, "thread_id", 600))
                page = await r.socket({"Origin": "https://123456.discordsays.com"})
                welcome, state = await page.hello(token=body["session"], instance_id="i-thread", channel_id="600")
                assert welcome["seat"] == "S" and state["view"]["me"]["seat"] == "S"
                # Someone else in that thread's instance watches (the channel is Discord's: the page need not name
                # it); in an instance elsewhere, there is no table.
                other = sign(SECRET, GUEST, TokenKind.SESSION, ttl=60)
                onlooker = await r.socket()
                welcome, state = await onlooker.hello(token=other, instance_id="i-thread")
                assert welcome["seat"] is None and "me" not in state["view"]
                nowhere = await r.socket()
                answer_, _ = await nowhere.hello(token=body["session"], instance_id="i-elsewhere", channel_id="999")
                assert answer_["code"] == "no_table_here"
                assert {asked for asked, _ in fake.asked} == {"i-thread", "i-elsewhere"}
        finally:
            await discord.close()


async def test_without_a_client_secret_the_code_exchange_is_off() -> None:
    async with rig() as r:
        answer = await r.client.post("/api/token", json={"code": "x"})
        assert answer.status == 503 and (await answer.json())["error"] == "activity_off"


async def play_out(service: TableService, table_id: int, person: int) -> None:
    table = service.get(table_id)
    while table.running:
        await service.idle()
        seat = table.seat_of(person)
        if table.running and table.game.to_act is seat:
            await service.act(table_id, person, table.game.legal_actions()[0], table.version)
        elif table.running and seat is not None and any(
                True for c in table.view(seat).legal if str(c) in ("claim", "decline")):
            await service.decline(table_id, person, table.version)
        await asyncio.sleep(0)


async def test_a_replay_is_given_for_a_finished_match_only_and_never_for_a_sealed_tournament(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        service = TableService(store, FAST, choose=first_legal)

        async def tournament(tournament_id: int) -> tuple[str, TournamentStatus]:
            return "Vrijdag", TournamentStatus.OPEN

        archive = MatchArchive(store, service.table_in_memory, tournament)
        async with rig(service=service, archive=archive, reviews=store) as r:
            running = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=3,
                                                 guild_id=1, channel_id=500)
            await service.start(running.id, HOST)

            async def place(table: Any) -> int:
                return 900

            cup = await service.create_tournament_table(
                tournament_id=5, seed=3, settings=settings(), guild_id=1, channel_id=501,
                players={Seat.S: (GUEST, "Bert", Delivery.DM)}, open_place=place)
            await play_out(service, cup.id, GUEST)
            await play_out(service, running.id, HOST)  # now finished
            finished = running
            again = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=4,
                                               guild_id=1, channel_id=502)
            await service.start(again.id, HOST)

            async def replay(person: int, table_id: int) -> tuple[int, dict[str, Any]]:
                token = sign(SECRET, person, TokenKind.REPLAY, table_id, ttl=60)
                answer = await r.client.get("/api/replay", params={"t": token}, headers=ORIGIN)
                return answer.status, await answer.json()

            status, body = await replay(HOST, finished.id)
            assert status == 200 and body["record"]["hands"] and body["names"]["S"] == "Anna"
            status, body = await replay(HOST, again.id)
            assert (status, body["error"]) == (403, "match_not_over")
            status, body = await replay(HOST, cup.id)
            assert (status, body["error"]) == (403, "tournament_sealed") and body["message"]
            status, body = await replay(GUEST, cup.id)  # who played it to its end saw every card already
            assert status == 200
            forged = seat_token(HOST, finished.id)
            answer = await r.client.get("/api/replay", params={"t": forged})
            assert answer.status == 403


async def test_the_page_learns_the_application_id_and_nothing_else() -> None:
    config = web_config(client_id="998877", client_secret="oauth-secret-of-the-app")
    async with rig(config) as r:
        answer = await r.client.get("/api/config")
        assert answer.status == 200 and await answer.json() == {"client_id": "998877"}
        text = await answer.text()
        assert config.client_secret not in text and SECRET not in text
    async with rig(web_config(client_id=None)) as r:
        answer = await r.client.get("/api/config")
        assert answer.status == 503 and (await answer.json())["error"] == "activity_off"


async def test_a_replay_comes_with_the_pages_words_in_the_persons_language(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "k.sqlite3") as store:
        service = TableService(store, FAST, choose=first_legal)
        archive = MatchArchive(store, service.table_in_memory)
        async with rig(service=service, archive=archive, reviews=store) as r:
            dutch = TableSettings(Rules().with_changes(length="1"), language=Language.NL, four_colour=True)
            table = await service.create_table(host_id=HOST, host_name="Anna", settings=dutch, seed=3, guild_id=1,
                                               channel_id=500)
            await service.start(table.id, HOST)
            await play_out(service, table.id, HOST)
            token = sign(SECRET, HOST, TokenKind.REPLAY, table.id, ttl=60)
            answer = await r.client.get("/api/replay", params={"t": token})
            body = await answer.json()
            assert answer.status == 200 and body["lang"] == "nl" and body["four_colour"] is True
            assert body["texts"] == page_texts(Language.NL)  # the welcome's words: one source
            assert body["texts"]["card.JH"] != page_texts(Language.EN)["card.JH"]
            assert {f"seat.{s}" for s in "NESW"} | {f"suit.{s}" for s in "CDHS"} <= set(body["texts"])
