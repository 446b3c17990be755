-- The language a seated person reads their private messages in (their Discord client's, taken when they sit
-- down); NULL: the table's language, as for every seat stored before.
ALTER TABLE seats ADD COLUMN language TEXT;
ALTER TABLE seats ADD COLUMN pending_language TEXT;
