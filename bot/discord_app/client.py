"""The discord.py client: registers the restart-proof buttons, loads the cogs, rebuilds running tables
and syncs slash commands only when they changed."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.announcer import Announcer
from bot.discord_app.cogs import EXTENSIONS, make_group
from bot.discord_app.config import BotConfig
from bot.discord_app.translator import Translator
from bot.discord_app.views import DYNAMIC_ITEMS
from bot.store.sqlite import SqliteStore
from bot.tables.service import ChooseFn, ServiceConfig, TableService
from bot.tables.thinking import Thinker
from bot.texts.catalog import COMMAND_TEXTS, permission_name, t

log = logging.getLogger(__name__)


class KlaverjasBot(commands.Bot):
    def __init__(self, store: SqliteStore, service_config: ServiceConfig, *, dev_guild: int | None = None,
                 sync_commands: bool = True, choose: ChooseFn | None = None, ai_workers: int = 0,
                 warm_up: bool = False) -> None:
        # Default intents only: interactions carry the member, nothing privileged is needed.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.store = store
        self.thinker = Thinker(ai_workers, warm=warm_up)
        self._warm_task: asyncio.Task[None] | None = None
        self.service = TableService(store, service_config, choose=choose, thinker=self.thinker)
        self.announcer = Announcer(self)
        self.service.subscribe(self.announcer.on_event)
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self.klaverjas = make_group()

    async def setup_hook(self) -> None:
        # Compile the strong player in the background (in the worker processes, or in a thread), so the
        # first AI decision does not wait for numba; a decision asked meanwhile simply queues behind it.
        self._warm_task = asyncio.get_running_loop().create_task(self._warm_up(), name="ai-warm-up")
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.tree.set_translator(Translator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.add_command(self.klaverjas)
        if self.sync_commands:
            await self.sync_if_changed()
        restored = await self.service.restore()
        if restored:
            log.info("rebuilt %d table(s) from the store", len(restored))

    async def sync_if_changed(self) -> bool:
        """Sync the command tree only when its payload differs from the last synced one."""
        guild = discord.Object(self.dev_guild) if self.dev_guild is not None else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps([payload, COMMAND_TEXTS], sort_keys=True).encode()).hexdigest()
        key = f"commands_hash:{self.dev_guild or 'global'}"
        if await self.store.get_meta(key) == digest:
            log.info("slash commands unchanged: not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("slash commands synced (%s)", f"guild {self.dev_guild}" if guild else "global")
        return True

    async def on_app_command_error(self, interaction: discord.Interaction[discord.Client],
                               error: app_commands.AppCommandError) -> None:
        """A check that failed (permissions) or a command that broke: a private answer, nothing changed."""
        from bot.discord_app.handlers import reply, user_lang

        lang = user_lang(interaction)
        if isinstance(error, app_commands.MissingPermissions):
            perms = ", ".join(permission_name(p, lang) for p in error.missing_permissions)
            text = t("error.missing_permissions", lang, perms=perms)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t("error.not_here", lang)
        else:
            log.error("command %s failed", interaction.command.name if interaction.command else "?",
                      exc_info=error)
            text = t("error.unknown", lang)
        try:
            await reply(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer a failed command")

    async def _warm_up(self) -> None:
        try:
            await self.thinker.start()
        except Exception:
            log.exception("AI warm-up failed; decisions will compile on first use")

    async def close(self) -> None:
        await self.service.close()
        self.thinker.close()
        await super().close()
        await self.store.close()


async def create_bot(config: BotConfig) -> KlaverjasBot:
    store = await SqliteStore(config.db_path).open()
    return KlaverjasBot(store, config.service_config(), dev_guild=config.dev_guild, ai_workers=config.ai_workers,
                        warm_up=True)
