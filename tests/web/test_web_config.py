"""The web table's variables: off unless the port, the address and the secret are all set; bad values refused
with the variable's name; and the server starts and stops on its port."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import ClientSession

from bot.discord_app.config import ConfigError, load_config
from bot.tables.service import TableService
from bot.web.config import DISCORD_API_URL, WebConfig
from bot.web.server import WebServer

BASE = {"DISCORD_TOKEN": "x", "KLAVERJAS_DB": ":memory:"}
WEB = {"KLAVERJAS_WEB_PORT": "8080", "KLAVERJAS_PUBLIC_URL": "https://kj.example.org/",
       "KLAVERJAS_WEB_SECRET": "s" * 32}


def test_without_its_three_variables_there_is_no_web_table() -> None:
    assert load_config(BASE, dotenv=None).web is None
    for missing in WEB:
        assert load_config({**BASE, **{k: v for k, v in WEB.items() if k != missing}}, dotenv=None).web is None


def test_with_them_the_web_table_and_the_activitys_origin() -> None:
    web = load_config({**BASE, **WEB, "DISCORD_CLIENT_ID": "1234", "DISCORD_CLIENT_SECRET": "cs"}, dotenv=None).web
    assert web is not None and web.port == 8080 and web.client_secret == "cs"
    assert web.allowed_origins == {"https://kj.example.org", "https://1234.discordsays.com"}
    assert "s" * 32 not in repr(web) and "cs" not in repr(web).replace("client_secret", "")
    assert web.api_url == DISCORD_API_URL  # where the bot asks Discord about Activity instances
    moved = load_config({**BASE, **WEB, "KLAVERJAS_DISCORD_API_URL": "http://127.0.0.1:9/api"}, dotenv=None).web
    assert moved is not None and moved.api_url == "http://127.0.0.1:9/api"


@pytest.mark.parametrize(("key", "value"), [("KLAVERJAS_WEB_PORT", "http"), ("KLAVERJAS_WEB_PORT", "70000"),
                                            ("KLAVERJAS_PUBLIC_URL", "kj.example.org"),
                                            ("KLAVERJAS_WEB_SECRET", "short"), ("DISCORD_CLIENT_ID", "app")])
def test_a_bad_value_is_refused_by_name(key: str, value: str) -> None:
    with pytest.raises(ConfigError, match=key):
        load_config({**BASE, **WEB, key: value}, dotenv=None)


async def test_the_server_serves_on_its_port_and_stops(tmp_path: Path) -> None:
    service = TableService()
    server = WebServer(service, WebConfig(secret="s" * 32, port=0, host="127.0.0.1"), static=tmp_path)
    await server.start()
    try:
        assert server.port is not None
        async with ClientSession() as http, http.get(f"http://127.0.0.1:{server.port}/") as answer:
            assert answer.status == 200 and "make web" in await answer.text()
    finally:
        await server.close()
        await service.close()
