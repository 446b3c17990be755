"""Discord's locales for the catalog: Dutch command names and descriptions."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.texts.catalog import COMMAND_TEXTS


class Translator(app_commands.Translator):
    """Dutch command names and descriptions for Discord's ``nl`` locale."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not Locale.dutch:
            return None
        return COMMAND_TEXTS.get(string.message)

