"""Signed, expiring tokens: a link to a seat, to a table's public view, a Discord session (the Activity) or a
match's replay.

``<payload>.<mac>``: the payload is base64url JSON ``{"p": person, "t": table or null, "k": kind, "exp": unix
seconds}``, the mac its HMAC-SHA256 under ``KLAVERJAS_WEB_SECRET`` (base64url). A token proves who the person is
and what it was made for, nothing more: whether a seat token still opens the seat is ``bot.access``'s to say at
every connection and action (leaving the seat revokes it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from enum import StrEnum

MAX_TOKEN_LENGTH = 512  # far more than a real token; anything longer is refused before it is decoded
SEAT_TTL = 12 * 3600.0  # a seat link lasts a long match and then some
SESSION_TTL = 12 * 3600.0
REPLAY_TTL = 7 * 24 * 3600.0
WATCH_TTL = 12 * 3600.0
ANYONE = 0  # a watch token's person when it was given to everyone who sees the thread (the table message)


class TokenKind(StrEnum):
    SEAT = "seat"  # a person at one table
    SESSION = "session"  # a Discord person (the Activity's login): which table follows from the channel
    REPLAY = "replay"  # one person, one finished match's record
    WATCH = "watch"  # one table's public view (what its thread shows), never a seat's


class TokenError(Exception):
    """A token that opens nothing. ``code`` names the reason for the page (and the text catalog)."""

    code = "bad_token"


class MalformedToken(TokenError):
    code = "bad_token"


class ForgedToken(TokenError):
    """Its signature is not ours: made or changed by someone without the secret."""

    code = "bad_token"


class ExpiredToken(TokenError):
    code = "expired_token"


class WrongKind(TokenError):
    code = "bad_token"


class WrongTable(TokenError):
    code = "bad_token"


@dataclass(frozen=True, slots=True)
class Token:
    person: int
    table: int | None
    kind: TokenKind
    expires: int  # unix seconds


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: str, payload: str) -> str:
    return _b64(hmac.new(secret.encode(), payload.encode("ascii"), hashlib.sha256).digest())


def sign(secret: str, person: int, kind: TokenKind, table: int | None = None, *, ttl: float,
         now: float | None = None) -> str:
    """A token for ``person`` (and ``table``), valid ``ttl`` seconds from ``now``."""
    if not secret:
        raise ValueError("no secret to sign with")
    expires = int((time.time() if now is None else now) + ttl)
    payload = _b64(json.dumps({"p": person, "t": table, "k": kind.value, "exp": expires},
                              separators=(",", ":")).encode())
    return f"{payload}.{_mac(secret, payload)}"


def verify(secret: str, text: object, kind: TokenKind, table: int | None = None, *,
           now: float | None = None) -> Token:
    """The token ``text`` when it is ours, unexpired and of ``kind`` (and for ``table``, when given); a
    ``TokenError`` saying why not otherwise. The signature is checked before anything in the payload is read."""
    if not secret:
        raise ForgedToken("no secret: no token is valid")
    if not isinstance(text, str) or not text or len(text) > MAX_TOKEN_LENGTH or text.count(".") != 1 \
            or not text.isascii():
        raise MalformedToken("not a token")
    payload, mac = text.split(".")
    if not hmac.compare_digest(_mac(secret, payload).encode(), mac.encode("ascii")):
        raise ForgedToken("signature does not match")
    try:
        data = json.loads(_unb64(payload))
    except (binascii.Error, ValueError) as error:
        raise MalformedToken(f"payload is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise MalformedToken("payload is not an object")
    person, found_table, found_kind, expires = data.get("p"), data.get("t"), data.get("k"), data.get("exp")
    if type(person) is not int or type(expires) is not int or not (found_table is None or type(found_table) is int):
        raise MalformedToken("payload fields have the wrong types")
    if found_kind != kind.value:
        raise WrongKind(f"a {found_kind} token, not a {kind.value} token")
    if expires <= (time.time() if now is None else now):
        raise ExpiredToken("expired")
    if table is not None and found_table != table:
        raise WrongTable(f"a token for table {found_table}, not {table}")
    return Token(person, found_table, kind, expires)
