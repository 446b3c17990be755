"""Each setting of the bot's environment has its default in one place: the table service's ``ServiceConfig``."""

from __future__ import annotations

import pytest

from bot.discord_app.config import VARIABLES, ConfigError, load_config
from bot.store.backend import DEFAULT_POOL_SIZE
from bot.tables.service import ServiceConfig

# The variables whose default is the service's, and the field that holds it.
SERVICE_FIELDS = {"KLAVERJAS_AI_PAUSE": "ai_pause", "KLAVERJAS_TURN_TIME": "turn_time",
                  "KLAVERJAS_DEAL_PAUSE": "deal_pause", "KLAVERJAS_LOBBY_TIMEOUT": "lobby_timeout"}


def test_an_empty_environment_gives_the_services_defaults() -> None:
    assert load_config({}, dotenv=None).service_config() == ServiceConfig()


def test_the_help_shows_the_defaults_the_service_uses() -> None:
    shown = {variable.name: variable.default for variable in VARIABLES}
    for name, field in SERVICE_FIELDS.items():
        default = shown[name]
        assert default is not None and float(default) == getattr(ServiceConfig(), field), name


def test_the_database_pool_from_the_environment() -> None:
    assert load_config({}, dotenv=None).db_pool == DEFAULT_POOL_SIZE
    assert load_config({"KLAVERJAS_DB_POOL": " 12 "}, dotenv=None).db_pool == 12
    assert {variable.name: variable.default for variable in VARIABLES}["KLAVERJAS_DB_POOL"] == str(DEFAULT_POOL_SIZE)
    for bad in ("0", "-3", "many", "2.5"):
        with pytest.raises(ConfigError) as refused:
            load_config({"KLAVERJAS_DB_POOL": bad}, dotenv=None)
        assert "KLAVERJAS_DB_POOL" in str(refused.value) and repr(bad) in str(refused.value)
