"""The web table's socket: who gets what, and what a click does."""

from __future__ import annotations

from web_kit import HOST, rig, seat_token

from engine.cards import Card


async def test_a_seat_is_welcomed_with_its_state_and_plays_a_card() -> None:
    async with rig() as r:
        table_id = await r.table()
        await r.service.idle()
        page = await r.socket()
        welcome, state = await page.hello(token=seat_token(HOST, table_id))
        assert welcome["seat"] == "S" and welcome["table"] == table_id and welcome["texts"]["button.pass"]
        me = state["view"]["me"]
        table = r.service.get(table_id)
        assert sorted(me["hand"]) == sorted(str(c) for c in table.view(table.seat_of(HOST)).hand)
        while table.running:
            await r.service.idle()
            if table.game.to_act is not table.seat_of(HOST):
                continue
            view = table.view(table.seat_of(HOST))
            choice = view.legal[0]
            frame = {"type": "act", "version": table.version}
            frame["card" if isinstance(choice, Card) else "call"] = str(choice)
            await page.send(frame)
            after = await page.state(table.version)
            assert after["version"] > frame["version"]
        assert table.game.finished
