"""The web table's socket: who gets what, what a click does, and what a hostile or broken page gets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

import pytest
from aiohttp import ClientSession, WSServerHandshakeError
from web_kit import (
    FAST,
    HOST,
    ORIGIN,
    SECRET,
    Rig,
    Socket,
    first_legal,
    rig,
    seat_token,
    settings,
    watch_token,
    web_config,
)

from bot.tables.model import Actor
from bot.tables.service import TableService
from bot.texts.catalog import card_text, t
from bot.web.server import WebServer
from bot.web.sessions import CLOSE_GOING_AWAY
from bot.web.tokens import TokenKind, sign
from engine.cards import SEATS, Card, Seat, cards_of

CARD = re.compile(r"^[789TJQKA][CDHS]$")
GUEST = 2002


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def leaks(frames: list[dict[str, Any]], deals: list[tuple[int, int, int, int]], own: Seat | None) -> list[str]:
    """Every card in a frame that is in another seat's hand of the hand the frame is about and was not played
    yet (by the card events before it): what a page must never be sent."""
    hand, played, found = 0, set[str](), []
    for frame in frames:
        event = frame.get("event") if frame["type"] == "event" else None
        about = event.get("hand") if event is not None else frame["view"]["hand"] if frame["type"] == "state" else None
        if isinstance(about, int) and about != hand:
            hand, played = about, set()
        if event is not None and event["kind"] in ("card", "trick"):
            played.update(strings(event))
        if hand >= len(deals):
            continue
        hidden = {str(card) for seat in SEATS if seat is not own for card in cards_of(deals[hand][seat])}
        found += [f"{frame['type']}: {card}" for card in strings(frame) if CARD.match(card)
                  and card in hidden and card not in played]
    return found


async def lobby(r: Rig, humans: tuple[int, ...] = (), hands: int = 1, **changes: str) -> int:
    table = await r.service.create_table(host_id=HOST, host_name="Anna", settings=settings(hands, **changes),
                                         seed=11, guild_id=1, channel_id=500)
    for person in humans:
        await r.service.join(table.id, person, f"P{person}")
    return table.id


async def play_by_page(r: Rig, page: Socket, table_id: int, person: int) -> None:
    """The page plays the person's seat (first legal choice, claims declined) to the match's end."""
    table = r.service.get(table_id)
    pace = 1 / web_config().frames_per_second
    while table.running:
        frame = await page.next(timeout=20)
        if frame["type"] != "state" or frame["version"] != table.version:
            continue
        me = frame["view"]["me"]
        if me["may_decline"]:
            sent = {"type": "decline", "version": frame["version"]}
        elif me["may_claim"]:  # declared roem: the page claims every trick its team may claim
            sent = {"type": "claim", "version": frame["version"]}
        elif me["my_turn"] and me["legal_cards"]:
            sent = {"type": "act", "version": frame["version"], "card": me["legal_cards"][0]}
        elif me["my_turn"] and me["legal_calls"]:
            sent = {"type": "act", "version": frame["version"], "call": me["legal_calls"][-1]}
        else:
            continue
        # The AI seats answer at once: a page clicking as fast as the states come would outrun its rate limit,
        # which a person does not; this one keeps to it (and the test asserts it is never refused).
        await asyncio.sleep(pace)
        if frame["version"] != table.version:  # an AI seat moved meanwhile (it may while a claim is open)
            continue
        await page.send(sent)


@pytest.mark.parametrize("roem", ["auto", "declared"])
async def test_a_page_playing_a_whole_match_never_gets_a_card_of_another_hand(roem: str) -> None:
    async with rig() as r:
        table_id = await lobby(r, hands=2, roem=roem)
        page, watcher = await r.socket(), await r.socket()
        welcome, _ = await page.hello(token=seat_token(HOST, table_id))
        assert welcome["seat"] == "S"
        await watcher.hello(watch=watch_token(table_id))
        await r.service.start(table_id, HOST)
        await asyncio.wait_for(play_by_page(r, page, table_id, HOST), 120)
        await page.drain()
        await watcher.drain()
        table = r.service.get(table_id)
        assert table.game.finished
        deals = [tuple(hand.deal) for hand in table.game.hands]
        assert leaks(page.frames, deals, Seat.S) == []
        assert leaks(watcher.frames, deals, None) == []
        assert all("me" not in f["view"] for f in watcher.frames if f["type"] == "state")
        # The page did get its own hand, and saw the match end.
        assert any(f["type"] == "state" and len(f["view"]["me"]["hand"]) == 8 for f in page.frames)
        assert any(f["type"] == "event" and f["event"]["kind"] == "over" for f in page.frames)
        assert table.actors.count(Actor.HUMAN) >= 16
        claims = [f for f in page.frames if f["type"] == "event" and f["event"]["kind"] == "claim"]
        assert bool(claims) is (roem == "declared")
        # Never refused, but as stale: an AI seat may still move between the page's look and its claim reaching
        # the server (a person's click can be late the same way), and a stale one only brings a fresh state.
        assert [f["code"] for f in page.frames if f["type"] == "error" and f["code"] != "stale"] == []


async def test_the_leak_scan_finds_a_leak() -> None:
    deal = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
    north_card = str(cards_of(deal[Seat.N])[0])
    frame = {"type": "state", "view": {"hand": 0, "x": north_card}}
    assert leaks([frame], [deal], Seat.S) == [f"state: {north_card}"]
    assert leaks([frame], [deal], Seat.N) == []


async def test_forged_tampered_expired_and_wrong_kind_tokens_open_nothing() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        good = seat_token(HOST, table_id)
        payload, mac = good.split(".")
        other = sign(SECRET, GUEST, TokenKind.SEAT, table_id, ttl=60).split(".")[0]
        cases = {
            "forged": sign("another-secret-0123456789", HOST, TokenKind.SEAT, table_id, ttl=60),
            "tampered": f"{other}.{mac}",
            "expired": seat_token(HOST, table_id, ttl=-1),
            "session kind": sign(SECRET, HOST, TokenKind.SESSION, table_id, ttl=60),
            "garbage": "x" * 600, "no dot": payload,
        }
        for name, token in cases.items():
            page = await r.socket()
            answer, state = await page.hello(token=token)
            assert answer["type"] == "error", name
            assert answer["code"] == ("expired_token" if name == "expired" else "bad_token"), name
            assert state == {}
            await page.send({"type": "act", "version": 0, "call": "pass"})
            assert (await page.next())["code"] == "hello_first"


async def test_watching_takes_a_watch_token_of_that_table_and_nothing_else() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        await r.service.start(table_id, HOST)
        cases: dict[str, object] = {
            "table id alone": table_id, "table id as text": str(table_id),
            "forged": sign("another-secret-0123456789", 0, TokenKind.WATCH, table_id, ttl=60),
            "expired": watch_token(table_id, ttl=-1),
            "seat kind": seat_token(HOST, table_id),
            "no table": sign(SECRET, 0, TokenKind.WATCH, None, ttl=60),
        }
        for name, watch in cases.items():
            page = await r.socket()
            answer, state = await page.hello(watch=watch)
            assert answer["type"] == "error", name
            assert answer["code"] == ("expired_token" if name == "expired" else "bad_token"), name
            assert state == {}
        # Nor does a watch token open a seat when it is sent as one.
        page = await r.socket()
        answer, _ = await page.hello(token=watch_token(table_id, HOST))
        assert answer["code"] == "bad_token"


async def test_a_watch_token_never_opens_a_seat_even_for_a_player_at_that_table() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        await r.service.start(table_id, HOST)
        page = await r.socket()
        welcome, state = await page.hello(watch=watch_token(table_id, HOST))  # made out to the host, who sits here
        assert welcome["seat"] is None and "me" not in state["view"]
        assert state["view"]["table"]["id"] == table_id
        deals = [tuple(hand.deal) for hand in r.service.get(table_id).game.hands]
        assert leaks([state], deals, None) == []
        await page.send({"type": "hint"})
        assert (await page.next("error"))["code"] == "watching"


async def test_the_hint_names_a_legal_card_of_the_page_with_the_chats_words() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        page = await r.socket()
        await page.hello(token=seat_token(HOST, table_id))
        await r.service.start(table_id, HOST)
        table = r.service.get(table_id)
        while True:  # bid (the last call offered) until it is the page's turn to play a card
            frame = await page.next("state", timeout=20)
            me = frame["view"]["me"]
            if frame["version"] != table.version or not me["my_turn"]:
                continue
            if me["legal_cards"]:
                break
            await page.send({"type": "act", "version": frame["version"], "call": me["legal_calls"][-1]})
        await page.send({"type": "hint"})
        hint = await page.next("hint", timeout=120)
        assert hint["card"] in me["legal_cards"] and hint["call"] is None
        # The chat's words for the same card: "Play J♥", and why.
        assert hint["text"].startswith(t("hint.play_card", "en", card=card_text(Card.parse(hint["card"]), "en")))


async def test_oversized_malformed_and_unknown_frames_get_an_error_and_change_nothing() -> None:
    async with rig() as r:
        table_id, page = await r.playing()
        table = r.service.get(table_id)
        version = table.version
        bad = ["{not json", "[1, 2]", json.dumps({"type": 7}), json.dumps({"type": "dance"}),
               json.dumps({"type": "act", "version": version, "card": "ZZ"}),
               json.dumps({"type": "act", "version": "1", "call": "pass"}),
               json.dumps({"type": "act", "version": version, "card": "JS", "call": "pass"}),
               json.dumps({"type": "act", "version": version, "call": "pass", "pad": "x" * 5000})]
        for text in bad:
            await page.ws.send_str(text)
            answer = await page.next()
            assert answer["type"] == "error" and answer["code"] in ("bad_frame", "too_big"), text
            assert answer["message"]
        await page.ws.send_bytes(b"\x00\x01")
        assert (await page.next())["code"] == "bad_frame"
        assert table.version == version


async def test_a_stale_version_is_refused_with_a_fresh_state() -> None:
    async with rig() as r:
        table_id, page = await r.playing()
        table = r.service.get(table_id)
        version = table.version
        await page.send({"type": "act", "version": version - 1, "call": "pass"})
        answer = await page.next()
        assert answer["code"] in ("stale", "not_your_turn")
        if answer["code"] == "stale":
            assert (await page.next("state"))["version"] == version
        assert table.version == version


async def test_a_chat_click_and_a_web_click_on_one_turn_are_applied_once() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        await r.service.start(table_id, HOST)
        table = r.service.get(table_id)
        page = await r.socket()
        await page.hello(token=seat_token(HOST, table_id))
        for _ in range(6):  # several turns: each race is won by one of the two
            await r.service.idle()
            if not table.running or table.game.to_act is not Seat.S:
                break
            version = table.version
            choice = table.view(Seat.S).legal[0]
            humans = table.actors.count(Actor.HUMAN)
            frame = {"type": "act", "version": version,
                     "card" if isinstance(choice, Card) else "call": str(choice)}
            results = await asyncio.gather(page.send(frame), r.service.act(table_id, HOST, choice, version),
                                           return_exceptions=True)
            await asyncio.sleep(0.05)
            await r.service.idle()
            assert table.actors[version] is Actor.HUMAN
            assert table.actors.count(Actor.HUMAN) == humans + 1
            chat_lost = isinstance(results[1], Exception)
            await page.drain(0.05)
            refused = [f for f in page.frames if f["type"] == "error"]
            assert chat_lost or refused, "one of the two clicks must have been refused"
            page.frames.clear()


async def test_two_tabs_of_one_seat_both_follow_the_game_and_a_reconnect_resyncs() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        await r.service.start(table_id, HOST)
        await r.service.idle()
        first, second = await r.socket(), await r.socket()
        token = seat_token(HOST, table_id)
        _, state = await first.hello(token=token)
        await second.hello(token=token)
        table = r.service.get(table_id)
        version = table.version
        await first.send({"type": "act", "version": version, "call": str(table.view(Seat.S).legal[0])})
        assert (await first.state(version))["version"] > version
        assert (await second.state(version))["version"] > version
        await r.service.idle()
        await second.ws.close()
        # Meanwhile the game goes on from the chat; the page comes back with the last seq it saw.
        if table.game.to_act is Seat.S:
            await r.service.act(table_id, HOST, table.view(Seat.S).legal[0], table.version)
            await r.service.idle()
        again = await r.socket()
        welcome, fresh = await again.hello(token=token, seq=state["seq"])
        assert welcome["seat"] == "S" and fresh["version"] == table.version
        assert fresh["view"]["me"]["hand"] == [str(c) for c in fresh_hand(table)]


def fresh_hand(table: Any) -> list[Card]:
    from engine.order import sort_cards

    view = table.view(Seat.S)
    return sort_cards(view.hand, view.trump)


async def test_a_person_who_leaves_the_seat_is_cut_off_and_the_link_opens_nothing_more() -> None:
    async with rig() as r:
        table_id = await lobby(r, humans=(GUEST,))
        await r.service.start(table_id, HOST)
        await r.service.idle()
        table = r.service.get(table_id)
        seat = table.seat_of(GUEST)
        page = await r.socket()
        welcome, _ = await page.hello(token=seat_token(GUEST, table_id))
        assert welcome["seat"] == str(seat)
        await r.service.leave(table_id, GUEST)
        answer = await page.next("error")
        assert answer["code"] == "not_seated"
        tail: list[dict[str, Any]] = []
        with pytest.raises(ConnectionError):
            while True:
                tail.append(await page.next(timeout=5))
        assert page.closed_with == 4003, page.ws.close_code
        assert all("me" not in f.get("view", {}) for f in tail)
        again = await r.socket()
        answer, state = await again.hello(token=seat_token(GUEST, table_id))
        assert answer["code"] == "not_seated" and state == {}


async def test_an_onlooker_cannot_act() -> None:
    async with rig() as r:
        table_id = await lobby(r)
        await r.service.start(table_id, HOST)
        page = await r.socket()
        welcome, state = await page.hello(watch=watch_token(table_id))
        assert welcome["seat"] is None and "me" not in state["view"]
        await page.send({"type": "act", "version": state["version"], "call": "pass"})
        assert (await page.next("error"))["code"] == "watching"


async def test_a_flood_of_frames_is_rate_limited_and_then_cut_off() -> None:
    async with rig() as r:
        page = await r.socket()
        for _ in range(30):
            await page.send({"type": "ping"})
        got = [await page.next() for _ in range(21)]
        assert [f["type"] for f in got].count("pong") <= 21
        assert any(f.get("code") == "rate_limited" for f in got)
        with pytest.raises(ConnectionError):
            for _ in range(1000):
                await page.send({"type": "ping"})
                await asyncio.sleep(0)
            while True:
                await page.next(timeout=5)


async def test_the_socket_refuses_other_origins() -> None:
    async with rig() as r:
        for headers in ({"Origin": "https://evil.example"}, {}, {"Origin": "https://999.discordsays.com"}):
            with pytest.raises(WSServerHandshakeError) as refused:
                await r.socket(headers)
            assert refused.value.status == 403
        page = await r.socket({"Origin": "https://123456.discordsays.com"})
        await page.send({"type": "ping"})
        assert (await page.next())["type"] == "pong"
        assert ORIGIN["Origin"] in r.server.config.allowed_origins


async def test_a_socket_without_a_successful_hello_is_closed_in_time() -> None:
    async with rig(web_config(hello_timeout=0.2)) as r:
        page = await r.socket()
        answer, _ = await page.hello(token="nonsense")
        assert answer["code"] == "bad_token"
        with pytest.raises(ConnectionError):
            await page.next(timeout=5)
        assert page.closed_with == 4001


async def test_an_away_player_comes_back_from_the_page() -> None:
    async with rig() as r:
        table_id, page = await r.playing()
        table = r.service.get(table_id)
        await page.send({"type": "back"})
        assert (await page.next("error"))["code"] == "not_away"
        table.seats[Seat.S].away = True  # as two missed turns make it
        await page.send({"type": "back"})
        event = await page.next("event")
        assert event["event"] == {"kind": "seat_back", "seat": "S"}
        assert not table.seats[Seat.S].away


async def test_the_server_closes_at_once_with_a_page_open_and_tells_it_the_server_goes_away() -> None:
    service = TableService(None, FAST, choose=first_legal)
    server = WebServer(service, web_config(port=0, host="127.0.0.1"))
    await server.start()
    table = await service.create_table(host_id=HOST, host_name="Anna", settings=settings(), seed=7, guild_id=1,
                                       channel_id=500)
    try:
        async with ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{server.port}/ws", headers=ORIGIN)
            page = Socket(ws)
            welcome, _ = await page.hello(token=seat_token(HOST, table.id))
            assert welcome["type"] == "welcome"

            async def read_to_the_end() -> None:
                with contextlib.suppress(ConnectionError):
                    while True:
                        await page.next(timeout=30)

            reader = asyncio.create_task(read_to_the_end())
            # aiohttp alone waits for every open socket's handler before it stops: a restart hung for its timeout.
            await asyncio.wait_for(server.close(), 5)
            await asyncio.wait_for(reader, 5)
            assert page.closed_with == CLOSE_GOING_AWAY
    finally:
        await server.close()
        await service.close()
