-- The last trick's claim phase (roem: declared) adds one action kind, 'decline' (PostgreSQL changes the check
-- in place; SQLite rebuilds the table).
ALTER TABLE actions DROP CONSTRAINT actions_kind;
ALTER TABLE actions ADD CONSTRAINT actions_kind
    CHECK (kind IN ('deal', 'turn', 'call', 'card', 'claim', 'decline'));
