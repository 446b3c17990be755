"""The web table's HTTP server (aiohttp): the page, its assets, the Activity's code exchange, replays and the
WebSocket. ``protocol.md`` beside this file is the contract with the page.

Built from what it needs (the table service, the archive of finished matches, the settings); the bot starts it
beside the gateway when the web table is configured, tests start it on a test server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

from aiohttp import ClientError, ClientSession, ClientTimeout, WSMsgType, web

from bot.tables.archive import MatchArchive
from bot.tables.errors import ServiceError, ServiceErrorCode
from bot.tables.model import StoredReview
from bot.tables.service import TableService
from bot.texts.catalog import error_text
from bot.texts.language import Language
from bot.web.config import WebConfig
from bot.web.frames import Frame
from bot.web.instances import ActivityInstance, DiscordUnavailable, InstanceGuard, InstanceRefused, parse_instance
from bot.web.limits import RateLimit
from bot.web.sessions import CLOSE_GOING_AWAY, Session, WebHub, page_texts, person_language
from bot.web.tokens import SESSION_TTL, TokenError, TokenKind, sign, verify
from engine.record import export_record

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
# Far above the 4 KB a frame may have: a bigger frame still gets an error frame, not a dropped connection; only a
# frame above this is cut off by aiohttp itself.
WS_READ_LIMIT = 64 * 1024
OAUTH_TIMEOUT = ClientTimeout(total=10)
EXCHANGES_PER_SECOND = 5.0  # Activity logins a second, all together: far more than people open Activities
EXCHANGE_BURST = 50
SHUTDOWN_WAIT = 3.0  # seconds the pages get to answer the going-away close before the server stops anyway

NOT_BUILT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Klaverjas</title></head>
<body><p>The web table's page is not built: run <code>make web</code> and restart the bot.</p></body></html>
"""

CSP = ("default-src 'self'; connect-src 'self' wss: ws:; img-src 'self' data:; style-src 'self'; "
       "script-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com")


class ReviewSource(Protocol):
    async def review(self, table_id: int) -> StoredReview | None: ...


# The bot's token (the gateway client's, once it logged in; None before): the Activity instance lookups need it.
BotToken = Callable[[], str | None]


