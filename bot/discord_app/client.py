"""The discord.py client: registers the restart-proof buttons, loads the cogs, rebuilds running tables
and syncs slash commands only when they changed."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord_app.announcer import Announcer
from bot.discord_app.clicks import clickable_items, handle_click, unknown_click
from bot.discord_app.config import BotConfig
from bot.discord_app.failures import KlaverjasTree
from bot.discord_app.outbox import DeliveryConfig
from bot.discord_app.tournament_handlers import announce_final, announce_opened
from bot.discord_app.translator import Translator
from bot.discord_app.views import KlaverjasItem
from bot.store.base import SqlStore
from bot.store.choose import store_for
from bot.store.tournaments import SqlTournamentStore
from bot.tables.archive import MatchArchive
from bot.tables.driver import ChooseFn
from bot.tables.service import ServiceConfig, TableService
from bot.tables.shards import Shards
from bot.tables.thinking import Thinker
from bot.texts.catalog import COMMAND_TEXTS
from bot.tournaments.scheduler import TournamentScheduler
from bot.tournaments.service import TournamentService
from bot.web.config import WebConfig
from bot.web.server import WebServer

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.discord_app.cogs.tables", "bot.discord_app.cogs.play", "bot.discord_app.cogs.matches",
              "bot.discord_app.cogs.stats", "bot.discord_app.cogs.leaderboard", "bot.discord_app.cogs.history",
              "bot.discord_app.cogs.privacy", "bot.discord_app.cogs.tournaments", "bot.discord_app.cogs.review")


class KlaverjasBot(commands.Bot):
    def __init__(self, store: SqlStore, service_config: ServiceConfig, *, dev_guild: int | None = None,
                 sync_commands: bool = True, choose: ChooseFn | None = None, ai_workers: int = 0,
                 warm_up: bool = False, schedule_tournaments: bool = True, shards: Shards | None = None,
                 drawing_workers: int = 0, delivery: DeliveryConfig | None = None, web: WebConfig | None = None,
                 serve_web: bool = True, **client_options: Any) -> None:
        # Default intents only: interactions carry the member, nothing privileged is needed.
        # No message pings anyone unless it says whom (the announcer's turn pings do): names and typed text
        # in answers may read "@everyone" or a role mention.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=KlaverjasTree, allowed_mentions=discord.AllowedMentions.none(),
                         **client_options)
        # Built in the order they need each other, each given what it needs (nothing is wired in afterwards).
        self.store = store
        self.thinker = Thinker(ai_workers, warm=warm_up)
        self._warm_task: asyncio.Task[None] | None = None
        # In PostgreSQL other bot processes may share the store: each table is played and announced by the process
        # whose shards hold its guild (bot.tables.shared); with SQLite this process is the only one. The announcer
        # stores each finished game's end once it went out.
        shards = shards or Shards()
        self.service = TableService(store, service_config, choose=choose, thinker=self.thinker,
                                    front_end_stores_end=True, shards=shards,
                                    shared_store=store if store.dialect.notify is not None else None)
        self.shared = self.service.shared
        # drawing_workers: 1 draws the announcements' images in a process of its own, 0 in a thread (tests).
        self.announcer = Announcer(self, self.service, delivery, drawing_workers=drawing_workers, web=web)
        self.tournaments = TournamentService(SqlTournamentStore(store), self.service,
                                             announce=partial(announce_final, self),
                                             opened=partial(announce_opened, self))
        # Matches that are over: replays, exports; a tournament's deals stay hidden until it closes.
        self.archive = MatchArchive(store, self.service.table_in_memory, self.tournaments.name_and_status)
        # Closings and daily openings run on the wall clock (tests drive ``tournaments.run_due`` themselves).
        # Once per deployment: in the process that runs shard 0.
        self.scheduler = TournamentScheduler(self.tournaments) if schedule_tournaments and shards.first else None
        # The web table (bot.web): its links on the hands and /klaverjas web whenever it is configured; its server
        # beside the gateway when ``serve_web`` (the offline harness leaves the port alone).
        self.web = web
        # The server asks Discord where an Activity runs with the bot's own token (known once the client logged in).
        self.web_server = WebServer(self.service, web, archive=self.archive, reviews=store,
                                    bot_token=lambda: self.http.token) if web is not None and serve_web else None
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        # Every slash command is a subcommand of this group; the cogs attach theirs (bot.discord_app.cogs).
        # Tables live in server channels: Discord offers the commands there only, and only as installed in a
        # server (not as a user app); one that arrives from a DM anyway is refused by KlaverjasTree.
        self.klaverjas = app_commands.Group(
            name=_("klaverjas"), description=_("Play Klaverjas"), guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False))

    async def setup_hook(self) -> None:
        # Compile the strong player in the background (in the worker processes, or in a thread), so the
        # first AI decision does not wait for numba; a decision asked meanwhile simply queues behind it.
        self._warm_task = asyncio.get_running_loop().create_task(self._warm_up(), name="ai-warm-up")
        await self.tree.set_translator(Translator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*clickable_items())  # the cogs loaded their rooms, which give the items' behaviour
        if self.sync_commands:
            await self.sync_if_changed()
        restored = await self.service.restore(self.announcer.restored_lobby)
        if restored:
            log.info("rebuilt %d table(s) from the store", len(restored))
        if self.shared is not None:
            await self.shared.start()
        if self.scheduler is not None:
            self.scheduler.start()  # its first look carries on what a restart cut short
        if self.web_server is not None:
            if not self.web_server.config.client_id and self.application_id is not None:
                # Without DISCORD_CLIENT_ID the Activity's origin and login use the id Discord told at login.
                self.web_server.config = dataclasses.replace(self.web_server.config,
                                                             client_id=str(self.application_id))
            await self.web_server.start()

    async def on_click(self, interaction: discord.Interaction[Any], item: KlaverjasItem[Any], /) -> None:
        """Where the buttons send their clicks (bot.discord_app.views)."""
        await handle_click(self, interaction, item)

    async def on_interaction(self, interaction: discord.Interaction[Any], /) -> None:
        """Every interaction, after discord.py dispatched it: answers the clicks no button takes."""
        await unknown_click(interaction)

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

    async def _warm_up(self) -> None:
        try:
            await asyncio.gather(self.thinker.start(), self.announcer.drawing.start())
        except Exception:
            log.exception("warm-up failed; the workers start (and compile) on first use")

    async def close(self) -> None:
        if self.web_server is not None:
            await self.web_server.close()
        if self.scheduler is not None:
            await self.scheduler.close()
        if self.shared is not None:
            await self.shared.close()
        await self.service.close()
        await self.announcer.close()  # the last queued messages, while the HTTP session is still open
        self.thinker.close()
        await super().close()
        await self.store.close()


class ShardedKlaverjasBot(KlaverjasBot, commands.AutoShardedBot):
    """The bot on some of the gateway's shards (discord.py's AutoShardedClient): ``klaverjas bot --shards``."""


async def create_bot(config: BotConfig) -> KlaverjasBot:
    store = await store_for(config.database_url, config.db_path, config.db_pool).open()
    if config.shard_count is None:
        return KlaverjasBot(store, config.service_config(), dev_guild=config.dev_guild, ai_workers=config.ai_workers,
                            warm_up=True, drawing_workers=1, web=config.web)
    ids = config.shard_ids if config.shard_ids is not None else frozenset(range(config.shard_count))
    return ShardedKlaverjasBot(store, config.service_config(), dev_guild=config.dev_guild,
                               ai_workers=config.ai_workers, warm_up=True, drawing_workers=1,
                               shards=Shards(config.shard_count, ids), web=config.web,
                               shard_ids=sorted(ids), shard_count=config.shard_count)
