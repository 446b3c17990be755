-- Tables, their seats and every action, plus the Discord facts needed to carry on after a restart.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL  -- JSON: TableSettings.to_dict()
);

CREATE TABLE tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER,
    channel_id INTEGER,
    thread_id INTEGER,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'stopped')),
    settings TEXT NOT NULL,  -- JSON: TableSettings.to_dict(), the rules in record form
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX tables_status ON tables (status);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    kind TEXT NOT NULL CHECK (kind IN ('empty', 'human', 'ai')),
    user_id INTEGER,
    name TEXT NOT NULL DEFAULT '',
    ai_level TEXT NOT NULL DEFAULT 'normal',
    away INTEGER NOT NULL DEFAULT 0,
    misses INTEGER NOT NULL DEFAULT 0,
    delivery TEXT NOT NULL DEFAULT 'dm',
    dm_channel_id INTEGER,
    hand_message_id INTEGER,
    PRIMARY KEY (table_id, seat)
);

-- One row per engine action, in order; replaying them rebuilds the game (and its record) exactly.
CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('deal', 'turn', 'call', 'card', 'claim')),
    data TEXT NOT NULL,  -- JSON, see bot/codec.py
    seat TEXT,
    actor TEXT NOT NULL,
    user_id INTEGER,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, seq)
);
