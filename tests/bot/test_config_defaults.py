"""Each setting of the bot's environment has its default in one place: the table service's ``ServiceConfig``."""

from __future__ import annotations

from bot.discord_app.config import VARIABLES, load_config
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
