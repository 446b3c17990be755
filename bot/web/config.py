"""The web table's settings: from the bot's environment (``bot.discord_app.config`` reads them), or built by
tests and the benchmark directly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

DISCORD_TOKEN_URL = "https://discord.com/api/oauth2/token"
DISCORD_USER_URL = "https://discord.com/api/users/@me"
DISCORD_API_URL = "https://discord.com/api/v10"  # the bot's own requests (where an Activity instance runs)
MIN_SECRET_LENGTH = 16  # a short secret can be guessed offline from one token


@dataclass(frozen=True, slots=True)
class WebConfig:
    secret: str = field(repr=False)
    public_url: str = "http://localhost:8080"
    port: int = 8080
    host: str = "0.0.0.0"  # every interface: the reverse proxy in front (README) may be on another machine
    client_id: str | None = None  # the Discord application's id: the Activity's origin and the code exchange
    client_secret: str | None = field(default=None, repr=False)
    token_url: str = DISCORD_TOKEN_URL
    user_url: str = DISCORD_USER_URL
    api_url: str = DISCORD_API_URL
    discord_timeout: float = 5.0  # seconds the bot waits for Discord to say where an Activity runs
    extra_origins: tuple[str, ...] = ()  # more origins allowed to open the socket
    max_frame: int = 4096  # bytes of one client frame
    frames_per_second: float = 10.0  # a connection's steady rate ...
    frame_burst: int = 20  # ... and how far it may run ahead of it
    queue_limit: int = 256  # frames waiting for a slow client before it is cut off
    hello_timeout: float = 15.0  # seconds a socket may stay open without a successful hello

    @property
    def origin(self) -> str:
        """The scheme and host of ``public_url``: the page's own origin."""
        return origin_of(self.public_url)

    @property
    def allowed_origins(self) -> frozenset[str]:
        """Who may open the socket: the page's own origin and, with a client id, Discord's Activity proxy."""
        found = {self.origin, *self.extra_origins}
        if self.client_id:
            found.add(f"https://{self.client_id}.discordsays.com")
        return frozenset(found)

    def link(self, query: str) -> str:
        """An absolute link to the page (for Discord's link buttons; the page itself uses relative ones only)."""
        return f"{self.public_url.rstrip('/')}/?{query}"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def web_config_from(env: Mapping[str, str]) -> WebConfig | None:
    """The web table's settings, or None when it is not configured (any of the port, the public address and the
    secret unset): then the bot runs without it. Raises ValueError naming the variable for a bad value."""
    port_raw = env.get("KLAVERJAS_WEB_PORT", "").strip()
    public = env.get("KLAVERJAS_PUBLIC_URL", "").strip()
    secret = env.get("KLAVERJAS_WEB_SECRET", "").strip()
    if not (port_raw and public and secret):
        return None
    if not port_raw.isdigit() or not 0 < int(port_raw) < 65536:
        raise ValueError(f"KLAVERJAS_WEB_PORT must be a port number (1-65535), not {port_raw!r}")
    parts = urlsplit(public)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"KLAVERJAS_PUBLIC_URL must be the page's address (https://host/...), not {public!r}")
    if len(secret) < MIN_SECRET_LENGTH:
        raise ValueError(f"KLAVERJAS_WEB_SECRET must be at least {MIN_SECRET_LENGTH} characters (a random string)")
    client_id = env.get("DISCORD_CLIENT_ID", "").strip() or None
    if client_id is not None and not client_id.isdigit():
        raise ValueError(f"DISCORD_CLIENT_ID must be the application's id (a number), not {client_id!r}")
    origins = tuple(origin_of(o.strip()) for o in env.get("KLAVERJAS_WEB_ORIGINS", "").split(",") if o.strip())
    return WebConfig(secret=secret, public_url=public, port=int(port_raw), client_id=client_id,
                     client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip() or None,
                     token_url=env.get("KLAVERJAS_OAUTH_TOKEN_URL", "").strip() or DISCORD_TOKEN_URL,
                     user_url=env.get("KLAVERJAS_OAUTH_USER_URL", "").strip() or DISCORD_USER_URL,
                     api_url=env.get("KLAVERJAS_DISCORD_API_URL", "").strip() or DISCORD_API_URL,
                     extra_origins=origins)
