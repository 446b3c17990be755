-- Match reviews (engine/ai/review.py): what each human call and card of a finished match cost against the
-- strong player's choice. Computed after the match in the AI workers (bot/tables/reviews.py).
-- One row per reviewed match; a finished match with human decisions and no row here is still to review.
CREATE TABLE reviews (
    table_id {int64} PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    hands INTEGER NOT NULL,
    error TEXT,  -- 'failed': what went wrong (it is not tried again by itself)
    reviewed_at TEXT NOT NULL DEFAULT ({now})
);

-- Every reviewed decision; seq is the action's (actions.seq).
CREATE TABLE review_decisions (
    table_id {int64} NOT NULL REFERENCES reviews (table_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    trick INTEGER,  -- NULL: a call in the bidding
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    user_id {int64} NOT NULL,
    choice TEXT NOT NULL,  -- record notation: a card (JH) or a call (pass, play, C ...)
    best TEXT NOT NULL,
    cost {float64} NOT NULL,  -- points lost against best (0: the best, or as good)
    samples INTEGER NOT NULL,  -- sampled deals the numbers rest on
    reason TEXT,  -- why best is better: a hint code (engine/ai/hints.py HintCode), NULL when nothing was lost
    params TEXT,  -- JSON: the hint's params
    PRIMARY KEY (table_id, seq)
);

-- Per match and person: what /stats shows over time (accuracy) and /klaverjas review sums up.
CREATE TABLE review_players (
    table_id {int64} NOT NULL REFERENCES reviews (table_id) ON DELETE CASCADE,
    user_id {int64} NOT NULL,
    seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
    decisions INTEGER NOT NULL,
    accurate INTEGER NOT NULL,  -- decisions within the tolerance of the best
    lost {float64} NOT NULL,  -- points lost in all
    hands INTEGER NOT NULL,  -- hands in which the person made a call or played a card
    lost_by_hand TEXT NOT NULL,  -- JSON list, one number per hand of the match
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX review_players_user ON review_players (user_id, table_id);

-- A person's matches (autocomplete of /klaverjas review): the actions they made, by user.
CREATE INDEX actions_user ON actions (user_id, table_id) WHERE user_id IS NOT NULL;