@web.middleware
async def security_headers(request: web.Request,
                           handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:  # a refusal or a 404 carries them too
        _secure(error.headers)
        raise
    if not response.prepared:  # a socket's upgrade answer is sent already
        _secure(response.headers)
    return response


def _secure(headers: MutableMapping[str, str]) -> None:
    headers["Content-Security-Policy"] = CSP
    headers["X-Content-Type-Options"] = "nosniff"
    # The page's address carries its token: no other site may see it as a referrer.
    headers["Referrer-Policy"] = "no-referrer"


class WebServer:
    def __init__(self, service: TableService, config: WebConfig, *, archive: MatchArchive | None = None,
                 reviews: ReviewSource | None = None, static: Path = STATIC, bot_token: BotToken | None = None) -> None:
        self.service = service
        self.config = config
        self.archive = archive
        self.reviews = reviews
        self.static = static
        self.bot_token = bot_token
        self.instances = InstanceGuard(self.activity_instance)
        self.hub = WebHub(service, config, self.instances)
        self._http: ClientSession | None = None
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # once serving
        self._sessions: set[Session] = set()
        self._exchanges = RateLimit(EXCHANGES_PER_SECOND, EXCHANGE_BURST)  # code exchanges, all clients together

    # ------------------------------------------------------------ the app

    def app(self) -> web.Application:
        app = web.Application(middlewares=[security_headers], client_max_size=16 * 1024)
        app.router.add_get("/ws", self.socket)
        app.router.add_post("/api/token", self.exchange)
        app.router.add_get("/api/config", self.public_config)
        app.router.add_get("/api/replay", self.replay)
        app.router.add_get("/", self.index)
        app.router.add_get("/{name:[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*}", self.asset)
        app.on_shutdown.append(self._shutdown)
        app.on_cleanup.append(self._cleanup)
        return app

    async def start(self) -> None:
        """Serve on the configured port (beside the gateway)."""
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port)
        await site.start()
        server = site._server  # the port it got (the configured one, or any free one for port 0)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.config.port
        log.info("web table on port %d (%s)", self.port, self.config.public_url)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _shutdown(self, app: web.Application) -> None:
        # Before aiohttp waits for the open handlers (a socket's lasts as long as its page stays): otherwise every
        # open page held a restart up for aiohttp's whole shutdown timeout.
        sessions = list(self._sessions)
        for session in sessions:
            session.end(CLOSE_GOING_AWAY)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(s.ended() for s in sessions)), SHUTDOWN_WAIT)

    async def _cleanup(self, app: web.Application) -> None:
        for session in list(self._sessions):  # one that opened during the shutdown
            session.end(CLOSE_GOING_AWAY)
        if self._http is not None:
            await self._http.close()
            self._http = None

    # ------------------------------------------------------------ the page and its assets

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self.static / "index.html"
        if not page.is_file():
            return web.Response(text=NOT_BUILT, content_type="text/html")
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        root = self.static.resolve()
        path = (root / name).resolve()
        if ".." in name.split("/") or root not in path.parents or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "public, max-age=300"})

    # ------------------------------------------------------------ the Activity's login

    def _client(self) -> ClientSession:
        if self._http is None:
            self._http = ClientSession(timeout=OAUTH_TIMEOUT)
        return self._http

    async def public_config(self, request: web.Request) -> web.Response:
        """The application id, for the Activity's SDK when the page is served under a custom URL mapping (its host
        name then does not carry the id). Public by nature: nothing else goes here."""
        if not self.config.client_id:
            return web.json_response({"error": "activity_off"}, status=503)
        return web.json_response({"client_id": self.config.client_id}, headers={"Cache-Control": "no-cache"})

    async def exchange(self, request: web.Request) -> web.Response:
        """The Activity's OAuth code for Discord's access token (which the page hands the SDK) and a session token
        for the Discord id it belongs to (which opens the socket)."""
        config = self.config
        if not (config.client_id and config.client_secret):
            return web.json_response({"error": "activity_off"}, status=503)
        if not self._exchanges.allow():  # each one is a request to Discord: nobody makes the bot flood it
            return web.json_response({"error": "busy"}, status=429)
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code or len(code) > 200:
            return web.json_response({"error": "bad_request"}, status=400)
        http = self._client()
        try:
            async with http.post(config.token_url, data={
                    "client_id": config.client_id, "client_secret": config.client_secret,
                    "grant_type": "authorization_code", "code": code}) as answer:
                granted = await answer.json(content_type=None) if answer.status == 200 else None
            access = granted.get("access_token") if isinstance(granted, dict) else None
            if not isinstance(access, str):
                return web.json_response({"error": "code_refused"}, status=401)
            async with http.get(config.user_url, headers={"Authorization": f"Bearer {access}"}) as answer:
                user = await answer.json(content_type=None) if answer.status == 200 else None
        except (ClientError, TimeoutError, ValueError) as error:
            log.warning("the Activity's code exchange failed: %s", type(error).__name__)
            return web.json_response({"error": "discord_unreachable"}, status=502)
        user_id = user.get("id") if isinstance(user, dict) else None
        if not (isinstance(user_id, str) and user_id.isdigit()):
            return web.json_response({"error": "code_refused"}, status=401)
        session = sign(config.secret, int(user_id), TokenKind.SESSION, ttl=SESSION_TTL)
        return web.json_response({"access_token": access, "session": session})

    async def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        """Discord's record of one of this application's Activity instances (asked with the bot's token): where it
        runs and who is in it; None when Discord knows no such instance."""
        config = self.config
        token = self.bot_token() if self.bot_token is not None else None
        if not token or not config.client_id:
            raise InstanceRefused("activity_off")
        url = f"{config.api_url.rstrip('/')}/applications/{config.client_id}/activity-instances/" \
              f"{quote(instance_id, safe='')}"
        try:
            async with self._client().get(url, headers={"Authorization": f"Bot {token}"},
                                          timeout=ClientTimeout(total=config.discord_timeout)) as answer:
                if answer.status == 404:
                    return None
                if answer.status == 429:
                    body = await answer.json(content_type=None)
                    wait = body.get("retry_after") if isinstance(body, dict) else None
                    raise DiscordUnavailable("rate limited (429)", float(wait) if isinstance(
                        wait, int | float) and not isinstance(wait, bool) else 1.0)
                if answer.status != 200:
                    raise DiscordUnavailable(f"status {answer.status}")
                data = await answer.json(content_type=None)
        except (ClientError, TimeoutError, ValueError) as error:
            raise DiscordUnavailable(type(error).__name__) from None
        return parse_instance(data, instance_id, config.client_id)

    # ------------------------------------------------------------ replays

    async def replay(self, request: web.Request) -> web.Response:
        """A finished match's record (and its review, once made), for the person the token was signed for, where
        ``bot.access`` lets them see it (through the archive): never a running match, nor a sealed tournament's."""
        try:
            token = verify(self.config.secret, request.query.get("t"), TokenKind.REPLAY)
        except TokenError as error:
            return web.json_response({"error": error.code}, status=403)
        if self.archive is None or token.table is None or self.archive.store is None:
            return web.json_response({"error": "no_match"}, status=404)
        stored = await self.archive.store.load_table(token.table)
        try:
            if stored is None:
                raise ServiceError(ServiceErrorCode.NO_MATCH, {"table": token.table})
            match = await self.archive.match(token.table, stored.guild_id, token.person)
        except ServiceError as error:
            lang = stored.settings.language if stored is not None else Language.EN
            return web.json_response({"error": str(error.code), "message": error_text(error.code, {
                "table": token.table, "tournament": error.params.get("tournament", "")}, lang)}, status=403)
        table = match.table
        review = await self.reviews.review(table.id) if self.reviews is not None else None
        lang = person_language(table, token.person)
        # The words the replay page shows come with it, in the person's language, as the socket's welcome has them.
        out: Frame = {"table": table.id, "names": {str(s): n for s, n in zip("NESW", (
            table.seats[i].name for i in range(4)), strict=True)},
            "lang": lang.value, "texts": page_texts(lang), "felt": table.settings.felt,
            "four_colour": table.settings.four_colour,
            "record": export_record(match.replay.final()), "review": review_part(review)}
        return web.json_response(out)

    # ------------------------------------------------------------ the socket

    async def socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin", "").lower()
        if origin not in self.config.allowed_origins:
            raise web.HTTPForbidden(text="origin not allowed")
        ws = web.WebSocketResponse(max_msg_size=WS_READ_LIMIT, heartbeat=30.0)
        await ws.prepare(request)

        async def close(code: int) -> None:
            await ws.close(code=code)

        session = Session(self.hub, ws.send_str, close)
        self._sessions.add(session)
        # A socket that says nobody is (or says no one it may be) within the time: closed, not kept open for free.
        idle = asyncio.get_running_loop().call_later(self.config.hello_timeout, session.end_unless_welcomed)
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT or message.type is WSMsgType.BINARY:
                    await session.receive(message.data)
        finally:
            idle.cancel()
            self._sessions.discard(session)
            await session.finish()
        return ws


def review_part(stored: StoredReview | None) -> Frame | None:
    """The review's costly decisions, for marking them on the replay (the better choice and what it saved)."""
    if stored is None:
        return None
    review = stored.review
    return {"status": stored.status.value, "hands": review.hands,
            "decisions": [{"index": d.index, "hand": d.hand, "trick": d.trick, "seat": str(d.seat),
                           "choice": str(d.choice), "best": str(d.best), "cost": round(d.cost, 2)}
                          for d in review.decisions if d.cost > 0],
            "players": [{"seat": str(p.seat), "accuracy": round(p.accuracy, 3), "decisions": p.decisions}
                        for p in review.players]}
