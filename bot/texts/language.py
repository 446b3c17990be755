"""The languages a table speaks, and reading one from a Discord locale, a setting or a flag."""

from __future__ import annotations

from enum import StrEnum


class Language(StrEnum):
    EN = "en"
    NL = "nl"

    @classmethod
    def of(cls, text: str | None) -> Language:
        """``nl``, ``nl-NL``, ``Nederlands``: Dutch; anything else (``en-US``, None): English."""
        return cls.NL if (text or "").strip().lower().startswith(("nl", "ned")) else cls.EN
