-- Tables, their seats and every action, plus the Discord facts needed to carry on after a restart.
-- Discord ids are 64-bit integers; times are kept as ISO text (bot.store.backend.stored_time) in both databases.
-- only postgres:
CREATE FUNCTION klaverjas_now() RETURNS TEXT LANGUAGE sql VOLATILE AS
$$ SELECT {clock} $$;
-- both:

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id {int64} PRIMARY KEY,
    settings TEXT NOT NULL  -- JSON: TableSettings.to_dict()
);

CREATE TABLE tables (
    id {auto_id},
    guild_id {int64},
    channel_id {int64},
    thread_id {int64},
    lobby_message_id {int64},
    table_message_id {int64},
    host_id {int64} NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'stopped')),
    settings TEXT NOT NULL,  -- JSON: TableSettings.to_dict(), the rules in record form
    seed {int64} NOT NULL,
    created_at TEXT NOT NULL DEFAULT ({now}),
    updated_at TEXT NOT NULL DEFAULT ({now})
);

CREATE INDEX tables_status ON tables (status);

CREATE TABLE seats (
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    kind TEXT NOT NULL CHECK (kind IN ('empty', 'human', 'ai')),
    user_id {int64},
    name TEXT NOT NULL DEFAULT '',
    ai_level TEXT NOT NULL DEFAULT 'normal',
    away INTEGER NOT NULL DEFAULT 0,
    misses INTEGER NOT NULL DEFAULT 0,
    delivery TEXT NOT NULL DEFAULT 'dm',
    dm_channel_id {int64},
    hand_message_id {int64},
    PRIMARY KEY (table_id, seat)
);

-- One row per engine action, in order; replaying them rebuilds the game (and its record) exactly.
CREATE TABLE actions (
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CONSTRAINT actions_kind CHECK (kind IN ('deal', 'turn', 'call', 'card', 'claim')),
    data TEXT NOT NULL,  -- JSON, see bot/store/codec.py
    seat TEXT,
    actor TEXT NOT NULL,
    user_id {int64},
    at TEXT NOT NULL DEFAULT ({now}),
    PRIMARY KEY (table_id, seq)
);
