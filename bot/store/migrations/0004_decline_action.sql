-- The last trick's claim phase (roem: declared) adds one action kind, 'decline'.
-- only postgres:
ALTER TABLE actions DROP CONSTRAINT actions_kind;
ALTER TABLE actions ADD CONSTRAINT actions_kind
    CHECK (kind IN ('deal', 'turn', 'call', 'card', 'claim', 'decline'));
-- only sqlite:
-- SQLite cannot change a CHECK constraint in place, so the actions table is rebuilt with the same rows.
CREATE TABLE actions_new (
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('deal', 'turn', 'call', 'card', 'claim', 'decline')),
    data TEXT NOT NULL,  -- JSON, see bot/store/codec.py
    seat TEXT,
    actor TEXT NOT NULL,
    user_id {int64},
    at TEXT NOT NULL DEFAULT ({now}),
    PRIMARY KEY (table_id, seq)
);
INSERT INTO actions_new (table_id, seq, kind, data, seat, actor, user_id, at)
    SELECT table_id, seq, kind, data, seat, actor, user_id, at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;
