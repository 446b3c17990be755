-- Statistics and ratings. Written by bot/store/stats.py: the hand rows in the transaction of the
-- action that settles a hand, the match rows and rating updates in the transaction that stores a match's end.
-- A player is 'u:<discord user id>' for a person or 'ai:<level>' (easy, normal, hard) for an AI level.
-- Games stored before this migration get their rows from a data step run after this script
-- (bot/store/stats.py backfill, registered in bot/store/base.py DATA_STEPS), in the same transaction.

-- One row per settled hand and seat: who played that seat in that hand, and what the hand was for its team.
CREATE TABLE hand_stats (
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    hand INTEGER NOT NULL,  -- index in the match, from 0
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    guild_id {int64},
    player TEXT NOT NULL,
    team TEXT NOT NULL CHECK (team IN ('NS', 'EW')),
    chose INTEGER NOT NULL,  -- 1: this seat chose trump
    trump TEXT NOT NULL CHECK (trump IN ('C', 'D', 'H', 'S')),
    playing INTEGER NOT NULL,  -- 1: this seat's team played the hand
    made INTEGER NOT NULL,  -- 1: this seat's team played and made it
    nat INTEGER NOT NULL,  -- 1: this seat's team played and went nat
    pit INTEGER NOT NULL,  -- 1: this seat's team won all eight tricks
    points INTEGER NOT NULL,  -- the team's card points, last trick's 10 included
    roem INTEGER NOT NULL,  -- the team's roem that counted, the pit bonus not included
    score INTEGER NOT NULL,  -- what the hand scored for the team after settlement (0 when nat)
    settled_at TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seat)
);
-- /stats reads one player's hands (all figures from the index alone), by month for the chart.
CREATE INDEX hand_stats_player ON hand_stats (player, settled_at, chose, made, nat, pit, roem, score, trump);

-- One row per match and participant (everyone who played a hand, acted, or sat at the end).
CREATE TABLE match_stats (
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),  -- the seat where they played most hands
    team TEXT NOT NULL CHECK (team IN ('NS', 'EW')),
    partner TEXT,  -- who played most of the partner seat's hands
    -- 'unfinished': the match was stopped and this player neither left nor voted to stop
    result TEXT NOT NULL CHECK (result IN ('won', 'drawn', 'lost', 'abandoned', 'unfinished')),
    hands INTEGER NOT NULL,  -- hands this player played in this match
    team_total INTEGER NOT NULL,
    other_total INTEGER NOT NULL,
    rated INTEGER NOT NULL,  -- 1: the match changed this player's ratings
    guild_id {int64},
    channel_id {int64},
    thread_id {int64},
    settings TEXT NOT NULL,  -- JSON: TableSettings.to_dict()
    ended_at TEXT NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE INDEX match_stats_player ON match_stats (player, ended_at);
CREATE INDEX match_stats_guild_player ON match_stats (guild_id, player, ended_at);

-- The current rating of each player per scope: 0 for global, else the server's id.
CREATE TABLE ratings (
    scope {int64} NOT NULL,
    player TEXT NOT NULL,
    mu {float64} NOT NULL,
    sigma {float64} NOT NULL,
    conservative {float64} NOT NULL,  -- mu - 3 sigma (bot/stats/ratings.py), what the leaderboard ranks
    matches INTEGER NOT NULL,  -- rated matches
    updated_at TEXT NOT NULL,
    PRIMARY KEY (scope, player)
);
CREATE INDEX ratings_board ON ratings (scope, conservative DESC, matches);

-- Every rating change: before and after, per scope, player and match (the chart, and the periods of the board).
CREATE TABLE rating_changes (
    scope {int64} NOT NULL,
    player TEXT NOT NULL,
    table_id {int64} NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    mu_before {float64} NOT NULL,
    sigma_before {float64} NOT NULL,
    mu {float64} NOT NULL,
    sigma {float64} NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (scope, player, table_id)
);
CREATE INDEX rating_changes_player ON rating_changes (scope, player, at);
CREATE INDEX rating_changes_period ON rating_changes (scope, at, player);
