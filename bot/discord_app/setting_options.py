"""The table settings as options of a slash command, made from ``engine.settings.SETTINGS``: each setting's
option with its description and choices (their Dutch comes from the catalog through the translator), added to a
command by ``setting_options``, and the options a person gave turned into table settings by ``settings_from``."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.tables.model import TableSettings
from bot.texts.catalog import SETTING_TEXTS
from engine.settings import SETTINGS, Setting

Callback = Callable[..., Any]


def choices_of(setting: Setting) -> list[app_commands.Choice[str]]:
    """A setting's values as Discord's choices: the English name (translated for Discord's Dutch locale through
    ``bot.texts.catalog.COMMAND_TEXTS``) and the value as the record spells it."""
    texts = SETTING_TEXTS[setting.name]
    return [app_commands.Choice(name=_(texts.choice_name(value)), value=value) for value in setting.values]


def discord_settings(*, tournament: bool = False) -> tuple[Setting, ...]:
    """The settings a command takes as options: /klaverjas start and settings all of Discord's, a tournament
    those its tables can differ in."""
    return tuple(setting for setting in SETTINGS if setting.on_discord and (setting.in_tournament or not tournament))


def setting_options(*, tournament: bool = False) -> Callable[[Callback], Any]:
    """Give a command's callback one optional text option per setting, after its own parameters: the callback
    takes them as ``**options`` (by the settings' names), and discord.py reads them from the signature. (The
    result is typed ``Any``: mypy cannot match a method taking ``**options`` to discord.py's callback type.)"""
    settings = discord_settings(tournament=tournament)

    def decorate(callback: Callback) -> Any:
        signature = inspect.signature(callback)
        own = [parameter for parameter in signature.parameters.values()
               if parameter.kind is not inspect.Parameter.VAR_KEYWORD]
        added = [inspect.Parameter(setting.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=str | None) for setting in settings]
        callback.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        described = app_commands.describe(**{setting.name: _(SETTING_TEXTS[setting.name].about[0])
                                             for setting in settings})(callback)
        return app_commands.choices(**{setting.name: choices_of(setting)
                                       for setting in settings if setting.values})(described)

    return decorate


def settings_from(base: TableSettings, options: Mapping[str, str | None]) -> TableSettings:
    """``base`` with the settings a person chose (by the settings' names; None: not given), validated."""
    return base.with_changes(**{setting.key: options.get(setting.name) for setting in SETTINGS
                                if setting.name in options})
