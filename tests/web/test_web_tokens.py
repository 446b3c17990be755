"""Signed tokens: only ours, unexpired, of the kind and table asked for, open anything."""

from __future__ import annotations

import base64
import json

import pytest

from bot.web.tokens import (
    ExpiredToken,
    ForgedToken,
    MalformedToken,
    TokenKind,
    WrongKind,
    WrongTable,
    sign,
    verify,
)

SECRET = "a-secret-of-enough-length"
NOW = 1_800_000_000.0


def test_a_token_reads_back_as_signed() -> None:
    token = verify(SECRET, sign(SECRET, 42, TokenKind.SEAT, 7, ttl=60, now=NOW), TokenKind.SEAT, 7, now=NOW + 59)
    assert (token.person, token.table, token.kind) == (42, 7, TokenKind.SEAT)
    session = verify(SECRET, sign(SECRET, 42, TokenKind.SESSION, ttl=60, now=NOW), TokenKind.SESSION, now=NOW)
    assert session.table is None


def test_a_token_signed_with_another_secret_is_forged() -> None:
    with pytest.raises(ForgedToken):
        verify(SECRET, sign("another-secret-entirely", 42, TokenKind.SEAT, 7, ttl=60, now=NOW), TokenKind.SEAT,
               now=NOW)
    with pytest.raises(ForgedToken):
        verify("", sign(SECRET, 42, TokenKind.SEAT, 7, ttl=60, now=NOW), TokenKind.SEAT, now=NOW)


def test_a_changed_payload_does_not_match_its_signature() -> None:
    payload, mac = sign(SECRET, 42, TokenKind.SEAT, 7, ttl=60, now=NOW).split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    for change in ({"p": 43}, {"t": 8}, {"exp": data["exp"] + 3600}, {"k": "replay"}):
        forged = base64.urlsafe_b64encode(json.dumps({**data, **change}).encode()).rstrip(b"=").decode()
        with pytest.raises(ForgedToken):
            verify(SECRET, f"{forged}.{mac}", TokenKind.SEAT, now=NOW)
    with pytest.raises(ForgedToken):
        verify(SECRET, f"{payload}.{mac[:-2]}", TokenKind.SEAT, now=NOW)


def test_an_expired_token_is_refused() -> None:
    token = sign(SECRET, 42, TokenKind.SEAT, 7, ttl=60, now=NOW)
    with pytest.raises(ExpiredToken):
        verify(SECRET, token, TokenKind.SEAT, now=NOW + 60)


def test_a_token_of_another_kind_or_table_is_refused() -> None:
    token = sign(SECRET, 42, TokenKind.REPLAY, 7, ttl=60, now=NOW)
    with pytest.raises(WrongKind):
        verify(SECRET, token, TokenKind.SEAT, now=NOW)
    with pytest.raises(WrongTable):
        verify(SECRET, token, TokenKind.REPLAY, 8, now=NOW)


@pytest.mark.parametrize("text", [None, 5, "", "no-dot", "a.b.c", "x" * 600 + ".y", "é.ü"])
def test_what_is_no_token_at_all_is_malformed_or_forged(text: object) -> None:
    with pytest.raises((MalformedToken, ForgedToken)):
        verify(SECRET, text, TokenKind.SEAT, now=NOW)


def test_a_well_signed_payload_of_the_wrong_shape_is_malformed() -> None:
    import hashlib
    import hmac

    def signed(data: object) -> str:
        payload = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
        mac = hmac.new(SECRET.encode(), payload.encode(), hashlib.sha256).digest()
        return f"{payload}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"

    for data in ([1], {"p": "42", "t": 7, "k": "seat", "exp": NOW + 9}, {"p": 42, "t": 7, "k": "seat"}):
        with pytest.raises(MalformedToken):
            verify(SECRET, signed(data), TokenKind.SEAT, now=NOW)
