-- Tournaments: every participant (or pair) plays the same deals at a table of their own, against AI
-- players. A tournament's tables are ordinary tables that name their tournament: statistics that rate matches
-- skip the rows with a tournament_id.
ALTER TABLE tables ADD COLUMN tournament_id {int64};
CREATE INDEX tables_tournament ON tables (tournament_id) WHERE tournament_id IS NOT NULL;

CREATE TABLE tournaments (
    id {auto_id},
    guild_id {int64} NOT NULL,
    channel_id {int64} NOT NULL,  -- where it was opened; the winner is announced there
    name TEXT NOT NULL,
    creator_id {int64} NOT NULL,  -- 0: the daily tournament, opened by the bot itself
    hands INTEGER NOT NULL DEFAULT 16,
    settings TEXT NOT NULL,  -- JSON: TableSettings.to_dict() of every table (the length is the hands above)
    max_participants INTEGER NOT NULL DEFAULT 10,  -- entries (a pair is one); 0: no limit
    pairs INTEGER NOT NULL DEFAULT 1,  -- whether two people may enter as a pair
    opened_at {float64} NOT NULL,  -- Unix seconds
    closes_at {float64} NOT NULL,  -- Unix seconds
    status TEXT NOT NULL CHECK (status IN ('open', 'closing', 'closed')),
    seed {int64} NOT NULL,  -- the deals, turned suits and AI answers of every table
    daily TEXT,  -- a daily tournament: the UTC date it opened (YYYY-MM-DD); NULL for the others
    announced INTEGER NOT NULL DEFAULT 0  -- the final standings were posted in the channel
);
CREATE INDEX tournaments_status ON tournaments (status);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
-- One daily tournament per server and day, however often the scheduler looks (or restarts).
CREATE UNIQUE INDEX tournaments_daily ON tournaments (guild_id, daily) WHERE daily IS NOT NULL;

CREATE TABLE tournament_entries (
    id {auto_id},
    tournament_id {int64} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id {int64} NOT NULL,  -- sits South
    name TEXT NOT NULL,
    partner_id {int64},  -- a pair: the partner, North (NULL: alone, with an AI partner)
    partner_name TEXT NOT NULL DEFAULT '',
    confirmed INTEGER NOT NULL DEFAULT 1,  -- 0: a pair waiting for the partner to confirm
    table_id {int64} REFERENCES tables (id),
    finished INTEGER NOT NULL DEFAULT 0,
    finished_by_ai INTEGER NOT NULL DEFAULT 0,  -- unfinished at the closing, played to the end by the AI
    total INTEGER,  -- the entry's (NS) total once finished
    hand_scores TEXT,  -- JSON list: the entry's (NS) score per hand, once finished
    joined_at {float64} NOT NULL,
    UNIQUE (tournament_id, user_id)
);
CREATE INDEX tournament_entries_partner ON tournament_entries (tournament_id, partner_id);
CREATE INDEX tournament_entries_table ON tournament_entries (table_id);

CREATE TABLE tournament_config (
    guild_id {int64} PRIMARY KEY,
    daily INTEGER NOT NULL DEFAULT 0,  -- the daily tournament is on
    daily_hour INTEGER NOT NULL DEFAULT 19 CHECK (daily_hour BETWEEN 0 AND 23),  -- UTC
    channel_id {int64},  -- where the daily tournament opens
    creator_role_id {int64}  -- besides Manage Server, this role may create tournaments
);
