"""The database schema: each migration written once, in ``bot/store/migrations``, and run on both databases.

A migration is one SQL file, ``NNNN_name.sql``, numbered from 1 without gaps; the number is what a database
remembers (``Connection.schema_version``). It is plain SQL with two additions, the only differences between
SQLite and PostgreSQL this schema meets:

- words in braces for what each database spells its own way, taken from ``bot.store.backend.Dialect``:
  ``{int64}`` (INTEGER / BIGINT: Discord ids, seeds, row ids), ``{float64}`` (REAL / DOUBLE PRECISION),
  ``{auto_id}`` (a row id the database numbers itself), ``{now}`` (the current time as stored text) and
  ``{clock}`` (the SQL that ``{now}`` is made of in PostgreSQL, for the function migration 0001 defines);
- a line ``-- only sqlite:`` or ``-- only postgres:`` before statements one database runs and the other does
  not (a table rebuild where SQLite cannot change a check in place; a function SQLite does not need), up to
  the next such line or ``-- both:``.

Why this form and not a library or Python-built DDL: the statements stay SQL, readable as such and the same
text SQLite keeps in ``sqlite_master`` (a database made before this module existed has exactly the schema a
new one gets: tests/bot/test_schema.py), and the differences are a handful of words, not a second language to
learn; Alembic would add a model of the schema to keep in step with these files, and a dependency, for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from bot.store.backend import DIALECTS, Dialect, StoreError

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_SECTION = re.compile(r"^-- (?:only (?P<only>sqlite|postgres)|both):$")
_WORD = re.compile(r"\{(\w+)\}")
WORDS = ("int64", "float64", "auto_id", "now", "clock")  # the braced words a migration may use


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str  # its file's name: NNNN_what.sql
    source: str  # the file's text, braced words and sections still in it

    def sql(self, dialect: Dialect) -> str:
        """The script as ``dialect`` runs it: the other database's sections left out (as blank lines, so line
        numbers stay the file's), every braced word in the dialect's spelling."""
        lines: list[str] = []
        keep = True
        for line in self.source.splitlines(keepends=True):
            section = _SECTION.match(line.strip())
            if section is not None:
                keep = section["only"] in (None, dialect.name)
                lines.append("\n")
                continue
            lines.append(line if keep else "\n")
        return _WORD.sub(lambda found: self._spelling(dialect, found[1]), "".join(lines))

    def _spelling(self, dialect: Dialect, word: str) -> str:
        if word not in WORDS:
            raise StoreError(f"migration {self.name} uses {{{word}}}, which is none of {', '.join(WORDS)}")
        return str(getattr(dialect, word))


def schema() -> list[Migration]:
    """Every migration, in order; numbers must run 1, 2, 3 ..."""
    found: list[Migration] = []
    for entry in (resources.files("bot.store") / "migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.number)
    for expected, migration in enumerate(found, start=1):
        if migration.number != expected:
            raise StoreError(f"migration {migration.name} is out of sequence: expected number {expected:04d}")
    return found


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every migration as ``dialect`` (its name) runs it, in order."""
    spelling = DIALECTS[dialect]
    return [(migration.number, migration.name, migration.sql(spelling)) for migration in schema()]
